"""Words and screens against the figures (QA round: words): what the terminal says agrees with the
numbers it shows and with the table's words (docs/oracle.md, docs/rules.md, docs/tables.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import thirtyone
from click.testing import CliRunner
from thirtyone.cli.app import main
from thirtyone.oracle import rank, words
from thirtyone.oracle.answer import Advice, OptionAdvice

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
    for preset, said, not_said in (
        ("gin-lives", "the chance of taking no letter in the round", "no life"),
        ("standard", "the chance of losing no life in the round", "letter"),
    ):
        args = ["play", "--no-oracle", "--fast", "--rules", preset, "--seats", "2", "--seed", "3"]
        played = runner.invoke(main, args, input="d\n4\n" * 400)
        assert played.exit_code == 0, played.output
        result = runner.invoke(main, ["review", "--deals", "200", "--playouts", "500"])
        assert result.exit_code == 0, result.output
        total = next(line for line in result.output.splitlines() if "Total cost" in line)
        assert said in total and not_said not in total, total


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


def _three_tied() -> tuple[list[OptionAdvice], list[OptionAdvice]]:
    """Three put-downs tied on safety (within ±2.0 points of the safest, the 2H): the 4D loses
    fewer lives than the 2H beyond their margins (0.40 against 0.52, margins 0.05), so the 2H is
    out (README: "among them the ★ goes to the one that loses the fewest lives on average (a
    difference within the two figures' margins is none), then to the one likeliest to win the
    game"); the 3C loses as few as the 4D within the margins and wins the game more often
    (25.0% against 20.0%): the 3C is the best. It does not lose fewer lives than the 2H beyond
    the margins (0.48 against 0.52), and the 2H wins the game more often than it (30.0%)."""
    safest = OptionAdvice(
        "discard", 0.70, 0.02, 0.52, discard="2H", lives_lost_margin=0.05, p_win=0.30,
        p_win_margin=0.01,
    )  # fmt: skip
    middle = OptionAdvice(
        "discard", 0.69, 0.02, 0.48, discard="3C", lives_lost_margin=0.05, p_win=0.25,
        p_win_margin=0.01,
    )  # fmt: skip
    fewest = OptionAdvice(
        "discard", 0.69, 0.02, 0.40, discard="4D", lives_lost_margin=0.05, p_win=0.20,
        p_win_margin=0.01,
    )  # fmt: skip
    return rank.best_first([safest, middle, fewest], [middle, fewest])


def test_a_best_chosen_after_the_safest_lost_on_lives_says_why() -> None:
    options, tied = _three_tied()
    assert options[0].discard == "3C"  # (the rule of the README, above)
    text = words.reason(options, tied)
    assert (
        "The safest loses more lives on average than to put down the 4D (0.52 against 0.40)" in text
    )
    assert "wins the game more often (25.0% against 20.0%)" in text


def test_the_short_reason_does_not_call_a_lower_game_figure_within_the_margin() -> None:
    """The best's 25.0% to win the game is 5 points below the safest's 30.0%, margin ±1.0: the
    one-line reason may not say the two are within the margin, nor that the best wins more."""
    options, tied = _three_tied()
    best_game = rank.best_for_game(options[0], options[1], False)
    advice = Advice(
        options=options, tied=tied, reason="", deals=1, playouts=1, warnings=[],
        best_game=best_game,
    )  # fmt: skip
    line = words.gist(advice)
    assert "within" not in line, line
    assert "25.0% against 30.0%" not in line, line
    assert "loses more lives than put down 4D (0.52 against 0.40)" in line, line
    assert "wins the game more often (25.0% against 20.0%)" in line, line


def test_the_oracles_table_keeps_its_figures_and_star_below_80_columns() -> None:
    """`thirtyone oracle` fits its report to the terminal (cli.md): at 60 to 77 columns the bar
    squeezed in cut the Safe figures ("96.…") and the ★ off. Each option's row keeps its figures
    whole (as the JSON's `p_safe` to one decimal) and the best its ★; only the bar goes, and a
    long option's label breaks between its words."""
    for width in (60, 70, 77):
        options, rows = oracle_rows(width)
        for row, o in zip(rows, options, strict=True):
            assert f" {words.pct(o['p_safe'])} " in row, (width, row)
            assert "…" not in row and len(row) <= width, (width, row)


def oracle_rows(width: int) -> tuple[list[dict[str, Any]], list[str]]:
    """`thirtyone oracle` on the example state at ``width`` columns: the JSON's options, and the
    table's row of each (in the JSON's order, the best's row starting with its ★)."""
    args = ["oracle", str(DATA / "example_state.json"), "--sweeps", "none", *FAST]
    options = json.loads(CliRunner(env=ENV).invoke(main, [*args, "--json"]).output)["options"]
    result = CliRunner(env={**ENV, "COLUMNS": str(width)}).invoke(main, args)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    rule = next(i for i, line in enumerate(lines) if line.startswith("───"))
    rows = [line for line in lines[rule + 1 :] if "%" in line][: len(options)]
    assert rows[0].startswith("★"), (width, result.output)
    return options, rows


def test_the_reviews_reasons_name_the_players_not_their_seats(tmp_path: Path) -> None:
    """In a game the Oracle's words name the players (oracle.md: "in a game … the warning names
    the player instead"; the reason's lives: "lives: you 2, Alice 2, Ben 3"): the review of that
    game gives each decision's reason with the names of its `players`, not "seat 1"."""
    env = {**ENV, "THIRTYONE_DATA_DIR": str(tmp_path)}
    runner = CliRunner(env=env)
    args = ["play", "--no-oracle", "--fast", "--seats", "3", "--seed", "11"]
    played = runner.invoke(main, args, input="d\n4\n" * 400)
    assert played.exit_code == 0, played.output
    result = runner.invoke(main, ["review", "--json", "--deals", "200", "--playouts", "500"])
    assert result.exit_code == 0, result.output
    decisions = json.loads(result.stdout)["decisions"]
    with_lives = [d for d in decisions if "(lives: you " in d["advice"]["reason"]]
    assert with_lives, "no reason compares the options for the game"
    for d in decisions:
        reason = d["advice"]["reason"]
        assert not re.search(r"\b[Ss]eat \d", reason), reason
    for d in with_lives:
        me = d["state"]["me"]
        for seat, name in enumerate(d["players"]):
            if seat != me:
                assert f"{name} {d['state']['lives'][seat]}" in d["advice"]["reason"]


def test_the_oracles_narrow_table_still_names_each_option() -> None:
    """Below 60 columns the figures' headings ("Lives lost", "Win game") break between their
    words before a figure is cut (ruling 312): below 50 columns the options' names (and below 46
    the ★) were squeezed out altogether, rows of figures that said of no option what they were
    for, and at 50 to 55 the last column, the chance to win the game, was cut or left out."""
    for width in (45, 50, 55):
        options, rows = oracle_rows(width)
        for row, o in zip(rows, options, strict=True):
            safe = words.pct(o["p_safe"])
            assert row[3:].startswith(o["option"]), (width, row)
            assert f" {safe} " in row and "…" not in row and len(row) <= width, (width, row)
            assert row.endswith(f" {words.pct(o['p_win'])}"), (width, row)  # (the last column)
