"""The game-level figures: the game-value table against whole games played out, hand-checkable
positions, and ``p_win`` / ``best_game`` in the Oracle's answer (``oracle.md``, "Game-level
figures")."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import thirtyone
from thirtyone import _core
from thirtyone.errors import SettingsError, StateError
from thirtyone.oracle.query import ROUND_RESULTS

# 20+ lives configurations (lives, dealer): 2 to 6 seats, equal and unequal lives.
CONFIGS: list[tuple[str, list[int], int]] = [
    ("standard", [1, 1], 0),
    ("standard", [2, 1], 1),
    ("standard", [3, 1], 0),
    ("standard", [3, 3], 1),
    ("standard", [1, 1, 1], 0),
    ("standard", [2, 1, 1], 2),
    ("standard", [3, 2, 1], 1),
    ("standard", [3, 3, 3], 0),
    ("standard", [1, 1, 1, 1], 3),
    ("standard", [2, 2, 1, 1], 0),
    ("standard", [3, 1, 2, 2], 1),
    ("standard", [3, 3, 3, 3], 2),
    ("standard", [1, 2, 1, 2, 1], 4),
    ("standard", [2, 2, 2, 2, 2, 2], 5),
    ("five-lives", [5, 2, 4], 0),
    ("five-lives", [1, 1, 3, 2], 2),
    ("scat", [0, 1, 2], 1),
    ("scat", [0, 0, 3, 1], 0),
    ("gin-lives", [3, 1, 2], 2),
    ("cadillac", [4, 0, 1, 2], 3),
    ({"preset": "standard", "knock_penalty": 1}, [2, 1, 1], 0),
    ({"preset": "standard", "placing": "ranked"}, [2, 1, 2, 1], 1),
]
GAMES = 4_000


def _rules(spec: str | dict[str, Any], seats: int) -> dict[str, Any]:
    rules = {"preset": spec} if isinstance(spec, str) else dict(spec)
    return dict(rules, seats=seats)


@pytest.mark.parametrize(("spec", "lives", "dealer"), CONFIGS)
def test_the_table_agrees_with_whole_games_played_out(
    spec: str | dict[str, Any], lives: list[int], dealer: int
) -> None:
    """Whole games by the table's rule (their own loop, settled round by round) against the
    table's recursion: every seat's chance (or points) within 3.5 standard errors."""
    rules = _rules(spec, len(lives))
    points = _core.play_games(rules, lives, dealer, GAMES, seed=11)
    ranked = isinstance(spec, dict) and spec.get("placing") == "ranked"
    total = 0.0
    for me, got in enumerate(points):
        value = _core.game_value(rules, lives, me, dealer)
        total += value
        mean = got / GAMES
        if ranked:  # points 3, 2, 1, 0: the spread of a seat's points is at most 1.5
            se = 1.5 / math.sqrt(GAMES)
        else:
            se = math.sqrt(max(value * (1 - value), 1e-4) / GAMES)
        assert abs(mean - value) < 3.5 * se, (me, mean, value)
    assert total == pytest.approx(6.0 if ranked else 1.0, abs=1e-9)


def test_more_lives_more_chance() -> None:
    values = [_core.game_value("standard", [k, 2, 2, 2], 0, 3) for k in (1, 2, 3)]
    assert values[0] < values[1] < values[2]
    assert _core.game_value("standard", [2, 2, 2, 2], 0, 3) == pytest.approx(0.25, abs=0.03)


def test_bad_game_inputs_are_named() -> None:
    with pytest.raises(StateError, match=r"lives\[1\]"):
        _core.game_value("standard", [3, 9, 3], 0, 0)
    with pytest.raises(StateError, match="dealer"):
        _core.game_value("standard", [3, 3, 3], 0, 5)
    with pytest.raises(SettingsError, match="too many lives"):
        _core.game_value({"preset": "standard", "lives": 20, "seats": 9}, [20] * 9, 0, 0)
    with pytest.raises(SettingsError, match="games"):
        _core.play_games("standard", [1, 1], 0, 10**15)


def _two_seats(lives: list[int], turns: list[dict[str, Any]], hand: list[str]) -> dict[str, Any]:
    return {
        "rules": "standard",
        "seats": 2,
        "me": 1,
        "first": 0,
        "upcard": "3H",
        "hand": hand,
        "turns": turns,
        "lives": lives,
    }


KNOCK_OR_DRAW = _two_seats(
    [1, 3],
    [
        {"seat": 0, "draw": "pile", "discard": "2S"},
        {"seat": 1, "draw": "stock", "discard": "KS", "drew": "KS"},
        {"seat": 0, "draw": "stock", "discard": "5S"},
        {"seat": 1, "draw": "stock", "discard": "6S", "drew": "6S"},
        {"seat": 0, "draw": "stock", "discard": "8C"},
    ],
    ["TD", "9D", "3D"],
)


def test_two_seats_one_life_each_is_the_opponent_alone_losing_plus_a_share_of_the_washes() -> None:
    """Both on their last life: a round you come through safe puts the other out (somebody
    always pays at two seats), one you alone lose puts you out, and one that puts both out is a
    wash, dealt again by the same dealer, worth the game's value now. So p_win is p_safe plus
    the washes' share times that value, which lies between 0 and 1 - p_safe."""
    state = dict(KNOCK_OR_DRAW, lives=[1, 1])
    advice = thirtyone.advise(state, deals=1_000, playouts=4_000, seed=3, max_time=None)
    again = _core.game_value("standard", [1, 1], 1, 1)  # seat 1 dealt (seat 0 played first)
    assert 0.3 < again < 0.7
    for o in advice.options:
        assert o.p_win is not None
        washes = (o.p_win - o.p_safe) / again
        assert -1e-9 <= washes <= 1 - o.p_safe + 1e-9, o


def test_an_opponent_on_the_last_life_makes_the_safe_round_a_won_game() -> None:
    """You hold 3 lives, the other 1: every round you come through safe puts them out, so
    p_win is at least p_safe (on the same playouts); a knock caught costs 2 lives, which the
    game counts, so here the game prefers to draw while the round prefers the knock (at the
    default precision, where the knock is safer beyond the margin)."""
    advice = thirtyone.advise(KNOCK_OR_DRAW, seed=1, max_time=None)
    for o in advice.options:
        assert o.p_win is not None and o.p_win >= o.p_safe - 1e-12
    assert advice.best_game is not None
    assert advice.best.option == "knock" and advice.tied == []
    assert advice.best_game.option == "draw"
    knock, draw = advice.option("knock"), advice.option("draw")
    assert draw.p_win is not None and knock.p_win is not None
    assert draw.p_win - knock.p_win > (draw.p_win_margin or 0)
    assert "For the game, draw from the stock is better" in advice.reason
    assert "(lives: you 3, seat 0 1)" in advice.reason
    d = advice.to_dict()
    assert d["best"] == "knock" and d["best_game"] == "draw"


def test_with_the_knock_tied_on_safety_the_draw_that_loses_fewer_lives_is_the_best() -> None:
    """The same position at 2,000 deals: the knock is still the safer by the figures, but
    within the margin; the draw loses fewer lives (the knock caught pays 2), so it is the best,
    for the round and for the game, and the reason says why."""
    advice = thirtyone.advise(KNOCK_OR_DRAW, deals=2_000, playouts=10_000, seed=1, max_time=None)
    knock, draw = advice.option("knock"), advice.option("draw")
    assert knock.p_safe > draw.p_safe and knock.p_safe - draw.p_safe <= knock.margin
    assert draw.lives_lost + draw.lives_lost_margin < knock.lives_lost - knock.lives_lost_margin
    assert advice.best is draw and advice.tied == [knock]
    assert advice.best_game is draw
    assert "are tied on safety" in advice.reason
    assert "The first loses fewer lives on average" in advice.reason
    assert "For the game too" in advice.reason


def test_ranked_placing_reports_points() -> None:
    state = dict(KNOCK_OR_DRAW, rules={"preset": "standard", "placing": "ranked"})
    advice = thirtyone.advise(state, deals=500, playouts=2_000, seed=1, max_time=None)
    assert advice.points
    d = advice.to_dict()
    for o in d["options"]:
        assert "p_win" not in o and 0 <= o["points"] <= 3
    assert "points" in advice.reason


def test_without_lives_no_game_fields() -> None:
    state = {k: v for k, v in KNOCK_OR_DRAW.items() if k != "lives"}
    advice = thirtyone.advise(state, deals=500, playouts=2_000, seed=1, max_time=None)
    assert advice.best_game is None
    assert all(o.p_win is None for o in advice.options)
    assert "best_game" not in advice.to_dict()


def test_too_many_lives_gives_a_warning_not_a_wait() -> None:
    rules = {"preset": "standard", "lives": 20, "seats": 9}
    state = {
        "rules": rules,
        "seats": 9,
        "me": 0,
        "first": 0,
        "upcard": "3H",
        "hand": ["TD", "9D", "3D"],
        "turns": [],
        "lives": [20] * 9,
    }
    advice = thirtyone.advise(state, deals=200, playouts=1_000, seed=1)
    assert advice.best_game is None
    assert any("not computed" in w for w in advice.warnings)


def test_the_shipped_round_results_are_what_the_core_simulates(tmp_path: Path) -> None:
    """The presets' round results ship with the package; simulating one again (with nothing
    to read) writes the same file byte for byte."""
    code = (
        "from thirtyone import _core; import sys;"
        "_core.set_cache_folders([sys.argv[1]]);"
        "_core.game_value('standard', [1, 1, 1], 0, 2)"
    )
    subprocess.run([sys.executable, "-c", code, str(tmp_path)], check=True)
    made = sorted(tmp_path.glob("round-results-*.json"))
    assert [p.name for p in made] == sorted(
        p.name for p in made if (ROUND_RESULTS / p.name).exists()
    )
    assert len(made) == 2  # 2 and 3 seats
    for p in made:
        assert p.read_bytes() == (ROUND_RESULTS / p.name).read_bytes()


def test_the_presets_need_no_simulation(tmp_path: Path) -> None:
    """With the shipped results read first, a game-level query writes nothing to the cache."""
    code = (
        "from thirtyone import _core; import sys;"
        "from thirtyone.oracle.query import ROUND_RESULTS;"
        "_core.set_cache_folders([sys.argv[1], ROUND_RESULTS]);"
        "[_core.game_value(p, [1] * 4, 0, 3) for p in ('standard', 'five-lives', 'gin-lives')]"
    )
    subprocess.run([sys.executable, "-c", code, str(tmp_path)], check=True)
    assert list(tmp_path.iterdir()) == []
