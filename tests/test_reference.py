"""Tests of the independent reference Oracle (tests/reference), written from the rules.

The reference is what the Rust Oracle will be checked against, so it is checked here on its
own: scores and the decision rule by hand-made cases, the round's mechanics by hand-played
rounds, the sampler against brute-force enumerations of the consistent set (chi-square at a
fixed seed), and the Monte Carlo against an exact enumeration.
"""

import json
import math
import random
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

try:
    import reference as ref
except ModuleNotFoundError:  # tests/ made a package
    from tests import reference as ref  # type: ignore[no-redef]

from reference.cards import DECK
from reference.playout import play_out
from reference.rules import Rules, best_putdown, best_take, decide, score
from reference.sampler import Deal, combine, replay_is_consistent, sample_deals_from
from reference.simulate import random_round_state
from reference.state import StateError, parse_state

STANDARD = Rules()

# chi-square critical values at significance 0.001, by degrees of freedom
# fmt: off
CHI2_999 = {
    1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515, 6: 22.458, 7: 24.322, 8: 26.124,
    9: 27.877, 10: 29.588, 11: 31.264, 12: 32.909, 13: 34.528, 14: 36.123, 15: 37.697,
    16: 39.252, 17: 40.790, 18: 42.312, 19: 43.820, 20: 45.315, 21: 46.797, 22: 48.268,
    23: 49.728, 24: 51.179, 25: 52.620, 26: 54.052, 27: 55.476, 28: 56.892, 29: 58.301,
    30: 59.703, 31: 61.098, 32: 62.487, 33: 63.870, 34: 65.247, 35: 66.619, 36: 67.985,
    37: 69.346, 38: 70.703, 39: 72.055, 40: 73.402, 41: 74.745, 42: 76.084, 43: 77.419,
    44: 78.750, 45: 80.077, 46: 81.400, 47: 82.720, 48: 84.037, 49: 85.351, 50: 86.661,
    51: 87.968, 52: 89.272, 53: 90.573, 54: 91.872, 55: 93.168, 56: 94.461, 57: 95.751,
    58: 97.039, 59: 98.324, 60: 99.607,
}
# fmt: on


def critical_999(df: int) -> float:
    try:
        from scipy.stats import chi2  # type: ignore[import-untyped]

        return float(chi2.ppf(0.999, df))
    except ImportError:
        return CHI2_999[df]


def chi_square(observed: Counter, expected_share: dict, n: int) -> tuple[float, int]:
    """Pearson's statistic; categories with an expected count under 5 are pooled."""
    big = [k for k, share in expected_share.items() if share * n >= 5]
    small = [k for k in expected_share if k not in big]
    cells = [(observed[k], expected_share[k] * n) for k in big]
    if small:
        cells.append((sum(observed[k] for k in small), sum(expected_share[k] for k in small) * n))
    assert sum(observed.values()) == n
    assert set(observed) <= set(expected_share), "a sampled category the enumeration lacks"
    stat = sum((o - e) ** 2 / e for o, e in cells)
    return stat, len(cells) - 1


def state(**fields):
    base = {
        "rules": "standard",
        "seats": 2,
        "me": 0,
        "first": 0,
        "upcard": "7S",
        "hand": ["AH", "9H", "4H"],
        "turns": [],
    }
    base.update(fields)
    return base


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


def rule(hand, top, *, may_take=True, knock_allowed=True, stock_empty=False, knock_at=27):
    return decide(
        hand,
        top,
        may_take=may_take,
        knock_allowed=knock_allowed,
        stock_empty=stock_empty,
        knock_at=knock_at,
        rules=STANDARD,
    )


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


# ------------------------------------------------------------------------ the sampler


def random_states(count, min_turns_max=16):
    rng = random.Random(5)
    found = 0
    seed = 0
    while found < count:
        seed += 1
        seats = rng.choice([2, 3, 4, 5, 6])
        out = random_round_state(seed, seats, rng.randrange(0, min_turns_max))
        if out is not None:
            found += 1
            yield out


def test_the_true_history_is_always_consistent():
    for s, truth in random_states(60):
        pos = parse_state(s)
        for seat in pos.opponents:
            known = sorted(pos.known_held[seat])
            hidden = tuple(c for c in truth["hands"][seat] if c not in known)
            history = ref.sampler.OpponentHistory(
                seat,
                hidden,
                tuple(known) + hidden,
                tuple(truth["dealt"][seat]),
                truth["draws"][seat],
            )
            assert replay_is_consistent(pos, history), (s, seat)


def test_sampled_deals_respect_every_known_card():
    for s, _truth in random_states(12, min_turns_max=12):
        pos = parse_state(s)
        known = set(DECK) - set(pos.unseen)
        for deal in sample_deals_from(pos, 6, random.Random(1)):
            for seat in pos.opponents:
                hidden = [c for c in deal.hands[seat] if c not in pos.known_held[seat]]
                assert not known & set(hidden)
                assert pos.known_held[seat] <= set(deal.hands[seat])  # pile-taken cards stay
                assert len(set(deal.hands[seat])) == 3
            everything = [
                *pos.hand,
                *pos.pile,
                *deal.rest,
                *(c for seat in pos.opponents for c in deal.hands[seat]),
            ]
            if pos.pending and pos.pending[0] == "stock":
                everything.append(pos.pending[1])
            assert sorted(everything) == sorted(DECK)
            assert len(deal.rest) == pos.stock_count


def test_a_knocker_is_sampled_with_27_or_more():
    for s, _truth in random_states(200, min_turns_max=30):
        pos = parse_state(s)
        knockers = [t for seat in pos.opponents for t in pos.opp_turns[seat] if t.kind == "knock"]
        if knockers and pos.knocker in pos.opponents:
            scores = ref.opponent_score_posterior(s, pos.knocker, 30, seed=2)
            assert min(scores) >= 27
            return
    pytest.fail("no random state with an opponent's knock")


def test_combine_is_uniform_over_distinct_combinations():
    # A uniform over {a, b, c}, B uniform over {a, b}: the distinct pairs (a,b) (b,a) (c,a)
    # (c,b) are equally likely, so A is c half of the time (not a third)
    samplers = {
        0: lambda r: (x := r.choice("abc"), (x,)),
        1: lambda r: (x := r.choice("ab"), (x,)),
    }
    rng = random.Random(3)
    n = 8000
    pairs = Counter(tuple(combine(samplers, rng, 100).values()) for _ in range(n))
    expected = {("a", "b"): 0.25, ("b", "a"): 0.25, ("c", "a"): 0.25, ("c", "b"): 0.25}
    stat, df = chi_square(pairs, expected, n)
    assert stat < critical_999(df)


STATE_ONE_DRAW = {
    "rules": "standard",
    "seats": 2,
    "me": 1,
    "first": 0,
    "upcard": "2C",
    "hand": ["KS", "QS", "3H"],
    "turns": [{"seat": 0, "draw": "stock", "discard": "9D"}],
}


def enumerate_one_stock_draw(s):
    """Brute force over every dealt hand and stock card of the opponent, replayed forward."""
    pos = parse_state(s)
    (turn,) = pos.opp_turns[0]
    pool = [c for c in DECK if c not in s["hand"] and c != s["upcard"]]
    counts = Counter()
    for dealt in combinations(pool, 3):
        if score(dealt, STANDARD) >= 31 or score(dealt, STANDARD) >= 27:
            continue  # dealt 31, or the rule would have knocked
        if rule(list(dealt), "2C")[0] != "draw":
            continue  # the rule would have taken the 2C
        for drawn in pool if turn.discard in dealt else [turn.discard]:
            if drawn in dealt:
                continue
            put, kept = best_putdown([*dealt, drawn], STANDARD, drawn=drawn)
            if put == turn.discard and kept < 31:
                now = [c for c in (*dealt, drawn) if c != put]
                counts[(score(now, STANDARD), turn.discard in dealt)] += 1
    return counts


def test_sampler_matches_the_enumeration_after_a_stock_draw():
    exact = enumerate_one_stock_draw(STATE_ONE_DRAW)
    total = sum(exact.values())
    share = {k: v / total for k, v in exact.items()}
    n = 4000
    deals = ref.sample_deals(STATE_ONE_DRAW, n, seed=11)
    observed = Counter((score(d.hands[0], STANDARD), "9D" in d.histories[0].dealt) for d in deals)
    stat, df = chi_square(observed, share, n)
    assert stat < critical_999(df), (stat, df)
    # and the share of histories where the nine was dealt (not drawn and put back) agrees
    p = sum(v for (_, dealt), v in exact.items() if dealt) / total
    q = sum(v for (_, dealt), v in observed.items() if dealt) / n
    assert abs(p - q) < 4 * math.sqrt(p * (1 - p) / n)


STATE_TWO_DRAWS = {
    "rules": "standard",
    "seats": 2,
    "me": 1,
    "first": 0,
    "upcard": "2C",
    "hand": ["KS", "QS", "3H"],
    "turns": [
        {"seat": 0, "draw": "stock", "discard": "9D"},
        {"seat": 1, "draw": "stock", "drew": "5H", "discard": "5H"},
        {"seat": 0, "draw": "stock", "discard": "4S"},
    ],
}


def test_sampler_matches_the_enumeration_after_two_stock_draws():
    # Was each card put down dealt, or drawn (and when)? The four cases must come out as often
    # as among all consistent histories, enumerated here forward by brute force.
    pool = [c for c in DECK if c not in ("KS", "QS", "3H", "2C", "5H")]
    exact = Counter()
    for dealt in combinations(pool, 3):
        if score(dealt, STANDARD) >= 27 or rule(list(dealt), "2C")[0] != "draw":
            continue  # dealt 27 or more (a knock or a 31), or the 2C would have been taken
        for drawn1 in pool if "9D" in dealt else ["9D"]:
            if drawn1 in dealt:
                continue
            put1, kept1 = best_putdown([*dealt, drawn1], STANDARD, drawn=drawn1)
            hand1 = [c for c in (*dealt, drawn1) if c != put1]
            if put1 != "9D" or kept1 >= 27 or rule(hand1, "5H")[0] != "draw":
                continue  # another put-down, a knock next turn, or the 5H taken
            for drawn2 in pool if "4S" in hand1 else ["4S"]:
                if drawn2 in dealt or drawn2 == drawn1:
                    continue
                put2, kept2 = best_putdown([*hand1, drawn2], STANDARD, drawn=drawn2)
                if put2 == "4S" and kept2 < 31:
                    exact[("9D" in dealt, "4S" in dealt, drawn1 == "4S")] += 1
    total = sum(exact.values())
    n = 1200
    deals = ref.sample_deals(STATE_TWO_DRAWS, n, seed=21)
    observed = Counter()
    for d in deals:
        history = d.histories[0]
        observed[("9D" in history.dealt, "4S" in history.dealt, history.draws[1] == "4S")] += 1
    stat, df = chi_square(observed, {k: v / total for k, v in exact.items()}, n)
    assert stat < critical_999(df), (stat, df, exact, observed)


STATE_TWO_TAKES = {
    "rules": "standard",
    "seats": 3,
    "me": 2,
    "first": 0,
    "upcard": "KH",
    "hand": ["AS", "9S", "2H"],
    "turns": [
        {"seat": 0, "draw": "pile", "discard": "4C"},
        {"seat": 1, "draw": "pile", "discard": "3D"},
    ],
}


def test_sampler_matches_the_joint_enumeration_of_two_opponents():
    s = STATE_TWO_TAKES
    pool = [c for c in DECK if c not in s["hand"] and c not in ("KH", "4C", "3D")]
    consistent = {0: [], 1: []}
    for pair in combinations(pool, 2):
        for seat, top, put in ((0, "KH", "4C"), (1, "4C", "3D")):
            dealt = [put, *pair]
            if score(dealt, STANDARD) >= 31:
                continue
            if rule(dealt, top) == ("take", put) and score([top, *pair], STANDARD) < 31:
                consistent[seat].append(pair)
    joint = Counter()
    for pair0 in consistent[0]:
        for pair1 in consistent[1]:
            if not set(pair0) & set(pair1):
                joint[(score(["KH", *pair0], STANDARD), score(["4C", *pair1], STANDARD))] += 1
    total = sum(joint.values())
    n = 3000
    deals = ref.sample_deals(s, n, seed=12)
    assert all("KH" in d.hands[0] and "4C" in d.hands[1] for d in deals)  # taken from the pile
    for seat in (0, 1):
        share = Counter()
        for key, count in joint.items():
            share[key[seat]] += count / total
        observed = Counter(score(d.hands[seat], STANDARD) for d in deals)
        stat, df = chi_square(observed, dict(share), n)
        assert stat < critical_999(df), (seat, stat, df)


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
