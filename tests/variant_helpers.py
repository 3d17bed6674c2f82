"""Shared by the test_variants_* files: hands of known scores, the presets, seats that play
given steps, a game with a fixed first dealer and stacked decks, and the CLI runner."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result
from helpers import FirstKnocks, Script
from thirtyone import Game, Rules
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


#: Plays the steps it is given (see :class:`helpers.Script`).
Steps = Script


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
