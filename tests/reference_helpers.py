"""Shared by the test_reference_* files: the standard rules, a two-seat state to vary, random
round states played by the table's rule, a state after one stock draw, and the table's decision
rule at the standard table."""

import random

from reference.rules import Rules, decide
from reference.simulate import random_round_state

STANDARD = Rules()


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


STATE_ONE_DRAW = {
    "rules": "standard",
    "seats": 2,
    "me": 1,
    "first": 0,
    "upcard": "2C",
    "hand": ["KS", "QS", "3H"],
    "turns": [{"seat": 0, "draw": "stock", "discard": "9D"}],
}


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
