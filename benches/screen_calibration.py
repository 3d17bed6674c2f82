"""Screen a change to an opponent model in seconds instead of a calibration run's minutes.

``record`` plays the calibration's games (``thirtyone calibrate``'s, the same settings) at a
table and keeps every decision with the state the Oracle was asked, its seed, the option taken
and what came of it. ``score`` asks the Oracle again at each kept state (the build installed
now: another commit's, or a model changed in the core) and prints the reliability table of the
option that was taken, as ``thirtyone calibrate`` prints it.

    python benches/screen_calibration.py record --opponents expert --decisions 3000 \\
        --seed 1 --out /tmp/expert.jsonl
    python benches/screen_calibration.py score /tmp/expert.jsonl

``--seats`` (as ``thirtyone calibrate``'s: ``3``, ``2-6``) records tables of those sizes only.

What it can and cannot say: the outcome of each decision is the one the recorded game played,
so a build that predicts differently is scored on the same events, fairly, for the option that
was taken. But the table's own players are those of the recording: experts, who read each
other by the model too, would play differently under the changed model. A change that screens
well is then checked with a full ``thirtyone calibrate`` run on a new seed.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import multiprocessing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import thirtyone
from thirtyone.study import calibration
from thirtyone.study.calibration_records import Decision, Settings
from thirtyone.study.calibration_report import calibration as reliability_of
from thirtyone.study.calibration_report import format_table

#: The Oracle's precision at every decision (``thirtyone calibrate``'s documented runs).
DEALS, PLAYOUTS = 1_000, 2_000


def _settings(opponents: str, decisions: int, seed: int, seats: tuple[int, ...]) -> Settings:
    return Settings(
        decisions=decisions,
        seed=seed,
        seats=seats,
        deals=DEALS,
        playouts=PLAYOUTS,
        opponents=opponents,
        max_time=None,  # every answer the whole of its work: the same when asked again
    )


def _record_game(args: tuple[int, Settings]) -> list[dict[str, Any]]:
    """One game's decisions, each with the state and seed of its query (one query a round,
    in the order the decisions are recorded)."""
    game, settings = args
    asked: list[tuple[dict[str, Any], int | None]] = []

    def advisor(state: Any, **kw: Any) -> Any:
        asked.append((json.loads(json.dumps(state)), kw["seed"]))
        return calibration.oracle_advisor(state, **kw)

    decisions = calibration.play_game(game, settings, advisor)
    return [
        {"decision": dataclasses.asdict(d), "state": state, "seed": seed}
        for d, (state, seed) in zip(decisions, asked, strict=True)
    ]


def record(
    opponents: str,
    decisions: int,
    seed: int,
    out: Path,
    workers: int,
    seats: tuple[int, ...] = Settings.seats,
) -> None:
    settings = _settings(opponents, decisions, seed, seats)
    settings.check()
    kept = 0
    games = ((g, settings) for g in range(1_000_000))
    with _pool(workers) as pool, out.open("w") as f:
        for rows in pool.imap(_record_game, games) if pool else map(_record_game, games):
            for row in rows:
                f.write(json.dumps(row) + "\n")
            kept += len(rows)
            if kept >= decisions:
                break
    print(f"{kept} decisions kept in {out}")


@contextlib.contextmanager
def _pool(workers: int) -> Iterator[Any]:
    """Worker processes, or None for one (played here). They are spawned, not forked: a fork
    of a process whose Oracle has run copies its thread pool's locks but not its threads."""
    if workers <= 1:
        yield None
        return
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        yield pool
        pool.terminate()


def _asked_again(line: str) -> tuple[Decision, bool]:
    """The kept decision with the ``p_safe`` the installed build gives the option that was taken,
    and whether that build would take another option."""
    row = json.loads(line)
    d = Decision(**row["decision"])
    advice = thirtyone.advise(
        row["state"], deals=DEALS, playouts=PLAYOUTS, seed=row["seed"], threads=1, max_time=None
    )
    taken = next((o for o in advice.options if o.option == d.option), None)
    if taken is None:
        raise SystemExit(
            f"game {d.game}, round {d.round}: this build has no option {d.option!r} "
            f"({', '.join(o.option for o in advice.options)})"
        )
    return dataclasses.replace(d, p_safe=taken.p_safe), advice.best.option != d.option


def score(path: Path, workers: int) -> int:
    """Print the reliability table of the kept decisions asked again; return how many were
    predicted exactly as recorded."""
    lines = path.read_text().splitlines()
    recorded = [Decision(**json.loads(line)["decision"]) for line in lines]
    with _pool(workers) as pool:
        asked = pool.map(_asked_again, lines, chunksize=20) if pool else map(_asked_again, lines)
        now, changed = zip(*asked, strict=True) if lines else ((), ())
    same = sum(a.p_safe == b.p_safe for a, b in zip(recorded, now, strict=True))
    print(f"{len(now)} decisions; {same} predicted exactly as recorded")
    # The recorded option was the best of the recording build's own noisy estimates; a build
    # that would now take another is scored on a choice it did not make.
    print(f"{sum(changed)} where this build's best option is another")
    cal = reliability_of(list(now))
    print(format_table(cal))
    outside = sum(1 for b in cal.bins if b.count and not b.ci_low <= b.predicted <= b.ci_high)
    print(f"bins outside their interval: {outside}; chi-square {cal.statistic:.1f} on {cal.df}")
    return same


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="Play the calibration's games, keeping every query.")
    rec.add_argument("--opponents", default="expert", choices=("table", "expert", "mixed", "noisy"))
    rec.add_argument("--decisions", type=int, default=3_000)
    rec.add_argument("--seed", type=int, default=1)
    rec.add_argument("--out", type=Path, required=True)
    rec.add_argument("--workers", type=int, default=2)
    rec.add_argument(
        "--seats", type=calibration.parse_seats, default=(2, 3, 4, 5, 6), help="as calibrate's"
    )
    sc = sub.add_parser("score", help="Ask again at every kept query; the reliability table.")
    sc.add_argument("path", type=Path)
    sc.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    if a.command == "record":
        record(a.opponents, a.decisions, a.seed, a.out, a.workers, a.seats)
    else:
        score(a.path, a.workers)


if __name__ == "__main__":
    main()
