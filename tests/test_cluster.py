"""Studies on a Dask cluster (``--cluster``) and from a checkpoint (``--checkpoint``): the same
results as the local processes, whatever the backend, a worker killed mid-run, or a stop and a
resume; a worker of another thirtyone version, a bad address, an unreachable scheduler and a
missing extra refused with a clear message and exit status 2.

The cluster is a small local one (two worker processes of one thread), started once."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from thirtyone.cli.app import main
from thirtyone.errors import SettingsError, ThirtyOneError
from thirtyone.study import calibration, knock, tournament
from thirtyone.study.backend import cluster, workers
from thirtyone.study.backend.cluster import Backend

distributed = pytest.importorskip("distributed")

pytestmark = pytest.mark.posix_only

#: A tournament cheap enough to play a few times: Oracle players at tiny budgets.
PLAYERS = ("oracle", "table", "table:22")
SMALL = tournament.Settings(players=PLAYERS, games=16, deals=20, playouts=60, seed=5)
TINY = ["--players", ",".join(PLAYERS), "--deals", "20", "--playouts", "60", "--seed", "5"]


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a local Dask cluster: two worker processes, one thread each."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=40,
    ) as local:
        yield local.scheduler_address


def invoke(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args))
    assert "Traceback" not in r.output
    return r.exit_code, r.stdout, r.stderr


def tallies(outcome: tournament.Outcome) -> list[dict[str, Any]]:
    return [t.to_dict() for t in outcome.tallies]


@pytest.fixture(scope="module")
def local_run() -> list[dict[str, Any]]:
    """The small tournament played here, in one process: the reference."""
    outcome = tournament.play(SMALL)
    assert outcome.played == SMALL.games and outcome.stopped is None
    return tallies(outcome)


def test_the_same_tournament_gives_the_same_json_with_and_without_the_cluster(
    scheduler: str,
) -> None:
    args = ["tournament", "--games", "12", *TINY, "--json"]
    code, alone, _ = invoke(*args, "--jobs", "2")
    assert code == 0
    code, on_cluster, err = invoke(*args, "--cluster", scheduler)
    assert code == 0, err
    # The same but for the local processes, which a cluster run has none of.
    local, far = json.loads(alone), json.loads(on_cluster)
    assert local["settings"].pop("jobs") == 2 and far["settings"].pop("jobs") is None
    assert far == local
    assert sum(p["games"] for p in json.loads(alone)["players"]) == 12 * len(PLAYERS)


def test_local_processes_are_refused_with_a_cluster(scheduler: str) -> None:
    for command in (
        ["tournament", "--games", "2", "--jobs", "5"],
        ["study", "knock", "--rounds", "10", "--jobs", "5"],
        ["calibrate", "--decisions", "1", "--workers", "5"],
    ):
        code, out, err = invoke(*command, "--cluster", scheduler)
        assert code == 2 and out == "" and "with --cluster the cluster's workers" in err, err


def test_read_as_travels_to_the_workers(scheduler: str) -> None:
    # The settings go with each batch: the cluster reads the table:22 player as the table too.
    args = ["tournament", "--games", "4", *TINY, "--json"]
    code, own, _ = invoke(*args, "--jobs", "1")
    assert code == 0
    code, alone, _ = invoke(*args, "--jobs", "1", "--read-as", "table")
    assert code == 0
    code, on_cluster, err = invoke(*args, "--read-as", "table", "--cluster", scheduler)
    assert code == 0, err
    assert json.loads(on_cluster) == {
        **json.loads(alone),
        "settings": {**json.loads(alone)["settings"], "jobs": None},
    }
    assert json.loads(alone)["players"] != json.loads(own)["players"]


def test_a_worker_killed_mid_run_has_its_batches_played_again(
    scheduler: str, local_run: list[dict[str, Any]]
) -> None:
    from distributed import Client

    with Client(scheduler, set_as_default=False) as client:
        pids = client.run(os.getpid)
        killed: list[int] = []

        def progress(done: int, total: int) -> None:
            if not killed:  # at the first batch counted, while the others are on the workers
                victim = sorted(pids.values())[0]
                os.kill(victim, signal.SIGKILL)
                killed.append(victim)

        outcome = tournament.play(SMALL, progress, Backend(cluster=scheduler))
        assert killed
        # Every game counted once: the killed worker's batches were played again elsewhere.
        assert outcome.played == SMALL.games and outcome.stopped is None
        assert tallies(outcome) == local_run
        client.wait_for_workers(2, timeout=60)  # (its nanny starts it again for the next tests)
        assert killed[0] not in client.run(os.getpid).values()


def test_a_worker_of_another_version_is_refused(
    scheduler: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = cluster.version()
    monkeypatch.setattr(cluster, "version", lambda: "0.0.0+other")
    code, out, err = invoke("tournament", "--games", "2", *TINY, "--cluster", scheduler)
    assert code == 2 and out == ""
    assert f"runs thirtyone {real}" in err and "this client runs thirtyone 0.0.0+other" in err


def test_a_task_on_a_worker_of_another_version_is_refused() -> None:
    # Checked again by each task (a worker that joined after the check).
    with pytest.raises(cluster.VersionMismatch, match=r"thirtyone 9\.9"):
        cluster._checked(len, "9.9", "abc")
    assert cluster._checked(len, cluster.version(), "abc") == 3


def test_a_stop_cancels_the_tasks_on_the_cluster(scheduler: str) -> None:
    from distributed import Client

    def stop(done: int, total: int) -> None:
        raise KeyboardInterrupt

    outcome = tournament.play(SMALL, stop, Backend(cluster=scheduler))
    assert outcome.stopped is not None and 0 < outcome.played < SMALL.games
    with Client(scheduler, set_as_default=False) as client:
        left = client.run_on_scheduler(
            lambda dask_scheduler: [k for k in dask_scheduler.tasks if "thirtyone-" in str(k)]
        )
    assert left == []


def _until_the_run_stops(marker: str) -> str:
    """A batch that plays until its run is stopped: ``marker``.started when it begins,
    ``marker``.stopped once it sees the stop (it gives up after five minutes)."""
    Path(marker + ".started").touch()
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if workers.asked_to_stop():
            Path(marker + ".stopped").touch()
            raise workers.RunStopped("stopped")
        time.sleep(0.05)
    return "never stopped"


def test_a_stop_reaches_the_batches_running_on_the_workers(scheduler: str, tmp_path: Path) -> None:
    """Dask cannot stop a running task: a stopped run's batches running on the workers see the
    stop between their games and end (they went on to their last game before)."""
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # (the workers lack the tests)
    marker = str(tmp_path / "batch")
    pool = cluster.ClusterPool(_until_the_run_stops, scheduler)
    failed: list[BaseException] = []

    def run() -> None:
        try:
            list(pool.map([marker]))
        except BaseException as err:  # (the client closed under it)
            failed.append(err)

    with pool:
        playing = threading.Thread(target=run, daemon=True)
        playing.start()
        wait_until(lambda: Path(marker + ".started").exists())
        pool.close()  # (as a Ctrl-C does on leaving)
    wait_until(lambda: Path(marker + ".stopped").exists())
    playing.join(timeout=60)


def test_a_batch_asks_about_its_run_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    # Locally nothing asks (a stop ends the worker processes); on a cluster the question is
    # asked at most once a second, whatever the number of games.
    assert not workers.asked_to_stop()
    asked: list[float] = []
    with workers.playing_for(lambda: asked.append(time.monotonic()) or True):
        assert workers.asked_to_stop()
        assert not workers.asked_to_stop()  # (asked a moment ago)
    assert len(asked) == 1 and not workers.asked_to_stop()


def test_a_stopped_run_resumes_from_its_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, local_run: list[dict[str, Any]]
) -> None:
    keep = tmp_path / "run.checkpoint"
    backend = Backend(checkpoint=keep)
    stop_after = 5

    def stop(done: int, total: int) -> None:
        if done >= stop_after:
            raise KeyboardInterrupt

    first = tournament.play(SMALL, stop, backend)
    assert first.stopped is not None and first.played == stop_after
    lines = keep.read_text().splitlines()
    assert len(lines) == 1 + stop_after  # the header, one line a batch (of one game here)
    played: list[int] = []
    real = tournament._play_batch

    def spy(args: tuple[int, int, tournament.Settings]) -> list[list[tournament.Result]]:
        played.append(args[0])
        return real(args)

    monkeypatch.setattr(tournament, "_play_batch", spy)
    second = tournament.play(SMALL, None, backend)
    assert second.played == SMALL.games and second.stopped is None
    assert played == list(range(stop_after, SMALL.games))  # the finished ones not again
    assert tallies(second) == local_run


def test_a_checkpoint_resumes_on_the_cluster_too(
    tmp_path: Path, scheduler: str, local_run: list[dict[str, Any]]
) -> None:
    keep = tmp_path / "run.checkpoint"

    def stop(done: int, total: int) -> None:
        if done >= 3:
            raise KeyboardInterrupt

    assert tournament.play(SMALL, stop, Backend(checkpoint=keep)).played == 3
    outcome = tournament.play(SMALL, None, Backend(cluster=scheduler, checkpoint=keep))
    assert outcome.played == SMALL.games and tallies(outcome) == local_run
    # A line cut short (killed while writing) is ignored, and the rest still used.
    with keep.open("a") as f:
        f.write('{"batch": 99, "res')
    again = tournament.play(SMALL, None, Backend(checkpoint=keep))
    assert tallies(again) == local_run


def test_a_checkpoint_of_other_settings_is_refused(tmp_path: Path) -> None:
    keep = tmp_path / "run.checkpoint"
    code, _, err = invoke("tournament", "--games", "2", *TINY, "--checkpoint", str(keep))
    assert code == 0, err
    code, out, err = invoke(
        "tournament", "--games", "2", *TINY, "--seed", "6", "--checkpoint", str(keep)
    )
    assert code == 2 and out == "" and "another study or other settings" in err
    (tmp_path / "junk").write_text("hello\n")
    code, _, err = invoke("tournament", "--games", "2", "--checkpoint", str(tmp_path / "junk"))
    assert code == 2 and "not a thirtyone checkpoint file" in err


def test_the_calibration_gives_the_same_decisions_on_the_cluster(scheduler: str) -> None:
    pytest.importorskip("scipy")
    settings = calibration.Settings(
        decisions=6, seed=3, deals=20, playouts=60, rank_deals=20, seats=(3,)
    )
    alone = calibration.run(settings)
    on_cluster = calibration.run(settings, backend=Backend(cluster=scheduler))
    assert len(alone) == 6 and on_cluster == alone


def test_the_calibration_report_names_the_cluster_and_its_workers(
    scheduler: str, tmp_path: Path
) -> None:
    """The report says the run was on the cluster, with the workers it had (two here), in
    words: it said "1 thread(s) x 1 worker(s)", the --workers it was not given."""
    pytest.importorskip("scipy")
    tiny = ["--decisions", "3", "--deals", "20", "--playouts", "60", "--seats", "3"]
    code, out, err = invoke("calibrate", *tiny, "--cluster", scheduler, "--out", str(tmp_path))
    assert code == 0, err
    head = out.splitlines()[0]
    assert f"1 thread a query, on the Dask cluster at {scheduler} (2 workers);" in head, head
    assert "(s)" not in out and "1 worker" not in out
    assert head in (tmp_path / "report.md").read_text()
    code, out, err = invoke("calibrate", *tiny, "--out", str(tmp_path))
    assert code == 0 and "1 thread x 1 worker;" in out.splitlines()[0], err


@pytest.mark.parametrize(
    ("address", "words"),
    [
        ("localhost:8786", "like tcp://HOST:8786"),
        ("http://localhost:8786", "like tcp://HOST:8786"),
        ("tcp://localhost", "like tcp://HOST:8786"),
        ("tcp://localhost:99999", "like tcp://HOST:8786"),
        ("tcp://:8786", "like tcp://HOST:8786"),
        ("tls://127.0.0.1:8786", "tls:// needs certificates"),
    ],
)
def test_a_bad_address_is_refused(address: str, words: str) -> None:
    for command in (["tournament", "--games", "2"], ["calibrate", "--decisions", "1"]):
        code, out, err = invoke(*command, "--cluster", address)
        assert code == 2 and out == "" and words in err, (command, err)
    with pytest.raises(SettingsError):
        cluster.check_address(address)


def test_an_unreachable_scheduler_is_told(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1.0)
    code, out, err = invoke("tournament", "--games", "2", "--cluster", "tcp://127.0.0.1:9")
    assert code == 2 and out == ""
    assert "cannot reach a Dask scheduler at tcp://127.0.0.1:9" in err


@pytest.mark.parametrize(
    "command", [["tournament", "--games", "2"], ["calibrate", "--decisions", "1"]]
)
def test_an_unreachable_scheduler_leaves_no_checkpoint(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run that never reached its scheduler played nothing and leaves nothing behind: it left
    a checkpoint file holding only its header."""
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1.0)
    keep = tmp_path / "run.checkpoint"
    out = ["--out", str(tmp_path / "out")] if command[0] == "calibrate" else []
    code, _, err = invoke(
        *command, *out, "--cluster", "tcp://127.0.0.1:9", "--checkpoint", str(keep)
    )
    assert code == 2 and "cannot reach a Dask scheduler" in err
    assert list(tmp_path.glob("*.checkpoint")) == []


def test_the_missing_extra_is_told(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # (its import fails)
    code, out, err = invoke("tournament", "--games", "2", "--cluster", "tcp://127.0.0.1:8786")
    assert code == 2 and out == ""
    assert "pip install 'thirtyone[cluster]'" in err
    with pytest.raises(ThirtyOneError, match="cluster"), cluster.ClusterPool(len, "tcp://a:1"):
        pass


def test_the_cluster_extra_pins_the_dask_the_tests_use() -> None:
    import tomllib

    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    extras = tomllib.loads(pyproject.read_text())["project"]["optional-dependencies"]
    (pin,) = extras["cluster"]
    name, version = pin.split("==")
    assert name == "dask[distributed]"
    assert {f"dask=={version}", f"distributed=={version}"} <= set(extras["test"])
    assert distributed.__version__ == version


def test_the_knock_atlas_is_the_same_on_the_cluster(scheduler: str) -> None:
    settings = knock.Settings(rounds=200, seats=(3,), seed=2)
    assert knock.compute(settings, Backend(cluster=scheduler)) == knock.compute(settings)


# --- Wrong addresses, a stop while connecting, a cluster lost mid-run (run as commands) ---

#: Runs the command with the cluster's timeouts set by the test (argv: connect, workers, args).
CLI = """
import signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)
from thirtyone.study.backend import cluster
cluster.CONNECT_TIMEOUT = float(sys.argv[1])
cluster.WORKER_TIMEOUT = float(sys.argv[2])
from thirtyone.cli.app import main
main(sys.argv[3:], prog_name="thirtyone")
"""
HANG_GUARD = 120.0


def command(*args: str, connect: float = 2.0, alone: float = 30.0) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, "-c", CLI, str(connect), str(alone), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def ended(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    try:
        out, err = proc.communicate(timeout=HANG_GUARD)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError("the command hung") from None
    assert "Traceback" not in err and "Exception ignored" not in err, err
    return proc.returncode, out, err


@pytest.fixture
def listener() -> Iterator[tuple[socket.socket, list[socket.socket]]]:
    """A TCP port that accepts and never answers; the connections accepted listed."""
    server = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []

    def serve() -> None:
        with contextlib.suppress(OSError):
            while True:
                accepted.append(server.accept()[0])

    threading.Thread(target=serve, daemon=True).start()
    yield server, accepted
    server.close()
    for c in accepted:
        c.close()


def test_a_port_that_never_answers_is_one_line(
    listener: tuple[socket.socket, list[socket.socket]],
) -> None:
    address = f"tcp://127.0.0.1:{listener[0].getsockname()[1]}"
    code, out, err = ended(command("tournament", "--games", "2", "--cluster", address))
    assert code == 2 and out == "", err
    assert err.startswith(f"Error: cannot reach a Dask scheduler at {address}: no answer")
    assert len(err.splitlines()) == 1


def test_a_port_that_speaks_http_is_one_line(
    listener: tuple[socket.socket, list[socket.socket]],
) -> None:
    server, accepted = listener
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    proc = command("tournament", "--games", "2", "--cluster", address)
    wait_until(lambda: bool(accepted) or proc.poll() is not None)
    for c in list(accepted):
        c.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 4)
    code, out, err = ended(proc)
    assert code == 2 and out == "", err
    assert err.startswith(f"Error: cannot reach a Dask scheduler at {address}")
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_while_connecting_ends_at_once(
    listener: tuple[socket.socket, list[socket.socket]], signum: int
) -> None:
    # The connection's own deadline far beyond the hang guard: only the stop can end it.
    address = f"tcp://127.0.0.1:{listener[0].getsockname()[1]}"
    proc = command("tournament", "--games", "2", "--cluster", address, connect=600.0)
    wait_until(lambda: bool(listener[1]))
    proc.send_signal(signum)
    code, out, err = ended(proc)
    assert code == 128 + signum and out == ""
    assert "before the first game ended" in err


def test_an_unknown_host_is_named() -> None:
    code, out, err = invoke(
        "tournament", "--games", "2", "--cluster", "tcp://nonexistent.invalid:8786"
    )
    assert code == 2 and out == "" and '"nonexistent.invalid" cannot be found' in err


def wait_until(what: Any) -> None:
    deadline = time.monotonic() + HANG_GUARD
    while not what():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.05)


@contextlib.contextmanager
def reserved_port() -> Iterator[int]:
    """A free port of 127.0.0.1, kept from everyone else while the block lasts (bound with
    SO_REUSEADDR, not listening: the system gives it to no other socket, and the scheduler,
    which binds with SO_REUSEADDR too, may). A port found free and let go at once could be
    taken by another test's socket before the scheduler took it."""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


@pytest.fixture
def own_cluster() -> Iterator[tuple[str, subprocess.Popen[bytes], subprocess.Popen[bytes]]]:
    """A scheduler and one worker (no nanny: killed, it stays dead) of this test alone."""
    bin_dir = Path(sys.executable).parent
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    held = contextlib.ExitStack()  # (the port, until the scheduler has it: it listens then)
    port = str(held.enter_context(reserved_port()))
    address = f"tcp://127.0.0.1:{port}"
    sched = subprocess.Popen(
        [bin_dir / "dask", "scheduler", "--port", port, "--no-dashboard"], **quiet
    )
    worker = subprocess.Popen(
        [bin_dir / "dask", "worker", address, "--no-nanny", "--nthreads", "1", "--no-dashboard"],
        **quiet,
    )
    try:
        from distributed import Client

        with Client(address, timeout=HANG_GUARD, set_as_default=False) as client:
            client.wait_for_workers(1, timeout=HANG_GUARD)
        held.close()
        yield address, sched, worker
    finally:
        held.close()
        for proc in (worker, sched):
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("victim", ["scheduler", "worker"])
def test_a_cluster_lost_mid_run_is_one_error_after_the_results(
    tmp_path: Path,
    own_cluster: tuple[str, subprocess.Popen[bytes], subprocess.Popen[bytes]],
    victim: str,
) -> None:
    address, sched, worker = own_cluster
    keep = tmp_path / "run.checkpoint"
    args = ["tournament", "--games", "1000000", "--players", "table,table"]
    proc = command(*args, "--cluster", address, "--checkpoint", str(keep), alone=2.0)
    wait_until(lambda: keep.exists() and len(keep.read_text().splitlines()) > 2)
    (sched if victim == "scheduler" else worker).kill()
    code, out, err = ended(proc)
    assert code == 2, err
    assert "table" in out  # (the games counted until then)
    last = err.strip().splitlines()[-1]
    words = "was lost;" if victim == "scheduler" else "has had no worker for 2 seconds;"
    assert last.startswith("Error: ") and words in last, err
    assert "resumes the run from its checkpoint" in last
    assert "distributed" not in err


def test_a_finished_checkpoint_needs_no_cluster(tmp_path: Path) -> None:
    keep = tmp_path / "run.checkpoint"
    code, first, _ = invoke("tournament", "--games", "2", *TINY, "--checkpoint", str(keep))
    assert code == 0
    again = ["tournament", "--games", "2", *TINY, "--checkpoint", str(keep)]
    code, out, err = invoke(*again, "--cluster", "tcp://127.0.0.1:9")
    assert code == 0 and out == first, err


def test_the_missing_extra_writes_no_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    keep = tmp_path / "run.checkpoint"
    code, _, err = invoke(
        "tournament", "--games", "2", "--cluster", "tcp://127.0.0.1:8786", "--checkpoint", str(keep)
    )
    assert code == 2 and "pip install" in err and not keep.exists()


def test_a_worker_that_cannot_run_thirtyone_is_named(
    scheduler: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken() -> str:  # (sent by value: it fails on the worker as a missing thirtyone would)
        raise ImportError("No module named 'thirtyone'")

    monkeypatch.setattr(cluster, "_worker_version", broken)
    code, out, err = invoke("tournament", "--games", "2", *TINY, "--cluster", scheduler)
    assert code == 2 and out == ""
    assert "the worker tcp://127.0.0.1:" in err and "cannot run thirtyone" in err
    assert len(err.strip().splitlines()) == 1  # (not Dask's version table)
    from distributed.versions import VersionMismatchWarning

    with warnings.catch_warnings(record=True) as seen:
        warnings.warn(VersionMismatchWarning("a table"), stacklevel=1)
    assert seen == []


def test_a_worker_of_another_version_mid_run_is_named(
    scheduler: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A worker that joined after the check: its task refuses, naming it, as a failed stop.
    monkeypatch.setattr(cluster.ClusterPool, "_check_workers", lambda self: None)
    monkeypatch.setattr(cluster, "version", lambda: "0.0.0+other")
    code, out, err = invoke("tournament", "--games", "2", *TINY, "--cluster", scheduler)
    assert code == 2 and out == ""
    assert err.startswith("Error: the worker tcp://127.0.0.1:"), err
    assert "this client thirtyone 0.0.0+other" in err and "stopped before the first game" in err
