"""``thirtyone serve``: play in the browser (:mod:`thirtyone.web`, the ``web`` extra).

The web packages are imported only when the command runs, and only once they are known to be
installed: without them the command says how to install them (exit status 2), and every other
command works as before.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import click

from thirtyone import _core
from thirtyone.cli.manners import FilePath, bounded, count_option, fail
from thirtyone.store import saves

#: The packages of the ``web`` extra (uvicorn alone has no WebSocket).
NEEDS = ("starlette", "uvicorn", "websockets")


def missing() -> list[str]:
    """The packages of the ``web`` extra that are not installed."""
    return [name for name in NEEDS if importlib.util.find_spec(name) is None]


@click.command("serve")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address to listen on. Another than this machine's (127.0.0.1, ::1, localhost) "
    "lets other machines play your game: a warning says so.",
)
@click.option(
    "--port",
    **bounded(1, 65535),
    help="The port (default: 8031 when it is free, else one the system gives).",
)
@click.option("--no-browser", is_flag=True, help="Do not open the browser; only print the address.")
@click.option(
    "--save-file",
    type=FilePath(),
    help="The saved game the table plays (default: saved-game.json in the data folder, the one "
    "thirtyone play uses).",
)
@count_option(
    "--oracle-deals",
    _core.DEFAULT_DEALS,
    "Consistent deals the Oracle collects (fewer: quicker, wider margins). Given, for every "
    "game; left out, a game started at another precision (play --oracle-deals) keeps its own.",
)
@count_option(
    "--oracle-playouts",
    _core.DEFAULT_PLAYOUTS,
    "Playouts per option for the Oracle; as --oracle-deals, a game's own where left out.",
)
def serve_command(
    host: str,
    port: int | None,
    no_browser: bool,
    save_file: Path | None,
    oracle_deals: int,
    oracle_playouts: int,
) -> None:
    """Play in your browser: the table, the Oracle's advice as you play, your games reviewed and
    your record. Starts a local web server, prints its address and opens it; Ctrl-C stops it.

    The game is the one thirtyone play saves: a game started in the terminal goes on in the
    browser, and the other way round. Needs the web extra: pip install "thirtyone[web]".
    """
    if gone := missing():
        fail(
            f"thirtyone serve needs the web extra ({', '.join(gone)} "
            f'{"is" if len(gone) == 1 else "are"} not installed): pip install "thirtyone[web]"'
        )
    from thirtyone.web.advice import Budget
    from thirtyone.web.server import ServeError, serve

    path = save_file or saves.default_path()
    try:
        saves.look(path)
    except saves.NotASave as err:
        fail(f"{err}; it was left as it is: move it away or choose another --save-file")
    except saves.SaveError as err:
        fail(str(err))
    try:
        saves.prepare_folder(path)
    except saves.SaveError as err:
        fail(str(err))
    try:
        serve(
            host,
            port,
            browser=not no_browser,
            save=path,
            budget=Budget(
                oracle_deals, oracle_playouts, given=_given("oracle_deals", "oracle_playouts")
            ),
            say=lambda line: click.echo(line),
            warn=lambda line: click.echo(line, err=True),
        )
    except ServeError as err:
        fail(str(err))


def _given(*names: str) -> bool:
    """Whether any of the options ``names`` was given on the command line (not its default)."""
    ctx = click.get_current_context()
    return any(ctx.get_parameter_source(n) is click.core.ParameterSource.COMMANDLINE for n in names)
