"""The Oracle's figures for one option: Monte Carlo over consistent deals (oracle.md).

``evaluate`` collects ``deals`` consistent deals, then plays the round out ``playouts`` times,
playout ``i`` on deal ``i mod deals`` with a fresh uniformly shuffled stock of that deal's
remaining unseen cards, and counts the playouts in which you lost no life (``p_safe``) and the
lives you lost (``lives_lost``, knock penalty included).
"""

import math
import random
from typing import Any

from .cards import parse_card
from .playout import play_out
from .rules import score
from .sampler import sample_deals, sample_deals_from
from .state import Position, StateError, parse_state


def legal_options(state: dict[str, Any]) -> list[tuple[str, str | None]]:
    """Your options now, as (option, put_down) pairs for :func:`evaluate`."""
    return _legal_options(parse_state(state))


def _legal_options(pos: Position) -> list[tuple[str, str | None]]:
    if pos.pending is not None:
        kind, gained = pos.pending
        cards = [*pos.hand, gained] if kind == "stock" else list(pos.hand)  # no put-back
        return [(f"discard:{card}", None) for card in cards]
    options: list[tuple[str, str | None]] = []
    if pos.knocker is None and pos.stock_count > 0:
        options.append(("knock", None))
    if pos.stock_count > 0:
        options.append(("draw", None))
    if pos.top not in pos.put_down_by[pos.me]:
        options.extend(("take", card) for card in pos.hand)
    return options


def evaluate(
    state: dict[str, Any],
    option: str,
    *,
    put_down: str | None = None,
    knock_at: float | None = None,
    deals: int = 200,
    playouts: int = 2_000,
    seed: int = 0,
    max_attempts: int = 200_000,
) -> dict[str, Any]:
    """p_safe and lives_lost of one option, you knocking later at ``knock_at`` (None = never).

    Returns ``{"p_safe", "lives_lost", "n_deals", "n_playouts", "margin"}`` where margin is
    oracle.md's ``1.96 * sqrt(p (1 - p) / n_deals)``.
    """
    pos = parse_state(state)
    if not isinstance(option, str):
        raise ValueError(f"option must be a string such as 'knock', not {option!r}")
    if isinstance(knock_at, bool) or not (knock_at is None or isinstance(knock_at, int | float)):
        raise ValueError(f"knock_at must be a number or None, not {knock_at!r}")
    try:
        if put_down is not None:
            put_down = parse_card(put_down)
        if option.startswith("discard:"):
            option = "discard:" + parse_card(option.split(":", 1)[1])
    except ValueError as err:
        raise StateError(f"option {option!r}, put_down {put_down!r}: {err}") from None
    if (option, put_down) not in _legal_options(pos):
        raise StateError(
            f"option {option!r}"
            + (f" putting down {put_down}" if put_down else "")
            + f" is not available now; available: {_legal_options(pos)}"
        )
    if deals < 1 or playouts < 1:
        raise ValueError("deals and playouts must be positive")

    deal_list = sample_deals_from(pos, deals, random.Random(f"deals:{seed}"), max_attempts)
    rng = random.Random(f"playouts:{seed}")
    safe = 0
    lives = 0
    for i in range(playouts):
        deal = deal_list[i % len(deal_list)]
        stock = list(deal.rest)
        rng.shuffle(stock)
        lost = play_out(pos, deal, stock, option, put_down, knock_at)[pos.me]
        safe += lost == 0
        lives += lost
    p = safe / playouts
    n = len(deal_list)
    return {
        "p_safe": p,
        "lives_lost": lives / playouts,
        "n_deals": n,
        "n_playouts": playouts,
        "margin": 1.96 * math.sqrt(p * (1 - p) / n),
    }


def opponent_score_posterior(
    state: dict[str, Any], seat: int, n: int, seed: int = 0, max_attempts: int = 200_000
) -> list[float]:
    """The score of ``seat``'s hand now in each of ``n`` sampled consistent deals."""
    pos = parse_state(state)
    if seat not in pos.opponents:
        raise StateError(f"seat {seat} is not an opponent (seats 0..{pos.seats - 1}, you {pos.me})")
    deals = sample_deals(state, n, seed, max_attempts)
    return [score(deal.hands[seat], pos.rules) for deal in deals]
