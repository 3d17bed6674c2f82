"""Studies on a Dask cluster (``--cluster``) and from a checkpoint (``--checkpoint``): the same
results as the local processes, whatever the backend, a worker killed mid-run, or a stop and a
resume; a worker of another thirtyone version, a bad address, an unreachable scheduler and a
missing extra refused with a clear message and exit status 2.

The cluster is a small local one (two worker processes of one thread), started once."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from thirtyone.cli.app import main
from thirtyone.errors import SettingsError, ThirtyOneError
from thirtyone.study import calibration, cluster, knock, tournament
from thirtyone.study.cluster import Backend

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
    args = ["tournament", "--games", "12", *TINY, "--jobs", "2", "--json"]
    code, alone, _ = invoke(*args)
    assert code == 0
    code, on_cluster, err = invoke(*args, "--cluster", scheduler)
    assert code == 0, err
    assert json.loads(on_cluster) == json.loads(alone)
    assert sum(p["games"] for p in json.loads(alone)["players"]) == 12 * len(PLAYERS)


def test_read_as_travels_to_the_workers(scheduler: str) -> None:
    # The settings go with each batch: the cluster reads the table:22 player as the table too.
    args = ["tournament", "--games", "4", *TINY, "--jobs", "1", "--json"]
    code, own, _ = invoke(*args)
    assert code == 0
    code, alone, _ = invoke(*args, "--read-as", "table")
    assert code == 0
    code, on_cluster, err = invoke(*args, "--read-as", "table", "--cluster", scheduler)
    assert code == 0, err
    assert json.loads(on_cluster) == json.loads(alone)
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


@pytest.mark.parametrize(
    ("address", "words"),
    [
        ("localhost:8786", "like tcp://HOST:8786"),
        ("http://localhost:8786", "like tcp://HOST:8786"),
        ("tcp://localhost", "like tcp://HOST:8786"),
        ("tcp://localhost:99999", "like tcp://HOST:8786"),
        ("tcp://:8786", "like tcp://HOST:8786"),
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
