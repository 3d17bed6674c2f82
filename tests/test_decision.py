"""The table's decision rule (rules.md): knock at 27+, take only a strict improvement, draw
otherwise (decline with an empty stock), and the put-down tie-break."""

from __future__ import annotations

import random

import pytest
from helpers import PACK, build_deck, ref_put_down, ref_start, rule_scorer
from thirtyone import _core


def start(
    hand: str,
    top: str | None,
    *,
    may_knock: bool = True,
    stock_empty: bool = False,
    knock_at: float = 27.0,
    rules: dict[str, object] | None = None,
) -> str:
    return _core.choose_start(hand.split(), top, may_knock, stock_empty, knock_at, rules)


def put(hand: str, new: str, *, from_pile: bool, rules: dict[str, object] | None = None) -> str:
    return _core.choose_put_down(hand.split(), new, from_pile, rules)


# -- rule 1: knock -------------------------------------------------------------------------------


def test_knocks_at_27() -> None:
    # AH KH 6H = 11 + 10 + 6 = 27: knock when allowed.
    assert start("AH KH 6H", "2C") == "knock"
    # 28 and 30 too.
    assert start("AH KH 7H", "2C") == "knock"
    assert start("AH KH 9H", "2C") == "knock"


def test_does_not_knock_below_27() -> None:
    # AH KH 5H = 26; 2C does not help (best with it: AH KH 2C = 21), so draw.
    assert start("AH KH 5H", "2C") == "draw"


def test_does_not_knock_when_not_allowed() -> None:
    assert start("AH KH 6H", "2C", may_knock=False) == "draw"
    assert start("AH KH 6H", "2C", may_knock=False, stock_empty=True) == "decline"


def test_knock_comes_before_a_take_that_would_make_31() -> None:
    # 27 may knock: rule 1 is applied first, even though QH would make AH KH QH = 31.
    assert start("AH KH 6H", "QH") == "knock"
    # Not allowed to knock: rule 2 takes it.
    assert start("AH KH 6H", "QH", may_knock=False) == "take"


def test_knock_threshold_is_a_parameter() -> None:
    # 9H 8H 4H = 21
    assert start("9H 8H 4H", "2C", knock_at=21) == "knock"
    assert start("9H 8H 4H", "2C", knock_at=21.5) == "draw"
    assert start("9H 8H 4H", "2C", knock_at=22) == "draw"


# -- rule 2: take only when strictly better --------------------------------------------------------


def test_takes_a_strict_improvement() -> None:
    # 2C 3D 9H scores 9; with 8H instead of 2C or 3D: 9H + 8H = 17 > 9.
    assert start("2C 3D 9H", "8H", may_knock=False) == "take"
    # may_knock is irrelevant below 27
    assert start("2C 3D 9H", "8H", may_knock=True) == "take"


def test_does_not_take_an_equal_score() -> None:
    # 2C 3D 9H scores 9; 9S gives at best 9 (three suits or 9 + 0): not strictly better.
    assert start("2C 3D 9H", "9S") == "draw"
    # KH QH 5C = 20; 5D keeps 20 at best: equal, not better.
    assert start("KH QH 5C", "5D") == "draw"
    # KH QH 5C = 20; 6C: KH QH stay 20 (6C alone is 6): not better.
    assert start("KH QH 5C", "6C") == "draw"


def test_takes_by_one_point() -> None:
    # KH QH 5C = 20; 2H makes KH QH 2H = 22 > 20.
    assert start("KH QH 5C", "2H") == "take"


def test_takes_with_an_empty_stock_instead_of_declining() -> None:
    assert start("2C 3D 9H", "8H", stock_empty=True) == "take"


def test_without_a_takeable_top_it_draws_or_declines() -> None:
    # top None: the top discard may not be taken (the player's own put-down).
    assert start("2C 3D 9H", None) == "draw"
    assert start("2C 3D 9H", None, stock_empty=True) == "decline"


# -- rule 3: draw otherwise, decline with an empty stock -------------------------------------------


def test_draws_otherwise_and_declines_with_an_empty_stock() -> None:
    assert start("2C 3D 9H", "4S") == "draw"
    assert start("2C 3D 9H", "4S", stock_empty=True) == "decline"


def test_draw_put_down_is_the_card_whose_removal_leaves_the_most() -> None:
    # 2H 3H KH = 15 and a drawn 5S: dropping 5S keeps 15, dropping 2H keeps 3H KH = 13, 3H
    # keeps 12, KH keeps 5. The best score beats the lowest value: put down 5S, not 2H.
    assert put("2H 3H KH", "5S", from_pile=False) == "5S"
    # AH KH 2C and a drawn 9H: dropping 2C keeps AH KH 9H = 30.
    assert put("AH KH 2C", "9H", from_pile=False) == "2C"


# -- rule 4: the tie-break -------------------------------------------------------------------------


def test_tie_break_lowest_value() -> None:
    # 2H 9H KS + drawn QS: dropping 2H keeps 9H KS QS = 20, dropping 9H keeps 2H KS QS = 20
    # (dropping KS or QS leaves 11). Tie 2H / 9H: the lowest value, 2H.
    assert put("2H 9H KS", "QS", from_pile=False) == "2H"
    # Same from the pile (QS may not go back; it is not in the tie anyway).
    assert put("2H 9H KS", "QS", from_pile=True) == "2H"
    # The drawn card loses to a lower value: KH QH 3C + drawn 2C (both leave 20): 2C;
    # KH QH 2C + drawn 3C: 2C again (the lowest value comes before "just drawn").
    assert put("KH QH 3C", "2C", from_pile=False) == "2C"
    assert put("KH QH 2C", "3C", from_pile=False) == "2C"


def test_tie_break_the_card_just_drawn() -> None:
    # KH QH 5C + drawn 5S: either five leaves 20. Equal values: the card just drawn, 5S
    # (suit order alone would have put down 5C).
    assert put("KH QH 5C", "5S", from_pile=False) == "5S"
    # Ten-value cards: AH KH TC + drawn KS: dropping TC or KS leaves AH KH = 21; the drawn KS
    # (suit order would say TC, rank order would say TC too).
    assert put("AH KH TC", "KS", from_pile=False) == "KS"
    # AH KH QS + drawn KS: QS or KS leaves 21; the drawn KS goes, not the lower-ranked QS.
    assert put("AH KH QS", "KS", from_pile=False) == "KS"


def test_tie_break_suit_order() -> None:
    # KH 5D 5C + QH from the pile: 5D or 5C leaves KH QH = 20: clubs first.
    assert put("KH 5D 5C", "QH", from_pile=True) == "5C"
    # 6S 6D KC + drawn QC: 6S or 6D leaves KC QC = 20; the drawn QC is not in the tie:
    # diamonds before spades.
    assert put("6S 6D KC", "QC", from_pile=False) == "6D"
    # Four sevens, the 7C from the pile: every put-down leaves 7; 7D, 7H, 7S tie: diamonds.
    assert put("7S 7H 7D", "7C", from_pile=True) == "7D"
    # The same four sevens with 7C drawn from the stock: the card just drawn.
    assert put("7S 7H 7D", "7C", from_pile=False) == "7C"
    # 7S 7H 7C + 7D from the pile: clubs.
    assert put("7S 7H 7C", "7D", from_pile=True) == "7C"
    # Hearts before spades: 7S 7H 9C + 9D from the pile: dropping 7S keeps 7H 9C 9D = 9, 7H
    # keeps 9, 9C keeps 7S 7H 9D = 9: the sevens are the lowest value, hearts first: 7H.
    assert put("7S 7H 9C", "9D", from_pile=True) == "7H"


def test_tie_break_suit_order_before_rank() -> None:
    # KC TD AH + QH from the pile: dropping KC keeps TD AH QH = 21, dropping TD keeps
    # KC AH QH = 21 (AH alone would be less). Both worth 10, neither drawn: clubs before
    # diamonds, so KC goes although T ranks below K.
    assert put("KC TD AH", "QH", from_pile=True) == "KC"


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("KS QS JS", "JS"),
        ("QS KS JS", "JS"),
        ("KS QS TS", "TS"),
        ("TS KS QS", "TS"),
        ("KS QS 3S", "3S"),  # not a tie: dropping 3S keeps KS QS = 20, a king only QS 3S = 13
    ],
)
def test_tie_break_rank_of_ten_value_cards(hand: str, expected: str) -> None:
    # Three spades + 2C taken from the pile (it may not go back): dropping any ten-value spade
    # keeps two of them = 20. Ten, jack, queen, king: the lowest rank goes.
    assert put(hand, "2C", from_pile=True) == expected


def test_ten_value_ranks_in_full_order() -> None:
    # KD QD TD + JD from the pile (may not go back): dropping K, Q or T keeps JD + two = 30: TD.
    assert put("KD QD TD", "JD", from_pile=True) == "TD"
    # The same with JD drawn from the stock: the card just drawn beats the lower rank.
    assert put("KD QD TD", "JD", from_pile=False) == "JD"
    # KD QD JD + TD from the pile: J < Q < K: JD.
    assert put("KD QD JD", "TD", from_pile=True) == "JD"


def test_taken_card_never_goes_straight_back() -> None:
    # 2C 3D 4H + 2S from the pile: the best drop would be the 2S itself (keeps 4), but it may
    # not go back. Dropping 2C keeps 3D 4H 2S = 4 as well; 2C (lowest value, clubs).
    assert put("2C 3D 4H", "2S", from_pile=True) == "2C"
    # From the stock: 2C and 2S tie at value 2, the drawn 2S goes.
    assert put("2C 3D 4H", "2S", from_pile=False) == "2S"


# -- the rule played in a round --------------------------------------------------------------------


def test_play_rule_turn_uses_the_rule() -> None:
    # 2 seats; seat 0 holds 2C 3D 9H (9), the upcard is 8H: take (9H 8H = 17 > 9) and put down
    # 2C (dropping 2C or 3D both keep 17: the lowest value).
    deck = build_deck([["2C", "3D", "9H"], ["AS", "5D", "7C"]], "8H", ["KD"])
    r = _core.Round(None, 2, 0, deck)
    rec = r.play_rule_turn(27)
    assert (rec.knock, rec.draw, rec.card, rec.discard) == (False, "pile", "8H", "2C")
    assert sorted(r.hand(0)) == ["3D", "8H", "9H"]
    assert r.top == "2C"
    # Seat 1: AS 5D 7C (11). Taking 2C keeps at best 11 (7C 2C = 9): not better, so draw the
    # stock's top, KD. Of the four, dropping 7C keeps AS 5D KD = 15 (5D KD) and dropping AS
    # keeps 5D 7C KD = 15; the others keep 11. Tie 7C / AS: the lower value, 7C.
    rec = r.play_rule_turn(27)
    assert (rec.draw, rec.card, rec.discard) == ("stock", "KD", "7C")
    assert sorted(r.hand(1)) == ["5D", "AS", "KD"]


def test_play_rule_turn_knocks_at_the_given_threshold() -> None:
    # Seat 0 holds 9H 8H 4H = 21.
    deck = build_deck([["9H", "8H", "4H"], ["AS", "5D", "7C"]], "2C", ["KD"])
    r = _core.Round(None, 2, 0, deck)
    assert r.play_rule_turn(27).knock is False  # 21 < 27: KD drawn, put back
    r = _core.Round(None, 2, 0, deck)
    rec = r.play_rule_turn(21)
    assert rec.knock is True and rec.draw is None and rec.discard is None
    assert r.knocker == 0


# -- differential: the core against the reference over thousands of random situations -------------

RULE_SETS: list[dict[str, object] | None] = [
    None,
    {"three_of_a_kind": "30.5", "three_aces": "33", "runs": True},
    {"three_of_a_kind": "30"},
]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_random_situations_match_the_reference(rules: dict[str, object] | None) -> None:
    rng = random.Random(20240531)
    score = rule_scorer(rules)
    for _ in range(4000):
        cards = rng.sample(PACK, 4)
        hand, new = cards[:3], cards[3]
        may_knock = rng.random() < 0.5
        stock_empty = rng.random() < 0.2
        top = new if rng.random() < 0.85 else None
        knock_at = rng.choice([27.0, 20.0, 15.0, 30.5, 31.0])
        want = ref_start(hand, top, may_knock, stock_empty, knock_at, score)
        got = _core.choose_start(hand, top, may_knock, stock_empty, knock_at, rules)
        assert got == want, (hand, top, may_knock, stock_empty, knock_at)
        for from_pile in (True, False):
            want_card, _ = ref_put_down(hand, new, from_pile, score)
            got_card = _core.choose_put_down(hand, new, from_pile, rules)
            assert got_card == want_card, (hand, new, from_pile)


def test_random_tie_heavy_situations_match_the_reference() -> None:
    # Hands drawn from few ranks make ties (equal values, ten-value cards) frequent.
    rng = random.Random(7)
    pool = [c for c in PACK if c[0] in "TJQK2A"]
    for _ in range(4000):
        hand = rng.sample(pool, 4)
        for from_pile in (True, False):
            want, _ = ref_put_down(hand[:3], hand[3], from_pile)
            assert _core.choose_put_down(hand[:3], hand[3], from_pile) == want, (hand, from_pile)
