"""What the page is sent, as JSON (docs/web.md describes every message): the game as your seat
sees it (:func:`state`), each event as it happens with the table after it (:func:`event`), the
Oracle's advice (:func:`advice`) and the choices of the new-game form (:func:`setup_options`).

Only what your seat may know leaves the server: your hand (not before you look at a blind
table), the public cards, and of the other seats only what the table saw (a card taken from the
pile, a card put down) and, at a round's end, every hand, as the showdown shows them. The card
another seat drew from the stock, and a 31 it kept hidden, are never sent.
"""

from __future__ import annotations

import math
from typing import Any

from thirtyone.game.cards import hand_score
from thirtyone.game.rules import Rules
from thirtyone.game.session import Event, Session
from thirtyone.oracle.answer import Advice, Kind, OptionAdvice
from thirtyone.oracle.player import OPPONENTS, opponent_kind
from thirtyone.oracle.rank import game_lead_within, named_for_game
from thirtyone.oracle.words import lives_matter
from thirtyone.store.keeper import preset_name
from thirtyone.store.saves import ADVICE_MODES, TUTOR_POINTS, SavedGame
from thirtyone.web import words

#: Your seat: the first, as in ``thirtyone play``.
YOU = 0
#: The numbers of the form, and their bounds (the core checks them again).
NUMBERS = {
    "seats": (2, 9, 1),
    "lives": (1, 20, 1),
    "min_knock": (0, 31, 0.5),
}
#: Options whose values are a list of whole numbers to choose from.
INTEGER_CHOICES = {"knock_penalty": (1, 2)}


def event(session: Session, happened: Event) -> dict[str, Any]:
    """An event as it happens, and the table after it."""
    return {"type": "event", "event": public_event(happened, session), "table": table(session)}


def public_event(happened: Event, session: Session) -> dict[str, Any]:
    """An event without what your seat may not know (another seat's stock draw or hidden 31),
    and with the name the table gives a 31 shown (:func:`_named`)."""
    data = dict(happened.data)
    if happened.kind == "turn" and data.get("seat") != YOU:
        data.pop("drew", None)
        data.pop("hid_31", None)
    return {"kind": happened.kind, "round": happened.round, **data, **_named(happened, session)}


def _named(happened: Event, session: Session) -> dict[str, Any]:
    """Where the table names a hand shown (:meth:`Rules.hand_name`: a Cadillac), a turn that
    showed one and a round ended by one (its ``by``, or the one seat ``dealt`` it) say its score
    (``shown``) and its name (``called``); a round dealt to several says each one's name, in the
    order of ``dealt`` (``dealt_called``); nothing otherwise. A shown hand stays as shown to the
    end of its round."""
    data, rules = happened.data, session.rules
    score: float | None = None
    if happened.kind == "turn" and data.get("showed_31"):
        round_ = session.round
        if round_ is not None and happened.round == session.round_number:
            score = round_.score(session.seats.index(data["seat"]))
    elif happened.kind == "round_end" and data["end"] == "dealt_31":
        scores = [hand_score(data["hands"][s], rules) for s in data["dealt"]]
        if len(scores) > 1:  # (each its own: a 31 may be a Cadillac and three aces beside it)
            called = [rules.hand_name(s) for s in scores]
            return {"dealt_called": called} if any(called) else {}
        score = scores[0] if scores else None
    elif happened.kind == "round_end" and data["end"] == "thirty_one":
        by = data.get("by")
        if by in data["hands"]:
            score = hand_score(data["hands"][by], rules)
    name = None if score is None else rules.hand_name(score)
    return {"shown": score, "called": name} if name else {}


def table(session: Session) -> dict[str, Any]:
    """The public table (and your hand) as it stands."""
    n = session.rules.seats
    found: dict[str, Any] = {
        "round": session.round_number,
        "dealer": session.dealer,
        "seats": list(session.seats),
        "lives": list(session.lives),
        "standing": [session.standing(s) for s in range(n)],
        "places": {str(s): p for s, p in session.places.items()},
        "top": None,
        "stock": None,
        "knocker": None,
        "to_move": None,
        "hand": None,
        "score": None,
        "hidden_31": False,
    }
    round_ = session.round
    if round_ is None:
        return found
    seats = session.seats
    pile = list(round_.pile())  # (a card just taken is no longer on it)
    found["top"] = pile[-1] if pile else None
    found["stock"] = round_.stock_len
    found["pile"] = pile
    found["knocker"] = None if round_.knocker is None else seats[round_.knocker]
    if not round_.is_over:
        found["to_move"] = seats[round_.to_move]
    looked = round_.is_over or round_.phase != "blind"
    if YOU in seats and looked:
        r = seats.index(YOU)
        found["hand"] = list(round_.hand(r))
        found["score"] = round_.counted_score(r)  # (what it counts: a 31 kept hidden, 30)
        found["hidden_31"] = round_.hid_31(r)
    return found


def kinds(saved: SavedGame) -> list[str | None]:
    """Each seat's computer player (``table`` or ``expert``; None for yours), which the page
    shows beside the names unless every one plays the table's rule (ruling 157)."""
    n = len(saved.names)
    return [None if s == YOU else opponent_kind(saved.opponents, s) for s in range(n)]


def state(
    session: Session, saved: SavedGame, number: int, where: str, notes: dict[str, Any]
) -> dict[str, Any]:
    """The whole game as your seat sees it: what the page draws from (after a reload too).
    ``number``: the game's number (0: the save, n: its n-th backup); ``where``: the save's path
    as shown; ``notes``: what the server adds (a save that failed, the record's lines)."""
    pending = session.pending
    yours = pending is not None and pending.seat == YOU
    found: dict[str, Any] = {
        "type": "state",
        "game": number,
        "save": where,
        "at": len(session.journal),
        "names": list(session.names),
        "you": YOU,
        "kinds": kinds(saved),
        "setup": setup_of(saved),
        "unit": "letters" if session.rules.gin else "lives",
        "lives_summary": session.rules.lives_summary(),
        "called_31": session.rules.hand_name(31),  # (a Cadillac, where the table names it)
        "table": table(session),
        "pending": None,
        "drawn": None,
        "log": [
            public_event(e, session) for e in session.events if e.round == session.round_number
        ],
        "last_result": _last_result(session),
        "over": session.over,
        "winner": session.winner,
        "placing": session.placing(),
        "points": session.points(),
        **notes,
    }
    if pending is not None:
        found["pending"] = {
            "seat": pending.seat,
            "phase": pending.phase,
            "legal": [_action(a.kind, a.card) for a in pending.legal] if yours else [],
        }
        round_ = session.round
        if yours and round_ is not None and round_.pending is not None:
            card, source = round_.pending
            found["drawn"] = {"card": card, "from": source}
        if yours and round_ is not None and any(a.kind == "hide" for a in pending.legal):
            title, text = session.rules.hide_question(knocked=round_.knocker is not None)
            found["hide_question"] = {"title": title, "text": text}
    return found


def _action(kind: str, card: str | None) -> dict[str, Any]:
    return {"kind": kind} if card is None else {"kind": kind, "card": card}


def _last_result(session: Session) -> dict[str, Any] | None:
    """The last round's end (or wash) before the present round, for a page that has just come."""
    for happened in reversed(session.events):
        if happened.kind in ("round_end", "wash") and (
            happened.round < session.round_number or session.over
        ):
            return public_event(happened, session)
    return None


def standing_line(session: Session) -> str:
    """``round 3 · You 2 lives, Alice 3 lives, Ben 1 life`` for a game under way."""
    lives = ", ".join(f"{session.names[s]} {session.standing(s)}" for s in session.active)
    return f"round {session.round_number} · {lives}"


def setup_of(saved: SavedGame) -> dict[str, Any]:
    """A game's table as the new-game form fills it ("play again" sends it back)."""
    preset = preset_name(saved.rules)
    base = Rules.preset(preset).to_dict()
    mine = saved.rules.to_dict()
    return {
        "preset": preset,
        "rules": {k: v for k, v in mine.items() if base[k] != v},
        "name": saved.names[0],
        "opponents": saved.opponents,
        "advice": saved.advice,
        "tutor": saved.tutor,
    }


def setup_options() -> dict[str, Any]:
    """The new-game form's choices: the presets with every value, each rule option with its
    label, kind and bounds (a choice's values with the words shown for them), the opponents and
    the advice modes."""
    options = []
    standard = Rules.standard().to_dict()
    for info in Rules.options():
        option: dict[str, Any] = {
            "name": info.name,
            "label": words.label(info.name),
            "meaning": words.MEANINGS.get(info.name, info.meaning),
            "values": info.values,
            "default": standard[info.name],
        }
        default = standard[info.name]
        if isinstance(default, bool):
            option["type"] = "bool"
        elif info.name in INTEGER_CHOICES:
            option["type"], option["choices"] = "choice", list(INTEGER_CHOICES[info.name])
        elif info.name in NUMBERS:
            low, high, step = NUMBERS[info.name]
            option.update(type="number", min=low, max=high, step=step)
        elif isinstance(default, str):
            option["type"], option["choices"] = "choice", info.values.split(", ")
        else:
            option["type"] = "names"
        if "choices" in option:
            option["words"] = [words.choice_words(info.name, c) for c in option["choices"]]
        options.append(option)
    return {
        "presets": [
            {
                "name": p.name,
                "document": p.document,
                "differs": p.differs,
                "values": Rules.preset(p.name).to_dict(),
            }
            for p in Rules.PRESET_INFO.values()
        ],
        "options": options,
        "opponents": list(OPPONENTS),
        "advice": list(ADVICE_MODES),
        "tutor": list(TUTOR_POINTS),
    }


# -- the Oracle's advice --------------------------------------------------------------------------


def advice(found: Advice, why: str | None) -> dict[str, Any]:
    """The advice as the page shows it: the JSON of ``oracle.md`` (:meth:`Advice.to_dict`), and
    for each option what it does (``kind``, its cards, in words), the hand it keeps and whether
    its later knock is at the first chance; the "Why" line; what ``lives_lost`` counts and
    whether it changes the picture (``lives_matter``); the option named best for the game on a
    line of its own (``game_named``: the terminal's rule, :func:`named_for_game`) and whether
    its lead is within its margin (``game_within``)."""
    out = found.to_dict()
    for shown, option in zip(out["options"], found.options, strict=True):
        shown["kind"] = option.kind.value
        if option.kind is Kind.PUT_DOWN:
            shown["discard"] = option.discard
        shown["describe"] = option.describe()
        shown["keeps"] = _finite(option.keeps)
        shown["lives_lost_margin"] = round(option.lives_lost_margin, 4)
        shown["first"] = _knocks_first(option)
        shown["shows_hidden_31"] = option.shows_hidden_31
    out["why"] = why
    out["unit"] = found.unit
    out["points"] = found.points
    out["lives_matter"] = lives_matter(found)
    # (The "Best for the game" line on the terminal's rule, decided here, not in the page.)
    named = named_for_game(found.best, found.best_game, found.points)
    out["game_named"] = None if named is None else named.option
    out["game_within"] = named is not None and game_lead_within(found.best, named)
    return out


def _finite(x: float | None) -> float | None:
    return None if x is None or not math.isfinite(x) else x


def _knocks_first(option: OptionAdvice) -> bool:
    """Whether a swept option knocks at the first chance (the lowest score swept)."""
    if not option.swept or option.knock_at is None or option.sweep is None:
        return False
    return len(option.sweep.knock_at) > 0 and bool(option.knock_at <= option.sweep.knock_at[0])
