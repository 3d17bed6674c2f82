"""The calibration of p_win: one decision per game, the rest played by the table's rule."""

from __future__ import annotations

from thirtyone.study import game_calibration as gc


def test_a_small_run_is_reproducible_and_its_bins_add_up() -> None:
    settings = gc.Settings(forecasts=6, deals=100, playouts=1_000, seed=3)
    forecasts, games = gc.run(settings)
    again, _ = gc.run(settings)
    assert forecasts == again
    assert len(forecasts) == 6 and games >= 6
    for f in forecasts:
        assert 0.0 <= f.p_win <= 1.0 and 1 <= f.round <= gc.LAST_ASK_ROUND
        assert len(f.lives) >= 2 and all(n >= 1 for n in f.lives)
    bins = gc.reliability(forecasts)
    assert sum(b.count for b in bins) == 6
    for b in bins:
        assert b.low <= b.forecast <= b.high and b.ci[0] <= b.won <= b.ci[1]


def test_a_seat_that_cannot_lose_the_game_is_forecast_to_win_it() -> None:
    """Forecasts of 1 and 0 are certainties: a seat forecast to win surely did."""
    settings = gc.Settings(forecasts=30, deals=100, playouts=1_000, seed=5)
    forecasts, _ = gc.run(settings)
    for f in forecasts:
        if f.p_win == 1.0:
            assert f.won
        if f.p_win == 0.0:
            assert not f.won
