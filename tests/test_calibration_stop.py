"""A Ctrl-C that reaches ``thirtyone calibrate`` once its decisions are scored, while the
report is made or written: docs/cli.md promises that a stopped run's report "covers the
decisions scored until then and is written", with one line saying so and exit status 130. It
was either nothing written ("before the first decision was scored: nothing written", every
decision lost) or the files written but no report printed, and "Stopped by Ctrl-C." alone."""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from thirtyone.cli.app import main
from thirtyone.study import calibration

COMMAND = ["calibrate", "--decisions", "3", "--deals", "20", "--playouts", "20", "--seats", "2"]


@pytest.mark.parametrize("when", ["calibration", "save"])
def test_a_stop_after_the_last_decision_still_writes_and_tells_the_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, when: str
) -> None:
    pytest.importorskip("scipy")
    real = getattr(calibration, when)

    def interrupted(*args: Any) -> Any:
        signal.raise_signal(signal.SIGINT)  # (a Ctrl-C as this step begins)
        return real(*args)

    monkeypatch.setattr(calibration, when, interrupted)
    out = tmp_path / "out"
    # Ctrl-C handled by Python as at a terminal, whatever started the tests (a run in the
    # background ignores SIGINT from its start, and the Ctrl-C above was then lost).
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        r = CliRunner().invoke(main, [*COMMAND, "--out", str(out)])
    finally:
        signal.signal(signal.SIGINT, before)
    assert r.exit_code == 130, r.output
    assert "Traceback" not in r.output
    summary = json.loads((out / "summary.json").read_text())
    decisions = (out / "decisions.jsonl").read_text().splitlines()
    assert len(decisions) == summary["calibration"]["decisions"] >= 3
    assert r.stdout.startswith((out / "report.md").read_text().splitlines()[0])
    assert r.stderr.splitlines()[-1] == (
        f"Stopped by Ctrl-C after {len(decisions)} of 3 decisions: the report covers those; "
        f"written to {out}."
    )
    # A stop while the report was made is the report's; one while its files were written
    # comes after them, which say what they hold: every decision.
    assert summary["stopped"] == ("Ctrl-C" if when == "calibration" else None)
