"""The ``thirtyone`` command's general manners: ``--version``, ``-h``, help and exit status 0 when
called bare, output that carries no padding when it is not a terminal, a quiet exit when the
reader of a pipe goes away (``thirtyone rules | head``), one line when the output cannot be
written (a full disk), and usage errors that quote at most
a short part of what was typed (``thirtyone schema`` followed by 100,000 characters)."""

from __future__ import annotations

import math
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn, TextIO, TypeVar, cast

import click

from thirtyone import _core
from thirtyone.errors import RuleError, ThirtyOneError
from thirtyone.game.rules import Rules
from thirtyone.names import (
    QUOTE_CHARS,
    any_length,
    number,
    plain_number,
    plain_whole,
    quoted,
    shown,
)
from thirtyone.paths import short

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem

#: Spaces and tabs at the end of a line.
_TRAILING = re.compile(r"[ \t]+(?=\r?\n)")

#: ``-h`` works wherever ``--help`` does.
CONTEXT_SETTINGS: dict[str, Any] = {"help_option_names": ["-h", "--help"]}


class ReaderGone(Exception):
    """The reader of the pipe we write to has closed it (``| head`` had enough)."""


class OutputFailed(Exception):
    """What we write cannot be written (a full disk, ``> /dev/full``, a file on a device that
    failed): the command ends with one line saying so."""

    def __init__(self, err: OSError) -> None:
        super().__init__(err.strerror or type(err).__name__)


class _NotATerminal:
    """A text stream that is not a terminal (a pipe, a file): it drops the spaces rich pads each
    line with (its tables fill every line to the console's width), and it reports a closed pipe
    as :class:`ReaderGone`, which rich does not catch (rich would exit with status 1)."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            self._stream.write(_TRAILING.sub("", text))
        except BrokenPipeError as err:
            raise ReaderGone from err
        except OSError as err:
            raise OutputFailed(err) from err
        return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError as err:
            raise ReaderGone from err
        except OSError as err:
            raise OutputFailed(err) from err

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def trim_when_not_a_terminal() -> None:
    """From now on, standard output and error that are not terminals drop trailing spaces and
    report a closed pipe as :class:`ReaderGone`."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None or isinstance(stream, _NotATerminal) or _is_terminal(stream):
            continue
        # A pipe in a narrow encoding (a Windows code page) shows a card suit or a bar it cannot
        # encode as "?" rather than failing.
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")
        setattr(sys, name, cast(TextIO, _NotATerminal(stream)))


def _silence_stdout() -> None:
    """Point standard output at the null device, so that what is still buffered for the closed
    pipe is dropped at exit instead of failing again (Python's own advice for SIGPIPE)."""
    try:
        fd = sys.__stdout__.fileno() if sys.__stdout__ is not None else -1
    except (OSError, ValueError):
        return
    if fd < 0:
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def crop_echoes(message: str, given: Iterable[str]) -> str:
    """``message`` with every argument of ``given`` longer than :data:`QUOTE_CHARS` characters
    (or the value after the ``=`` of ``--option=value``) that it repeats cut short: quoted
    (:func:`thirtyone.names.quoted`) where click quotes it, else its first characters and
    ``…``."""
    values = {part for arg in given for part in (arg, arg.partition("=")[2])}
    for value in sorted((v for v in values if len(v) > QUOTE_CHARS), key=len, reverse=True):
        if value in message:
            message = message.replace(repr(value), quoted(value))
            message = message.replace(value, value[:QUOTE_CHARS] + "…")
    return message


class Main(click.Group):
    """The ``thirtyone`` group: a closed pipe ends the command quietly with status 0 (the reader
    had all it wanted), instead of click's status 1; a usage error quotes the arguments it
    repeats short (:func:`crop_echoes`)."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        given = tuple(args)
        try:
            ctx = super().make_context(info_name, args, parent, **extra)
        except click.ClickException as err:
            _crop(err, given)
            raise _one_line(err) from None
        ctx.meta["thirtyone.args"] = given
        return ctx

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (BrokenPipeError, ReaderGone):
            _silence_stdout()
            ctx.exit(0)
        except OutputFailed as err:
            # (What is still buffered would fail again at exit: dropped.)
            _silence_stdout()
            fail(f"cannot write the output: {err}.")
        except click.ClickException as err:
            _crop(err, ctx.meta.get("thirtyone.args", ()))
            raise _one_line(err) from None


def _crop(err: click.ClickException, given: Sequence[str]) -> None:
    # (``message`` is typed Final, but it is a plain attribute that click reads when it shows
    # the error; a new exception would have to copy every field of each kind of usage error.)
    err.message = crop_echoes(err.message, given)  # type: ignore[misc]


def _one_line(err: click.ClickException) -> click.ClickException:
    """A usage error (a bad option or argument) as one line ``Error: …`` with its exit status,
    as every other error of the command, instead of click's usage, hint, blank line and error;
    the line ends with where the help is (a command called without the arguments it needs
    still shows its help)."""
    if not isinstance(err, click.UsageError) or isinstance(err, click.exceptions.NoArgsIsHelpError):
        return err
    said = " ".join(err.format_message().split())
    said += "" if said.endswith((".", "?)", ".)")) else "."
    where = err.ctx.command_path if err.ctx is not None else "thirtyone"
    return _OneLine(f"{said} See {where} -h.")


class _OneLine(click.ClickException):
    """An error of what was typed, shown as ``Error: …`` on one line (exit status 2)."""

    exit_code = 2


def fail(message: str) -> NoReturn:
    """Exit with status 2 after one line on standard error."""
    line = " ".join(message.split())
    click.echo(f"Error: {line}", err=True)
    sys.exit(2)


FC = TypeVar("FC", bound=Callable[..., Any])


class _Plainly(click.ParamType[Any, Any]):
    """A number option's type that reads only text ``plainly`` takes as written plainly, and
    refuses anything else quoting it as typed: ``must be {words}, not "…"``."""

    def __init__(self, words: str, plainly: Callable[[str], bool]) -> None:
        self.words = words
        self.plainly = plainly

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not self.plainly(value):
            self.fail(f"must be {self.words}, not {shown(value)}", param, ctx)
        # (Python reads at most 4,300 digits, and click then said "… is not a valid integer":
        # an argument is at most 128 KiB, read in a few hundredths of a second.)
        with any_length():
            read = super().convert(value, param, ctx)
        if isinstance(read, float) and math.isinf(read) and "inf" not in str(value).lower():
            # (1e400 is read as infinity: told as typed, not as "inf", which was not typed.)
            self.fail(f"must be {self.words}, not {shown(value)}, too large to read", param, ctx)
        return read


class WholeNumber(_Plainly, click.types.IntParamType):
    """A whole number typed on the command line (``--seed``, ``--games``, ``--deals``, …), as
    click's ``int`` reads it but written plainly (:func:`thirtyone.names.plain_whole`): Python's
    ``int()`` also reads other scripts' digits (full-width ``\uff11\uff12``) and ``1_000``,
    which the new-game form and the HTTP API refuse. Anything else is refused quoting it as
    typed, in the words of every other refused number, ``must be a whole number, not "…"``
    (``words``: what the option takes, ``a whole number from 2 to 9`` where it has bounds,
    :func:`bounded`; ruling 354), not click's "'abc' is not a valid integer"."""

    def __init__(self, words: str = "a whole number") -> None:
        super().__init__(words, plain_whole)


#: The type of a whole-number option (:class:`WholeNumber`).
WHOLE = WholeNumber()


class PlainNumber(_Plainly, click.types.FloatParamType):
    """A number typed on the command line (``--delay``, ``--max-time``, ``--target-margin``),
    as click's ``float`` reads it but written plainly (:func:`thirtyone.names.plain_number`):
    anything else is refused quoting it as typed, ``must be a number of seconds, not "…"``
    (``words``), as the whole-number options refuse theirs (ruling 355), not click's "'abc' is
    not a valid float". ``inf`` and ``nan`` pass, for the option's bounds to refuse."""

    def __init__(self, words: str = "a number") -> None:
        super().__init__(words, plain_number)


#: The type of an option in seconds (:class:`PlainNumber`).
SECONDS = PlainNumber("a number of seconds")


def option_error(err: Exception, setting: str, option: str | None = None) -> click.BadParameter:
    """A check's refusal of a setting (``deals must be …``, ``max_time must be …``) as the
    refusal of the option it was typed in, in the words of every refused option: ``Invalid
    value for '--oracle-deals': must be …`` (ruling 366), the setting's own name (which is not
    always the option's) left out. ``option``: the option's name, where the refusal is raised
    outside its callback (where click does not know it)."""
    hint = None if option is None else f"'{option}'"
    return click.BadParameter(str(err).removeprefix(f"{setting} "), param_hint=hint)


Callback = Callable[[click.Context, click.Parameter, Any], Any]


def by_core(setting: str) -> Callback:
    """The callback of an option whose bounds are the core's (``--deals``, ``--playouts``,
    ``--threads``, ``--seed``): the value checked as soon as it is read, and refused as the
    option's (:func:`option_error`). None (not given) passes."""

    def check(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if value is not None:
            try:
                _core.check_settings(**{setting: value})
            except ThirtyOneError as err:
                raise option_error(err, setting) from None
        return value

    return check


def count_option(name: str, default: int, help: str) -> Callable[[FC], FC]:
    """A whole-number option of the Oracle (``--deals``, ``--oracle-playouts``...) with its
    default shown, checked against the core's bounds as soon as it is read (:func:`by_core`)."""
    setting = name.removeprefix("--").removeprefix("oracle-")
    return click.option(
        name, type=WHOLE, default=default, show_default=True, help=help, callback=by_core(setting)
    )


def rule_assignments(
    ctx: click.Context, param: click.Parameter, values: tuple[str, ...]
) -> dict[str, Any]:
    """``--rule KEY=VALUE`` (repeatable) as the changes it makes, a bad one refused as the
    option's error."""
    changes: dict[str, Any] = {}
    for text in values:
        try:
            key, value = Rules.parse_assignment(_lower_words(text))
        except RuleError as err:
            raise click.BadParameter(str(err), ctx=ctx, param=param) from None
        changes[key] = value
    return changes


def _lower_words(text: str) -> str:
    """``KEY=VALUE`` with its key, and a value that is one of the key's words, in lower case, as
    every word the command line takes from a list (ruling 361: ``First_Turn_Knock=Blind``); a
    value of one's own (``life_names=``) is left as typed."""
    key, eq, value = text.partition("=")
    option = next((o for o in Rules.options() if o.name == key.strip().lower()), None)
    if option is None:
        return text  # (refused naming the key as typed)
    if value.strip().lower() in option.choices:
        value = value.strip().lower()
    return f"{option.name}{eq}{value}"


def rule_completions(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """What shell completion offers for ``--rule``: the keys, each as ``KEY=``, and after the
    ``=`` the values of a key that takes one of a list (``first_turn_knock=blind``)."""
    from click.shell_completion import CompletionItem

    if "=" not in incomplete:
        names = Rules.option_names()
        return [CompletionItem(f"{n}=") for n in names if n.startswith(incomplete.lower())]
    key, _, part = incomplete.partition("=")
    for option in Rules.options():
        if option.name == key.lower():  # (in any case, as the option takes it: ruling 361)
            words = [v for v in option.choices if v.startswith(part.lower())]
            return [CompletionItem(f"{option.name}={v}") for v in words]
    return []


#: The bash script of ``thirtyone completion bash``: click's, but bash breaks words at ``=``
#: (``COMP_WORDBREAKS``), so ``--rule first_turn_knock=b`` reached the command as three words
#: and no value was completed. The script joins a word to an ``=`` next to it (no space
#: between them on the line) before asking the command, gives bash back only the part after
#: what bash takes for the word, and adds no space after a key's ``=``.
BASH_SOURCE = r"""%(complete_func)s() {
    local IFS=$'\n'
    local response line=${COMP_LINE:0:COMP_POINT} at=0 i w before
    local -a words=()
    local cword=0 glue=0
    for ((i = 0; i < ${#COMP_WORDS[@]} && i <= COMP_CWORD; i++)); do
        w=${COMP_WORDS[i]}
        before=${line:at}
        before=${before%%%%"$w"*}
        if ((i > 0)) && [[ -z $before && ( $w == "=" || $glue == 1 ) ]]; then
            words[${#words[@]}-1]+=$w
        else
            words+=("$w")
        fi
        [[ $w == "=" ]] && glue=1 || glue=0
        at=$((at + ${#before} + ${#w}))
        ((i == COMP_CWORD)) && cword=$((${#words[@]} - 1))
    done
    # (what bash replaces: the text after the last '=' before the cursor; click answers an
    # --option=value word with the value alone)
    local cur=${COMP_WORDS[COMP_CWORD]} head=""
    [[ $cur == "=" ]] && cur=""
    local keep=${words[cword]}
    keep=${keep%%"$cur"}
    [[ ${words[cword]} == --*=* ]] && head="${words[cword]%%%%=*}="

    response=$(env COMP_WORDS="${words[*]}" COMP_CWORD=$cword %(complete_var)s=bash_complete $1)

    for completion in $response; do
        IFS=',' read type value <<< "$completion"

        if [[ $type == 'dir' ]]; then
            COMPREPLY=()
            compopt -o dirnames
        elif [[ $type == 'file' ]]; then
            COMPREPLY=()
            compopt -o default
        elif [[ $type == 'plain' ]]; then
            [[ $value == *= ]] && compopt -o nospace
            value=$head$value
            COMPREPLY+=("${value#"$keep"}")
        fi
    done

    return 0
}

%(complete_func)s_setup() {
    complete -o nosort -F %(complete_func)s %(prog_name)s
}

%(complete_func)s_setup;
"""


def completion_script(shell: str, cli: click.Command) -> str:
    """The script of ``thirtyone completion SHELL``: click's (bash: :data:`BASH_SOURCE`)."""
    from click.shell_completion import BashComplete, get_completion_class

    cls = get_completion_class(shell)
    assert cls is not None  # click knows the three shells of the choice
    if cls is BashComplete:

        class Bash(BashComplete):
            source_template = BASH_SOURCE

        cls = Bash
    return cls(cli, {}, "thirtyone", "_THIRTYONE_COMPLETE").source()


#: The largest seed the engine takes.
MAX_SEED = 2**64 - 1


def seed_option(help: str, default: int | None = None) -> Callable[[FC], FC]:
    """``--seed``: a whole number from 0 to :data:`MAX_SEED`, the engine's seeds in every command
    (ruling 221), said in its help and checked as soon as it is read (:func:`by_core`)."""
    return click.option(
        "--seed",
        type=WholeNumber(f"a whole number from 0 to {MAX_SEED:,}"),
        default=default,
        show_default=default is not None,
        help=f"{help} 0 to {MAX_SEED:,}.",
        callback=by_core("seed"),
    )


#: The refusal of a local option given with ``--cluster`` (``option``: ``--jobs``, ``--workers``).
NO_JOBS = (
    "{option} is the number of local processes; with --cluster the cluster's workers play "
    "(leave {option} out)"
)


def backend_options(kept: str, same: str) -> Callable[[FC], FC]:
    """A study's ``--cluster`` and ``--checkpoint`` (docs/cluster.md): ``kept`` says what the
    checkpoint keeps ("each finished batch of games"), ``same`` what the same seed gives ("same
    results")."""
    cluster = click.option(
        "--cluster",
        metavar="tcp://HOST:PORT",
        help="Compute on the Dask cluster whose scheduler is there instead of local processes "
        "(needs pip install 'thirtyone[cluster]', and this thirtyone on every worker; see "
        f"docs/cluster.md). Same seed, {same}.",
    )
    checkpoint = click.option(
        "--checkpoint",
        type=FilePath(),
        help=f"Keep {kept} in this file; the same command given it again resumes a stopped run "
        "without doing them again.",
    )

    def both(f: FC) -> FC:
        return cluster(checkpoint(f))

    return both


def resuming(kept: int, total: int | None, unit: str, path: Path) -> str:
    """The line a study resumed from its checkpoint starts with: ``resuming: 53 of 240 batches
    from ck.json`` (``total`` None: unknown, ``resuming: 30 games from ck.json``)."""
    of = "" if total is None else f" of {total:,}"
    return f"resuming: {kept:,}{of} {unit} from {short(path)}"


class FilePath(click.Path):
    """A file's path as an option or argument takes it (a :class:`~pathlib.Path`), refusing an
    empty one, which Python reads as ``.``, the current folder: ``thirtyone review ''`` said
    "``.`` is a folder, not a thirtyone save"."""

    def __init__(self) -> None:
        super().__init__(path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and value == "":
            self.fail("'' is an empty path, which names no file", param, ctx)
        return super().convert(value, param, ctx)


N = TypeVar("N", int, float)


def _taken(low: N, high: N, unit: str) -> str:
    """What a number option from ``low`` to ``high`` takes, as its refusals say it: ``a whole
    number from 2 to 9``, ``1 or 2``, ``a number of seconds from 0 to 5``."""
    if high == low + 1:
        return f"{low} or {high}"
    kind = f"a number of {unit}" if unit else "a whole number"
    # (Large bounds with commas, as the core's own refusals write theirs: 1,000,000.)
    lo, hi = (
        f"{x:g}" if isinstance(x, float) else f"{x:,}" if x >= 100_000 else str(x)
        for x in (low, high)
    )
    return f"{kind} from {lo} to {hi}"


def bounded(low: N, high: N, unit: str = "") -> dict[str, Any]:
    """The ``type`` and ``callback`` of a number option from ``low`` to ``high`` (floats: a
    number of ``unit``), for ``click.option(..., **bounded(2, 9))``. The value is checked as it
    is read, whatever its size: ``--seats 10`` and ``--seats 99999…`` (which Python reads but
    the core cannot hold) are refused alike, a long number cut to its first digits; ``nan`` or
    ``inf`` refused as out of range; and text it cannot read (``--seats x``) in the same words,
    bounds included."""
    taken = _taken(low, high, unit)
    kind = PlainNumber(taken) if isinstance(low, float) else WholeNumber(taken)

    def check(ctx: click.Context, param: click.Parameter, value: N | None) -> N | None:
        if value is None or low <= value <= high:
            return value
        with any_length():
            text = number(value) if isinstance(value, float) else str(value)
        if len(text) > 24:
            text = f"{text[:20]}… (a number of {len(text):,} digits)"
        raise click.BadParameter(f"must be {taken}, not {text}")

    return {"type": kind, "callback": check}
