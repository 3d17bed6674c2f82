"""What ``thirtyone play`` does with the save file before the first turn.

- A path that holds anything but a thirtyone save (a folder, a text file, another program's
  JSON) is refused; nothing is written there.
- The folder is checked: a save must be writable there before the game starts
  (:func:`thirtyone.store.saves.prepare_folder`, which also removes a crash's leftover
  temporary files).
- Starting a new game where an unfinished one is saved asks, at a terminal, whether to resume
  it, start a new one and keep the old save as a numbered backup beside it, or cancel. Without
  a terminal the old save is kept as a backup and the message says where. A finished game is
  simply replaced.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from thirtyone.game.session import Session
from thirtyone.store import saves
from thirtyone.terminal.display import WARN_STYLE, say
from thirtyone.terminal.player import LineReader
from thirtyone.terminal.prompt import prompt_line


class Cancelled(Exception):
    """The person chose not to start a new game over their unfinished one."""


def resume_words(path: Path, given: bool) -> list[str]:
    """The words of the command that continues the game saved at ``path`` (``given``: the path
    was chosen with ``--save-file``, so the command must name it, quoted for the shell)."""
    words = ["thirtyone", "play", "--resume"]
    return [*words, "--save-file", shlex.quote(str(path))] if given else words


def resume_command(path: Path, given: bool) -> str:
    """:func:`resume_words` as one line."""
    return " ".join(resume_words(path, given))


def resume_lines(console: Console, path: Path, given: bool) -> list[Text]:
    """The command that continues the game at ``path``, indented: one line where it fits (and
    for a program reading it); else broken before the path with the shell's continuation
    (`` \\``), so that the lines copied run as one command (broken between words, the
    command's ``--save-file`` and its path ran as two commands)."""
    *head, last = resume_words(path, given)
    line = f"  {' '.join([*head, last])}"
    if given and console.is_terminal and cell_len(line) > console.width:
        return [Text(f"  {' '.join(head)} \\"), Text(f"    {last}")]
    return [Text(line)]


def say_command(console: Console, lines: list[Text], style: str = "") -> None:
    """Lines of a command to copy, each printed whole: a path wider than the terminal is
    wrapped by the terminal on the screen and copied whole (broken by rich, it held a newline,
    and the lines pasted ran the command without the rest of the path)."""
    for text in lines:
        text.stylize(style)
        console.print(text, soft_wrap=True)


def say_resume(console: Console, lead: str, path: Path, given: bool, style: str = "") -> None:
    """``lead`` and the command that continues the game at ``path``: on one line where they
    fit, else the command under it (:func:`resume_lines`)."""
    one = f"{lead} {resume_command(path, given)}"
    if not console.is_terminal or cell_len(one) <= console.width:
        say(console, Text(one, style=style))
    else:
        say(console, Text(lead, style=style))
        say_command(console, resume_lines(console, path, given), style)


def before_resume(path: Path) -> saves.SavedGame:
    """The game to resume at ``path``, once its folder is known to be writable. Raises
    :class:`~thirtyone.errors.SaveError` saying what is wrong."""
    saved = saves.read(path)
    if saved.over:
        raise saves.SaveError(
            f"the saved game at {saves.short(path)} is over; start a new one with thirtyone play"
        )
    saves.prepare_folder(path)
    return saved


def before_new_game(
    path: Path,
    console: Console,
    *,
    interactive: bool,
    given: bool,
    read: LineReader = prompt_line,
) -> saves.SavedGame | None:
    """Make ``path`` ready for a new game. Returns the saved game to resume instead when the
    person chose to (None: start the new game). Raises :class:`Cancelled`, or
    :class:`~thirtyone.errors.SaveError` saying what is wrong (nothing written)."""
    try:
        found = saves.look(path)
    except saves.NotASave as err:
        raise saves.SaveError(
            f"{err}; it was left as it is: move it away or choose another --save-file"
        ) from None
    saves.prepare_folder(path)
    if found.state in ("missing", "finished"):
        return None
    game, why = None, found.why
    if found.saved is not None:
        try:
            game = saves.replayed(found.saved, saves.short(path))
        except saves.SaveError as err:
            why = str(err)
    if interactive and _ask(path, game, why, console, read) == "resume":
        return found.saved
    kept = saves.backup(path)
    if game is None:
        say(console, Text(f"{_sentence(why)} It was kept as {kept}."))
        return None
    say(console, Text(f"Your unfinished game was kept as {kept}. To play it later:", style="bold"))
    say_command(console, resume_lines(console, kept, True))
    return None


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def round_resumed(game: Session) -> int:
    """The round a resume of ``game`` plays: the round under way, or the one dealt next when
    the save was left between two rounds (the last one played when the game is over)."""
    round_ = game.round
    under_way = round_ is not None and not round_.is_over
    return game.round_number if under_way or game.over else game.round_number + 1


def standing(game: Session) -> str:
    """``round 3 · You 2 lives, Alice 3 lives, Ben 1 life`` for a game under way (the round a
    resume plays: :func:`round_resumed`); ``round 7 · over: Alice won`` for a save whose
    actions ended the game but not its flag."""
    if game.winner is not None:
        return f"round {game.round_number} · over: {game.names[game.winner]} won"
    lives = ", ".join(f"{game.names[s]} {game.standing(s)}" for s in game.active)
    return f"round {round_resumed(game)} · {lives}"


def _ask(path: Path, game: Session | None, why: str, console: Console, read: LineReader) -> str:
    """``resume``, ``new`` or raises :class:`Cancelled`."""
    backup = saves.next_backup(path).name
    if game is not None:
        # The path on a line of its own: whole to copy, and never broken at the screen's edge.
        what = "a game that ended before its save said so" if game.over else "an unfinished game"
        head = f"You have {what}, saved in\n  {path}\n{standing(game)}."
        choices = "  r  resume it\n"
        keys, explain = "r, n or c", "Type r to resume it, n for a new game, or c to cancel."
    else:
        head = _sentence(why)
        choices = ""
        keys, explain = "n or c", "Type n for a new game, or c to cancel."
    choices += f"  n  start a new game, and keep this one as {backup}\n  c  cancel: change nothing"
    say(console, Text(head, style="bold"))
    console.print(Text(choices))
    while True:
        text = read(f"Your choice ({keys})")
        if text is None:  # end of input or Ctrl-C
            raise Cancelled
        answer = text.strip().lower()
        if answer in ("r", "resume") and game is not None:
            return "resume"
        if answer in ("n", "new"):
            return "new"
        if answer in ("c", "cancel", "q", "quit"):
            raise Cancelled
        console.print(Text(explain, style=WARN_STYLE))
