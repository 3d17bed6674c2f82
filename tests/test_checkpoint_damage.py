"""A checkpoint read back (``--checkpoint``): a file that is not one, or a line that is not one
of the study's batches, is one line ``Error: …`` and exit status 2 before the first game, never
a traceback nor results counted from it; a last line cut short (the run killed while writing
it) is ignored, and stays so however often the run is resumed (docs/cluster.md, "Progress,
stopping, resuming")."""

from __future__ import annotations

import json
import os
import weakref
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from thirtyone.cli.app import main
from thirtyone.study import calibration, knock, tournament

TOURNAMENT = ["tournament", "--games", "4", "--players", "table,table:20,table:24", "--jobs", "1"]
KNOCK = ["study", "knock", "--rounds", "100", "--seats", "2", "--jobs", "1", "--json"]
CALIBRATE = ["calibrate", "--decisions", "2", "--deals", "20", "--playouts", "20", "--seats", "2"]


def invoke(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args))
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert "Traceback" not in r.output
    return r.exit_code, r.stdout, r.stderr


def written(tmp_path: Path, command: list[str]) -> list[str]:
    """The lines of the checkpoint a whole run of ``command`` writes."""
    keep = tmp_path / "whole.checkpoint"
    code, _, err = invoke(*command, "--checkpoint", str(keep))
    assert code == 0, err
    return keep.read_text().splitlines()


def no_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on a game or a batch played fails the test: a refusal comes before the
    first."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("played before the checkpoint was refused")

    monkeypatch.setattr(tournament, "play_game", refuse)
    monkeypatch.setattr(calibration, "play_game", refuse)
    monkeypatch.setattr(knock, "_batch", refuse)


def refused(command: list[str], keep: Path, line: int) -> None:
    code, out, err = invoke(*command, "--checkpoint", keep.name)  # (in the current folder)
    assert code == 2 and out == ""
    assert err == f"Error: --checkpoint {keep.name}: line {line} is damaged\n"


def test_a_file_of_bytes_that_are_not_text_is_not_a_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (It was a UnicodeDecodeError's traceback, exit status 1.)
    no_game(monkeypatch)
    monkeypatch.chdir(tmp_path)
    Path("ck").write_bytes(b"\x00\xff\xfe{}\n")
    code, out, err = invoke(*TOURNAMENT, "--checkpoint", "ck")
    assert (code, out) == (2, "")
    assert err == "Error: --checkpoint ck: not a thirtyone checkpoint file\n"


def game(seats: int = 3, place: Any = 1) -> list[dict[str, Any]]:
    """One game's results as a tournament's checkpoint line holds them."""
    one = {"place": place, "rounds": 2, "lives_lost": 1, "knocks": 1, "caught": 0}
    return [{**one, "forecasts": []} for _ in range(seats)]


@pytest.mark.parametrize(
    "entry",
    [
        {"batch": 4, "result": [game()]},  # (a batch the study has not: games 0 to 3)
        {"batch": -1, "result": [game()]},
        {"batch": 0.5, "result": [game()]},
        {"batch": True, "result": [game()]},
        {"batch": 1e300, "result": [game()]},
        {"batch": 0, "result": []},  # (a batch without its game)
        {"batch": 0, "result": [game(), game()]},  # (a batch of one game)
        {"batch": 0, "result": [game(seats=2)]},  # (three players)
        {"batch": 0, "result": [game(place=4)]},
        {"batch": 0, "result": [game(place="1")]},
        {"batch": 0, "result": [[{"place": 1}] * 3]},
    ],
)
def test_a_line_that_is_not_a_batch_of_the_tournament_is_damaged(
    tmp_path: Path, entry: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # (Each was counted, or a traceback: a batch out of range said "resuming: 1 of 4 games", an
    # empty one left a game out of the results, one of two players was a zip()'s ValueError.)
    head = written(tmp_path, TOURNAMENT)[0]
    no_game(monkeypatch)
    monkeypatch.chdir(tmp_path)
    keep = tmp_path / "ck"
    after = json.dumps({"batch": 1, "result": [game()]})  # (so the damaged line is not last)
    keep.write_text(f"{head}\n{json.dumps(entry)}\n{after}\n")
    refused(TOURNAMENT, keep, 2)


def test_a_line_that_is_not_a_batch_of_the_atlas_is_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = written(tmp_path, KNOCK)
    part = json.loads(lines[1])["result"]
    no_game(monkeypatch)
    monkeypatch.chdir(tmp_path)
    keep = tmp_path / "ck"
    for result in ({}, [], {**part, "n": part["n"][1:]}, {**part, "n": [-1] * len(part["n"])}):
        keep.write_text(f"{lines[0]}\n{json.dumps({'batch': 0, 'result': result})}\n{lines[2]}\n")
        refused(KNOCK, keep, 2)


def test_a_line_that_is_not_a_game_of_the_calibration_is_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("scipy")
    command = [*CALIBRATE, "--out", str(tmp_path / "out")]
    lines = written(tmp_path, command)
    decision = json.loads(lines[1])["result"][0]
    no_game(monkeypatch)
    monkeypatch.chdir(tmp_path)
    keep = tmp_path / "ck"
    for result in ([{**decision, "p_safe": "high"}], [{**decision, "game": 7}], [1]):
        keep.write_text(f"{lines[0]}\n{json.dumps({'batch': 0, 'result': result})}\n{lines[1]}\n")
        refused(command, keep, 2)


def test_a_line_cut_short_stays_ignored_when_resumed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The run was killed while writing its second batch; resumed, it plays the rest. The same
    # command given the finished file again prints the same results without playing a game:
    # the line cut short was left between the others, "line 3 is damaged".
    lines = written(tmp_path, [*TOURNAMENT, "--json"])
    _, whole, _ = invoke(*TOURNAMENT, "--json")
    monkeypatch.chdir(tmp_path)
    keep = tmp_path / "ck"
    keep.write_text(f"{lines[0]}\n{lines[1]}\n{lines[2][:30]}")
    code, out, err = invoke(*TOURNAMENT, "--json", "--checkpoint", "ck")
    assert (code, out) == (0, whole) and "resuming: 1 of 4 games from ck" in err

    def refuse(*args: object) -> None:
        raise AssertionError("a game played again")

    monkeypatch.setattr(tournament, "play_game", refuse)
    code, out, err = invoke(*TOURNAMENT, "--json", "--checkpoint", "ck")
    assert (code, out) == (0, whole), err
    assert "resuming: 4 of 4 games from ck" in err


def test_a_checkpoint_file_that_cannot_be_written_is_refused_before_the_first_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # docs/cluster.md: a checkpoint "that cannot be written" is one line before any game. A file
    # made read-only in a folder that can be written was found so after the first batch: played,
    # then "cannot be written (the folder … cannot be written …)".
    lines = written(tmp_path, TOURNAMENT)
    monkeypatch.chdir(tmp_path)
    keep = Path("ck")
    keep.write_text(f"{lines[0]}\n{lines[1]}\n")  # (a run stopped after one game)
    keep.chmod(0o444)
    if os.geteuid() == 0:  # (root writes a read-only file: the refusal is simulated)
        real = os.open

        def refusing(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
            if Path(path).name == "ck" and flags & (os.O_WRONLY | os.O_RDWR):
                raise PermissionError(13, "Permission denied", str(path))
            return real(path, flags, *args, **kwargs)

        monkeypatch.setattr(os, "open", refusing)
    no_game(monkeypatch)
    code, out, err = invoke(*TOURNAMENT, "--checkpoint", "ck")
    assert (code, out) == (2, "")
    assert err == "Error: --checkpoint ck: the file cannot be written (permission denied)\n"


class _Part(list[int]):
    """A kept batch as read back (weakly referenced: whether it is still held)."""


def test_a_resumed_run_holds_one_kept_batch_at_a_time(tmp_path: Path) -> None:
    # A resumed study held every kept batch decoded until its turn: 340 MB for the default
    # atlas (640 batches), tens of gigabytes at --rounds 100,000,000. They are read from the
    # file as they are counted.
    from thirtyone.study.backend.cluster import Backend, batches

    made: list[weakref.ref[_Part]] = []

    def decode(index: int, data: Any) -> _Part:
        part = _Part(data)
        made.append(weakref.ref(part))
        return part

    backend = Backend(checkpoint=tmp_path / "ck")
    codec = (list, decode)
    header = {"study": "test", "settings": {}, "batch": 1}
    first = batches(lambda i: [i, i * i], range(50), backend, codec, header, count=50)
    assert list(first) == [[i, i * i] for i in range(50)]

    def refuse(i: int) -> list[int]:
        raise AssertionError("a kept batch played again")

    held = []
    for index, part in enumerate(batches(refuse, range(50), backend, codec, header, count=50)):
        assert part == [index, index * index]
        held.append(sum(1 for ref in made if ref() is not None))
        del part
    assert max(held) <= 2, held


def test_a_calibration_keeps_its_checkpoint_in_its_out_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # --out is "made if missing"; a checkpoint named in it was refused first: "the folder
    # results does not exist".
    pytest.importorskip("scipy")
    monkeypatch.chdir(tmp_path)
    command = [*CALIBRATE, "--out", "results", "--checkpoint", "results/ck"]
    code, _, err = invoke(*command)
    assert code == 0, err
    assert Path("results/ck").read_text().startswith('{"batch": 1, "format": "thirtyone-')
    code, _, err = invoke(*command)
    assert code == 0 and err.startswith("resuming: 1 game from results/ck\n"), err


def test_a_checkpoint_that_the_results_would_overwrite_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Written over at the end, the checkpoint was lost: the same command given it again said
    # "not a thirtyone checkpoint file".
    pytest.importorskip("scipy")
    pytest.importorskip("matplotlib")
    no_game(monkeypatch)
    monkeypatch.chdir(tmp_path)
    code, out, err = invoke(*TOURNAMENT, "--checkpoint", "wins.png", "--plot", "./wins.png")
    assert (code, out) == (2, "")
    assert err == "Error: --checkpoint and --plot name the same file, wins.png; name another\n"
    code, out, err = invoke(*CALIBRATE, "--out", "cal", "--checkpoint", "cal/summary.json")
    assert (code, out) == (2, "")
    assert err == "Error: --checkpoint cal/summary.json is a file --out writes; name another\n"
    assert not Path("wins.png").exists()


def test_a_checkpoint_linked_to_a_missing_folder_is_refused_before_the_first_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The link's own folder was tried: the run played its first batch, then "cannot be written
    # (no such file or directory: ck)".
    no_game(monkeypatch)
    monkeypatch.chdir(tmp_path)
    Path("ck").symlink_to(tmp_path / "gone" / "ck")
    code, out, err = invoke(*TOURNAMENT, "--checkpoint", "ck")
    assert (code, out) == (2, "")
    assert err == f"Error: --checkpoint ck: the folder {tmp_path / 'gone'} does not exist\n"


def test_no_more_processes_than_batches_left(tmp_path: Path) -> None:
    """`--jobs 64` for a study of two batches started 64 processes; as many as the batches
    left to play are started (two; one, this process, when a checkpoint holds the other)."""
    from thirtyone.study.backend.cluster import Backend, batches

    sizes: list[int] = []
    backend = Backend(jobs=8, checkpoint=tmp_path / "ck")
    codec = (int, lambda index, data: int(data))
    header = {"study": "test", "settings": {}, "batch": 1}
    assert list(batches(abs, [-1], backend, codec, header, sizes.append, count=2)) == [1]
    assert sizes == [2]
    done = list(batches(abs, [-1, -2], backend, codec, header, sizes.append, count=2))
    assert done == [1, 2] and sizes == [2, 1]
