"""What a QA round at the terminal found (rulings 190-199): the lives line at a full table, a
resumed game's standings in the table's words, the help's words on a knocker's tie, and the
pause after a round.

Expected values come from docs/rules.md, docs/tables.md and the rulings, never from the output
of the code under test.
"""

from __future__ import annotations

import io
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console
from rich.text import Text
from thirtyone import Rules
from thirtyone.cli.app import main
from thirtyone.game.seats import TablePolicy
from thirtyone.game.session import Session
from thirtyone.terminal.display import lives_line
from thirtyone.terminal.rules_screen import rules_in_short


def rendered(renderable: object, width: int = 80) -> list[str]:
    """The lines ``renderable`` takes on a console ``width`` columns wide, without padding."""
    console = Console(width=width, record=True, file=None, color_system=None)
    with console.capture() as cap:
        console.print(renderable)
    return [line.rstrip() for line in cap.get().splitlines()]


NINE = ["You", "Alice", "Ben", "Cara", "Dev", "Eve", "Finn", "Gus", "Hana"]


# -- the lives line is broken between players, never inside one (ruling 190) -------------------


def test_the_lives_line_of_nine_seats_keeps_each_player_whole_at_80_columns() -> None:
    """Nine players at 80 columns: a break falls between two players (where the ``·`` was),
    never between a name and its lives ("Hana" at a line's end, "2" on the next)."""
    lines = rendered(lives_line(NINE, [2, 2, 2, 2, 3, 2, 2, 2, 2], 0), 80)
    assert len(lines) == 2
    assert all(len(line) <= 80 for line in lines)
    entries = " · ".join(lines).removeprefix("Lives: ").split(" · ")
    expected = [f"{n} {v}" for n, v in zip(NINE, [2, 2, 2, 2, 3, 2, 2, 2, 2], strict=True)]
    assert entries == expected
    assert not lines[1].startswith("·") and not lines[0].endswith("·")


def test_named_lives_are_never_cut_inside_a_name() -> None:
    """Ride the Bus names a player's standing in words ("on the stairs", "off the bus"): a line
    of them is broken between players only, each player's words kept on one line."""
    rules = Rules.preset("ride-the-bus").replace(seats=9)
    lives = [0, -1, 0, 0, -1, -1, -1, -1, 0]  # on the stairs (the county), or off the bus
    lines = rendered(lives_line(NINE, lives, 0, rules), 80)
    said = [rules.standing(n) for n in lives]
    entries = " · ".join(lines).removeprefix("Lives: ").split(" · ")
    assert entries == [f"{n} {s}" for n, s in zip(NINE, said, strict=True)]
    assert all(len(line) <= 80 for line in lines)


def test_the_lives_line_is_one_line_where_it_fits() -> None:
    line = lives_line(["You", "Alice", "Ben"], [3, 2, 0], 0)
    assert rendered(line, 80) == ["Lives: You 3 · Alice 2 · Ben out"]
    assert line.plain == "Lives: You 3 · Alice 2 · Ben out"


# -- a resumed game's standings are the table's (ruling 191) ------------------------------------


def _after_a_round(rules: Rules) -> Session:
    """A game of table players after its first round (a loss taken)."""
    game = Session(rules, [TablePolicy()] * rules.seats, seed=3)
    while True:
        game.deal()
        while game.pending is not None:
            game.play_policy()
        if not game.washed and any(n < rules.lives for n in game.lives):
            return game


def test_a_resumed_gin_game_says_its_letters_not_lives() -> None:
    """Under Gin lives a player's standing is the letters taken (docs/tables.md): the resumed
    line says `Letters: You no letters · Alice G`, as the round's result and the turn's box
    do, never the count of letters still to take as lives."""
    from thirtyone.terminal.play_session import resumed_text

    rules = Rules.preset("gin-lives")
    game = _after_a_round(rules)
    text = resumed_text(game).plain
    assert text.startswith("Resumed: round 2. Letters: ")
    names = game.names
    for seat in game.active:
        assert f"{names[seat]} {rules.letters(game.lives[seat])}" in text
    assert "Lives:" not in text
    assert any(rules.letters(n) == "G" for n in game.lives)


def test_a_resumed_game_on_the_county_says_so() -> None:
    """A player at 0 lives with the county is on the county, still in (ruling 11): the resumed
    line says `on the county`, as the lives line after a round does, not `0`."""
    from thirtyone.terminal.play_session import resumed_text

    rules = Rules.preset("scat").replace(lives=1)
    game = _after_a_round(rules)
    on_county = [s for s in game.active if game.lives[s] == 0]
    assert on_county
    text = resumed_text(game).plain
    for seat in on_county:
        assert f"{game.names[seat]} on the county" in text
    assert not re.search(r"\b0\b", text.split("Lives: ", 1)[1])


# -- the help says what a knocker's tie costs at this table (ruling 192) -------------------------


def test_the_standard_help_says_a_tied_knocker_pays() -> None:
    """rules.md: a knocker whose hand is the lowest, or tied for lowest, pays the penalty."""
    text = rules_in_short(Rules.standard())
    assert "a knocker who is lowest, or tied for lowest, pays 2 lives" in text


def test_the_scat_help_says_a_tied_knocker_is_safe() -> None:
    """Scat (knocker_tie=others_pay): a knocker tied for lowest is safe and the others tied pay
    1; a knocker lowest alone pays 2 (docs/tables.md)."""
    text = rules_in_short(Rules.preset("scat"))
    assert "a knocker who is lowest alone pays 2 lives" in text
    assert "a knocker tied for lowest is safe" in text
    assert "tied for lowest, pays" not in text


def test_the_help_of_the_other_ties() -> None:
    """only_knocker: the knocker pays the penalty, the others tied nothing; cadillac: the
    knocker tied pays 2 (whatever the penalty), the others tied nothing."""
    only = rules_in_short(Rules.standard().replace(knocker_tie="only_knocker", knock_penalty=1))
    assert "a knocker who is lowest, or tied for lowest, pays 1 life" in only
    assert "the others tied with the knocker lose nothing" in only
    cadillac = rules_in_short(Rules.preset("cadillac").replace(knock_penalty=1))
    assert "a knocker who is lowest alone pays 1 life" in cadillac
    assert "a knocker tied for lowest pays 2 lives" in cadillac
    assert "the others tied with the knocker lose nothing" in cadillac


# -- the pause after a round quits as every prompt does (ruling 193) -----------------------------


def _knock_then(answer: str, tmp_path: Path) -> str:
    """Knock on your first turn (the round then ends), and answer the pause with ``answer``."""
    result = CliRunner().invoke(
        main,
        ["play", "--no-oracle", "--seed", "5", "--save-file", str(tmp_path / "s.json")],
        input=f"k\n{answer}\n",
        env={"COLUMNS": "100", "NO_COLOR": "1", "THIRTYONE_DATA_DIR": str(tmp_path)},
    )
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert "Press Enter for the next round (q quit)" in result.output
    return result.output


@pytest.mark.parametrize("answer", ["q", "Q", " q ", "QUIT", "quit"])
def test_q_at_the_pause_quits_in_any_case(answer: str, tmp_path: Path) -> None:
    """`q` quits at every prompt, in either case and with spaces around it (the turn's prompt
    reads `Q` as `q`); at the pause after a round `Q` dealt the next round instead."""
    out = _knock_then(answer, tmp_path)
    tail = out.split("Press Enter for the next round (q quit)", 1)[1]
    assert "Saved. Continue with:" in tail
    assert "Round 2" not in tail


def test_enter_at_the_pause_deals_the_next_round(tmp_path: Path) -> None:
    out = _knock_then("", tmp_path)
    assert "Round 2" in out.split("Press Enter for the next round (q quit)", 1)[1]


# -- where an unfinished game was kept: a path is never cut in two (ruling 194) -----------------


def _kept_message(tmp_path: Path) -> tuple[list[str], str, int]:
    """The lines said at a terminal a few columns wider than the backup's path when a new game
    keeps the unfinished one; the backup's path; the terminal's width."""
    import io

    from thirtyone.terminal.save_start import before_new_game

    path = tmp_path / "saved-game.json"
    first = CliRunner().invoke(
        main,
        ["play", "--no-oracle", "--seed", "3", "--save-file", str(path)],
        input="d\n4\nq\n",
        env={"COLUMNS": "100", "NO_COLOR": "1", "THIRTYONE_DATA_DIR": str(tmp_path)},
    )
    assert first.exit_code == 0
    kept = str(tmp_path / "saved-game.1.json")
    width = len(kept) + 8
    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=True, color_system=None)
    assert before_new_game(path, console, interactive=True, given=True, read=lambda _: "n") is None
    return out.getvalue().splitlines(), kept, width


def test_the_kept_games_path_is_whole_on_a_line(tmp_path: Path) -> None:
    """The sentence naming the backup and the command that resumes it are wider than the
    terminal: they are broken between words, so the path, which fits a line, stands whole on
    one, to read and to copy; the terminal had cut it where the line ended (at 80 columns,
    `…/thirtyone/saved` / `-game.1.json`)."""
    lines, kept, width = _kept_message(tmp_path)
    assert all(len(line) <= width for line in lines), lines
    assert any(line.strip().startswith(kept) for line in lines), lines
    text = " ".join(" ".join(lines).split())
    assert f"Your unfinished game was kept as {kept}. To play it later:" in text
    assert pasted(lines[-2:]) == ["thirtyone", "play", "--resume", "--save-file", kept]


def test_the_command_that_continues_a_quit_game_is_broken_to_paste_whole(tmp_path: Path) -> None:
    """`Saved. Continue with: thirtyone play --resume --save-file PATH`, wider than the
    terminal, is broken there, the path whole on its line (ruling 194), and the command on
    lines that paste as one command (ruling 360)."""
    import io

    from thirtyone.game.seats import TablePolicy
    from thirtyone.terminal.play_session import _run
    from thirtyone.terminal.prompt import QuitGame

    class Leaves:
        def choose(self, game: Session) -> None:
            raise QuitGame

    class Keeps:
        def save(self) -> None:
            pass

    path = tmp_path / "saved-game.json"
    width = len(str(path)) + 8
    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=True, color_system=None)
    game = Session(Rules.standard(), [None, TablePolicy(), TablePolicy(), TablePolicy()], seed=5)
    assert _run(game, Leaves(), Keeps(), (path, True), console) is False  # type: ignore[arg-type]
    lines = out.getvalue().splitlines()
    assert all(len(line) <= width for line in lines), lines
    assert str(path) in [line.strip() for line in lines]
    assert lines[0] == "Saved. Continue with:"
    assert pasted(lines[1:3]) == ["thirtyone", "play", "--resume", "--save-file", str(path)]


def pasted(lines: list[str]) -> list[str]:
    """The words a shell runs when ``lines`` are copied from the terminal and pasted: one
    command (each line a command of its own unless the one before ends with a backslash)."""
    import subprocess

    script = "set -e; printf '%s\\n' " + "\n".join(lines).lstrip()
    done = subprocess.run(["sh", "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, (lines, done.stderr)
    return done.stdout.splitlines()


def test_the_resume_command_copied_from_a_narrow_terminal_runs_as_one_command(
    tmp_path: Path,
) -> None:
    """A resume command wider than the terminal was broken between words, `--save-file` at the
    end of one line and the path on the next: pasted, that ran as two commands (the first
    without its file). It is broken with the shell's continuation, ` \\` (ruling 360); a
    command that fits stays on one line, and a program reading it gets it whole."""
    from thirtyone.terminal.save_start import say_resume

    path = tmp_path / "a folder's name" / "saved-game.json"
    words = ["thirtyone", "play", "--resume", "--save-file", str(path)]
    narrow = len(shlex.quote(str(path))) + 4  # (the path fits a line, the command does not)
    for width, terminal, count in ((narrow, True, 3), (400, True, 1), (narrow, False, 1)):
        out = io.StringIO()
        console = Console(file=out, width=width, force_terminal=terminal, color_system=None)
        say_resume(console, "Saved. Continue with:", path, True)
        lines = out.getvalue().splitlines()
        assert len(lines) == count, lines
        assert terminal is False or all(len(line) <= width for line in lines), lines
        command = lines[1:] if count > 1 else [lines[0].removeprefix("Saved. Continue with:")]
        assert pasted(command) == words, lines


@pytest.mark.parametrize(
    "folder", ["a-folder-with-a-name-far-longer-than-the-terminal-is-wide", "山田/ゲーム/保存"]
)
def test_a_resume_command_wider_than_the_terminal_in_its_path_pastes_whole(
    tmp_path: Path, folder: str
) -> None:
    """A path wider than the terminal was cut by the printing with a newline inside it: the
    lines pasted ran the command with part of the path (rc 127 for the rest). And a path of
    wide characters was measured in characters, not cells, so its command was taken to fit
    and broken between words, `--save-file` apart from its path (ruling 360). Either way the
    lines pasted now run the one command."""
    from thirtyone.terminal.save_start import before_new_game, say_resume

    path = tmp_path / folder / "saved-game.json"
    words = ["thirtyone", "play", "--resume", "--save-file", str(path)]
    out = io.StringIO()
    console = Console(file=out, width=40, force_terminal=True, color_system=None)
    say_resume(console, "Saved. Continue with:", path, True)
    lines = out.getvalue().splitlines()
    assert lines[0] == "Saved. Continue with:", lines
    assert pasted(lines[1:]) == words, lines
    # The same for the kept game's command (a new game over an unfinished one, no terminal
    # to ask at: the old one is kept and the command to play it later said).
    path.parent.mkdir(parents=True)
    first = CliRunner().invoke(
        main,
        ["play", "--no-oracle", "--seed", "3", "--save-file", str(path)],
        input="d\n4\nq\n",
        env={"COLUMNS": "100", "NO_COLOR": "1", "THIRTYONE_DATA_DIR": str(tmp_path)},
    )
    assert first.exit_code == 0, first.output
    out = io.StringIO()
    console = Console(file=out, width=40, force_terminal=True, color_system=None)
    assert before_new_game(path, console, interactive=False, given=True) is None
    said = out.getvalue().splitlines()
    at = max(i for i, line in enumerate(said) if line.endswith("later:"))
    kept = str(path.parent / "saved-game.1.json")
    assert pasted(said[at + 1 :]) == [*words[:-1], kept], said


@pytest.mark.parametrize("terminal", [True, False])
def test_a_line_naming_a_path_is_broken_between_words_on_a_terminal(
    tmp_path: Path, terminal: bool
) -> None:
    """What the terminal's lines that name a file go through (`Cancelled: nothing was changed;
    your game is still saved at PATH.`, the kept game, the resume command): broken between
    words on a terminal, the path whole on its line (the terminal cut it anywhere), and one
    line, whole, for a program reading it (ruling 194)."""
    from thirtyone.terminal.display import say

    path = tmp_path / "a-folder-with-a-long-name" / "saved-game.json"
    sentence = f"Cancelled: nothing was changed; your game is still saved at {path}."
    width = len(str(path)) + 4
    out = io.StringIO()
    say(Console(file=out, width=width, force_terminal=terminal, color_system=None), Text(sentence))
    lines = out.getvalue().splitlines()
    assert " ".join(" ".join(lines).split()) == sentence
    if terminal:
        assert all(len(line) <= width for line in lines), lines
        assert f"{path}." in [line.strip() for line in lines], lines
    else:
        assert lines == [sentence]
