"""Saved games are never destroyed, and a save cannot be used to peek at the stock.

Written from the promise in the README ("Nothing is lost"): a resume writes nothing until its
journal has been replayed (a kill at any moment leaves the save as it was; a journal that cannot
be replayed is reported and left byte for byte); a new game over an unfinished one asks (at a
terminal) or keeps the old save as a numbered backup (without one); the card drawn is part of the
save; ``--save-file`` refuses anything but a save; a folder where nothing can be saved is reported
before the first turn; names cannot carry terminal codes; the hint after quitting names the file.
"""

from __future__ import annotations

import json
import os
import platform
import re
import signal
import subprocess
import sys
import tempfile
import time
import unicodedata
from pathlib import Path

import pexpect
import pytest
from click.testing import CliRunner, Result
from thirtyone.cli.app import main
from thirtyone.game.rules import Rules
from thirtyone.game.seats import TABLE_KNOCK_AT
from thirtyone.game.session import Session
from thirtyone.store import saves

# Real processes in pseudo-terminals, killed with SIGKILL, and file modes.
pytestmark = pytest.mark.posix_only

ENV = {"COLUMNS": "100", "NO_COLOR": "1"}
NAMES = ["You", "Alice", "Ben", "Cara", "Dev", "Eve"]


def invoke(args: list[str], text: str = "", data: Path | None = None) -> Result:
    env = dict(ENV)
    if data is not None:
        env["THIRTYONE_DATA_DIR"] = str(data)
    result = CliRunner().invoke(main, ["play", "--no-oracle", *args], input=text, env=env)
    assert "Traceback" not in result.output
    return result


def _default_sigint() -> None:
    """In the game's process before it starts: Ctrl-C at its default. A test run started as a
    background job (`bash .ci/run &`) inherits SIGINT ignored, the game then inherits that from
    pytest, Python installs no KeyboardInterrupt handler, and Ctrl-C does nothing, as it would
    for a person's game started that way."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(args: str, data: Path) -> pexpect.spawn:
    env = {**os.environ, **ENV, "TERM": "dumb", "THIRTYONE_DATA_DIR": str(data)}
    return pexpect.spawn(
        f"{sys.executable} -m thirtyone play --no-oracle {args}",
        env=env,
        encoding="utf-8",
        timeout=120,  # a hang guard: every step is quick
        dimensions=(50, 120),
        preexec_fn=_default_sigint,
    )


#: The number of the read system call, by machine (what /proc/PID/syscall shows first).
READ_SYSCALL = {"x86_64": 0, "aarch64": 63, "riscv64": 63, "i686": 3, "armv7l": 3}


def wait_until_reading(pid: int) -> None:
    """Until the process ``pid`` is blocked reading its standard input. A SIGINT that lands
    after a prompt's last Python step but before its read begins is not acted on until the
    read returns (CPython looks for signals when a read is interrupted, not before it starts):
    a window of microseconds that a person cannot hit but a test that presses at once on a busy
    machine could. Linux shows the system call a process is blocked in; elsewhere, half a
    second is allowed instead."""
    number = READ_SYSCALL.get(platform.machine())
    where = Path(f"/proc/{pid}/syscall")
    deadline = time.monotonic() + 120  # a hang guard, not a measure of speed
    while time.monotonic() < deadline:
        try:
            fields = where.read_text().split()
        except OSError:
            fields = []
        if number is None or not fields:  # not Linux, or not readable
            time.sleep(0.5)
            return
        if fields[:2] == [str(number), "0x0"]:  # read(0, ...)
            return
        time.sleep(0.005)
    raise AssertionError(f"the game never blocked reading its input: {where.read_text()}")


def unfinished_save(path: Path, seed: int = 3) -> bytes:
    """An unfinished game at ``path`` (two whole turns of yours, then quit)."""
    result = invoke(["--seed", str(seed), "--save-file", str(path)], "d\n4\nd\n4\nq\n")
    assert result.exit_code == 0, result.output
    saved = saves.read(path)
    assert not saved.over and len(saved.journal) > 4
    return path.read_bytes()


def long_save(path: Path, at_least: int = 1000) -> saves.SavedGame:
    """A save of a six-seat game of nine lives, cut where it is your turn after more than
    ``at_least`` actions (the table's rule played every seat, as ``--autoplay`` would)."""
    rules = Rules.from_spec({"preset": "standard", "seats": 6, "lives": 9})
    for seed in range(1, 200):
        game, starts = Session(rules, seed=seed), []  # your turns start at these actions
        for seat in game.to_move():
            if seat == 0:
                starts.append(len(game.journal))
            game.play_rule_turn(TABLE_KNOCK_AT)
        if starts[-1] > at_least:
            journal = [saves.entry(a) for a in game.journal[: starts[-1]]]
            saved = saves.SavedGame(rules, seed, list(NAMES), journal=journal)
            saves.write(saved, path)
            return saved
    raise AssertionError("no long game found")


# -- a resume writes nothing until its replay has succeeded ----------------------------------------


def _until_changed_or_done(proc: subprocess.Popen[bytes], path: Path, before: bytes) -> bool:
    """Watch ``path`` while ``proc`` runs; True when it changed (then ``proc`` is killed)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            changed = path.read_bytes() != before
        except OSError:
            changed = True
        if changed:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            return True
        if proc.poll() is not None:
            return False
        time.sleep(0.002)
    raise AssertionError("the resume neither finished nor wrote")


def test_a_kill_during_the_resume_of_a_long_journal_leaves_the_save_byte_for_byte(
    tmp_path: Path,
) -> None:
    # A long journal whose last action cannot be replayed: the whole resume is a replay, so the
    # first write, if any, happens during it; it is killed at that moment.
    path = tmp_path / "long.json"
    saved = long_save(path)
    saved.journal.append(["put", "ZZ"])
    saves.write(saved, path)
    before = path.read_bytes()
    env = {**os.environ, **ENV, "THIRTYONE_DATA_DIR": str(tmp_path)}
    cmd = [sys.executable, "-m", "thirtyone", "play", "--no-oracle", "--resume"]
    proc = subprocess.Popen(
        [*cmd, "--save-file", str(path)],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    killed = _until_changed_or_done(proc, path, before)
    assert not killed, "the save was written during the replay"
    assert path.read_bytes() == before
    err = proc.stderr.read().decode() if proc.stderr else ""
    assert proc.returncode == 2
    n = len(saved.journal)
    assert f"cannot be replayed: action {n} of {n} (put ZZ)" in err, err
    assert "Traceback" not in err


def test_a_resume_is_written_only_once_its_replay_is_done(tmp_path: Path) -> None:
    # A long journal that replays (it stops at your turn): the process is killed at its first
    # write, which must come after the replay, when you have drawn (typed ahead).
    path = tmp_path / "long.json"
    saved = long_save(path)
    before = path.read_bytes()
    child = spawn(f"--resume --save-file {path}", tmp_path)
    child.sendline("d")
    deadline = time.monotonic() + 60
    while path.read_bytes() == before and child.isalive() and time.monotonic() < deadline:
        time.sleep(0.002)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    assert saves.read(path).journal == [*saved.journal, ["draw"]]
    # and it resumes at the put-down
    again = spawn(f"--resume --save-file {path}", tmp_path)
    again.expect("Resumed: round .*, at the put-down of your turn")
    again.expect(r"Put down which card\? \(1-4")
    again.sendline("q")
    again.expect("Goodbye")
    again.wait()


def test_a_journal_that_stops_replaying_part_way_is_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    unfinished_save(path)
    saved = saves.read(path)
    journal = [*saved.journal[:4], ["knock"], ["knock"], *saved.journal[4:]]
    saves.write(saves.SavedGame(saved.rules, saved.seed, saved.names, journal=journal), path)
    before = path.read_bytes()
    r = invoke(["--resume", "--save-file", str(path)])
    assert path.read_bytes() == before
    assert r.exit_code == 2
    assert "cannot be replayed: action 6 of" in r.output
    assert str(path) in r.output and "left as it is" in r.output


# -- a new game over an unfinished one -------------------------------------------------------------


def test_a_new_game_over_an_unfinished_one_asks_and_resume_keeps_it(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    before = unfinished_save(path)
    journal = saves.read(path).journal
    child = spawn(f"--seed 5 --save-file {path}", tmp_path)
    child.expect(r"You have an unfinished game, saved in\r?\n  ")
    child.expect_exact(str(path))
    child.expect(r"round 1 · You 3 lives, Alice 3 lives")
    child.expect(r"Your choice \(r, n or c\)")
    child.sendline("x")
    child.expect("Type r to resume it, n for a new game, or c to cancel.")
    child.sendline("r")
    child.expect("Resumed: round 1")
    child.expect(r"Your move \(")
    child.sendline("q")
    child.expect("Goodbye")
    child.wait()
    assert saves.read(path).journal == journal and saves.read(path).seed == 3
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]


def test_resuming_at_the_question_says_which_options_were_not_applied(tmp_path: Path) -> None:
    """``r`` at the question about the unfinished game resumes it with its own table and says
    which of the new game's options were not applied, as ``--resume`` does (it dropped them
    silently)."""
    path = tmp_path / "s.json"
    before = unfinished_save(path)
    child = spawn(f"--opponents mixed --lives 5 --name Zed --save-file {path}", tmp_path)
    child.expect(r"Your choice \(r, n or c\)")
    child.sendline("r")
    said = "The resumed game keeps its own table: --lives, --name and --opponents were not applied."
    # (Broken between words where the terminal is narrower than the line.)
    child.expect(r"\s+".join(re.escape(word) for word in said.split()))
    child.expect("Resumed: round 1")
    child.expect(r"Your move \(")
    child.sendline("q")
    child.expect("Goodbye")
    child.wait()
    assert path.read_bytes() == before and saves.read(path).opponents == "table"
    resumed = invoke(["--resume", "--opponents", "mixed", "--save-file", str(path)], "q\n")
    assert "The resumed game keeps its own table: --opponents was not applied." in resumed.output


def test_a_save_keeps_the_oracles_precision_and_an_old_save_has_none(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    unfinished_save(path)
    assert saves.read(path).oracle == {"deals": 10_000, "playouts": 50_000}  # (the defaults)
    data = json.loads(path.read_text())
    del data["oracle"]  # a save from before it was kept
    path.write_text(json.dumps(data))
    assert saves.read(path).oracle is None
    r = invoke(["--resume", "--save-file", str(path)], "q\n")
    assert r.exit_code == 0 and "Resumed: round 1" in r.output
    for bad in ({"deals": 0, "playouts": 5}, {"deals": 200}, {"deals": True, "playouts": 5}):
        path.write_text(json.dumps({**data, "oracle": bad}))
        with pytest.raises(saves.SaveError, match="damaged"):
            saves.read(path)


def test_a_new_game_over_an_unfinished_one_keeps_numbered_backups(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    first = unfinished_save(path, seed=3)
    for n, seed in ((1, 5), (2, 6)):
        child = spawn(f"--seed {seed} --save-file {path}", tmp_path)
        child.expect(r"Your choice \(r, n or c\)")
        child.sendline("n")
        # (broken before the path with a shell's continuation at the terminal's width, the
        # path whole: rulings 194 and 360)
        kept = re.escape(f"{tmp_path}/s.{n}.json")
        child.expect(rf"kept as\s+{kept}")
        child.expect(rf"thirtyone play --resume --save-file( \\)?\s+{kept}")
        child.expect(r"Your move \(")
        child.sendline("d")
        child.expect("Put down which card")
        child.sendline("4")
        child.expect(r"Your move \(")
        child.sendline("q")
        child.expect("Goodbye")
        child.wait()
        assert saves.read(path).seed == seed
    # the first backup is the first game, never overwritten by the second
    assert (tmp_path / "s.1.json").read_bytes() == first
    assert saves.read(tmp_path / "s.2.json").seed == 5


def test_cancel_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    before = unfinished_save(path)
    child = spawn(f"--seed 5 --save-file {path}", tmp_path)
    child.expect(r"Your choice \(r, n or c\)")
    child.sendline("c")
    child.expect("Cancelled: nothing was changed")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]


def test_without_a_terminal_the_unfinished_game_is_kept_and_named(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    before = unfinished_save(path)
    (tmp_path / "s.1.json").write_text("an earlier backup")
    r = invoke(["--seed", "5", "--save-file", str(path)], "q\n")
    assert r.exit_code == 0
    kept = tmp_path / "s.2.json"
    assert f"Your unfinished game was kept as {kept}" in r.output
    assert f"thirtyone play --resume --save-file {kept}" in r.output
    assert kept.read_bytes() == before
    assert (tmp_path / "s.1.json").read_text() == "an earlier backup"
    assert saves.read(path).seed == 5
    # the backup is a save like any other
    resumed = invoke(["--resume", "--save-file", str(kept)], "q\n")
    assert resumed.exit_code == 0 and "Resumed: round 1" in resumed.output


def test_a_finished_game_is_simply_replaced(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    unfinished_save(path)
    saved = saves.read(path)
    saved.over = True
    saves.write(saved, path)
    r = invoke(["--seed", "5", "--save-file", str(path)], "q\n")
    assert r.exit_code == 0 and "kept as" not in r.output
    assert saves.read(path).seed == 5
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]


# -- the card drawn is part of the save ------------------------------------------------------------


def _draw_then(how: str, path: Path, data: Path) -> str:
    """Start a game, draw from the stock, then leave by ``how``; returns the card drawn."""
    child = spawn(f"--seed 3 --save-file {path}", data)
    child.expect(r"Your move \(")
    child.sendline("d")
    child.expect(r"You drew (\S+) from the stock")
    card = child.match.group(1)
    child.expect(r"Put down which card\? \(1-4")
    if how == "q":
        child.sendline("q")
    elif how == "ctrl-c":
        wait_until_reading(child.pid)
        child.sendintr()
    elif how == "ctrl-d":
        child.sendeof()
    if how == "kill":
        os.kill(child.pid, signal.SIGKILL)
    else:
        child.expect(r"Saved\. Continue with:\s+thirtyone play --resume --save-file")
    child.wait()
    return str(card)


@pytest.mark.parametrize("how", ["q", "ctrl-c", "ctrl-d", "kill"])
def test_quitting_after_a_draw_resumes_at_the_put_down_with_that_card(
    tmp_path: Path, how: str
) -> None:
    path = tmp_path / "s.json"
    card = _draw_then(how, path, tmp_path)
    assert saves.read(path).journal[-1] == ["draw"]
    child = spawn(f"--resume --save-file {path}", tmp_path)
    child.expect("Resumed: round 1, at the put-down of your turn")
    child.expect(f"You drew {card} from the stock")
    child.expect(r"Put down which card\? \(1-4")
    # no second draw, no taking the discard instead
    child.sendline("d")
    child.expect(f"You drew {card} already")
    child.sendline("t")
    child.expect(f"You drew {card} already")
    child.sendline(card)
    child.expect(f"You drew {card}, put down {card}")
    child.expect(r"Your move \(")
    child.sendline("q")
    child.expect("Goodbye")
    child.wait()
    journal = saves.read(path).journal
    assert ["draw"] in journal and ["put", card] in journal


def test_a_take_is_saved_too(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    r = invoke(["--seed", "3", "--save-file", str(path)], "t\nq\n")
    took = re.search(r"You took (\S+) from the pile", r.output)
    assert took, r.output
    assert saves.read(path).journal[-1] == ["take"]
    resumed = invoke(["--resume", "--save-file", str(path)], f"{took.group(1)}\nq\n")
    assert f"You took {took.group(1)} from the pile" in resumed.output
    assert "it may not go straight back" in resumed.output
    assert "Your move" not in resumed.output.split("Resumed")[1].split("Put down")[0]


def test_looking_at_a_blind_table_is_saved(tmp_path: Path) -> None:
    # At a blind table the first player may call the blind showdown before looking; having
    # looked and quit, they may not come back and call it.
    path = tmp_path / "s.json"
    rules = ["--rule", "first_turn_knock=blind"]
    for seed in range(1, 60):
        r = invoke([*rules, "--seed", str(seed), "--save-file", str(path)], "\nq\n")
        if "Call the blind showdown" in r.output.split("Your move")[0]:
            break
    else:
        pytest.fail("no seed where you play first")
    assert saves.read(path).journal[-1] == ["look"]
    resumed = invoke(["--resume", "--save-file", str(path)], "q\n")
    assert "Resumed: round 1" in resumed.output
    assert "Call the blind showdown" not in resumed.output
    assert "Your move" in resumed.output


def test_autoplay_finishes_a_turn_left_at_the_put_down(tmp_path: Path) -> None:
    # The table's rule, playing your seat, puts a card down after the draw you made.
    path = tmp_path / "s.json"
    out = invoke(["--seed", "3", "--save-file", str(path)], "d\nq\n").output
    drew = re.search(r"You drew (\S+) from the stock", out)
    assert drew, out
    journal = saves.read(path).journal
    assert journal[-1] == ["draw"]
    r = invoke(["--autoplay", "--resume", "--save-file", str(path)])
    assert r.exit_code == 0, r.output
    assert "Winner: " in r.output
    first = r.output.split("Resumed: round 1, at the put-down of your turn")[1]
    assert re.match(rf"[^\n]*\n\s+You \[[^]]*\]: drew {drew.group(1)}, put down ", first), first


# -- --save-file refuses anything but a save -------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b"my shopping list\n", "it is not JSON"),
        (b'{"name": "another program"}', "JSON, but not a saved game"),
        (b"[1, 2, 3]", "JSON, but not a saved game"),
        (b"\xff\xfe\x00binary", "it is not text"),
    ],
)
def test_save_file_refuses_a_foreign_file(short_tmp: Path, content: bytes, why: str) -> None:
    tmp_path = short_tmp  # (the message names the path whole)
    path = tmp_path / "notes.txt"
    path.write_bytes(content)
    os.chmod(path, 0o644)
    for args, text in ((["--seed", "3"], "d\n4\nq\n"), (["--resume"], "q\n")):
        r = invoke([*args, "--save-file", str(path)], text, tmp_path)
        assert r.exit_code == 2
        assert f"{path} is not a thirtyone save ({why})" in r.output
        assert "Your move" not in r.output
        assert path.read_bytes() == content
    assert path.stat().st_mode & 0o777 == 0o644


def test_a_folder_in_place_of_the_save_is_refused(short_tmp: Path) -> None:
    tmp_path = short_tmp  # (the message names the path whole)
    (tmp_path / "saved-game.json").mkdir()
    r = invoke(["--seed", "3"], "d\n4\nq\n", tmp_path)
    assert r.exit_code == 2
    assert f"{tmp_path}/saved-game.json is a folder, not a thirtyone save" in r.output
    assert "Your move" not in r.output
    r = invoke(["--save-file", str(tmp_path)], "q\n", tmp_path)
    assert r.exit_code == 2
    assert r.output == (
        f"Error: {tmp_path} is a folder, not a thirtyone save; it was left as it is: move it "
        "away or choose another --save-file\n"
    )


# -- a folder where nothing can be saved -----------------------------------------------------------


def _one_error_line(r: Result) -> str:
    assert r.exit_code == 2, r.output
    assert "Your move" not in r.output and "Round 1" not in r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.output
    return lines[0]


def test_a_data_folder_inside_a_file_is_reported_before_the_first_turn(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    line = _one_error_line(invoke(["--seed", "3"], "d\n4\nq\n", blocker / "thirtyone"))
    assert f"{blocker} is a file, not a folder" in line
    line = _one_error_line(invoke(["--seed", "3"], "d\n4\nq\n", blocker))
    assert f"{blocker} is a file, not a folder" in line
    assert blocker.read_text() == "not a folder"


def test_a_save_name_too_long_is_reported_before_the_first_turn(tmp_path: Path) -> None:
    path = tmp_path / ("g" * 300 + ".json")
    line = _one_error_line(invoke(["--seed", "3", "--save-file", str(path)], "d\n4\nq\n"))
    assert "too long" in line and len(line) < 300


def test_a_folder_that_cannot_be_written_is_reported_before_the_first_turn(
    short_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tmp_path = short_tmp  # (the message names the folder whole: a long one is cropped)

    # (The tests may run as root, for whom no folder is read-only: the refusal is simulated.)
    def refused(*args: object, **kwargs: object) -> tuple[int, str]:
        raise PermissionError(13, "Permission denied", str(tmp_path / ".saved-game-x.tmp"))

    monkeypatch.setattr(tempfile, "mkstemp", refused)
    line = _one_error_line(invoke(["--seed", "3"], "d\n4\nq\n", tmp_path))
    assert f"the folder {tmp_path} cannot be written (permission denied)" in line
    r = invoke(["--seed", "3", "--autoplay"], "", tmp_path)  # not saved: plays anyway
    assert r.exit_code == 0


def test_leftover_temporary_files_of_a_crash_are_removed(tmp_path: Path) -> None:
    old = tmp_path / ".saved-game-k1ll3d.tmp"
    old.write_text('{"format":"thirtyone-save"')
    an_hour_ago = time.time() - 3600
    os.utime(old, (an_hour_ago, an_hour_ago))
    fresh = tmp_path / ".saved-game-wr1t1ng.tmp"  # perhaps another game writing right now
    fresh.write_text("")
    mine = tmp_path / ".my-notes.tmp"
    mine.write_text("")
    os.utime(mine, (an_hour_ago, an_hour_ago))
    r = invoke(["--seed", "3"], "q\n", tmp_path)
    assert r.exit_code == 0
    assert not old.exists()
    assert fresh.exists() and mine.exists()


# -- names -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["\x1b[31mRed", "Bob\x1b]0;owned\x07", "Tab\tby", "A\u202eB"])
def test_a_name_with_terminal_codes_is_refused(tmp_path: Path, name: str) -> None:
    r = invoke(["--name", name, "--seed", "3"], "q\n", tmp_path)
    assert r.exit_code == 2
    assert "a name may not hold control characters or terminal codes" in r.output
    assert "\x1b" not in r.output and "\u202e" not in r.output
    assert not (tmp_path / "saved-game.json").exists()


def test_names_read_from_a_save_are_neutralised(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    unfinished_save(path)
    data = json.loads(path.read_text())
    data["names"][1] = "Al\x1b[2Jice"
    path.write_text(json.dumps(data))
    r = invoke(["--resume", "--save-file", str(path)], "q\n")
    assert r.exit_code == 0
    assert "\x1b" not in r.output
    assert "Al\\x1b[2Jice" in r.output


def test_neutralising_escapes_exactly_the_unsafe_characters() -> None:
    """The quick form (one pattern, one table) escapes exactly the characters the definition
    names (categories Cc, Cs, Zl, Zp and the bidirectional controls), all of Unicode through."""
    from thirtyone import names

    every = "".join(map(chr, range(sys.maxunicode + 1)))
    expected = "".join(
        f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"
        for c in map(chr, range(sys.maxunicode + 1))
        if unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") or c in names._BIDI
    )
    unsafe_only = "".join(c for c in every if names.unsafe(c))
    assert names.escaped(unsafe_only) == expected
    safe = "".join(c for c in every if not names.unsafe(c))
    assert names.escaped(safe) == safe
    assert names.neutralise("\x1b[31m" + "N" * 40) == "\\x1b[31m" + "N" * 21 + "…"
    assert names.crop("N" * 31) == "N" * 29 + "…" and names.crop("N" * 30) == "N" * 30
    assert names.crop("N" * 15_000_000) == "N" * 29 + "…"


# -- the hint names the file -----------------------------------------------------------------------


def test_the_hint_after_quitting_names_the_save_file(tmp_path: Path) -> None:
    path = tmp_path / "my game.json"
    r = invoke(["--seed", "3", "--save-file", str(path)], "q\n")
    assert f"Saved. Continue with: thirtyone play --resume --save-file '{path}'" in r.output
    r = invoke(["--resume", "--save-file", str(path)], "q\n")
    assert f"Saved. Continue with: thirtyone play --resume --save-file '{path}'" in r.output
    r = invoke(["--seed", "3"], "q\n", tmp_path)
    assert "Saved. Continue with: thirtyone play --resume\n" in r.output
