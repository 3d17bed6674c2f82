"""``thirtyone study knock``: the atlas's counts checked against a second route (rounds dealt and
played here, turn by turn, through the binding's ``Round``), its best scores against its own
counts, the same atlas on every backend and cut, and bad input refused."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from thirtyone import _core, statistics
from thirtyone._core import Action
from thirtyone.cli.app import main
from thirtyone.errors import SettingsError
from thirtyone.game.cards import PACK
from thirtyone.study import knock
from thirtyone.study.backend.cluster import Backend

STANDARD = {"preset": "standard"}


def play_out(r: _core.Round) -> list[int]:
    while not r.is_over:
        r.play_rule_turn(27)
    return r.losses()


def second_route(seats: int, rounds: int, seed: int) -> dict[tuple[int, int], list[int]]:
    """Per (position, lap 0..1): [decisions, knock lost nothing, wait lost nothing], from rounds
    dealt here and played turn by turn by the table's rule, each decision tried both ways."""
    rng = random.Random(seed)
    out: dict[tuple[int, int], list[int]] = {}
    for _ in range(rounds):
        deck = list(PACK)
        rng.shuffle(deck)
        r = _core.Round(None, seats, 0, deck)  # (None: the standard table)
        while not r.is_over and r.knocker is None and r.turns_played < 2 * seats:
            me, lap = r.to_move, r.turns_played // seats
            if r.may_knock():
                knock_copy = r.copy()
                knock_copy.apply(Action("knock"))
                wait_copy = r.copy()
                wait_copy.play_rule_turn(None)  # (None: this turn never knocks)
                cell = out.setdefault((me, lap), [0, 0, 0])
                cell[0] += 1
                cell[1] += play_out(knock_copy)[me] == 0
                cell[2] += play_out(wait_copy)[me] == 0
            r.play_rule_turn(27)
    return out


def z(k1: int, n1: int, k2: int, n2: int) -> float:
    """The two-proportion z statistic."""
    p = (k1 + k2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    return 0.0 if se == 0 else (k1 / n1 - k2 / n2) / se


def test_the_atlas_agrees_with_rounds_played_turn_by_turn() -> None:
    seats, rounds = 3, 20_000
    atlas = _core.knock_atlas(STANDARD, seats, 0, rounds, seed=11)
    laps, scores = atlas["laps"], atlas["scores"]
    direct = second_route(seats, 3_000, seed=12)
    for (pos, lap), (n, k_safe, w_safe) in direct.items():
        sl = slice((pos * laps + lap) * scores, (pos * laps + lap + 1) * scores)
        an = sum(atlas["n"][sl])
        # The first player decides on every round's first turn (but those a 31 shown at the
        # deal ends); the others unless a knock or a shown 31 came first.
        if (pos, lap) == (0, 0):
            assert an > 0.99 * rounds and n > 0.99 * 3_000
        assert abs(an / rounds - n / 3_000) < 0.05
        assert abs(z(sum(atlas["knock_safe"][sl]), an, k_safe, n)) < 4.5, (pos, lap)
        assert abs(z(sum(atlas["wait_safe"][sl]), an, w_safe, n)) < 4.5, (pos, lap)


def test_the_best_knock_score_is_the_best_of_the_counts() -> None:
    atlas = _core.knock_atlas(STANDARD, 2, 0, 5_000, seed=3)
    (row, *_) = knock.summary(atlas)
    assert (row["position"], row["lap"]) == (0, 0) and row["decisions"] > 0.99 * 5_000
    scores = atlas["scores"]
    n, ks, ws = (atlas[k][:scores] for k in ("n", "knock_safe", "wait_safe"))
    # Every threshold, counted by hand: none beats the one chosen.
    by_k = [(sum(ks[k:]) + sum(ws[:k])) / sum(n) for k in range(scores + 1)]
    assert row["round"]["p_safe"] == pytest.approx(max(by_k))
    lo, hi = row["round"]["ci"]
    assert lo < row["round"]["p_safe"] < hi
    # The game's figures are there (2 seats, 3 lives: the game-value table is small) and chances.
    assert atlas["values"] and 0 < row["game"]["p_win"] < 1


def test_the_same_atlas_whatever_the_workers_and_the_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = knock.Settings(rounds=300, seats=(2,), seed=4)
    monkeypatch.setattr(knock, "BATCH", 70)
    one = knock.compute(settings)
    assert knock.compute(settings, Backend(jobs=2)) == one  # (to the last digit)
    monkeypatch.setattr(knock, "BATCH", 300)
    whole = knock.compute(settings)
    for key, counts in whole.items():
        for field in knock.FIELDS:  # (the sums of chances only to rounding: added otherwise)
            assert counts[field] == pytest.approx(one[key][field], abs=1e-9), field


def test_the_command_prints_the_atlas_and_its_json() -> None:
    r = CliRunner().invoke(
        main, ["study", "knock", "--rounds", "400", "--seats", "2", "--jobs", "1", "--json"]
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    (penalty2, penalty1) = sorted(data["tables"], key=lambda t: -t["knock_penalty"])
    assert (penalty2["seats"], penalty1["knock_penalty"]) == (2, 1)
    assert {row["position"] for row in penalty2["rows"]} == {0, 1}
    r = CliRunner().invoke(main, ["study", "knock", "--rounds", "400", "--seats", "2"])
    assert r.exit_code == 0 and "2 seats, knock penalty 2" in r.stdout


def test_every_seed_the_other_commands_take_is_taken() -> None:
    # (2**63 and above were refused, "from 0 to 9,223,372,036,854,775,807", where every other
    # command's --seed and the engine take 0 to 2**64 - 1: ruling 221.)
    for seed in (2**63, 2**64 - 1):
        args = ["study", "knock", "--rounds", "50", "--seats", "2", "--jobs", "1", "--json"]
        r = CliRunner().invoke(main, [*args, "--seed", str(seed)])
        assert r.exit_code == 0, r.output
        data = json.loads(r.stdout)
        assert data["settings"]["seed"] == seed
        assert sum(row["decisions"] for row in data["tables"][0]["rows"]) > 0
    knock.Settings(seed=2**64 - 1).check()
    most = "from 0 to 18,446,744,073,709,551,615, not 18446744073709551616"
    with pytest.raises(SettingsError, match=most):
        knock.Settings(seed=2**64).check()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            ["--rounds", "0"],
            "Invalid value for '--rounds': must be a whole number from 1 to 100,000,000, not 0",
        ),
        (["--seats", "1"], "Invalid value for '--seats': must be 2 to 9"),
        (["--jobs", "0"], "Invalid value for '--jobs': must be a whole number from 1 to 64"),
        (["--cluster", "nowhere"], "like tcp://HOST:8786"),
    ],
)
def test_bad_input_is_refused(args: list[str], words: str) -> None:
    r = CliRunner().invoke(main, ["study", "knock", *args])
    assert r.exit_code == 2 and words in r.output and "Traceback" not in r.output


def test_one_round_gives_intervals_that_say_nothing_is_known() -> None:
    # A mean of one chance has no spread to measure: it has no interval (null; it was a point,
    # a 29.0% "(29.0%-29.0%)" read as certain, then [0.0, 1.0], which a script read as bounds
    # measured); a share of one still has Wilson's. The table says "(—)" where the JSON is null.
    r = CliRunner().invoke(
        main, ["study", "knock", "--rounds", "1", "--seats", "4", "--jobs", "1", "--json"]
    )
    assert r.exit_code == 0, r.output
    rows = [row for t in json.loads(r.stdout)["tables"] for row in t["rows"]]
    assert rows and all(row["decisions"] == 1 for row in rows)
    for row in rows:
        assert row["game"]["ci"] is None
        lo, hi = row["round"]["ci"]
        assert hi - lo > 0.5
    text = CliRunner().invoke(main, ["study", "knock", "--rounds", "1", "--seats", "4"]).stdout
    assert "4 seats, knock penalty 2, 1 round\n" in text
    body = [line for line in text.splitlines() if line[:6].strip().isdigit()]
    assert len(body) == len(rows)
    for line, row in zip(body, rows, strict=True):  # (the JSON's rows, table after table)
        assert line.endswith(f"{row['game']['p_win']:>7.1%} (—)"), line
        assert line.count("(—)") == 1  # (the round's Wilson interval is shown)


def test_two_decisions_or_more_have_an_interval() -> None:
    r = CliRunner().invoke(
        main, ["study", "knock", "--rounds", "3", "--seats", "3", "--jobs", "1", "--json"]
    )
    assert r.exit_code == 0, r.output
    rows = [row for t in json.loads(r.stdout)["tables"] for row in t["rows"]]
    assert {row["decisions"] for row in rows} >= {1, 3}
    for row in rows:
        ci = row["game"]["ci"]
        if row["decisions"] < 2:
            assert ci is None
        else:
            assert 0.0 <= ci[0] <= row["game"]["p_win"] <= ci[1] <= 1.0


def _resumed(command: list[str], keep: str, kept: int) -> str:
    """Run ``command`` to its end with ``--checkpoint keep``, cut the file to its first ``kept``
    batches (as a run stopped then would leave it) and run it again: its standard error."""
    first = CliRunner().invoke(main, [*command, "--checkpoint", keep])
    assert first.exit_code == 0, first.output
    with open(keep, encoding="utf-8") as f:
        lines = f.read().splitlines()
    with open(keep, "w", encoding="utf-8") as f:
        f.write("\n".join(lines[: 1 + kept]) + "\n")
    again = CliRunner().invoke(main, [*command, "--checkpoint", keep])
    assert again.exit_code == 0, again.output
    return again.stderr


@pytest.mark.parametrize("study", ["knock", "tournament"])
def test_a_resumed_study_says_so_and_counts_on_from_its_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, study: str
) -> None:
    # (The progress started again from 1: "batches 1/240 (0%), 0 s" after 53 were kept.)
    monkeypatch.chdir(tmp_path)
    keep = "run.checkpoint"
    if study == "knock":  # 3 batches of rounds a knock penalty, 6 in all
        command = ["study", "knock", "--rounds", "75000", "--seats", "2", "--jobs", "1"]
        err = _resumed(command, keep, 2)
        assert err.splitlines()[0] == f"resuming: 2 of 6 batches from {keep}"
        counts = [int(line.split()[1].split("/")[0]) for line in err.splitlines()[1:]]
    else:  # games one a batch
        command = ["tournament", "--games", "6", "--players", "table,table", "--jobs", "1"]
        err = _resumed(command, keep, 3)
        assert err.splitlines()[0] == f"resuming: 3 of 6 games from {keep}"
        counts = [int(line.split()[1].split("/")[0]) for line in err.splitlines()[1:]]
    assert counts and min(counts) > (2 if study == "knock" else 3), err


def test_t_quantile_is_scipys_without_scipy() -> None:
    """The closed forms of Student's t quantile (a table to 30 degrees of freedom, an expansion
    beyond) agree with scipy's to their three decimals."""
    scipy_stats = pytest.importorskip("scipy.stats")
    for df in [*range(1, 61), 75, 100, 250, 1_000, 100_000]:
        assert statistics.student_t95(df) == pytest.approx(
            scipy_stats.t.ppf(0.975, df), abs=6e-4
        ), df


def test_a_mean_of_few_chances_has_students_interval() -> None:
    """Three decisions whose chances were 0.42, 0.425 and 0.43: the mean 0.425, the sample's
    standard deviation 0.005 (n - 1), and the interval 0.425 ± 4.303 * 0.005 / √3, not the
    normal quantile's third of it or so; one decision has none."""
    xs = [0.42, 0.425, 0.43]
    lo, hi = statistics.mean_interval(sum(xs) / 3, sum(x * x for x in xs), 3) or (0.0, 0.0)
    half = 4.303 * 0.005 / math.sqrt(3)
    assert (lo, hi) == (pytest.approx(0.425 - half), pytest.approx(0.425 + half))
    assert statistics.mean_interval(0.3, 0.09, 1) is None
    # Kept within 0 to 1: chances of 0 and 1 spread wider than the range.
    assert statistics.mean_interval(0.5, 1.0, 2) == (0.0, 1.0)


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def _ci(ci: list[float] | None) -> str:
    return "(—)" if ci is None else f"({ci[0] * 100:.1f}\u2013{ci[1] * 100:.1f})"


def _score(x: float | None) -> str:
    return "never" if x is None else f"{x:g}"


def _assert_fits_and_tells(text: str, data: dict[str, Any]) -> None:
    """Every line of the report within 80 columns, and every row's figures on its own line, in
    the table's order: position, lap, decisions, the round's knock score, p_safe and its
    interval, then the game's; and each table's first-turn scores."""
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80, max(lines, key=len)
    body = iter(line.split() for line in lines if line[:6].strip().isdigit())
    for t in data["tables"]:
        ft = t["first_turn"]
        first = _score(ft["first_player"]["lowest_for_survival"])
        anyone = _score(ft["every_position"]["lowest_for_survival"])
        assert f"first player {first}, any position {anyone}" in text
        for row in t["rows"]:
            rd = row["round"]
            want = [str(row["position"]), str(row["lap"]), f"{row['decisions']:,}"]
            want += [_score(rd["knock_at"]), _pct(rd["p_safe"]), _ci(rd["ci"])]
            if "game" in row:
                g = row["game"]
                want += [_score(g["knock_at"]), _pct(g["p_win"]), _ci(g["ci"])]
            assert next(body) == want
    assert next(body, None) is None


def test_the_report_fits_80_columns_and_keeps_every_figure() -> None:
    # (Its lines were 97 to 111 characters wide: every row broken by an 80-column terminal.)
    args = ["study", "knock", "--rounds", "3", "--seats", "2,9", "--jobs", "1"]
    data = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout)
    text = CliRunner().invoke(main, args).stdout
    assert {t["seats"] for t in data["tables"]} == {2, 9}
    _assert_fits_and_tells(text, data)
    for word in ("knock", "p_safe", "p_win", "95%"):  # (the legend and the headers)
        assert word in text


def _widest(seats: int, values: bool) -> dict[str, Any]:
    """A table of the widest figures a run can give: 100,000,000 decisions, "never", a half
    point, 100.0% and its interval, and no interval."""
    rows: list[dict[str, Any]] = []
    for pos in range(seats):
        for lap in range(6):
            row: dict[str, Any] = {"position": pos, "lap": lap, "decisions": knock.MAX_ROUNDS}
            row["round"] = {"knock_at": None, "p_safe": 1.0, "ci": [1.0, 1.0]}
            if values:
                game = (1.0, [1.0, 1.0]) if lap == 0 else (0.0004, None)
                row["game"] = {"knock_at": 30.5, "p_win": game[0], "ci": game[1]}
            rows.append(row)
    nobody = {"by_score": [], "lowest_for_survival": None}
    return {
        "seats": seats,
        "knock_penalty": 2,
        "rounds": knock.MAX_ROUNDS,
        "game_values": values,
        "rows": rows,
        "first_turn": {
            "first_player": nobody,
            "every_position": {**nobody, "lowest_for_survival": 15.5},
        },
    }


@pytest.mark.parametrize("values", [True, False])
def test_the_widest_figures_fit_80_columns(values: bool) -> None:
    data = {"tables": [_widest(seats, values) for seats in range(2, 10)]}
    text = knock.report(data)
    _assert_fits_and_tells(text, data)
    assert "(100.0\u2013100.0)" in text and "100,000,000 rounds" in text
    headers = [line for line in text.splitlines() if line.split()[:2] == ["pos", "lap"]]
    assert len(headers) == 8 and all(("p_win" in line) is values for line in headers)
