"""Tests of the independent reference Oracle (tests/reference): hand scores, card text, rule
options, and the table's decision rule by hand-made cases.

The reference is what the Rust Oracle is checked against, so it is checked here on its own,
from the rules.
"""

import pytest

try:
    import reference as ref
except ModuleNotFoundError:  # tests/ made a package
    from tests import reference as ref  # type: ignore[no-redef]

from reference.rules import Rules, best_putdown, best_take, score
from reference_helpers import STANDARD, rule

# ---------------------------------------------------------------------------- scores


def test_worked_hand_of_seed_003():
    assert score(["AH", "9H", "4H"], STANDARD) == 24  # Alice
    assert score(["KS", "7S", "AC"], STANDARD) == 17  # Ben: 10 + 7 beats the lone 11
    assert score(["QD", "QH", "5C"], STANDARD) == 10  # Cara: three suits, the highest card
    assert score(["JC", "TC", "2C"], STANDARD) == 22  # Dev


def test_scores_31_and_options():
    assert score(["AS", "KS", "QS"], STANDARD) == 31
    assert score(["AS", "KD", "QH"], STANDARD) == 11
    assert score([ref.parse_card(c) for c in ("10D", "K♦", "2D")], STANDARD) == 22
    with pytest.raises(ValueError):
        score(["10D", "K♦", "2D"], STANDARD)  # scores take the canonical text only
    trips = ["7C", "7D", "7H"]
    aces = ["AC", "AD", "AH"]
    assert score(trips, STANDARD) == 7
    assert score(trips, Rules(three_of_a_kind=30)) == 30
    assert score(trips, Rules(three_of_a_kind=30.5)) == 30.5
    assert score(aces, STANDARD) == 11
    assert score(aces, Rules(three_of_a_kind=30)) == 30
    assert score(aces, Rules(three_aces=33)) == 33
    assert score(aces, Rules(three_of_a_kind=30, three_aces=33)) == 33
    runs = Rules(runs=True)
    assert score(["5H", "6H", "7H"], runs) == 30
    assert score(["5H", "6H", "7H"], STANDARD) == 18
    assert score(["AH", "2H", "3H"], runs) == 30  # DECISIONS 4: A-2-3 is a run
    assert score(["QH", "KH", "AH"], runs) == 31
    assert score(["KH", "AH", "2H"], runs) == 23  # no wrap-around
    assert score(["5H", "6H", "7D"], runs) == 11


def test_card_text():
    assert ref.parse_card("10D") == "TD"
    assert ref.parse_card("K♠") == "KS"
    assert ref.parse_card("A♥") == "AH"
    for bad in ("1D", "KX", "", "AHH", 5, None):
        with pytest.raises(ValueError):
            ref.parse_card(bad)


def test_rules_parsing():
    assert ref.parse_rules("standard") == STANDARD
    assert STANDARD.knock_penalty == 2 and STANDARD.knocker_tie == "knocker_pays"
    r = ref.parse_rules(
        {
            "preset": "standard",
            "knock_penalty": 1,
            "three_of_a_kind": "30.5",
            "three_aces": 33,
            "runs": True,
            "knocker_tie": "cadillac",
        }
    )
    assert r == Rules(
        knock_penalty=1, three_of_a_kind=30.5, three_aces=33, runs=True, knocker_tie="cadillac"
    )
    for bad in (
        "scat",
        {"preset": "nope"},
        {"knock_penalty": 3},
        {"knock_penalty": True},
        {"bogus": 1},
        {"two_player_mercy": True},
        {"three_of_a_kind": 31},
        7,
    ):
        with pytest.raises(ValueError):
            ref.parse_rules(bad)


# ----------------------------------------------------------------------- decision rule


def test_knock_clause():
    assert rule(["AH", "KH", "5H"], "2C") == ("draw", None)  # 26
    assert rule(["AH", "KH", "6H"], "2C") == ("knock", None)  # 27
    assert rule(["AH", "KH", "6H"], "6C", knock_at=None) == ("draw", None)
    assert rule(["AH", "KH", "6H"], "2C", knock_allowed=False)[0] == "draw"
    assert rule(["AH", "KH", "6H"], "2C", knock_at=None)[0] == "draw"
    assert rule(["AH", "KH", "4H"], "2C", knock_at=27)[0] == "draw"  # 25


def test_take_clause_is_strict_and_respects_may_take():
    # KH 9C 9D scores 10; the QH makes 20 whichever nine goes: take, put down the club (suit order)
    assert rule(["KH", "9C", "9D"], "QH") == ("take", "9C")
    assert rule(["KH", "9C", "9D"], "QH", may_take=False) == ("draw", None)
    # equal is not better: KH 5C 2D (10) with QS on top stays 10 -> draw
    assert rule(["KH", "5C", "2D"], "QS") == ("draw", None)
    assert rule(["KH", "5C", "2D"], "QS", stock_empty=True) == ("decline", None)
    assert rule(["KH", "5C", "2D"], "9H", stock_empty=True) == ("take", "2D")
    assert best_take(["KH", "9C", "9D"], "QH", STANDARD) == ("9C", 20)


def test_put_down_tie_breaks():
    # lowest value first: KH QH 5C + 3D: removing 5C or 3D both leave 20 -> the 3
    assert best_putdown(["KH", "QH", "5C", "3D"], STANDARD, drawn="5C") == ("3D", 20)
    # equal values: the card just drawn
    assert best_putdown(["KH", "QH", "5C", "5D"], STANDARD, drawn="5D") == ("5D", 20)
    assert best_putdown(["KH", "QH", "5D", "5C"], STANDARD, drawn="5C") == ("5C", 20)
    # equal values, neither drawn: suit order clubs, diamonds, hearts, spades
    assert best_putdown(["KH", "5S", "5D", "QH"], STANDARD, drawn="QH") == ("5D", 20)
    # KH 5H (15) is kept by dropping the 5S or the QD: the lower value, the 5S
    assert best_putdown(["KH", "5S", "5H", "QD"], STANDARD, drawn="QD") == ("5S", 15)
    # ten-value cards of one suit: ten, jack, queen, king
    assert best_putdown(["TS", "JS", "AH", "KH"], STANDARD, drawn="KH") == ("TS", 21)
    assert best_putdown(["KS", "QS", "AH", "KH"], STANDARD, drawn="AH") == ("QS", 21)
    # the drawn card goes back when it is the worst
    assert best_putdown(["AH", "KH", "4H", "2C"], STANDARD, drawn="2C") == ("2C", 25)


def test_put_down_suit_order_among_non_drawn():
    # AD 5H 5S + drawn 9D: keep AD 9D (20) and one five: 5H and 5S tie -> hearts first
    assert best_putdown(["AD", "5H", "5S", "9D"], STANDARD, drawn="9D") == ("5H", 20)
