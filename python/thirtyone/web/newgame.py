"""The new-game form read into a saved game: everything ``thirtyone play`` offers (the preset, any
rule option, your name, the seed, the opponents, the advice mode) and the tutor.

Each field is checked as the command line checks it (the rules by the core, the name by
:func:`thirtyone.names.problem`); a field that is wrong raises :class:`FormError` with one line
naming it as the form labels it and quoting what was typed, and nothing is started. A number
field may be sent as the text typed (the rules' read as ``--rule seats=…`` reads it): a value
no number of the page's script holds (``1e400``) is then quoted as typed, not as what the
script made of it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

from thirtyone.errors import RuleError
from thirtyone.game.rules import Rules
from thirtyone.names import computer_names, json_whole, plain_number, plain_whole, problem
from thirtyone.oracle.player import OPPONENTS
from thirtyone.store.saves import ADVICE_MODES, SavedGame, tutor_ok
from thirtyone.web import words
from thirtyone.web.views import NUMBERS

#: A seed is a whole number from 0 to this, as in every command (`--seed`); the page sends it
#: as the text typed, so that no digit of a large one is lost to a number of the script's.
MAX_SEED = 2**64 - 1
#: The core's message about a rule option names it as the command line does (``rule seats:``).
RULE_NAMED = re.compile(r"rule ([a-z0-9_]+): ")
#: The command line's words in the core's messages about the rules, as the form says them.
FORM_WORDS = {
    "or none (life_names= on the command line, [] in a state)": "or leave the field empty",
    "set county=false": "untick County",
    "with lives_mode gin": "with Gin lives",
    # (Set, not left: scat's and Cadillac's own tie is another, changed by no player.)
    "set knocker_tie=knocker_pays": (
        f"set it to “{words.choice_words('knocker_tie', 'knocker_pays')}”"
    ),
}


class FormError(ValueError):
    """A field of the new-game form that cannot be used (the message names it)."""


def saved_game(form: object) -> SavedGame:
    """The new game the form describes, not yet saved. Raises :class:`FormError`."""
    if not isinstance(form, Mapping):
        raise FormError("the new game's settings must be an object")
    rules = _rules(form.get("preset", "standard"), form.get("rules", {}))
    name = _name(form.get("name", "You"))
    seed = _seed(form.get("seed"))
    opponents = _choice(form.get("opponents", "table"), OPPONENTS, "Opponents")
    advice = _choice(form.get("advice", "always"), ADVICE_MODES, "Advice")
    tutor = tutor_points(form.get("tutor"))
    names = [name, *computer_names(rules.seats - 1, name)]
    return SavedGame(rules, seed, names, advice=advice, opponents=opponents, tutor=tutor)


def _rules(preset: object, changes: object) -> Rules:
    if not isinstance(preset, str) or preset not in Rules.PRESETS:
        raise FormError(f"Preset: {words.typed(preset)} is not one of {', '.join(Rules.PRESETS)}")
    if not isinstance(changes, Mapping) or not all(isinstance(k, str) for k in changes):
        raise FormError("rules: the rule options must be an object of option names and values")
    if "preset" in changes:
        raise FormError("rules: give the preset once, as preset")
    for name, value in changes.items():
        if value is None or (isinstance(value, str) and not value.strip()):
            raise FormError(_empty(name))
    spec: dict[str, Any] = {"preset": preset, **changes}
    try:
        return Rules.from_spec(spec)
    except RuleError as err:
        raise FormError(_in_form_words(str(err))) from None


def _in_form_words(message: str) -> str:
    """The core's message about a rule option as the form says it: the option named by its
    label (``Seats:``, not ``rule seats:``, as a field left empty is), and the command line's
    syntax (``life_names=``) in the form's words."""
    if found := RULE_NAMED.match(message):
        message = f"{words.label(found[1])}: {message[found.end() :]}"
    for said, shown in FORM_WORDS.items():
        message = message.replace(said, shown)
    return message


def _empty(name: str) -> str:
    """A rule option's field left empty, named as the form labels it (the page sends an empty
    field as null, a word the player never typed)."""
    if name in NUMBERS:
        low, high, step = NUMBERS[name]
        kind = "a whole number" if step == 1 else "a number"
        return f"{words.label(name)} is empty: give {kind} from {low:g} to {high:g}"
    return f"{words.label(name)} is empty: choose one"


def _name(name: object) -> str:
    if not isinstance(name, str) or not name.strip():
        raise FormError("Your name: it may not be empty")
    name = name.strip()
    if why := problem(name):
        raise FormError(f"Your name: {why}")
    return name


def _seed(seed: object) -> int:
    """The seed given (a whole number, as a number or as text), or a new one."""
    if seed is None or seed == "":
        return random.SystemRandom().randrange(1, 1_000_000)
    if isinstance(seed, str) and plain_whole(seed):  # (as the command reads --seed)
        text = seed.strip()
        n = int(text) if len(text.lstrip("+-")) <= len(str(MAX_SEED)) else -1
        if 0 <= n <= MAX_SEED:
            return n  # (else refused below quoting the text as typed)
    sent = json_whole(seed)  # (5.0 too: it said "must be a whole number …, not 5")
    if sent is not None and 0 <= sent <= MAX_SEED:
        return sent
    raise FormError(f"Seed: must be a whole number from 0 to {MAX_SEED:,}, not {words.typed(seed)}")


def tutor_points(points: object) -> float | None:
    """The tutor's points: None (no tutor), or a number within the bounds, given as a number or
    as the text typed (a message quotes the text as typed: ``1e400`` was called empty, the
    page's number field giving no number for it). Raises :class:`FormError`."""
    if points is None:
        return None
    if isinstance(points, int | float) and tutor_ok(points):
        return float(points)
    typed = isinstance(points, str) and plain_number(points)  # (as --delay reads seconds)
    if typed and tutor_ok(value := float(str(points))):
        return value
    raise FormError(words.tutor_problem(points))


def _choice(value: object, choices: tuple[str, ...], field: str) -> str:
    if isinstance(value, str) and value in choices:
        return value
    raise FormError(f"{field}: {words.typed(value)} is not one of {', '.join(choices)}")
