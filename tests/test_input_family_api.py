"""The scripting API's refusals, a fourth QA round (README, "Scripting" and "Errors"): what a
script passes to ``TablePolicy``, ``OraclePlayer``, ``Session`` and ``advise`` is refused, when
wrong, by a :class:`thirtyone.ThirtyOneError` naming the setting, when it is given, never by a
raw ``OverflowError`` or ``TypeError`` (or later, in the middle of a game)."""

from __future__ import annotations

from typing import Any

import pytest
import thirtyone
from helpers import QUICK, example
from thirtyone import (
    CardError,
    Game,
    OraclePlayer,
    RuleError,
    Rules,
    Session,
    SettingsError,
    TablePolicy,
)


def test_a_knock_score_past_every_float_is_refused_as_any_other() -> None:
    """``float(10**400)`` raises ``OverflowError``: it escaped from ``TablePolicy``."""
    with pytest.raises(RuleError) as caught:
        TablePolicy(knock_at=10**400)
    assert str(caught.value) == (
        "rule knock_at: a number of 401 digits is not a score (whole or half points from 0)"
    )


@pytest.mark.parametrize(
    ("seed", "said"),
    [
        (-1, "seed must be a whole number from 0 to 18,446,744,073,709,551,615, not -1"),
        (2**64, "seed must be a whole number from 0 to 18,446,744,073,709,551,615, not "),
        ("7", 'seed must be a whole number, not "7"'),
        (1.5, "seed must be a whole number, not 1.5"),
        (True, "seed must be a whole number, not true"),
    ],
)
def test_an_oracle_player_checks_its_seed_when_it_is_made(seed: Any, said: str) -> None:
    """Its settings are checked when it is made (README): the seed was taken whatever it was
    (it is only hashed with the position), a seed that ``advise`` and ``--seed`` refuse."""
    with pytest.raises(SettingsError) as caught:
        OraclePlayer(seed=seed, deals=100, playouts=200)
    assert str(caught.value).startswith(said)


@pytest.mark.parametrize("seed", [None, 0, 2**64 - 1])
def test_an_oracle_player_takes_every_seed_of_the_bounds(seed: int | None) -> None:
    player = OraclePlayer(seed=seed, deals=100, playouts=200)
    assert player.seed == seed or seed is None


@pytest.mark.parametrize("rules", ["standard", 5, {"preset": "scat"}])
def test_a_game_refuses_rules_that_are_not_rules_as_a_session_does(rules: Any) -> None:
    """``Game("standard")`` raised ``AttributeError: 'str' object has no attribute 'seats'``."""
    with pytest.raises(RuleError, match=r"^rules must be a thirtyone\.Rules, such as "):
        Game(rules)


@pytest.mark.parametrize(
    ("seed", "what"),
    [([1], "list"), ("7", "the text '7'"), (1.5, "float"), (True, "bool"), (b"7", "bytes")],
)
def test_a_session_refuses_a_seed_that_is_not_a_whole_number(seed: Any, what: str) -> None:
    """``Session(seed=[1])`` raised random's ``TypeError``; text, a float or bytes were hashed
    into a game (``random.Random`` takes them) that no save can keep."""
    for made in (Session, Game):
        with pytest.raises(RuleError) as caught:
            made(Rules.standard(), seed=seed)
        assert str(caught.value) == (
            f"seed must be a whole number (None: a random one), not {what}"
        )


@pytest.mark.parametrize("seed", [None, 0, -5, 2**64, 10**30])
def test_a_session_takes_any_whole_seed(seed: int | None) -> None:
    """Any integer, as before (ruling 171), and the same seed plays the same game."""
    assert Game(Rules.standard(), seed=seed).play() in range(4)
    if seed is not None:
        assert Game(Rules.standard(), seed=seed).events == Game(Rules.standard(), seed=seed).events


def test_a_listener_that_cannot_be_called_is_refused_when_it_is_given() -> None:
    """``on_event=5`` raised ``TypeError: 'int' object is not callable`` at the first deal."""
    with pytest.raises(RuleError) as caught:
        Session(Rules.standard(), on_event=5)  # type: ignore[arg-type]
    assert str(caught.value) == "on_event must be a function called with each event, not int"
    session = Session(Rules.standard(), [None, *[TablePolicy()] * 3], seed=1)
    with pytest.raises(RuleError, match=r"^a listener must be a function .*, not None$"):
        session.add_listener(None)  # type: ignore[arg-type]
    heard: list[thirtyone.Event] = []
    session.add_listener(heard.append)
    session.advance()
    assert heard and heard[0].kind == "deal"


@pytest.mark.parametrize(("cancel", "what"), [("x", "the text 'x'"), (1, "int"), (True, "bool")])
def test_advise_refuses_a_cancel_that_is_not_one(cancel: Any, what: str) -> None:
    """``advise(state, cancel="x")`` raised the binding's ``TypeError: 'str' object is not an
    instance of 'Cancel'``; a setting of the query is refused as a ``SettingsError``."""
    with pytest.raises(SettingsError) as caught:
        thirtyone.advise(example(), cancel=cancel, **QUICK)
    assert str(caught.value) == f"cancel must be a thirtyone.Cancel or None, not {what}"


def test_advise_takes_a_cancel_or_none() -> None:
    for cancel in (None, thirtyone.Cancel()):
        assert thirtyone.advise(example(), cancel=cancel, **QUICK).deals == 100


def test_a_state_may_give_its_rules_as_a_rules_object() -> None:
    """``{"rules": Rules.preset("scat")}`` was refused as ``rules: KeyError: 'PRESET_INFO'``
    (a message that names no problem); it reads as the object ``Rules.to_dict()`` gives."""
    scat = Rules.preset("scat").replace(knock_penalty=1)
    as_object = thirtyone.advise({**example(), "rules": scat}, **QUICK).to_dict()
    as_dict = thirtyone.advise({**example(), "rules": scat.to_dict()}, **QUICK).to_dict()
    assert as_object == as_dict
    named = thirtyone.advise(
        {**example(), "rules": {"preset": "scat", "knock_penalty": 1}}, **QUICK
    )
    assert as_object == named.to_dict()


@pytest.mark.parametrize(
    ("cards", "what"), [(None, "None"), (5, "int"), ("AH KH", "the text 'AH KH'"), (b"AH", "bytes")]
)
def test_parse_cards_refuses_what_is_not_a_list_of_cards(cards: Any, what: str) -> None:
    """``parse_cards(None)`` raised ``TypeError: 'NoneType' object is not iterable``, and text
    was read a character at a time (``"A" is not a card``)."""
    with pytest.raises(CardError) as caught:
        thirtyone.parse_cards(cards)
    assert str(caught.value) == (
        f'cards must be a list of cards, such as ["AH", "9H", "4H"], not {what}'
    )


def test_a_session_deck_that_is_not_a_list_of_cards_is_named() -> None:
    """A ``decks`` entry of ``5`` raised ``TypeError: 'int' object is not iterable`` at its deal."""
    with pytest.raises(CardError) as caught:
        Session(Rules.standard(), decks=[5]).advance()  # type: ignore[list-item]
    assert str(caught.value) == (
        'deck must be a list of cards, such as ["AH", "9H", "4H"], not int'
    )
    assert thirtyone.parse_cards(("AH", "9H")) == ["AH", "9H"]
