"""Shared by the test_variants_* files: hands of known scores, the presets, players that play
given steps, a game with a fixed first dealer and stacked decks, and the CLI runner."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result
from helpers import FirstKnocks
from thirtyone import Game, Rules, Turn
from thirtyone.cli.app import main

H24 = ["AH", "9H", "4H"]
H17 = ["KS", "7S", "AC"]
H10 = ["QD", "QH", "5C"]
H22 = ["JC", "TC", "2C"]
H10B = ["TS", "4D", "3H"]
H31 = ["AS", "KS", "QS"]

PRESETS = [
    "standard",
    "five-lives",
    "four-corners",
    "scat",
    "cadillac",
    "ride-the-bus",
    "gin-lives",
]
ENV = {"COLUMNS": "100", "NO_COLOR": "1"}
EXAMPLE_FILE = Path(__file__).parent / "data" / "example_state.json"


class Steps:
    """Plays the steps it is given, one turn each: ``"knock"``, ``"blind"`` (call the blind
    showdown), ``"look"`` (then the next step in the same turn unless the round ended),
    ``("draw", card)`` / ``("take", card)`` (``None``: put the drawn card back), and
    ``("draw", card, "hide")`` to keep the 31 that leaves hidden."""

    def __init__(self, name: str, steps: Sequence[Any]) -> None:
        self.name = name
        self.steps = list(steps)

    def play(self, turn: Turn) -> None:
        step = self.steps.pop(0)
        if step == "look":
            turn.look()
            if turn.round_over:
                return
            step = self.steps.pop(0)
        if step == "blind":
            turn.call_blind()
        elif step == "knock":
            turn.knock()
        else:
            how, card, *flags = step
            new = turn.draw() if how == "draw" else turn.take()
            turn.put_down(new if card is None else card, hide="hide" in flags)


def make_game(
    rules: Rules, dealer: int, decks: Sequence[Sequence[str]], players: Sequence[Any] | None = None
) -> Game:
    n = rules.seats
    game = Game(rules, players or [FirstKnocks(f"p{i}") for i in range(n)], seed=0, decks=decks)
    game.dealer = dealer  # fix the first dealer for the test
    return game


def events(game: Game, kind: str) -> list[dict[str, Any]]:
    return [e.data for e in game.events if e.kind == kind]


def run(args: list[str], input: str | None = None) -> Result:
    return CliRunner(env=ENV).invoke(main, args, input=input)
