"""The record of games keeps every finished game, as docs/cli.md promises, against a hostile user.

Written from the promise: any seed `thirtyone play` accepts is kept exactly; a record whose
permissions were changed is written again once they are given back (or the one line says what
to fix); a row edited by hand is skipped and told in one line, never a crash; a process killed
at any step of writing a game leaves the whole game or none of it, and the next game is
recorded; two games recorded at once are both kept, and nothing is corrupt.
"""

from __future__ import annotations

import ctypes
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from thirtyone.cli.app import main
from thirtyone.game.rules import Rules
from thirtyone.store.record import Decision, GameRecord, add, games

ENV = {"COLUMNS": "100", "NO_COLOR": "1"}


def run(args: list[str], input: str | None = None) -> Result:
    return CliRunner(env=ENV).invoke(main, args, input=input)


def data() -> Path:
    return Path(os.environ["THIRTYONE_DATA_DIR"])


def path() -> Path:
    return data() / "record.sqlite3"


def entry(**changes: Any) -> GameRecord:
    """A finished 4-seat game of the standard table: you (seat 0) second."""
    fields: dict[str, Any] = {
        "finished": "2025-01-31T18:04:00+00:00",
        "preset": "standard",
        "rules": Rules.standard().to_dict(),
        "names": ["You", "Alice", "Ben", "Cara"],
        "you": 0,
        "placing": [2, 0, 1, 3],
        "points": None,
        "rounds": 9,
        "opponents": "table",
        "autoplay": False,
        "seed": 1,
        "decisions": [Decision(1, "draw", "draw", 0.0), Decision(1, "discard:AS", "knock", 0.2)],
    }
    fields.update(changes)
    return GameRecord(**fields)


def _integrity() -> str:
    con = sqlite3.connect(path())
    try:
        return str(con.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        con.close()


# -- any seed the command line accepts -------------------------------------------------------------

TOP = 2**64 - 1


@pytest.mark.parametrize("seed", [TOP, 2**63, 0, 7])
def test_a_game_with_any_seed_is_recorded(seed: int) -> None:
    autoplayed = run(["play", "--autoplay", "--seed", str(seed), "--seats", "2"])
    assert autoplayed.exit_code == 0, autoplayed.output
    assert "not recorded" not in autoplayed.output and "Traceback" not in autoplayed.output
    keys = "d\n1\n" * 300  # draw and put the first card down, every turn, to the end
    played = run(["play", "--seed", str(seed), "--seats", "2", "--no-oracle", "--fast"], keys)
    assert played.exit_code == 0, played.output[-2000:]
    assert "Your record: 1 game, " in played.output and "not recorded" not in played.output
    assert [g.seed for g in games(path())] == [seed, seed]
    assert json.loads(run(["stats", "--json"]).output)["games"] == 2


@pytest.mark.parametrize("seed", [0, 2**63 - 1, 2**63, TOP, None])
def test_every_seed_reads_back_exactly(seed: int | None) -> None:
    add(path(), entry(seed=seed))
    add(path(), entry(seed=3))  # (as every record written before: an integer)
    assert [g.seed for g in games(path())] == [seed, 3]
    assert _integrity() == "ok"


def test_a_record_of_integer_seeds_still_reads() -> None:
    # A record as the first thirtyone with a record wrote it: every seed an SQLite integer.
    add(path(), entry(seed=12))
    con = sqlite3.connect(path())
    assert con.execute("SELECT typeof(seed) FROM games").fetchall() == [("integer",)]
    con.close()
    add(path(), entry(seed=TOP))
    assert [g.seed for g in games(path())] == [12, TOP]


# -- permissions changed, then given back ----------------------------------------------------------


def _obey_file_modes() -> None:
    """In a child process of root, before it runs: drop the capabilities that let root ignore
    file modes (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER), so that a read-only file is
    read-only to it, as to anybody else."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2, 3):
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def _as_a_user() -> Callable[[], None] | None:
    if os.geteuid() != 0:
        return None
    if not sys.platform.startswith("linux"):
        pytest.skip("root ignores file modes here, and its capabilities cannot be dropped")
    return _obey_file_modes


def _thirtyone(*args: str, seed: int | None = None) -> subprocess.CompletedProcess[str]:
    """``thirtyone ARGS`` (``play --autoplay`` with ``seed``) as a person whose file modes
    count."""
    if seed is not None:
        args = ("play", "--autoplay", "--seed", str(seed), "--seats", "2", "--lives", "1", *args)
    return subprocess.run(
        [sys.executable, "-m", "thirtyone", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **ENV},
        preexec_fn=_as_a_user(),
        timeout=120,
        check=False,
    )


def _not_recorded(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    [line] = [ln for ln in proc.stdout.splitlines() if "not recorded" in ln]
    return line


@pytest.mark.posix_only
def test_a_record_made_read_only_for_a_while_records_again() -> None:
    assert _thirtyone(seed=1).returncode == 0
    path().chmod(0o400)
    line = _not_recorded(_thirtyone(seed=2))
    assert f"the record of games {path()} is read-only: make it writable" in line
    stats = _thirtyone("stats", "--json")  # reading a read-only record is fine
    assert stats.returncode == 0 and json.loads(stats.stdout)["games"] == 1
    path().chmod(0o600)
    third = _thirtyone(seed=3)
    assert third.returncode == 0 and "not recorded" not in third.stdout, third.stdout
    assert [g.seed for g in games(path())] == [1, 3]
    assert _integrity() == "ok"


@pytest.mark.posix_only
def test_a_read_only_log_file_is_given_the_records_permissions_again() -> None:
    assert _thirtyone(seed=1).returncode == 0
    shm = path().with_name("record.sqlite3-shm")
    shm.write_bytes(b"")  # (a leftover of a read-only time)
    shm.chmod(0o400)
    second = _thirtyone(seed=2)
    assert "not recorded" not in second.stdout, second.stdout
    assert [g.seed for g in games(path())] == [1, 2]


@pytest.mark.posix_only
def test_a_read_only_folder_is_named_and_then_recorded() -> None:
    assert _thirtyone(seed=1).returncode == 0
    data().chmod(0o500)
    try:
        line = _not_recorded(_thirtyone(seed=2))
    finally:
        data().chmod(0o700)
    assert f"the folder {data()} of the record of games cannot be written: make it" in line
    assert "not recorded" not in _thirtyone(seed=3).stdout
    assert [g.seed for g in games(path())] == [1, 3]


def _stats_in_a_read_only_folder() -> tuple[subprocess.CompletedProcess[str], ...]:
    data().chmod(0o500)
    try:
        return _thirtyone("stats"), _thirtyone("stats", "--json")
    finally:
        data().chmod(0o700)


@pytest.mark.posix_only
def test_a_record_in_a_read_only_folder_is_shown() -> None:
    # (Reading needs nothing written: it said "cannot be read: unable to open database file",
    # the write-ahead log's index having no place to be made.)
    for seed in (1, 2):
        assert _thirtyone(seed=seed).returncode == 0
    text, as_json = _stats_in_a_read_only_folder()
    assert text.returncode == 0 and text.stderr == "", text.stderr
    assert "played by autoplay" in text.stdout
    assert as_json.returncode == 0 and json.loads(as_json.stdout)["games"] == 2


@pytest.mark.posix_only
def test_a_read_only_folder_shows_the_games_still_in_the_write_ahead_log() -> None:
    assert _thirtyone(seed=1).returncode == 0
    con = sqlite3.connect(path(), isolation_level=None)
    con.execute("SELECT count(*) FROM games").fetchall()  # (open: the log is kept at its close)
    add(path(), entry(seed=2))  # (committed to the log, not yet to the record itself)
    assert path().with_name("record.sqlite3-wal").stat().st_size > 0
    path().with_name("record.sqlite3-shm").unlink()  # (as a reboot would leave it)
    _, as_json = _stats_in_a_read_only_folder()
    con.close()
    assert as_json.returncode == 0, as_json.stderr
    assert json.loads(as_json.stdout)["games"] == 2


@pytest.mark.posix_only
def test_a_data_folder_that_cannot_be_made_is_named_with_the_chmod_that_fixes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (A read-only home: the record's folder ~/.local/share/thirtyone cannot be made. It said
    # "[Errno 13] Permission denied: '…/.local'", with no chmod, unlike the other read-only
    # cases, docs/cli.md.)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("THIRTYONE_DATA_DIR", str(home / ".local" / "share" / "thirtyone"))
    home.chmod(0o500)
    try:
        line = _not_recorded(_thirtyone(seed=2))
    finally:
        home.chmod(0o700)
    assert f"the folder {home} cannot be written" in line, line
    assert f"make it writable (chmod u+wx {home}) and the next game is recorded" in line
    assert "Errno" not in line
    assert "not recorded" not in _thirtyone(seed=3).stdout


# -- rows edited by hand ---------------------------------------------------------------------------

DEEP = "[" * 100_000 + "]" * 100_000
RULES_3 = json.dumps(Rules.standard().replace(seats=3).to_dict())

GAME_EDITS: list[tuple[str, object, str]] = [
    ("finished", None, "finished is empty (NULL), not a text"),
    ("finished", "yesterday", "finished is 'yesterday', not a time"),
    ("finished", b"\x00\x01", "finished is a blob of 2 bytes, not a text"),
    ("preset", "martian", "preset is 'martian', unknown to this thirtyone"),
    ("preset", 7, "preset is '7', unknown to this thirtyone"),  # (a TEXT column: text)
    ("rules", "{", "rules is not JSON"),
    ("rules", "[]", "rules is not a JSON object"),
    ("rules", '{"seats": 99}', "rules are not thirtyone's"),
    ("rules", RULES_3, "rules are for 3 seats, the game for 4"),
    ("rules", DEEP, "rules is not JSON"),
    ("seats", 0, "seats is 0, not from 2 to 9"),
    ("seats", -4, "seats is -4, not from 2 to 9"),
    ("seats", 2**62, f"seats is {2**62}, not from 2 to 9"),
    ("seats", "four", "seats is the text 'four', not a whole number"),
    ("seats", 4.5, "seats is the number 4.5, not a whole number"),
    ("seats", None, "seats is empty (NULL)"),
    ("names", '["a"]', "names holds 1 names for 4 seats"),
    ("names", '"You"', "names is not a JSON list of texts"),
    ("names", "[1, 2, 3, 4]", "names is not a JSON list of texts"),
    ("names", DEEP, "names is not JSON"),
    ("you", -1, "you is -1, not from 0 to 3"),
    ("you", 4, "you is 4, not from 0 to 3"),
    ("you", 2**63 - 1, f"you is {2**63 - 1}, not from 0 to 3"),
    ("you", None, "you is empty (NULL), not a whole number"),
    ("place", 0, "place is 0, not from 1 to 4"),
    ("place", 99, "place is 99, not from 1 to 4"),
    ("place", -(2**63), f"place is {-(2**63)}, not from 1 to 4"),
    ("place", 1, "place is 1, but the placing puts you 2"),
    ("placing", "[0, 0, 1, 2]", "placing does not rank each of the 4 seats once"),
    ("placing", "[0, 1, 2]", "placing does not rank each of the 4 seats once"),
    ("placing", "[2, 0, 1, 3.0]", "placing does not rank each of the 4 seats once"),
    ("placing", "[2, 0, true, 3]", "placing does not rank each of the 4 seats once"),
    ("placing", "[2, 0, 1, " + "9" * 5000 + "]", "placing is not JSON"),
    ("points", 3, "points is 3, not empty (NULL) for place 2"),
    ("points", "many", "points is the text 'many'"),
    ("rounds", 0, "rounds is 0, not from 1 to 1,000,000"),
    ("rounds", -5, "rounds is -5, not from 1 to 1,000,000"),
    ("rounds", 1e300, "rounds is the number 1e+300, not a whole number"),
    ("rounds", None, "rounds is empty (NULL), not a whole number"),
    ("rounds", 10**18, f"rounds is {10**18}, not from 1 to 1,000,000"),
    ("opponents", "aliens", "opponents is 'aliens', unknown to this thirtyone"),
    ("autoplay", 2, "autoplay is 2, not from 0 to 1"),
    ("autoplay", -1, "autoplay is -1, not from 0 to 1"),
    ("autoplay", "yes", "autoplay is the text 'yes', not a whole number"),
    ("seed", "abc", "seed is the text 'abc', not a whole number"),
    ("seed", 1.5, "seed is the number 1.5, not a whole number"),
    ("seed", b"12x", "seed is a blob of 3 bytes, not a whole number"),
    ("seed", b"", "seed is a blob of 0 bytes, not a whole number"),
    ("seed", b"9" * 5000, "seed is a blob of 5,000 bytes, not a whole number"),
    ("seed", -5, "seed is -5, not from 0 to 18,446,744,073,709,551,615"),
    ("seed", b"18446744073709551616", "seed is 18446744073709551616, not from 0 to 18,446,"),
]
DECISION_EDITS: list[tuple[str, object, str]] = [
    ("round", 0, "decision 2: its round is 0, not at least 1"),
    ("round", -3, "decision 2: its round is -3, not at least 1"),
    ("round", "x", "decision 2: its round is the text 'x', not a whole number"),
    ("round", None, "decision 2: its round is empty (NULL)"),
    ("played", None, "decision 2: the option played is empty (NULL), not a text"),
    ("played", b"\xff", "decision 2: the option played is a blob of 1 byte, not a text"),
    ("cost_p_safe", "cheap", "decision 2: its cost in p_safe is the text 'cheap'"),
    ("cost_p_safe", 1e999, "decision 2: its cost in p_safe is inf, not a finite number"),
    ("cost_p_win", -1e999, "decision 2: its cost in p_win is -inf, not a finite number"),
    ("cost_p_safe", -5, "decision 2: its cost in p_safe is -5.0, not from 0 to 1"),
    ("cost_p_safe", 1.25, "decision 2: its cost in p_safe is 1.25, not from 0 to 1"),
    ("cost_p_win", 7, "decision 2: its cost in p_win is 7.0, not from 0 to 1"),
    ("best", b"draw", "decision 2: the best option is a blob of 4 bytes, not a text"),
    # (ruling 289: an empty or unknown option was counted, a decision that never was)
    ("played", "", "decision 2: the option played is '', not an option"),
    ("played", "discard:ZZ", "decision 2: the option played is 'discard:ZZ', not an option"),
    ("best", "hold", "decision 2: the best option is 'hold', not an option"),
    ("best_game", "draw ", "decision 2: the best option is 'draw ', not an option"),
]


def _edit(table: str, column: str, value: object, where: str) -> None:
    """Set ``column`` of the rows ``where`` as somebody with the sqlite3 shell could, having
    first dropped the NOT NULL constraints of the schema."""
    con = sqlite3.connect(path(), isolation_level=None)
    try:
        con.execute("PRAGMA writable_schema = ON")
        con.execute("UPDATE sqlite_master SET sql = replace(sql, ' NOT NULL', '')")
        con.execute("PRAGMA writable_schema = OFF")
    finally:
        con.close()
    con = sqlite3.connect(path(), isolation_level=None)
    try:
        con.execute(f"UPDATE {table} SET {column} = ? WHERE {where}", (value,))
    finally:
        con.close()


def _three_games() -> None:
    for seed in (1, 2, 3):
        add(path(), entry(seed=seed))


def _skipped_one(why: str) -> None:
    """``thirtyone stats`` counts the two good games and says in one line which it skipped."""
    for args in (["stats"], ["stats", "--json"]):
        result = run(args)
        assert result.exit_code == 0, result.output
        assert "Traceback" not in result.output
        [note] = result.stderr.strip().splitlines()
        assert note.startswith("Note: 1 row of the record was skipped, not being a game as ")
        assert f"(game 2: {why}" in note and len(note) < 300
    summary = json.loads(run(["stats", "--json"]).stdout)
    assert (summary["games"], summary["skipped"]) == (2, 1)
    assert [g.seed for g in games(path())] == [1, 3]


@pytest.mark.parametrize(("column", "value", "why"), GAME_EDITS)
def test_a_game_row_edited_by_hand_is_skipped_and_told(
    column: str, value: object, why: str
) -> None:
    _three_games()
    _edit("games", column, value, "id = 2")
    _skipped_one(why)


@pytest.mark.parametrize(("column", "value", "why"), DECISION_EDITS)
def test_a_decision_edited_by_hand_skips_its_game(column: str, value: object, why: str) -> None:
    _three_games()
    _edit("decisions", column, value, "game = 2 AND n = 1")
    _skipped_one(why)


def test_a_record_whose_every_game_is_skipped_is_not_said_empty() -> None:
    """Ruling 291: three games, each place edited to 9 at a table of four: the text said "No
    games recorded yet" under the note that three rows were skipped."""
    _three_games()
    _edit("games", "place", 9, "1 = 1")
    result = run(["stats"])
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("Note: 3 rows of the record were skipped")
    assert result.stdout == f"No game of the record at {path()} can be read (see the note).\n"


def test_a_cost_in_expected_points_may_reach_the_spread_of_the_points() -> None:
    # (Under ranked placing the game's figure is expected points, 3 for a first place to 0 for
    # the last: a cost there is 0 to 3, docs/cli.md.)
    ranked = Rules.standard().replace(placing="ranked")
    for seed in (1, 2, 3):
        add(path(), entry(seed=seed, rules=ranked.to_dict(), points=2))
    _edit("decisions", "cost_p_win", 2.5, "game = 1 AND n = 1")
    _edit("decisions", "cost_p_win", 3.5, "game = 2 AND n = 1")
    _skipped_one("decision 2: its cost in expected points is 3.5, not from 0 to 3")


def test_many_rows_skipped_are_told_in_one_short_line() -> None:
    for seed in range(10):
        add(path(), entry(seed=seed))
    _edit("games", "place", 0, "id > 2")
    result = run(["stats"])
    assert result.exit_code == 0
    [note] = result.stderr.strip().splitlines()
    assert note.startswith("Note: 8 rows of the record were skipped")
    assert "(game 3: place is 0, not from 1 to 4; game 4: " in note
    assert note.endswith("; and 5 more).") and len(note) < 300
    assert "all                         2 " in result.stdout


def test_the_end_of_a_game_says_rows_were_skipped() -> None:
    _three_games()
    _edit("games", "placing", "[]", "id = 2")
    result = run(["play", "--seed", "4", "--seats", "2", "--no-oracle", "--fast"], "d\n1\n" * 300)
    assert result.exit_code == 0, result.output[-2000:]
    assert "Your record: 3 games, " in result.output
    assert "(1 row of the record did not read as a game: thirtyone stats says why.)" in (
        result.output
    )


# -- a kill at every step of writing a game --------------------------------------------------------

#: A process that records games on demand: for each line ``STEP SEED DELAY`` it forks a child
#: that plays ``thirtyone play --autoplay --seed SEED`` and records it, killing itself with
#: SIGKILL as its STEP-th SQL statement starts (0: never) or DELAY seconds after the game's
#: COMMIT starts (negative: never); then it prints the child's exit status. (Forked from one
#: process: a kill at each of some seventy steps would otherwise start Python seventy times.)
RECORDER = textwrap.dedent(
    """
    import os, signal, sys, threading
    from thirtyone.store import record
    from thirtyone.cli.app import main

    real = record._connect

    def play(kill_at, seed, delay):
        steps = [0]

        def at_statement(sql):
            steps[0] += 1
            if steps[0] == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
            if sql.startswith("INSERT INTO games"):
                steps.append("inserting")
            if sql.startswith("COMMIT") and "inserting" in steps and delay >= 0:
                threading.Timer(delay, os.kill, (os.getpid(), signal.SIGKILL)).start()

        def traced(path, mode):
            con = real(path, mode)
            con.set_trace_callback(at_statement)
            return con

        record._connect = traced
        args = ["play", "--autoplay", "--seed", seed, "--seats", "2", "--lives", "1"]
        main(args, standalone_mode=False)

    for line in sys.stdin:
        kill_at, seed, delay = line.split()
        sys.stdout.flush()
        child = os.fork()
        if child == 0:
            quiet = os.open(os.devnull, os.O_WRONLY)
            os.dup2(quiet, 1)
            os.dup2(quiet, 2)
            try:
                play(int(kill_at), seed, float(delay))
            except BaseException:
                os._exit(1)
            os._exit(0)
        _, status = os.waitpid(child, 0)
        print(os.waitstatus_to_exitcode(status), flush=True)
    """
)


class Recorder:
    """The :data:`RECORDER` process."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", RECORDER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, **ENV},
        )

    def record(self, seed: int, kill_at: int = 0, delay: float = -1.0) -> int:
        """The exit status of the child that recorded the game (-9: it was killed)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{kill_at} {seed} {delay}\n")
        self.proc.stdin.flush()
        return int(self.proc.stdout.readline())

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        assert self.proc.wait(timeout=60) == 0


@pytest.fixture
def recorder() -> Iterator[Recorder]:
    it = Recorder()
    yield it
    it.close()


def _same_game(a: GameRecord, b: GameRecord) -> bool:
    return (a.placing, a.rounds, a.seed, a.decisions) == (b.placing, b.rounds, b.seed, b.decisions)


def _whole_or_nothing(before: list[GameRecord], whole: GameRecord) -> bool:
    """The record holds the games ``before`` and then the game ``whole`` whole, or nothing of
    it; it is sound; and the next game is recorded. Returns whether ``whole`` was kept."""
    assert _integrity() == "ok"
    now = games(path())
    assert now[: len(before)] == before and len(now) in (len(before), len(before) + 1)
    kept = len(now) == len(before) + 1
    if kept:
        assert _same_game(now[-1], whole)
    if now or before:
        con = sqlite3.connect(path())
        orphans = "SELECT count(*) FROM decisions WHERE game NOT IN (SELECT id FROM games)"
        assert con.execute(orphans).fetchone()[0] == 0
        con.close()
    add(path(), entry(seed=99))  # the next game
    after = games(path())
    assert len(after) == len(now) + 1 and after[-1].seed == 99
    for file in path().parent.glob("record.sqlite3*"):  # (each kill starts afresh)
        file.unlink()
    return kept


def _the_game(recorder: Recorder, seed: int) -> GameRecord:
    """The game ``seed`` as recorded when nothing kills its process."""
    assert recorder.record(seed) == 0
    [whole] = games(path())
    path().unlink()
    return whole


@pytest.mark.posix_only
@pytest.mark.parametrize("fresh", [True, False], ids=["new-record", "record-with-games"])
def test_a_kill_at_any_step_of_the_write_keeps_all_or_nothing(
    recorder: Recorder, fresh: bool
) -> None:
    whole = _the_game(recorder, 5)
    before: list[GameRecord] = []
    outcomes = []
    for step in range(1, 200):
        if not fresh:
            add(path(), entry(seed=1))
            before = games(path())
        code = recorder.record(5, kill_at=step)
        assert code in (0, -signal.SIGKILL)
        outcomes.append(_whole_or_nothing(before, whole))
        if code == 0:  # past the last statement: the write was never interrupted
            break
    else:
        pytest.fail("the game was still being written after 200 statements")
    # Killed before the commit: nothing of it; after the commit: the whole game.
    assert outcomes[0] is False and outcomes[-1] is True
    assert outcomes == sorted(outcomes) and len(outcomes) > 20


@pytest.mark.posix_only
def test_kills_in_the_midst_of_the_commit_keep_all_or_nothing(recorder: Recorder) -> None:
    whole = _the_game(recorder, 6)
    rnd = random.Random(6)
    for _ in range(30):
        add(path(), entry(seed=1))
        before = games(path())
        # 0.1 to 100 ms after the COMMIT starts: killed while the log is written and synced,
        # as the game is read back, or as the log is checkpointed and closed (or not at all).
        code = recorder.record(6, delay=10 ** rnd.uniform(-4, -1))
        assert code in (0, -signal.SIGKILL)
        _whole_or_nothing(before, whole)


# -- two games recorded at once --------------------------------------------------------------------

AT_ONCE = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from thirtyone.store import record
    from thirtyone.cli.app import main

    seed, mine, theirs = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    real, waited = record._connect, [False]
    record.BUSY_TIMEOUT = 120.0  # a hang guard: the wait for the other's write is what is tested

    def at_statement(sql):
        if sql.startswith("BEGIN") and not waited[0]:  # both at their first write, then go
            waited[0] = True
            mine.touch()
            deadline = time.monotonic() + 60
            while not theirs.exists() and time.monotonic() < deadline:
                time.sleep(0.005)

    def traced(path, mode):
        con = real(path, mode)
        con.set_trace_callback(at_statement)
        return con

    record._connect = traced
    main(["play", "--autoplay", "--seed", seed, "--seats", "2", "--lives", "1"])
    """
)


@pytest.mark.posix_only
def test_two_games_recorded_at_once_are_both_kept(tmp_path: Path) -> None:
    for i, fresh in enumerate((True, False)):  # a new record, then one with games
        gates = [tmp_path / f"{i}-a", tmp_path / f"{i}-b"]
        seeds = (10 + i, 20 + i)
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", AT_ONCE, str(seed), str(mine), str(theirs)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env={**os.environ, **ENV},
            )
            for seed, mine, theirs in ((seeds[0], *gates), (seeds[1], *gates[::-1]))
        ]
        for proc in procs:
            out, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, err
            assert "not recorded" not in out and "Winner: " in out
        recorded = games(path())
        assert len(recorded) == (2 if fresh else 4)
        assert sorted(g.seed or 0 for g in recorded[-2:]) == sorted(seeds)
        assert _integrity() == "ok"
    alone = [
        run(["play", "--autoplay", "--seed", str(s), "--seats", "2", "--lives", "1"])
        for s in (10, 20, 11, 21)
    ]
    assert all(r.exit_code == 0 for r in alone)
    by_seed = {g.seed: g for g in games(path())[4:]}
    for g in games(path())[:4]:
        assert _same_game(g, by_seed[g.seed])  # each written whole, as when played alone
