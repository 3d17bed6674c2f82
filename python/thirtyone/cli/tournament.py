"""``thirtyone tournament``: the command over :mod:`thirtyone.study.tournament`."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import click

from thirtyone.cli.manners import (
    NO_JOBS,
    WHOLE,
    FilePath,
    backend_options,
    bounded,
    by_core,
    fail,
    resuming,
    seed_option,
)
from thirtyone.errors import ThirtyOneError
from thirtyone.game.rules import Rules
from thirtyone.game.seats import MODELS
from thirtyone.paths import same_file, short
from thirtyone.study import tournament, tournament_plot, tournament_report
from thirtyone.study.backend import cluster as study_cluster
from thirtyone.study.backend import progress as study_progress
from thirtyone.study.backend import workers


def _players(ctx: click.Context, param: click.Parameter, value: str) -> tuple[str, ...]:
    try:
        return tournament.parse_players(value)
    except ValueError as err:
        raise click.BadParameter(str(err), ctx=ctx, param=param) from None


@click.command("tournament")
@click.option(
    "--games",
    **bounded(1, tournament.MAX_GAMES),
    default=100,
    show_default=True,
    help=f"Games to play, 1 to {tournament.MAX_GAMES:,}.",
)
@click.option(
    "--players",
    default="oracle,table,table,table",
    show_default=True,
    callback=_players,
    help="The players, 2 to 9, comma-separated: table (the table's rule), table:K (knocking "
    "at K or more), noisy (the table's rule at a knock score of 22 to 29 drawn each game, 3% of "
    "its moves at random), oracle (the Oracle at --deals/--playouts, playing for the round), "
    "oracle-game (the same, playing for the game), expert (the Oracle at 300 deals and 1,000 "
    "playouts, playing for the round). An Oracle player may read by one model of its own: "
    "expert@table reads every opponent by the table's rule (also @person, @expert). Seats are "
    "rotated over the games.",
)
@click.option(
    "--rules",
    "preset",
    type=click.Choice(sorted(Rules.PRESETS), case_sensitive=False),
    default="standard",
    show_default=True,
    help="The table's preset rules (the seats are the players).",
)
@click.option(
    "--deals",
    type=WHOLE,
    callback=by_core("deals"),
    default=1_000,
    show_default=True,
    help="Consistent deals per query of the oracle players.",
)
@click.option(
    "--playouts",
    type=WHOLE,
    callback=by_core("playouts"),
    default=2_000,
    show_default=True,
    help="Playouts per option per query of the oracle players.",
)
@click.option(
    "--read-as",
    type=click.Choice(MODELS, case_sensitive=False),
    default=None,
    help="Every Oracle player (oracle, oracle-game, expert) reads every opponent by this model "
    "rather than each by how they play (table as table, noisy and table:K at another score as "
    "person, the Oracle players as expert): to measure what a model is worth, by reading the "
    "same table with another (e.g. --players oracle-game,noisy,noisy,noisy --read-as table).",
)
@seed_option("Same seed, same results.", 1)
@click.option(
    "--jobs",
    **bounded(1, tournament.MAX_JOBS),
    help=f"Worker processes, 1 to {tournament.MAX_JOBS} (default: every core).",
)
@backend_options("each finished batch of games", "same results")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.option(
    "--plot",
    type=FilePath(),
    help="Also write the win rates with their 95% intervals, and the fair share, to this PNG "
    "file, replacing a file there (needs matplotlib: pip install 'thirtyone[plot]').",
)
def tournament_command(
    games: int,
    players: tuple[str, ...],
    preset: str,
    deals: int,
    playouts: int,
    read_as: str | None,
    seed: int,
    jobs: int | None,
    cluster: str | None,
    checkpoint: Path | None,
    as_json: bool,
    plot: Path | None,
) -> None:
    """Play whole games between computer players and count the wins (with 95% Wilson
    intervals), the mean place, the lives lost per round and the knocks caught.

    oracle plays for the round (the option safest this round), oracle-game for the game (the
    option with the highest chance of winning it). Ctrl-C (or SIGTERM, SIGHUP) stops the run
    within a second, with the results of the games played until then.
    """
    if cluster is not None and jobs is not None:
        fail(NO_JOBS.format(option="--jobs"))
    settings = tournament.Settings(
        players=players,
        games=games,
        preset=preset,
        deals=deals,
        playouts=playouts,
        seed=seed,
        jobs=tournament.default_jobs() if jobs is None else jobs,
        read_as=read_as,
    )
    backend = study_cluster.Backend(settings.jobs, cluster, checkpoint)
    try:
        settings.check()
        backend.check()
        if plot is not None:
            tournament_plot.check(plot)
    except ThirtyOneError as err:
        fail(str(err))
    if checkpoint is not None and plot is not None and same_file(checkpoint, plot):
        fail(f"--checkpoint and --plot name the same file, {short(plot)}; name another")
    with workers.stopping():
        try:
            _play(settings, backend, as_json, plot)
        except KeyboardInterrupt as err:  # asked again while the results were told
            stop = workers.stopped(err)
            click.echo(f"Stopped by {stop.name}.", err=True)
            sys.exit(stop.status)


def _play(
    settings: tournament.Settings,
    backend: study_cluster.Backend,
    as_json: bool,
    plot: Path | None,
) -> None:
    """Play, then tell the results of the games played (all, or those before a stop)."""
    from thirtyone.study.calibration import strict_json

    progress = study_progress.progress_line()
    if backend.checkpoint is not None:
        size = tournament.batch_size(settings.games)
        total = -(-settings.games // size)
        unit = "games" if size == 1 else f"batches (of {size:,} games)"
        where = backend.checkpoint
        backend = dataclasses.replace(  # (the games kept: about, as the last batch is short)
            backend,
            resumed=lambda kept: progress.said(
                resuming(kept, total, unit, where), min(kept * size, settings.games)
            ),
        )
    try:
        outcome = tournament.play(settings, progress, backend)
    except ThirtyOneError as err:
        progress.end()
        fail(str(err))
    progress.end()
    stop, played = outcome.stopped, outcome.played
    if stop is not None and played == 0:
        click.echo(workers.told(stop, "before the first game ended: no results."), err=True)
        sys.exit(stop.status)
    shown = None if stop is None else played
    if as_json:
        data = tournament.to_json(settings, outcome.tallies, stop, played)
        if backend.cluster is not None:  # (no local processes: the same JSON on any cluster)
            data["settings"]["jobs"] = None
        click.echo(strict_json(data, indent=1))
    else:
        click.echo(tournament_report.report(settings, outcome.tallies, shown))
    if stop is not None:
        click.echo(
            workers.told(stop, f"after {played:,} of {settings.games:,} games: the results ")
            + "count those games."
            + (
                " The same command resumes the run from its checkpoint."
                if backend.checkpoint is not None
                else ""
            ),
            err=True,
        )
    if plot is not None:  # (after the results, so that a failed write loses nothing)
        try:
            with workers.held():  # (a stop meanwhile waits for the plot, and for its line)
                tournament_plot.save(settings, outcome.tallies, plot, shown)
                click.echo(f"Plot: {plot}", err=True)
        except ThirtyOneError as err:
            fail(str(err))
    if stop is not None:
        sys.exit(stop.status)
