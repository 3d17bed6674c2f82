"""A turn fits the screen (issue 27, item 7): at 80 columns and 24 rows, and at 100 x 40, the
turn's box keeps its title and every opponent's row on the screen when the prompt asks, the
options' table has no wrapped cell, and the advice holds at most a couple of lines of prose; on
the longest real turns (9 seats, Gin lives, with lives). Played through the real command, in
process (the terminal's size from ``COLUMNS``/``LINES``) and in a pseudo-terminal (pexpect)."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from rich.console import Console
from thirtyone.cli.app import main
from thirtyone.oracle.answer import Advice

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
FAST = ["--oracle-deals", "200", "--oracle-playouts", "1000", "--fast"]


@pytest.fixture(autouse=True)
def _whole_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Answers without the time limit: the same screens on every machine."""
    import thirtyone.oracle.query

    real = thirtyone.oracle.query.advise

    def whole(*args: Any, **kwargs: Any) -> Advice:
        return real(*args, **{**kwargs, "max_time": None})

    monkeypatch.setattr(thirtyone.oracle.query, "advise", whole)


def screens(output: str, columns: int) -> list[list[str]]:
    """Each turn as the screen shows it when the prompt asks: the lines from the turn's box to
    the prompt, as a terminal of ``columns`` lays them out (a longer line takes more rows)."""
    lines = _rows(ANSI.sub("", output).replace("\r\n", "\n"), columns)
    found = []
    for i, line in enumerate(lines):
        if line.startswith("Your move ("):
            top = max(j for j in range(i) if "your turn" in lines[j] and lines[j].startswith("╭"))
            found.append(lines[top : i + 1])
    return found


def check_screen(screen: list[str], rows: int, columns: int, opponents: int) -> None:
    """The box's title and every opponent's row fit above the prompt; no cell of the options'
    table wraps; at most a couple of lines of prose besides the best option's line."""
    assert len(screen) <= rows, "\n".join(screen)
    assert all(len(line) <= columns for line in screen)
    box_end = next(i for i, line in enumerate(screen) if line.startswith("╰"))
    assert box_end - 4 >= opponents  # the header, its rule, then a row per opponent
    advice = screen[box_end + 1 :]
    if not advice or not advice[0].startswith("╭─ Advice"):
        return  # the Oracle had no advice here
    inside = [line.strip("│ ").rstrip() for line in advice[1:] if line.startswith("│")]
    head = next(i for i, line in enumerate(inside) if line.split()[:2] == ["safe", "±"])
    assert inside[0].startswith("Best: ")
    prose = inside[1:head]
    assert len(prose) <= 3, inside  # (the game's line, the reason: each a line here)
    rows_ = inside[head + 1 :]
    notes = next((i for i, row in enumerate(rows_) if row.startswith("Note:")), len(rows_))
    for row in rows_[:notes]:  # (the notes, a time limit reached, come last)
        assert row.startswith(("★", "≈")) or "%" in row, f"a wrapped cell: {inside}"


def play(args: list[str], keys: str, columns: int, rows: int, tmp_path: Path) -> str:
    env = {
        "COLUMNS": str(columns),
        "LINES": str(rows),
        "NO_COLOR": "1",
        "TTY_COMPATIBLE": "1",  # a terminal: the screen's rows count
        "TTY_INTERACTIVE": "0",
        "THIRTYONE_DATA_DIR": str(tmp_path),
    }
    result = CliRunner(env=env).invoke(main, ["play", *args, *FAST], input=keys)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize(("columns", "rows"), [(80, 24), (100, 40)])
@pytest.mark.parametrize(
    ("table", "seats"),
    [
        (["--seats", "9", "--rules", "gin-lives"], 9),
        (["--seats", "9"], 9),
        (["--seats", "4", "--lives", "2"], 4),
    ],
)
def test_every_turn_fits_the_screen(
    table: list[str], seats: int, columns: int, rows: int, tmp_path: Path
) -> None:
    # Enter and Enter again: the Oracle's best every time, for a whole game.
    out = play([*table, "--seed", "3"], "\n" * 600, columns, rows, tmp_path)
    found = screens(out, columns)
    assert len(found) >= 3
    for screen in found:
        alive = sum(1 for line in screen[3:] if re.match(r"│ \S", line)) - 2  # (rows, hand, top)
        check_screen(screen, rows, columns, min(seats - 1, max(alive, 0)))


def test_a_terminal_shows_the_advice_compact_only_when_it_must(tmp_path: Path) -> None:
    """At 100 x 40 a four-seat turn has room for the advice in full; at 80 x 24 a nine-seat turn
    has not, and shows the reason in one line."""
    big = play(["--seed", "5"], "q\n", 100, 40, tmp_path)
    assert "Draw from the stock, then knocking at" in big  # the reason in full
    small = play(["--seats", "9", "--seed", "3"], "q\n", 80, 24, tmp_path / "s")
    [screen] = screens(small, 80)
    check_screen(screen, 24, 80, 8)
    assert not any("percentage points" in line for line in screen)  # the gist, not the reason


def test_without_a_terminal_the_advice_is_in_full(tmp_path: Path) -> None:
    env = {"COLUMNS": "80", "LINES": "24", "NO_COLOR": "1", "THIRTYONE_DATA_DIR": str(tmp_path)}
    out = CliRunner(env=env).invoke(main, ["play", "--seats", "9", "--seed", "3", *FAST], "q\n")
    assert "percentage points" in out.output


def test_a_rendered_turn_keeps_its_title_at_80_by_24() -> None:
    """The box and the advice as the player lays them out on a console of 80 x 24, at your
    first three turns. (Seed 3: you have them with all nine players in. Dealt at random, about
    one game in 2,000 left you fewer than three turns, out after two: seed 345.)"""
    from thirtyone import Action, Game, Rules, SeatView, TablePolicy
    from thirtyone.terminal.advisor import OracleAdvisor
    from thirtyone.terminal.display import render_advice, rows_of
    from thirtyone.terminal.narrator import Narrator

    console = Console(width=80, height=24, force_terminal=True, record=True, color_system=None)
    names = ["You", *"ABCDEFGH"]
    shown: list[str] = []

    class You(TablePolicy):
        def decide(self, view: SeatView) -> Action:
            if len(shown) < 3 and view.phase == "start":
                box = narrator.turn_panel(view)
                room = 24 - rows_of(console, box) - 1
                panel = render_advice(advisor(view), console=console, room=room)
                with console.capture() as cap:
                    console.print(box)
                    console.print(panel)
                    console.print("Your move (d draw, t take, k knock, ? help, q quit): ")
                shown.append(cap.get())
            return super().decide(view)

    policies = [You(), *(TablePolicy() for _ in names[1:])]
    game = Game(Rules.preset("gin-lives").replace(seats=9), policies, names=names, seed=3)
    narrator = Narrator(console, names, me=0, game=game)
    game.add_listener(narrator)
    advisor = OracleAdvisor(console, deals=200, playouts=1000, seed=1, max_time=None)
    game.play()
    assert len(shown) == 3
    for text in shown:
        lines = text.rstrip("\n").split("\n")
        assert len(lines) <= 24 and lines[0].startswith("╭─ Round") and "your turn" in lines[0]
        assert all(f"│ {n} " in text for n in "ABCDEFGH")


# -- in a pseudo-terminal -------------------------------------------------------------------------


@pytest.mark.posix_only
@pytest.mark.parametrize(("columns", "rows"), [(80, 24), (100, 40)])
def test_in_a_real_terminal_the_turn_fits(columns: int, rows: int, tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    env = dict(
        os.environ,
        NO_COLOR="1",
        THIRTYONE_DATA_DIR=str(tmp_path),
        PYTHONPATH=os.pathsep.join(sys.path),
    )
    args = ["-m", "thirtyone", "play", "--seats", "9", "--rules", "gin-lives", "--seed", "3"]
    child = pexpect.spawn(
        sys.executable,
        [*args, *FAST],
        env=env,
        dimensions=(rows, columns),
        encoding="utf-8",
        timeout=120,
    )
    seen = ""
    turns = 0
    while turns < 4:
        i = child.expect(
            [r"Your move \(.*\): ", r"\? \(Enter or y: yes, n: no\): ", r"card\?.*\): "]
        )
        seen += child.before + child.after
        if i == 0:
            turns += 1
        child.sendline("" if i != 0 or turns < 4 else "q")
    child.expect(pexpect.EOF)
    found = screens(seen, columns)
    assert len(found) == 4
    for screen in found:
        check_screen(screen, rows, columns, 0)
        names = ("Alice", "Ben", "Cara", "Dev", "Eve", "Finn", "Gus", "Hana")
        assert all(any(line.startswith(f"│ {n} ") for line in screen) for n in names)


# -- a note on one line ---------------------------------------------------------------------------

#: The core's warning while the game's table is still being computed (a nine-seat game's first
#: answers at the default time limit: rust/thirtyone-core/src/oracle/advise.rs).
TABLE_NOT_READY = (
    "the chance of winning the game is not computed yet: its table needs more time than this "
    "answer had (what was done is kept, and a later answer goes on from there)"
)


@pytest.mark.parametrize("columns", [60, 80, 100])
def test_a_note_on_one_line_is_cut_after_a_clause(columns: int) -> None:
    """The compact advice gives each note one line: cut where a clause ends, never inside a
    word ("… its table needs m…" said nothing); the advice in full gives it whole."""
    from thirtyone.oracle.answer import OptionAdvice
    from thirtyone.terminal.advice_view import advice_compact, advice_panel_body

    options = [OptionAdvice("draw", 0.7, 0.01, 0.3), OptionAdvice("knock", 0.2, 0.01, 0.8)]
    advice = Advice(options, [], "Draw.", 100, 100, warnings=[TABLE_NOT_READY])
    console = Console(width=columns, record=True, color_system=None)
    with console.capture() as cap:
        console.print(advice_compact(advice))
    [line] = [row.rstrip() for row in cap.get().splitlines() if row.startswith("Note: ")]
    full = f"Note: {TABLE_NOT_READY}"
    assert len(line) <= columns and line.endswith("…")
    shown = line.removesuffix("…")
    assert full.startswith(shown)
    assert full[len(shown) :].startswith((": ", ", ", " (")), line
    assert len(shown) >= columns // 2  # (not cut short for nothing)
    whole = " ".join(Console().render_str(full).plain.split())
    with console.capture() as cap:
        console.print(advice_panel_body(advice))
    assert whole in " ".join(cap.get().split())


def _laid_out(output: str, columns: int) -> list[str]:
    """The lines a terminal of ``columns`` shows, each answer to a prompt ending its line (as
    the Enter typed does)."""
    text = re.sub(r"((?:quit|no)\): )", "\\1\n", ANSI.sub("", output).replace("\r\n", "\n"))
    return _rows(text, columns)


def _rows(text: str, columns: int) -> list[str]:
    """The rows a terminal of ``columns`` shows for ``text`` (a line rewritten after a carriage
    return shows its last version; a longer line takes more rows), the Oracle's passing
    "thinking" lines left out."""
    lines: list[str] = []
    for raw in text.split("\n"):
        line = raw.split("\r")[-1]
        if "is thinking…" in line or "is reading the table…" in line:
            continue
        while len(line) > columns:
            lines.append(line[:columns])
            line = line[columns:]
        lines.append(line)
    return lines


@pytest.mark.parametrize("keys", ["\nn\nq\n", "a\nq\n"], ids=["enter", "a"])
def test_advice_asked_for_keeps_the_title_on_the_screen(keys: str, tmp_path: Path) -> None:
    """With ``--advice ask`` on a nine-seat table at 80 x 24, the advice shown when asked for
    (Enter, or ``a``) leaves the turn's title and every opponent's row on the screen up to the
    next question; asked again, it is given in full."""
    out = play(["--seats", "9", "--seed", "3", "--advice", "ask"], keys, 80, 24, tmp_path)
    lines = _laid_out(out, 80)
    title = next(i for i, line in enumerate(lines) if line.startswith("╭─ Round 1 · your turn"))
    advice = next(i for i, line in enumerate(lines) if line.startswith("╭─ Advice"))
    asks = ("Play the Oracle's best: ", "Your move (")
    question = next(i for i in range(advice, len(lines)) if lines[i].startswith(asks))
    screen = lines[title : question + 1]
    assert len(screen) <= 24, "\n".join(screen)
    names = ("Alice", "Ben", "Cara", "Dev", "Eve", "Finn", "Gus", "Hana")
    assert all(any(line.startswith(f"│ {n} ") for line in screen) for n in names)
    # Asked again at the same position: the advice in full (the whole reason).
    again = play(["--seats", "9", "--seed", "3", "--advice", "ask"], "a\na\nq\n", 80, 24, tmp_path)
    full = again[again.rindex("╭─ Advice") :]
    assert "percentage points" in full and "percentage points" not in "\n".join(screen)


def test_the_opening_note_of_the_save_breaks_between_words(short_tmp: Path) -> None:
    """At 80 columns the line that says where the game is saved is broken between words (the
    terminal cut it inside "thirtyone": "thir" / "tyone play --resume"), and the command to
    copy stands whole on a line. (A path wider than the terminal has no word to break at: the
    folder's path is a short one.)"""
    out = play(["--seed", "5"], "q\n", 80, 24, short_tmp)
    lines = _laid_out(out, 80)
    start = next(i for i, line in enumerate(lines) if line.startswith("Saved as you play"))
    end = next(i for i in range(start, len(lines)) if lines[i].rstrip().endswith("--resume"))
    said = [line.rstrip() for line in lines[start : end + 1]]
    assert all(len(line) < 80 for line in said), said  # (a full row is a cut, not a break)
    assert " ".join(" ".join(said).split()).endswith("Continue later with: thirtyone play --resume")
    assert said[-1].endswith(" thirtyone play --resume") or said[-1] == "  thirtyone play --resume"


def test_the_opening_note_of_a_long_save_file_pastes_as_one_command(short_tmp: Path) -> None:
    """With --save-file, the opening note's "(continue later with thirtyone play --resume
    --save-file PATH)" was a sentence broken between words at 80 columns: copied, `thirtyone
    play` ran alone and `--resume …` as a second command (the docs round). The command now
    stands on lines of its own, continued with ` \\`, as the quit's does (ruling 360)."""
    from test_terminal_qa import pasted

    path = short_tmp / "a folder named for friday nights" / "the-game-with-friends.json"
    path.parent.mkdir()
    out = play(["--seed", "5", "--save-file", str(path)], "q\n", 80, 24, short_tmp)
    # The lines as printed (a row the terminal wraps on the screen is copied whole).
    lines = [line.rstrip() for line in ANSI.sub("", out).replace("\r\n", "\n").split("\n")]
    at = next(i for i, line in enumerate(lines) if line.endswith("Continue later with:"))
    command = lines[at + 1 : at + 3]
    assert command[0] == "  thirtyone play --resume --save-file \\", lines[at : at + 3]
    assert pasted(command) == ["thirtyone", "play", "--resume", "--save-file", str(path)]


# -- help and the end of a game at 80 columns ----------------------------------------------------


def _whole_words(rows: list[str], expected: str) -> None:
    """``rows`` say ``expected`` with every word whole: broken only between words (a word the
    terminal cut at its last column would read as two)."""
    assert all(len(row.rstrip()) <= 80 for row in rows), rows
    assert " ".join(" ".join(rows).split()) == " ".join(expected.split()), rows


def test_the_glossary_breaks_between_words_under_its_word(tmp_path: Path) -> None:
    """At 80 columns each meaning of ``?``'s glossary is broken between words, its later lines
    under its first ("…the one that" / "loses fewest" came back to the first column)."""
    from thirtyone.oracle.words import glossary

    lines = _laid_out(play(["--seed", "5"], "?\nq\n", 80, 24, tmp_path), 80)
    start = lines.index("The advice's words:") + 1
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("Your move ("))
    rows = lines[start:end]
    assert all(row.startswith("  ") for row in rows), rows  # (none at the first column)
    entries: list[tuple[str, str]] = []
    for word, meaning in glossary("lives"):
        if word:
            entries.append((word, meaning))
        else:
            entries[-1] = (entries[-1][0], f"{entries[-1][1]} {meaning}")
    starts = [i for i, row in enumerate(rows) if not row.startswith(" " * 15)]
    assert len(starts) == len(entries), rows
    ends = [*starts[1:], len(rows)]
    for (word, meaning), first, after in zip(entries, starts, ends, strict=True):
        entry = rows[first:after]
        assert entry[0][2:].startswith(f"{word} ")
        _whole_words([entry[0][15:], *entry[1:]], meaning)


def test_the_record_after_a_game_breaks_between_words(tmp_path: Path) -> None:
    """At 80 columns the lines of the record at the end of a game are broken between words
    (the terminal cut "(thirtyone sta" / "ts tells more)" and "mean cost 0" / ".0 points")."""
    from thirtyone.store import record, summary

    args = ["--seats", "2", "--lives", "1", "--seed", "7"]
    lines = _laid_out(play(args, "\n" * 400, 80, 24, tmp_path), 80)
    said = summary.record_lines(record.read(tmp_path / "record.sqlite3").games)
    assert len(said) == 2 and "mean cost" in said[1]  # (the record, and the agreement)
    start = next(i for i, line in enumerate(lines) if line.startswith("Your record: "))
    for line in said:
        end = next(i for i in range(start, len(lines)) if lines[i].rstrip().endswith("."))
        _whole_words(lines[start : end + 1], line)
        start = end + 1


def test_every_panel_keeps_a_reason_at_nine_seats(tmp_path: Path) -> None:
    """At 80 x 24 and nine seats, a turn with a two-row hand line (on the county) left no room
    for the compact advice's reason line and showed the best line and the table alone; the
    smallest layout now puts the reason on the best option's line, cut after a clause or a
    word."""
    out = play(["--seats", "9", "--rules", "scat", "--seed", "3"], "\n" * 400, 80, 24, tmp_path)
    lines = _laid_out(out, 80)
    panels = [i for i, line in enumerate(lines) if line.startswith("╭─ Advice")]
    assert len(panels) >= 20
    merged = 0
    for i in panels:
        inside = [line.strip("│").strip() for line in lines[i + 1 : i + 12]]
        head = next(j for j, row in enumerate(inside) if row.split()[:2] == ["safe", "±"])
        prose = [row for row in inside[1:head] if not row.startswith("Best for the game")]
        _, dash, reason = inside[0].partition(" — ")
        if not prose:  # the smallest layout: the reason after the best option
            merged += 1
            assert dash and not reason.startswith("tied with"), inside
            assert reason.endswith((".", "…")) and len(reason.split()) >= 3, inside
        assert all(len(row) <= 76 for row in inside[:head]), inside
    assert merged >= 1  # (the turns on the county)


def test_the_lines_of_a_resume_break_between_words(tmp_path: Path) -> None:
    """The lines naming the options a resume did not apply and the Oracle's precision given
    again are broken between words at 80 columns."""
    play(["--seed", "5"], "q\n", 80, 24, tmp_path)
    path = tmp_path / "saved-game.json"
    saved = json.loads(path.read_text())
    path.write_text(json.dumps({**saved, "oracle": {"deals": 300, "playouts": 1000}}))
    given = ["--lives", "4", "--name", "Bob", "--opponents", "expert"]  # (and FAST's 200 deals)
    lines = _laid_out(play(["--resume", *given], "q\n", 80, 24, tmp_path), 80)
    said = [
        "The resumed game keeps its own table: --lives, --name and --opponents were not applied.",
        "The Oracle at 200 deals / 1,000 playouts, as given, in this session (the game keeps "
        "its own: 300 / 1,000).",
    ]
    start = next(i for i, line in enumerate(lines) if line.startswith("The resumed game"))
    for line in said:
        end = next(i for i in range(start, len(lines)) if lines[i].rstrip().endswith("."))
        _whole_words(lines[start : end + 1], line)
        start = end + 1


# -- the turn's box -------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["standard", "gin-lives", "ride-the-bus"])
def test_the_rule_under_the_header_spans_the_turn_box(preset: str) -> None:
    """At the round's first turn nobody has played: every row's last column is "—" and the
    hand's line is the widest in the box. The rule under the header still goes from the box's
    left edge to its right, as the box's top and bottom do (it stopped under the header's end)."""
    import io

    from thirtyone import Rules, Session, TablePolicy
    from thirtyone.terminal.narrator import Narrator

    console = Console(width=80, file=io.StringIO(), color_system=None)
    names = ["You", "Alice", "Ben", "Cara"]
    session = Session(Rules.preset(preset), [None, *(TablePolicy() for _ in names[1:])], seed=1)
    session.dealer = 3  # (you play first)
    narrator = Narrator(console, names, me=0, game=session)
    session.add_listener(narrator)
    session.deal()
    assert session.pending is not None and session.pending.seat == 0
    with console.capture() as cap:
        console.print(narrator.turn_panel(session.seat_view()))
    lines = cap.get().rstrip("\n").split("\n")
    assert [line.count("—") for line in lines[3:6]] == [1, 1, 1]  # (nobody has played)
    top, head, rule = lines[0], lines[1], lines[2]
    assert head.split()[1:3] == ["Player", "Letters" if preset == "gin-lives" else "Lives"]
    assert len(rule) == len(top) and rule == "│ " + "─" * (len(top) - 4) + " │", "\n".join(lines)
