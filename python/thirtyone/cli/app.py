"""The ``thirtyone`` command."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any, NamedTuple

import click
from rich.console import Console, RenderableType
from rich.text import Text

from thirtyone import __version__, _core, schemas
from thirtyone import names as names_check
from thirtyone.cli import manners
from thirtyone.cli.calibrate import calibrate_command
from thirtyone.cli.manners import FilePath, bounded
from thirtyone.cli.manners import count_option as _count_option
from thirtyone.cli.manners import fail as _fail
from thirtyone.cli.manners import rule_assignments as _rule_assignments
from thirtyone.cli.manners import rule_completions as _rule_completions
from thirtyone.cli.manners import seed_option as _seed_option
from thirtyone.cli.oracle import oracle_command
from thirtyone.cli.review import review_command
from thirtyone.cli.serve import serve_command
from thirtyone.cli.stats import stats_command
from thirtyone.cli.study import study_group
from thirtyone.cli.tournament import tournament_command
from thirtyone.errors import RuleError
from thirtyone.game.rules import Rules
from thirtyone.names import COMPUTER_NAMES as COMPUTER_NAMES  # (app.COMPUTER_NAMES, as before)
from thirtyone.names import computer_names, quoted
from thirtyone.oracle.player import opponent_kind
from thirtyone.oracle.words import and_list, counted
from thirtyone.store import saves
from thirtyone.terminal import play_session, save_start
from thirtyone.terminal.advisor import OracleAdvisor
from thirtyone.terminal.display import WARN_STYLE, intro, say


@click.group(
    cls=manners.Main,
    invoke_without_command=True,
    context_settings=manners.CONTEXT_SETTINGS,
    epilog="The rules: `?` in `thirtyone play`; the presets: `thirtyone rules`; the Oracle's "
    "formats: `thirtyone schema`; shell completion: `thirtyone completion -h`. The whole guide is "
    "the docs/ folder of the source (the sdist).",
)
@click.version_option(
    __version__, "-V", "--version", prog_name="thirtyone", message="%(prog)s %(version)s"
)
@click.pass_context
def main(ctx: click.Context) -> None:
    """Thirty-One against computer players, with the Oracle's advice.

    Start with `thirtyone play`; `thirtyone COMMAND -h` tells about each command.
    """
    manners.trim_when_not_a_terminal()
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


@main.command()
@click.option(
    "--seats",
    **bounded(2, 9),
    help="Players at the table, you included (2 to 9; default 4).",
)
@click.option(
    "--lives",
    **bounded(1, 20),
    help="Lives each player starts with (1 to 20; default: the preset's, 3 at the standard "
    "table; see thirtyone rules PRESET).",
)
@click.option(
    "--knock-penalty",
    **bounded(1, 2),
    help="Lives a knocker pays when lowest or tied lowest (1 or 2; default: the preset's, 2 at "
    "the standard table, 1 at gin-lives).",
)
@_seed_option("Seed for the dealer draw and every deal (reproducible).")
@click.option(
    "--rules",
    "preset",
    type=click.Choice(sorted(Rules.PRESETS), case_sensitive=False),
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
    shell_complete=_rule_completions,
    help="Change one rule, e.g. --rule three_of_a_kind=30.5 (repeatable). Keys: "
    + ", ".join(Rules.option_names())
    + ".",
)
@click.option(
    "--autoplay", is_flag=True, help="The table's rule plays your seat too: the game runs alone."
)
@click.option("--name", default="You", show_default=True, help="Your name at the table.")
@click.option(
    "--resume",
    is_flag=True,
    help="Continue the saved game (the game is saved after every turn of yours and the table's).",
)
@click.option(
    "--save-file",
    type=FilePath(),
    help="Where the game is saved (default: saved-game.json in the user's data folder).",
)
@click.option(
    "--advice",
    type=click.Choice(saves.ADVICE_MODES, case_sensitive=False),
    help="When the Oracle's advice is shown: always (each of your turns), ask (when you press "
    "a), never (default: always, never with --autoplay; kept in the save).",
)
@click.option(
    "--oracle/--no-oracle",
    "oracle_on",
    default=None,
    help="--oracle is --advice always, --no-oracle is --advice never.",
)
@click.option(
    "--opponents",
    type=click.Choice(saves.OPPONENTS, case_sensitive=False),
    help="The computer players: table (the table's rule), expert (the Oracle at a small "
    "budget: 300 deals, 1,000 playouts, 1 s a turn), mixed (experts and table players "
    "alternating). Default: table; kept in the save.",
)
@click.option("--fast", is_flag=True, help="Do not wait for Enter after each round's result.")
@click.option(
    "--delay",
    default=0.0,
    **manners.bounded(0.0, 5.0, "seconds"),
    help="Seconds to wait after each computer turn told on its own line (0 to 5).",
)
@_count_option(
    "--oracle-deals",
    _core.DEFAULT_DEALS,
    "Consistent deals the Oracle collects (fewer: quicker, wider margins).",
)
@_count_option(
    "--oracle-playouts",
    _core.DEFAULT_PLAYOUTS,
    "Playouts per option for the Oracle (fewer: quicker).",
)
def play(
    seats: int | None,
    lives: int | None,
    knock_penalty: int | None,
    seed: int | None,
    preset: str,
    changes: dict[str, Any],
    autoplay: bool,
    name: str,
    advice: str | None,
    oracle_on: bool | None,
    opponents: str | None,
    fast: bool,
    delay: float,
    oracle_deals: int,
    oracle_playouts: int,
    resume: bool,
    save_file: Path | None,
) -> None:
    """Play a game of Thirty-One in the terminal (you are the first seat).

    On each of your turns the Oracle shows how safe each option is (and again for the put-down
    after you draw); the decision stays yours.
    """
    path = save_file or saves.default_path()
    console = Console(highlight=False)
    if advice is not None and oracle_on is not None and (advice == "never") == oracle_on:
        flag = "--oracle" if oracle_on else "--no-oracle"
        raise click.UsageError(f"--advice {advice} and {flag} disagree: give one")
    if advice is None and oracle_on is not None:
        advice = "always" if oracle_on else "never"
    numbers = (seats, lives, knock_penalty)
    while True:
        new = None if resume else _table_of(preset, changes, numbers, name, seed)
        try:
            saved = _prepare(path, resume, autoplay, save_file, console)
        except save_start.Cancelled:
            say(
                console,
                Text(f"Cancelled: nothing was changed; your game is still saved at {path}."),
            )
            return
        budget = {"deals": oracle_deals, "playouts": oracle_playouts}
        how = _How(preset, advice, autoplay, opponents, fast, delay)
        table, intro_text = _seating(console, saved, new, budget, how)
        # (A new --autoplay game is not saved; a resumed one is finished in its save.)
        save = None if autoplay and saved is None else (path, save_file is not None)
        try:
            finished = play_session.play_game(table, saved, save, intro_text)
        except saves.SaveError as err:
            _fail(str(err))
        if not finished or autoplay or not _play_again(console):
            return
        # The next game at the same table, with the Oracle as it was in this one.
        resume, seed = False, None
        assert table.oracle is not None
        oracle_deals, oracle_playouts = table.oracle["deals"], table.oracle["playouts"]


class _How(NamedTuple):
    """How ``thirtyone play`` was asked to play: the options that are not the table's."""

    preset: str
    advice: str | None
    autoplay: bool
    opponents: str | None
    fast: bool
    delay: float


def _seating(
    console: Console,
    saved: saves.SavedGame | None,
    new: tuple[Rules, list[str], int] | None,
    budget: dict[str, int],
    how: _How,
) -> tuple[play_session.Table, RenderableType | None]:
    """Who plays what in the game about to start (``saved``, resumed, else ``new``) and its
    opening lines (a new game's). The Oracle's precision is ``budget`` for a new game; a resumed
    one's is its own but for a setting given again (:func:`_resumed_with`)."""
    if saved is not None:
        rules, names, game_seed = saved.rules, saved.names, saved.seed
        budget = _resumed_with(saved, budget, console)
    else:
        assert new is not None, "a new game's table is built before the save is touched"
        rules, names, game_seed = new
    mode = how.advice or (saved.advice if saved else "never" if how.autoplay else "always")
    against = saved.opponents if saved else how.opponents or "table"
    # Who plays what, and the table: a resumed game's too (its own table, whatever was given).
    kinds = ["person", *(opponent_kind(against, s) for s in range(1, len(names)))]
    preset = how.preset if saved is None else None
    intro_text = intro(rules, names, 0, game_seed, preset, width=console.width, kinds=kinds)
    advisor = (
        OracleAdvisor(console, deals=budget["deals"], playouts=budget["playouts"], seed=game_seed)
        if mode != "never"
        else None
    )
    table = play_session.Table(
        console,
        rules,
        game_seed,
        names,
        advisor,
        how.autoplay,
        mode,
        not (how.autoplay or how.fast),
        how.delay,
        against,
        budget,
    )
    return table, intro_text


def _play_again(console: Console) -> bool:
    """Ask whether to play another game: y (yes), or Enter, n or q (no; also the end of the
    input). Anything else gets one line and the question again, as at every prompt."""
    from thirtyone.terminal.prompt import prompt_line

    while True:
        answer = prompt_line("Play again? (y: a new game at the same table, Enter: no)")
        said = None if answer is None else answer.strip().lower()
        if said in ("y", "yes"):
            return True
        if said in (None, "", "n", "no", "q", "quit"):
            return False
        said_text = f"{quoted(answer or '')} is not a choice: type y for a new game at the same "
        say(console, Text(said_text + "table, or Enter (or n) to stop.", style=WARN_STYLE))


def _prepare(
    path: Path, resume: bool, autoplay: bool, save_file: Path | None, console: Console
) -> saves.SavedGame | None:
    """The saved game to resume (None: a new game). Raises :class:`save_start.Cancelled`."""
    try:
        if resume:
            saved: saves.SavedGame | None = save_start.before_resume(path)
        elif autoplay:
            return None
        else:
            saved = save_start.before_new_game(
                path, console, interactive=sys.stdin.isatty(), given=save_file is not None
            )
    except saves.SaveError as err:
        _fail(str(err))
    if saved is not None and (given := _table_options_given()):
        # (with --resume, or r at the question about the unfinished game: the same line)
        console.print(
            Text(
                f"The resumed game keeps its own table: {and_list(given)} "
                f"{'was' if len(given) == 1 else 'were'} not applied.",
                style=WARN_STYLE,
            ),
            soft_wrap=not console.is_terminal,  # (a terminal: broken between words)
        )
    return saved


def _table_of(
    preset: str,
    changes: dict[str, Any],
    numbers: tuple[int | None, int | None, int | None],
    name: str,
    seed: int | None,
) -> tuple[Rules, list[str], int]:
    """The rules, the names and the seed of a new game."""
    rules = _new_rules(preset, changes, *numbers)
    if seed is None:
        seed = random.SystemRandom().randrange(1, 1_000_000)
    return rules, _new_names(name, rules), seed


#: The options of a new game's table (``thirtyone play``'s parameters): a resumed game keeps its
#: own, so they are not applied to it (and it says so).
TABLE_OPTIONS = (
    "seats",
    "lives",
    "knock_penalty",
    "seed",
    "preset",
    "changes",
    "name",
    "opponents",
)


def _given(names: tuple[str, ...]) -> list[str]:
    """Those of the ``play`` parameters ``names`` given on the command line, as spelled there
    (``--rules`` for ``preset``)."""
    ctx = click.get_current_context()
    spelled = {p.name: p.opts[0] for p in ctx.command.params if p.opts}
    return [
        spelled.get(p, f"--{p}")
        for p in names
        if ctx.get_parameter_source(p) == click.core.ParameterSource.COMMANDLINE
    ]


def _table_options_given() -> list[str]:
    return _given(TABLE_OPTIONS)


def _resumed_with(
    saved: saves.SavedGame, asked: dict[str, int], console: Console
) -> dict[str, int]:
    """The Oracle's precision for a resumed game: the one it was started with (kept in the save;
    the defaults for a save from before it was kept), but for a setting given again on the
    command line, which applies to this session (one line says so; the save keeps its own)."""
    kept = dict(saved.oracle or {"deals": _core.DEFAULT_DEALS, "playouts": _core.DEFAULT_PLAYOUTS})
    given = _given(("oracle_deals", "oracle_playouts"))
    budget = {
        key: asked[key] if f"--oracle-{key}" in given else kept[key]
        for key in ("deals", "playouts")
    }
    if budget != kept:
        console.print(
            Text(
                f"The Oracle at {counted(budget['deals'], 'deal')} / "
                f"{counted(budget['playouts'], 'playout')}, as "
                f"given, in this session (the game keeps its own: {kept['deals']:,} / "
                f"{kept['playouts']:,}).",
                style="dim",
            ),
            soft_wrap=not console.is_terminal,  # (a terminal: broken between words)
        )
    return budget


def _new_rules(
    preset: str,
    changes: dict[str, Any],
    seats: int | None,
    lives: int | None,
    knock_penalty: int | None,
) -> Rules:
    spec: dict[str, Any] = {"preset": preset, **changes}
    for key, value in (("seats", seats), ("lives", lives), ("knock_penalty", knock_penalty)):
        if value is None:
            continue
        if key in changes and changes[key] != value:
            option = "--" + key.replace("_", "-")
            raise click.UsageError(
                f"{option} {value} and --rule {key}={changes[key]} disagree: give it once"
            )
        spec[key] = value
    try:
        return Rules.from_spec(spec)
    except RuleError as err:
        raise click.UsageError(str(err)) from None


def _new_names(name: str, rules: Rules) -> list[str]:
    """Your name (checked: printable and not empty) and the computer players'."""
    name = name.strip()
    if not name:
        raise click.BadParameter("your name may not be empty", param_hint="'--name'")
    if why := names_check.problem(name):
        raise click.BadParameter(why, param_hint="'--name'")
    return [name, *computer_names(rules.seats - 1, name)]


# -- thirtyone rules ------------------------------------------------------------------------------


@main.command(
    "rules",
    help="List the presets (the rule document each follows and how it differs from standard) "
    "and every rule option with its values, default and meaning. With PRESET (one of "
    f"{', '.join(sorted(Rules.PRESETS))}): that table's value of every option.",
)
@click.argument(
    "preset",
    required=False,
    metavar="[PRESET]",
    type=click.Choice(sorted(Rules.PRESETS), case_sensitive=False),
)
def rules_command(preset: str | None) -> None:
    """The presets and the rule options (the help is above: it names the presets)."""
    from thirtyone.terminal.rules_screen import rules_report

    Console(highlight=False).print(rules_report(preset))


# -- thirtyone schema, thirtyone completion ------------------------------------------------------


@main.command("schema")
@click.argument("name", type=click.Choice(schemas.NAMES, case_sensitive=False))
def schema_command(name: str) -> None:
    """Print the JSON Schema of the Oracle's input (state) or of its answer (advice), as shipped
    with the package; docs/oracle.md explains every field."""
    click.echo(schemas.schema_text(name), nl=False)


@main.command()
@click.argument("shell", type=click.Choice(["bash", "zsh", "fish"], case_sensitive=False))
def completion(shell: str) -> None:
    """Print the script that completes thirtyone's commands and options in SHELL.

    \b
    bash:  eval "$(thirtyone completion bash)"    (in ~/.bashrc)
    zsh:   eval "$(thirtyone completion zsh)"     (in ~/.zshrc)
    fish:  thirtyone completion fish > ~/.config/fish/completions/thirtyone.fish
    """
    from thirtyone.cli.manners import completion_script

    click.echo(completion_script(shell, main))


main.add_command(oracle_command)
main.add_command(calibrate_command)
main.add_command(tournament_command)
main.add_command(review_command)
main.add_command(stats_command)
main.add_command(study_group)
main.add_command(serve_command)
