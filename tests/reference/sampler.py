"""Consistent deals by plain rejection sampling (oracle.md "How it calculates").

What is being sampled
---------------------
The deal is a uniformly shuffled pack and the decision rule is deterministic, so the posterior
over the hidden part of the deal is uniform over the *consistent* hidden histories: for every
opponent, its dealt hand and the card of each of its stock draws, such that

- every card has one place (nothing is both in your hand, on the pile, in another hand...),
- replaying the table's decision rule (knock at 27) over the round from that dealt hand does
  exactly what the opponent visibly did at every turn: knock or not, take or draw, the card put
  down (with the rule's tie-break), and it never held 31 at the deal or after a put-down.

Each consistent history is one equally likely deal (every history is the same number of
shuffles). The cards left over are the stock, in a uniformly random order.

The proposal
------------
For one opponent ``o`` the history is rebuilt from its current hand backwards:

1. its current hand = the cards known to be there (taken from the pile) + ``h`` distinct unseen
   cards, a uniformly random ordered sample;
2. undo its turns from the last to the first: a pile take of ``c`` putting down ``d`` means the
   hand before held ``d`` instead of ``c``; a stock draw putting down ``d`` means the drawn card
   was ``d`` itself (put straight back) or one of the three cards held afterwards (which ``d``
   replaces) -- one of these 4 cases chosen uniformly at random;
3. what is left at the start is the dealt hand.

Every pair (ordered sample, sequence of 4-way choices) gives one history, and every history
whose current hand has the given set of hidden cards comes from exactly ``h!`` such pairs (one
per order of the sample) -- so every history has the same proposal probability. Proposals that
are not physically possible (a "drawn" card that was already on the pile or in your hand at the
time, the upcard in a dealt hand) or that the rule does not reproduce (checked by
:func:`replay_is_consistent`, a plain forward replay) are rejected. What is accepted is
therefore uniform over that opponent's consistent histories.

Opponents are sampled one at a time and combined: their hidden cards must be distinct, and if
they are not, *all* opponents are sampled again. Because the consistency of one opponent does
not depend on another's cards (only on public facts), the accepted combination is uniform over
the consistent joint deals.
"""

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .rules import COMPUTER_KNOCK_AT, SHOWN_AT, best_putdown, decide, score
from .state import Position

NEVER = 10**9  # "seen at" of a card nobody has seen


class NoConsistentDeal(RuntimeError):
    """No consistent deal was found within the attempt budget."""


class OverBudget(RuntimeError):
    """The proposals allowed (a :class:`Budget`) were all made."""


@dataclass
class Budget:
    """Proposals allowed to a sampling, and those made: its work, counted (not timed)."""

    allowed: int
    made: int = 0

    def spend(self) -> None:
        self.made += 1
        if self.made > self.allowed:
            raise OverBudget(f"over {self.allowed} proposals")


@dataclass(frozen=True)
class OpponentHistory:
    seat: int
    hidden: tuple[str, ...]  # the unseen cards in its hand now
    hand: tuple[str, ...]  # its whole hand now (known cards first)
    dealt: tuple[str, ...]  # its dealt hand
    draws: dict[int, str]  # turn index -> the card it drew from the stock


@dataclass(frozen=True)
class Deal:
    """One consistent deal: every opponent's hand now, and the cards left in the stock."""

    hands: dict[int, tuple[str, ...]]  # opponent seat -> its three cards now
    hidden: dict[int, tuple[str, ...]]  # opponent seat -> the unseen cards among them
    rest: tuple[str, ...]  # the unseen cards not in any hand: the stock (its order is random)
    histories: dict[int, OpponentHistory]


def propose_history(
    pos: Position, seat: int, hidden: tuple[str, ...], rng: random.Random
) -> OpponentHistory | None:
    """Steps 2 and 3 of the proposal; None if the proposal is not physically possible."""
    hand = sorted(pos.known_held[seat]) + list(hidden)
    draws: dict[int, str] = {}
    for turn in reversed(pos.opp_turns[seat]):
        if turn.kind == "knock":
            continue
        put = turn.discard
        assert put is not None
        if turn.kind == "pile":
            if turn.top not in hand:
                return None
            hand[hand.index(turn.top)] = put
        else:
            choice = rng.randrange(4)
            if choice == 0:
                drawn = put  # drawn and put straight back: the hand did not change
            else:
                drawn = hand[choice - 1]
                hand[choice - 1] = put
            # the drawn card was in the stock at turn t: nobody had seen it before then
            if pos.seen_at.get(drawn, NEVER) < turn.t:
                return None
            draws[turn.t] = drawn
    # the dealt hand was dealt before the upcard was turned: none of it seen before turn 1
    if any(pos.seen_at.get(card, NEVER) < 1 for card in hand):
        return None
    current = tuple(sorted(pos.known_held[seat])) + tuple(hidden)
    return OpponentHistory(seat, tuple(hidden), current, tuple(hand), draws)


def replay_is_consistent(pos: Position, history: OpponentHistory) -> bool:
    """Replay the table's rule forward from the dealt hand; True if it does what was seen."""
    rules = pos.rules
    hand = list(history.dealt)
    if len(set(hand)) != 3 or score(hand, rules) >= SHOWN_AT:
        return False  # a dealt 31 would have ended the round before play
    for turn in pos.opp_turns[history.seat]:
        action, put = decide(
            hand,
            turn.top,
            may_take=turn.may_take,
            knock_allowed=turn.knock_allowed,
            stock_empty=False,  # a turn that happened was not a decline
            knock_at=COMPUTER_KNOCK_AT,
            rules=rules,
        )
        if turn.kind == "knock":
            if action != "knock":
                return False
            continue
        if turn.kind == "pile":
            if action != "take" or put != turn.discard:
                return False
            hand = [c for c in hand if c != put] + [turn.top]
        else:
            if action != "draw":
                return False
            drawn = history.draws[turn.t]
            four = [*hand, drawn]
            if len(set(four)) != 4:
                return False
            put, _ = best_putdown(four, rules, drawn=drawn)
            if put != turn.discard:
                return False
            hand = [c for c in four if c != put]
        if score(hand, rules) >= SHOWN_AT:
            return False  # a 31 after a put-down is always shown, ending the round
    if sorted(hand) != sorted(history.hand):  # cannot happen; a guard on the bookkeeping
        raise AssertionError(f"replay ended with {hand}, expected {history.hand}")
    return True


def sample_opponent(
    pos: Position, seat: int, rng: random.Random, max_attempts: int, budget: Budget | None = None
) -> tuple[OpponentHistory, int]:
    """One consistent history of one opponent, uniformly; also the attempts it took (each
    spent from ``budget``, if given)."""
    h = pos.hidden_count(seat)
    for attempt in range(1, max_attempts + 1):
        if budget is not None:
            budget.spend()
        hidden = tuple(rng.sample(pos.unseen, h))
        history = propose_history(pos, seat, hidden, rng)
        if history is not None and replay_is_consistent(pos, history):
            return history, attempt
    raise NoConsistentDeal(
        f"no consistent deal for seat {seat} in {max_attempts} attempts "
        "(its play may be one the table's rule cannot produce)"
    )


Sampler = Callable[[random.Random], tuple[Any, tuple[str, ...]]]


def combine(samplers: dict[int, Sampler], rng: random.Random, max_rounds: int) -> dict[int, Any]:
    """Draw one sample per key with ``samplers[key](rng)`` until their cards are distinct.

    Each sampler returns ``(sample, cards)``. On any overlap *every* key is drawn again, so the
    result is uniform over the distinct combinations when each sampler is uniform over its own
    set (the product distribution conditioned on distinctness).
    """
    for _ in range(max_rounds):
        drawn = {key: sampler(rng) for key, sampler in samplers.items()}
        cards = [c for _, cs in drawn.values() for c in cs]
        if len(cards) == len(set(cards)):
            return {key: sample for key, (sample, _) in drawn.items()}
    raise NoConsistentDeal(f"no combination of distinct hidden cards in {max_rounds} tries")


def sample_deal(
    pos: Position, rng: random.Random, max_attempts: int = 200_000, budget: Budget | None = None
) -> Deal:
    """One consistent deal, uniformly over the consistent joint deals (its proposals spent from
    ``budget``, if given)."""

    def sampler_for(seat: int) -> Sampler:
        def draw(r: random.Random) -> tuple[OpponentHistory, tuple[str, ...]]:
            history, _ = sample_opponent(pos, seat, r, max_attempts, budget)
            return history, history.hidden

        return draw

    histories = combine({s: sampler_for(s) for s in pos.opponents}, rng, max_rounds=10_000)
    taken = {c for history in histories.values() for c in history.hidden}
    rest = tuple(c for c in pos.unseen if c not in taken)
    assert len(rest) == pos.stock_count
    return Deal(
        hands={s: histories[s].hand for s in pos.opponents},
        hidden={s: histories[s].hidden for s in pos.opponents},
        rest=rest,
        histories=histories,
    )


def sample_deals_from(
    pos: Position,
    n: int,
    rng: random.Random,
    max_attempts: int = 200_000,
    budget: Budget | None = None,
) -> list[Deal]:
    return [sample_deal(pos, rng, max_attempts, budget) for _ in range(n)]


def sample_deals(state: dict, n: int, seed: int = 0, max_attempts: int = 200_000) -> list[Deal]:
    """``n`` independent consistent deals of an oracle.md state (a dict), reproducibly."""
    from .state import parse_state

    pos = parse_state(state)
    return sample_deals_from(pos, n, random.Random(f"deals:{seed}"), max_attempts)
