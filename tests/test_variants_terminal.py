"""Every table's rules at the terminal: the person asked to show or hide a 31 and offered the
blind showdown, and the CLI's rules, play and oracle commands under the presets.

Expected values are written from the documents' words (our account of them: seeds/) and
the rulings in notes/DECISIONS.md, with stacked decks; never read back from the code under test.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from helpers import build_deck
from rich.console import Console
from thirtyone import Action, Game, Rules, SeatView
from thirtyone.terminal.narrator import Narrator
from thirtyone.terminal.player import QuitGame, TerminalPlayer
from variant_helpers import EXAMPLE_FILE, H10, H24, PRESETS, Steps, make_game, run

# -- the terminal player --------------------------------------------------------------------------


class _AtTheTerminal:
    """Seat 0's decisions asked of the person at the terminal (for a game of policies)."""

    def __init__(self, me: TerminalPlayer) -> None:
        self.me = me
        self.game: Game | None = None

    def decide(self, view: SeatView) -> Action:
        assert self.game is not None
        return self.me.choose(self.game)


def _person_game(
    rules: Rules, deck: list[str], answers: Iterator[str], opponent: Any, dealer: int = 1
) -> tuple[Game, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    names = ["You", "Alice"]
    narrator = Narrator(console, names, me=0)
    me = _AtTheTerminal(
        TerminalPlayer("You", console, narrator, read=lambda prompt: next(answers, None))
    )
    game = make_game(rules.replace(seats=2), dealer, [deck], [me, opponent])
    me.game = game
    game.names = names
    game.add_listener(narrator)
    narrator.game = game
    return game, out


def test_the_person_is_asked_to_show_or_hide_a_31() -> None:
    deck = build_deck([["AS", "QS", "2D"], H24], "8D", ["KS", "3C", "4C"])
    answers = iter(["d", "3", "x", "h", "k"])
    game, out = _person_game(
        Rules(may_hide_31=True), deck, answers, Steps("b", [("draw", None), ("draw", None)])
    )
    game.play_round()
    text = out.getvalue()
    assert "That leaves you 31!" in text
    assert "Type s to show your 31 or h to keep it hidden." in text
    assert "kept the 31 hidden (it counts 30)" in text
    assert re.search(r"You \(knocked\)\s+AS QS KS\s+30 \(31 hidden\)\s+safe", text)
    assert game.lives == [3, 2]


def test_the_hide_question_after_a_knock_where_a_31_lets_the_round_go_on() -> None:
    """docs/tables.md, ``thirty_one_after_knock`` ``continues``: a 31 shown during the final
    turns after a knock costs everybody else a life and the round goes on to the showdown. On
    your final turn after Alice's knock, the question whether to show or hide the 31 you make
    must not say that showing it ends the round (it did); Gin lives count letters, not lives."""
    deck = build_deck([["AS", "QS", "2D"], H24], "8D", ["KS"], first=1)
    for rules, loses in (
        (Rules(may_hide_31=True, thirty_one_after_knock="continues"), "loses a life"),
        (Rules.preset("gin-lives").replace(thirty_one_after_knock="continues"), "takes a letter"),
    ):
        game, out = _person_game(rules, deck, iter(["d", "3", "s"]), Steps("b", ["knock"]), 0)
        game.play_round()
        text = " ".join(out.getvalue().split())
        assert "Show it and the round ends" not in text
        assert f"Show it: everybody else {loses}, and the round goes on to the showdown." in text


def test_the_hide_question_before_a_knock_says_the_round_ends() -> None:
    """With nobody knocked, a 31 shown ends the round at any table (rules.md, "31 in play");
    under Gin lives everybody else takes a letter."""
    deck = build_deck([["AS", "QS", "2D"], H24], "8D", ["KS"])
    rules = Rules.preset("gin-lives").replace(thirty_one_after_knock="continues")
    game, out = _person_game(rules, deck, iter(["d", "3", "s"]), Steps("b", []))
    game.play_round()
    text = " ".join(out.getvalue().split())
    assert "That leaves you 31! Show it and the round ends: everybody else takes a letter." in text


def test_a_hidden_31_is_shown_on_your_turn_as_it_counts() -> None:
    """A hidden 31 counts 30 until it is shown (ruling 15): your next turn's box says the 30
    the hand counts and that the 31 is hidden, as the showdown does, never "score 31"."""
    deck = build_deck([["AS", "QS", "2D"], H24], "8D", ["KS", "3C", "4C"])
    answers = iter(["d", "3", "h", "k"])
    game, out = _person_game(
        Rules(may_hide_31=True), deck, answers, Steps("b", [("draw", None), ("draw", None)])
    )
    game.play_round()
    text = out.getvalue()
    assert "Your hand: AS QS KS   score 30 (31 hidden)" in text
    assert "score 31" not in text
    assert re.search(r"You \(knocked\)\s+AS QS KS\s+30 \(31 hidden\)", text)


def test_the_person_may_show_the_31() -> None:
    deck = build_deck([["AS", "QS", "2D"], H24], "8D", ["KS"])
    game, out = _person_game(Rules(may_hide_31=True), deck, iter(["d", "3", "s"]), Steps("b", []))
    game.play_round()
    assert "31 shown by You" in out.getvalue()
    assert game.lives == [3, 2]


def test_the_person_is_offered_the_blind_showdown_before_looking() -> None:
    deck = build_deck([H10, H24], "8D")
    game, out = _person_game(
        Rules(first_turn_knock="blind"), deck, iter(["?", "b"]), Steps("b", [])
    )
    game.play_round()
    text = out.getvalue()
    assert "before you look" in text and "Your hand" not in text
    assert "blind showdown called by You" in text
    assert game.lives == [1, 3]  # the caller, lowest, loses two


def test_a_blind_showdown_won_by_its_caller_says_the_caller_is_safe() -> None:
    """The caller pays 2 only when among the lowest dealt hands (docs/tables.md): called on the
    higher hand, the round's line must not say that the caller loses 2 lives."""
    deck = build_deck([H24, H10], "8D")
    game, out = _person_game(Rules(first_turn_knock="blind"), deck, iter(["b"]), Steps("b", []))
    game.play_round()
    text = " ".join(out.getvalue().split())
    assert "blind showdown called by You" in text
    assert "the caller 2 lives" not in text
    assert re.search(r"You AH 9H 4H 24 safe", text)
    assert game.lives == [3, 2]


def test_the_blind_showdowns_meaning_puts_the_callers_2_among_the_lowest() -> None:
    """`thirtyone rules` and the browser's form say what the blind showdown costs: the lowest
    1, a caller among the lowest 2 (docs/tables.md), not "the caller 2"."""
    from thirtyone.web.words import MEANINGS

    info = next(o for o in Rules.options() if o.name == "first_turn_knock")
    for meaning in (info.meaning, MEANINGS["first_turn_knock"]):
        assert "the caller 2" not in meaning
        assert "a caller among the lowest 2" in meaning


def test_the_person_looks_and_may_not_knock_on_the_first_turn() -> None:
    deck = build_deck([H24, H10], "8D", ["2C"])
    answers = iter(["", "k", "q"])
    game, out = _person_game(Rules(first_turn_knock="blind"), deck, answers, Steps("b", []))
    with pytest.raises(QuitGame):
        game.play_round()
    text = out.getvalue()
    assert "Your hand: AH 9H 4H" in text
    # (The message is wrapped at the console's width, between words.)
    assert "only a blind showdown called before looking" in " ".join(text.split())


# -- the table's names for a 31 -------------------------------------------------------------------


def _told(rules: Rules, deck: list[str], cara: list[Any]) -> str:
    """A round of two seats told one line a turn: Ann first, drawing and putting the card back,
    then Cara playing ``cara``."""
    out = io.StringIO()
    names = ["Ann", "Cara"]
    narrator = Narrator(Console(file=out, width=100, color_system=None), names, me=None)
    seats = [Steps("a", [("draw", None)] * 2), Steps("c", cara)]
    game = make_game(rules.replace(seats=2), 1, [deck], seats)
    game.names = names
    game.add_listener(narrator)
    narrator.game = game
    game.play_round()
    return out.getvalue()


def test_a_31_is_called_a_cadillac_at_the_cadillac_table() -> None:
    """Rule document 003's Cadillac calls a 31 a Cadillac and three aces, worth 33, a Grand
    Cadillac (the name is a word: nothing else changes). Where three aces are a Grand Cadillac
    (ruling 126), the 31 Cara makes and shows is told by that name, and so are three aces dealt;
    at scat, or at Cadillac's table with three aces as three of a kind, a 31 is a 31."""
    deck = build_deck([H24, ["AS", "QS", "2D"]], "8D", ["3C", "KS"])
    told = _told(Rules.preset("cadillac"), deck, [("draw", "2D")])
    assert "Cara: drew from the stock, put down 2D and showed 31: a Cadillac!" in told
    assert "Round 1: 31 shown by Cara (a Cadillac): everybody else loses a life." in told
    for rules in (Rules.preset("scat"), Rules.preset("cadillac").replace(three_aces="none")):
        told = _told(rules, deck, [("draw", "2D")])
        assert "put down 2D and showed 31!" in told and "31 shown by Cara:" in told
        assert "Cadillac" not in told
    aces = build_deck([H24, ["AS", "AD", "AC"]], "8D")
    told = _told(Rules.preset("cadillac"), aces, [])
    assert "Round 1: dealt 31 — Cara (a Grand Cadillac) showed it at once." in told
    aces = build_deck([H24, ["AS", "AD", "2C"]], "8D", ["3C", "AC"])
    told = _told(Rules.preset("cadillac"), aces, [("draw", "2C")])
    assert "put down 2C and showed 33: a Grand Cadillac!" in told
    assert "Round 1: 33 shown by Cara (a Grand Cadillac): everybody else loses a life." in told


def test_two_hands_dealt_31_are_each_named_at_the_cadillac_table() -> None:
    """Ann dealt a 31 (a Cadillac) and Cara three aces (33, a Grand Cadillac), Bo neither: the
    terminal names each ("all are safe" read as the whole table, when Bo loses a life), and the
    page is sent each name in the order of ``dealt``, so that its title says "Ann and Cara were
    dealt a Cadillac and a Grand Cadillac!" (it said "were dealt 31!" of a 33)."""
    from thirtyone.web import views

    out = io.StringIO()
    names = ["Ann", "Bo", "Cara"]
    narrator = Narrator(Console(file=out, width=100, color_system=None), names, me=None)
    deck = build_deck([["AS", "KS", "QS"], ["2C", "5D", "9S"], ["AH", "AD", "AC"]], "8D")
    game = make_game(Rules.preset("cadillac").replace(seats=3), 2, [deck])
    game.names = names
    game.add_listener(narrator)
    narrator.game = game
    sent: list[dict[str, Any]] = []
    game.add_listener(lambda e: sent.append(views.public_event(e, game)))
    game.play_round()
    told = out.getvalue()
    assert (
        "Round 1: dealt 31 — Ann (a Cadillac) and Cara (a Grand Cadillac) showed theirs: "
        "they are safe." in told
    )
    (end,) = [e for e in sent if e["kind"] == "round_end"]
    assert end["dealt"] == [0, 2] and end["losses"] == {0: 0, 1: 1, 2: 0}
    assert end["dealt_called"] == ["a Cadillac", "a Grand Cadillac"]
    assert "called" not in end  # (no one name for the round)


# -- the CLI --------------------------------------------------------------------------------------


def test_thirtyone_rules_lists_presets_and_options() -> None:
    result = run(["rules"])
    assert result.exit_code == 0, result.output
    for name in PRESETS:
        assert name in result.output
    for option in Rules.option_names():
        assert option in result.output
    result = run(["rules", "gin-lives"])
    assert result.exit_code == 0 and "lives_mode" in result.output and "gin" in result.output
    assert run(["rules", "poker"]).exit_code == 2


def test_thirtyone_rules_lists_a_presets_names_of_the_lives_one_by_one() -> None:
    """Four-corners names six standings, the last "out, stake in the centre" (docs/tables.md):
    listed joined by commas they read as seven. They are listed in order as the game's opening
    line gives them, one arrow between two names."""
    from thirtyone.terminal.rules_screen import rules_report

    console = Console(width=300, record=True, file=io.StringIO())
    console.print(rules_report("four-corners"))
    shown = console.export_text()
    assert (
        "bill unfolded → 1 corner folded → 2 corners folded → 3 corners folded → "
        "all 4 corners folded → out, stake in the centre"
    ) in shown


@pytest.mark.parametrize("preset", PRESETS)
def test_play_autoplay_every_preset(preset: str) -> None:
    result = run(["play", "--autoplay", "--seed", "2", "--seats", "3", "--rules", preset])
    assert result.exit_code == 0, result.output
    assert "Game over. Winner:" in result.output
    if preset != "standard":
        assert f"{preset} table" in result.output


def test_play_shows_standings_of_the_table() -> None:
    out = run(["play", "--autoplay", "--seed", "3", "--rules", "gin-lives"]).output
    assert "Letters: " in out and "takes a letter → G" in out and "loses 1 letter" not in out
    out = run(["play", "--autoplay", "--seed", "3", "--rules", "ride-the-bus"]).output
    assert "→ middle of the bus" in out and "off the bus" in out
    out = run(["play", "--autoplay", "--seed", "3", "--rules", "scat"]).output
    assert "is on the county: the next loss puts them out." in out


def test_a_gin_table_with_names_of_the_lives_says_the_names() -> None:
    """Under Gin lives, names of the lives stand for the letters (docs/tables.md: none gives
    the letters): the standings said "apple", "bee", while the opening line said "Gin lives: G,
    I, N and you are out" and your turn "your letters: G". Both now say the names."""
    names = "life_names=apple,bee,cat,dog"
    out = run(["play", "--autoplay", "--seed", "3", "--rules", "gin-lives", "--rule", names]).output
    assert "Gin lives: apple → bee → cat → dog" in out and "G, I, N" not in out
    assert "Letters: You apple" in out
    from thirtyone import Session, TablePolicy

    console = Console(width=80, file=io.StringIO(), color_system=None)
    rules = Rules.preset("gin-lives").replace(seats=3, life_names=("apple", "bee", "cat", "dog"))
    session = Session(rules, [None, TablePolicy(), TablePolicy()], seed=1)
    session.dealer = 2  # (you play first)
    narrator = Narrator(console, ["You", "Alice", "Ben"], me=0, game=session)
    session.add_listener(narrator)
    session.deal()
    with console.capture() as cap:
        console.print(narrator.turn_panel(session.seat_view()))
    assert "you are: apple" in cap.get() and "your letters" not in cap.get()


def test_a_player_without_a_letter_has_no_letters_wherever_the_standing_is_shown() -> None:
    """Ruling 353: under Gin lives a player who has taken no letter was shown as "-" ("score 16
    · -" on the page, "your letters: -" and "You - · Alice G" here), which reads as a figure
    left out. It is said in words, "no letters", by the terminal, the page and the reports."""
    from thirtyone import Session, TablePolicy
    from thirtyone.terminal.display import lives_line
    from thirtyone.web import views

    rules = Rules.preset("gin-lives").replace(seats=3)
    assert [rules.standing(n) for n in (3, 2, 1)] == ["no letters", "G", "G I"]
    assert rules.letters(3) == "no letters"
    line = lives_line(["You", "Alice", "Ben"], [3, 2, 3], 0, rules).plain
    assert line == "Letters: You no letters · Alice G · Ben no letters"
    console = Console(width=80, file=io.StringIO(), color_system=None)
    names = ["You", "Alice", "Ben"]
    session = Session(rules, [None, TablePolicy(), TablePolicy()], seed=1, names=names)
    session.dealer = 2  # (you play first, nobody has a letter)
    narrator = Narrator(console, names, me=0, game=session)
    session.add_listener(narrator)
    session.deal()
    with console.capture() as cap:
        console.print(narrator.turn_panel(session.seat_view()))
    panel = cap.get()
    assert "· you have no letters" in panel
    others = [line for line in panel.splitlines() if "Alice" in line or "Ben" in line]
    assert len(others) == 2 and all("no letters" in line for line in others), panel
    assert not re.search(r"(?<![\w-])-(?![\w-])", panel), panel  # (no "-" standing alone)
    # The page's table and the line of a game kept unfinished say the same.
    assert views.table(session)["standing"] == ["no letters"] * 3
    assert views.standing_line(session).endswith("You no letters, Alice no letters, Ben no letters")


def test_wide_names_of_the_lives_leave_your_turn_its_moves() -> None:
    """A name of the lives may be 40 characters (docs/tables.md), 80 columns of wide ones: your
    turn's table gave the column of standings the whole width and the others' moves this round
    a column of one, each said as "…". The standings are broken within a column; the moves are
    shown."""
    from rich.cells import cell_len
    from thirtyone import Session, TablePolicy

    console = Console(width=80, file=io.StringIO(), color_system=None)
    rules = Rules(seats=3, life_names=("漢" * 40, "字" * 40, "ab", "out"))
    session = Session(rules, [None, TablePolicy(), TablePolicy()], seed=1)
    session.dealer = 0  # (you play last: the others' moves are in the table)
    narrator = Narrator(console, ["You", "Alice", "Ben"], me=0, game=session)
    session.add_listener(narrator)
    session.advance()
    assert session.pending is not None and session.pending.seat == 0
    with console.capture() as cap:
        console.print(narrator.turn_panel(session.seat_view()))
    lines = cap.get().splitlines()
    assert sum("put down" in line for line in lines) == 2, "\n".join(lines)
    assert max(cell_len(line) for line in lines) <= 80


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--rules", "gin-lives", "--lives", "4"], "lives"),
        (["--rule", "lives_mode=gin", "--rule", "county=true"], "county"),
        (["--rules", "ride-the-bus", "--lives", "5", "--rule", "life_names=a,b"], "life_names"),
        (["--rule", "placing=podium"], "placing"),
    ],
)
def test_play_refuses_incompatible_rules(args: list[str], field: str) -> None:
    result = run(["play", "--autoplay", "--seed", "1", *args])
    assert result.exit_code == 2 and field in result.output


def test_names_of_the_lives_that_do_not_fit_are_refused_in_the_words_of_each_way_in() -> None:
    """Names of the lives that do not fit are refused saying how to give none, as each way in
    writes it: `life_names=` on the command line, `[]` in a state's JSON (a state file was told
    `life_names=`, which is the command line's)."""
    result = run(["play", "--autoplay", "--rule", "life_names=a,b"])
    assert result.exit_code == 2 and "life_names= on the command line" in result.output
    state = {"rules": {"preset": "standard", "life_names": ["a", "b"]}, "seats": 4, "me": 0}
    state |= {"first": 0, "upcard": "JH", "hand": ["9D", "6D", "TD"], "turns": []}
    result = run(["oracle", "-"], input=json.dumps(state))
    assert result.exit_code == 2 and "[] in a state" in result.output, result.output


def test_gin_lives_at_scat_says_to_set_the_knocker_tie() -> None:
    """Scat's knocker tied for lowest pays nothing (others_pay), which Gin lives does not play:
    the refusal says to set the tie (it said to "leave it at" knocker_pays, a value the table
    was not at)."""
    args = ["--rules", "scat", "--rule", "lives_mode=gin", "--rule", "county=false"]
    result = run(["play", "--autoplay", "--seed", "1", *args])
    assert result.exit_code == 2
    assert "set knocker_tie=knocker_pays" in result.output and "leave it" not in result.output


@pytest.mark.parametrize(
    ("args", "lives"),
    [
        (["--rules", "four-corners", "--lives", "2"], 2),
        (["--rules", "ride-the-bus", "--lives", "5"], 5),
        (["--rules", "ride-the-bus", "--rule", "county=false"], 3),
        # (As many names needed as the preset's, for other standings.)
        (["--rules", "four-corners", "--lives", "5", "--rule", "county=false"], 5),
        (["--rules", "ride-the-bus", "--lives", "4", "--rule", "county=false"], 4),
    ],
)
def test_a_presets_names_of_the_lives_give_way_to_other_lives(args: list[str], lives: int) -> None:
    """Four-corners' six names (the bill's corners) are for four lives and the county, ride the
    bus's five for three and the county: with other lives, or no county, they no longer fit and
    the game is played with the lives told as numbers (it was refused for the names)."""
    result = run(["play", "--autoplay", "--seed", "1", *args])
    assert result.exit_code == 0, result.output
    for name in ("folded", "the bus", "on the stairs"):
        assert name not in result.output
    assert f"{lives} lives each" in result.output


@pytest.mark.parametrize("preset", ["cadillac", "gin-lives", "five-lives"])
def test_oracle_command_under_presets(preset: str) -> None:
    args = [
        "oracle",
        str(EXAMPLE_FILE),
        "--json",
        "--seed",
        "1",
        "--deals",
        "300",
        "--playouts",
        "500",
    ]
    result = run([*args, "--rules", preset])
    assert result.exit_code == 0, result.output
    d = json.loads(result.stdout)
    assert {o["option"] for o in d["options"]} >= {"knock", "draw"}
    result = run([*args, "--rules", preset, "--rule", "knock_penalty=1"])
    assert result.exit_code == 0, result.output
