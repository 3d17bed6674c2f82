"""Every command stops when asked: Ctrl-C (SIGINT), SIGTERM and SIGHUP stop a tournament or a
calibration with one clear line, the results of the games played until then, and the exit status
128 + the signal; its worker processes (and the multiprocessing resource tracker) go with it, also
when it is killed outright. The process table is read from /proc: every process of the command's
session, orphans included, must be gone. No test here asserts a duration: 60 s is a hang guard."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from thirtyone.study import tournament
from thirtyone.study.backend import workers
from thirtyone.study.tournament import Settings

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")

#: Runs the command as at a terminal (Ctrl-C handled by Python, whatever started the tests),
#: with the optional extras hidden when the first argument says so.
RUN = """
import signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)
if sys.argv[1] == "hidden":
    for name in ("scipy", "scipy.stats", "matplotlib", "matplotlib.pyplot"):
        sys.modules[name] = None
from thirtyone.cli.app import main
main(sys.argv[2:], prog_name="thirtyone")
"""
HANG_GUARD = 60.0
GAMES = 1_000_000
#: Table players: a game takes about a millisecond, so a million games run for minutes.
TOURNAMENT = ["tournament", "--games", str(GAMES), "--players", "table,table", "--jobs", "2"]


def _stat(pid: str) -> tuple[str, int, int] | None:
    """State, parent and session of a process (None: gone)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1]), int(fields[3])


def living(session: int) -> list[int]:
    """The processes of ``session`` that are not zombies (orphans included: they keep it)."""
    out = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        st = _stat(pid)
        if st is not None and st[2] == session and st[0] != "Z":
            out.append(int(pid))
    return out


def workers_of(pid: int) -> list[int]:
    """The worker processes the command spawned."""
    out = []
    for child in filter(str.isdigit, os.listdir("/proc")):
        st = _stat(child)
        try:
            cmd = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if st is not None and st[1] == pid and st[0] != "Z" and b"spawn_main" in cmd:
            out.append(int(child))
    return out


def wait_for(what: Callable[[], bool], why: str) -> None:
    deadline = time.monotonic() + HANG_GUARD
    while not what():
        assert time.monotonic() < deadline, why
        time.sleep(0.05)


def _as_from_a_terminal() -> None:
    """The stop signals at their defaults, as a command typed in a terminal has them: a test run
    under ``nohup`` (SIGHUP ignored, inherited) would otherwise start a command that rightly
    keeps ignoring SIGHUP."""
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_DFL)


def start(args: list[str], log: Path, extras: str = "installed") -> subprocess.Popen[str]:
    """The command in a session of its own, standard output a pipe, standard error ``log``."""
    with log.open("w") as err:
        return subprocess.Popen(
            [sys.executable, "-c", RUN, extras, *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            start_new_session=True,
            preexec_fn=_as_from_a_terminal,
        )


def stop(child: subprocess.Popen[str], signum: int, to_group: bool) -> str:
    """Send ``signum`` (to the whole process group, as a terminal does, or to the command alone),
    and return the command's standard output once every process of its session is gone."""
    if to_group:
        os.killpg(child.pid, signum)
    else:
        child.send_signal(signum)
    try:  # (an orphan holding the pipe would hold this up: the hang guard)
        out, _ = child.communicate(timeout=HANG_GUARD)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        raise AssertionError("the command's output pipe was held open") from None
    try:
        wait_for(lambda: not living(child.pid), "a process of the command outlived it")
    finally:
        for pid in living(child.pid):  # (never left running by a failed test)
            os.kill(pid, signal.SIGKILL)
    return out


def stop_line(log: Path) -> str:
    return log.read_text().replace("\r", "\n").strip().splitlines()[-1]


CASES = [
    pytest.param(signal.SIGINT, True, "installed", id="ctrl-c-at-a-terminal"),
    pytest.param(signal.SIGINT, True, "hidden", id="ctrl-c-at-a-terminal-without-extras"),
    pytest.param(signal.SIGINT, False, "installed", id="sigint-to-the-command"),
    pytest.param(signal.SIGTERM, False, "installed", id="sigterm"),
    pytest.param(signal.SIGTERM, False, "hidden", id="sigterm-without-extras"),
    pytest.param(signal.SIGHUP, False, "installed", id="sighup"),
]


@pytest.mark.parametrize(("signum", "to_group", "extras"), CASES)
def test_a_tournament_stops_with_its_workers_and_its_results(
    tmp_path: Path, signum: int, to_group: bool, extras: str
) -> None:
    log = tmp_path / "stderr"
    child = start([*TOURNAMENT, "--json"], log, extras)
    wait_for(lambda: len(workers_of(child.pid)) == 2, "the workers never started")
    wait_for(lambda: "games " in log.read_text(), "no game was ever played")
    out = stop(child, signum, to_group)
    name = workers.Stopped(signum).name
    assert child.returncode == 128 + signum
    line = stop_line(log)
    found = re.fullmatch(
        rf"Stopped by {name} after ([\d,]+) of 1,000,000 games: the results count those games\.",
        line,
    )
    assert found, line
    played = int(found.group(1).replace(",", ""))
    data = json.loads(out)
    assert data["stopped"] == {"by": name, "games": played}
    assert data["settings"]["games"] == GAMES
    # The games counted are whole games: each has one winner, and each player played them all.
    assert [p["games"] for p in data["players"]] == [played, played]
    assert sum(p["wins"] for p in data["players"]) == played
    assert "Traceback" not in log.read_text()


def test_a_tournament_killed_outright_takes_no_worker_with_it(tmp_path: Path) -> None:
    """SIGKILL cannot be handled: the workers notice their parent is gone and end."""
    child = start(TOURNAMENT, tmp_path / "stderr")
    wait_for(lambda: len(workers_of(child.pid)) == 2, "the workers never started")
    stop(child, signal.SIGKILL, False)
    assert child.returncode == -signal.SIGKILL


@pytest.mark.parametrize(
    ("signum", "to_group"),
    [(signal.SIGINT, True), (signal.SIGTERM, False), (signal.SIGHUP, False)],
    ids=["ctrl-c-at-a-terminal", "sigterm", "sighup"],
)
def test_a_calibration_stops_with_its_workers(tmp_path: Path, signum: int, to_group: bool) -> None:
    pytest.importorskip("scipy")
    out_dir = tmp_path / "out"
    args = ["calibrate", "--decisions", "1000000", "--deals", "20", "--playouts", "20"]
    args += ["--seats", "2", "--workers", "2", "--out", str(out_dir)]
    log = tmp_path / "stderr"
    child = start(args, log)
    wait_for(lambda: len(workers_of(child.pid)) == 2, "the workers never started")
    time.sleep(2.0)  # (some decisions, most likely; either way the stop must be clean)
    out = stop(child, signum, to_group)
    name = workers.Stopped(signum).name
    assert child.returncode == 128 + signum
    line = stop_line(log)
    assert "Traceback" not in log.read_text()
    if "before the first decision" in line:
        assert line == f"Stopped by {name} before the first decision was scored: nothing written."
        assert not any(out_dir.iterdir()) and out == ""
        return
    found = re.fullmatch(
        rf"Stopped by {name} after ([\d,]+) of 1,000,000 decisions: the report covers those; "
        rf"written to {re.escape(str(out_dir))}\.",
        line,
    )
    assert found, line
    scored = int(found.group(1).replace(",", ""))
    decisions = (out_dir / "decisions.jsonl").read_text().splitlines()
    assert len(decisions) == scored
    summary = json.loads((out_dir / "summary.json").read_text())
    assert summary["stopped"] == name and summary["calibration"]["decisions"] == scored
    assert out.startswith(f"Stopped by {name} after {scored:,} of 1,000,000 decisions")


# -- in this process -------------------------------------------------------------------------------


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_stopped_tournament_counts_the_games_before_the_stop(jobs: int) -> None:
    seen: list[int] = []

    def progress(done: int, total: int) -> None:
        seen.append(done)
        if done == 5:
            raise workers.Stopped(signal.SIGTERM)

    settings = Settings(players=("table", "table:20", "table:30"), games=40, jobs=jobs)
    outcome = tournament.play(settings, progress)
    assert outcome.stopped is not None and outcome.stopped.status == 128 + signal.SIGTERM
    assert outcome.played == 5 and seen == [1, 2, 3, 4, 5]
    assert [t.games for t in outcome.tallies] == [5, 5, 5]
    assert sum(t.wins for t in outcome.tallies) == 5
    # The same first five games as a run of five.
    whole = tournament.run(Settings(players=settings.players, games=5, jobs=1))
    assert [t.to_dict() for t in outcome.tallies] == [t.to_dict() for t in whole]
    with pytest.raises(workers.Stopped):
        tournament.run(settings, progress)


class NotStopped(Exception):
    pass


@pytest.fixture
def harmless_sigterm() -> Iterator[None]:
    """A SIGTERM that :func:`workers.stopping` failed to take does not end the test run."""

    def fail(signum: int, frame: object) -> None:
        raise NotStopped

    before = signal.signal(signal.SIGTERM, fail)
    yield
    signal.signal(signal.SIGTERM, before)


@pytest.mark.usefixtures("harmless_sigterm")
def test_a_signal_is_held_over_a_step_and_acted_on_after() -> None:
    steps: list[str] = []
    with workers.stopping(), pytest.raises(workers.Stopped) as stopped:
        with workers.held():
            signal.raise_signal(signal.SIGTERM)
            steps.append("the step went on to its end")
        steps.append("not reached")
    assert steps == ["the step went on to its end"]
    assert stopped.value.signum == signal.SIGTERM and stopped.value.name == "SIGTERM"
    assert workers.Stopped().name == "Ctrl-C" and workers.Stopped().status == 130


def test_a_signal_ignored_when_the_command_began_stays_ignored() -> None:
    """``nohup`` ignores SIGHUP: a run under it must survive the terminal's closing."""
    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with workers.stopping():
            assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
            signal.raise_signal(signal.SIGHUP)  # nothing happens
    finally:
        signal.signal(signal.SIGHUP, before)


def test_the_pool_keeps_the_order_and_raises_a_workers_error() -> None:
    import math

    with workers.Pool(math.sqrt, 2, chunk=3) as pool:
        assert list(pool.map(range(50))) == [math.sqrt(i) for i in range(50)]
    with workers.Pool(math.sqrt, 2) as pool:
        got = []
        with pytest.raises(ValueError, match="math domain error"):
            for x in pool.map([4, 9, -1, 16]):
                got.append(x)
    assert got == [2.0, 3.0]


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc (Linux)")
def test_a_worker_ignores_ctrl_c_from_its_first_instruction() -> None:
    """A Ctrl-C at a terminal reaches every process of the group, workers still importing
    included (seconds on a busy machine): they must be deaf to it before any of their code runs.
    The spawn resets the signal mask, so it is the ignored disposition that they start with."""
    import multiprocessing

    spawn = multiprocessing.get_context("spawn")
    handler = signal.getsignal(signal.SIGINT)
    with workers._sigint_ignored_by_children():
        child = spawn.Process(target=time.sleep, args=(30,), daemon=True)
        child.start()
    try:
        status = Path(f"/proc/{child.pid}/status").read_text()
        ignored = int(
            next(ln for ln in status.splitlines() if ln.startswith("SigIgn:")).split()[1], 16
        )
        assert ignored & (1 << (signal.SIGINT - 1)), status
    finally:
        child.kill()
        child.join()
    assert signal.getsignal(signal.SIGINT) is handler  # (this process keeps its own)
