"""The order of the Oracle's options: which one is the best (the ★ of the terminal, the option
Enter plays, ``best`` in the JSON) and which one is named for the game.

The core ranks the options by ``p_safe`` and says which are statistically tied with the safest
(within its margin). Among those tied options:

1. the ones that lose the fewest lives on average stay in: an option is out when it loses more
   than the one that loses fewest by more than the sum of their margins (a difference within
   the margins is no difference, as everywhere in the words);
2. of those, the one with the highest ``p_win`` as shown (one decimal of a percentage; two
   decimals of points under ranked placing) is the best;
3. and between equal figures, the safest (the core's order).

``best_game`` is the option with the highest ``p_win``, unless the best shows the same figure:
then it is the best, so that the game is never said to prefer another option for a difference
nobody can see.

A later knock score of 31 or more reads as never: a hand of 31 (or three aces' 33) is shown at
once after the put-down, so no knock is ever made with it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from thirtyone.oracle.answer import OptionAdvice

#: A knock score at or above this is never knocked at: such a hand is shown at once.
SHOWN_AT_ONCE = 31.0


def knock_score(knock_at: float | None) -> float | None:
    """The later knock score as it is played: None (never) for a score a hand is shown at."""
    if knock_at is None or knock_at >= SHOWN_AT_ONCE:
        return None
    return float(knock_at)


def _half_up(x: float, step: int) -> int:
    """``x`` rounded to the four places of the JSON answer, then to whole ``step``s of those
    ten-thousandths, halves away from zero: on integers, so that a page doing the same with the
    JSON's figure writes the same digits as these words."""
    n = round(round(x, 4) * 10_000)
    whole = (abs(n) + step // 2) // step
    return whole if n >= 0 else -whole


def _written(units: int, places: int) -> str:
    """``units`` hundredths (``places`` 2) or tenths (1) written as a decimal: ``-12.8``."""
    scale = 10**places
    sign = "-" if units < 0 else ""
    return f"{sign}{abs(units) // scale}.{abs(units) % scale:0{places}d}"


def tenths(x: float) -> int:
    """``100 * x`` in tenths (of a percentage or of a percentage point) as every screen shows
    it: 0.1275 → 128, shown 12.8% (:func:`_half_up`)."""
    return _half_up(x, 10)


def percent_shown(x: float) -> str:
    """``100 * x`` to one decimal as shown (:func:`tenths`): ``12.8`` for 0.1275 (``—`` for no
    figure)."""
    return _written(tenths(x), 1) if math.isfinite(x) else "—"


def shown_gap(a: float, b: float) -> float:
    """``a - b`` as the two figures are shown (:func:`tenths`), so that a difference said beside
    them is theirs: 64.3% against 61.3% (0.643, 0.6125) is 3.0 points, not the 3.1 of the
    unrounded difference."""
    return (tenths(a) - tenths(b)) / 1000


def two_places(x: float) -> str:
    """``x`` to two decimals as shown (lives lost, ranked points), as the pages write them
    (0.125 → ``0.13``; :func:`_half_up`)."""
    return _written(_half_up(x, 100), 2) if math.isfinite(x) else "—"


def lost_shown(x: float) -> str:
    """The unit lost as shown: ``0.38``."""
    return two_places(x)


def game_shown(option: OptionAdvice, points: bool = False) -> str:
    """The game-level figure as shown: ``41.2%``, or ``1.62`` points (empty without one)."""
    if option.p_win is None:
        return ""
    return two_places(option.p_win) if points else f"{percent_shown(option.p_win)}%"


def _game_key(option: OptionAdvice, points: bool) -> float:
    """The game-level figure rounded as shown (-1 without one), for comparisons."""
    if option.p_win is None:
        return -1.0
    return round(option.p_win, 2) if points else tenths(option.p_win) / 1000


def fewer_lost(a: OptionAdvice, b: OptionAdvice) -> bool:
    """Whether ``a`` loses fewer lives on average than ``b``: by more than the sum of their
    margins, and as shown."""
    margin = a.lives_lost_margin + b.lives_lost_margin
    return b.lives_lost - a.lives_lost > margin and lost_shown(a.lives_lost) != lost_shown(
        b.lives_lost
    )


def higher_game(a: OptionAdvice, b: OptionAdvice, points: bool = False) -> bool:
    """Whether ``a``'s game-level figure is higher than ``b``'s as shown."""
    return a.p_win is not None and _game_key(a, points) > _game_key(b, points)


def pick(group: Sequence[OptionAdvice], points: bool = False) -> OptionAdvice:
    """The best of a group of options tied on safety (safest first): the fewest lives lost,
    then the highest ``p_win`` as shown, then the safest."""
    fewest = min(group, key=lambda o: o.lives_lost)
    kept = [o for o in group if not fewer_lost(fewest, o)]
    top = max(_game_key(o, points) for o in kept)
    return next(o for o in kept if _game_key(o, points) == top)


def best_first(
    options: Sequence[OptionAdvice], tied: Sequence[OptionAdvice], points: bool = False
) -> tuple[list[OptionAdvice], list[OptionAdvice]]:
    """The options with the best first (then the others in their order) and the options tied
    with it: the group of the safest and those tied with it, less the best."""
    if not options:
        return [], []
    group = [options[0], *tied]
    best = pick(group, points)
    rest = [o for o in options if o is not best]
    return [best, *rest], [o for o in group if o is not best]


def hopeless_ties(ranked: Sequence[OptionAdvice]) -> list[OptionAdvice]:
    """Of options none of which came through safe, ranked by what they cost (the best first),
    those tied with the best: the ones it does not lose fewer lives than (:func:`fewer_lost`),
    which only the hand kept put behind it."""
    return [o for o in ranked[1:] if not fewer_lost(ranked[0], o)]


def named_for_game(
    best: OptionAdvice, best_game: OptionAdvice | None, points: bool = False
) -> OptionAdvice | None:
    """The option the advice names for the game on a line of its own ("Best for the game", the
    terminal's and the page's alike, and the reason's "For the game, … is better"):
    ``best_game`` when it is not the best and its figure is higher than the best's as shown;
    None otherwise (the best is then the best for the game too, as far as anyone can see)."""
    if best_game is None or best_game.option == best.option:
        return None
    return best_game if higher_game(best_game, best, points) else None


def game_lead_within(best: OptionAdvice, named: OptionAdvice) -> bool:
    """Whether ``named``'s lead over the best for the game is within its margin (the line and
    the reason then say "within ±…")."""
    return (named.p_win or 0.0) - (best.p_win or 0.0) <= (named.p_win_margin or 0.0)


def best_for_game(
    best: OptionAdvice, highest: OptionAdvice | None, points: bool = False
) -> OptionAdvice | None:
    """The option named for the game: ``highest`` (the highest ``p_win``), or the best when it
    shows the same figure."""
    if highest is None or not higher_game(highest, best, points):
        return None if highest is None else best
    return highest
