"""The fields of a saved game, each checked before it is trusted (:mod:`thirtyone.store.saves`).

A save that is damaged (written by hand, cut, or by a program that is not thirtyone) is refused
by the first field that is not what thirtyone writes there, in one line naming the field and
what is wrong with it (``journal[3] must be an action such as ["draw"] or ["put", "AH"], not
"draw"``), quoting at most a short part of the value. Every field a resume or a review reads is
checked here, so that nothing damaged reaches the game, the record or the next write of the
save (a ``NaN`` among the decisions would make the next save fail).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from thirtyone import _core, names
from thirtyone.errors import ThirtyOneError
from thirtyone.game.rules import Rules
from thirtyone.oracle.player import OPPONENTS

#: When the Oracle's advice is shown (``thirtyone play --advice``).
ADVICE_MODES = ("always", "ask", "never")
#: The tutor's bounds: it asks before a move that costs more than this many points of the
#: chance to win the game (``thirtyone serve``'s tutor mode).
TUTOR_POINTS = (0.1, 100.0)
#: The fields of a decision as a save keeps it (:mod:`thirtyone.store.keeper`).
DECISION_FIELDS = ("round", "played", "best", "cost_p_safe", "best_game", "cost_p_win")


class Damaged(ValueError):
    """A field of a save that is not what thirtyone writes; the message names it and why."""


def shown(value: object) -> str:
    """``value`` as a message shows it (:func:`thirtyone.names.shown`), a list with its
    length."""
    return f"a list of {len(value):,}" if isinstance(value, list) else names.shown(value)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _one_of(name: str, value: object, allowed: tuple[str, ...]) -> str:
    if not (isinstance(value, str) and value in allowed):
        raise Damaged(f"{name} must be one of {', '.join(allowed)}, not {shown(value)}")
    return value


@dataclass(frozen=True)
class Fields:
    """A save's fields, each checked."""

    rules: Rules
    seed: int
    names: list[str]
    you: int
    journal: list[list[str]]
    over: bool
    advice: str
    opponents: str
    decisions: list[Any]
    tutor: float | None
    oracle: dict[str, int] | None
    game_id: str


def read(data: Mapping[str, Any]) -> Fields:
    """The checked fields of the save ``data`` (its JSON object). Raises :class:`Damaged` naming
    the first field missing or not what thirtyone writes."""
    for key in ("rules", "seed", "names", "you", "journal", "over"):
        if key not in data:
            raise Damaged(f"the field {key} is missing")
    rules = _rules(data["rules"])
    return Fields(
        rules=rules,
        seed=_seed(data["seed"]),
        names=_names(data["names"], rules.seats),
        you=_you(data["you"], rules.seats),
        journal=_journal(data["journal"]),
        over=_over(data["over"]),
        # (Saves from before each of these was kept have none: its default.)
        advice=_one_of("advice", data.get("advice", "always"), ADVICE_MODES),
        opponents=_one_of("opponents", data.get("opponents", "table"), OPPONENTS),
        decisions=_decisions(data.get("decisions", [])),
        tutor=_tutor(data.get("tutor")),
        oracle=_oracle(data.get("oracle")),
        game_id=_game_id(data.get("game_id", "")),
    )


def _game_id(value: object) -> str:
    if not (isinstance(value, str) and len(value) <= 64):
        raise Damaged(f"game_id must be a text of at most 64 characters, not {shown(value)}")
    return value


def _rules(value: object) -> Rules:
    if not isinstance(value, str | Mapping):
        raise Damaged(f"rules must be the table's rules (an object), not {shown(value)}")
    try:
        return Rules.from_spec(value)
    except (ThirtyOneError, TypeError, RecursionError) as e:
        raise Damaged(f"rules: {' '.join(str(e).split())[:200]}") from None


def _seed(value: object) -> int:
    """A whole number within the engine's seeds (``--seed``'s bounds: the core's)."""
    if not _is_int(value):
        raise Damaged(f"seed must be a whole number, not {shown(value)}")
    assert isinstance(value, int)
    try:
        _core.check_settings(seed=value)
    except ThirtyOneError as e:
        raise Damaged(str(e)) from None
    return value


def _names(value: object, seats: int) -> list[str]:
    if not isinstance(value, list) or len(value) != seats:
        count = f"{len(value):,}" if isinstance(value, list) else shown(value)
        raise Damaged(f"names must be a list of {seats} names (one a seat), not {count}")
    for i, name in enumerate(value):
        if not isinstance(name, str):
            raise Damaged(f"names[{i}] must be text, not {shown(name)}")
        if not name.strip():
            raise Damaged(f"names[{i}] is empty")
    return list(value)


def _you(value: object, seats: int) -> int:
    if not (_is_int(value) and 0 <= value < seats):  # type: ignore[operator]
        raise Damaged(f"you must be your seat, from 0 to {seats - 1}, not {shown(value)}")
    assert isinstance(value, int)
    return value


def _over(value: object) -> bool:
    if not isinstance(value, bool):
        raise Damaged(f"over must be true or false, not {shown(value)}")
    return value


def _journal(value: object) -> list[list[str]]:
    if not isinstance(value, list):
        raise Damaged(f"journal must be a list of actions, not {shown(value)}")
    for i, entry in enumerate(value):
        ok = (
            isinstance(entry, list)
            and 1 <= len(entry) <= 2
            and all(isinstance(x, str) for x in entry)
        )
        if not ok:
            raise Damaged(
                f'journal[{i}] must be an action such as ["draw"] or ["put", "AH"], '
                f"not {shown(entry)}"
            )
    return value


def _tutor(value: object) -> float | None:
    if value is not None and not tutor_ok(value):
        low, high = TUTOR_POINTS
        raise Damaged(f"tutor must be null or points from {low:g} to {high:g}, not {shown(value)}")
    return value  # type: ignore[return-value]


def tutor_ok(points: object) -> bool:
    """Whether ``points`` is a tutor's threshold: a number of points within
    :data:`TUTOR_POINTS`."""
    low, high = TUTOR_POINTS
    return _is_number(points) and low <= points <= high  # type: ignore[operator]


def _oracle(value: object) -> dict[str, int] | None:
    if value is not None and (why := oracle_problem(value)) is not None:
        raise Damaged(f"oracle: {why}")
    return value  # type: ignore[return-value]


def oracle_problem(oracle: object) -> str | None:
    """Why ``oracle`` is not the Oracle's precision as a save keeps it, ``{"deals": D,
    "playouts": P}`` within the Oracle's bounds (None: it is)."""
    if not isinstance(oracle, Mapping) or set(oracle) != {"deals", "playouts"}:
        return f'must be {{"deals": D, "playouts": P}}, not {shown(oracle)}'
    try:
        _core.check_settings(deals=oracle["deals"], playouts=oracle["playouts"])
    except (ThirtyOneError, TypeError, OverflowError) as e:
        return str(e)
    return None


def _decisions(value: object) -> list[Any]:
    if not isinstance(value, list):
        raise Damaged(f"decisions must be a list, not {shown(value)}")
    for i, entry in enumerate(value):
        if (why := decision_problem(entry)) is not None:
            raise Damaged(f"decisions[{i}]{why}")
    return value


#: The options a decision records (ruling 289): ``knock``, ``draw``, ``take``, ``decline``,
#: ``blind``, a put-down ``discard:XX`` or a 31 kept hidden ``hide:XX`` (XX a card: ``TD``).
OPTION = re.compile(r"(knock|draw|take|decline|blind|(discard|hide):[A2-9TJQK][CDHS])")


def is_option(value: object) -> bool:
    """Whether ``value`` is an option's name as a decision records it (:data:`OPTION`)."""
    return isinstance(value, str) and OPTION.fullmatch(value) is not None


def decision_problem(entry: object) -> str | None:
    """Why ``entry`` is not one of your decisions as a save keeps it (None: it is), said after
    its place (``.cost_p_safe must be …``): ``round`` a whole number from 1, ``played`` the
    option played, ``best`` and ``best_game`` an option or null, each cost a finite number from
    0 or null."""
    if not isinstance(entry, Mapping):
        return f" must be an object, not {shown(entry)}"
    rnd = entry.get("round")
    if not (_is_int(rnd) and rnd >= 1):  # type: ignore[operator]
        return f".round must be a whole number from 1, not {shown(rnd)}"
    if not is_option(entry.get("played")):
        return f".played must be the option played, not {shown(entry.get('played'))}"
    for key in ("best", "best_game"):
        if not (entry.get(key) is None or is_option(entry.get(key))):
            return f".{key} must be an option or null, not {shown(entry.get(key))}"
    for key in ("cost_p_safe", "cost_p_win"):
        cost = entry.get(key)
        if not (cost is None or _cost_ok(cost)):
            return f".{key} must be a number from 0, or null, not {shown(cost)}"
    return None


def _cost_ok(cost: object) -> bool:
    """A cost in points of a share (or of ranked points): a finite number, 0 or more."""
    return isinstance(cost, int | float) and not isinstance(cost, bool) and 0 <= cost < math.inf
