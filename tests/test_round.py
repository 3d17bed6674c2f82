"""One round, played through the core's ``Round`` (rules.md: the deal, dealt 31, turns, the
knock and the final turns, 31 in play, the stock running out, and what the round costs)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from helpers import PACK, build_deck
from thirtyone import IllegalMoveError, _core
from thirtyone._core import Action

# Hands with known scores (seed 003's worked hand, and more tens).
H24 = ["AH", "9H", "4H"]  # 11 + 9 + 4
H17 = ["KS", "7S", "AC"]  # 10 + 7 beats the lone ace
H10 = ["QD", "QH", "5C"]  # three suits: a queen
H22 = ["JC", "TC", "2C"]  # 10 + 10 + 2
H10B = ["TS", "4D", "3H"]  # three suits: the ten
H10C = ["KD", "2S", "6H"]  # three suits: the king
H31 = ["AS", "KS", "QS"]


def new_round(
    hands: Sequence[Sequence[str]],
    upcard: str = "8D",
    stock: Sequence[str] = (),
    rules: dict[str, object] | None = None,
    first: int = 0,
    rest: Sequence[str] | None = None,
) -> _core.Round:
    deck = build_deck(hands, upcard, stock, first, rest)
    return _core.Round(rules, len(hands), first, deck)


def pass_turn(r: _core.Round) -> str:
    """Draw from the stock and put the drawn card straight back (the hand stays)."""
    r.apply(Action("draw"))
    new, source = r.pending or ("", "")
    assert source == "stock"
    r.apply(Action("put", new))
    return new


def showdown(
    hands: Sequence[Sequence[str]], knocker: int, rules: dict[str, object] | None = None
) -> list[int]:
    """Seat 0 plays first; everybody passes except ``knocker``, who knocks on their first turn;
    the round ends after the knocker's right-hand neighbour. Returns the losses."""
    r = new_round(hands, rules=rules)
    n = len(hands)
    for _ in range(knocker):
        pass_turn(r)
    assert r.to_move == knocker
    r.apply(Action("knock"))
    for _ in range(n - 1):
        assert not r.is_over
        pass_turn(r)
    assert r.is_over and r.end == ("showdown", None)
    return r.losses()


# -- the deal ------------------------------------------------------------------------------------


def test_deal_one_card_at_a_time_from_the_first_player() -> None:
    # 3 seats, seat 1 plays first (the dealer is seat 0). The deck in pack order:
    # AC -> seat 1, 2C -> seat 2, 3C -> seat 0, 4C -> seat 1, ... ; TC is the upcard and JC the
    # stock's top.
    r = _core.Round(None, 3, 1, list(PACK))
    assert r.hand(1) == ["AC", "4C", "7C"]
    assert r.hand(2) == ["2C", "5C", "8C"]
    assert r.hand(0) == ["3C", "6C", "9C"]
    assert r.top == "TC" and r.top_by is None
    assert r.stock_len == 52 - 9 - 1
    assert r.to_move == 1 and r.knocker is None and not r.is_over
    r.apply(Action("draw"))
    assert r.pending == ("JC", "stock")


def test_the_stock_is_drawn_in_order() -> None:
    r = new_round([H24, H17, H10], stock=["2D", "3D", "4S"])
    assert [pass_turn(r) for _ in range(3)] == ["2D", "3D", "4S"]
    assert r.stock_len == 52 - 9 - 1 - 3
    assert r.losses() == [0, 0, 0]  # nothing is lost while the round is on


def test_a_bad_deck_is_refused() -> None:
    with pytest.raises(_core.StateError):
        _core.Round(None, 3, 0, [*PACK[:51], "AC"])
    with pytest.raises(_core.StateError):
        _core.Round(None, 10, 0, list(PACK))
    with pytest.raises(_core.StateError):
        _core.Round(None, 3, 3, list(PACK))


# -- dealt 31 ------------------------------------------------------------------------------------


def test_one_player_dealt_31_everybody_else_loses_a_life() -> None:
    r = new_round([H24, H31, H10])
    assert r.is_over and r.end == ("dealt_31", None)
    assert r.losses() == [1, 0, 1]
    assert [str(a) for a in r.legal_actions()] == []
    with pytest.raises(IllegalMoveError):
        r.apply(Action("draw"))


def test_two_players_dealt_31_are_both_safe() -> None:
    r = new_round([H31, H10, ["AD", "TD", "JD"], H24])
    assert r.end == ("dealt_31", None)
    assert r.losses() == [0, 1, 0, 1]


def test_dealt_31_in_a_two_seat_game_with_both_safe() -> None:
    r = new_round([H31, ["AD", "TD", "JD"]])
    assert r.end == ("dealt_31", None)
    assert r.losses() == [0, 0]


def test_dealt_three_aces_under_cadillac_is_shown_like_31() -> None:
    # DECISIONS.md 5: 33 is shown like a 31.
    rules = {"three_aces": "33"}
    r = new_round([[*H17[:2], "2H"], ["AC", "AD", "AH"], H10], rules=rules)
    assert r.end == ("dealt_31", None)
    assert r.losses() == [1, 0, 1]
    # Without the option three aces are 11, and play starts.
    r = new_round([[*H17[:2], "2H"], ["AC", "AD", "AH"], H10])
    assert not r.is_over and r.end is None


# -- 31 in play ----------------------------------------------------------------------------------


def test_31_after_a_stock_draw_ends_the_round() -> None:
    r = new_round([H24, H10B, ["AD", "KD", "2C"]], stock=["3S", "7D", "QD"])
    pass_turn(r)  # seat 0: 3S
    pass_turn(r)  # seat 1: 7D
    r.apply(Action("draw"))  # seat 2: QD
    r.apply(Action("put", "2C"))  # AD KD QD = 31
    assert r.is_over and r.end == ("thirty_one", 2)
    assert r.showed_31(2)
    assert r.losses() == [1, 1, 0]


def test_31_after_taking_the_top_discard_ends_the_round() -> None:
    r = new_round([["AH", "KH", "3C"], H10B, H22], upcard="QH")
    r.apply(Action("take"))
    r.apply(Action("put", "3C"))
    assert r.end == ("thirty_one", 0)
    assert r.losses() == [0, 1, 1]


def test_31_during_the_final_turns_ends_the_round_and_the_knocker_pays_too() -> None:
    # 4 seats: seat 0 knocks holding 10 (it would be the lowest and pay 2 at a showdown).
    # Seat 1 draws the stock's QS to AS KS: 31 shown at once, the round ends before seats 2
    # and 3 play, and everybody else loses one life, the knocker one like the rest.
    r = new_round([H10, ["AS", "KS", "2D"], H24, H22], stock=["QS"])
    r.apply(Action("knock"))
    r.apply(Action("draw"))
    r.apply(Action("put", "2D"))
    assert r.is_over and r.end == ("thirty_one", 1)
    assert r.losses() == [1, 0, 1, 1]


def test_31_on_the_last_final_turn() -> None:
    # 3 seats: seat 1 knocks, seats 2 and 0 have their final turns; seat 0 (the knocker's right)
    # makes 31 from the top discard.
    r = new_round([["AS", "KS", "2D"], H24, H10], stock=["3C", "QS"])
    pass_turn(r)  # seat 0 puts back 3C
    r.apply(Action("knock"))  # seat 1
    r.apply(Action("draw"))  # seat 2 draws QS ...
    r.apply(Action("put", "QS"))  # ... and puts it down: now the top
    assert r.to_move == 0 and r.may_take()
    r.apply(Action("take"))
    r.apply(Action("put", "2D"))
    assert r.end == ("thirty_one", 0)
    assert r.losses() == [0, 1, 1]


# -- no put-back, no retake ----------------------------------------------------------------------


def test_a_card_taken_from_the_pile_may_not_go_straight_back() -> None:
    r = new_round([H24, H10, H22], upcard="8H")
    r.apply(Action("take"))
    assert r.pending == ("8H", "pile")
    assert "put:8H" not in [str(a) for a in r.legal_actions()]
    assert sorted([str(a) for a in r.legal_actions()]) == ["put:4H", "put:9H", "put:AH"]
    with pytest.raises(IllegalMoveError):
        r.apply(Action("put", "8H"))
    # Still the same player's put-down.
    assert r.to_move == 0 and r.pending == ("8H", "pile")
    r.apply(Action("put", "4H"))
    assert sorted(r.hand(0)) == ["8H", "9H", "AH"]
    assert r.top == "4H" and r.top_by == 0


def test_a_card_drawn_from_the_stock_may_go_straight_back() -> None:
    r = new_round([H24, H10, H22], stock=["5S"])
    r.apply(Action("draw"))
    assert "put:5S" in [str(a) for a in r.legal_actions()]
    r.apply(Action("put", "5S"))
    assert sorted(r.hand(0)) == sorted(H24)
    assert r.top == "5S" and r.top_by == 0 and r.to_move == 1


def test_only_cards_held_may_be_put_down() -> None:
    r = new_round([H24, H10, H22], stock=["5S"])
    with pytest.raises(IllegalMoveError):
        r.apply(Action("put", "9H"))  # a put-down before drawing
    r.apply(Action("draw"))
    with pytest.raises(IllegalMoveError):
        r.apply(Action("put", "QD"))  # seat 1's card
    with pytest.raises(IllegalMoveError):
        r.apply(Action("draw"))  # a second draw


def test_nobody_takes_their_own_put_down_two_seats_after_a_knock() -> None:
    # 2 seats: seat 0 puts down 4H; seat 1 knocks; seat 0's final turn finds its own 4H on top.
    r = new_round([H24, H10], stock=["5S", "6S"])
    r.apply(Action("draw"))
    r.apply(Action("put", "4H"))
    r.apply(Action("knock"))
    assert r.to_move == 0 and r.top == "4H" and r.top_by == 0
    assert not r.may_take()
    assert "take" not in [str(a) for a in r.legal_actions()]
    with pytest.raises(IllegalMoveError):
        r.apply(Action("take"))
    r.apply(Action("draw"))  # the stock's 6S is still allowed
    r.apply(Action("put", "6S"))
    assert r.end == ("showdown", None)


def test_two_player_mercy_option_allows_the_retake() -> None:
    r = new_round([H24, H10], stock=["5S"], rules={"two_player_mercy": True})
    r.apply(Action("draw"))
    r.apply(Action("put", "4H"))
    r.apply(Action("knock"))
    assert r.may_take() and "take" in [str(a) for a in r.legal_actions()]
    r.apply(Action("take"))
    r.apply(Action("put", "5S"))
    assert sorted(r.hand(0)) == ["4H", "9H", "AH"]


def test_with_three_seats_after_a_knock_the_top_is_someone_elses() -> None:
    # Seat 0 puts down 4H, seat 1 knocks: seat 2 may take seat 0's 4H; after seat 2 puts down,
    # seat 0 (final turn, the knocker's right) may take seat 2's card.
    r = new_round([H24, H10, ["5H", "6H", "2S"]], stock=["7C"])
    r.apply(Action("draw"))
    r.apply(Action("put", "4H"))
    r.apply(Action("knock"))
    assert r.to_move == 2 and r.may_take()
    r.apply(Action("take"))
    r.apply(Action("put", "2S"))
    assert r.to_move == 0 and r.top_by == 2 and r.may_take()
    r.apply(Action("take"))
    r.apply(Action("put", "7C"))
    assert r.end == ("showdown", None)


# -- the knock -----------------------------------------------------------------------------------


def test_a_knock_gives_each_other_player_exactly_one_more_turn() -> None:
    # 4 seats, seat 0 first. Seats 0 and 1 play, seat 2 knocks: seats 3, 0 and 1 then have one
    # turn each, in that order, and the round ends after seat 1 (seat 2's right-hand neighbour).
    r = new_round([H24, H17, H10, H22])
    pass_turn(r)
    pass_turn(r)
    assert r.may_knock()
    r.apply(Action("knock"))
    assert r.knocker == 2
    order = []
    while not r.is_over:
        order.append(r.to_move)
        assert not r.may_knock()
        assert "knock" not in [str(a) for a in r.legal_actions()]
        pass_turn(r)
    assert order == [3, 0, 1]
    assert r.end == ("showdown", None)
    # The knocker's hand is frozen: seat 2 never moved again.
    assert sorted(r.hand(2)) == sorted(H10)


def test_a_second_knock_is_refused() -> None:
    r = new_round([H24, H17, H10])
    r.apply(Action("knock"))
    with pytest.raises(IllegalMoveError):
        r.apply(Action("knock"))


@pytest.mark.parametrize("n", [2, 3, 5, 9])
def test_a_knock_on_the_very_first_turn(n: int) -> None:
    # Standard allows it; the others play once each and the dealer (the last seat) ends it.
    pool = [c for c in PACK if c[0] in "23456789"]
    hands = [pool[3 * i : 3 * i + 3] for i in range(n)]
    r = new_round(hands, upcard="AC")
    assert r.may_knock()
    r.apply(Action("knock"))
    order = []
    while not r.is_over:
        order.append(r.to_move)
        pass_turn(r)
    assert order == list(range(1, n))
    assert r.turns_played == n


def test_first_turn_knock_forbidden_option() -> None:
    r = new_round([H24, H17, H10], rules={"first_turn_knock": "forbidden"})
    assert not r.may_knock()
    with pytest.raises(IllegalMoveError):
        r.apply(Action("knock"))
    pass_turn(r)
    assert r.may_knock()


# -- the showdown: every row of the losses ---------------------------------------------------------


def test_seed_003_worked_hand_showdown() -> None:
    # Alice (seat 0) knocks on 24; Ben 17, Cara 10, Dev 22: Cara is lowest and loses 1, the
    # knocker was not lowest and pays nothing.
    assert showdown([H24, H17, H10, H22], knocker=0) == [0, 0, 1, 0]


def test_ties_for_lowest_all_lose_one() -> None:
    # Ben and Cara both on 10, the knocker Alice on 24.
    assert showdown([H24, H10B, H10, H22], knocker=0) == [0, 1, 1, 0]
    # Three-way tie.
    assert showdown([H24, H10B, H10, H10C], knocker=0) == [0, 1, 1, 1]


@pytest.mark.parametrize(("penalty", "paid"), [(1, 1), (2, 2)])
def test_knocker_lowest_pays_the_knock_penalty(penalty: int, paid: int) -> None:
    rules = {"knock_penalty": penalty}
    assert showdown([H10, H17, H24, H22], knocker=0, rules=rules) == [paid, 0, 0, 0]
    # A knocker who is not the first player.
    assert showdown([H17, H10, H24, H22], knocker=1, rules=rules) == [0, paid, 0, 0]


def test_knock_penalty_defaults_to_two() -> None:
    assert showdown([H10, H17, H24], knocker=0) == [2, 0, 0]


@pytest.mark.parametrize(("penalty", "paid"), [(1, 1), (2, 2)])
def test_knocker_tied_pays_the_penalty_and_the_others_tied_one(penalty: int, paid: int) -> None:
    rules = {"knock_penalty": penalty}
    # Knocker (seat 0) and seat 2 on 10.
    assert showdown([H10, H17, H10B, H22], knocker=0, rules=rules) == [paid, 0, 1, 0]
    # Knocker tied with two others.
    assert showdown([H10, H10C, H10B, H22], knocker=0, rules=rules) == [paid, 1, 1, 0]
    # Everybody tied.
    assert showdown([H10, H10C, H10B], knocker=2, rules=rules) == [1, 1, paid]


@pytest.mark.parametrize(
    ("knocker_tie", "penalty", "expected"),
    [
        ("knocker_pays", 2, [2, 0, 1, 0]),
        ("knocker_pays", 1, [1, 0, 1, 0]),
        ("others_pay", 2, [0, 0, 1, 0]),  # seed 003's table: the knocker is safe on a tie
        ("others_pay", 1, [0, 0, 1, 0]),
        ("only_knocker", 2, [2, 0, 0, 0]),
        ("only_knocker", 1, [1, 0, 0, 0]),
        ("cadillac", 2, [2, 0, 0, 0]),  # the knocker pays two, the tied players nothing
        ("cadillac", 1, [2, 0, 0, 0]),
    ],
)
def test_knocker_tie_variants(knocker_tie: str, penalty: int, expected: list[int]) -> None:
    rules = {"knocker_tie": knocker_tie, "knock_penalty": penalty}
    assert showdown([H10, H17, H10B, H22], knocker=0, rules=rules) == expected
    # A knocker lowest alone pays the penalty under every variant.
    assert showdown([H10, H17, H24, H22], knocker=0, rules=rules) == [penalty, 0, 0, 0]


# -- the stock running out -----------------------------------------------------------------------


def run_down_the_stock(r: _core.Round, leave: int = 0) -> None:
    while r.stock_len > leave:
        pass_turn(r)


def test_stock_out_takes_continue_and_a_decline_ends_the_round() -> None:
    # 2 seats: 52 - 6 - 1 = 45 stock cards, passed back one by one; seat 0 draws the last one
    # (turns 0..44 alternate, turn 44 is seat 0's), so the top is the stock's bottom card, 2D.
    rest = [c for c in PACK if c != "2D"] + ["2D"]
    r = new_round([H24, H10], upcard="3S", rest=rest)
    assert r.stock_len == 45
    run_down_the_stock(r)
    assert r.to_move == 1 and r.top == "2D" and r.top_by == 0
    # Stock empty: no knock, no draw; take or decline (DECISIONS.md 1).
    assert not r.may_knock()
    assert sorted([str(a) for a in r.legal_actions()]) == ["decline", "take"]
    with pytest.raises(IllegalMoveError):
        r.apply(Action("knock"))
    with pytest.raises(IllegalMoveError):
        r.apply(Action("draw"))
    # Seat 1 takes 2D (QD 2D = 12) and puts down 5C: play goes on.
    r.apply(Action("take"))
    r.apply(Action("put", "5C"))
    assert not r.is_over and r.to_move == 0 and r.score(1) == 12
    # Seat 0 declines: the round ends; the lowest (seat 1 on 12) loses one life.
    r.apply(Action("decline"))
    assert r.end == ("stock_out", 0)
    assert r.losses() == [0, 1]


def test_stock_out_ties_all_lose_one_and_there_is_no_knock_penalty() -> None:
    r = new_round([H10, H24, H10B])
    run_down_the_stock(r)
    # 42 stock cards: turn 41 was seat 2's, seat 0 is to move.
    assert r.to_move == 0
    r.apply(Action("decline"))
    assert r.end == ("stock_out", 0)
    assert r.losses() == [1, 0, 1]


def test_decline_only_with_an_empty_stock() -> None:
    r = new_round([H10, H24, H10B])
    assert "decline" not in [str(a) for a in r.legal_actions()]
    with pytest.raises(IllegalMoveError):
        r.apply(Action("decline"))


def test_stock_running_out_during_the_final_turns_is_settled_as_the_knock() -> None:
    # DECISIONS.md 2. 3 seats, 42 stock cards: pass until one is left (41 turns, the last by
    # seat 1); seat 2 knocks holding 10; seat 0 draws the last card; seat 1 finds the stock
    # empty and declines (it may not knock). The knock's showdown: the knocker is lowest alone
    # and pays the knock penalty.
    r = new_round([H24, H22, H10])
    run_down_the_stock(r, leave=1)
    assert r.to_move == 2 and r.may_knock()
    r.apply(Action("knock"))
    pass_turn(r)
    assert r.stock_len == 0 and r.to_move == 1
    assert not r.may_knock()
    r.apply(Action("decline"))
    assert r.end == ("stock_out", 1)
    assert r.knocker == 2
    assert r.losses() == [0, 0, 2]
