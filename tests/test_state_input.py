"""The Oracle's input and the rule options are read once, by the core: hostile and careless input
gets one clear message of the right kind, quoting at most a short prefix of the value.

Written from oracle.md (the state's keys), the rule options' ranges (`thirtyone rules`) and the
promise that bad input never ends in a traceback, an abort or a flood of text.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import thirtyone
from click.testing import CliRunner
from thirtyone import _core
from thirtyone.cli.app import main
from thirtyone.errors import CardError, RuleError, StateError, ThirtyOneError
from thirtyone.game.rules import Rules
from thirtyone.oracle.state import parse

EXAMPLE_FILE = Path(__file__).parent / "data" / "example_state.json"
CHEAP = {"deals": 100, "playouts": 200, "seed": 1, "max_time": None}


def example(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE_FILE.read_text())
    data.update(changes)
    return data


def nested(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


# -- Python objects --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("state", "kind", "words"),
    [
        (example(hand=nested(100_000)), StateError, "hand"),
        (example(rules={"runs": nested(100_000)}), RuleError, "runs"),
        (example(seats=10**5000), StateError, "seats"),
        (example(lives=[10**100, 3, 3, 3]), StateError, "lives[0]"),
        (example(lives=[-5, 3, 3, 3]), StateError, "lives[0]"),
        (example(lives=[4, 3, 3, 3]), StateError, "lives[0]"),
        (example(lives=[0, 3, 3, 3]), StateError, "lives[0]"),
        (example(upcard="\ud800"), StateError, "upcard"),
        (example(hand=["AH", "9H", "Q" * 10_000_000]), CardError, "hand[2]"),
        (example(rules={"seats": 2}), StateError, "2 seats"),
        (example(rules={"lives": 10**100}), RuleError, "lives"),
        (
            example(rules={"preset": "scat", "life_names": ["a", "b", "c", "\x1b[2J", "e"]}),
            RuleError,
            "control",
        ),
        (example(me=True), StateError, "me"),
        (
            example(turns=[{"seat": 0, "draw": "stock", "discard": "5C", "hides": "yes"}]),
            StateError,
            "hides",
        ),
        ([1, 2], StateError, "object"),
        (example(turns=[{}] * 5_000), StateError, "turns"),
    ],
)
def test_python_objects_are_refused_by_name(state: Any, kind: type, words: str) -> None:
    with pytest.raises(kind) as err:
        thirtyone.advise(state, **CHEAP)
    message = str(err.value)
    assert words in message
    assert len(message) < 300


@pytest.mark.parametrize(
    ("state", "kind", "place"),
    [
        (example(rules="\ud800"), RuleError, "rules: "),
        (example(rules={"preset": "\ud800"}), RuleError, "rules.preset: "),
        (example(hand=["\ud800", "9H", "4H"]), StateError, "hand[0]: "),
        ({**example(), "\ud800": 1}, StateError, "the state must be a JSON object"),
    ],
)
def test_a_lone_surrogate_is_named_in_our_words(state: Any, kind: type, place: str) -> None:
    """A Python string that is not valid text is refused at its place in the product's words,
    as in JSON text; not with Python's UnicodeEncodeError passed on (README: the same kind of
    one-line message)."""
    with pytest.raises(kind) as err:
        thirtyone.advise(state, **CHEAP)
    message = str(err.value)
    assert message.startswith(place) and message.endswith("not valid text (a lone surrogate?)")
    assert "Unicode" not in message and "codec" not in message


@pytest.mark.parametrize(
    ("state", "kind", "said"),
    [
        (example(me=10**400), StateError, "me: too large a number"),
        (example(lives=[3, 3, 10**400, 1]), StateError, "lives[2]: too large a number"),
        (example(rules={"knock_penalty": 10**400}), RuleError, "rules.knock_penalty: too large"),
        (example(seats=2.0**70), StateError, "seats: too large a number"),
    ],
)
def test_a_number_too_large_to_read_is_said_to_be(state: Any, kind: type, said: str) -> None:
    """A whole number beyond what the reader holds is refused as too large, at its place; not
    with Python's OverflowError passed on."""
    with pytest.raises(kind) as err:
        thirtyone.advise(state, **CHEAP)
    assert str(err.value).startswith(said)
    assert "Overflow" not in str(err.value)


def test_a_whole_number_may_be_written_as_json_schema_allows() -> None:
    # JSON Schema's `integer` takes 4.0 and -0 (the state schema says `integer`).
    assert parse(example(seats=4.0, me=-0.0)).seats == 4


def test_sensible_values_are_accepted_in_either_spelling() -> None:
    for value in (30.5, "30.5"):
        s = parse(example(rules={"three_of_a_kind": value}))
        assert s.rules["three_of_a_kind"] == "30.5"
    # Lives within the table; the county allows 0; tuples are lists.
    assert parse(example(lives=(3, 3, 2, 1))).lives == [3, 3, 2, 1]
    s = parse(example(rules="scat", lives=[3, 0, 2, 1]))
    assert s.lives == [3, 0, 2, 1]
    # A table that started with more seats than are still in: players out of the game.
    assert parse(example(rules={"seats": 6})).seats == 4


def test_rule_changes_beside_the_state() -> None:
    s = parse(example(), preset="scat", changes={"knock_penalty": 1})
    assert s.rules["county"] and s.rules["knock_penalty"] == 1
    with pytest.raises(StateError, match="seats"):
        parse(example(), changes={"seats": 3})


# -- rules -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda: Rules(lives=10**100),
        lambda: Rules(lives=-5),
        lambda: Rules(lives=21),
        lambda: Rules(seats=2.5),
        lambda: Rules(knock_penalty=True),
        lambda: Rules(life_names=("a", "b", "c", "\x07")),
        lambda: Rules.from_spec({"preset": "nonsense" * 10_000}),
    ],
)
def test_rule_values_out_of_range_are_refused(make: Any) -> None:
    with pytest.raises(RuleError) as err:
        make()
    assert len(str(err.value)) < 300


def test_rules_read_numbers_and_keep_types() -> None:
    r = Rules.from_spec({"three_of_a_kind": 30.5, "min_knock": "17"})
    assert r.three_of_a_kind == "30.5" and r.min_knock == 17
    assert Rules(three_aces=33).three_aces == "33"
    assert Rules.preset("standard").replace(lives=5).lives == 5
    assert sorted(Rules.PRESETS) == sorted(_core.presets())


# -- the command line ------------------------------------------------------------------------------


def oracle_cli(text: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "thirtyone",
            "oracle",
            "-",
            "--deals",
            "100",
            "--playouts",
            "200",
            *args,
        ],
        input=text,
        capture_output=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (b"[" * 100_000 + b"]" * 100_000, b"JSON object"),
        (json.dumps(example()).replace('"seats": 4', '"seats": ' + "9" * 5000).encode(), b"seats"),
        (json.dumps(example()).replace('"7S"', '"\\ud800"').encode(), b"upcard"),
        # (50 MB: refused for its size, unread, before any key is looked at.)
        (json.dumps(example(upcard="Q" * 50_000_000)).encode(), b"over 1,048,576 bytes"),
        (json.dumps(example(upcard="Q" * 500_000)).encode(), b"upcard"),
        (json.dumps(example(lives=[-5, 3, 3, 3])).encode(), b"lives[0]"),
        (json.dumps(example(rules={"seats": 2})).encode(), b"seats"),
        (json.dumps(example(colour="red")).encode(), b"colour"),
        (b"\xff\xfe not text", b"not valid JSON"),
    ],
)
def test_the_cli_refuses_bad_states_in_one_short_line(text: bytes, words: bytes) -> None:
    result = oracle_cli(text)
    assert result.returncode == 2, result.stderr[:500]
    assert result.stdout == b""
    assert words in result.stderr
    assert result.stderr.count(b"\n") == 1 and len(result.stderr) < 400
    assert b"Traceback" not in result.stderr


#: A value of the wrong kind in a common field, and what the refusal says, from JSON text or a
#: Python mapping alike: the field, what it takes, and what it was given as JSON spells it.
WRONG_KINDS = [
    (
        {"hand": "AH 9H 4H"},
        StateError,
        'hand: must be a list of 3 cards, such as ["AH", "9H", "4H"], not "AH 9H 4H"',
    ),
    ({"hand": ["AH", 9, "4H"]}, StateError, 'hand[1]: must be a card such as "AH", not 9'),
    ({"seats": "4"}, StateError, 'seats: must be a whole number, not "4"'),
    (
        {"lives": "3333"},
        StateError,
        'lives: must be a list of one whole number per seat, not "3333"',
    ),
    ({"lives": [3, 3, None, 1]}, StateError, "lives[2]: must be a whole number, not null"),
    ({"upcard": ["7S"]}, StateError, 'upcard: must be a card such as "AH", not a list'),
    ({"turns": {"seat": 1}}, StateError, "turns: must be a list of turns, not an object"),
    (
        {"turns": [{"seat": 1, "draw": "stock", "discard": "5C", "shows": "AH KH QH"}]},
        StateError,
        'turns[0].shows: must be a list of 3 cards, such as ["AH", "9H", "4H"], not "AH KH QH"',
    ),
    (
        {"turns": [{"seat": 1, "knock": 1}]},
        StateError,
        "turns[0].knock: must be true or false, not 1",
    ),
    (
        {"rules": 5},
        RuleError,
        "rules: must be a preset name or an object of rule options, not 5",
    ),
    ({"rules": {"preset": 5}}, RuleError, "rules.preset: must be text, not 5"),
    ({"rules": {"lives": "x"}}, RuleError, 'rule lives: must be a whole number, not "x"'),
]


@pytest.mark.parametrize(("change", "kind", "words"), WRONG_KINDS)
def test_a_value_of_the_wrong_kind_is_named_with_what_its_field_takes(
    change: dict[str, Any], kind: type, words: str
) -> None:
    """The field and what it takes, never serde's "invalid type: …, expected a sequence"; the
    same words from ``thirtyone oracle`` (JSON text) and from ``advise`` (a mapping, where a
    text given for a list was read letter by letter)."""
    state = example(**change)
    result = oracle_cli(json.dumps(state).encode())
    assert result.returncode == 2
    said = result.stderr.decode()
    assert said.startswith(f"Error: {words}"), said
    assert "invalid type" not in said and "expected" not in said and "`" not in said
    with pytest.raises(kind) as err:
        thirtyone.advise(state, **CHEAP)
    assert str(err.value) == words


def test_the_cli_reads_rule_numbers_either_way() -> None:
    for value in (30.5, "30.5"):
        text = json.dumps(example(rules={"three_of_a_kind": value})).encode()
        result = oracle_cli(text, "--json")
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["options"]


def test_the_cli_refuses_rules_that_contradict_the_state_or_each_other() -> None:
    text = json.dumps(example()).encode()
    result = oracle_cli(text, "--rule", "seats=3")
    assert result.returncode == 2 and b"seats" in result.stderr
    result = CliRunner().invoke(main, ["play", "--rule", "seats=9", "--seats", "2", "--autoplay"])
    assert result.exit_code == 2
    assert "--seats 2" in result.output and "seats=9" in result.output


def test_every_refusal_is_a_thirtyone_error() -> None:
    # The family: a script's `except ThirtyOneError` catches every mistake in a state.
    for bad in (example(seats="four"), example(hand="AH"), example(upcard=None), "{", b"\x00"):
        with pytest.raises(ThirtyOneError):
            parse(bad)
