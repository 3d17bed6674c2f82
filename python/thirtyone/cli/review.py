"""``thirtyone review``: the command over :mod:`thirtyone.study.review`."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import click
from rich.console import Console

from thirtyone.cli.manners import WHOLE, FilePath, by_core, fail, seed_option
from thirtyone.errors import ThirtyOneError
from thirtyone.store import saves
from thirtyone.study import review


@contextlib.contextmanager
def _progress(console: Console) -> Iterator[Callable[[int, int], None] | None]:
    """A status line on standard error while the decisions are asked about (at a terminal)."""
    if not console.is_terminal:
        yield None
        return
    with console.status("The Oracle is reviewing…") as status:

        def show(done: int, total: int) -> None:
            status.update(f"The Oracle is reviewing… decision {done} of {total}")

        yield show


@click.command("review")
@click.argument("save", required=False, type=FilePath())
@click.option("--json", "as_json", is_flag=True, help="Print the whole review as JSON.")
@click.option(
    "--deals",
    type=WHOLE,
    default=review.DEALS,
    show_default=True,
    callback=by_core("deals"),
    help="Consistent deals per decision (the Oracle's full precision is 10,000; the default "
    "reviews a 40-decision game in seconds, with margins of about ±2 points).",
)
@click.option(
    "--playouts",
    type=WHOLE,
    default=review.PLAYOUTS,
    show_default=True,
    callback=by_core("playouts"),
    help="Playouts per option per decision (full precision: 50,000).",
)
@seed_option("Seed of the Oracle's simulations (default: the game's).")
def review_command(
    save: Path | None, as_json: bool, deals: int, playouts: int, seed: int | None
) -> None:
    """Replay a saved game (default: the last one played to its end) and set each of your
    decisions against the Oracle: its figures from your view at that moment, its best option,
    your choice and what it cost in p_safe (and p_win when given); then the agreement, the total
    cost and the three costliest decisions. The same seed gives the same review."""
    try:
        saved, where = review.load(save)
        replay = review.decisions(saved, where)
    except saves.SaveError as err:
        fail(str(err))
    if not replay.decisions:
        name = saved.names[replay.seat]
        fail(f"the game at {where} has no decisions of {name} to review")
    settings = review.Settings(deals, playouts, saved.seed if seed is None else seed)
    err_console = Console(stderr=True, highlight=False)
    try:
        with _progress(err_console) as progress:
            done = review.review(replay, settings, progress)
    except ThirtyOneError as err:
        fail(str(err))
    except KeyboardInterrupt:
        click.echo("Interrupted: no review.", err=True)
        sys.exit(130)
    from thirtyone.study import review_json, review_view

    if as_json:
        click.echo(review_json.to_text(done))
        return
    Console(highlight=False).print(review_view.report(done))
