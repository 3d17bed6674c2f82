"""Words and screens against the figures (QA round: words): what the terminal says agrees with the
numbers it shows and with the table's words (docs/oracle.md, docs/rules.md, docs/tables.md)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from thirtyone.cli.app import main

ENV = {"COLUMNS": "100", "NO_COLOR": "1"}
DATA = Path(__file__).parent / "data"
FAST = ["--seed", "1", "--deals", "500", "--playouts", "1000", "--max-time", "0"]


def test_the_sweep_chart_counts_letters_under_gin_lives() -> None:
    """Under Gin lives what a round costs is letters (oracle.md: `lives_lost`, "letters under Gin
    lives"; the options' table heads its column "Letters lost"): the sweep chart's column of the
    same figure says so too, not "Lives"."""
    state = str(DATA / "example_state.json")
    args = ["oracle", state, "--rules", "gin-lives", "--sweeps", "all", *FAST]
    result = CliRunner(env=ENV).invoke(main, args)
    assert result.exit_code == 0, result.output
    heads = [line.split() for line in result.output.splitlines() if "Knock at" in line]
    charts = [h for h in heads if h[:2] == ["Knock", "at"]]  # (the sweep charts' headers)
    assert charts, result.output
    for head in charts:
        assert head[-2:] == ["Safe", "Letters"], head
    assert "Letters lost" in result.output
    assert "Lives" not in result.output
