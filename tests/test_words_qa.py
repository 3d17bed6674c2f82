"""Words and screens against the figures (QA round: words): what the terminal says agrees with the
numbers it shows and with the table's words (docs/oracle.md, docs/rules.md, docs/tables.md)."""

from __future__ import annotations

from pathlib import Path

import thirtyone
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


def test_the_reviews_total_cost_says_p_safe_in_the_tables_unit(tmp_path: Path) -> None:
    """`p_safe` is the chance of losing nothing in the round (oracle.md); under Gin lives what a
    round takes is letters (tables.md): the review's summary says "taking no letter" there, and
    "losing no life" at a table of lives."""
    env = {**ENV, "COLUMNS": "200", "THIRTYONE_DATA_DIR": str(tmp_path)}
    runner = CliRunner(env=env)
    for preset, words, not_words in (
        ("gin-lives", "the chance of taking no letter in the round", "no life"),
        ("standard", "the chance of losing no life in the round", "letter"),
    ):
        args = ["play", "--no-oracle", "--fast", "--rules", preset, "--seats", "2", "--seed", "3"]
        played = runner.invoke(main, args, input="d\n4\n" * 400)
        assert played.exit_code == 0, played.output
        result = runner.invoke(main, ["review", "--deals", "200", "--playouts", "500"])
        assert result.exit_code == 0, result.output
        total = next(line for line in result.output.splitlines() if "Total cost" in line)
        assert words in total and not_words not in total, total


def test_the_games_sentence_names_lives_as_a_table_that_names_them_does() -> None:
    """At the ride-the-bus table the lives are named (tables.md: the back, the middle and the
    front of the bus, then on the stairs, the table's county): the reason's sentence for the
    game lists each seat's lives by those names, as the table's rows do, not as a count and "on
    the county"."""
    state = {
        "rules": "ride-the-bus",
        "seats": 3,
        "me": 0,
        "first": 0,
        "upcard": "4H",
        "hand": ["3C", "KD", "6D"],
        "turns": [],
        "lives": [2, 0, 3],
    }
    advice = thirtyone.advise(state, deals=500, playouts=1500, seed=1, max_time=None)
    assert advice.best_game is not None and advice.best_game is not advice.best, advice.reason
    said = "(lives: you middle of the bus, seat 1 on the stairs, seat 2 back of the bus)"
    assert said in advice.reason
    assert "county" not in advice.reason
