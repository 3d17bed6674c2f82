"""Game review: a saved game replayed, and each decision of one seat set against the Oracle.

:func:`decisions` replays a save's journal quietly (:func:`thirtyone.saves.replayed`) and notes,
for every decision of the seat, the round as that seat saw it at that moment
(:meth:`thirtyone.Game.view`: its own cards and what the table saw, nothing else) and the choice
made. A decision is a turn's start (``knock``, ``draw``, ``take``, ``decline``, or the blind
showdown called before anybody looks) and, after a draw or a take, the put-down
(``discard:XX``): the same decisions as the record of games counts (:mod:`thirtyone.store.keeper`),
so a game has as many decisions in ``thirtyone review`` as in ``thirtyone stats``. The take is
judged at the Oracle's ``take`` (which carries its best put-down), the put-down after it at the
Oracle's put-downs with the card taken in hand. The blind showdown is kept with a note: the
Oracle does not answer it.

:func:`review` asks :func:`thirtyone.advise` about each of them, with a seed derived from the
review's seed and the position and no time limit, so the same seed gives the same review, and
says what the choice cost: the best option's ``p_safe`` minus the chosen one's, and the same in
``p_win`` (against ``best_game``) when the Oracle gives the game-level figures; never below 0
(an option tied with the best may be a little safer: it costs nothing).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from thirtyone import _core
from thirtyone.errors import ThirtyOneError
from thirtyone.game.loop import Game
from thirtyone.game.players import Player
from thirtyone.game.turn import Turn
from thirtyone.oracle.answer import Advice, OptionAdvice
from thirtyone.oracle.query import advise
from thirtyone.store import saves

#: The review's default budget per decision: well below the Oracle's full precision (10,000
#: deals, 50,000 playouts), so that a game of 40 decisions is reviewed in seconds; the margins
#: are then about ±2 percentage points.
DEALS = 2_000
PLAYOUTS = 5_000
#: The steps of a turn that are decisions.
START, PUT_DOWN = "start", "put-down"


@dataclass
class Decision:
    """One decision of the reviewed seat: the round and the turn of the round (1 for the
    round's first turn), the step (:data:`START` or :data:`PUT_DOWN`), the hand held and the top
    of the discard pile then, the choice as the Oracle names its options, and the round as the
    seat saw it (the Oracle's input). ``drew``: at a put-down after a draw, the card drawn from
    the stock; ``took``: at a take and at the put-down after it, the card taken; ``put_down``:
    the card put down after a take or a draw; ``hid``: the put-down kept a 31 hidden."""

    round: int
    turn: int
    step: str
    hand: list[str]
    top: str
    choice: str
    state: dict[str, Any]
    drew: str | None = None
    took: str | None = None
    put_down: str | None = None
    hid: bool = False


class _Noting(Turn):
    """The turn of the reviewed seat: notes each decision, as the seat sees the round, before
    playing it."""

    def __init__(self, turn: Turn, noted: list[Decision]) -> None:
        super().__init__(turn.game, turn._round, turn._log)
        self.noted = noted
        self._taken: Decision | None = None

    def _note(self, step: str, choice: str, **extra: Any) -> Decision:
        decision = Decision(
            round=self.game.round_number,
            turn=self.turns_played + 1,
            step=step,
            hand=self.hand,
            top=self.top,
            choice=choice,
            state=self.game.view(self.seat),
            **extra,
        )
        self.noted.append(decision)
        return decision

    def knock(self) -> None:
        self._note(START, "knock")
        super().knock()

    def decline(self) -> None:
        self._note(START, "decline")
        super().decline()

    def draw(self) -> str:
        self._note(START, "draw")
        return super().draw()

    def take(self) -> str:
        self._taken = self._note(START, "take", took=self.top)
        return super().take()

    def call_blind(self) -> None:
        self._note(START, "blind")
        super().call_blind()

    def put_down(self, card: str, *, hide: bool = False) -> None:
        pending = self.pending
        noted = None
        if pending is not None:
            new, source = pending
            drawn = {"drew": new} if source == "stock" else {"took": new}
            noted = self._note(PUT_DOWN, "", hid=hide, **drawn)
        super().put_down(card, hide=hide)
        if noted is not None:  # (the card put down, in the core's spelling)
            noted.choice, noted.put_down = f"discard:{self.top}", self.top
        if self._taken is not None:
            self._taken.put_down = self.top
            self._taken.hid = hide


class _Watch:
    """Wraps the reviewed seat's replaying player so that its turns are noted."""

    def __init__(self, player: Player, noted: list[Decision]) -> None:
        self.player = player
        self.name = player.name
        self.noted = noted

    def play(self, turn: Turn) -> None:
        self.player.play(_Noting(turn, self.noted))


@dataclass(frozen=True)
class Replay:
    """A saved game replayed: the save, the game rebuilt (stopped where the journal ends) and
    the decisions of ``seat``."""

    saved: saves.SavedGame
    game: Game
    seat: int
    decisions: list[Decision]


def decisions(saved: saves.SavedGame, where: str, seat: int | None = None) -> Replay:
    """Replay ``saved`` and note every decision of ``seat`` (default: the person's seat).
    Raises :class:`~thirtyone.saves.SaveError` when the journal cannot be replayed."""
    seat = saved.you if seat is None else seat
    noted: list[Decision] = []

    def watch(s: int, player: Player) -> Player:
        return _Watch(player, noted) if s == seat else player

    game = saves.replayed(saved, where, watch)
    return Replay(saved, game, seat, noted)


# -- the Oracle's view of each decision -----------------------------------------------------------


def p_win(option: OptionAdvice | None) -> float | None:
    """The option's ``p_win`` (None when the Oracle gives no game-level figures)."""
    value = getattr(option, "p_win", None)
    return None if value is None else float(value)


@dataclass
class Reviewed:
    """A decision with the Oracle's answer (None, with ``note`` saying why, when it gave none),
    the option chosen among its options, whether the choice was the best or statistically tied
    with it (``agreed``), and its cost: the best's ``p_safe`` minus the chosen's, and
    ``best_game``'s ``p_win`` minus the chosen's (None without game-level figures)."""

    decision: Decision
    advice: Advice | None = None
    chosen: OptionAdvice | None = None
    agreed: bool | None = None
    cost_safe: float | None = None
    cost_win: float | None = None
    note: str | None = None

    @property
    def best(self) -> OptionAdvice | None:
        return None if self.advice is None else self.advice.best

    @property
    def best_game(self) -> OptionAdvice | None:
        return getattr(self.advice, "best_game", None)

    @property
    def counted(self) -> bool:
        """Whether the decision has its figures (and counts in the summary)."""
        return self.chosen is not None


def judge(decision: Decision, advice: Advice) -> Reviewed:
    """The decision set against the Oracle's ``advice`` at its position."""
    try:
        chosen = advice.option(decision.choice)
    except KeyError:
        return Reviewed(decision, advice, note="the Oracle gave no figures for this choice")
    tied = {o.option for o in advice.tied}
    best_game = getattr(advice, "best_game", None)
    top, mine = p_win(best_game), p_win(chosen)
    return Reviewed(
        decision,
        advice,
        chosen,
        agreed=chosen.option == advice.best.option or chosen.option in tied,
        cost_safe=max(0.0, advice.best.p_safe - chosen.p_safe),
        cost_win=None if top is None or mine is None else max(0.0, top - mine),
    )


@dataclass(frozen=True)
class Settings:
    """The Oracle's budget per decision and the review's seed."""

    deals: int = DEALS
    playouts: int = PLAYOUTS
    seed: int = 0

    def check(self) -> None:
        """Raise :class:`~thirtyone.errors.SettingsError` naming a setting out of its bounds."""
        _core.check_settings(deals=self.deals, playouts=self.playouts)


def decision_seed(seed: int, decision: Decision) -> int:
    """The seed of the query at ``decision``'s position (63 bits): the same position gives the
    same figures whatever else the review holds."""
    key = (seed, "review", decision.round, decision.turn, decision.step)
    digest = hashlib.blake2b(repr(key).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def ask(decision: Decision, settings: Settings) -> Reviewed:
    """The Oracle's answer at the decision, and the decision judged by it."""
    if decision.choice == "blind":
        return Reviewed(decision, note="the Oracle does not answer the blind showdown")
    try:
        advice = advise(
            decision.state,
            deals=settings.deals,
            playouts=settings.playouts,
            seed=decision_seed(settings.seed, decision),
            max_time=None,
        )
    except ThirtyOneError as err:
        why = " ".join(str(err).split())
        return Reviewed(decision, note=f"the Oracle has no advice here: {why}")
    return judge(decision, advice)


@dataclass
class Review:
    """A game reviewed: the replay, the settings and every decision judged."""

    replay: Replay
    settings: Settings
    reviewed: list[Reviewed] = field(default_factory=list)

    @property
    def counted(self) -> list[Reviewed]:
        return [r for r in self.reviewed if r.counted]

    @property
    def agreed(self) -> int:
        return sum(1 for r in self.counted if r.agreed)

    @property
    def agreement(self) -> float | None:
        counted = self.counted
        return self.agreed / len(counted) if counted else None

    @property
    def cost_safe(self) -> float:
        return sum(r.cost_safe or 0.0 for r in self.counted)

    @property
    def cost_win(self) -> float | None:
        costs = [r.cost_win for r in self.counted]
        if not costs or any(c is None for c in costs):
            return None
        return sum(c or 0.0 for c in costs)

    def costliest(self, most: int = 3) -> list[Reviewed]:
        """The decisions that cost most in ``p_safe`` (only those that cost something), the
        costliest first (then in the order played)."""
        costly = [r for r in self.counted if (r.cost_safe or 0.0) > 0.0]
        costly.sort(key=lambda r: -(r.cost_safe or 0.0))
        return costly[:most]


def review(
    replay: Replay,
    settings: Settings,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Ask the Oracle about every decision of ``replay``; ``progress(done, total)`` is called
    after each."""
    settings.check()
    done = Review(replay, settings)
    total = len(replay.decisions)
    for i, decision in enumerate(replay.decisions, start=1):
        done.reviewed.append(ask(decision, settings))
        if progress is not None:
            progress(i, total)
    return done
