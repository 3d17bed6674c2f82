"""Figures that are sums of floats are the same on every Python the package supports (ruling
256). Python 3.12's ``sum()`` adds floats with compensation and 3.11's does not, so a figure
added up by ``sum()`` could differ in its last digit between them: the knock atlas's JSON and
the calibration's ``summary.json`` did, for the same seed. ``math.fsum`` is correctly rounded
on every Python. Ten tenths add up to 0.9999999999999999 by 3.11's ``sum()``, to 1.0 by
``math.fsum`` (and by 3.12's ``sum()``): on 3.11 these tests fail with ``sum()``."""

from __future__ import annotations

import math

from thirtyone.study import calibration as cal
from thirtyone.study import calibration_report as reports
from thirtyone.study import game_calibration, knock, review

TENTHS = [0.1] * 10


def test_the_knock_atlas_adds_exactly() -> None:
    best = knock._best([1] * 10, [0.0] * 10, TENTHS, (TENTHS, TENTHS))
    assert best is not None and best["score"] is None  # never knocking: the waits' sum
    assert best["mean"] == 0.1 and best["k2"] == 1.0


def test_the_calibration_adds_exactly() -> None:
    decisions = []
    for i in range(10):
        d = cal.Decision(
            0, 0, 2, 0, i, False, False, "draw", "draw", None, 0.1, 0.1, 0.1, 1, 1, False, 0
        )
        d.safe, d.lost = False, 1
        decisions.append(d)
    (row,) = reports.reliability(decisions)
    assert row.predicted == 0.1 and row.predicted_lives == 0.1
    assert row.z == -1.0 / math.sqrt(math.fsum([0.1 * 0.9] * 10))
    assert reports.calibration(decisions).statistic == 1.0 / math.fsum([0.1 * 0.9] * 10)


def test_the_game_calibration_and_the_review_add_exactly() -> None:
    forecasts = [
        game_calibration.Forecast(i, 0, (3, 3), "draw", 0.1, 0.01, False) for i in range(10)
    ]
    (row,) = game_calibration.reliability(forecasts)
    assert row.forecast == 0.1
    assert review._total(list(TENTHS)) == 1.0
