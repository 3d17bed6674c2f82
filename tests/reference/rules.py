"""Hand scores under a table's rules, and the table's decision rule (rules.md).

The decision rule, exactly as rules.md states it (``c`` is the top discard):

1. Knock if knocking is allowed now and ``score(hand) >= knock_at`` (27 for computer players).
2. Take ``c`` if it may be taken and ``max over d of score(hand - d + c) > score(hand)``;
   put down the ``d`` giving that maximum (ties: rule 4).
3. Otherwise draw from the stock and put down the card of the four whose removal leaves the
   highest score (ties: rule 4); with an empty stock, decline instead.
4. Tie-break among equally good put-downs: lowest value; then the card just drawn from the
   stock; then suit order clubs, diamonds, hearts, spades; then (ten-value cards of one suit)
   the lower rank: ten, jack, queen, king.
"""

from dataclasses import dataclass
from functools import cache
from typing import Any

from .cards import DECK, RANKS, card_value, rank_index, suit_index, suit_of

COMPUTER_KNOCK_AT = 27
SHOWN_AT = 31  # DECISIONS 5: a hand scoring 31 or more is shown like a 31

KNOCKER_TIE_CHOICES = ("knocker_pays", "others_pay", "only_knocker", "cadillac")


@dataclass(frozen=True)
class Rules:
    """The rule options the reference supports; the defaults are the preset ``standard``."""

    knock_penalty: int = 2
    knocker_tie: str = "knocker_pays"
    three_of_a_kind: float | None = None  # None, 30 or 30.5
    three_aces: int | None = None  # None or 33
    runs: bool = False


# Options that change nothing within one round: accepted and ignored.
_ROUND_IRRELEVANT = ("lives", "county", "placing", "life_names")


def _is_off(value: Any) -> bool:
    return value is None or value is False or value == "off"


# Options that change the round but that the reference does not model: accepted only at the
# standard table's value.
_STANDARD_ONLY = {
    "thirty_one_after_knock": lambda v: v == "ends_round",
    "may_hide_31": _is_off,
    "two_player_mercy": _is_off,
    "min_knock": lambda v: _is_off(v) or (type(v) is int and v == 0),
    "knock_needs_one_suit": _is_off,
    "first_turn_knock": lambda v: v == "allowed",
    "lives_mode": lambda v: v == "lives",
}

# The options the reference models: the accepted spellings of each value.
_CHOICES: dict[str, list[tuple[Any, Any]]] = {
    "knock_penalty": [(1, 1), (2, 2)],
    "knocker_tie": [(name, name) for name in KNOCKER_TIE_CHOICES],
    "three_of_a_kind": [
        (None, None),
        ("none", None),
        (30, 30),
        ("30", 30),
        (30.5, 30.5),
        ("30.5", 30.5),
    ],
    "three_aces": [(None, None), ("none", None), (33, 33), ("33", 33)],
    "runs": [(False, False), (True, True), ("off", False), ("on", True)],
}


def _same(value: Any, spelling: Any) -> bool:
    """Equal and of the same kind (True is not 1; 30 and 30.0 are the same number)."""
    if isinstance(value, bool) or isinstance(spelling, bool):
        return isinstance(value, bool) and isinstance(spelling, bool) and value == spelling
    if isinstance(value, int | float) and isinstance(spelling, int | float):
        return value == spelling
    return type(value) is type(spelling) and value == spelling


def _choose(key: str, value: Any) -> Any:
    for spelling, meaning in _CHOICES[key]:
        if _same(value, spelling):
            return meaning
    allowed = ", ".join(str(s) for s, _ in _CHOICES[key] if s is not None)
    raise ValueError(f"rules: {key} must be one of {allowed}, not {value!r}")


def parse_rules(spec: Any) -> Rules:
    """``"standard"`` or ``{"preset": "standard", "knock_penalty": 1, ...}`` -> Rules."""
    if spec is None:
        return Rules()
    if isinstance(spec, str):
        if spec != "standard":
            raise ValueError(f"rules: preset {spec!r} is not supported by the reference")
        return Rules()
    if not isinstance(spec, dict):
        raise ValueError(f"rules must be a preset name or an object, not {spec!r}")
    preset = spec.get("preset", "standard")
    if preset != "standard":
        raise ValueError(f"rules: preset {preset!r} is not supported by the reference")
    fields: dict[str, Any] = {}
    for key, value in spec.items():
        if key == "preset" or key in _ROUND_IRRELEVANT:
            continue
        if key in _STANDARD_ONLY:
            if not _STANDARD_ONLY[key](value):
                raise ValueError(
                    f"rules: {key}={value!r} is not supported by the reference "
                    "(only the standard table's value)"
                )
            continue
        if key not in _CHOICES:
            raise ValueError(f"rules: unknown rule key {key!r}")
        fields[key] = _choose(key, value)
    return Rules(**fields)


_DECK_SET = frozenset(DECK)


def _is_run(hand: list[str] | tuple[str, ...]) -> bool:
    """Three cards of one suit in sequence; the ace is low (A-2-3) or high (Q-K-A)."""
    if len({suit_of(c) for c in hand}) != 1:
        return False
    low = sorted(RANKS.index(c[0]) + 1 for c in hand)  # ace 1 ... king 13
    high = sorted(14 if v == 1 else v for v in low)  # ace 14
    return any(r[1] == r[0] + 1 and r[2] == r[1] + 1 for r in (low, high))


def score(hand: list[str] | tuple[str, ...], rules: Rules) -> float:
    """The score of a three-card hand: the best single-suit total, or a scoring option's value."""
    if len(hand) != 3:
        raise ValueError(f"a hand is three cards, not {hand!r}")
    return _score_of_set(frozenset(hand), rules)


@cache  # a speed-up only: there are 22,100 hands
def _score_of_set(cards: frozenset[str], rules: Rules) -> float:
    if len(cards) != 3 or not _DECK_SET.issuperset(cards):
        raise ValueError(f"a hand is three different cards (canonical text), not {sorted(cards)}")
    hand = sorted(cards)
    suit_totals = dict.fromkeys("CDHS", 0)
    for card in hand:
        suit_totals[card[1]] += card_value(card)
    best: float = max(suit_totals.values())
    if hand[0][0] == hand[1][0] == hand[2][0]:  # three of a kind
        if hand[0][0] == "A" and rules.three_aces == 33:
            best = max(best, 33)
        elif rules.three_of_a_kind is not None:
            best = max(best, rules.three_of_a_kind)
    if rules.runs and _is_run(hand):
        best = max(best, 30)  # A-K-Q of one suit already scores 31
    return best


def putdown_key(card: str, drawn: str | None) -> tuple[int, int, int, int]:
    """Rule 4: smaller key = put down first among equally good put-downs."""
    return (card_value(card), 0 if card == drawn else 1, suit_index(card), rank_index(card))


def best_putdown(four: list[str], rules: Rules, drawn: str | None = None) -> tuple[str, float]:
    """Rule 3's put-down from four cards: (card to put down, score of the three kept)."""
    if len(four) != 4 or len(set(four)) != 4:
        raise ValueError(f"a put-down is chosen from four different cards, not {four!r}")
    options = []
    for card in four:
        kept = [c for c in four if c != card]
        options.append((score(kept, rules), card))
    best_score = max(s for s, _ in options)
    tied = [card for s, card in options if s == best_score]
    chosen = min(tied, key=lambda card: putdown_key(card, drawn))
    return chosen, best_score


def best_take(hand: list[str], top: str, rules: Rules) -> tuple[str, float]:
    """Rule 2's put-down after taking ``top``: (card of the hand to put down, resulting score).

    The taken card may not be put straight back, so only the cards of the hand are candidates.
    """
    options = []
    for card in hand:
        kept = [c for c in hand if c != card] + [top]
        options.append((score(kept, rules), card))
    best_score = max(s for s, _ in options)
    tied = [card for s, card in options if s == best_score]
    chosen = min(tied, key=lambda card: putdown_key(card, None))
    return chosen, best_score


def decide(
    hand: list[str],
    top: str,
    *,
    may_take: bool,
    knock_allowed: bool,
    stock_empty: bool,
    knock_at: float | None,
    rules: Rules,
) -> tuple[str, str | None]:
    """The table's rule at the start of a turn.

    Returns ``("knock", None)``, ``("take", card_to_put_down)``, ``("draw", None)`` (the
    put-down is then :func:`best_putdown` with the drawn card) or ``("decline", None)``.
    ``knock_at=None`` means never knock.
    """
    current = score(hand, rules)
    if knock_allowed and knock_at is not None and current >= knock_at:
        return ("knock", None)
    if may_take:
        card, after = best_take(hand, top, rules)
        if after > current:
            return ("take", card)
    if stock_empty:
        return ("decline", None)
    return ("draw", None)
