"""Parse and check a round as one player sees it (oracle.md "Input").

``parse_state`` turns the oracle.md JSON object (a dict) into a :class:`Position`: the public
history, your cards, where every known card is, which cards are unseen, and, per opponent, the
turns they played with the public facts the decision rule saw (top discard, whether they could
take it, whether they could knock). Impossible states raise :class:`StateError` (a ValueError)
naming the problem.

Every card that has been seen has a known place at every moment: your hand, the discard pile,
or an opponent's hand (a card an opponent took from the pile). A card put down is buried once
covered and leaves the pile only by being taken while on top. Unseen cards are in opponents'
hands or in the stock.
"""

from dataclasses import dataclass
from typing import Any

from .cards import DECK, parse_card
from .rules import SHOWN_AT, Rules, parse_rules, score


class StateError(ValueError):
    """A state the reference refuses; the message names the problem."""


@dataclass(frozen=True)
class OppTurn:
    """One turn of an opponent, with what the decision rule saw at its start."""

    t: int  # 1-based index of the turn in the round's ``turns``
    kind: str  # "knock", "stock" or "pile"
    top: str  # the top discard at the start of the turn
    may_take: bool  # the top is not a card this player put down earlier this round
    knock_allowed: bool  # nobody had knocked and the stock was not empty
    discard: str | None  # the card put down (None for a knock)


@dataclass(frozen=True)
class Position:
    rules: Rules
    seats: int
    me: int
    first: int
    upcard: str
    hand: tuple[str, ...]  # your three cards (before a pending draw)
    pending: tuple[str, str] | None  # None, ("stock", drawn card) or ("pile", taken card)
    pile: tuple[str, ...]  # bottom to top
    stock_count: int  # cards in the stock now (a pending stock draw already taken off)
    knocker: int | None
    put_down_by: dict[int, frozenset[str]]  # every seat: the cards it put down this round
    known_held: dict[int, frozenset[str]]  # every opponent: cards known to be in its hand
    unseen: tuple[str, ...]  # in DECK order
    opp_turns: dict[int, tuple[OppTurn, ...]]
    seen_at: dict[str, int]  # when each known card became known: -1 yours, 0 upcard, t turn t
    my_turns: int  # how many turns you have played this round
    lives: tuple[int, ...] | None

    @property
    def top(self) -> str:
        return self.pile[-1]

    @property
    def opponents(self) -> list[int]:
        return [s for s in range(self.seats) if s != self.me]

    def hidden_count(self, seat: int) -> int:
        """How many of an opponent's three cards are unseen."""
        return 3 - len(self.known_held[seat])


_TOP_KEYS = {"rules", "seats", "me", "first", "upcard", "hand", "turns", "pending", "lives"}
_TURN_KEYS = {"seat", "knock", "draw", "drew", "discard", "shows"}


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise StateError(f"{what} must be a whole number, not {value!r}")
    return value


def _card(value: Any, what: str) -> str:
    try:
        return parse_card(value)
    except ValueError as err:
        raise StateError(f"{what}: {err}") from None


def parse_state(state: Any) -> Position:
    if not isinstance(state, dict):
        raise StateError(f"a state is a JSON object, not {type(state).__name__}")
    unknown = sorted(set(state) - _TOP_KEYS)
    if unknown:
        raise StateError(f"unknown key(s) in the state: {', '.join(map(str, unknown))}")
    for key in ("seats", "me", "first", "upcard", "hand"):
        if key not in state:
            raise StateError(f"the state has no {key!r}")
    try:
        rules = parse_rules(state.get("rules", "standard"))
    except ValueError as err:
        raise StateError(str(err)) from None

    seats = _int(state["seats"], "seats")
    if not 2 <= seats <= 9:
        raise StateError(f"seats must be 2 to 9, not {seats}")
    me = _int(state["me"], "me")
    first = _int(state["first"], "first")
    for name, seat in (("me", me), ("first", first)):
        if not 0 <= seat < seats:
            raise StateError(f"{name} is seat {seat}, out of range 0..{seats - 1}")

    lives = None
    if "lives" in state and state["lives"] is not None:
        raw = state["lives"]
        if not isinstance(raw, list) or len(raw) != seats:
            raise StateError(f"lives must be a list of {seats} numbers")
        lives = tuple(_int(x, "lives") for x in raw)
        if any(x < 1 for x in lives):
            raise StateError("lives: every seat in the state must have at least one life")

    upcard = _card(state["upcard"], "upcard")
    raw_hand = state["hand"]
    if not isinstance(raw_hand, list) or len(raw_hand) != 3:
        raise StateError("hand must be a list of your three cards")
    hand = [_card(c, "hand") for c in raw_hand]
    if len(set(hand)) != 3:
        raise StateError(f"repeated card in your hand: {hand}")

    turns = _parse_turns(state.get("turns", []), seats, me)
    pending = _parse_pending(state.get("pending"))

    # Pass 1: the top discard at the start of each turn (it depends only on the put-downs).
    tops = []
    top = upcard
    for turn in turns:
        tops.append(top)
        if turn["discard"] is not None:
            top = turn["discard"]

    # Pass 2: your hand before each of your turns, undoing your turns from the last one.
    mine = list(hand)
    for turn, top_then in reversed(list(zip(turns, tops, strict=True))):
        if turn["seat"] != me or turn["kind"] == "knock":
            continue
        gained = turn["drew"] if turn["kind"] == "stock" else top_then
        put = turn["discard"]
        if put in mine:
            raise StateError(
                f"your hand does not match your own turns: you put down {put} at turn "
                f"{turn['t']} but hold it afterwards"
            )
        if gained != put:
            if gained not in mine:
                raise StateError(
                    f"your hand does not match your own turns: {gained}, which you "
                    f"{'drew' if turn['kind'] == 'stock' else 'took'} at turn {turn['t']}, "
                    "is neither in your hand afterwards nor what you put down"
                )
            mine[mine.index(gained)] = put
    my_dealt = list(mine)

    # Pass 3: replay the round forward, keeping the place of every known card.
    place: dict[str, str] = {}  # card -> "me", "pile" or "seat N"
    seen_at: dict[str, int] = {}
    for card in my_dealt:
        if card in place:
            raise StateError(f"your hand does not match your own turns: {card} twice")
        place[card] = "me"
        seen_at[card] = -1
    if upcard in place:
        raise StateError(f"the upcard {upcard} is also in your hand")
    place[upcard] = "pile"
    seen_at[upcard] = 0
    if score(my_dealt, rules) >= SHOWN_AT:
        raise StateError(f"the round is already over: you were dealt {my_dealt}, a 31")

    pile = [upcard]
    stock = 52 - 3 * seats - 1
    knocker: int | None = None
    put_down_by: dict[int, set[str]] = {s: set() for s in range(seats)}
    known_held: dict[int, set[str]] = {s: set() for s in range(seats) if s != me}
    opp_turns: dict[int, list[OppTurn]] = {s: [] for s in range(seats) if s != me}
    my_hand = set(my_dealt)
    my_turns = 0
    to_move = first

    for turn in turns:
        t, seat, kind = turn["t"], turn["seat"], turn["kind"]
        if knocker is not None and to_move == knocker:
            raise StateError(
                f"turn {t}: the round was already over (every player had their final turn)"
            )
        if seat != to_move:
            raise StateError(f"turn {t} is out of order: seat {to_move} was to play, not {seat}")
        top = pile[-1]
        may_take = top not in put_down_by[seat]
        knock_allowed = knocker is None and stock > 0
        if kind == "knock":
            if knocker is not None:
                raise StateError(f"turn {t}: a second knock (seat {knocker} already knocked)")
            if stock == 0:
                raise StateError(f"turn {t}: a knock with an empty stock is not allowed")
            knocker = seat
        else:
            if kind == "stock":
                if stock == 0:
                    raise StateError(f"turn {t}: a draw from an empty stock")
                stock -= 1
                if seat == me:
                    drew = turn["drew"]
                    if drew in place:
                        raise StateError(
                            f"turn {t}: you drew {drew}, but it is already known to be "
                            f"{_where(place[drew])}"
                        )
                    place[drew] = "me"
                    seen_at[drew] = -1
                    my_hand.add(drew)
            else:  # pile
                if not may_take:
                    raise StateError(f"turn {t}: seat {seat} took {top}, a card it put down itself")
                pile.pop()
                if seat == me:
                    place[top] = "me"
                    my_hand.add(top)
                else:
                    place[top] = f"seat {seat}"
                    known_held[seat].add(top)
            put = turn["discard"]
            if kind == "pile" and put == top:
                raise StateError(f"turn {t}: {put} was taken from the pile and put straight back")
            if seat == me:
                if put not in my_hand:
                    raise StateError(f"turn {t}: you put down {put}, which you did not hold")
                my_hand.remove(put)
            elif put in place:
                if place[put] != f"seat {seat}":
                    raise StateError(
                        f"turn {t}: seat {seat} put down {put}, but it is {_where(place[put])}"
                    )
                known_held[seat].remove(put)
            else:
                cards_now = 4  # three held and the one just drawn or taken
                if kind == "pile" and len(known_held[seat]) == cards_now:
                    raise StateError(
                        f"turn {t}: seat {seat} put down {put}, but all its cards are known"
                    )
                seen_at[put] = t
            place[put] = "pile"
            pile.append(put)
            put_down_by[seat].add(put)
            if seat == me and score(sorted(my_hand), rules) >= SHOWN_AT:
                raise StateError(f"turn {t}: the round is already over: you held a 31")
        if seat == me:
            my_turns += 1
        else:
            opp_turns[seat].append(
                OppTurn(
                    t=t,
                    kind=kind,
                    top=top,
                    may_take=may_take,
                    knock_allowed=knock_allowed,
                    discard=turn["discard"],
                )
            )
        to_move = (seat + 1) % seats

    if knocker is not None and to_move == knocker:
        raise StateError("the round is already over (every player had their final turn)")
    if to_move != me:
        raise StateError(f"it is not your turn: seat {to_move} is to play")
    if my_hand != set(hand):  # cannot happen after pass 2; kept as a guard
        raise StateError("your hand does not match your own turns")

    if pending is not None:
        if pending[0] == "stock":
            if stock == 0:
                raise StateError("pending: a draw from an empty stock")
            drew = pending[1]
            if drew in place:
                raise StateError(
                    f"pending: you drew {drew}, but it is already known to be {_where(place[drew])}"
                )
            place[drew] = "me"
            seen_at[drew] = -1
            stock -= 1
        else:
            if pile[-1] in put_down_by[me]:
                raise StateError(f"pending: you may not take {pile[-1]}, a card you put down")
            pending = ("pile", pile[-1])

    unseen = tuple(c for c in DECK if c not in place)
    hidden = sum(3 - len(known_held[s]) for s in known_held)
    if len(unseen) != stock + hidden:  # cannot happen for a state that passed the checks above
        raise StateError(
            f"internal check failed: {len(unseen)} unseen cards for {stock} in the stock and "
            f"{hidden} in opponents' hands"
        )
    return Position(
        rules=rules,
        seats=seats,
        me=me,
        first=first,
        upcard=upcard,
        hand=tuple(hand),
        pending=pending,
        pile=tuple(pile),
        stock_count=stock,
        knocker=knocker,
        put_down_by={s: frozenset(v) for s, v in put_down_by.items()},
        known_held={s: frozenset(v) for s, v in known_held.items()},
        unseen=unseen,
        opp_turns={s: tuple(v) for s, v in opp_turns.items()},
        seen_at=seen_at,
        my_turns=my_turns,
        lives=lives,
    )


def _where(place: str) -> str:
    return {"me": "in your hand", "pile": "on the discard pile"}.get(place, f"in {place}'s hand")


def _parse_turns(raw: Any, seats: int, me: int) -> list[dict[str, Any]]:
    if not isinstance(raw, list):
        raise StateError("turns must be a list")
    turns = []
    for t, item in enumerate(raw, start=1):
        if not isinstance(item, dict):
            raise StateError(f"turn {t} must be an object")
        unknown = sorted(set(item) - _TURN_KEYS)
        if unknown:
            raise StateError(f"turn {t}: unknown key(s) {', '.join(map(str, unknown))}")
        if "shows" in item:
            raise StateError(
                f"turn {t}: 'shows' (a 31 that lets the round go on) is not supported by the "
                "reference; under the standard table a shown 31 ends the round"
            )
        if "seat" not in item:
            raise StateError(f"turn {t} has no seat")
        seat = _int(item["seat"], f"turn {t}: seat")
        if not 0 <= seat < seats:
            raise StateError(f"turn {t}: seat {seat} is out of range 0..{seats - 1}")
        if "knock" in item:
            if item["knock"] is not True or set(item) != {"seat", "knock"}:
                raise StateError(f"turn {t}: a knock is only seat and knock: true")
            turns.append({"t": t, "seat": seat, "kind": "knock", "discard": None, "drew": None})
            continue
        draw = item.get("draw")
        if draw not in ("stock", "pile"):
            raise StateError(f"turn {t}: draw must be 'stock' or 'pile', not {draw!r}")
        if "discard" not in item:
            raise StateError(f"turn {t} has no discard")
        discard = _card(item["discard"], f"turn {t}: discard")
        drew = None
        if draw == "stock" and seat == me:
            if "drew" not in item:
                raise StateError(f"turn {t}: your own stock draw must say what you drew")
            drew = _card(item["drew"], f"turn {t}: drew")
        elif "drew" in item:
            raise StateError(f"turn {t}: only your own stock draws carry 'drew'")
        turns.append({"t": t, "seat": seat, "kind": draw, "discard": discard, "drew": drew})
    return turns


def _parse_pending(raw: Any) -> tuple[str, str] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise StateError("pending must be an object")
    if raw.get("draw") == "stock":
        if set(raw) != {"draw", "drew"}:
            raise StateError('pending stock draw is {"draw": "stock", "drew": card}')
        return ("stock", _card(raw["drew"], "pending: drew"))
    if raw.get("draw") == "pile":
        if set(raw) != {"draw"}:
            raise StateError('pending pile draw is {"draw": "pile"}')
        return ("pile", "")  # the card is filled in once the pile is known
    raise StateError(f"pending: draw must be 'stock' or 'pile', not {raw.get('draw')!r}")
