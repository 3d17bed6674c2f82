"""The JSON Schemas shipped in the package (thirtyone/schemas/): they are valid schemas, the
example state and every state a real game gives validate, the Oracle's real answers validate
(from Python and from `thirtyone oracle --json`), and every JSON example of docs/ validates."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import thirtyone
from click.testing import CliRunner
from thirtyone.cli.app import main
from thirtyone.oracle.query import advise
from thirtyone.schemas import NAMES, schema

ROOT = Path(__file__).parent.parent
EXAMPLE_FILE = Path(__file__).parent / "data" / "example_state.json"
EXAMPLE: dict[str, Any] = json.loads(EXAMPLE_FILE.read_text())
#: No time limit: the answer is the whole of this work on every machine, however busy.
FAST = {"deals": 300, "playouts": 600, "seed": 1, "max_time": None}
FAST_OPTIONS = ["--deals", "300", "--playouts", "600", "--max-time", "0"]


def validator(name: str) -> jsonschema.protocols.Validator:
    s = schema(name)
    cls = jsonschema.validators.validator_for(s)
    return cls(s, format_checker=cls.FORMAT_CHECKER)


STATE = validator("state")
ADVICE = validator("advice")


@pytest.mark.parametrize("name", NAMES)
def test_the_schemas_are_valid_draft_2020_12(name: str) -> None:
    s = schema(name)
    assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(s)


def test_an_unknown_schema_is_refused_by_name() -> None:
    with pytest.raises(thirtyone.ThirtyOneError, match="no schema called 'round'"):
        schema("round")


def test_the_example_state_validates() -> None:
    STATE.validate(EXAMPLE)


def _views(preset: str, seed: int, seats: int) -> list[dict[str, Any]]:
    """The state of the player to move at every turn of a game's first rounds."""
    game = thirtyone.Game(thirtyone.Rules.preset(preset).replace(seats=seats), seed=seed)
    seen: list[dict[str, Any]] = []

    def grab(event: thirtyone.Event) -> None:
        r = game.round
        if event.kind == "turn" and r is not None and not r.is_over:
            seen.append(game.view())

    game.add_listener(grab)
    for _ in range(3):
        if not game.over:
            game.play_round()
    return seen


@pytest.mark.parametrize(
    ("preset", "seed", "seats"),
    [("standard", 1, 4), ("standard", 2, 2), ("cadillac", 3, 5), ("gin-lives", 4, 3)],
)
def test_every_state_a_game_gives_validates(preset: str, seed: int, seats: int) -> None:
    views = _views(preset, seed, seats)
    assert len(views) > 10
    for v in views:
        STATE.validate(v)


BAD_STATES = [
    dict(EXAMPLE, colour="red"),  # an unknown key
    dict(EXAMPLE, hand=["AH", "9H"]),  # two cards
    dict(EXAMPLE, hand=["AH", "9H", "1X"]),  # not a card
    dict(EXAMPLE, seats=12),
    dict(EXAMPLE, rules={"preset": "standard", "bogus": 1}),
    dict(EXAMPLE, rules="poker"),
    dict(EXAMPLE, rules={"lives": 30}),
    dict(EXAMPLE, turns=[{"seat": 1, "knock": True, "draw": "stock"}]),
    dict(EXAMPLE, turns=[{"seat": 1, "draw": "pile", "drew": "2C", "discard": "5C"}]),
    dict(EXAMPLE, pending={"draw": "stock"}),
    dict(EXAMPLE, pending={"draw": "pile", "drew": "9C"}),
    {k: v for k, v in EXAMPLE.items() if k != "hand"},
]


@pytest.mark.parametrize("state", BAD_STATES)
def test_the_state_schema_refuses_what_the_reader_refuses(state: dict[str, Any]) -> None:
    assert not STATE.is_valid(state)
    with pytest.raises(thirtyone.ThirtyOneError):
        advise(state, deals=10, playouts=10)


def _with(**changes: Any) -> dict[str, Any]:
    return dict(EXAMPLE, **changes)


ANSWERED = {
    "example": EXAMPLE,
    "pending-stock": _with(pending={"draw": "stock", "drew": "9C"}),
    "pending-pile": _with(pending={"draw": "pile"}),
    "after-a-knock": _with(turns=[*EXAMPLE["turns"][:-1], {"seat": 3, "knock": True}]),
    "rules-object": _with(rules={"preset": "scat", "knock_penalty": "1", "min_knock": 17}),
    "gin-lives": _with(rules="gin-lives", lives=[3, 2, 1, 1]),
}


@pytest.mark.parametrize("name", sorted(ANSWERED))
def test_real_answers_validate(name: str) -> None:
    state = ANSWERED[name]
    STATE.validate(state)
    answer = advise(state, **FAST).to_dict()
    ADVICE.validate(answer)
    # And the command's JSON, which is the same answer.
    result = CliRunner().invoke(
        main,
        ["oracle", "-", "--json", "--seed", "1", *FAST_OPTIONS],
        input=json.dumps(state),
    )
    assert result.exit_code == 0, result.output
    ADVICE.validate(json.loads(result.stdout))


def test_answers_during_games_validate() -> None:
    views = _views("standard", 5, 3)[::4]
    assert len(views) >= 3
    for v in views:
        ADVICE.validate(advise(v, deals=100, playouts=200, seed=2, max_time=None).to_dict())


def test_the_advice_schema_is_not_vacuous() -> None:
    good = advise(EXAMPLE, **FAST).to_dict()
    for bad in (
        {**good, "extra": 1},
        {**good, "best": "fold"},
        {**good, "options": [{**good["options"][0], "p_safe": 1.5}]},
        {**good, "options": [{"option": "take", "p_safe": 0.5, "margin": 0.1, "lives_lost": 0.5}]},
        {k: v for k, v in good.items() if k != "warnings"},
    ):
        assert not ADVICE.is_valid(bad), bad


def _json_blocks(path: Path) -> list[Any]:
    return [json.loads(b) for b in re.findall(r"```json\n(.*?)```", path.read_text(), re.S)]


def test_every_json_example_in_the_docs_validates() -> None:
    checked = 0
    for path in sorted((ROOT / "docs").glob("**/*.md")):
        for block in _json_blocks(path):
            kind = "advice" if "options" in block else "state"
            validator(kind).validate(block)
            if kind == "state":
                # A round the table's rule could have played: every opponent is dealt by the
                # consistency test, so the answer warns of nothing.
                assert advise(block, **FAST).warnings == [], block
            checked += 1
    assert checked >= 3


def test_the_docs_input_example_is_the_example_file_and_its_answer_matches_it() -> None:
    blocks = _json_blocks(ROOT / "docs" / "oracle.md")
    assert blocks[0] == EXAMPLE
    answer = next(b for b in blocks if "options" in b)
    real = advise(EXAMPLE, **FAST).to_dict()
    # The same options, in the same shape (the figures are a run's, at full precision, and
    # tests/test_docs_examples.py checks them exactly; at this budget's wider margins the
    # knock and the draw tie, and the best among tied options may be the other).
    assert sorted((o["option"], o.get("card")) for o in answer["options"]) == sorted(
        (o["option"], o.get("card")) for o in real["options"]
    )
    assert answer["best"] in {real["best"], *real["tied"]}
    assert answer["warnings"] == real["warnings"] == []
