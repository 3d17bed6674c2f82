"""Calibration of the game-level figure ``p_win`` against whole games.

Whole games are played with the game loop, every seat by the table's rule, except once per
game: at a round and turn drawn before the game starts (so the choice cannot depend on how the
game will go), the seat to move asks the Oracle with every seat's lives, takes its best option
and plays the rest of that round as the Oracle simulated it (the table's rule, knocking at the
answer's ``knock_at``); every later round it plays by the table's rule again. That is exactly the
play ``p_win`` assumes, so among the decisions forecast ``p_win = p`` a share ``p`` should go on
to win their game. A game that ends before the drawn round gives no forecast (the choice depends
only on the past, so the forecasts that are made stay fair).

:func:`run` plays games until the forecasts asked for are made; :func:`reliability` bins them
with 95% Wilson intervals. ``benches/calibrate_game.py`` runs it.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass

from thirtyone.game.rules import Rules
from thirtyone.game.seats import TABLE_KNOCK_AT
from thirtyone.game.session import Event, Session
from thirtyone.oracle.player import play_option
from thirtyone.oracle.query import advise
from thirtyone.statistics import wilson
from thirtyone.study.backend import workers

#: The round of the decision is drawn from 1 to this.
LAST_ASK_ROUND = 8


@dataclass(frozen=True)
class Settings:
    forecasts: int = 2_000
    seats: int = 4
    preset: str = "standard"
    deals: int = 1_000
    playouts: int = 2_000
    seed: int = 1
    jobs: int = 1


@dataclass(frozen=True)
class Forecast:
    """One decision: the game, the round, the asking seat's lives and the others', the option
    played and its ``p_win`` (with margin), and whether the seat went on to win."""

    game: int
    round: int
    lives: tuple[int, ...]
    option: str
    p_win: float
    margin: float
    won: bool


class _Table:
    """One game: the table's rule everywhere, one Oracle decision at a drawn round and turn."""

    def __init__(self, index: int, settings: Settings) -> None:
        self.index, self.settings = index, settings
        self.rng = random.Random(f"game-calibrate:{settings.seed}:{index}")
        self.ask_round = self.rng.randint(1, LAST_ASK_ROUND)
        self.ask_turn = self.rng.randrange(4 * settings.seats)
        rules = Rules.from_spec({"preset": settings.preset, "seats": settings.seats})
        self.game = Session(rules, seed=self.rng.getrandbits(63))
        self.game.add_listener(self._event)
        self.policy: dict[int, float | None] = {}  # game seat -> knock_at, this round only
        self.asked: tuple[int, int, tuple[int, ...], str, float, float] | None = None

    def _event(self, event: Event) -> None:
        if event.kind in ("round_end", "wash"):
            self.policy = {}

    def play(self, seat: int) -> None:
        """Play the turn of game seat ``seat``, to move."""
        game = self.game
        if seat in self.policy:
            game.play_rule_turn(self.policy[seat])
            return
        ask = (
            self.asked is None
            and game.round_number == self.ask_round
            and game.turns_played == self.ask_turn
        )
        if not ask:
            game.play_rule_turn(TABLE_KNOCK_AT)
            return
        view = self.game.view()
        s = self.settings
        advice = advise(
            view, deals=s.deals, playouts=s.playouts, seed=self.rng.getrandbits(62),
            threads=1, max_time=None,
        )  # fmt: skip
        best = advice.best
        if best.p_win is None:  # the game's figures were not computed: no forecast
            game.play_rule_turn(TABLE_KNOCK_AT)
            return
        lives = tuple(view["lives"])
        margin = best.p_win_margin or 0.0
        self.asked = (seat, game.round_number, lives, best.option, best.p_win, margin)
        self.policy[seat] = best.knock_at
        play_option(game, best)

    def play_game(self) -> Forecast | None:
        game = self.game
        for seat in game.to_move():
            self.play(seat)
        winner = game.winner
        if self.asked is None:
            return None
        seat, round_number, lives, option, p_win, margin = self.asked
        return Forecast(self.index, round_number, lives, option, p_win, margin, winner == seat)


def play_game(index: int, settings: Settings) -> Forecast | None:
    """Game ``index`` of a run: its forecast, or None when it ended before the drawn round."""
    return _Table(index, settings).play_game()


def _play(args: tuple[int, Settings]) -> Forecast | None:
    return play_game(*args)


def run(settings: Settings) -> tuple[list[Forecast], int]:
    """Games until ``settings.forecasts`` forecasts are made (in game order, the same whatever
    ``jobs``); the forecasts and the games played. The workers end with the run, also when it
    is stopped (:mod:`thirtyone.study.backend.workers`)."""
    out: list[Forecast] = []
    games = 0
    with workers.Pool(_play, settings.jobs) as pool:
        for forecast in pool.map((g, settings) for g in itertools.count()):
            games += 1
            if forecast is not None:
                out.append(forecast)
            if len(out) >= settings.forecasts:
                break
    return out, games


@dataclass(frozen=True)
class Bin:
    low: float
    high: float
    count: int
    forecast: float
    won: float
    ci: tuple[float, float]

    @property
    def within(self) -> bool:
        return self.ci[0] <= self.forecast <= self.ci[1]


def reliability(forecasts: list[Forecast], bins: int = 10) -> list[Bin]:
    """The forecasts in bins of ``p_win``: their mean against the share of won games, with the
    95% Wilson interval of that share."""
    out = []
    for i in range(bins):
        low, high = i / bins, (i + 1) / bins
        inside = [f for f in forecasts if low <= f.p_win < high or (i == bins - 1 and f.p_win == 1)]
        if not inside:
            continue
        won = sum(f.won for f in inside)
        mean = math.fsum(f.p_win for f in inside) / len(inside)  # (ruling 256)
        out.append(Bin(low, high, len(inside), mean, won / len(inside), wilson(won, len(inside))))
    return out
