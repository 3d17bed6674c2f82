"""``thirtyone study knock``: the strategy atlas of the knock (:mod:`thirtyone.study.knock`)."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import click

from thirtyone.cli.manners import (
    NO_JOBS,
    backend_options,
    bounded,
    fail,
    option_error,
    resuming,
    seed_option,
)
from thirtyone.errors import ThirtyOneError
from thirtyone.study import knock, tournament
from thirtyone.study.backend import cluster as study_cluster
from thirtyone.study.backend import progress as study_progress
from thirtyone.study.backend import workers


@click.group("study", invoke_without_command=True)
@click.pass_context
def study_group(ctx: click.Context) -> None:
    """Studies of the game computed by the engine."""
    if ctx.invoked_subcommand is None:  # (alone, as `thirtyone` alone: the help, exit status 0)
        click.echo(ctx.get_help())


@study_group.command("knock")
@click.option(
    "--rounds",
    **bounded(1, knock.MAX_ROUNDS),
    default=1_000_000,
    show_default=True,
    help=f"Rounds simulated per seat count and table, 1 to {knock.MAX_ROUNDS:,}.",
)
@click.option("--seats", default="2-9", show_default=True, help="Seat counts (4, 2-9, 2,4,6).")
@seed_option("Same seed, same atlas.", 1)
@click.option(
    "--jobs",
    **bounded(1, tournament.MAX_JOBS),
    help=f"Worker processes, 1 to {tournament.MAX_JOBS} (default: every core).",
)
@backend_options("each finished batch", "same atlas")
@click.option("--json", "as_json", is_flag=True, help="Print the atlas as JSON.")
def knock_command(
    rounds: int,
    seats: str,
    seed: int,
    jobs: int | None,
    cluster: str | None,
    checkpoint: Path | None,
    as_json: bool,
) -> None:
    """The knock score that loses nothing most often, and the one that wins the game most
    often, at each position and lap of a round at a table of table players, by seat count,
    on the standard table and with a knock penalty of 1; and the first turn's survival of a
    knock by score (see docs/strategy.md)."""
    from thirtyone.study.calibration import parse_seats, strict_json

    try:
        table = parse_seats(seats)
    except ValueError as err:
        raise option_error(err, "seats", "--seats") from None
    if cluster is not None and jobs is not None:
        fail(NO_JOBS.format(option="--jobs"))
    settings = knock.Settings(
        rounds=rounds,
        seats=tuple(sorted(set(table))),
        seed=seed,
        jobs=tournament.default_jobs() if jobs is None else jobs,
    )
    backend = study_cluster.Backend(settings.jobs, cluster, checkpoint)
    try:
        settings.check()
        backend.check()
    except ThirtyOneError as err:
        fail(str(err))
    progress = study_progress.progress_line(unit="batches")
    if checkpoint is not None:
        total = knock.batch_count(settings)
        backend = dataclasses.replace(
            backend,
            resumed=lambda kept: progress.said(resuming(kept, total, "batches", checkpoint), kept),
        )
    with workers.stopping():
        try:
            totals = knock.compute(settings, backend, progress)
        except ThirtyOneError as err:
            progress.end()
            fail(str(err))
        except KeyboardInterrupt as err:
            progress.end()
            stop = workers.stopped(err)
            more = " The same command resumes from the checkpoint." if checkpoint else ""
            click.echo(workers.told(stop, f"before the end: no atlas.{more}"), err=True)
            sys.exit(stop.status)
    data = knock.to_json(settings, totals)
    if cluster is not None:  # (no local processes: the same JSON on any cluster)
        data["settings"]["jobs"] = None
    click.echo(strict_json(data, indent=1) if as_json else knock.report(data))
