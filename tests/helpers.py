"""Test-side helpers: stacked decks, scripted players, and small independent references of the
rules in ``rules.md`` (hand score, the table's decision rule, what a round costs).

Everything here is written from the rules, not from the implementation, so that the tests can
compare the two.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from thirtyone import Action, SeatView

RANKS = "A23456789TJQK"
SUITS = "CDHS"
PACK = [r + s for s in SUITS for r in RANKS]


# -- decks ---------------------------------------------------------------------------------------


def build_deck(
    hands: Sequence[Sequence[str]],
    upcard: str,
    stock: Sequence[str] = (),
    first: int = 0,
    rest: Sequence[str] | None = None,
) -> list[str]:
    """A 52-card deck that deals ``hands`` (indexed by seat, 0..n) when dealt from ``first``.

    The deal (rules.md): three cards each, one at a time, starting with ``first`` and going to
    seat + 1; then the upcard; the stock's top cards follow in the order they will be drawn.
    The cards not named fill the bottom of the stock, in ``rest`` order if given, else pack order.
    """
    n = len(hands)
    named = [c for h in hands for c in h] + [upcard, *stock]
    assert all(len(h) == 3 for h in hands), hands
    assert len(set(named)) == len(named), f"a card is named twice: {named}"
    assert all(c in PACK for c in named), named
    deck: list[str] = []
    for k in range(3):
        for i in range(n):
            deck.append(hands[(first + i) % n][k])
    deck.append(upcard)
    deck.extend(stock)
    filler = list(rest) if rest is not None else PACK
    deck.extend(c for c in filler if c not in named)
    assert sorted(deck) == sorted(PACK)
    return deck


def turn_order(dealer: int, n_seats: int, out: Sequence[int] = ()) -> list[int]:
    """Game seats still in, in turn order starting on the dealer's left (seat + 1)."""
    order = []
    for step in range(1, n_seats + 1):
        s = (dealer + step) % n_seats
        if s not in out:
            order.append(s)
    return order


def game_deck(
    hands: dict[int, Sequence[str]],
    dealer: int,
    n_seats: int,
    upcard: str,
    stock: Sequence[str] = (),
    out: Sequence[int] = (),
) -> list[str]:
    """A deck for a :class:`thirtyone.Game` round: ``hands`` by *game* seat, dealt from the
    dealer's left over the seats still in."""
    order = turn_order(dealer, n_seats, out)
    assert sorted(order) == sorted(hands), (order, hands)
    return build_deck([hands[s] for s in order], upcard, stock)


# -- scripted players ----------------------------------------------------------------------------


class FirstKnocks:
    """Knocks if it plays the round's very first turn; otherwise draws from the stock and puts
    the drawn card straight back, which keeps the dealt hand. With every seat played by this,
    a round is a showdown of the dealt hands, the first player knocking. (A policy: it looks at
    a blind table.)"""

    def __init__(self, name: str = "p") -> None:
        self.name = name

    def decide(self, view: SeatView) -> Action:
        if view.phase == "blind":
            return Action("look")
        if view.drawn is not None:
            return Action("put", view.drawn[0])
        return Action("knock") if view.turns_played == 0 else Action("draw")


class Script:
    """Plays the turns it is given, in order, one a turn: ``"knock"``, ``"decline"``,
    ``"blind"`` (call the blind showdown), ``"look"`` (then the next step in the same turn
    unless the round ended), ``("draw", card)`` / ``("take", card)`` (``None``: put the drawn
    card back) and ``("draw", card, "hide")`` to keep the 31 that leaves hidden."""

    def __init__(self, name: str, turns: Sequence[Any]) -> None:
        self.name = name
        self.turns = list(turns)
        self._then: tuple[Any, ...] | None = None

    def decide(self, view: SeatView) -> Action:
        if view.drawn is not None:
            assert self._then is not None, "a put-down follows a draw or take of the script"
            card, *flags = self._then
            self._then = None
            card = view.drawn[0] if card is None else card
            return Action("hide" if "hide" in flags else "put", card)
        step = self.turns.pop(0)
        if isinstance(step, str):
            return Action(step)
        how, *self._then = step
        return Action(how)


# -- references of the rules ---------------------------------------------------------------------


def value(card: str) -> int:
    r = card[0]
    if r == "A":
        return 11
    if r in "TJQK":
        return 10
    return int(r)


def ref_score(
    hand: Sequence[str],
    three_of_a_kind: str = "none",
    three_aces: str = "none",
    runs: bool = False,
) -> float:
    """The hand score of rules.md, with its options."""
    per_suit = {s: 0 for s in SUITS}
    for c in hand:
        per_suit[c[1]] += value(c)
    best: float = max(per_suit.values())
    ranks = [c[0] for c in hand]
    if len(set(ranks)) == 1:
        if ranks[0] == "A" and three_aces == "33":
            best = max(best, 33)
        elif three_of_a_kind == "30":
            best = max(best, 30)
        elif three_of_a_kind == "30.5":
            best = max(best, 30.5)
    if runs and len({c[1] for c in hand}) == 1:
        pos = sorted(RANKS.index(r) for r in ranks)  # ace low: A=0 … K=12
        consecutive = pos[1] == pos[0] + 1 and pos[2] == pos[1] + 1
        queen_king_ace = pos == [0, 11, 12]
        if consecutive or queen_king_ace:
            best = max(best, 30)
    return best


def rule_scorer(rules: dict[str, Any] | None) -> Callable[[Sequence[str]], float]:
    r = rules or {}
    return lambda h: ref_score(
        h,
        r.get("three_of_a_kind", "none"),
        r.get("three_aces", "none"),
        r.get("runs", False),
    )


def _tie_key(card: str, new: str, from_pile: bool) -> tuple[int, int, int, int]:
    """Rule 4: lowest value; then the card just drawn from the stock; then suit order C D H S;
    then, for ten-value cards, the lower rank T J Q K."""
    drawn = 0 if (card == new and not from_pile) else 1
    return (value(card), drawn, SUITS.index(card[1]), "TJQK".find(card[0]))


def ref_put_down(
    hand: Sequence[str],
    new: str,
    from_pile: bool,
    score: Callable[[Sequence[str]], float] = ref_score,
) -> tuple[str, float]:
    """Rules 2-4: the card to put down and the score kept."""
    four = [*hand, new]
    options = []
    for d in four:
        if from_pile and d == new:
            continue
        kept = [c for c in four if c != d]
        options.append((score(kept), d))
    best = max(s for s, _ in options)
    tied = [d for s, d in options if s == best]
    return min(tied, key=lambda d: _tie_key(d, new, from_pile)), best


def ref_start(
    hand: Sequence[str],
    top: str | None,
    may_knock: bool,
    stock_empty: bool,
    knock_at: float = 27,
    score: Callable[[Sequence[str]], float] = ref_score,
) -> str:
    """Rules 1-3: knock, take, draw or decline."""
    now = score(hand)
    if may_knock and now >= knock_at:
        return "knock"
    if top is not None:
        best = max(score([c for c in hand if c != d] + [top]) for d in hand)
        if best > now:
            return "take"
    return "decline" if stock_empty else "draw"


def ref_losses(
    scores: Sequence[float],
    end: str,
    by: int | None,
    knocker: int | None,
    knock_penalty: int = 2,
    knocker_tie: str = "knocker_pays",
) -> list[int]:
    """What a round costs each seat (rules.md, DECISIONS.md 2), seats in any fixed order,
    ``by``/``knocker`` as indexes into ``scores``."""
    n = len(scores)
    if end == "dealt_31":
        return [0 if s >= 31 else 1 for s in scores]
    if end == "thirty_one":
        return [0 if i == by else 1 for i in range(n)]
    low = min(scores)
    lowest = [i for i in range(n) if scores[i] == low]
    lost = [1 if i in lowest else 0 for i in range(n)]
    if knocker is not None and knocker in lowest:
        if len(lowest) == 1:
            lost[knocker] = knock_penalty
        else:
            mine, theirs = {
                "knocker_pays": (knock_penalty, 1),
                "others_pay": (0, 1),
                "only_knocker": (knock_penalty, 0),
                "cadillac": (2, 0),
            }[knocker_tie]
            for i in lowest:
                lost[i] = mine if i == knocker else theirs
    return lost


# -- the bounds of the Oracle's work (README "Errors") -------------------------------------------

#: The least work of an answer: 100 deals and 1,000 playouts per option (or as many as asked).
MIN_DEALS, MIN_PLAYOUTS = 100, 1_000
#: The attempts of the consistent deals: each opponent not counted exactly is probed at most
#: 200,000 times; each try of the least work (one, and one more for each opponent dealt without
#: the test because it found no deal) is a pilot of at most 512 attempts and at most 1,000,000;
#: and at most 10,000 attempts a deal asked.
PROBE_ATTEMPTS, PILOT_ATTEMPTS, LEAST_ATTEMPTS, ATTEMPTS_PER_DEAL = 200_000, 512, 1_000_000, 10_000


def least_attempts(opponents: int) -> int:
    """The most attempts of the least work (all a collection does when the time is up)."""
    return opponents * PROBE_ATTEMPTS + (opponents + 1) * (PILOT_ATTEMPTS + LEAST_ATTEMPTS)


def most_attempts(deals: int, opponents: int) -> int:
    """The most attempts of the consistent deals of an answer asked for ``deals`` deals (without
    a target margin)."""
    return least_attempts(opponents) + ATTEMPTS_PER_DEAL * deals


#: A position of the Oracle's documentation (docs/oracle.md's example), and a quick budget.
EXAMPLE = Path(__file__).parent / "data" / "example_state.json"
QUICK: dict[str, Any] = {"deals": 100, "playouts": 200, "seed": 1, "max_time": None}


def example() -> dict[str, Any]:
    """The example position, read afresh (a test may change it)."""
    state: dict[str, Any] = json.loads(EXAMPLE.read_text())
    return state
