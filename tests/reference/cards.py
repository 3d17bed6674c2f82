"""Cards: text form, values, suits (rules.md "Cards and hands").

A card is kept as its two-character ASCII text, rank then suit, e.g. ``"AH"``, ``"TD"``.
"""

RANKS = "A23456789TJQK"
SUITS = "CDHS"  # also the tie-break suit order: clubs, diamonds, hearts, spades

_SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}

DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)


def parse_card(text: object) -> str:
    """Return the canonical two-character form of a card text, or raise ValueError."""
    if not isinstance(text, str):
        raise ValueError(f"a card must be a string such as 'AH', not {text!r}")
    body = text.strip()
    if len(body) >= 2 and body[-1] in _SUIT_SYMBOLS:
        body = body[:-1] + _SUIT_SYMBOLS[body[-1]]
    if body[:2] == "10":
        body = "T" + body[2:]
    if len(body) != 2 or body[0] not in RANKS or body[1] not in SUITS:
        raise ValueError(f"unknown card {text!r}")
    return body


def rank_of(card: str) -> str:
    return card[0]


def suit_of(card: str) -> str:
    return card[1]


def card_value(card: str) -> int:
    """Ace 11, K Q J 10 count 10, other cards their pip value."""
    rank = card[0]
    if rank == "A":
        return 11
    if rank in "TJQK":
        return 10
    return int(rank)


def suit_index(card: str) -> int:
    return SUITS.index(card[1])


def rank_index(card: str) -> int:
    """Position in A 2 ... 9 T J Q K (so ten < jack < queen < king)."""
    return RANKS.index(card[0])
