"""The Oracle's input (``oracle.md``): a round as one player sees it, as a dict or JSON text.

:func:`normalize` checks its shape (every key, type and card, naming the place of a problem)
and resolves the rules; the Rust core then checks that the round could have happened by
replaying it. Both raise subclasses of :class:`~thirtyone.errors.ThirtyOneError`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from thirtyone.cards import parse_card
from thirtyone.errors import CardError, RuleError, StateError
from thirtyone.rules import Rules

if TYPE_CHECKING:
    from thirtyone.game import Game

_TOP_KEYS = {"rules", "seats", "me", "first", "upcard", "hand", "turns", "pending", "lives"}
_PLAY_KEYS = {"seat", "draw", "drew", "discard", "shows", "hides"}


def load(state: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
    """A state given as JSON text or as a mapping, as a plain dict (not yet checked)."""
    if isinstance(state, str | bytes):
        try:
            data = json.loads(state)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise StateError(f"the state is not valid JSON: {e}") from None
    else:
        data = state
    if not isinstance(data, Mapping):
        raise StateError("the state must be a JSON object")
    return dict(data)


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise StateError(f"{where} must be a whole number, not {value!r}")
    return value


def _card(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise CardError(f'{where} must be a card like "AH", not {value!r}')
    try:
        return parse_card(value)
    except CardError as e:
        raise CardError(f"{where}: {e}") from None


def _cards(value: Any, where: str, count: int) -> list[str]:
    if not isinstance(value, list) or len(value) != count:
        raise StateError(f"{where} must be a list of {count} cards, not {value!r}")
    cards = [_card(v, f"{where}[{i}]") for i, v in enumerate(value)]
    for c in cards:
        if cards.count(c) > 1:
            raise CardError(f"{where}: {c} appears twice")
    return cards


def _turn(value: Any, i: int) -> dict[str, Any]:
    where = f"turns[{i}]"
    if not isinstance(value, Mapping):
        raise StateError(f"{where} must be an object, not {value!r}")
    if "seat" not in value:
        raise StateError(f"{where} has no seat")
    seat = _int(value["seat"], f"{where}.seat")
    if value.get("knock", False) is not False:
        if value["knock"] is not True:
            raise StateError(f"{where}.knock must be true")
        extra = set(value) - {"seat", "knock"}
        if extra:
            raise StateError(f"{where}: a knock has no {', '.join(sorted(extra))}")
        return {"seat": seat, "knock": True}
    extra = set(value) - _PLAY_KEYS - {"knock"}
    if extra:
        raise StateError(f"{where}: unknown key {sorted(extra)[0]!r}")
    draw = value.get("draw")
    if draw not in ("stock", "pile"):
        raise StateError(f'{where}.draw must be "stock" or "pile", not {draw!r}')
    if "discard" not in value:
        raise StateError(f"{where} has no discard")
    out: dict[str, Any] = {
        "seat": seat,
        "draw": draw,
        "discard": _card(value["discard"], f"{where}.discard"),
    }
    if value.get("drew") is not None:
        if draw == "pile":
            raise StateError(f'{where}: a pile draw takes the top discard and has no "drew"')
        out["drew"] = _card(value["drew"], f"{where}.drew")
    if value.get("shows") is not None:
        out["shows"] = _cards(value["shows"], f"{where}.shows", 3)
    hides = value.get("hides", False)
    if hides is not False:
        if hides is not True:
            raise StateError(f"{where}.hides must be true or false, not {hides!r}")
        out["hides"] = True
    return out


def normalize(state: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
    """Check a state's shape and resolve its rules. Returns the dict the core takes, with
    ``rules`` as the round rules and the resolved :class:`Rules` under ``rules_object``."""
    data = load(state)
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise StateError(f"unknown key {sorted(unknown)[0]!r} in the state")
    for key in ("seats", "me", "first", "upcard", "hand", "turns"):
        if key not in data:
            raise StateError(f"the state has no {key!r}")
    spec = data.get("rules", "standard")
    try:
        rules = Rules.from_spec(spec)
    except RuleError as e:
        raise RuleError(f"rules: {e}") from None
    seats = _int(data["seats"], "seats")
    if not 2 <= seats <= 9:
        raise StateError(f"seats must be 2 to 9, not {seats}")
    if not isinstance(data["turns"], list):
        raise StateError("turns must be a list")
    out: dict[str, Any] = {
        "rules": rules.round_rules(),
        "rules_object": rules,
        "seats": seats,
        "me": _int(data["me"], "me"),
        "first": _int(data["first"], "first"),
        "upcard": _card(data["upcard"], "upcard"),
        "hand": _cards(data["hand"], "hand", 3),
        "turns": [_turn(t, i) for i, t in enumerate(data["turns"])],
        "pending": None,
    }
    pending = data.get("pending")
    if pending is not None:
        if not isinstance(pending, Mapping) or pending.get("draw") not in ("stock", "pile"):
            raise StateError('pending must be {"draw": "stock", "drew": "9C"} or {"draw": "pile"}')
        extra = set(pending) - {"draw", "drew"}
        if extra:
            raise StateError(f"pending: unknown key {sorted(extra)[0]!r}")
        p: dict[str, Any] = {"draw": pending["draw"]}
        if pending.get("drew") is not None:
            p["drew"] = _card(pending["drew"], "pending.drew")
        elif pending["draw"] == "stock":
            raise StateError('pending: a stock draw must give the card drawn ("drew")')
        out["pending"] = p
    lives = data.get("lives")
    if lives is not None:
        if not isinstance(lives, list) or len(lives) != seats:
            raise StateError(f"lives must be a list of {seats} numbers, one per seat")
        out["lives"] = [_int(x, f"lives[{i}]") for i, x in enumerate(lives)]
    return out


def from_game(game: Game, seat: int | None = None) -> dict[str, Any]:
    """The current round as game seat ``seat`` sees it (default: the player to move), in the
    ``oracle.md`` format. Seats are renumbered to the players still in the game, in turn order.
    """
    round_ = game.round
    if round_ is None or not game.logs:
        raise StateError("no round has been dealt yet")
    log = game.logs[-1]
    if seat is None:
        seat = log.seats[round_.to_move]
    if seat not in log.seats:
        raise StateError(f"seat {seat} is not in this round")
    me = log.seats.index(seat)
    turns: list[dict[str, Any]] = []
    for rec in log.turns:
        if rec.get("knock"):
            turns.append({"seat": rec["seat"], "knock": True})
            continue
        if rec.get("declined") or rec.get("blind"):
            continue
        t: dict[str, Any] = {"seat": rec["seat"], "draw": rec["draw"], "discard": rec["discard"]}
        if rec["draw"] == "stock" and rec["seat"] == me:
            t["drew"] = rec["drew"]
        if rec.get("shows"):
            t["shows"] = list(rec["shows"])  # a 31 shown after a knock, the round going on
        if rec.get("hid_31") and rec["seat"] == me:
            t["hides"] = True  # only you know you kept a 31 hidden
        turns.append(t)
    state: dict[str, Any] = {
        "rules": {"preset": "standard", **game.rules.to_dict()},
        "seats": len(log.seats),
        "me": me,
        "first": log.first,
        "upcard": log.upcard,
        "hand": round_.hand(me),
        "turns": turns,
        "lives": [game.lives[s] for s in log.seats],
    }
    pending = round_.pending
    if pending is not None and round_.to_move == me:
        new, source = pending
        state["pending"] = {"draw": source, "drew": new} if source == "stock" else {"draw": "pile"}
    return state
