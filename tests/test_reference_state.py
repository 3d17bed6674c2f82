"""Tests of the independent reference Oracle (tests/reference): reading a state, and impossible
states refused with the problem named.

The reference is what the Rust Oracle is checked against, so it is checked here on its own,
from the rules.
"""

import pytest

try:
    import reference as ref
except ModuleNotFoundError:  # tests/ made a package
    from tests import reference as ref  # type: ignore[no-redef]

from reference.state import StateError, parse_state
from reference_helpers import state

# -------------------------------------------------------------------------- the state


def test_state_parsing_of_a_valid_history():
    s = state(
        seats=3,
        me=2,
        first=0,
        upcard="KH",
        hand=["AS", "9S", "2H"],
        turns=[
            {"seat": 0, "draw": "pile", "discard": "4C"},
            {"seat": 1, "draw": "pile", "discard": "3D"},
        ],
    )
    pos = parse_state(s)
    assert pos.pile == ("3D",)  # the KH and the 4C were taken
    assert pos.known_held == {0: frozenset({"KH"}), 1: frozenset({"4C"})}
    assert pos.stock_count == 52 - 9 - 1
    assert len(pos.unseen) == pos.stock_count + 2 + 2
    assert ref.legal_options(s)[:2] == [("knock", None), ("draw", None)]


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"hand": ["AH", "9H", "ZZ"]}, "unknown card"),
        ({"hand": ["AH", "9H", "AH"]}, "repeated"),
        ({"upcard": "AH"}, "upcard"),
        ({"seats": 1}, "seats"),
        ({"me": 2}, "out of range"),
        ({"turns": [{"seat": 1, "draw": "stock", "discard": "2C"}]}, "out of order"),
        ({"first": 1, "turns": []}, "not your turn"),
        ({"first": 1, "turns": [{"seat": 1, "draw": "stock", "discard": "9H"}]}, "your hand"),
        ({"first": 1, "turns": [{"seat": 1, "draw": "pile", "discard": "7S"}]}, "straight back"),
        (
            {"first": 1, "turns": [{"seat": 1, "knock": True}, {"seat": 0, "knock": True}]},
            "second knock",
        ),
        (
            {"turns": [{"seat": 0, "knock": True}, {"seat": 1, "draw": "stock", "discard": "2C"}]},
            "already over",
        ),
        (
            {
                "turns": [
                    {"seat": 0, "draw": "stock", "drew": "2C", "discard": "9H"},
                    {"seat": 1, "draw": "stock", "discard": "3C"},
                ]
            },
            "your own turns",
        ),
        ({"turns": [{"seat": 0, "draw": "stock", "discard": "4H"}]}, "what you drew"),
        (
            {"first": 1, "turns": [{"seat": 1, "draw": "stock", "drew": "2C", "discard": "2C"}]},
            "only your own",
        ),
        ({"rules": {"preset": "standard", "colour": "red"}}, "unknown rule key"),
        ({"hand": ["AH", "KH", "QH"]}, "already over"),
        ({"extra": 1}, "unknown key"),
        ({"pending": {"draw": "stock", "drew": "7S"}}, "pile"),
    ],
)
def test_impossible_states_are_refused_with_the_problem_named(fields, words):
    with pytest.raises(ValueError, match=words):
        parse_state(state(**fields))


def test_my_31_after_a_put_down_ends_the_round():
    s = state(
        hand=["AH", "KH", "QH"],
        turns=[
            {"seat": 0, "draw": "stock", "drew": "QH", "discard": "2C"},
            {"seat": 1, "draw": "stock", "discard": "3C"},
        ],
    )
    with pytest.raises(StateError, match="31"):
        parse_state(s)


def test_taking_your_own_put_down_is_refused():
    # two seats: you put down 2C, the opponent knocks, the 2C is still on top
    s = state(
        hand=["AH", "9H", "4H"],
        turns=[
            {"seat": 0, "draw": "stock", "drew": "4H", "discard": "2C"},
            {"seat": 1, "knock": True},
        ],
    )
    options = ref.legal_options(s)
    assert options == [("draw", None)]
    with pytest.raises(StateError, match="not available"):
        ref.evaluate(s, "take", put_down="4H")
    s["pending"] = {"draw": "pile"}
    with pytest.raises(StateError, match="put down"):
        parse_state(s)
