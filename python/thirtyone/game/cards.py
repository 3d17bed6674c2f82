"""Cards and hands: text form, values, scores, a shuffled pack.

Cards are plain strings in the two-character ASCII form (``"AH"``, ``"TD"``, ``"KS"``);
:func:`parse_card` accepts ``10D`` and suit symbols (``K♠``) too.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from thirtyone import _core
from thirtyone.errors import CardError
from thirtyone.names import what_it_is

RANKS = "A23456789TJQK"
SUITS = "CDHS"

#: The 52 cards in a fixed order (clubs, diamonds, hearts, spades; ace to king).
PACK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)


def parse_card(text: str) -> str:
    """The ASCII form of a card given as ``AH``, ``TD``, ``10D`` or ``K♠`` (case-insensitive)."""
    if not isinstance(text, str):
        raise CardError(f"{text!r} is not a card: cards are written like AH, TD, 10D")
    return _core.parse_card(text)


def parse_cards(texts: Iterable[str], *, what: str = "cards") -> list[str]:
    """Parse several cards, refusing a card named twice, and anything but a list of them (text,
    which would be read a character at a time, or no list at all) naming ``what``."""
    if isinstance(texts, str | bytes) or not isinstance(texts, Iterable):
        raise CardError(
            f'{what} must be a list of cards, such as ["AH", "9H", "4H"], not {what_it_is(texts)}'
        )
    out = [parse_card(t) for t in texts]
    seen: set[str] = set()
    for c in out:
        if c in seen:
            raise CardError(f"{what}: {c} appears twice")
        seen.add(c)
    return out


def card_value(card: str) -> int:
    """Ace 11, ten and picture cards 10, others their pip value."""
    if not isinstance(card, str):
        raise CardError(f"{card!r} is not a card: cards are written like AH, TD, 10D")
    return _core.card_value(card)


def shuffled_pack(rng: random.Random) -> list[str]:
    """A freshly shuffled pack."""
    deck = list(PACK)
    rng.shuffle(deck)
    return deck


def hand_score(hand: Sequence[str], rules: object | None = None) -> float:
    """The score of a three-card hand: the best single-suit total (30.5 possible with options).

    ``rules`` is a :class:`thirtyone.Rules`, a preset's name or a rules mapping, as
    :meth:`Rules.from_spec` takes them (standard when omitted; anything else raises
    :class:`~thirtyone.errors.RuleError`). A hand that is not a list of cards, or names a card
    twice, raises :class:`~thirtyone.errors.CardError`.
    """
    from thirtyone.game.rules import Rules

    if isinstance(hand, str | bytes) or not isinstance(hand, Iterable):
        what = "a string" if isinstance(hand, str | bytes) else type(hand).__name__
        what = "None" if hand is None else what
        raise CardError(f'a hand is a list of 3 cards, such as ["AH", "9H", "4H"], not {what}')
    r = Rules.from_spec(rules)  # type: ignore[arg-type]  # (it names what it cannot take)
    return _core.score(parse_cards(hand, what="hand"), r.round_rules())
