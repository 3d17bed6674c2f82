"""Calibration of the Oracle against real play.

Whole games are played with the game loop, every seat by its policy (the table's rule, or at
other tables experts, noisy table players: ``Settings.opponents``), except that at one
turn per round, chosen at random before the round is dealt (so the choice cannot depend on how
the round will go), the seat to move asks the Oracle, takes its best option and from then on
plays exactly the policy the Oracle simulated for it: the table's rule, knocking at the Oracle's
``knock_at`` (never if null). Prediction and outcome then refer to the same play, so among the
decisions predicted ``p_safe = p`` a share ``p`` should come through without losing a life.

For each decision the predicted ``p_safe`` and ``lives_lost`` of the option taken are recorded
with what happened (no life lost this round? lives lost, the round's nominal loss: the Oracle
does not know about washes). :func:`reliability` bins the predictions; :func:`rank_uniformity`
is the simulation-based check of the inference: the true hidden hands are known, so the rank of
the true score of one opponent's hand among the scores of the consistent deals the core samples
must be uniform.

``thirtyone calibrate`` and ``benches/calibrate.py`` run :func:`calibrate`.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from thirtyone import _core, paths
from thirtyone._core import Action
from thirtyone.errors import ThirtyOneError
from thirtyone.game.seats import NoisyPolicy, Policy, TablePolicy
from thirtyone.game.session import Event, Session
from thirtyone.names import shown
from thirtyone.oracle.answer import Advice
from thirtyone.oracle.player import OraclePlayer, opponent, play_option
from thirtyone.oracle.query import advise as oracle_advise
from thirtyone.oracle.state import parse, read_all_as
from thirtyone.study.backend import cluster, workers

# The run's settings and records, also reached from here (`calibration.Settings`).
from thirtyone.study.calibration_records import Decision as Decision
from thirtyone.study.calibration_records import Settings as Settings
from thirtyone.study.calibration_records import decision_from
from thirtyone.study.calibration_report import Report, calibration, rank_uniformity, save_plot


class Advisor(Protocol):
    """What the calibration calls to ask the Oracle (``thirtyone.advise`` or a test double)."""

    def __call__(
        self,
        state: Mapping[str, Any],
        *,
        deals: int,
        playouts: int,
        seed: int | None,
        threads: int | None,
        max_time: float | None,
    ) -> Advice: ...


def oracle_advisor(
    state: Mapping[str, Any],
    *,
    deals: int,
    playouts: int,
    seed: int | None,
    threads: int | None,
    max_time: float | None,
) -> Advice:
    """``thirtyone.advise``, the Oracle the calibration checks."""
    return oracle_advise(
        state, deals=deals, playouts=playouts, seed=seed, threads=threads, max_time=max_time
    )


def parse_seats(text: str) -> tuple[int, ...]:
    """Seat counts from ``4``, ``2-6`` or ``2,4,6`` (ValueError naming the part that is not a
    seat count of 2 to 9 or a range from a lower to a higher one)."""
    seats: list[int] = []
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        try:
            if not all(x.isascii() and x.isdigit() for x in (low, high if dash else low)):
                raise ValueError
            first, last = int(low), int(high if dash else low)
        except ValueError:
            raise ValueError(f"seats must be like 4, 2-6 or 2,4,6, not {shown(text)}") from None
        # (Checked before the range is made: "2-1000000000" must not build a billion seats.)
        if not (2 <= first <= 9 and 2 <= last <= 9):
            raise ValueError(f"seats must be 2 to 9, not {shown(part.strip())}")
        if last < first:
            raise ValueError(
                f"a range of seats goes from the fewer to the more, not {shown(part.strip())}"
            )
        seats.extend(range(first, last + 1))
    return tuple(seats)


def _seed(*parts: object) -> int:
    """A 63-bit seed derived from the parts (stable across runs and processes)."""
    return random.Random(":".join(str(p) for p in parts)).getrandbits(63)


def seat_policy(settings: Settings, game_index: int, seat: int) -> Policy | None:
    """How ``seat`` plays between the Oracle's decisions (None: the table's rule, in one step of
    the core): an expert (the Oracle at a small budget, with no time limit so that the same seed
    gives the same games), or a noisy table player (:class:`NoisyPolicy`)."""
    kind = settings.opponents
    seed = _seed("opponent", settings.seed, game_index, seat)
    if kind == "noisy":
        return NoisyPolicy.drawn(seed)
    policy = opponent(kind, seat, seed)
    if isinstance(policy, OraclePlayer):
        policy.max_time = None
        return policy
    return None


class _Table:
    """Plays one game: every seat by its policy (the table's rule at a table of ``table``
    players), one Oracle decision per round."""

    def __init__(self, game_index: int, settings: Settings, advisor: Advisor) -> None:
        self.index = game_index
        self.settings = settings
        self.advisor = advisor
        self.rng = random.Random(f"calibrate:{settings.seed}:{game_index}")
        rules = settings.table(game_index)
        self.rules = rules
        seats = range(rules.seats)
        policies = [seat_policy(settings, game_index, s) or TablePolicy() for s in seats]
        self.game = Session(rules, policies, seed=_seed("game", settings.seed, game_index))
        self.game.add_listener(self._event)
        self.decisions: list[Decision] = []
        self._ask_turn = -1
        self._asked = False
        self._policy: dict[int, float | None] = {}  # game seat -> knock_at (None: never)
        self._open: list[tuple[Decision, int]] = []  # decisions of this round, game seat

    def play_game(self) -> list[Decision]:
        game = self.game
        for seat in game.to_move():
            self.play(seat)
        return self.decisions

    def _event(self, event: Event) -> None:
        if event.kind == "deal":
            seats = len(event.data["seats"])
            # Chosen before the round is played: independent of how it will go.
            self._ask_turn = self.rng.randrange(4 * seats + 4)
            self._asked = False
            self._policy = {}
            self._open = []
        elif event.kind in ("round_end", "wash"):
            losses: Mapping[int, int] = event.data["losses"]
            for decision, seat in self._open:
                decision.lost = int(losses[seat])
                decision.safe = decision.lost == 0
                self.decisions.append(decision)
            self._open = []

    def play(self, seat: int) -> None:
        """Play the turn of game seat ``seat``, to move."""
        if seat in self._policy:
            self.game.play_rule_turn(self._policy[seat])
            return
        pending = self.game.pending
        starts = pending is not None and pending.phase == "start"
        if starts and not self._asked and self.game.turns_played == self._ask_turn:
            self._asked = True
            self._decide(seat)
            return
        self.game.play_policy()

    def _decide(self, seat: int) -> None:
        s = self.settings
        # The harness knows every hand (to check the inference against the truth).
        round_ = self.game.round
        assert round_ is not None
        pending = round_.stock_len > 0 and self.rng.random() < s.pending_share
        me = round_.to_move
        if pending:
            self.game.apply(Action("draw"))
        state = self.game.view()
        if s.read_as is not None:  # (the experts still read each other by their models)
            state = read_all_as(state, s.read_as)
        advice = self.advisor(
            state,
            deals=s.deals,
            playouts=s.playouts,
            seed=self.rng.getrandbits(63),
            threads=s.threads,
            max_time=s.max_time,
        )
        best = advice.best
        decision = Decision(
            game=self.index,
            round=self.game.round_number,
            seats=round_.seats,
            me=me,
            turn=round_.turns_played,
            pending=pending,
            after_knock=round_.knocker is not None,
            option=best.option,
            kind=best.kind.value,
            knock_at=best.knock_at,
            p_safe=best.p_safe,
            margin=best.margin,
            lives_lost=best.lives_lost,
            deals=advice.deals,
            options=len(advice.options),
            tied=bool(advice.tied),
            warnings=len(advice.warnings),
        )
        self._rank_check(decision, state, round_)
        self._open.append((decision, seat))
        self._policy[seat] = best.knock_at  # None: never
        play_option(self.game, best)

    def _rank_check(self, decision: Decision, state: dict[str, Any], round_: _core.Round) -> None:
        s = self.settings
        if s.rank_deals < 1:
            return
        others = [i for i in range(round_.seats) if i != decision.me]
        rival = self.rng.choice(others)
        round_rules = self.rules.round_rules()
        truth = _core.score(round_.hand(rival), round_rules)
        deals, _fallback = _core.sample_deals(
            parse(state), s.rank_deals, self.rng.getrandbits(63), threads=s.threads
        )
        scores = [_core.score(d["hands"][rival], round_rules) for d in deals]
        less = sum(x < truth for x in scores)
        equal = sum(x == truth for x in scores)
        rank = less + self.rng.randint(0, equal)  # ties broken at random
        decision.rank_opponent = rival
        decision.rank_n = len(scores)
        decision.rank_less = less
        decision.rank_equal = equal
        decision.rank = rank
        decision.rank_u = (rank + self.rng.random()) / (len(scores) + 1)


def play_game(
    game_index: int, settings: Settings, advisor: Advisor | None = None
) -> list[Decision]:
    """The decisions of one whole game (game ``game_index`` of a run with ``settings``)."""
    return _Table(game_index, settings, advisor or oracle_advisor).play_game()


def _play_game_default(args: tuple[int, Settings]) -> list[Decision]:
    return play_game(args[0], args[1])


def _encode(decisions: list[Decision]) -> Any:
    return [asdict(d) for d in decisions]


def _header(settings: Settings) -> dict[str, Any]:
    """What a checkpoint must have been written for (a batch is one game)."""
    kept = {k: v for k, v in asdict(settings).items() if k not in ("workers", "decisions")}
    return {"study": "calibrate", "settings": kept, "batch": 1}


@dataclass
class _Run:
    """The decisions recorded so far (whole games, in game order) and the games played."""

    decisions: list[Decision] = field(default_factory=list)
    games: int = 0
    #: How many workers played (None: no game was left to play, every one in the checkpoint).
    workers: int | None = None
    #: The games and decisions among them read back from the checkpoint, not played now.
    kept_games: int = 0
    kept_decisions: int = 0


class _Kept(list[Decision]):
    """A game's decisions read back from the checkpoint (not played in this run)."""


def _decode_kept(index: int, data: Any) -> list[Decision]:
    """Game ``index``'s decisions as its checkpoint line holds them, each checked and of that
    game (ValueError or TypeError for a line not so)."""
    if not isinstance(data, list):
        raise ValueError("not a game's decisions")
    decisions = [decision_from(d) for d in data]
    if any(d.game != index for d in decisions):
        raise ValueError(f"a decision not of game {index}")
    return _Kept(decisions)


def _collect(
    settings: Settings,
    advisor: Advisor | None,
    progress: Callable[[int, int], None] | None,
    into: _Run,
    backend: cluster.Backend | None = None,
) -> None:
    """Play games into ``into`` until ``settings.decisions`` decisions are recorded (a batch
    is one game; on ``backend``, by default ``settings.workers`` local processes)."""
    if backend is None:
        backend = cluster.Backend(jobs=settings.workers)
    if advisor is None:
        play: Callable[[tuple[int, Settings]], list[Decision]] = _play_game_default
    else:  # (a test double: played here, one game after the other)
        play, backend = (lambda args: play_game(args[0], args[1], advisor)), cluster.Backend()
    backend.check()
    games = ((g, settings) for g in itertools.count())

    def started(workers: int) -> None:
        into.workers = workers

    codec = (_encode, _decode_kept)  # (only the checkpoint's games are decoded)
    for decisions in cluster.batches(play, games, backend, codec, _header(settings), started):
        with workers.held():  # (a game is counted whole or not at all)
            into.decisions.extend(decisions)
            into.games += 1
            if isinstance(decisions, _Kept):
                into.kept_games += 1
                into.kept_decisions += len(decisions)
        if progress is not None:
            progress(len(into.decisions), into.games)
        if len(into.decisions) >= settings.decisions:
            return


def run(
    settings: Settings,
    advisor: Advisor | None = None,
    progress: Callable[[int, int], None] | None = None,
    backend: cluster.Backend | None = None,
) -> list[Decision]:
    """Play games until ``settings.decisions`` decisions are recorded; the first that many, in
    game order (the same whatever ``workers``). ``advisor`` replaces ``thirtyone.advise`` (a
    test hook; it forces one worker). ``progress(decisions, games)`` is called after each game.
    """
    into = _Run()
    _collect(settings, advisor, progress, into, backend)
    return into.decisions[: settings.decisions]


#: The files a run writes in its folder (``--out``).
OUT_FILES = ("decisions.jsonl", "report.md", "summary.json", "reliability.png")


def check_out(out_dir: Path) -> None:
    """Raise :class:`~thirtyone.errors.ThirtyOneError`, before the run, when its files could
    not be written in ``out_dir`` (:func:`thirtyone.paths.problem`); the folder is made when
    missing. Files of an earlier run there are replaced."""
    for name in OUT_FILES:
        if why := paths.problem(out_dir / name, create_folder=True):
            raise ThirtyOneError(f"--out {paths.short(out_dir)}: {why}")


def calibrate(
    settings: Settings,
    out_dir: Path | None = None,
    *,
    advisor: Advisor | None = None,
    echo: Callable[[str], None] | None = None,
    backend: cluster.Backend | None = None,
) -> Report:
    """Run, analyse, and (with ``out_dir``) :func:`save` the report. A run stopped (a
    KeyboardInterrupt: see :func:`thirtyone.study.backend.workers.stopping`) after some decisions is
    reported on those, with ``report.stopped`` saying by what; stopped before the first, the
    stop is raised again."""
    settings.check()
    if out_dir is not None:
        check_out(out_dir)
    start = time.monotonic()
    last = [start]

    def progress(n: int, g: int) -> None:
        now = time.monotonic()
        if echo is not None and now - last[0] >= 10:
            last[0] = now
            echo(f"  {n} decisions, {g} games, {now - start:.0f} s")

    into, stop = _Run(), None
    try:
        _collect(settings, advisor, progress, into, backend)
    except KeyboardInterrupt as err:
        stop = workers.stopped(err)
        if not into.decisions:
            raise stop from None
    decisions, noted = into.decisions[: settings.decisions], list[int]()
    with workers.noting(noted):  # (the decisions scored: a stop now is told with their report)
        report = Report(
            settings=settings,
            decisions=decisions,
            calibration=calibration(decisions),
            ranks=rank_uniformity(decisions),
            seconds=time.monotonic() - start,
            games=into.games,
            stopped=stop or (workers.Stopped(noted[0]) if noted else None),
            cluster=None if backend is None else backend.cluster,
            workers=into.workers,
            resumed=(into.kept_games, min(into.kept_decisions, len(decisions))),
        )
        if out_dir is not None:
            save(report, out_dir)
    if noted and report.stopped is None:  # (one while the files were written: after them)
        report.stopped = workers.Stopped(noted[0])
    return report


def save(report: Report, out_dir: Path) -> None:
    """Write ``decisions.jsonl``, ``report.md``, ``summary.json`` and ``reliability.png`` (when
    matplotlib is installed; else an earlier run's is removed) in ``out_dir``, replacing those
    of an earlier run. Signals wait until the four are written. Raises
    :class:`~thirtyone.errors.ThirtyOneError` when they cannot be."""
    png = out_dir / "reliability.png"
    try:
        with workers.held():
            out_dir.mkdir(parents=True, exist_ok=True)
            with (out_dir / "decisions.jsonl").open("w") as f:
                for d in report.decisions:
                    f.write(strict_json(asdict(d)) + "\n")
            if save_plot(report.calibration, report.ranks, png):
                report.plot = png
            else:
                png.unlink(missing_ok=True)
            (out_dir / "report.md").write_text(report.text() + "\n")
            (out_dir / "summary.json").write_text(strict_json(summary(report), indent=1) + "\n")
    except OSError as err:
        why = paths.why(err, Path(err.filename) if err.filename else None)
        raise ThirtyOneError(f"--out {paths.short(out_dir)}: {why}") from None


def summary(report: Report) -> dict[str, Any]:
    """The content of ``summary.json``."""
    return {
        "settings": asdict(report.settings),
        "seconds": report.seconds,
        "games": report.games,
        "stopped": None if report.stopped is None else report.stopped.name,
        "resumed": {"games": report.resumed[0], "decisions": report.resumed[1]},
        "calibration": asdict(report.calibration),
        "ranks": asdict(report.ranks),
    }


def _finite(value: Any) -> Any:
    """``value`` with every NaN or infinite float (an empty bin's mean...) as None."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def strict_json(value: Any, indent: int | None = None) -> str:
    """JSON that any parser reads: no NaN or Infinity (an undefined number is null)."""
    return json.dumps(_finite(value), indent=indent, allow_nan=False)


def shifted(advisor: Advisor, option: str, shift: float) -> Advisor:
    """An advisor whose ``option`` (e.g. ``"knock"``) reports ``p_safe`` shifted by ``shift``
    (clipped to 0..1), options re-sorted best first: a planted bias the calibration must catch."""

    def biased(
        state: Mapping[str, Any],
        *,
        deals: int,
        playouts: int,
        seed: int | None,
        threads: int | None,
        max_time: float | None,
    ) -> Advice:
        advice = advisor(
            state, deals=deals, playouts=playouts, seed=seed, threads=threads, max_time=max_time
        )
        options = [
            replace(o, p_safe=min(1.0, max(0.0, o.p_safe + shift))) if o.option == option else o
            for o in advice.options
        ]
        options.sort(key=lambda o: -o.p_safe)
        return replace(advice, options=options)

    return biased
