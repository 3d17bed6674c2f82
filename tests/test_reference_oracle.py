"""Tests of the independent reference Oracle (tests/reference): the Monte Carlo against an exact
enumeration, states the rule could not have played, and evaluating every option.

The reference is what the Rust Oracle is checked against, so it is checked here on its own,
from the rules.
"""

import json
import math
from pathlib import Path

import pytest

try:
    import reference as ref
except ModuleNotFoundError:  # tests/ made a package
    from tests import reference as ref  # type: ignore[no-redef]

from reference.state import StateError, parse_state
from reference_helpers import STATE_ONE_DRAW, random_states, state

# -------------------------------------------------------------- Monte Carlo vs exact


@pytest.mark.parametrize(
    "s",
    [
        state(),  # you play first
        state(
            me=1,
            first=0,
            hand=["KS", "QS", "3H"],
            upcard="2C",  # the opponent took the 2C
            turns=[{"seat": 0, "draw": "pile", "discard": "9D"}],
            rules={"preset": "standard", "knock_penalty": 1, "knocker_tie": "others_pay"},
        ),
        state(
            hand=["QS", "JS", "5D"],
            upcard="KD",
            rules={"preset": "standard", "three_of_a_kind": 30.5},
        ),
        STATE_ONE_DRAW,  # the opponent drew from the stock and put down the 9D
    ],
    ids=["you-first", "after-a-take", "trips-30.5", "after-a-stock-draw"],
)
def test_monte_carlo_knock_now_agrees_with_the_exact_figure(s):
    exact = ref.exact_knock_now_two_seats(s)
    n = 4000
    mc = ref.evaluate(s, "knock", deals=n, playouts=n, seed=7)
    assert mc["n_deals"] == n
    p = exact["p_safe"]
    assert abs(mc["p_safe"] - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1e-12
    # lives lost: 0, 1 or 2 per playout; its standard deviation is at most 1
    assert abs(mc["lives_lost"] - exact["lives_lost"]) <= 4 / math.sqrt(n)


# The example of docs/oracle.md as it first was, with seat 2 putting down the KD.
UNPLAYABLE_BY_THE_RULE = {
    "rules": "standard",
    "seats": 4,
    "me": 0,
    "first": 1,
    "upcard": "7S",
    "hand": ["AH", "9H", "4H"],
    "turns": [
        {"seat": 1, "draw": "stock", "discard": "5C"},
        {"seat": 2, "draw": "pile", "discard": "KD"},
        {"seat": 3, "draw": "stock", "discard": "2D"},
        {"seat": 0, "draw": "stock", "drew": "8S", "discard": "8S"},
        {"seat": 1, "draw": "stock", "discard": "6D"},
        {"seat": 2, "draw": "pile", "discard": "3C"},
        {"seat": 3, "draw": "stock", "discard": "QC"},
    ],
    "lives": [3, 3, 2, 1],
}


def test_a_play_the_rule_cannot_produce_has_no_consistent_deal():
    # A valid state, but seat 2's play is not the table's rule: taking
    # the 5C for the KD needs dealt KD 3C and a club worth 3 or more, and then the 6D would not
    # have been taken (it improves nothing)
    pos = parse_state(UNPLAYABLE_BY_THE_RULE)
    assert pos.known_held[2] == {"5C", "6D"} and pos.top == "QC" and pos.stock_count == 34
    with pytest.raises(ref.NoConsistentDeal, match="seat 2"):
        ref.sample_deals(UNPLAYABLE_BY_THE_RULE, 1, seed=0, max_attempts=3000)


def test_the_docs_example_is_a_round_the_rule_could_have_played():
    # docs/oracle.md's example: seat 2 takes the 5C putting down the 2S, later the 6D putting
    # down the 3C; the rule does both from a dealt 2S 3C and a diamond worth 3 to 7. The
    # reference finds consistent deals for every opponent (no warning in the answer).
    example = json.loads((Path(__file__).parent / "data" / "example_state.json").read_text())
    deals = ref.sample_deals(example, 20, seed=1, max_attempts=20_000)
    assert len(deals) == 20
    for d in deals:
        assert {"5C", "6D"} <= set(d.hands[2])
        (hidden,) = d.hidden[2]  # the one dealt card still held: a diamond worth 3 to 7
        assert hidden[-1] == "D" and hidden[0] in "3457", d.hands[2]


def test_every_option_of_random_positions_evaluates():
    for s, _truth in random_states(4, min_turns_max=10):
        for option, put_down in ref.legal_options(s):
            r = ref.evaluate(s, option, put_down=put_down, knock_at=24, deals=5, playouts=20)
            assert 0 <= r["p_safe"] <= 1 and 0 <= r["lives_lost"] <= 2


def test_pending_pile_draw_cannot_put_the_card_back():
    s = state(pending={"draw": "pile"})
    assert ref.legal_options(s) == [
        ("discard:AH", None),
        ("discard:9H", None),
        ("discard:4H", None),
    ]
    with pytest.raises(StateError, match="not available"):
        ref.evaluate(s, "discard:7S")
    r = ref.evaluate(s, "discard:4H", deals=10, playouts=50, seed=2)
    assert r["n_deals"] == 10


def test_evaluate_is_reproducible_and_checks_its_option():
    s = state()
    a = ref.evaluate(s, "draw", knock_at=25, deals=20, playouts=200, seed=3)
    b = ref.evaluate(s, "draw", knock_at=25, deals=20, playouts=200, seed=3)
    assert a == b
    assert 0 <= a["p_safe"] <= 1 and a["lives_lost"] >= 0
    with pytest.raises(ValueError):
        ref.evaluate(s, "take")  # no put-down given
    with pytest.raises(ValueError):
        ref.evaluate(s, "discard:AH")  # no pending draw
    pending = state(pending={"draw": "stock", "drew": "KH"})
    options = ref.legal_options(pending)
    assert [o for o, _ in options] == ["discard:AH", "discard:9H", "discard:4H", "discard:KH"]
    r = ref.evaluate(pending, "discard:4H", knock_at=None, deals=10, playouts=100, seed=1)
    assert r["n_playouts"] == 100
