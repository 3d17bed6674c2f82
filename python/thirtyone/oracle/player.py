"""The Oracle at the table: a computer player that plays the Oracle's best option.

On each of its turns, :class:`OraclePlayer` asks :func:`thirtyone.advise` about its position and
plays the best option. (Asking once a round and then following the policy the Oracle simulated —
the table's rule knocking at the advised ``knock_at``, as the calibration's asking seat does —
is the play the first figures describe, but it is much weaker: 22.0% of 200 games (95% CI
16.8 to 28.2) against three table players, where asking at every turn won 35.0% (28.7 to 41.8).)

Its ``objective`` is ``"round"`` (play ``best``: the highest chance of losing no life this round)
or ``"game"`` (play ``best_game``: the highest chance of winning the game, from every seat's
lives, with each option's later knock score chosen for the game too; see the Oracle's
game-level figures). When the game-level figures are not available (too
many lives to compute), the game objective plays ``best``.

:func:`play_option` carries out one advised option through a :class:`~thirtyone.turn.Turn`; the
calibration (:mod:`thirtyone.calibration`) uses it for its asking seat.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from thirtyone import _core
from thirtyone.errors import ThirtyOneError
from thirtyone.oracle.answer import Advice, Kind, OptionAdvice
from thirtyone.oracle.query import advise
from thirtyone.oracle.reads import position_seed

if TYPE_CHECKING:
    from thirtyone.game.turn import Turn

#: What an Oracle player plays for.
OBJECTIVES = ("round", "game")

#: The expert opponent's budget (``thirtyone play --opponents expert``): a small Oracle.
EXPERT_DEALS = 300
EXPERT_PLAYOUTS = 1_000
EXPERT_MAX_TIME = 1.0


def play_option(turn: Turn, best: OptionAdvice) -> None:
    """Play the advised option ``best`` through ``turn``: knock; draw, then put down by the
    table's rule; take, then put down the advised card; decline; or, after a draw or take,
    put down the advised card. A 31 is always shown."""
    kind = best.kind
    if kind is Kind.KNOCK:
        turn.knock()
    elif kind is Kind.DRAW:
        hand_before = turn.hand
        new = turn.draw()
        rules = turn.game.rules.round_rules()
        turn.put_down(_core.choose_put_down(hand_before, new, False, rules))
    elif kind is Kind.TAKE:
        turn.take()
        assert best.discard is not None
        turn.put_down(best.discard)
    elif kind is Kind.PUT_DOWN:
        assert best.discard is not None
        turn.put_down(best.discard)
    else:
        turn.decline()


class OraclePlayer:
    """A computer player that plays by the Oracle (see the module's docstring).

    ``deals``, ``playouts``, ``threads`` and ``max_time`` go to :func:`thirtyone.advise` (the
    core checks their bounds on the first query). ``seed``: each query's seed is derived from it
    and the position (None: a random seed for this player); with ``max_time=None`` the same seed
    gives the same play. When the Oracle refuses a position (it raises
    :class:`~thirtyone.errors.ThirtyOneError`) the player plays that turn by the table's rule;
    ``fallbacks`` counts such turns. ``advice`` is the last advice it asked for. ``objective``:
    ``"round"`` or ``"game"`` (see the module's docstring).
    """

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
    ) -> None:
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be 'round' or 'game', not {objective!r:.40}")
        self.objective = objective
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

    @classmethod
    def expert(cls, name: str, seed: int | None = None) -> OraclePlayer:
        """The expert opponent of ``thirtyone play``: the Oracle at a small budget."""
        return cls(
            name,
            deals=EXPERT_DEALS,
            playouts=EXPERT_PLAYOUTS,
            seed=seed,
            max_time=EXPERT_MAX_TIME,
        )

    def query_seed(self, turn: Turn) -> int:
        """The seed of the query at ``turn``'s position."""
        return position_seed(self.seed, turn, "oracle-player")

    def play(self, turn: Turn) -> None:
        game = turn.game
        if turn.blind:  # the Oracle never calls the blind showdown: look
            turn.look()
            if turn.round_over:
                return
        try:
            advice = advise(
                game,
                deals=self.deals,
                playouts=self.playouts,
                seed=self.query_seed(turn),
                threads=self.threads,
                max_time=self.max_time,
                objective=self.objective,
            )
        except ThirtyOneError:
            self.fallbacks += 1
            turn.play_by_rule(_core.TABLE_KNOCK_AT)
            return
        self.advice = advice
        choice = advice.best
        if self.objective == "game" and advice.best_game is not None:
            choice = advice.best_game
        if choice.p_win is not None and not advice.points:
            self.forecasts.append(choice.p_win)
        play_option(turn, choice)

    def __repr__(self) -> str:
        return (
            f"OraclePlayer({self.name!r}, deals={self.deals}, playouts={self.playouts}, "
            f"max_time={self.max_time}, objective={self.objective!r})"
        )
