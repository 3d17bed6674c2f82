"""The seats' side of a session: the decision a game waits for (:class:`Pending`), what the seat
to move sees (:class:`SeatView`), and the computer seats (:class:`Policy`: ``decide(view) ->
Action``, owning no loop), the table's rule among them (:class:`TablePolicy`).

A policy sees only its own seat's information: its hand, the table's public cards and the round
as that seat saw it (:meth:`SeatView.state`, the Oracle's input); never another seat's cards.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeGuard, cast

from thirtyone import _core
from thirtyone._core import Action
from thirtyone.errors import RuleError, StateError
from thirtyone.game.rules import Rules
from thirtyone.names import shown, what_it_is

if TYPE_CHECKING:
    from thirtyone._core import _ActionKind

#: The kinds of action the core takes (``Action(kind)``): the stub's ``_ActionKind``.
ACTION_KINDS = ("knock", "draw", "take", "decline", "put", "hide", "blind", "look")


def is_action_kind(value: object) -> TypeGuard[_ActionKind]:
    """Whether ``value`` is one of :data:`ACTION_KINDS` (text read from a save, the browser or
    the terminal, narrowed for ``Action``)."""
    return value in ACTION_KINDS


def read_action(kind: str, card: str | None = None) -> Action:
    """``Action(kind, card)`` of a kind read as text (a saved journal): the core refuses a kind
    that is not one of :data:`ACTION_KINDS` (``IllegalMoveError``, in its words)."""
    return Action(cast("_ActionKind", kind), card)


#: The computer players' knock threshold (``rules.md``), the core's.
TABLE_KNOCK_AT: float = _core.TABLE_KNOCK_AT


@dataclass(frozen=True)
class Pending:
    """A decision the game waits for: game seat ``seat`` (``round_seat`` in the round's order)
    is to move, in ``phase`` ``"blind"`` (call the blind showdown or look), ``"start"`` (knock,
    draw, take, or decline) or ``"put_down"`` (after a draw or take), and may take any action of
    ``legal``."""

    seat: int
    round_seat: int
    phase: str
    legal: tuple[Action, ...]


@dataclass(frozen=True)
class SeatView:
    """What the seat to move sees when it decides: the decision and its legal actions, its hand
    and score, the top discard, the card it holds pending (after a draw or take: the card and
    ``"stock"`` or ``"pile"``), the stock's size, whether it may knock, the discard pile (bottom
    to top), the round seat that knocked (None: nobody yet), the names of the round's seats (in
    the round's order), and where the game is: the rounds dealt so far (washes included), the
    round's number and the turns played in it. :meth:`state` gives the whole round as the seat
    saw it, in the Oracle's input format (``oracle.md``). At the blind call (phase ``blind``)
    nobody has looked yet: ``hand`` is empty and ``score`` 0, whatever was dealt."""

    pending: Pending
    hand: tuple[str, ...]
    score: float
    top: str
    drawn: tuple[str, str] | None
    stock_len: int
    may_knock: bool
    rules: Rules
    pile: tuple[str, ...] = ()
    knocker: int | None = None
    names: tuple[str, ...] = ()
    rounds_dealt: int = 0
    round_number: int = 0
    turns_played: int = 0
    _state: Callable[[], dict[str, Any]] | None = field(default=None, repr=False, compare=False)

    @property
    def seat(self) -> int:
        """The game seat to move."""
        return self.pending.seat

    @property
    def phase(self) -> str:
        """The decision's phase: ``blind``, ``start`` or ``put_down`` (:class:`Pending`)."""
        return self.pending.phase

    def allows(self, action: Action) -> bool:
        """Whether ``action`` is one of the legal actions now."""
        return action in self.pending.legal

    def state(self) -> dict[str, Any]:
        """The round as this seat saw it, in the Oracle's input format: ``advise(view.state())``.
        Seats are renumbered to the round's (the players still in the game, in turn order). At
        the blind call the seat has seen no card: :class:`~thirtyone.errors.StateError`."""
        if self._state is None:
            raise ValueError("this view was made without the round's record")
        return self._state()


def position_seed(seed: int, view: SeatView, purpose: str = "advice") -> int:
    """A seed from the game's ``seed`` and the position ``view`` shows (63 bits): the rounds
    dealt, the round, the turns played in it and the card pending. A player seeded so decides
    the same at a position whatever came before (a resumed game as the unbroken one)."""
    key = (seed, purpose, view.rounds_dealt, view.round_number, view.turns_played, view.drawn)
    digest = hashlib.blake2b(repr(key).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


#: The Oracle's models of how a seat plays (a state's ``models``, ``oracle.md``).
MODELS = ("table", "person", "expert")


def model_of(policy: object) -> str:
    """How the Oracle should read a seat played by ``policy``: its ``model`` attribute (the
    table's rule at 27 is ``"table"``, another knock score ``"person"``, the Oracle's players
    ``"expert"``). A seat without one (no policy: a driver plays it) is read by the table's rule,
    as before there were models; the terminal and the browser say their player is a ``"person"``
    (:class:`~thirtyone.game.Session`'s ``models``)."""
    model = getattr(policy, "model", "table")
    return model if model in MODELS else "table"


def seat_models(policies: Sequence[object | None], you: int = 0) -> list[str]:
    """Each seat's model for a game in which seat ``you`` is a person when no policy plays it
    (the terminal's and the browser's player), every other seat its policy's."""
    return [
        "person" if seat == you and p is None else model_of(p) for seat, p in enumerate(policies)
    ]


#: Why there is no Oracle's input at the blind call: the seat has not seen its cards.
NOT_LOOKED = (
    "at the blind call nobody has looked at their cards yet, so there is no round as the seat "
    "sees it to advise on (the Oracle never calls the blind showdown): look first, then ask"
)


def not_looked() -> dict[str, Any]:
    raise StateError(NOT_LOOKED)


def per_seat(
    given: Iterable[Any] | None, n: int, what: str, check: Callable[[Any], str | None]
) -> list[Any]:
    """A constructor's list of one entry per seat, checked (``[]``: none given). Raises
    :class:`RuleError` naming the list, or the entry and what an entry is."""
    if not given:
        return []
    if isinstance(given, str | bytes) or not isinstance(given, Iterable):
        raise RuleError(f"{what} must be a list of {n}, one per seat, not {what_it_is(given)}")
    entries = list(given)
    if len(entries) != n:
        raise RuleError(f"rule seats: {n} seats but {len(entries)} {what}")
    for i, entry in enumerate(entries):
        wanted = check(entry)
        if wanted is not None:
            raise RuleError(f"{what}[{i}] must be {wanted}, not {what_it_is(entry)}")
    return entries


def not_an_action(value: object) -> str:
    """What a session says of a value pushed as an action that is not one."""
    return f'an action is a thirtyone.Action, such as Action("draw"), not {what_it_is(value)}'


def game_seed(seed: object) -> int | None:
    """A session's ``seed``: None (a random game) or any integer (the library's games take any,
    ruling 171; ``--seed`` and the saves take 0 to 2**64 - 1). Anything else (text, a float, a
    list) is a :class:`~thirtyone.errors.RuleError` naming ``seed``, when the session is made."""
    if seed is None or (isinstance(seed, int) and not isinstance(seed, bool)):
        return seed
    raise RuleError(f"seed must be a whole number (None: a random one), not {what_it_is(seed)}")


def checked_listener(value: object, what: str) -> Callable[[Any], None]:
    """A session's listener (``on_event``, :meth:`add_listener`): anything callable; anything
    else is a :class:`~thirtyone.errors.RuleError` naming ``what``, before the first event."""
    if not callable(value):
        raise RuleError(
            f"{what} must be a function called with each event, not {what_it_is(value)}"
        )
    return cast("Callable[[Any], None]", value)


def policy_wanted(value: object) -> str | None:
    if value is None or callable(getattr(value, "decide", None)):
        return None
    return "a policy, an object with decide(view) -> Action (or None: a seat you push)"


def model_wanted(value: object) -> str | None:
    return None if value in MODELS else f"one of {', '.join(MODELS)}"


def name_wanted(value: object) -> str | None:
    return None if isinstance(value, str) else "text"


class Policy(Protocol):
    """A computer seat: chooses each action from what the seat sees."""

    def decide(self, view: SeatView) -> Action:
        """The action to take now (one of ``view.pending.legal``)."""


def knock_score(knock_at: object) -> float | None:
    """``knock_at`` checked as a knock score: None (never) or a score in whole or half points
    from 0 (the core's bounds, asked of the core). Raises :class:`~thirtyone.errors.RuleError`
    naming ``knock_at``."""
    if knock_at is None:
        return None
    refused = RuleError(
        f"rule knock_at: {shown(knock_at)} is not a score (whole or half points from 0)"
    )
    if isinstance(knock_at, bool) or not isinstance(knock_at, int | float):
        raise refused
    try:
        as_float = float(knock_at)
    except OverflowError:  # (an int past any float, 10**400: past the bounds as any other)
        raise refused from None
    _core.choose_start(["AC", "2D", "3H"], None, False, False, as_float)  # (its check)
    return knock_at


class TablePolicy:
    """The table's decision rule (``rules.md``), knocking at ``knock_at`` or more (None: never).
    It looks at its cards at a blind table and shows every 31. A session plays a whole turn of
    this policy in one step of the core (:meth:`~thirtyone.game.Session.play_rule_turn`): the
    same actions as deciding step by step, faster."""

    def __init__(self, knock_at: float | None = TABLE_KNOCK_AT) -> None:
        self.knock_at = knock_score(knock_at)

    @property
    def model(self) -> str:
        """The table's rule at its own knock score is the Oracle's ``table`` model; at another,
        the Oracle does not know it: a ``person``."""
        return "table" if self.knock_at == TABLE_KNOCK_AT else "person"

    def decide(self, view: SeatView) -> Action:
        phase, rules = view.pending.phase, view.rules.round_rules()
        if phase == "blind":
            return Action("look")
        if view.drawn is not None:
            new, source = view.drawn
            card = _core.choose_put_down(list(view.hand), new, source == "pile", rules)
            return Action("put", card)
        may_take = Action("take") in view.pending.legal
        start = _core.choose_start(
            list(view.hand),
            view.top if may_take else None,
            view.may_knock and self.knock_at is not None,
            view.stock_len == 0,
            self.knock_at if self.knock_at is not None else 31.0,
            rules,
        )
        return Action(start)

    def __repr__(self) -> str:
        return f"TablePolicy(knock_at={self.knock_at})"


#: A noisy table player's knock scores (one drawn per player and game) and share of random moves.
NOISY_KNOCK_AT = (22, 29)
NOISE = 0.03


class NoisyPolicy:
    """A table player who is not quite the rule documents' one: the table's rule at a knock
    score of their own (``knock_at``), and at each decision, with chance ``noise``, any legal
    action at random instead (a knock, a take, a put-down; never at a blind showdown). Each
    decision's dice come from ``seed`` and the position (:func:`position_seed`), so a game is
    the same when resumed. The Oracle reads such a player as a ``person``."""

    model = "person"

    def __init__(self, knock_at: float, seed: int, noise: float = NOISE) -> None:
        if not 0.0 <= noise <= 1.0:
            raise ValueError(f"noise must be from 0 to 1, not {noise!r}")
        self.rule = TablePolicy(knock_at)
        self.seed = seed
        self.noise = noise
        #: Decisions taken at random so far (a study's check that the noise is what it says).
        self.random_moves = 0

    @classmethod
    def drawn(cls, seed: int, noise: float = NOISE) -> NoisyPolicy:
        """A noisy player whose knock score is drawn from :data:`NOISY_KNOCK_AT` by ``seed``."""
        low, high = NOISY_KNOCK_AT
        return cls(float(low + seed % (high - low + 1)), seed, noise)

    def decide(self, view: SeatView) -> Action:
        if view.pending.phase != "blind":
            dice = random.Random(position_seed(self.seed, view, "noisy"))
            if dice.random() < self.noise:
                self.random_moves += 1
                return dice.choice(view.pending.legal)
        return self.rule.decide(view)

    def __repr__(self) -> str:
        return f"NoisyPolicy(knock_at={self.rule.knock_at}, noise={self.noise})"
