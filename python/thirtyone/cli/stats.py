"""``thirtyone stats``: the command over the record of games (:mod:`thirtyone.store.record`)."""

from __future__ import annotations

import shutil
import sys

import click

from thirtyone.store import record
from thirtyone.store import summary as record_summary


@click.command("stats")
@click.option("--json", "as_json", is_flag=True, help="Print the record as JSON (docs/cli.md).")
def stats_command(as_json: bool) -> None:
    """Your record: every game of `thirtyone play` played to its end, kept in record.sqlite3 in
    the data folder. Games and wins (with a 95% interval), by preset, by opponents and by who
    played your seat, the mean place, and how often you played the Oracle's best and what your
    other choices cost. A row of the record that is not a game as thirtyone writes it (edited by
    hand) is skipped, and a note on standard error says which and why."""
    path = record.default_path()
    try:
        contents = record.read(path)
    except record.RecordError as err:
        click.echo(f"Error: {' '.join(str(err).split())}", err=True)
        sys.exit(2)
    games = contents.games
    if (note := contents.note()) is not None:
        click.echo(f"Note: {note}.", err=True)
    if as_json:
        summary = record_summary.summary(games, path, skipped=len(contents.skipped))
        click.echo(record_summary.to_text(summary))
    elif not games and contents.skipped:  # (not a record without games: ruling 291)
        click.echo(f"No game of the record at {path} can be read (see the note).")
    elif not games:
        click.echo(f"No games recorded yet: each game of thirtyone play finished goes to {path}.")
    else:
        width = shutil.get_terminal_size().columns  # ($COLUMNS, the terminal's, else 80)
        click.echo(record_summary.report(games, path, width))
