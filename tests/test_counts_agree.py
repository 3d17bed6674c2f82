"""Counts and units that agree (issue 27, item 8): a game has as many decisions in `thirtyone
stats` (and the end of the game) as in `thirtyone review`, a take and the put-down after it
being two in both, and every cost in text is in percentage points."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from thirtyone.cli.app import main
from thirtyone.oracle.answer import Advice

SMALL = ["--oracle-deals", "200", "--oracle-playouts", "1000", "--fast"]


@pytest.fixture(autouse=True)
def _whole_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    import thirtyone.oracle.query

    real = thirtyone.oracle.query.advise

    def whole(*args: Any, **kwargs: Any) -> Advice:
        return real(*args, **{**kwargs, "max_time": None})

    monkeypatch.setattr(thirtyone.oracle.query, "advise", whole)


def run(args: list[str], data: Path, keys: str | None = None) -> Result:
    env = {"COLUMNS": "100", "NO_COLOR": "1", "THIRTYONE_DATA_DIR": str(data)}
    result = CliRunner(env=env).invoke(main, args, input=keys)
    assert result.exit_code == 0, result.output
    return result


def test_stats_and_review_count_the_same_decisions(tmp_path: Path) -> None:
    # Take the top discard and put down the first card, or else draw and put down the first:
    # every turn is two decisions.
    keys = "t\n1\nd\n1\n" * 200
    played = run(["play", "--seed", "4", "--seats", "3", "--lives", "1", *SMALL], tmp_path, keys)
    ended = re.search(
        r"You played the Oracle's best in (\d+) of (\d+) advised decisions \(\d+\.\d%\), "
        r"mean cost \d+\.\d points of your chance of losing nothing in the round \(p_safe\)\.",
        played.output,
    )
    assert ended is not None, played.output
    stats = json.loads(run(["stats", "--json"], tmp_path).output)["decisions"]["you"]
    review = json.loads(
        run(["review", "--json", "--deals", "200", "--playouts", "1000"], tmp_path).output
    )
    decisions = review["decisions"]
    starts = [d for d in decisions if d["step"] == "start"]
    takes = [d for d in starts if d["choice"] == "take"]
    assert takes and len(decisions) == 2 * len(starts)  # every take has its put-down
    assert stats["decisions"] == review["summary"]["decisions"] == len(decisions)
    assert int(ended.group(2)) == stats["advised"] == len(decisions)
    text = run(["review", "--deals", "200", "--playouts", "1000"], tmp_path).output
    assert f"You: {len(decisions)} decisions in {len(starts)} turns" in text
    assert "as thirtyone stats counts them" in text
    stats_text = run(["stats"], tmp_path).output
    assert re.search(r"mean cost \d+\.\d points of p_safe", stats_text), stats_text
    assert "in p_safe" not in stats_text and "0.0" not in stats_text.split("mean cost")[1][:4]


def test_the_end_of_a_game_says_its_agreement_is_over_the_record() -> None:
    """Ruling 310: the line under "Your record: 2 games" counts the decisions of every game of
    the record, 19 of 26 after a game whose review counted 18; it says so."""
    from thirtyone.game.rules import Rules
    from thirtyone.store.record import Decision, GameRecord
    from thirtyone.store.summary import record_lines

    def game(decisions: list[Decision]) -> GameRecord:
        return GameRecord(
            "2025-01-31T18:04:00+00:00",
            "standard",
            Rules.standard().to_dict(),
            ["You", "Alice", "Ben"],
            0,
            [1, 2, 0],
            None,
            3,
            "table",
            False,
            1,
            decisions,
        )

    best = Decision(1, "draw", "draw", 0.0)
    worse = Decision(1, "knock", "draw", 0.4)
    one = record_lines([game([best, worse])])
    assert one[1].startswith("You played the Oracle's best in 1 of 2 advised decisions (50.0%)")
    two = record_lines([game([best, worse]), game([best, best, best])])
    assert two[0].startswith("Your record: 2 games, ")
    assert two[1].startswith(
        "Over your 2 games, you played the Oracle's best in 4 of 5 advised decisions (80.0%)"
    )
