"""Positions taken from real games, as the player to move sees them (the Oracle's input).

Every seat is played by the table's rule, so every opponent's history is one the rule produced:
consistent deals always exist, and the true hidden hands are known for checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import thirtyone
from thirtyone.game.session import Event


@dataclass
class Position:
    state: dict[str, Any]
    #: The true hands of every seat of the round (round seat numbering), and the true stock size.
    hands: dict[int, list[str]]
    stock_len: int
    turn: int


def positions(seed: int, seats: int = 4, rounds: int = 1) -> list[Position]:
    """Every position (start of a turn, round still on) of the first ``rounds`` rounds."""
    game = thirtyone.Game(thirtyone.Rules(seats=seats), seed=seed)
    out: list[Position] = []

    def record(event: Event) -> None:
        r = game.round
        if r is None or r.is_over or event.kind not in ("turn", "deal"):
            return
        out.append(
            Position(
                state=game.view(),
                hands={i: r.hand(i) for i in range(r.seats)},
                stock_len=r.stock_len,
                turn=r.turns_played,
            )
        )

    game.add_listener(record)
    for _ in range(rounds):
        if game.over:
            break
        game.play_round()
    return out


def position_at(seed: int, seats: int, turn: int) -> Position | None:
    """The position at the start of turn ``turn`` (0-based) of the first round, if it lasts."""
    for p in positions(seed, seats):
        if p.turn == turn:
            return p
    return None
