"""Exact P(safe) and E[lives lost] of knocking on your first turn at a two-seat table.

This is the Oracle issue's "Exact check", by enumeration instead of sampling:

1. every history of the opponent that the deal allows -- its dealt hand, and the card it drew
   if it drew from the stock before your turn -- is listed, and kept if the table's rule,
   replayed forward, does what the opponent visibly did (each kept history is equally likely);
2. you knock; the opponent's final turn is played by the table's rule: take the top discard if
   that strictly improves its hand, else draw the top of the stock -- every card left in the
   stock equally likely;
3. the showdown (or the opponent's shown 31) gives the lives you lose.
"""

from collections import Counter
from itertools import combinations
from typing import Any

import numpy as np

from .cards import DECK
from .playout import losses_31_shown, losses_knock_showdown
from .rules import COMPUTER_KNOCK_AT, SHOWN_AT, Rules, best_putdown, best_take, decide, score
from .state import StateError, parse_state


def _score_table(rules: Rules) -> np.ndarray:
    """table[i, j, k] = score of the hand of DECK[i], DECK[j], DECK[k] (distinct indices)."""
    table = np.full((52, 52, 52), np.nan)
    for i, j, k in combinations(range(52), 3):
        value = score([DECK[i], DECK[j], DECK[k]], rules)
        for a, b, c in ((i, j, k), (i, k, j), (j, i, k), (j, k, i), (k, i, j), (k, j, i)):
            table[a, b, c] = value
    return table


def _opponent_histories(pos: Any, opp: int, pool: list[str]) -> Counter[tuple[str, ...]]:
    """Consistent histories of the opponent, counted by its hand now (sorted)."""
    rules = pos.rules
    turns = pos.opp_turns[opp]
    hands_now: Counter[tuple[str, ...]] = Counter()
    for dealt in combinations(pool, 3):
        if score(dealt, rules) >= SHOWN_AT:
            continue  # a dealt 31 ends the round before play
        if not turns:
            hands_now[tuple(sorted(dealt))] += 1
            continue
        (turn,) = turns
        action, put = decide(
            list(dealt),
            turn.top,
            may_take=turn.may_take,
            knock_allowed=turn.knock_allowed,
            stock_empty=False,
            knock_at=COMPUTER_KNOCK_AT,
            rules=rules,
        )
        if turn.kind == "pile":
            if action != "take" or put != turn.discard:
                continue
            after = [c for c in dealt if c != put] + [turn.top]
            if score(after, rules) < SHOWN_AT:
                hands_now[tuple(sorted(after))] += 1
        elif turn.kind == "stock":
            if action != "draw":
                continue
            # the card put down is one of the four: if it was not dealt, it was the one drawn
            candidates = pool if turn.discard in dealt else [turn.discard]
            for drawn in candidates:
                if drawn in dealt:
                    continue
                four = [*dealt, drawn]
                put, kept_score = best_putdown(four, rules, drawn=drawn)
                if put == turn.discard and kept_score < SHOWN_AT:
                    hands_now[tuple(sorted(c for c in four if c != put))] += 1
        else:
            raise StateError("the opponent knocked: you cannot knock")
    return hands_now


def exact_knock_now_two_seats(state: dict[str, Any]) -> dict[str, float]:
    """Exact figures of "knock now" on your first turn at a two-seat table.

    Returns ``{"p_safe", "lives_lost", "histories"}`` (``histories``: how many consistent
    opponent histories were enumerated).
    """
    pos = parse_state(state)
    if pos.seats != 2:
        raise StateError("the exact check is for two seats")
    if pos.my_turns != 0 or pos.pending is not None:
        raise StateError("the exact check is for your first turn, before you draw")
    if pos.knocker is not None or pos.stock_count == 0:
        raise StateError("you cannot knock now")
    rules = pos.rules
    opp = 1 - pos.me
    # The opponent's dealt hand and stock draws come from everything but your hand (which is
    # your dealt hand: you have not played yet) and the upcard.
    pool = [c for c in DECK if c not in pos.hand and c != pos.upcard]
    hands_now = _opponent_histories(pos, opp, pool)
    if not hands_now:
        raise StateError("no deal explains the opponent's play")

    table = _score_table(rules)
    index = {card: i for i, card in enumerate(DECK)}
    mine = score(pos.hand, rules)
    top = pos.top
    may_take = top not in pos.put_down_by[opp]
    weight_total = 0  # sum over histories of the number of equally likely stock tops
    safe_total = 0
    lives_total = 0

    def my_loss(opp_final: float) -> int:
        if opp_final >= SHOWN_AT:
            return losses_31_shown(opp, 2)[pos.me]
        return losses_knock_showdown({pos.me: mine, opp: opp_final}, pos.me, rules)[pos.me]

    for hand, count in hands_now.items():
        stock = [c for c in pool if c not in hand and c not in pos.put_down_by[opp]]
        if len(stock) != pos.stock_count:
            raise AssertionError(f"stock of {len(stock)} cards, expected {pos.stock_count}")
        weight_total += count * len(stock)
        take = may_take and best_take(list(hand), top, rules)[1] > score(hand, rules)
        if take:  # the final turn does not depend on the stock
            loss = my_loss(best_take(list(hand), top, rules)[1])
            safe_total += count * len(stock) * (loss == 0)
            lives_total += count * len(stock) * loss
            continue
        a, b, c = (index[x] for x in hand)
        drawn = np.array([index[x] for x in stock])
        final = np.maximum.reduce(
            [
                np.full(len(drawn), table[a, b, c]),
                table[a, b, drawn],
                table[a, c, drawn],
                table[b, c, drawn],
            ]
        )  # the best three of the four cards: the score after the rule's put-down
        for value, times in Counter(final.tolist()).items():
            loss = my_loss(value)
            safe_total += count * times * (loss == 0)
            lives_total += count * times * loss
    return {
        "p_safe": safe_total / weight_total,
        "lives_lost": lives_total / weight_total,
        "histories": sum(hands_now.values()),
    }
