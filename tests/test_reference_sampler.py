"""Tests of the independent reference Oracle (tests/reference): the sampler of consistent deals
against brute-force enumerations of the consistent set (chi-square at a fixed seed).

The reference is what the Rust Oracle is checked against, so it is checked here on its own,
from the rules.
"""

import math
import random
from collections import Counter
from itertools import combinations

import pytest

try:
    import reference as ref
except ModuleNotFoundError:  # tests/ made a package
    from tests import reference as ref  # type: ignore[no-redef]

from reference.cards import DECK
from reference.rules import best_putdown, score
from reference.sampler import (
    Attempts,
    OutOfAttempts,
    combine,
    replay_is_consistent,
    sample_deals_from,
)
from reference.state import parse_state
from reference_helpers import STANDARD, STATE_ONE_DRAW, random_states, rule

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


# ------------------------------------------------------------------------ the sampler


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


def test_an_attempt_budget_counts_every_proposal_and_changes_no_deal(monkeypatch):
    """With an :class:`Attempts` budget the sampler draws the very deals it draws without one,
    counts every proposal it made (every opponent, every redraw after an overlap, every deal),
    and stops with :class:`OutOfAttempts` (a ``NoConsistentDeal``) where the budget ends."""
    s = next(s for s, _ in random_states(40, min_turns_max=12) if s["seats"] >= 4)
    pos = parse_state(s)
    plain = sample_deals_from(pos, 8, random.Random(4))
    proposals = [0]
    real = ref.sampler.propose_history

    def counted(*args):
        proposals[0] += 1
        return real(*args)

    monkeypatch.setattr(ref.sampler, "propose_history", counted)
    work = Attempts(limit=10**9)
    assert sample_deals_from(pos, 8, random.Random(4), work=work) == plain
    assert work.spent == proposals[0] >= 8 * len(pos.opponents)
    exact = Attempts(limit=work.spent)
    assert sample_deals_from(pos, 8, random.Random(4), work=exact) == plain
    assert exact.spent == work.spent
    short = Attempts(limit=work.spent - 1)
    with pytest.raises(OutOfAttempts, match=f"more than {work.spent - 1} attempts"):
        sample_deals_from(pos, 8, random.Random(4), work=short)
    assert short.spent == short.limit
    assert issubclass(OutOfAttempts, ref.NoConsistentDeal)


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
