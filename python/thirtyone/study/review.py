"""Game review: a saved game replayed, and each decision of one seat set against the Oracle.

:func:`decisions` replays a save's journal quietly (:func:`thirtyone.store.saves.replayed`) and
notes, before each action of the seat, the round as that seat saw it at that moment
(:meth:`thirtyone.Session.view`: its own cards and what the table saw, nothing else) and the
choice made. A decision is a turn's start (``knock``, ``draw``, ``take``, ``decline``, or the
blind showdown called before anybody looks) and, after a draw or a take, the put-down
(``discard:XX``, or ``hide:XX`` where it keeps a 31 hidden): the same decisions and choices as
the record of games counts (:mod:`thirtyone.store.keeper`),
so a game has as many decisions in ``thirtyone review`` as in ``thirtyone stats``. The take is
judged at the Oracle's ``take`` (which carries its best put-down), the put-down after it at the
Oracle's put-downs with the card taken in hand. The blind showdown is kept with a note: the
Oracle does not answer it.

:func:`review` asks :func:`thirtyone.advise` about each of them, with a seed derived from the
review's seed and the position and no time limit, so the same seed gives the same review, and
says what the choice cost: the best option's ``p_safe`` minus the chosen one's, and the same in
``p_win`` (against ``best_game``) when the Oracle gives the game-level figures, never below 0 (an
option tied with the best may be a little safer: it costs nothing). Each decision is
then labelled by its cost (:func:`label`: best, good, inaccuracy, mistake, blunder; the one
place of the labels' thresholds, which ``thirtyone review`` and the review page both show).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from thirtyone import _core, names, paths
from thirtyone._core import Action
from thirtyone.errors import ThirtyOneError
from thirtyone.game.seats import SeatView
from thirtyone.game.session import Session
from thirtyone.oracle.answer import Advice, OptionAdvice
from thirtyone.oracle.query import advise
from thirtyone.store import saves
from thirtyone.store.record import agrees

#: The review's default budget per decision: well below the Oracle's full precision (10,000
#: deals, 50,000 playouts), so that a game of 40 decisions is reviewed in seconds; the margins
#: are then about ±2 percentage points.
DEALS = 2_000
PLAYOUTS = 5_000
#: The steps of a turn that are decisions.
START, PUT_DOWN = "start", "put-down"
#: A decision's labels by what it cost (docs/review.md), with the least cost of each in points
#: of ``p_win`` (of ``p_safe`` where the Oracle gives no chance of winning the game) as a
#: fraction: ``best`` is the best option or one within the margins of it, whatever the cost.
LABELS: tuple[tuple[str, float | None], ...] = (
    ("best", None),
    ("good", 0.0),
    ("inaccuracy", 0.02),
    ("mistake", 0.05),
    ("blunder", 0.10),
)


@dataclass
class Decision:
    """One decision of the reviewed seat: the round and the turn of the round (1 for the
    round's first turn), the step (:data:`START` or :data:`PUT_DOWN`), the hand held and the top
    of the discard pile then, the choice as the Oracle names its options, and the round as the
    seat saw it (the Oracle's input). ``drew``: at a put-down after a draw, the card drawn from
    the stock; ``took``: at a take and at the put-down after it, the card taken; ``put_down``:
    the card put down after a take or a draw; ``hid``: the put-down kept a 31 hidden (its
    choice is then ``hide:XX``, an option the Oracle does not weigh: it shows a 31)."""

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
    #: The names of the round's seats in the state's numbering (round seat i is ``players[i]``).
    players: list[str] = field(default_factory=list)


class _Notes:
    """Notes each decision of game seat ``seat`` before it is replayed (a
    :meth:`Session.replay` hook)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.noted: list[Decision] = []
        self._taken: Decision | None = None

    def __call__(self, session: Session, action: Action) -> None:
        pending = session.pending
        if pending is None or pending.seat != self.seat or action.kind == "look":
            return
        view = session.seat_view()
        if action.kind not in ("put", "hide"):
            taken = self._note(session, view, START, action.kind)
            if action.kind == "take":
                taken.took = view.top
            self._taken = taken if action.kind == "take" else None
            return
        hid, card = action.kind == "hide", action.card
        if view.drawn is not None:  # the put-down after a draw or a take: a decision too
            new, source = view.drawn
            drawn = {"drew": new} if source == "stock" else {"took": new}
            played = f"{'hide' if hid else 'discard'}:{card}"  # (as the record keeps it)
            self._note(session, view, PUT_DOWN, played, hid=hid, **drawn)
            self.noted[-1].put_down = card
        if self._taken is not None:
            self._taken.put_down, self._taken.hid = card, hid
            self._taken = None

    def _note(
        self, session: Session, view: SeatView, step: str, choice: str, **extra: Any
    ) -> Decision:
        state = session.view(self.seat)  # (the dealt hand too at a blind call, after the fact)
        decision = Decision(
            round=view.round_number,
            turn=view.turns_played + 1,
            step=step,
            hand=list(state["hand"]),
            top=view.top,
            choice=choice,
            state=state,
            players=list(view.names),
            **extra,
        )
        self.noted.append(decision)
        return decision


@dataclass(frozen=True)
class Replay:
    """A saved game replayed: the save, the game rebuilt (stopped where the journal ends) and
    the decisions of ``seat``."""

    saved: saves.SavedGame
    game: Session
    seat: int
    decisions: list[Decision]


def kept_save(path: Path) -> Path:
    """``path``; a bare file name that is not in the current folder is the one of that name in
    the data folder, where ``thirtyone play`` keeps its save and numbered backups
    (``thirtyone review saved-game.1.json`` from any folder)."""
    if len(path.parts) == 1 and not _exists(path):
        kept = paths.data_dir() / path
        if _exists(kept):
            return kept
    return path


def _exists(path: Path) -> bool:
    """Whether ``path`` exists; a name the system refuses (too long) does not (reading it then
    says why: ``thirtyone review`` followed by 400 digits ended in a traceback)."""
    try:
        return path.exists()
    except OSError:
        return False


def load(path: Path | None) -> tuple[saves.SavedGame, str]:
    """The save to review (default: the last game played to its end) and its name for
    messages, its names cropped for showing (:func:`thirtyone.names.crop`: a save may hold a
    name of millions of characters). Raises :class:`~thirtyone.errors.SaveError` saying what is
    wrong."""
    given = path is not None
    path = kept_save(path) if path is not None else saves.last_game_path()
    where = saves.short(path)
    if not given and saves.look(path, to_read=True).state == "missing":
        raise saves.SaveError(
            f"there is no finished game to review at {where}: thirtyone play keeps the last "
            "game played to its end there; or name a save: thirtyone review SAVE"
        )
    saved = saves.read(path)
    saved.names = [names.crop(n) for n in saved.names]
    return saved, where


def decisions(saved: saves.SavedGame, where: str, seat: int | None = None) -> Replay:
    """Replay ``saved`` and note every decision of ``seat`` (default: the person's seat).
    Raises :class:`~thirtyone.errors.SaveError` when the journal cannot be replayed."""
    seat = saved.you if seat is None else seat
    notes = _Notes(seat)
    game = saves.replayed(saved, where, before=notes)
    return Replay(saved, game, seat, notes.noted)


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
    ``best_game``'s ``p_win`` minus the chosen's (None without game-level figures); under
    ranked placing, where the game-level figure is expected points, not a chance, that cost is
    ``cost_points`` instead (``cost_win`` None)."""

    decision: Decision
    advice: Advice | None = None
    chosen: OptionAdvice | None = None
    agreed: bool | None = None
    cost_safe: float | None = None
    cost_win: float | None = None
    note: str | None = None
    cost_points: float | None = None

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

    @property
    def label_by(self) -> str | None:
        """What the label measures (see :func:`measure`); None without figures."""
        return None if self.chosen is None or self.advice is None else measure(self.advice)

    @property
    def label(self) -> str | None:
        """The decision's label by its cost (see :func:`label_of`); None without figures."""
        if self.chosen is None or self.advice is None:
            return None
        return label_of(self.advice, self.chosen)

    def option_labels(self) -> dict[str, str]:
        """The label each of the Oracle's options would have had (empty without advice)."""
        if self.advice is None:
            return {}
        return {o.option: label_of(self.advice, o) for o in self.advice.options}


def measure(advice: Advice) -> str:
    """What a decision's label measures at ``advice``: ``p_win`` when the Oracle gives the
    chance of winning the game for every option, else ``p_safe`` (no game-level figures, or
    expected ranked points rather than a chance)."""
    chances = not advice.points and getattr(advice, "best_game", None) is not None
    if chances and all(p_win(o) is not None for o in advice.options):
        return "p_win"
    return "p_safe"


def _p_win_margin(option: OptionAdvice | None) -> float:
    value = getattr(option, "p_win_margin", None)
    return 0.0 if value is None else float(value)


def label_of(advice: Advice, option: OptionAdvice) -> str:
    """The label of choosing ``option`` at ``advice``, by its cost in :func:`measure`: against
    ``best_game``'s ``p_win`` (tied when the difference is within the sum of the two margins),
    or the best's ``p_safe`` (tied as the Oracle's ``tied`` says)."""
    if measure(advice) == "p_win":
        top = getattr(advice, "best_game", None)
        cost = (p_win(top) or 0.0) - (p_win(option) or 0.0)
        within = cost <= _p_win_margin(top) + _p_win_margin(option)
        return label(cost, option.option == getattr(top, "option", None) or within)
    tied = {o.option for o in advice.tied}
    cost = advice.best.p_safe - option.p_safe
    return label(cost, agrees(option.option, advice.best.option, tied))


def label(cost: float, tied: bool) -> str:
    """The label of a decision that cost ``cost`` (a fraction, of ``p_win`` or ``p_safe``):
    ``best`` when the option chosen is the best or within the margins of it (``tied``), else
    the last of :data:`LABELS` whose least cost it reaches."""
    if tied:
        return LABELS[0][0]
    found = LABELS[1][0]
    for name, least in LABELS[1:]:
        if least is not None and cost >= least - 1e-12:
            found = name
    return found


def judge(decision: Decision, advice: Advice) -> Reviewed:
    """The decision set against the Oracle's ``advice`` at its position."""
    try:
        chosen = advice.option(decision.choice)
    except KeyError:  # (not the Oracle's best, then: not agreed, and no cost to count)
        if decision.hid:
            why = "the Oracle gives no figures for keeping a 31 hidden: its option was to show it"
        else:
            why = "the Oracle gave no figures for this choice"
        return Reviewed(decision, advice, agreed=False, note=why)
    tied = {o.option for o in advice.tied}
    best_game = getattr(advice, "best_game", None)
    top, mine = p_win(best_game), p_win(chosen)
    game_cost = None if top is None or mine is None else max(0.0, top - mine)
    return Reviewed(
        decision,
        advice,
        chosen,
        agreed=agrees(chosen.option, advice.best.option, tied),
        cost_safe=max(0.0, advice.best.p_safe - chosen.p_safe),
        cost_win=None if advice.points else game_cost,
        cost_points=game_cost if advice.points else None,
    )


@dataclass(frozen=True)
class Settings:
    """The Oracle's budget per decision and the review's seed."""

    deals: int = DEALS
    playouts: int = PLAYOUTS
    seed: int = 0

    def check(self) -> None:
        """Raise :class:`~thirtyone.errors.SettingsError` naming a setting out of its bounds
        (the seed too: each decision's seed is derived from it, so a seed no command takes,
        -1, would have been reviewed without a word)."""
        _core.check_settings(deals=self.deals, playouts=self.playouts, seed=self.seed)


def decision_seed(seed: int, decision: Decision) -> int:
    """The seed of the query at ``decision``'s position (63 bits): the same position gives the
    same figures whatever else the review holds."""
    key = (seed, "review", decision.round, decision.turn, decision.step)
    digest = hashlib.blake2b(repr(key).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def ask(decision: Decision, settings: Settings, cancel: _core.Cancel | None = None) -> Reviewed:
    """The Oracle's answer at the decision, and the decision judged by it (``cancel``: as
    :func:`thirtyone.advise` takes it; a cancelled query raises
    :class:`~thirtyone.errors.Cancelled`)."""
    if decision.choice == "blind":
        return Reviewed(decision, note="the Oracle does not answer the blind showdown")
    try:
        advice = advise(
            decision.state,
            deals=settings.deals,
            playouts=settings.playouts,
            seed=decision_seed(settings.seed, decision),
            max_time=None,
            cancel=cancel,
            # (The reason and the warnings name the players, as in the game, not "seat 1".)
            names=decision.players or None,
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
    def advised(self) -> list[Reviewed]:
        """The decisions the Oracle advised on (its figures for the choice or not: a 31 kept
        hidden is advised, not agreed), as ``thirtyone stats`` counts its agreement."""
        return [r for r in self.reviewed if r.agreed is not None]

    @property
    def agreed(self) -> int:
        return sum(1 for r in self.reviewed if r.agreed)

    @property
    def agreement(self) -> float | None:
        advised = self.advised
        return self.agreed / len(advised) if advised else None

    @property
    def cost_safe(self) -> float:
        return math.fsum(r.cost_safe or 0.0 for r in self.counted)

    @property
    def cost_win(self) -> float | None:
        return _total([r.cost_win for r in self.counted])

    @property
    def cost_points(self) -> float | None:
        """The cost in expected points in all (ranked placing; else None)."""
        return _total([r.cost_points for r in self.counted])

    def labels(self) -> dict[str, int]:
        """How many decisions have each label (every label, in :data:`LABELS`' order)."""
        counts = {name: 0 for name, _ in LABELS}
        for r in self.counted:
            if (found := r.label) is not None:
                counts[found] += 1
        return counts

    def costliest(self, most: int = 3) -> list[Reviewed]:
        """The decisions that cost most in ``p_safe``, the costliest first (then in the order
        played): only those that cost something and were not the round's best or within its
        margins (ruling 363: a choice tied with the best is not held against you, as the review
        page leaves out the decisions labelled best)."""
        costly = [r for r in self.counted if not r.agreed and (r.cost_safe or 0.0) > 0.0]
        costly.sort(key=lambda r: -(r.cost_safe or 0.0))
        return costly[:most]


def _total(costs: list[float | None]) -> float | None:
    """The sum of the costs, None when there are none or one is missing (by math.fsum: the
    same on every Python, ruling 256)."""
    if not costs or any(c is None for c in costs):
        return None
    return math.fsum(c or 0.0 for c in costs)


def review(
    replay: Replay,
    settings: Settings,
    progress: Callable[[int, int], None] | None = None,
    cancel: _core.Cancel | None = None,
) -> Review:
    """Ask the Oracle about every decision of ``replay``; ``progress(done, total)`` is called
    after each. ``cancel.cancel()`` from another thread stops the review: it raises
    :class:`~thirtyone.errors.Cancelled`."""
    settings.check()
    done = Review(replay, settings)
    total = len(replay.decisions)
    for i, decision in enumerate(replay.decisions, start=1):
        done.reviewed.append(ask(decision, settings, cancel))
        if progress is not None:
            progress(i, total)
    return done
