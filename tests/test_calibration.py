"""Calibration against real play, small: the Oracle's predictions must match what happens.

A few hundred decisions in games played by the game loop (``thirtyone.study.calibration``), at low
precision. The bound that fails when calibration breaks: for every option kind with enough
decisions, the realized number of rounds with no life lost is within 4 standard errors of the sum
of the predicted ``p_safe`` (and the same for lives lost), the chi-square over the reliability
bins has p >= 0.001, and the rank of the true opponent score among the sampled consistent deals
is uniform (p >= 0.001). A knock whose predicted ``p_safe`` is shifted by +0.15 (planted through
the advisor hook) must break the bound.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from thirtyone import statistics as stats
from thirtyone.study import calibration as cal
from thirtyone.study import calibration_report as reports

#: No time limit: every answer is the whole of its work, on every machine, however busy.
SMALL = cal.Settings(
    decisions=800, seed=7, deals=200, playouts=500, seats=(2, 3, 4), rank_deals=100, max_time=None
)
Z_MAX = 4.0
P_MIN = 0.001
MIN_COUNT = 50


def problems(report: cal.Report) -> list[str]:
    """What is wrong with a run's calibration (empty: within the bounds)."""
    out = []
    c = report.calibration
    if c.p_value < P_MIN:
        out.append(f"reliability chi-square {c.statistic:.1f} on {c.df} df, p = {c.p_value:.2g}")
    kinds = {"all": c.overall, **c.by_option}
    decisions = report.decisions
    for kind, row in kinds.items():
        if row.count < MIN_COUNT:
            continue
        if abs(row.z) > Z_MAX:
            out.append(
                f"{kind}: {row.count} decisions, predicted p_safe {row.predicted:.3f}, "
                f"realized {row.realized:.3f} (z = {row.z:+.1f})"
            )
        ds = [d for d in decisions if kind == "all" or d.kind == kind]
        lost = [float(d.lost or 0) for d in ds]
        mean = sum(lost) / len(lost)
        sd = math.sqrt(sum((x - mean) ** 2 for x in lost) / (len(lost) - 1))
        z_lives = (mean - row.predicted_lives) / (sd / math.sqrt(len(lost)))
        if abs(z_lives) > Z_MAX:
            out.append(
                f"{kind}: predicted lives lost {row.predicted_lives:.3f}, realized {mean:.3f} "
                f"(z = {z_lives:+.1f})"
            )
    r = report.ranks
    if r.decisions and min(r.chi2_p, r.ks_p) < P_MIN:
        out.append(
            f"rank of the true opponent score: chi-square p {r.chi2_p:.2g}, KS p {r.ks_p:.2g}"
        )
    return out


@pytest.fixture(scope="module")
def honest() -> cal.Report:
    return cal.calibrate(SMALL)


def test_honest_run_is_calibrated(honest: cal.Report) -> None:
    assert len(honest.decisions) == SMALL.decisions
    for d in honest.decisions:
        assert d.safe is not None and d.lost is not None
        assert d.safe == (d.lost == 0)
        assert 0 <= d.p_safe <= 1 and d.lost in (0, 1, 2)
        assert 0 <= d.rank <= d.rank_n == SMALL.rank_deals
        assert d.rank_less <= d.rank <= d.rank_less + d.rank_equal
        assert d.warnings == 0
    kinds = {d.kind for d in honest.decisions}
    assert {"knock", "draw", "take", "discard"} <= kinds
    assert any(d.after_knock for d in honest.decisions)
    assert problems(honest) == []


def test_a_planted_knock_bias_is_caught() -> None:
    biased = cal.shifted(cal.oracle_advisor, "knock", 0.15)
    report = cal.calibrate(
        dataclasses.replace(SMALL, rank_deals=0),
        advisor=biased,
    )
    found = problems(report)
    assert any(p.startswith("knock:") for p in found), found


def test_the_run_is_reproducible_and_follows_the_advice() -> None:
    settings = cal.Settings(
        decisions=40, seed=3, deals=100, playouts=200, seats=(3,), max_time=None
    )
    asked: list[tuple[int, str]] = []

    def recording(state, *, deals, playouts, seed, threads, max_time):  # type: ignore[no-untyped-def]
        advice = cal.oracle_advisor(
            state, deals=deals, playouts=playouts, seed=seed, threads=threads, max_time=max_time
        )
        asked.append((len(state["turns"]), advice.best.option))
        return advice

    table = cal._Table(0, settings, recording)
    decisions = table.play_game()
    assert decisions and len(asked) == len(decisions)
    # Each round's whole turns, as the game told them (round seats by the round's seat order).
    seats = {e.round: e.data["seats"] for e in table.game.events if e.kind == "deal"}
    turns: dict[int, list[dict[str, object]]] = {}
    for e in table.game.events:
        if e.kind == "turn":
            turns.setdefault(e.round, []).append(e.data)
    for d in decisions:
        me = seats[d.round][d.me]
        rec = turns[d.round][d.turn]
        assert rec["seat"] == me
        if d.option == "knock":
            assert rec["action"] == "knock"
        elif d.option == "draw":
            assert rec["action"] == "draw" and not d.pending
        elif d.option == "take":
            assert rec["action"] == "take"
        elif d.option.startswith("discard:"):
            assert d.pending and rec["action"] == "draw"
            assert rec["discard"] == d.option.split(":", 1)[1]
        if d.knock_at is None:  # never knocks later in the round
            later = turns[d.round][d.turn + 1 :]
            assert not any(r["action"] == "knock" for r in later if r["seat"] == me)
    again = cal.play_game(0, settings, recording)
    assert [(d.option, d.p_safe, d.safe, d.rank) for d in again] == [
        (d.option, d.p_safe, d.safe, d.rank) for d in decisions
    ]


def test_statistics_against_known_values() -> None:
    assert stats.chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, abs=1e-9)
    assert stats.chi2_sf(16.918977604620448, 9) == pytest.approx(0.05, abs=1e-9)
    # even degrees of freedom: a Poisson sum
    lam = 50.0
    poisson = sum(math.exp(-lam + i * math.log(lam) - math.lgamma(i + 1)) for i in range(40))
    assert stats.chi2_sf(100.0, 80) == pytest.approx(poisson, rel=1e-9)
    assert stats.kolmogorov_sf(1.3580986393225505) == pytest.approx(0.05, abs=1e-6)
    lo, hi = stats.wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    rng = random.Random(1)
    uniform = [rng.random() for _ in range(2000)]
    assert stats.ks_uniform(uniform)[1] > 0.01
    assert stats.ks_uniform([u * u for u in uniform])[1] < 1e-6
    same = stats.chi2_two_sample(
        [rng.choice([1, 2, 3]) for _ in range(500)], [rng.choice([1, 2, 3]) for _ in range(700)]
    )
    assert same[2] > 0.001
    skewed = stats.chi2_two_sample(
        [rng.choice([1, 2, 3]) for _ in range(500)], [rng.choice([1, 1, 2, 3]) for _ in range(700)]
    )
    assert skewed[2] < 0.001


def test_rank_check_catches_a_wrong_posterior() -> None:
    rng = random.Random(2)
    good = []
    for _ in range(1000):
        d = cal.Decision(
            0, 0, 2, 0, 0, False, False, "draw", "draw", None, 0.5, 0.1, 0.5, 1, 1, False, 0
        )
        d.rank_n = 100
        d.rank_u = rng.random()
        good.append(d)
    assert reports.rank_uniformity(good).chi2_p > 0.001
    for d in good:  # a sampler whose scores run too high puts the truth low
        d.rank_u = d.rank_u**1.5
    assert reports.rank_uniformity(good).chi2_p < 0.001


def test_parse_seats() -> None:
    assert cal.parse_seats("4") == (4,)
    assert cal.parse_seats("2-4,6") == (2, 3, 4, 6)
    for bad in ("1", "2-10", "x", "", "2-", "-4", "4,", "2--3", "\u0663"):
        with pytest.raises(ValueError, match="seats must be"):
            cal.parse_seats(bad)
    # A range given backwards is named as such (it read "must be 2 to 9" of two seat counts
    # that are both 2 to 9).
    with pytest.raises(ValueError, match='from the fewer to the more, not "4-2"'):
        cal.parse_seats("4-2")


def test_the_interval_holds_the_observed_share_however_few_the_decisions() -> None:
    # All safe or none safe in a handful of decisions: rounding once put the Wilson interval a
    # hair beside the share, and the plot of a calibration stopped early failed on it.
    for n in range(1, 400):
        for k in range(n + 1):
            lo, hi = stats.wilson(k, n)
            assert lo <= k / n <= hi, (k, n)


def test_a_few_decisions_are_plotted(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    decisions = []
    # Ten all safe in the top bin, seven all lost in the bottom one: shares of exactly 1 and 0.
    for i, p in enumerate(
        [0.95, 0.97, 0.99, 0.98, 0.96, 0.93, 0.91, 0.97, 0.92, 0.94] + [0.05] * 7
    ):
        d = cal.Decision(
            0, 0, 2, 0, i, False, False, "draw", "draw", None, p, 0.1, 0.5, 1, 1, False, 0
        )
        d.safe, d.lost = p > 0.5, 0 if p > 0.5 else 1
        decisions.append(d)
    path = tmp_path / "reliability.png"
    drawn = reports.save_plot(
        reports.calibration(decisions), reports.rank_uniformity(decisions), path
    )
    assert drawn and path.stat().st_size > 0


def test_the_screen_asks_again_what_it_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``benches/screen_calibration.py``: a build asked again at the kept queries predicts each
    exactly as recorded (the same state and seed, no time limit), so a screened change is the
    only difference between a recording and its score."""
    monkeypatch.syspath_prepend(str(Path(__file__).parent.parent / "benches"))
    import screen_calibration as screen

    kept = tmp_path / "kept.jsonl"
    screen.record("table", 5, 3, kept, workers=1)
    rows = kept.read_text().splitlines()
    assert len(rows) >= 5
    assert screen.score(kept, workers=1) == len(rows)


def test_the_reports_head_names_the_seats_of_the_games_played(honest: cal.Report) -> None:
    """The games take the settings' seats in turn: two games of a (2, 3, 4, 5, 6) run were of
    2 and 3 seats, and the head says those (it had listed every seat count of the settings);
    its counts have thousands separated as the progress line has them."""
    wide = dataclasses.replace(honest.settings, seats=(2, 3, 4, 5, 6), deals=2_000)
    head = dataclasses.replace(honest, settings=wide, games=2).text().splitlines()[0]
    assert f"seats 2, 3, {wide.lives} lives" in head
    assert "Oracle at 2,000 deals" in head
    every = dataclasses.replace(honest, settings=wide, games=7).text().splitlines()[0]
    assert "seats 2, 3, 4, 5, 6," in every


def _calibrate(tmp_path: Path, out: str, *more: str) -> tuple[str, str, dict[str, Any]]:
    """``thirtyone calibrate`` at a tiny budget, no time limit: its output, error and summary."""
    from click.testing import CliRunner
    from thirtyone.cli.app import main

    command = ["calibrate", "--decisions", "12", "--deals", "40", "--playouts", "100"]
    command += ["--seats", "2", "--out", str(tmp_path / out), *more]
    r = CliRunner().invoke(main, command)
    assert r.exit_code == 0, r.output
    summary = json.loads((tmp_path / out / "summary.json").read_text())
    return r.stdout, r.stderr, summary


def test_a_short_runs_time_is_said_in_tenths() -> None:
    """A run of a few decisions took well under a second and said "0 s"; under ten seconds the
    time is given in tenths, from ten on in whole seconds."""
    assert reports.seconds_text(0.42) == "0.4 s"
    assert reports.seconds_text(2.0) == "2.0 s"
    assert reports.seconds_text(9.96) == "10 s"
    assert reports.seconds_text(12.3) == "12 s"


def test_a_resumed_calibration_says_so_and_times_only_the_decisions_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (The resumed games' decisions were timed as if played in no time: "0 s (0.0 ms per
    # decision)" for a run read wholly from its checkpoint.)
    monkeypatch.chdir(tmp_path)
    fresh, _, first = _calibrate(tmp_path, "fresh", "--checkpoint", "keep")
    assert first["resumed"] == {"games": 0, "decisions": 0}
    assert "ms per decision)." in fresh.splitlines()[0]
    lines = Path("keep").read_text().splitlines()
    games = len(lines) - 1
    assert games >= 3
    kept = sum(len(json.loads(line)["result"]) for line in lines[1:3])
    Path("keep").write_text("\n".join(lines[:3]) + "\n")  # (as a run stopped after two games)
    out, err, again = _calibrate(tmp_path, "again", "--checkpoint", "keep")
    assert err.splitlines()[0] == "resuming: 2 games from keep"
    assert again["resumed"] == {"games": 2, "decisions": kept}
    assert again["games"] == games
    head = out.splitlines()[0]
    assert f" s for the {12 - kept} played now (" in head
    assert head.endswith(
        f"ms per decision), {kept} decisions of 2 games resumed from the checkpoint."
    )
    # The same decisions as the run that played them all.
    assert (tmp_path / "again" / "decisions.jsonl").read_text() == (
        tmp_path / "fresh" / "decisions.jsonl"
    ).read_text()
    out, err, whole = _calibrate(tmp_path, "whole", "--checkpoint", "keep")
    assert err.splitlines()[0] == f"resuming: {games} games from keep"
    assert whole["resumed"] == {"games": games, "decisions": 12}
    assert out.splitlines()[0].endswith(
        f"; every decision resumed from the checkpoint ({games} games)."
    )


def test_a_calibration_resumed_from_one_game_says_one_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (It said "resuming: 1 games from keep".)
    monkeypatch.chdir(tmp_path)
    _calibrate(tmp_path, "fresh", "--checkpoint", "keep")
    lines = Path("keep").read_text().splitlines()
    Path("keep").write_text("\n".join(lines[:2]) + "\n")  # (as a run stopped after one game)
    _, err, _ = _calibrate(tmp_path, "again", "--checkpoint", "keep")
    assert err.splitlines()[0] == "resuming: 1 game from keep"
