"""Random rounds played by the table's rule, as test positions with the hidden truth.

``random_round_state`` deals a pack, lets every opponent play the table's rule (knock at 27)
and you play a random mix of the rule and arbitrary legal moves, and stops at one of your
turns. It returns the oracle.md state (what you see) and the truth (what was hidden), so tests
can check that the truth is among the consistent deals.
"""

import random
from typing import Any

from .cards import DECK
from .rules import COMPUTER_KNOCK_AT, SHOWN_AT, best_putdown, decide, parse_rules, score


def random_round_state(
    seed: int,
    seats: int,
    min_turns: int,
    rules_spec: Any = "standard",
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """A state at your first turn after at least ``min_turns`` turns, or None if the round
    ended first. You are seat 0 and never knock (a knock of yours would end the round before
    your next turn); the first player is random."""
    rules = parse_rules(rules_spec)
    rng = random.Random(f"simulate:{seed}")
    pack = list(DECK)
    rng.shuffle(pack)
    first = rng.randrange(seats)
    hands: dict[int, list[str]] = {}
    for i in range(seats):  # one at a time from the dealer's left
        seat = (first + i) % seats
        hands[seat] = [pack[i], pack[i + seats], pack[i + 2 * seats]]
    upcard = pack[3 * seats]
    stock = pack[3 * seats + 1 :]
    if any(score(h, rules) >= SHOWN_AT for h in hands.values()):
        return None
    dealt = {s: list(h) for s, h in hands.items()}
    draws: dict[int, dict[int, str]] = {s: {} for s in range(seats)}
    pile = [upcard]
    put_down_by: dict[int, set[str]] = {s: set() for s in range(seats)}
    knocker = None
    turns: list[dict[str, Any]] = []
    seat = first
    while True:
        if seat == 0 and len(turns) >= min_turns:
            state = {
                "rules": rules_spec,
                "seats": seats,
                "me": 0,
                "first": first,
                "upcard": upcard,
                "hand": sorted(hands[0]),
                "turns": turns,
            }
            truth = {
                "hands": {s: sorted(h) for s, h in hands.items() if s != 0},
                "dealt": {s: sorted(h) for s, h in dealt.items() if s != 0},
                "draws": {s: d for s, d in draws.items() if s != 0},
                "stock": list(stock),
            }
            return state, truth
        hand = hands[seat]
        top = pile[-1]
        may_take = top not in put_down_by[seat]
        knock_allowed = knocker is None and len(stock) > 0
        arbitrary = seat == 0 and rng.random() < 0.5  # you: an arbitrary legal move
        if arbitrary:
            moves = ["draw"] if stock else []
            if may_take:
                moves.append("take")
            if not moves:
                return None
            move = rng.choice(moves)
            put = None
        else:
            move, put = decide(
                hand,
                top,
                may_take=may_take,
                knock_allowed=knock_allowed,
                stock_empty=not stock,
                knock_at=COMPUTER_KNOCK_AT if seat != 0 else None,
                rules=rules,
            )
        if move == "decline":
            return None
        entry: dict[str, Any] = {"seat": seat}
        if move == "knock":
            knocker = seat
            entry["knock"] = True
        else:
            if move == "take":
                gained = pile.pop()
                entry["draw"] = "pile"
                if arbitrary:
                    put = rng.choice(hand)
            else:
                gained = stock.pop(0)
                entry["draw"] = "stock"
                draws[seat][len(turns) + 1] = gained
                if seat == 0:
                    entry["drew"] = gained
                if arbitrary:
                    put = rng.choice([*hand, gained])
                else:
                    put, _ = best_putdown([*hand, gained], rules, drawn=gained)
            hands[seat] = [c for c in [*hand, gained] if c != put]
            pile.append(put)
            put_down_by[seat].add(put)
            entry["discard"] = put
            if score(hands[seat], rules) >= SHOWN_AT:
                return None
        turns.append(entry)
        if knocker is not None and move != "knock" and seat == (knocker - 1) % seats:
            return None
        seat = (seat + 1) % seats
