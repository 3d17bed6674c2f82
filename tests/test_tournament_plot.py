"""``thirtyone tournament --plot FILE``: a PNG of the win rates, or a one-line message naming the
extra to install when matplotlib is missing, before any game is played."""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from thirtyone.cli.app import main
from thirtyone.study import tournament, tournament_plot

PNG = b"\x89PNG\r\n\x1a\n"
GAMES = ["--games", "3", "--players", "table,table:20,table:30", "--jobs", "1"]


def invoke(*args: str) -> Result:
    r = CliRunner().invoke(main, ["tournament", *GAMES, *args])
    assert "Traceback" not in r.output
    return r


def test_the_plot_is_a_png(tmp_path: Path) -> None:
    path = tmp_path / "wins.png"
    r = invoke("--plot", str(path), "--json")
    assert r.exit_code == 0, r.output
    assert path.read_bytes()[:8] == PNG
    assert r.stdout.lstrip().startswith("{")  # the JSON stays alone on standard output
    assert f"Plot: {path}" in r.stderr


def no_game(*args: object) -> None:
    raise AssertionError("a game was played before the plot was found impossible")


def test_without_matplotlib_the_message_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    monkeypatch.setattr(tournament, "play_game", no_game)
    r = invoke("--plot", str(tmp_path / "wins.png"))
    assert r.exit_code == 2
    assert r.output.strip() == "Error: --plot needs matplotlib: pip install 'thirtyone[plot]'"
    assert not (tmp_path / "wins.png").exists()


@pytest.mark.parametrize("where", ["folder", "missing"])
def test_a_plot_that_cannot_be_written_is_refused_before_the_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    monkeypatch.setattr(tournament, "play_game", no_game)
    path = tmp_path if where == "folder" else tmp_path / "no" / "wins.png"
    r = invoke("--plot", str(path))
    assert r.exit_code == 2 and r.output.startswith("Error: --plot")
    assert len(r.output.strip().splitlines()) == 1


def test_the_plot_module_says_the_same_without_matplotlib(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ValueError, match=r"pip install 'thirtyone\[plot\]'"):
        tournament_plot.check(Path("wins.png"))


def test_a_ctrl_c_while_the_plot_is_written_still_names_the_plot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Ctrl-C while the plot of a finished run is written waits for the plot: the file is
    written, so "Plot: FILE" says where, then the stop is told (exit 130). The line was lost:
    the stop, raised when the plot was done, came before it (QA round: terminal)."""
    save = tournament_plot.save

    def save_after_a_ctrl_c(*args: Any) -> None:
        signal.raise_signal(signal.SIGINT)  # (a Ctrl-C as the plot begins)
        save(*args)

    monkeypatch.setattr(tournament_plot, "save", save_after_a_ctrl_c)
    path = tmp_path / "wins.png"
    # Ctrl-C handled by Python, as at a terminal (a test worker may have it ignored, and the
    # command then leaves it so).
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        r = invoke("--plot", str(path))
    finally:
        signal.signal(signal.SIGINT, before)
    assert path.read_bytes()[:8] == PNG
    assert f"Plot: {path}" in r.stderr
    assert r.exit_code == 130
    assert r.stderr.strip().splitlines()[-1] == "Stopped by Ctrl-C."
