"""Every prompt and message of thirtyone is bounded, whatever is typed.

Written from the promise in the README ("Errors", "Nothing is lost"): a line that is not UTF-8,
a line of ten megabytes (with or without its newline) or a number of thousands of digits at any
prompt of `thirtyone play` gets one line that quotes at most 24 characters of it, and the game
goes on, its save intact; a command-line argument of 100,000 characters is refused in a line
that quotes as little; a name wider than 30 columns is refused, and one read from a save is
cropped.
"""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pexpect
import pytest
from click.testing import CliRunner, Result
from thirtyone.cli.app import main
from thirtyone.store import saves
from thirtyone.store.record import games
from thirtyone.terminal.prompt import LINE_BYTES, LINE_CHARS, bounded, prompt_line, read_line

ENV = {"COLUMNS": "100", "NO_COLOR": "1"}
TEN_MB = 10 * 1024 * 1024


def run(args: list[str], input: str | bytes | None = None) -> Result:
    return CliRunner(env=ENV).invoke(main, args, input=input)


def data() -> Path:
    return Path(os.environ["THIRTYONE_DATA_DIR"])


def piped(args: list[str], keys: bytes) -> tuple[int, str]:
    """``thirtyone play --no-oracle ARGS`` with ``keys`` on a pipe: its exit status and all it
    wrote (standard error after standard output)."""
    proc = subprocess.run(
        [sys.executable, "-m", "thirtyone", "play", "--no-oracle", *args],
        input=keys,
        capture_output=True,
        env={**os.environ, **ENV},
        timeout=120,
        check=False,
    )
    out = (proc.stdout + proc.stderr).decode("utf-8", errors="strict")
    assert "Traceback" not in out and "Error" not in out, out[-3000:]
    return proc.returncode, out


def _refused_once(out: str, refusal: str) -> None:
    """``refusal`` is said on one line of ``out``, once."""
    lines = [ln for ln in out.splitlines() if refusal in ln]
    assert len(lines) == 1, out[-3000:]
    assert len(lines[0]) < 200


def _saved_and_resumable() -> list[object]:
    """The journal of the unfinished game saved (after checking it resumes)."""
    saved = saves.read(data() / "saved-game.json")
    assert not saved.over
    resumed = run(["play", "--resume", "--no-oracle"], "q\n")
    assert resumed.exit_code == 0 and "Resumed: round" in resumed.output
    return list(saved.journal)


def _as_if_not_typed(args: list[str], keys: bytes) -> list[object]:
    """The journal saved when ``keys`` are typed and nothing else."""
    (data() / "saved-game.json").unlink()
    assert piped(args, keys)[0] == 0
    return _saved_and_resumable()


# -- a byte that is not UTF-8 ----------------------------------------------------------------------

BAD = b"\xff\xfe\xc3("  # none of them UTF-8, nor together
SHOWN = "'\ufffd\ufffd\ufffd('"  # each replaced by U+FFFD when quoted back


def test_a_line_not_utf8_at_the_move_is_refused_and_the_game_goes_on() -> None:
    code, out = piped(["--seed", "3"], BAD + b"\nd\n4\nq\n")
    assert code == 0
    _refused_once(out, f"{SHOWN} is not a choice: type d, t, k (? for help, q to quit).")
    assert "You drew " in out and "Saved. Continue with: thirtyone play --resume" in out
    journal = _saved_and_resumable()
    assert journal == _as_if_not_typed(["--seed", "3"], b"d\n4\nq\n")  # nothing lost


def test_a_line_not_utf8_at_the_put_down_is_refused_and_the_game_goes_on() -> None:
    code, out = piped(["--seed", "3"], b"d\n" + BAD + b"\n4\nq\n")
    assert code == 0
    _refused_once(out, f"{SHOWN} is not a card or a position: choose 1-4 or a card like")
    assert "You drew " in out and "Saved. Continue with" in out
    journal = _saved_and_resumable()
    assert journal == _as_if_not_typed(["--seed", "3"], b"d\n4\nq\n")


def _spawn(args: str) -> pexpect.spawn:
    """``thirtyone play --no-oracle ARGS`` at a pseudo-terminal (bytes in, bytes out)."""
    env = {**os.environ, **ENV, "TERM": "dumb"}
    return pexpect.spawn(
        f"{sys.executable} -m thirtyone play --no-oracle {args}",
        env=env,
        timeout=60,
        dimensions=(50, 120),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


@pytest.mark.posix_only
def test_a_line_not_utf8_to_play_again_is_explained_and_asked_again() -> None:
    # (README, "Nothing is lost": whatever is typed at a prompt gets one line and the question
    # again; it was taken for a no, as anything but y was.)
    child = _spawn("--seed 4 --seats 2 --lives 1 --fast")
    while True:  # draw and put the first card down, to the end of the game
        found = child.expect([r"Your move \(", r"Put down which card\?", r"Play again\? "])
        if found == 2:
            break
        child.sendline(b"d" if found == 0 else b"1")
    child.expect(r"Enter: no\): ")
    child.send(BAD + b"\n")
    child.expect(re.escape(SHOWN.encode()) + rb" is not a choice: type y [^\r\n]*\r\n")
    child.expect(r"Play again\? \(y: a new game at the same table, Enter: no\): ")
    child.send(b"maybe\n")
    child.expect(rb"'maybe' is not a choice")
    child.expect(r"Enter: no\): ")
    child.send(b"n\n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert b"Traceback" not in (child.before or b"") and b"Thirty-One:" not in child.before
    assert [g.seed for g in games(data() / "record.sqlite3")] == [4]  # the game was recorded


@pytest.mark.posix_only
def test_a_line_not_utf8_at_the_resume_question_is_explained_and_asked_again() -> None:
    first = _spawn("--seed 3")
    first.expect(r"Your move \(")
    first.sendline(b"q")
    first.expect(pexpect.EOF)
    first.close()
    save = data() / "saved-game.json"
    before = save.read_bytes()
    child = _spawn("--seed 5")
    child.expect(r"Your choice \(r, n or c\): ")
    child.send(BAD + b"\n")
    child.expect(r"Type r to resume it, n for a new game, or c to cancel\.\r\n")
    child.expect(r"Your choice \(r, n or c\): ")
    child.sendline(b"c")
    child.expect(r"Cancelled: nothing was changed")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and b"Traceback" not in (child.before or b"")
    assert save.read_bytes() == before  # the unfinished game, untouched
    assert sorted(p.name for p in data().iterdir()) == ["saved-game.json"]


# -- a line of ten megabytes, a number of thousands of digits -------------------------------------


@pytest.mark.parametrize("newline", [b"\n", b""], ids=["with-newline", "at-the-end-of-input"])
def test_a_ten_megabyte_line_is_refused_quoting_24_characters(newline: bytes) -> None:
    code, out = piped(["--seed", "3"], b"d" * TEN_MB + newline + b"q\n" * bool(newline))
    assert code == 0 and len(out) < 20_000
    _refused_once(out, "'dddddddddddddddddddddddd'… is not a choice: type d, t, k")
    assert "Saved. Continue with" in out
    _saved_and_resumable()


def test_a_ten_megabyte_line_at_the_put_down_is_refused() -> None:
    code, out = piped(["--seed", "3"], b"d\n" + b"7" * TEN_MB + b"\n4\nq\n")
    assert code == 0 and len(out) < 20_000
    _refused_once(out, "'777777777777777777777777'… is not a card or a position")
    assert "You drew " in out


def test_a_cut_line_is_never_taken_for_a_choice() -> None:
    # "k", then spaces past the bound, then more: not a knock.
    code, out = piped(["--seed", "3"], b"k" + b" " * 500 + b"x\nq\n")
    assert code == 0
    _refused_once(out, "'k                       '… is not a choice")
    assert "knocks" not in out


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("9" * 5000, "'999999999999999999999999'… is not a card or a position"),
        ("9" * 30, "There is no card '999999999999999999999999'…: choose 1 to 4."),
        ("²", "'²' is not a card or a position"),  # a digit to Python, not a number
        ("\x1b[2J", r"'\x1b[2J' is not a card or a position"),
    ],
)
def test_a_put_down_of_many_digits_or_odd_ones_is_refused(typed: str, said: str) -> None:
    result = run(["play", "--seed", "3", "--no-oracle"], f"d\n{typed}\n4\nq\n")
    assert result.exit_code == 0, result.output[-3000:]
    assert "Traceback" not in result.output
    _refused_once(result.output, said)
    assert "You drew " in result.output


class _Endless(io.RawIOBase):
    """``size`` bytes of ``d`` and no newline, made as they are read."""

    def __init__(self, size: int) -> None:
        self.left = size
        self.asked: list[int] = []

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        n = min(len(buffer), self.left)
        buffer[:n] = b"d" * n
        self.left -= n
        return n


def test_reading_a_huge_line_takes_bounded_memory() -> None:
    stream = io.BufferedReader(_Endless(100 * 1024 * 1024))
    tracemalloc.start()
    try:
        line = read_line(stream)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert line is not None and len(line) == LINE_BYTES
    assert peak < 1024 * 1024  # (the line is 100 MB)
    assert stream.read() == b""  # the rest of it was read and dropped
    assert bounded(line) == "d" * LINE_CHARS + "…"


def test_a_line_is_cut_to_200_characters_and_decoded_with_replacement() -> None:
    assert bounded(b"draw\r\n") == "draw"
    assert bounded("é".encode() * 200 + b"\n") == "é" * 200
    assert bounded("é".encode() * 201 + b"\n") == "é" * 200 + "…"
    assert bounded(b"\xff\n") == "\ufffd"
    assert read_line(io.BytesIO(b"")) is None
    assert read_line(io.BytesIO(b"a\nb\n")) == b"a\n"


def test_a_text_stream_without_bytes_under_it_is_read_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("d\n" + "7" * 10_000 + "\n"))
    assert prompt_line("Your move") == "d"
    assert prompt_line("Put down which card?") == "7" * LINE_CHARS + "…"
    assert prompt_line("Your move") is None  # the end of the input


# -- the command line ------------------------------------------------------------------------------

LONG = "x" * 100_000


def _one_error_line(result: Result) -> str:
    assert result.exit_code == 2 and "Traceback" not in result.output
    [line] = [ln for ln in result.output.splitlines() if ln.startswith("Error: ")]
    assert len(line) < 200 and len(result.output) < 1000
    return line


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["schema", LONG], "'xxxxxxxxxxxxxxxxxxxxxxxx'… is not one of 'state', 'advice'."),
        ([LONG], "No such command 'xxxxxxxxxxxxxxxxxxxxxxxx'…."),
        (
            ["play", "--seed", LONG],
            'a whole number from 0 to 18,446,744,073,709,551,615, not "xxxxxxxxxxxxxxxxxxxxxxxx"….',
        ),
        (
            ["play", f"--seed={LONG}"],
            'a whole number from 0 to 18,446,744,073,709,551,615, not "xxxxxxxxxxxxxxxxxxxxxxxx"….',
        ),
        (["play", "--rules", LONG], "'xxxxxxxxxxxxxxxxxxxxxxxx'… is not one of 'cadillac',"),
        (["play", f"--{LONG}"], "No such option '--xxxxxxxxxxxxxxxxxxxxxx'…."),
        (["stats", LONG], "Got unexpected extra argument (xxxxxxxxxxxxxxxxxxxxxxxx…)"),
        (["oracle", LONG], f"cannot read {'x' * 40}…{'x' * 20}: "),
    ],
)
def test_a_huge_argument_is_refused_quoting_24_characters(args: list[str], said: str) -> None:
    assert said in _one_error_line(run(args))


def test_a_name_wider_than_30_columns_is_refused() -> None:
    line = _one_error_line(run(["play", "--name", "N" * 31, "--seed", "3"], "q\n"))
    assert "a name may be at most 30 columns wide (this one is 31)" in line
    line = _one_error_line(run(["play", "--name", "名" * 16, "--seed", "3"], "q\n"))
    assert "(this one is 32)" in line  # (each of these takes two columns)
    line = _one_error_line(run(["play", "--name", LONG, "--seed", "3"], "q\n"))
    assert "(this one is 100,000)" in line
    assert not (data() / "saved-game.json").exists()
    ok = run(["play", "--name", "N" * 30, "--seed", "3", "--no-oracle"], "q\n")
    assert ok.exit_code == 0 and "N" * 30 in ok.output


def test_a_huge_name_in_a_save_is_cropped() -> None:
    assert run(["play", "--seed", "3", "--no-oracle"], "q\n").exit_code == 0
    path = data() / "saved-game.json"
    saved = json.loads(path.read_text())
    saved["names"][1] = "A" * 100_000
    path.write_text(json.dumps(saved))
    result = run(["play", "--resume", "--no-oracle"], "d\n4\nq\n")
    assert result.exit_code == 0, result.output[-2000:]
    assert "A" * 29 + "…" in result.output and "A" * 30 not in result.output
    assert len(result.output) < 20_000
