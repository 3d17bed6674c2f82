"""Tests of the independent reference Oracle (tests/reference): the round's mechanics by
hand-played rounds (the showdown, the final turns, a 31, the stock running out).

The reference is what the Rust Oracle is checked against, so it is checked here on its own,
from the rules.
"""

from reference.playout import play_out
from reference.sampler import Deal
from reference.state import parse_state

# ------------------------------------------------------------------ round mechanics


def position_with(hands, *, seats, upcard, first=0, turns=(), rules="standard"):
    """A position at your (seat 0) turn and a Deal giving the opponents the given hands."""
    pos = parse_state(
        {
            "rules": rules,
            "seats": seats,
            "me": 0,
            "first": first,
            "upcard": upcard,
            "hand": hands[0],
            "turns": list(turns),
        }
    )
    rest = tuple(c for c in pos.unseen if not any(c in hands[s] for s in pos.opponents))
    deal = Deal(
        hands={s: tuple(hands[s]) for s in pos.opponents},
        hidden={s: tuple(hands[s]) for s in pos.opponents},
        rest=rest,
        histories={},
    )
    return pos, deal


def stock_with(deal, top_cards):
    return list(top_cards) + [c for c in deal.rest if c not in top_cards]


def test_knock_showdown_of_seed_003_and_final_turn_order():
    hands = {
        0: ["AH", "9H", "4H"],
        1: ["KS", "7S", "AC"],
        2: ["QD", "QH", "5C"],
        3: ["JC", "TC", "2C"],
    }
    pos, deal = position_with(hands, seats=4, upcard="2D")
    log = []
    lost = play_out(pos, deal, stock_with(deal, ["3D", "6S", "8D"]), "knock", None, None, log)
    assert [entry[0] for entry in log] == [0, 1, 2, 3]  # final turns end on the knocker's right
    assert log[1] == (1, "draw", "3D", "3D")  # 3D does not help Ben's 17: back it goes
    assert log[2] == (2, "take", "3D", "5C")  # Cara: QD 3D = 13 beats 10
    assert log[3] == (3, "take", "5C", "2C")  # Dev: JC TC 5C = 25 beats 22
    assert lost == {0: 0, 1: 0, 2: 1, 3: 0}  # Cara lowest on 13; Alice knocked on 24: safe


def test_knocker_lowest_and_ties_under_each_option():
    hands = {0: ["9H", "4H", "2S"], 1: ["KS", "7S", "AC"]}  # you 13, the opponent 17
    stock = ["3D"]
    for rules, expected in (("standard", 2), ({"knock_penalty": 1}, 1)):
        pos, deal = position_with(hands, seats=2, upcard="2D", rules=rules)
        assert play_out(pos, deal, stock_with(deal, stock), "knock", None, None)[0] == expected
    # 14 each; the opponent draws 3D, which ties with its 2C: the lower value goes (still 14)
    tie = {0: ["KH", "4H", "2S"], 1: ["KS", "4S", "2C"]}
    for knocker_tie, you, them in (
        ("knocker_pays", 2, 1),
        ("others_pay", 0, 1),
        ("only_knocker", 2, 0),
        ("cadillac", 2, 0),
    ):
        pos, deal = position_with(tie, seats=2, upcard="2D", rules={"knocker_tie": knocker_tie})
        log = []
        lost = play_out(pos, deal, stock_with(deal, ["3D"]), "knock", None, None, log)
        assert log[-1] == (1, "draw", "3D", "2C")
        assert lost == {0: you, 1: them}, knocker_tie


def test_31_in_the_final_turns_costs_the_knocker_one_life():
    hands = {0: ["AH", "KH", "QD"], 1: ["AS", "KS", "2C"], 2: ["5D", "6C", "8H"]}
    pos, deal = position_with(hands, seats=3, upcard="2D")
    log = []
    lost = play_out(pos, deal, stock_with(deal, ["QS"]), "knock", None, None, log)
    assert log == [(0, "knock", None, None), (1, "draw", "QS", "2C")]
    assert lost == {0: 1, 1: 0, 2: 1}


def test_opponent_knock_gives_you_the_last_final_turn():
    # 3 seats: you draw, seat 1 (27) knocks, seat 2 and you play final turns, then showdown
    hands = {0: ["2C", "3D", "5H"], 1: ["AS", "KS", "6S"], 2: ["QD", "QH", "5C"]}
    pos, deal = position_with(hands, seats=3, upcard="4S")
    log = []
    lost = play_out(pos, deal, stock_with(deal, ["7H", "8C", "9D"]), "draw", None, 20, log)
    assert log == [
        (0, "draw", "7H", "2C"),  # 2C and 3D both leave 12: the lower value goes
        (1, "knock", None, None),  # AS KS 6S = 27
        (2, "draw", "8C", "QD"),  # QD and QH both leave 13: diamonds before hearts
        (0, "take", "QD", "5H"),  # 3D QD = 13 beats 12; 5H and 7H tie: the lower value
    ]
    assert lost == {0: 1, 1: 0, 2: 1}  # you and seat 2 tied lowest on 13: one life each


def test_stock_running_out_ends_the_round_with_a_decline():
    hands = {0: ["AH", "9H", "4H"], 1: ["KS", "7S", "AC"]}
    pos, deal = position_with(hands, seats=2, upcard="2D")
    log = []
    # you draw the last card (3C) and put it back; the opponent cannot improve with 3C: declines
    lost = play_out(pos, deal, ["3C"], "draw", None, None, log)
    assert log == [(0, "draw", "3C", "3C"), (1, "decline", None, None)]
    assert lost == {0: 0, 1: 1}  # the lowest (17 against 24) loses one
    # after a knock a decline is settled as the knock's showdown (DECISIONS 2)
    weak = {0: ["9H", "4H", "2S"], 1: ["KS", "7S", "AC"]}
    pos, deal = position_with(weak, seats=2, upcard="2D")
    lost = play_out(pos, deal, [], "knock", None, None)
    assert lost == {0: 2, 1: 0}
