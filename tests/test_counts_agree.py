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
