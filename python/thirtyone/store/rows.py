"""The rows of the record of games (:mod:`thirtyone.store.record`) as Python values, both ways.

A seed is stored exactly, whatever its size: as an SQLite integer when it fits one (64 bits,
signed), else as a BLOB holding its decimal digits (a text that looks like a number would be
turned into an inexact REAL by the column's INTEGER affinity; a BLOB never is). Both read back as
the same Python ``int``; records written before big seeds were stored hold integers only.

A row is read only when every column holds what thirtyone writes there: the right type, a known
preset and opponents, rules the core accepts, a placing that ranks every seat once, your place
and points agreeing with it, from 1 to 1,000,000 rounds, a seed ``--seed`` takes, and decisions
each with a round, the option played (an option's name: ``draw``, ``discard:5S``) and costs
from 0 to 1 (under ranked placing, a cost in expected points up to the points between the first
place and the last). Anything else (a row edited by hand, a file damaged in a way SQLite does
not notice) raises :class:`BadRow` saying which column and why, and the reader skips that game
(:func:`thirtyone.store.record.read`).
"""

from __future__ import annotations

import datetime
import json
import math
import re
from collections.abc import Sequence
from typing import Any

from thirtyone.errors import ThirtyOneError
from thirtyone.game.rules import Rules
from thirtyone.names import quoted
from thirtyone.store.save_fields import is_option
from thirtyone.store.saves import OPPONENTS

#: The integers an SQLite INTEGER holds.
_SQLITE_INT = range(-(2**63), 2**63)
#: The seeds ``--seed`` takes.
_SEEDS = range(2**64)
#: The most rounds a game is taken to have had: a round costs somebody a life but for a wash,
#: and nine seats of twenty lives lose at most 171 before the game ends.
MAX_ROUNDS = 1_000_000
#: The decimal digits of a seed kept as a BLOB (an optional minus sign, then digits).
_DIGITS = re.compile(rb"-?[0-9]{1,4300}")  # (Python converts at most 4,300 digits to an int)


class BadRow(ValueError):
    """A row of the record that is not one thirtyone wrote; the message says why."""


def seed_value(seed: int | None) -> int | bytes | None:
    """How ``seed`` is stored: itself when SQLite holds it as an integer, else its decimal
    digits as a BLOB."""
    if seed is None or seed in _SQLITE_INT:
        return seed
    return str(seed).encode("ascii")


def read_seed(value: object) -> int | None:
    """The seed stored as ``value`` (see :func:`seed_value`)."""
    if value is None:
        return None
    if isinstance(value, bytes) and _DIGITS.fullmatch(value):
        value = int(value)
    if not _is_int(value):
        raise BadRow(f"seed is {_shown(value)}, not a whole number")
    assert isinstance(value, int)
    if value not in _SEEDS:
        raise BadRow(f"seed is {value}, not from 0 to {_SEEDS[-1]:,}")
    return value


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value: object) -> str:
    """A column's value for a message: a short quote of a text, else its type."""
    if isinstance(value, str):
        return f"the text {quoted(value)}"
    if isinstance(value, bytes):
        return f"a blob of {len(value):,} byte{'' if len(value) == 1 else 's'}"
    if value is None:
        return "empty (NULL)"
    if isinstance(value, float):
        return f"the number {value!r}"
    return str(value)


def _int(name: str, value: object, low: int, high: int | None = None) -> int:
    """``value``, an integer from ``low`` to ``high`` (no upper bound: None)."""
    if not _is_int(value):
        raise BadRow(f"{name} is {_shown(value)}, not a whole number")
    assert isinstance(value, int)
    if value < low or (high is not None and value > high):
        bounds = f"from {low:,} to {high:,}" if high is not None else f"at least {low}"
        raise BadRow(f"{name} is {value}, not {bounds}")
    return value


def _text(name: str, value: object, allowed: Sequence[str] | None = None) -> str:
    if not isinstance(value, str):
        raise BadRow(f"{name} is {_shown(value)}, not a text")
    if allowed is not None and value not in allowed:
        raise BadRow(f"{name} is {quoted(value)}, unknown to this thirtyone")
    return value


def _option(name: str, value: object) -> str:
    """An option as a decision records it (:func:`~thirtyone.store.save_fields.is_option`)."""
    text = _text(name, value)
    if not is_option(text):
        raise BadRow(f"{name} is {quoted(text)}, not an option")
    return text


def _json(name: str, value: object) -> Any:
    text = _text(name, value)
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise BadRow(f"{name} is not JSON") from None


def _finished(value: object) -> str:
    text = _text("finished", value)
    try:
        datetime.datetime.fromisoformat(text)
    except ValueError:
        raise BadRow(f"finished is {quoted(text)}, not a time") from None
    return text


def _rules(value: object, seats: int) -> tuple[dict[str, Any], Rules]:
    """The rules as stored (every option's value), and read by the core."""
    spec = _json("rules", value)
    if not isinstance(spec, dict):
        raise BadRow("rules is not a JSON object")
    try:
        rules = Rules.from_spec(spec)
    except (ThirtyOneError, TypeError, ValueError, RecursionError) as err:
        raise BadRow(f"rules are not thirtyone's ({' '.join(str(err).split())[:80]})") from None
    if rules.seats != seats:
        raise BadRow(f"rules are for {rules.seats} seats, the game for {seats}")
    return spec, rules


def _names(value: object, seats: int) -> list[str]:
    names = _json("names", value)
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise BadRow("names is not a JSON list of texts")
    if len(names) != seats:
        raise BadRow(f"names holds {len(names):,} names for {seats} seats")
    return names


def _placing(value: object, seats: int) -> list[int]:
    placing = _json("placing", value)
    ranked = isinstance(placing, list) and all(_is_int(s) for s in placing)
    if not ranked or sorted(placing) != list(range(seats)):
        raise BadRow(f"placing does not rank each of the {seats} seats once")
    seats_in_order: list[int] = placing
    return seats_in_order


def game_row(row: Sequence[object]) -> dict[str, Any]:
    """The fields of a :class:`~thirtyone.store.record.GameRecord` (decisions aside) from the row
    ``(finished, preset, rules, seats, names, you, place, placing, points, rounds, opponents,
    autoplay, seed)``, and ``spread``: under ranked placing, the points between the first place
    and the last (the most a decision can cost in expected points; None when the winner takes
    all), for :func:`decision_row`. Raises :class:`BadRow`."""
    finished, preset, rules_text, seats, names, you, place, placing, points, *rest = row
    rounds, opponents, autoplay, seed = rest
    n = _int("seats", seats, 2, 9)
    spec, rules = _rules(rules_text, n)
    out: dict[str, Any] = {
        "finished": _finished(finished),
        "preset": _text("preset", preset, list(Rules.PRESETS)),
        "rules": spec,
        "names": _names(names, n),
        "you": _int("you", you, 0, n - 1),
        "placing": _placing(placing, n),
        "points": points,
        "rounds": _int("rounds", rounds, 1, MAX_ROUNDS),
        "opponents": _text("opponents", opponents, OPPONENTS),
        "autoplay": bool(_int("autoplay", autoplay, 0, 1)),
        "seed": read_seed(seed),
    }
    ranked = out["placing"].index(out["you"]) + 1
    if _int("place", place, 1, n) != ranked:
        raise BadRow(f"place is {place}, but the placing puts you {ranked}")
    expected = rules.points(ranked)
    if not (points is None and expected is None) and not (_is_int(points) and points == expected):
        raise BadRow(f"points is {_shown(points)}, not {_shown(expected)} for place {ranked}")
    first, last = rules.points(1), rules.points(n)
    out["spread"] = None if first is None or last is None else first - last
    return out


def decision_row(row: Sequence[object], spread: int | None = None) -> dict[str, Any]:
    """The fields of a :class:`~thirtyone.store.record.Decision` from the row ``(round, played,
    best, cost_p_safe, best_game, cost_p_win)``; ``spread`` is the game's (:func:`game_row`):
    under ranked placing the game's figure is expected points, and its cost from 0 to the
    spread; otherwise a cost in ``p_win``, from 0 to 1. Raises :class:`BadRow`."""
    round_, played, best, cost_p_safe, best_game, cost_p_win = row
    game = "its cost in p_win" if spread is None else "its cost in expected points"
    return {
        "round": _int("its round", round_, 1),
        "played": _option("the option played", played),
        "best": None if best is None else _option("the best option", best),
        "cost_p_safe": _cost("its cost in p_safe", cost_p_safe, 1),
        "best_game": None if best_game is None else _option("the best option", best_game),
        "cost_p_win": _cost(game, cost_p_win, 1 if spread is None else spread),
    }


def _cost(name: str, value: object, high: int) -> float | None:
    """A cost: a number from 0 to ``high`` (a share, or points), or None."""
    if value is None:
        return None
    if not (_is_int(value) or isinstance(value, float)):
        raise BadRow(f"{name} is {_shown(value)}, not a number")
    assert isinstance(value, int | float)
    if not math.isfinite(value):
        raise BadRow(f"{name} is {value}, not a finite number")
    if not 0 <= value <= high:
        raise BadRow(f"{name} is {value}, not from 0 to {high}")
    return float(value)
