"""The small things of issue 27 (item 10): the help explains every word of the advice, Enter
with `--advice ask` offers only advice that was shown, the card taken may not go back and is
not offered, and the opening lines break between their parts."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import thirtyone
from click.testing import CliRunner
from rich.console import Console
from test_advice_words import text_of
from thirtyone._core import Action
from thirtyone.cli.app import main
from thirtyone.game.rules import Rules
from thirtyone.oracle.answer import Advice
from thirtyone.terminal.display import intro
from thirtyone.terminal.player import choose_card
from thirtyone.terminal.rules_screen import help_text

FAST = ["--oracle-deals", "200", "--oracle-playouts", "1000", "--fast"]


@pytest.fixture(autouse=True)
def _whole_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    import thirtyone.oracle.query

    real = thirtyone.oracle.query.advise

    def whole(*args: Any, **kwargs: Any) -> Advice:
        return real(*args, **{**kwargs, "max_time": None})

    monkeypatch.setattr(thirtyone.oracle.query, "advise", whole)


DATA = Path(__file__).parent / "data"


def test_the_help_explains_the_star_the_game_and_its_best() -> None:
    text = text_of(help_text([Action("draw")], putting_down=False, advice_keys=True), 100)
    assert "win game your chance of winning the game after the option" in text
    assert "Best for the game: the option likeliest to win the game" in text
    assert "★ best the safest option; among options tied on safety" in text


def play(tmp_path: Path, keys: str, *extra: str) -> str:
    env = {"COLUMNS": "100", "NO_COLOR": "1", "THIRTYONE_DATA_DIR": str(tmp_path)}
    result = CliRunner(env=env).invoke(main, ["play", "--seed", "5", *FAST, *extra], input=keys)
    assert result.exit_code == 0, result.output
    return result.output


def test_enter_with_advice_on_request_shows_the_advice_before_offering_it(tmp_path: Path) -> None:
    out = play(tmp_path, "\nn\nq\n", "--advice", "ask")
    assert out.index("╭─ Advice") < out.index("Play the Oracle's best: ")
    assert "Not played: your choice." in out


def test_a_at_the_question_shows_the_advice_and_asks_again(tmp_path: Path) -> None:
    out = play(tmp_path, "\na\nn\nq\n")
    asked = [m.start() for m in re.finditer(r"Play the Oracle's best: ", out)]
    assert len(asked) == 2  # asked again after a, not answered "Not played"
    between = out[asked[0] : asked[1]]
    assert "╭─ Advice" in between and "Not played" not in between
    assert out.count("Not played: your choice.") == 1


def test_the_card_taken_is_not_offered_to_put_down() -> None:
    cards = ["9S", "9C", "8C", "AD"]
    said = choose_card("d", cards, "AD", "pile")
    assert said == "!You took AD already: now put a card down (1-3 or its name: 9S 9C 8C)."
    assert choose_card("", cards, "AD", "pile") == (
        "!Choose the card to put down: 1-3 or its name (9S 9C 8C)."
    )
    # After a draw from the stock every card may go down.
    assert "(1-4 or its name: 9S 9C 8C AD)" in choose_card("d", cards, "AD", "stock")


@pytest.mark.parametrize("width", [80, 100])
@pytest.mark.parametrize("preset", Rules.PRESETS)
def test_the_opening_lines_break_between_parts(preset: str, width: int) -> None:
    """Each part of the table's line (the preset, the lives, the knock penalty, the seed) that
    fits a line is on one line: the gin-lives header used to break "knock penalty / 1" at 100
    columns."""
    rules, names = Rules.preset(preset), ["You", "Ann", "Bo"]
    whole = intro(rules, names, 0, 123456789, preset, width=10_000).plain.split("\n")[1]
    console = Console(width=width, record=True, color_system=None)
    with console.capture() as cap:
        console.print(intro(rules, names, 0, 123456789, preset, width=width))
    lines = cap.get().rstrip("\n").split("\n")
    assert all(len(line) <= width for line in lines)
    for part in whole.split(" · "):
        if len(part) <= width:
            assert any(part in line for line in lines), (part, lines)


def test_after_a_take_only_the_cards_that_may_go_down_are_offered(tmp_path: Path) -> None:
    """After a take the put-down's prompt, its help and its messages offer 1-3 (the card taken
    is the 4th and may not go straight back); typing it says why it may not."""
    out = play(tmp_path, "t\n9\n4\n4d\n?\n1\nq\n", "--no-oracle")
    assert "You took 4D from the pile." in out
    asked = re.findall(r"Put down which card\? \((\S+) or its name", out)
    assert asked and set(asked) == {"1-3"}, asked
    assert "There is no card 9: choose 1 to 3." in out
    why = "You took 4D from the pile: it may not go straight back. Choose 1-3: 6D 2H 2S."
    assert out.count(why) == 2 and len(why) < 80  # (as 4 and as 4D; on one row)
    assert "  1-3        put down the card at that position" in out
    [row] = [line for line in out.splitlines() if "taken from the pile" in line]
    assert row.split()[0] == "4D"  # (no number: it may not be chosen)
    assert re.search(r"You took 4D, put down \S+\.", out)


def test_hopeless_options_that_cost_the_same_are_tied_with_the_best() -> None:
    """Seat 1 has knocked at a table of one life each and your last turn can beat no hand: no
    option comes through safe and each costs the one life left. They are ranked by the hand
    kept, and every other option is tied with the best (a review counts playing any of them
    as agreeing with the Oracle), not "no other option within the margin"."""
    state = json.loads((DATA / "hopeless_state.json").read_text())
    advice = thirtyone.advise(state, deals=400, playouts=800, seed=1)
    assert all(o.p_safe == 0.0 for o in advice.options)
    assert {o.lives_lost for o in advice.options} == {1.0}
    assert [o.option for o in advice.tied] == [o.option for o in advice.options[1:]]
    assert advice.reason.startswith("No option comes through safe in any simulated round")


#: Two seats, you hold TC JC KC (30): the AC makes 31 with any of them.
THIRTY_ONE_TO_MAKE: dict[str, Any] = {
    "rules": "standard",
    "seats": 2,
    "me": 0,
    "first": 1,
    "upcard": "2D",
    "hand": ["TC", "JC", "KC"],
    "lives": [2, 2],
}


@pytest.mark.parametrize(
    ("turns", "pending", "showing"),
    [
        ([{"seat": 1, "draw": "stock", "discard": "4S"}], {"draw": "stock", "drew": "AC"}, 3),
        ([{"seat": 1, "draw": "stock", "discard": "AC"}], None, 1),
    ],
)
def test_an_option_that_shows_31_has_no_later_knock(
    turns: list[dict[str, str]], pending: dict[str, str] | None, showing: int
) -> None:
    """A put-down (after a draw) or a take that leaves 31 shows it at once and the round ends:
    no later knock score is swept or named for it (oracle.md: knock_at is for options after
    which the round goes on). It had been swept, answered knock_at 2 and charted "If you put
    down TC: safe by the score you knock at later"."""
    state = dict(THIRTY_ONE_TO_MAKE, turns=turns)
    if pending is not None:
        state["pending"] = pending
    advice = thirtyone.advise(state, deals=300, playouts=600, seed=1)
    shown = [o for o in advice.options if o.keeps == 31.0]
    assert len(shown) == showing
    for o in shown:
        assert o.p_safe == 1.0 and o.knock_at is None and o.sweep is None and not o.swept
    others = [o for o in advice.options if o.keeps != 31.0 and o.option != "knock"]
    assert others and all(o.swept and o.sweep is not None for o in others)
    text = (
        CliRunner()
        .invoke(
            main, ["oracle", "-", "--deals", "300", "--playouts", "600"], input=json.dumps(state)
        )
        .output
    )
    assert "If you put down TC" not in text and "If you take AC" not in text


def test_an_option_the_answer_has_not_is_named_with_those_it_has() -> None:
    # (A bare KeyError('discard:AH') said nothing of what may be asked.)
    state = json.loads((Path(__file__).parent / "data" / "example_state.json").read_text())
    advice = thirtyone.advise(state, deals=100, playouts=200, seed=1, max_time=None)
    with pytest.raises(KeyError) as caught:
        advice.option("discard:AH")
    assert caught.value.args == (
        "no option 'discard:AH' in this answer; its options: "
        + ", ".join(o.option for o in advice.options),
    )
    assert {o.option for o in advice.options} == {"knock", "draw", "take"}
    assert advice.option("take").card == "QC"
