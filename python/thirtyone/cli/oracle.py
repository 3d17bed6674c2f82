"""``thirtyone oracle``: the Oracle asked about a state in a file or on standard input
(``oracle.md``'s format), its answer as a table or as JSON."""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from thirtyone import _core
from thirtyone.cli.manners import (
    SECONDS,
    WHOLE,
    PlainNumber,
    by_core,
    count_option,
    fail,
    option_error,
    rule_assignments,
    rule_completions,
    seed_option,
)
from thirtyone.errors import ThirtyOneError
from thirtyone.game.rules import Rules
from thirtyone.game.seats import MODELS
from thirtyone.store import saves
from thirtyone.terminal.advice_view import advice_report


def read_state(source: str) -> bytes:
    """The state file's bytes (``-``: standard input), refused past
    :data:`~thirtyone.oracle.query.MAX_STATE_BYTES` without reading the rest (``/dev/zero`` or
    an endless pipe must not fill the memory)."""
    from thirtyone.oracle.query import MAX_STATE_BYTES as most

    try:
        if source == "-":
            data = sys.stdin.buffer.read(most + 1)
        else:
            with Path(source).open("rb") as f:
                data = f.read(most + 1)
    except OSError as err:
        fail(f"cannot read {saves.short(source)}: {err.strerror or err}")
    if len(data) > most:
        where = "standard input" if source == "-" else saves.short(source)
        fail(f"the state in {where} is over {most:,} bytes; no state is near that size")
    return data


def model_list(
    _ctx: click.Context, _param: click.Parameter, value: str | None
) -> list[str | None] | None:
    """``--models``: a comma-separated list, ``-`` for your own seat (checked by the core, which
    takes anything for yours: a ``-`` given for another seat is refused as what was typed), in
    any case (``Expert``), as the command line's other words from a list (ruling 361)."""
    if value is None:
        return None
    words = [m.strip() for m in value.split(",")]
    return [m.lower() if m.lower() in MODELS else m for m in words]  # (else quoted as typed)


def check_own_dash(raw: bytes, models: list[str | None] | None) -> None:
    """``--models`` with ``-`` at a seat that is not yours (the state's ``me``): refused in those
    words (the core took the ``-`` for a model and said only "not \"-\"", which did not tell a
    player who copied ``-,expert,table,person`` at seat 2 what was wrong). A state whose
    ``me`` or ``seats`` cannot be read, or a list of the wrong length, is left to the core."""
    if not models or "-" not in models:
        return
    try:
        doc = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return
    me = doc.get("me") if isinstance(doc, dict) else None
    if type(me) is not int or doc.get("seats") != len(models) or not 0 <= me < len(models):
        return
    wrong = next((i for i, m in enumerate(models) if m == "-" and i != me), None)
    if wrong is not None:
        mine = ",".join("-" if i == me else "table" for i in range(len(models)))
        fail(
            f"--models has - at seat {wrong}, but you are seat {me} (the state's me): - stands "
            f"for your own seat, one entry per seat in the state's order (e.g. {mine})"
        )


def _max_time(ctx: click.Context, param: click.Parameter, value: float) -> float:
    """``--max-time`` checked as soon as it is read, 0 allowed (no limit), and refused as the
    option's (:func:`~thirtyone.cli.manners.option_error`)."""
    from thirtyone.oracle.query import check_max_time

    try:
        check_max_time(value)
    except ThirtyOneError as err:
        raise option_error(err, "max_time") from None
    return value


@click.command("oracle")
@click.argument("state_file", metavar="STATE.json")
@click.option("--json", "as_json", is_flag=True, help="Print the advice as JSON (oracle.md).")
@seed_option("Seed of the simulation: same seed, same numbers.")
@count_option(
    "--deals", _core.DEFAULT_DEALS, "Consistent deals to collect (at most), 1 to 1,000,000."
)
@count_option(
    "--playouts",
    _core.DEFAULT_PLAYOUTS,
    "Playouts per option (and again for the confirmation run), 1 to 10,000,000.",
)
@click.option(
    "--threads",
    type=WHOLE,
    callback=by_core("threads"),
    help="Worker threads, 1 to 64 (default: every core).",
)
@click.option(
    "--max-time",
    type=SECONDS,
    default=5.0,
    show_default=True,
    callback=_max_time,
    help="Seconds allowed for the whole answer, at most 3600; when they run out, the best "
    "estimate reached is shown with its margin (0: no limit).",
)
@click.option(
    "--target-margin",
    type=PlainNumber(),
    callback=by_core("target_margin"),
    help="Keep adding deals until every option's margin is at most this, 0.001 to 0.5 "
    "(e.g. 0.005).",
)
@click.option(
    "--rules",
    "preset",
    type=click.Choice(sorted(Rules.PRESETS), case_sensitive=False),
    help="Evaluate under this preset instead of the state's rules.",
)
@click.option(
    "--rule",
    "changes",
    multiple=True,
    metavar="KEY=VALUE",
    callback=rule_assignments,
    shell_complete=rule_completions,
    help="Change one of the state's rules, e.g. --rule knock_penalty=1 (repeatable).",
)
@click.option(
    "--sweeps",
    type=click.Choice(["best", "all", "none"], case_sensitive=False),
    default="best",
    show_default=True,
    help="Which knock-score sweeps to chart: the best swept option's, all, or none.",
)
@click.option(
    "--objective",
    type=click.Choice(["round", "game"], case_sensitive=False),
    default="round",
    show_default=True,
    help="With lives in the state, game keeps each option's later knock score by p_win.",
)
@click.option(
    "--models",
    callback=model_list,
    metavar="M,M,…",
    help="How each seat plays, one per seat in the state's order: table, person or expert, "
    "- for your own (e.g. -,expert,table,person). Replaces the state's models.",
)
def oracle_command(
    state_file: str,
    as_json: bool,
    seed: int | None,
    deals: int,
    playouts: int,
    threads: int | None,
    max_time: float,
    target_margin: float | None,
    preset: str | None,
    changes: dict[str, Any],
    sweeps: str,
    objective: str,
    models: list[str | None] | None,
) -> None:
    """Ask the Oracle how safe each option is in the round of STATE.json (- reads standard
    input; the format is oracle.md's)."""
    from thirtyone.oracle.query import answer_text, ask

    err_console = Console(stderr=True, highlight=False)
    try:
        raw = read_state(state_file)  # (Ctrl-C while standard input is awaited: below)
        check_own_dash(raw, models)
        spinner = (
            err_console.status("The Oracle is thinking…")
            if err_console.is_terminal
            else contextlib.nullcontext()
        )
        with spinner:
            advice = ask(
                raw,
                preset=preset,
                changes=changes,
                deals=deals,
                playouts=playouts,
                seed=seed,
                threads=threads,
                max_time=max_time,
                target_margin=target_margin,
                objective=objective,
                models=models,
            )
    except ThirtyOneError as err:
        fail(str(err))
    except KeyboardInterrupt:
        click.echo("Interrupted: no advice.", err=True)
        sys.exit(130)
    if as_json:
        click.echo(answer_text(advice))
        return
    console = Console(highlight=False)
    console.print(advice_report(advice, sweeps=sweeps, width=console.width))
