"""The options that name a file to write (``calibrate --out``, ``tournament --plot``, ``play
--save-file``) are checked before any work starts, with the optional extras (scipy, matplotlib)
installed and without them: a path under a file, a folder that cannot be written and a name too
long for the file system each get one line ``Error: …`` and exit status 2 before any game is
played; a file already there is replaced where that is the promise (the earlier results of
``--out``, the PNG of ``--plot``). Each case ends in a clean refusal or a sound result, and
nothing is lost."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from thirtyone.cli.app import main
from thirtyone.paths import short
from thirtyone.study import calibration, tournament

PNG = b"\x89PNG\r\n\x1a\n"
SCIPY = "Error: the calibration statistics need scipy: pip install 'thirtyone[calibrate]'"
MATPLOTLIB = "Error: --plot needs matplotlib: pip install 'thirtyone[plot]'"
TOO_LONG = "g" * 300 + ".png"
CALIBRATE = ["calibrate", "--decisions", "2", "--deals", "20", "--playouts", "20", "--seats", "2"]
TOURNAMENT = ["tournament", "--games", "3", "--players", "table,table:20", "--jobs", "1"]


@pytest.fixture(params=["installed", "hidden"])
def extras(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test twice: with the optional extras as installed, and as if they were not."""
    if request.param == "hidden":
        for name in ("scipy", "scipy.stats", "matplotlib", "matplotlib.pyplot"):
            monkeypatch.setitem(sys.modules, name, None)  # import fails
    else:
        pytest.importorskip("scipy")
        pytest.importorskip("matplotlib")
    return str(request.param)


@pytest.fixture
def no_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game played fails the test: every refusal comes before the first game."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played before the file was found impossible")

    monkeypatch.setattr(tournament, "play_game", refuse)
    monkeypatch.setattr(calibration, "play_game", refuse)


def unwritable(monkeypatch: pytest.MonkeyPatch) -> None:
    """No file can be made in any folder. (The tests may run as root, for whom no folder is
    read-only: the refusal is simulated, as the file system would give it.)"""

    def refused(*args: object, dir: object = None, **kwargs: object) -> tuple[int, str]:
        raise PermissionError(13, "Permission denied", str(Path(str(dir)) / ".x.tmp"))

    monkeypatch.setattr(tempfile, "mkstemp", refused)


def one_error_line(r: Result) -> str:
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.output
    return lines[0]


def invoke(args: list[str], data: Path, stdin: str = "") -> Result:
    return CliRunner().invoke(main, args, input=stdin, env={"THIRTYONE_DATA_DIR": str(data)})


# -- calibrate --out -------------------------------------------------------------------------------


@pytest.mark.usefixtures("no_game")
@pytest.mark.parametrize("where", ["a file", "under a file", "unwritable", "name too long"])
def test_calibrate_out_refused_before_the_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, extras: str, where: str
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("mine")
    out = {
        "a file": blocker,
        "under a file": blocker / "results",
        "unwritable": tmp_path / "results",
        "name too long": tmp_path / TOO_LONG,
    }[where]
    if where == "unwritable":
        unwritable(monkeypatch)
    line = one_error_line(invoke([*CALIBRATE, "--out", str(out)], tmp_path))
    assert blocker.read_text() == "mine"  # nothing lost
    if extras == "hidden":
        assert line == SCIPY
        return
    assert line.startswith("Error: --out ")
    expected = {
        "a file": f"{short(blocker)} is a file, not a folder",
        "under a file": f"{short(blocker)} is a file, not a folder",
        "unwritable": f"the folder {short(out)} cannot be written (permission denied)",
        "name too long": "too long",
    }[where]
    assert expected in line and len(line) < 300


@pytest.mark.usefixtures("no_game")
def test_calibrate_out_with_a_folder_in_place_of_a_results_file(
    tmp_path: Path, extras: str
) -> None:
    (tmp_path / "report.md").mkdir()
    line = one_error_line(invoke([*CALIBRATE, "--out", str(tmp_path)], tmp_path))
    if extras == "hidden":
        assert line == SCIPY
    else:
        assert (
            line == f"Error: --out {short(tmp_path)}: {short(tmp_path / 'report.md')} is a folder"
        )


def test_calibrate_out_replaces_an_earlier_runs_results(tmp_path: Path, extras: str) -> None:
    out = tmp_path / "results"
    out.mkdir()
    for name in calibration.OUT_FILES:
        (out / name).write_text("an earlier run")
    r = invoke([*CALIBRATE, "--out", str(out)], tmp_path)
    if extras == "hidden":
        assert one_error_line(r) == SCIPY
        assert all((out / n).read_text() == "an earlier run" for n in calibration.OUT_FILES)
        return
    assert r.exit_code == 0, r.output
    assert len((out / "decisions.jsonl").read_text().splitlines()) == 2
    assert json.loads((out / "summary.json").read_text())["settings"]["decisions"] == 2
    assert (out / "report.md").read_text().startswith("2 decisions in ")
    assert (out / "reliability.png").read_bytes()[:8] == PNG


def test_calibrate_out_without_matplotlib_removes_an_earlier_plot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """scipy but no matplotlib: the run's three files, and no plot of another run beside them."""
    pytest.importorskip("scipy")
    for name in ("matplotlib", "matplotlib.pyplot"):
        monkeypatch.setitem(sys.modules, name, None)
    for name in calibration.OUT_FILES:
        (tmp_path / name).write_text("an earlier run")
    r = invoke([*CALIBRATE, "--out", str(tmp_path)], tmp_path)
    assert r.exit_code == 0, r.output
    assert not (tmp_path / "reliability.png").exists()
    assert len((tmp_path / "decisions.jsonl").read_text().splitlines()) == 2
    assert "Plot:" not in (tmp_path / "report.md").read_text()


def test_calibrate_out_is_made_when_missing(tmp_path: Path, extras: str) -> None:
    out = tmp_path / "new" / "results"
    r = invoke([*CALIBRATE, "--out", str(out)], tmp_path)
    if extras == "hidden":
        assert one_error_line(r) == SCIPY and not out.exists()
        return
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in out.iterdir()) == sorted(calibration.OUT_FILES)


# -- tournament --plot -----------------------------------------------------------------------------


@pytest.mark.usefixtures("no_game")
@pytest.mark.parametrize(
    "where", ["a folder", "no such folder", "under a file", "unwritable", "name too long"]
)
def test_tournament_plot_refused_before_the_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, extras: str, where: str
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("mine")
    plot = {
        "a folder": tmp_path,
        "no such folder": tmp_path / "no" / "wins.png",
        "under a file": blocker / "wins.png",
        "unwritable": tmp_path / "wins.png",
        "name too long": tmp_path / TOO_LONG,
    }[where]
    if where == "unwritable":
        unwritable(monkeypatch)
    line = one_error_line(invoke([*TOURNAMENT, "--plot", str(plot)], tmp_path))
    assert blocker.read_text() == "mine"
    if extras == "hidden":
        assert line == MATPLOTLIB
        return
    assert line.startswith("Error: --plot ")
    expected = {
        "a folder": f"is a folder: name a file, e.g. {short(tmp_path / 'wins.png')}",
        "no such folder": f"the folder {short(tmp_path / 'no')} does not exist",
        "under a file": f"{short(blocker)} is a file, not a folder",
        "unwritable": f"the folder {short(tmp_path)} cannot be written (permission denied)",
        "name too long": "the name is too long (304 bytes; at most",
    }[where]
    assert expected in line and len(line) < 300


def test_tournament_plot_replaces_a_file_there(tmp_path: Path, extras: str) -> None:
    plot = tmp_path / "wins.png"
    plot.write_bytes(b"an earlier plot")
    r = invoke([*TOURNAMENT, "--plot", str(plot)], tmp_path)
    if extras == "hidden":
        assert one_error_line(r) == MATPLOTLIB
        assert plot.read_bytes() == b"an earlier plot"
        return
    assert r.exit_code == 0, r.output
    assert plot.read_bytes()[:8] == PNG
    assert "3 games, 2 seats" in r.stdout


# -- play --save-file ------------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["a folder", "under a file", "unwritable", "name too long"])
def test_play_save_file_refused_before_the_first_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, extras: str, where: str
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("mine")
    save = {
        "a folder": tmp_path,
        "under a file": blocker / "game.json",
        "unwritable": tmp_path / "game.json",
        "name too long": tmp_path / TOO_LONG,
    }[where]
    if where == "unwritable":
        unwritable(monkeypatch)
    r = invoke(["play", "--seed", "3", "--save-file", str(save)], tmp_path, "d\n4\nq\n")
    line = one_error_line(r)
    assert "Your move" not in r.output and blocker.read_text() == "mine"
    expected = {
        "a folder": f"{short(tmp_path)} is a folder, not a thirtyone save",
        "under a file": f"{short(blocker)} is a file, not a folder",
        "unwritable": f"the folder {short(tmp_path)} cannot be written (permission denied)",
        "name too long": "too long",
    }[where]
    assert expected in line and len(line) < 300


@pytest.mark.parametrize("study", ["tournament", "knock", "calibrate"])
def test_a_checkpoint_that_cannot_be_written_mid_run_ends_it_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, study: str
) -> None:
    # (A full disk under the checkpoint was a traceback, exit status 1.) The first batch is
    # kept, the second cannot be: the run ends as a stop does, with the error line, status 2.
    if study == "calibrate":
        pytest.importorskip("scipy")
    from thirtyone.study.backend import checkpoint

    synced: list[int] = []

    def fsync(fd: int) -> None:
        synced.append(fd)
        if len(synced) > 1:
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(checkpoint.os, "fsync", fsync)
    keep = tmp_path / "run.checkpoint"
    command = {
        "tournament": TOURNAMENT,
        "knock": ["study", "knock", "--rounds", "30000", "--seats", "2", "--jobs", "1"],
        "calibrate": [*CALIBRATE, "--decisions", "40", "--out", str(tmp_path / "out")],
    }[study]
    r = CliRunner().invoke(main, [*command, "--checkpoint", str(keep)])
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith(
        f"Error: --checkpoint {short(keep)} cannot be written (no space left on device), so "
        "the batch just played is not kept in it; stopped "
    ), r.stderr
    assert "Traceback" not in r.output
    assert len(keep.read_text().splitlines()) >= 2  # (the header and the first batch, kept)
    if study == "tournament":  # (the games counted until then are told)
        assert "table #1" in r.stdout and "Stopped" not in r.stdout
    if study == "calibrate":
        assert (tmp_path / "out" / "summary.json").exists()


def test_a_checkpoint_that_is_not_a_file_is_refused_before_the_run(no_game: None) -> None:
    r = CliRunner().invoke(main, [*TOURNAMENT, "--checkpoint", os.devnull])
    assert r.exit_code == 2
    assert r.stderr == (
        f"Error: --checkpoint {os.devnull}: not a regular file (a checkpoint is a file of its "
        "own)\n"
    )


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
@pytest.mark.parametrize("create", [False, True])
def test_a_folder_where_no_file_can_be_made_is_not_said_missing(create: bool) -> None:
    """/proc exists, but no file can be made in it (the system answers "no such file"): a
    checkpoint or a plot there was "the folder /proc does not exist"; it is said as it is."""
    from thirtyone.paths import problem

    said = problem(Path("/proc/ck.json"), create_folder=create)
    assert said == "no file can be made in the folder /proc", said
