"""``thirtyone calibrate``: the command over :mod:`thirtyone.study.calibration`."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from thirtyone.cli.manners import (
    NO_JOBS,
    WHOLE,
    FilePath,
    backend_options,
    bounded,
    by_core,
    fail,
    option_error,
    resuming,
    seed_option,
)
from thirtyone.errors import ThirtyOneError
from thirtyone.game.seats import MODELS
from thirtyone.paths import same_file, short
from thirtyone.study.backend import cluster as study_cluster
from thirtyone.study.backend import workers
from thirtyone.study.calibration_records import MAX_DECISIONS, MAX_WORKERS, OPPONENTS

if TYPE_CHECKING:
    from thirtyone.study import calibration


@click.command("calibrate")
@click.option(
    "--decisions",
    **bounded(1, MAX_DECISIONS),
    default=20_000,
    show_default=True,
    help="Oracle decisions to play and score (each is one game turn), 1 to 1,000,000.",
)
@seed_option("Seed of the games and of the Oracle's simulations (same seed, same report).", 1)
@click.option(
    "--deals",
    type=WHOLE,
    callback=by_core("deals"),
    default=2_000,
    show_default=True,
    help="Consistent deals the Oracle collects per decision (at most), 1 to 1,000,000.",
)
@click.option(
    "--playouts",
    type=WHOLE,
    callback=by_core("playouts"),
    default=5_000,
    show_default=True,
    help="Playouts per option the Oracle plays per decision, 1 to 10,000,000.",
)
@click.option(
    "--threads",
    type=WHOLE,
    default=1,
    show_default=True,
    callback=by_core("threads"),
    help="Threads per Oracle query, 1 to 64.",
)
@click.option(
    "--workers",
    "jobs",
    **bounded(1, MAX_WORKERS),
    default=1,
    show_default=True,
    help="Worker processes playing games side by side, 1 to 64.",
)
@backend_options("each finished game's decisions", "same report")
@click.option(
    "--seats", default="2-6", show_default=True, help="Seats per game, cycled (4, 2-6, 2,4)."
)
@click.option(
    "--opponents",
    type=click.Choice(OPPONENTS, case_sensitive=False),
    default="table",
    show_default=True,
    help="Who plays the other turns: the table's rule, experts (the Oracle at a small budget), "
    "experts at the odd seats (mixed), or noisy table players (the rule at a knock score of 22 "
    "to 29, 3% of moves at random).",
)
@click.option(
    "--read-as",
    type=click.Choice(MODELS, case_sensitive=False),
    default=None,
    help="Read every opponent by this model rather than by how they play (table: as the "
    "Oracle read every table before opponent models), to see what that reading gets wrong.",
)
@click.option(
    "--out",
    type=FilePath(),
    default=Path("calibration"),
    show_default=True,
    help="Folder for decisions.jsonl, report.md, summary.json and reliability.png (made if "
    "missing; an earlier run's files there are replaced).",
)
def calibrate_command(
    decisions: int,
    seed: int,
    deals: int,
    playouts: int,
    threads: int,
    jobs: int,
    cluster: str | None,
    checkpoint: Path | None,
    seats: str,
    opponents: str,
    read_as: str | None,
    out: Path,
) -> None:
    """Check the Oracle against real play: games where one seat per round follows its advice;
    prints the reliability table and the inference check (see thirtyone.study.calibration). Ctrl-C
    (or SIGTERM, SIGHUP) stops the run within a second; the decisions scored until then are
    reported and written."""
    from thirtyone import statistics as stats
    from thirtyone.study import calibration

    try:
        stats.require()
    except ThirtyOneError as err:
        fail(str(err))
    try:
        table = calibration.parse_seats(seats)
    except ValueError as err:
        raise option_error(err, "seats", "--seats") from None
    source = click.get_current_context().get_parameter_source("jobs")
    if cluster is not None and source == click.core.ParameterSource.COMMANDLINE:
        fail(NO_JOBS.format(option="--workers"))
    settings = calibration.Settings(
        decisions=decisions,
        seed=seed,
        deals=deals,
        playouts=playouts,
        threads=threads,
        workers=jobs,
        seats=table,
        opponents=opponents,
        read_as=read_as,
    )
    backend = study_cluster.Backend(jobs, cluster, checkpoint)
    try:
        settings.check()
        if checkpoint is not None and out.resolve() in checkpoint.resolve().parents:
            calibration.check_out(out)  # (made if missing: the checkpoint's folder too)
        backend.check()
        calibration.check_out(out)
        written = [out / name for name in calibration.OUT_FILES]
        if checkpoint is not None and same_file(checkpoint, *written):
            fail(f"--checkpoint {short(checkpoint)} is a file --out writes; name another")
    except ThirtyOneError as err:
        fail(str(err))
    with workers.stopping():
        try:
            _run(settings, backend, out)
        except KeyboardInterrupt as err:  # asked again while the results were told
            stop = workers.stopped(err)
            click.echo(f"Stopped by {stop.name}.", err=True)
            sys.exit(stop.status)


def _run(settings: calibration.Settings, backend: study_cluster.Backend, out: Path) -> None:
    """Run, write and tell the report (of the decisions scored before a stop, if any)."""
    from thirtyone.study import calibration

    if backend.checkpoint is not None:
        where = backend.checkpoint
        backend = dataclasses.replace(  # (a batch is one game; how many is not known ahead)
            backend,
            resumed=lambda kept: click.echo(
                resuming(kept, None, "game" if kept == 1 else "games", where), err=True
            ),
        )
    try:
        report = calibration.calibrate(
            settings, echo=lambda line: click.echo(line, err=True), backend=backend
        )
    except ThirtyOneError as err:
        fail(str(err))
    except KeyboardInterrupt as err:
        stop = workers.stopped(err)
        click.echo(
            workers.told(stop, "before the first decision was scored: nothing written."),
            err=True,
        )
        sys.exit(stop.status)
    noted: list[int] = []
    with workers.noting(noted):  # (a stop while the report is written and told: after it)
        try:
            calibration.save(report, out)
        except ThirtyOneError as err:
            click.echo(report.text())  # (the results are not lost)
            fail(str(err))
        click.echo(report.text())
    ended = report.stopped or (workers.Stopped(noted[0]) if noted else None)
    if ended is not None:
        click.echo(
            workers.told(ended, f"after {len(report.decisions):,} of ")
            + f"{settings.decisions:,} decisions: the report covers those; written to {out}."
            + (
                " The same command resumes the run from its checkpoint."
                if backend.checkpoint is not None
                else ""
            ),
            err=True,
        )
        sys.exit(ended.status)
