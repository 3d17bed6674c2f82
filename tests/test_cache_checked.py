"""The round results behind the game-level figures are checked before they are trusted (README,
"Nothing is lost"; ``oracle.md``, "Game-level figures"): a cache file that is damaged, is not a
regular file, or is larger than any table's results is ignored, named in the answer's warnings
and made again over it, and the answer is the one a sound cache gives.

Each question runs in a process of its own: a process reads a table's results once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from thirtyone.oracle import ROUND_RESULTS

STATE = Path(__file__).parent / "data" / "example_state.json"
# The example (the standard preset, four seats with lives), for the game, with no time limit.
ASK = (
    "import json, sys, thirtyone\n"
    "state = json.loads(open(sys.argv[1]).read())\n"
    "a = thirtyone.advise(state, objective='game', seed=7, deals=200, playouts=1000, threads=2,"
    " max_time=None)\n"
    "print(json.dumps({'options': [[o.option, o.p_safe, o.p_win, o.p_win_margin]"
    " for o in a.options], 'warnings': a.warnings}))\n"
)


def _ask(data: Path) -> dict[str, Any]:
    """The example's answer with ``data`` as the data folder (a generous guard for a hang)."""
    env = dict(os.environ, THIRTYONE_DATA_DIR=str(data))
    done = subprocess.run(
        [sys.executable, "-c", ASK, str(STATE)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


@pytest.fixture(scope="module")
def sound(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The answer from a data folder with no cache (the package's results)."""
    answer = _ask(tmp_path_factory.mktemp("sound"))
    assert answer["warnings"] == []
    return answer


def _edit(change: Callable[[dict[str, Any]], None]) -> Callable[[Path, Path], None]:
    def damage(shipped: Path, target: Path) -> None:
        file = json.loads(shipped.read_text())
        change(file)
        target.write_text(json.dumps(file))

    return damage


def _set_first_count(value: int) -> Callable[[dict[str, Any]], None]:
    def change(file: dict[str, Any]) -> None:
        file["results"][0][2] = value

    return change


def _one_more(file: dict[str, Any]) -> None:
    file["results"][0][2] += 1


def _truncated(shipped: Path, target: Path) -> None:
    data = shipped.read_bytes()
    target.write_bytes(data[: len(data) // 2])


def _other_seats(shipped: Path, target: Path) -> None:
    target.write_bytes(shipped.with_name(shipped.name.replace("-4.json", "-3.json")).read_bytes())


def _huge(shipped: Path, target: Path) -> None:
    with target.open("wb") as f:
        f.truncate(1 << 32)  # sparse: no disk used


def _pipe(shipped: Path, target: Path) -> None:
    os.mkfifo(target)


def _folder(shipped: Path, target: Path) -> None:
    target.mkdir()


DAMAGES = [
    pytest.param(_edit(lambda f: f.update(results=[])), "add up to 0", id="empty results"),
    pytest.param(_edit(_one_more), "add up to 400001", id="one count changed"),
    pytest.param(_edit(_set_first_count(2**64 - 1)), "add up past", id="a count of 2^64-1"),
    pytest.param(_truncated, "not a results file", id="truncated"),
    pytest.param(_other_seats, "other rules, seats or placing", id="other seats"),
    pytest.param(_huge, "4294967296 bytes, more than", id="huge"),
    pytest.param(_pipe, "not a regular file", id="pipe", marks=pytest.mark.posix_only),
]


def _damaged_cache(tmp_path: Path, damage: Callable[[Path, Path], None]) -> Path:
    """A data folder whose cache holds each preset's four-seat results, damaged."""
    cache = tmp_path / "cache"
    cache.mkdir()
    shipped = sorted(ROUND_RESULTS.glob("round-results-*-4.json"))
    assert len(shipped) == 5  # one per preset
    for file in shipped:
        damage(file, cache / file.name)
    return cache


@pytest.mark.parametrize(("damage", "why"), DAMAGES)
def test_a_damaged_cache_file_is_ignored_reported_and_made_again(
    tmp_path: Path, sound: dict[str, Any], damage: Callable[[Path, Path], None], why: str
) -> None:
    cache = _damaged_cache(tmp_path, damage)
    answer = _ask(tmp_path)
    # The answer a sound cache gives, to the last digit; every chance a chance.
    assert answer["options"] == sound["options"]
    assert all(0.0 <= o[2] <= 1.0 for o in answer["options"])
    # One warning, naming the file and what is wrong with it.
    [warning] = answer["warnings"]
    assert why in warning and "ignored and made again" in warning, warning
    [used] = [p for p in cache.iterdir() if str(p) in warning]
    # Made again over it: now the sound file (the package's), and a later question is quiet.
    assert used.is_file() and used.read_bytes() == (ROUND_RESULTS / used.name).read_bytes()
    assert _ask(tmp_path) == sound


def test_a_folder_in_a_cache_files_place_is_ignored_and_left_alone(
    tmp_path: Path, sound: dict[str, Any]
) -> None:
    cache = _damaged_cache(tmp_path, _folder)
    answer = _ask(tmp_path)
    assert answer["options"] == sound["options"]
    [warning] = answer["warnings"]
    assert "not a regular file" in warning, warning
    assert all(p.is_dir() for p in cache.iterdir())
