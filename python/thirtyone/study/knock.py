"""The strategy atlas of the knock (``thirtyone study knock``).

For each seat count, each position in the turn order (0: the dealer's left, first to play),
each lap of the round and each table (the standard one, whose knocker pays 2 when caught, and
the same with a knock penalty of 1), the engine plays rounds at a table of table players and, at
every turn where the player to move may knock, plays the round on twice from there: knocking
now, and not knocking now (see ``thirtyone_core::game::knock_atlas``). From those counts:

- the **knock score for the round**: the score ``K`` such that "knock at this turn with ``K`` or
  more, else play on by the table's rule" loses no life most often, with that chance and its 95%
  Wilson interval (each round counts once, by the branch the rule takes);
- the **knock score for the game**: the same, maximising the chance of winning the game (every
  player at the table's starting lives; after the round, the game-value table), with a 95%
  normal interval;
- the **first-turn survival**: by score, the chance that knocking at once loses nothing, and the
  lowest score from which it is at least 60% (the public study's question).

The work is cut in batches of rounds (:mod:`.cluster`): locally or on a Dask cluster, the same
seed gives the same atlas.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from typing import Any

from thirtyone import _core
from thirtyone import statistics as stats
from thirtyone.errors import SettingsError
from thirtyone.names import shown
from thirtyone.study.backend import cluster, workers

#: Rounds per batch (one call of the engine).
BATCH = 25_000
#: The most rounds per seat count a run may ask for.
MAX_ROUNDS = 100_000_000
#: The largest seed of an atlas: the engine's, as every command's `--seed` (ruling 104, 221).
MAX_SEED = 2**64 - 1
#: The tables: the knock penalty (2: the standard table; 1: the variant).
PENALTIES = (2, 1)
#: The survival the public study asked of a first-turn knock.
SURVIVAL = 0.6
#: A score seen fewer times than this at a (position, lap) is left out of the first-turn table.
MIN_SEEN = 200
FIELDS = (
    "n",
    "knock_safe",
    "wait_safe",
    "knock_lost",
    "wait_lost",
    "knock_win",
    "wait_win",
    "knock_win2",
    "wait_win2",
)


@dataclass(frozen=True)
class Settings:
    """How the atlas is computed."""

    rounds: int = 1_000_000
    seats: tuple[int, ...] = (2, 3, 4, 5, 6, 7, 8, 9)
    seed: int = 1
    jobs: int = 1

    def check(self) -> None:
        """Raise :class:`~thirtyone.errors.SettingsError` naming a setting out of its bounds,
        or of the wrong kind, and the value given."""
        if not _whole(self.rounds) or not 1 <= self.rounds <= MAX_ROUNDS:
            raise SettingsError(
                f"rounds must be a whole number from 1 to {MAX_ROUNDS:,}, not {shown(self.rounds)}"
            )
        if not isinstance(self.seats, list | tuple) or not self.seats:
            raise SettingsError(
                f"seats must be a list of table sizes from 2 to 9, not {shown(self.seats)}"
            )
        for seats in self.seats:
            if not _whole(seats) or not 2 <= seats <= 9:
                raise SettingsError(f"seats must be 2 to 9, not {shown(seats)}")
        if not _whole(self.seed) or not 0 <= self.seed <= MAX_SEED:
            raise SettingsError(
                f"seed must be a whole number from 0 to {MAX_SEED:,}, not {shown(self.seed)}"
            )


def _whole(value: object) -> bool:
    """Whether ``value`` is a whole number (an int, not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _batch(args: tuple[int, int, int, int, int]) -> dict[str, Any]:
    """The engine's counts of one batch: (seats, penalty, start, rounds, seed)."""
    seats, penalty, start, rounds, seed = args
    rules = {"preset": "standard", "knock_penalty": penalty}
    return _core.knock_atlas(rules, seats, start, rounds, seed=seed, threads=1)


def _units(settings: Settings) -> Iterator[tuple[int, int, int, int, int]]:
    for seats in settings.seats:
        for penalty in PENALTIES:
            for start in range(0, settings.rounds, BATCH):
                count = min(BATCH, settings.rounds - start)
                yield seats, penalty, start, count, settings.seed


def _decoder(
    units: list[tuple[int, int, int, int, int]],
) -> Callable[[int, Any], dict[str, Any]]:
    """Batch ``i``'s counts as its checkpoint line holds them, checked: the engine's fields,
    each count a whole number and each sum of chances a number, as many as the batch's seats
    have positions, laps and scores, and the laps and scores of the batches read before
    (ValueError for a line not so)."""
    seen: list[tuple[Any, ...]] = []

    def decode(index: int, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict) or data.keys() != {*FIELDS, "laps", "scores", "values"}:
            raise ValueError("not a batch of the atlas")
        laps, scores, values = data["laps"], data["scores"], data["values"]
        if not (_whole(laps) and _whole(scores) and laps > 0 and scores > 0):
            raise ValueError("laps and scores are counts")
        if not isinstance(values, bool) or seen[:1] not in ([], [(laps, scores, values)]):
            raise ValueError("not the shape of the other batches")
        seen[:1] = [(laps, scores, values)]
        size = units[index][0] * laps * scores
        for k in FIELDS:
            whole = k in FIELDS[:5]  # (the counts; then the sums of chances)
            if not isinstance(data[k], list) or len(data[k]) != size:
                raise ValueError(f"{k} has {size} entries")
            if not all(_whole(x) or (not whole and _finite(x)) for x in data[k]):
                raise ValueError(f"{k} holds numbers")
            if min(data[k], default=0) < 0:
                raise ValueError(f"{k} is not below 0")
        return data

    return decode


def _finite(value: object) -> bool:
    return isinstance(value, float) and math.isfinite(value)


def batch_count(settings: Settings) -> int:
    """The batches of the study (of :data:`BATCH` rounds or fewer): its progress's total."""
    return sum(1 for _ in _units(settings))


def compute(
    settings: Settings,
    backend: cluster.Backend | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[tuple[int, int], dict[str, Any]]:
    """The counts of every (seats, penalty), summed in batch order (the same on any backend)."""
    settings.check()
    backend = backend or cluster.Backend(jobs=settings.jobs)
    backend.check()
    units = list(_units(settings))
    header = {"study": "knock", "settings": {**asdict(settings), "jobs": None}, "batch": BATCH}
    totals: dict[tuple[int, int], dict[str, Any]] = {}
    done = 0
    codec = (lambda d: d, _decoder(units))
    played = cluster.batches(_batch, iter(units), backend, codec, header, count=len(units))
    for unit, part in zip(units, played, strict=False):
        with workers.held():
            key = (unit[0], unit[1])
            if key not in totals:
                totals[key] = {k: list(part[k]) for k in FIELDS} | {
                    "laps": part["laps"],
                    "scores": part["scores"],
                    "values": part["values"],
                }
            else:
                t = totals[key]
                for k in FIELDS:
                    t[k] = [a + b for a, b in zip(t[k], part[k], strict=True)]
            done += 1
        if progress is not None:
            progress(done, len(units))
    return totals


def _best(
    n: list[int], knock: list[float], wait: list[float], squares: tuple[list[float], list[float]]
) -> dict[str, Any] | None:
    """The threshold maximising the mean of ``knock`` above it and ``wait`` below it."""
    total = sum(n)
    if total == 0:
        return None
    scores = len(n)
    # math.fsum, not sum(): Python 3.12's sum() adds floats with compensation and 3.11's does
    # not, so the atlas's last digits depended on the Python (ruling 256).
    best_k, best_sum = scores, math.fsum(wait)  # (K = scores: never knock)
    run = best_sum
    for k in range(scores - 1, -1, -1):  # knock from k on
        run += knock[k] - wait[k]
        if run > best_sum + 1e-12:
            best_k, best_sum = k, run
    k2 = math.fsum(squares[0][best_k:]) + math.fsum(squares[1][:best_k])
    mean = best_sum / total
    return {"score": None if best_k >= scores else best_k / 2, "mean": mean, "k2": k2, "n": total}


def summary(counts: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per (position, lap) with decisions: the best knock scores and their figures."""
    laps, scores = counts["laps"], counts["scores"]
    rows = []
    seats = len(counts["n"]) // (laps * scores)
    for pos in range(seats):
        for lap in range(laps):
            sl = slice((pos * laps + lap) * scores, (pos * laps + lap + 1) * scores)
            n = counts["n"][sl]
            if sum(n) == 0:
                continue
            ks, ws = counts["knock_safe"][sl], counts["wait_safe"][sl]
            safe = _best(n, [float(x) for x in ks], [float(x) for x in ws], (ks, ws))
            assert safe is not None
            wins = round(safe["mean"] * safe["n"])
            row: dict[str, Any] = {
                "position": pos,
                "lap": lap,
                "decisions": safe["n"],
                "round": {
                    "knock_at": safe["score"],
                    "p_safe": safe["mean"],
                    "ci": list(stats.wilson(wins, safe["n"])),
                },
            }
            if counts["values"]:
                kw, ww = counts["knock_win"][sl], counts["wait_win"][sl]
                game = _best(n, kw, ww, (counts["knock_win2"][sl], counts["wait_win2"][sl]))
                assert game is not None
                row["game"] = {
                    "knock_at": game["score"],
                    "p_win": game["mean"],
                    "ci": _listed(stats.mean_interval(game["mean"], game["k2"], game["n"])),
                }
            rows.append(row)
    return rows


def _listed(ci: tuple[float, float] | None) -> list[float] | None:
    """An interval as the JSON lists it (None as null: a row of one decision)."""
    return None if ci is None else list(ci)


def first_turn(counts: dict[str, Any], position: int | None = 0) -> dict[str, Any]:
    """Lap 0's survival of a knock by score (``position``; None: every position pooled), and
    the lowest score from which every score seen at least :data:`MIN_SEEN` times survives
    :data:`SURVIVAL` or more (None: none does)."""
    laps, scores = counts["laps"], counts["scores"]
    seats = len(counts["n"]) // (laps * scores)
    positions = range(seats) if position is None else [position]
    n = [0] * scores
    safe = [0] * scores
    for pos in positions:
        base = pos * laps * scores
        for s in range(scores):
            n[s] += counts["n"][base + s]
            safe[s] += counts["knock_safe"][base + s]
    seen = [s for s in range(scores) if n[s] >= MIN_SEEN]
    lowest = None
    for s in reversed(seen):
        if safe[s] < SURVIVAL * n[s]:
            break
        lowest = s / 2
    by_score = [
        {
            "score": s / 2,
            "n": n[s],
            "p_safe": safe[s] / n[s],
            "ci": list(stats.wilson(safe[s], n[s])),
        }
        for s in seen
    ]
    return {"by_score": by_score, "lowest_for_survival": lowest}


def to_json(settings: Settings, totals: dict[tuple[int, int], dict[str, Any]]) -> dict[str, Any]:
    """The atlas as JSON: per seat count and table, the rows of :func:`summary` and the first
    turn's survival (position 0, and every position pooled)."""
    tables = []
    for (seats, penalty), counts in sorted(totals.items()):
        tables.append(
            {
                "seats": seats,
                "knock_penalty": penalty,
                "rounds": settings.rounds,
                "game_values": bool(counts["values"]),
                "rows": summary(counts),
                "first_turn": {
                    "first_player": first_turn(counts, 0),
                    "every_position": first_turn(counts, None),
                },
            }
        )
    return {"settings": {**asdict(settings), "seats": list(settings.seats)}, "tables": tables}


def _score(x: float | None) -> str:
    return "never" if x is None else f"{x:g}"


def _interval(ci: list[float] | None) -> str:
    """``(6.1-79.2)``, with an en dash: percent, as the README's tables write them; or ``(—)``
    for no interval (fewer than two decisions)."""
    return "(—)" if ci is None else stats.percent_interval(ci[0], ci[1])


#: The report's legend, above the first table (each line within 80 columns: ruling 380).
LEGEND = (
    "knock: the score from which to knock at this turn (never: waiting does better);",
    "p_safe: the chance of losing no life this round, p_win of winning the game;",
    "(95% CI): their 95% intervals, in percent.",
)
#: The widest cells (100,000,000 decisions; "never"; 100.0%; (100.0-100.0)): a row is at most
#: 2 + 3 + 1 + 3 + 1 + 11 + 2 * (2 + 5 + 1 + 6 + 1 + 13) = 77 characters, whatever the run.
_ROW = "  {:>3} {:>3} {:>11}  {:>5} {:>6} {:<13}  {:>5} {:>6} {}"


def _cells(figures: dict[str, Any], chance: str) -> tuple[str, str, str]:
    return _score(figures["knock_at"]), f"{figures[chance]:.1%}", _interval(figures["ci"])


def _table(t: dict[str, Any]) -> list[str]:
    """One seat count and table: its title, its first turn's survival and its rows."""
    ft = t["first_turn"]
    heads = ("knock", "p_win", "(95% CI)") if t["game_values"] else ("", "", "")
    lines = [
        f"{t['seats']} seats, knock penalty {t['knock_penalty']}, {t['rounds']:,} round"
        + ("" if t["rounds"] == 1 else "s"),
        "  first turn, lowest score knocking at which loses nothing 60% of the time:",
        f"    first player {_score(ft['first_player']['lowest_for_survival'])}, "
        f"any position {_score(ft['every_position']['lowest_for_survival'])}",
        f"{'':23}{'for the round':<26}  " + ("for the game" if t["game_values"] else ""),
        _ROW.format("pos", "lap", "decisions", "knock", "p_safe", "(95% CI)", *heads),
    ]
    for r in t["rows"]:
        game = _cells(r["game"], "p_win") if "game" in r else ("", "", "")
        lines.append(
            _ROW.format(
                r["position"], r["lap"], f"{r['decisions']:,}", *_cells(r["round"], "p_safe"), *game
            )
        )
    return [line.rstrip() for line in lines]


def report(data: dict[str, Any]) -> str:
    """Text tables of the atlas, every line within 80 columns (ruling 380): a legend, then per
    seat count and table, the first-turn survival threshold and the knock score for the round
    and for the game by position and lap, with their chances and 95% intervals."""
    lines = [*LEGEND, ""]
    for t in data["tables"]:
        lines += [*_table(t), ""]
    return "\n".join(lines)
