"""The ``thirtyone`` command."""

from __future__ import annotations

import random
from typing import Any

import click
from rich.console import Console

from thirtyone.display import Narrator, intro
from thirtyone.errors import RuleError
from thirtyone.game import Game
from thirtyone.players import ComputerPlayer, Player
from thirtyone.rules import Rules
from thirtyone.terminal_player import QuitGame, TerminalPlayer

#: The computer players' names, in seat order.
COMPUTER_NAMES = ("Alice", "Ben", "Cara", "Dev", "Eve", "Finn", "Gus", "Hana", "Ivo")


@click.group()
def main() -> None:
    """Thirty-One against computer players, with the Oracle's advice."""


def _rule_assignments(
    ctx: click.Context, param: click.Parameter, values: tuple[str, ...]
) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    for text in values:
        try:
            key, value = Rules.parse_assignment(text)
        except RuleError as err:
            raise click.BadParameter(str(err), ctx=ctx, param=param) from None
        changes[key] = value
    return changes


def computer_names(count: int, taken: str) -> list[str]:
    """Friendly names for ``count`` computer players, avoiding the person's name."""
    return [n for n in COMPUTER_NAMES if n.casefold() != taken.casefold()][:count]


@main.command()
@click.option("--seats", type=int, help="Players at the table, you included (2 to 9; default 4).")
@click.option("--lives", type=int, help="Lives each player starts with (default 3).")
@click.option(
    "--knock-penalty", type=int, help="Lives a knocker pays when lowest or tied lowest (1 or 2)."
)
@click.option("--seed", type=int, help="Seed for the dealer draw and every deal (reproducible).")
@click.option(
    "--rules",
    "preset",
    type=click.Choice(sorted(Rules.PRESETS)),
    default="standard",
    show_default=True,
    help="The table's preset rules.",
)
@click.option(
    "--rule",
    "changes",
    multiple=True,
    metavar="KEY=VALUE",
    callback=_rule_assignments,
    help="Change one rule, e.g. --rule three_of_a_kind=30.5 (repeatable). Keys: "
    + ", ".join(Rules.option_names())
    + ".",
)
@click.option(
    "--autoplay", is_flag=True, help="The table's rule plays your seat too: the game runs alone."
)
@click.option("--name", default="You", show_default=True, help="Your name at the table.")
def play(
    seats: int | None,
    lives: int | None,
    knock_penalty: int | None,
    seed: int | None,
    preset: str,
    changes: dict[str, Any],
    autoplay: bool,
    name: str,
) -> None:
    """Play a game of Thirty-One in the terminal (you are the first seat)."""
    spec: dict[str, Any] = {"preset": preset, **changes}
    for key, value in (("seats", seats), ("lives", lives), ("knock_penalty", knock_penalty)):
        if value is not None:
            spec[key] = value
    try:
        rules = Rules.from_spec(spec)
    except RuleError as err:
        raise click.UsageError(str(err)) from None
    name = name.strip()
    if not name:
        raise click.BadParameter("your name may not be empty", param_hint="--name")
    if seed is None:
        seed = random.SystemRandom().randrange(1, 1_000_000)

    console = Console(highlight=False)
    names = [name, *computer_names(rules.seats - 1, name)]
    narrator = Narrator(console, names, me=0, compact=autoplay)
    me: Player = ComputerPlayer(name) if autoplay else TerminalPlayer(name, console, narrator)
    players: list[Player] = [me, *(ComputerPlayer(n) for n in names[1:])]
    game = Game(rules, players, seed=seed, names=names, on_event=narrator)
    narrator.game = game
    console.print(intro(rules, names, 0, seed))
    try:
        game.play()
    except (QuitGame, KeyboardInterrupt):
        console.print("Goodbye!")
