"""The Oracle at the table: a computer seat (a :class:`~thirtyone.game.Policy`) that plays the
Oracle's best option, and the opponents of ``thirtyone play`` (:func:`opponent`).

On each of its decisions, :class:`OraclePlayer` asks :func:`thirtyone.advise` about the round as
its seat sees it (:meth:`~thirtyone.game.SeatView.state`) and plays the best option: at the start
of each turn, and again for the put-down after a draw from the stock, as a person is advised
(after a take it puts down the card the take's option named). (Asking once a
round and then following the policy the Oracle simulated — the table's rule knocking at the
advised ``knock_at``, as the calibration's asking seat does — is the play the first figures
describe, but it is much weaker: 22.0% of 200 games (95% CI 16.8 to 28.2) against three table
players, where asking at every turn won 35.0% (28.7 to 41.8).)

Its ``objective`` is ``"round"`` (play ``best``: the highest chance of losing no life this round)
or ``"game"`` (play ``best_game``: the highest chance of winning the game, from every seat's
lives, with each option's later knock score chosen for the game too; see the Oracle's
game-level figures). When the game-level figures are not available (too many lives to compute),
the game objective plays ``best``.

:func:`play_option` carries out one advised option in a :class:`~thirtyone.game.Session` (the
calibration's asking seat uses it).
"""

from __future__ import annotations

import hashlib
import secrets
from typing import TYPE_CHECKING

from thirtyone import _core
from thirtyone._core import Action
from thirtyone.errors import SettingsError, ThirtyOneError
from thirtyone.game.seats import TABLE_KNOCK_AT, Policy, SeatView, TablePolicy, position_seed
from thirtyone.game.session import Session
from thirtyone.names import shown
from thirtyone.oracle.answer import Advice, Kind, OptionAdvice
from thirtyone.oracle.query import advise
from thirtyone.oracle.state import check_read_as, read_all_as

if TYPE_CHECKING:
    from thirtyone._core import _ActionKind

#: What an Oracle player plays for.
OBJECTIVES = ("round", "game")

#: The expert opponent's budget (``thirtyone play --opponents expert``): a small Oracle.
EXPERT_DEALS = 300
EXPERT_PLAYOUTS = 1_000
EXPERT_MAX_TIME = 1.0
#: Who the computer players of ``thirtyone play`` are: the table's rule, the Oracle at a small
#: budget, or the two alternating (see :func:`opponent`).
OPPONENTS = ("table", "expert", "mixed")


def play_option(session: Session, best: OptionAdvice) -> None:
    """Play the advised option ``best`` for the seat to move in ``session``: knock; draw, then put
    down by the table's rule; take, then put down the advised card; decline; or, after a draw
    or take, put down the advised card. A 31 is always shown."""
    kind = best.kind
    if kind is Kind.DRAW:
        session.apply(Action("draw"))
        session.apply(_rule_put_down(session.seat_view()))
    elif kind is Kind.TAKE:
        assert best.discard is not None
        session.apply(Action("take"))
        session.apply(Action("put", best.discard))
    else:
        session.apply(_first_action(best))


def _first_action(best: OptionAdvice) -> Action:
    """The first action of the advised option (after a take, the put-down follows)."""
    if best.kind is Kind.PUT_DOWN:
        assert best.discard is not None
        return Action("put", best.discard)
    first: dict[Kind, _ActionKind] = {Kind.KNOCK: "knock", Kind.DRAW: "draw", Kind.TAKE: "take"}
    return Action(first.get(best.kind, "decline"))


def _rule_put_down(view: SeatView) -> Action:
    """The table's rule's put-down for the card pending in ``view``."""
    return TablePolicy().decide(view)


def seat_seed(seed: int, seat: int) -> int:
    """A 62-bit seed from the game's seed and a seat (stable across runs)."""
    digest = hashlib.blake2b(repr(("expert", seed, seat)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 2


def opponent(kind: str, seat: int, seed: int) -> Policy:
    """The computer player at ``seat`` (one of :data:`OPPONENTS`, see :func:`opponent_kind`): the
    table's rule, or the Oracle at a small budget (an expert), whose seed is derived from the
    game's ``seed`` and its seat."""
    if opponent_kind(kind, seat) == "expert":
        return OraclePlayer.expert(seed=seat_seed(seed, seat))
    return TablePolicy()


def opponent_kind(kind: str, seat: int) -> str:
    """Who sits at ``seat`` of a table of ``kind`` opponents (one of :data:`OPPONENTS`):
    ``"table"`` (the table's rule) or ``"expert"``; ``mixed`` seats experts at the odd seats and
    the table's rule at the even ones."""
    if kind not in OPPONENTS:
        raise ValueError(f"opponents must be one of {', '.join(OPPONENTS)}, not {kind!r:.40}")
    return "expert" if kind == "expert" or (kind == "mixed" and seat % 2 == 1) else "table"


class OraclePlayer:
    """A computer seat that plays by the Oracle (see the module's docstring): a
    :class:`~thirtyone.game.Policy`.

    ``deals``, ``playouts``, ``threads`` and ``max_time`` go to :func:`thirtyone.advise`; their
    bounds (and ``objective``'s and ``read_as``'s values) are checked when the player is made:
    :class:`~thirtyone.errors.SettingsError`. ``seed``: each query's seed is derived from it
    and the position (None: a random seed for this player); with ``max_time=None`` the same seed
    gives the same play. When the Oracle refuses a position (it raises
    :class:`~thirtyone.errors.ThirtyOneError`) the player plays that turn by the table's rule;
    ``fallbacks`` counts such turns. ``advice`` is the last advice it asked for. ``objective``:
    ``"round"`` or ``"game"`` (see the module's docstring).

    Other seats' Oracles read an Oracle player with the ``expert`` model (``model``), and it
    reads each other seat by theirs (:func:`~thirtyone.game.seats.model_of`, in the state), or,
    with ``read_as`` (one of :data:`~thirtyone.game.seats.MODELS`), every other seat by that one
    model (:func:`~thirtyone.oracle.state.read_all_as`; ``table``: no models).
    """

    #: How the Oracle reads this seat (a state's ``models``).
    model = "expert"

    def __init__(
        self,
        name: str = "Oracle",
        *,
        deals: int = 1_000,
        playouts: int = 2_000,
        seed: int | None = None,
        threads: int | None = None,
        max_time: float | None = 5.0,
        objective: str = "round",
        read_as: str | None = None,
    ) -> None:
        if objective not in OBJECTIVES:
            raise SettingsError(f"objective must be round or game, not {shown(objective)}")
        check_read_as(read_as)
        # Checked now, not at its first turn: a refused setting would have every turn played
        # by the table's rule (a fallback), the game going on as if nothing were wrong.
        _core.check_settings(deals=deals, playouts=playouts, threads=threads, max_time=max_time)
        if seed is not None:  # (its bounds are every seed's, though it is only hashed)
            _core.check_settings(seed=seed)
        self.objective = objective
        self.read_as = read_as
        self.name = name
        self.deals = deals
        self.playouts = playouts
        self.seed = secrets.randbits(62) if seed is None else seed
        self.threads = threads
        self.max_time = max_time
        self.advice: Advice | None = None
        self.fallbacks = 0
        #: The chance of winning the game (``p_win``) of each option it played, when the
        #: answer had one: forecasts to check against how its games end.
        self.forecasts: list[float] = []
        #: The second step of the option chosen at the start of a turn (the turn, and the card
        #: to put down; None: the table's rule puts down).
        self._then: tuple[tuple[int, int, int], str | None] | None = None

    @classmethod
    def expert(cls, name: str = "Expert", seed: int | None = None) -> OraclePlayer:
        """The expert opponent of ``thirtyone play``: the Oracle at a small budget."""
        return cls(
            name,
            deals=EXPERT_DEALS,
            playouts=EXPERT_PLAYOUTS,
            seed=seed,
            max_time=EXPERT_MAX_TIME,
        )

    def query_seed(self, view: SeatView) -> int:
        """The seed of the query at ``view``'s position."""
        return position_seed(self.seed, view, "oracle-player")

    def decide(self, view: SeatView) -> Action:
        phase = view.pending.phase
        if phase == "blind":  # the Oracle never calls the blind showdown: look
            return Action("look")
        then, self._then = self._then, None
        if phase == "put_down" and then is not None and then[0] == self._where(view):
            # The second step of the option chosen at the start of this turn.
            return _rule_put_down(view) if then[1] is None else Action("put", then[1])
        try:
            state = view.state()
            if self.read_as is not None:
                state = read_all_as(state, self.read_as)
            advice = advise(
                state,
                deals=self.deals,
                playouts=self.playouts,
                seed=self.query_seed(view),
                threads=self.threads,
                max_time=self.max_time,
                objective=self.objective,
                names=list(view.names),
            )
        except ThirtyOneError:
            self.fallbacks += 1
            if phase == "start":
                self._then = (self._where(view), None)  # the whole turn by the rule
            return TablePolicy(TABLE_KNOCK_AT).decide(view)
        self.advice = advice
        choice = advice.best
        if self.objective == "game" and advice.best_game is not None:
            choice = advice.best_game
        if choice.p_win is not None and not advice.points:
            self.forecasts.append(choice.p_win)
        if choice.kind is Kind.TAKE:  # (after a draw, the put-down is asked of the Oracle again)
            self._then = (self._where(view), choice.discard)
        return _first_action(choice)

    @staticmethod
    def _where(view: SeatView) -> tuple[int, int, int]:
        return view.seat, view.rounds_dealt, view.turns_played

    def __repr__(self) -> str:
        return (
            f"OraclePlayer({self.name!r}, deals={self.deals}, playouts={self.playouts}, "
            f"max_time={self.max_time}, objective={self.objective!r}"
            + ("" if self.read_as is None else f", read_as={self.read_as!r}")
            + ")"
        )
