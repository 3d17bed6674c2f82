"""Hand scores (rules.md, "Cards and hands"): the best single-suit total, and the options."""

from __future__ import annotations

from itertools import combinations

import pytest
import thirtyone
from helpers import PACK, ref_score
from thirtyone import Rules, _core


def score(text: str, **rules: object) -> float:
    return _core.score(text.split(), rules or None)


def test_seed_003_worked_hand() -> None:
    # Alice: ace, nine, four of hearts: 11 + 9 + 4.
    assert score("AH 9H 4H") == 24
    # Ben: king and seven of spades, ace of clubs: 10 + 7 = 17 beats the lone 11.
    assert score("KS 7S AC") == 17
    # Cara: queen of diamonds, queen of hearts, five of clubs: three suits, the highest card.
    assert score("QD QH 5C") == 10
    # Dev: jack, ten and two of clubs: 10 + 10 + 2.
    assert score("JC TC 2C") == 22


def test_thirty_one_is_an_ace_and_two_ten_value_cards_of_one_suit() -> None:
    assert score("AS KS QS") == 31
    assert score("TD AD JD") == 31
    assert score("AH TH 9H") == 30  # 11 + 10 + 9: one short


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("2C 3D 9H", 9),  # three suits: the highest card
        ("AC KD QH", 11),  # three suits: the ace is the highest card
        ("2S 3S AC", 11),  # 2 + 3 = 5 of spades, the lone ace is higher
        ("9S 3S AC", 12),  # 9 + 3 = 12 of spades beats the lone ace
        ("TC 5C 5D", 15),
        ("2C 2D 3C", 5),
    ],
)
def test_best_single_suit_total(hand: str, expected: float) -> None:
    assert score(hand) == expected


def test_card_spellings_score_alike() -> None:
    assert score("10D AD JD") == 31
    assert score("K♠ Q♠ A♠") == 31
    assert score("ah 9h 4h") == 24


@pytest.mark.parametrize(
    ("setting", "sevens", "kings", "aces"),
    [
        # standard: trips score like any hand (three suits: the highest card)
        ("none", 7, 10, 11),
        ("30", 30, 30, 30),
        ("30.5", 30.5, 30.5, 30.5),
    ],
)
def test_three_of_a_kind_settings(setting: str, sevens: float, kings: float, aces: float) -> None:
    assert score("7C 7D 7H", three_of_a_kind=setting) == sevens
    assert score("KC KD KS", three_of_a_kind=setting) == kings
    assert score("AC AD AH", three_of_a_kind=setting) == aces
    # a pair is no trips under any setting: 7 + 9 of clubs
    assert score("7C 7D 9C", three_of_a_kind=setting) == 16


def test_thirty_and_a_half_ranks_between_thirty_and_thirty_one() -> None:
    trips = score("4C 4D 4H", three_of_a_kind="30.5")
    assert score("AH TH 9H", three_of_a_kind="30.5") == 30 < trips < 31
    assert score("AS KS QS", three_of_a_kind="30.5") == 31


def test_three_aces_cadillac() -> None:
    assert score("AC AD AS", three_aces="33") == 33
    assert score("AC AD AS", three_aces="33", three_of_a_kind="30.5") == 33
    # other trips are untouched by the three-aces option
    assert score("7C 7D 7H", three_aces="33") == 7
    assert score("7C 7D 7H", three_aces="33", three_of_a_kind="30") == 30


@pytest.mark.parametrize(
    ("hand", "with_runs", "without"),
    [
        ("4H 5H 6H", 30, 15),
        ("JC QC KC", 30, 30),
        ("AD 2D 3D", 30, 16),  # DECISIONS.md 4: A-2-3 is a run
        ("QS KS AS", 31, 31),  # A-K-Q counts the full 31
        ("KH AH 2H", 23, 23),  # no wrapping round the ace
        ("4H 5H 7H", 16, 16),  # a gap
        ("4H 5H 6C", 9, 9),  # not one suit
        ("8S 9S TS", 30, 27),
    ],
)
def test_runs_option(hand: str, with_runs: float, without: float) -> None:
    assert score(hand, runs=True) == with_runs
    assert score(hand, runs=False) == without
    assert score(hand) == without


def test_hand_score_helper_takes_rules() -> None:
    assert thirtyone.hand_score(["7C", "7D", "7H"]) == 7
    assert thirtyone.hand_score(["7C", "7D", "7H"], Rules().replace(three_of_a_kind="30.5")) == 30.5


SETTINGS = [
    {},
    {"three_of_a_kind": "30"},
    {"three_of_a_kind": "30.5"},
    {"three_aces": "33"},
    {"runs": True},
    {"three_of_a_kind": "30.5", "three_aces": "33", "runs": True},
    {"three_of_a_kind": "30", "runs": True},
]


@pytest.mark.parametrize(
    "setting", SETTINGS, ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()) or "standard"
)
def test_every_hand_agrees_with_the_reference_scorer(setting: dict[str, object]) -> None:
    hands = list(combinations(PACK, 3))
    assert len(hands) == 22_100
    mismatches = []
    for h in hands:
        got = _core.score(list(h), setting or None)
        want = ref_score(h, **setting)  # type: ignore[arg-type]
        if got != want:
            mismatches.append((h, got, want))
    assert mismatches == []


def test_every_hand_agrees_in_any_card_order() -> None:
    # The score of a hand does not depend on the order of its cards.
    for h in combinations(PACK[::3], 3):
        a, b, c = h
        assert _core.score([a, b, c]) == _core.score([c, a, b]) == _core.score([b, c, a])


def test_score_distribution_standard() -> None:
    # Counts derived from the rules: 31 needs an ace and two of the four ten-value cards of its
    # suit: 4 suits x C(4,2) = 24 hands. The lowest score is 2: three twos (three suits, the
    # highest card is a 2), C(4,3) = 4 hands; every other hand holds a card worth 3 or more.
    scores = [_core.score(list(h)) for h in combinations(PACK, 3)]
    assert scores.count(31) == 24
    assert min(scores) == 2
    assert scores.count(2) == 4
    assert max(scores) == 31
