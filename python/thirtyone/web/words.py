"""The new-game form's words for a player: each rule option's name as the form labels it, the
words shown for each of its choices (the value sent stays the rule's identifier, as the command
line and the saves spell it), what an option means without those identifiers, and the form's
messages that name a field by its label (a field left empty, the tutor's points).

The core's own meanings (``Rules.options()``) explain the identifiers, for the command line;
the form shows words instead, so it says what they mean in words too.
"""

from __future__ import annotations

import json
import math

from thirtyone.names import number
from thirtyone.store.saves import TUTOR_POINTS

#: Each rule option as the form labels it.
LABELS = {
    "seats": "Seats",
    "lives": "Lives",
    "knock_penalty": "Knock penalty",
    "county": "County",
    "lives_mode": "Lives or letters",
    "life_names": "Names of the lives",
    "placing": "Result of a game",
    "knocker_tie": "Knocker tied for lowest",
    "three_of_a_kind": "Three of a kind",
    "three_aces": "Three aces",
    "runs": "Runs",
    "min_knock": "Lowest score to knock",
    "knock_needs_one_suit": "Knock needs one suit",
    "first_turn_knock": "The first turn",
    "thirty_one_after_knock": "A 31 after a knock",
    "may_hide_31": "A 31 may be kept hidden",
    "two_player_mercy": "Mercy at two players",
}

#: The words for each choice of an option whose values are identifiers.
CHOICES = {
    "lives_mode": {"lives": "lives", "gin": "letters G, I, N (Gin lives)"},
    "placing": {
        "winner_takes_all": "last one in wins",
        "ranked": "ranked: points for the last three",
    },
    "knocker_tie": {
        "knocker_pays": "knocker pays penalty, others tied 1",
        "others_pay": "knocker safe, others tied pay 1",
        "only_knocker": "knocker pays penalty, others nothing",
        "cadillac": "knocker pays 2, others nothing",
    },
    "three_of_a_kind": {"none": "nothing special", "30": "30", "30.5": "30.5"},
    "three_aces": {"none": "as any three of a kind", "33": "33 (a Grand Cadillac)"},
    "first_turn_knock": {
        "allowed": "a knock is allowed",
        "forbidden": "no knock",
        "blind": "blind showdown allowed",
    },
    "thirty_one_after_knock": {
        "ends_round": "ends the round",
        "continues": "others lose a life; round goes on",
    },
}

#: What an option with identifiers for values means, in the form's words.
MEANINGS = {
    "lives_mode": (
        "with letters, a knock claims the highest hand: if it is higher than every other, "
        "everybody else takes a letter, otherwise the knocker takes the knock penalty in "
        "letters; whatever costs a life costs a letter"
    ),
    "placing": (
        "who wins a game: the last player in, or points for the last three in (3, 2 and 1)"
    ),
    "knocker_tie": (
        "who pays when the knocker ties for the lowest hand: the knocker the knock penalty (or "
        "2), or nothing; the others tied with the knocker 1, or nothing"
    ),
    "three_of_a_kind": "what three cards of one rank score (nothing special: the highest card)",
    "three_aces": "what three aces score",
    "first_turn_knock": (
        "the round's first turn; with the blind showdown, before anybody looks the first "
        "player may call a showdown of the dealt hands: the lowest loses 1, a caller among the "
        "lowest 2 (computer players never call it)"
    ),
    "thirty_one_after_knock": "a 31 shown after somebody knocked",
}


def label(name: str) -> str:
    """A rule option as the form labels it."""
    return LABELS.get(name, name.replace("_", " ").capitalize())


def choice_words(name: str, value: object) -> str:
    """The words the form shows for a choice of an option."""
    return CHOICES.get(name, {}).get(str(value), str(value))


#: The most characters of a refused text a message quotes (then ``…``).
QUOTE_CHARS = 24


def typed(value: object) -> str:
    """A refused value as the form's messages quote it, in the core's style for a rule option
    (``Seats: … not "0"``): the text typed in double quotes as it stands (cropped, anything
    unprintable escaped), a number sent as a number as written, anything else by its JSON kind.
    """
    if isinstance(value, str):
        text = value.strip()
        head = json.dumps(text[:QUOTE_CHARS], ensure_ascii=False)
        return head if len(text) <= QUOTE_CHARS else f'{head[:-1]}…"'
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        # (JSON's 1e400 is read as infinity, and Python's reader takes NaN: neither was typed
        # as the text "inf" that quotes made of it.)
        if math.isnan(value):
            return "NaN"
        return number(value) if math.isfinite(value) else "a number too large to read"
    return "a list" if isinstance(value, list) else "an object" if isinstance(value, dict) else "?"


def tutor_problem(points: object) -> str:
    """Why the tutor's points cannot be used (a field left empty, or out of bounds)."""
    low, high = TUTOR_POINTS
    off = "untick Tutor to play without the tutor"
    if points is None or (isinstance(points, str) and not points.strip()):
        return f"Tutor: the points are empty: give a number from {low:g} to {high:g}, or {off}"
    shown = typed(points)
    return f"Tutor: the points must be a number from {low:g} to {high:g}, not {shown} ({off})"
