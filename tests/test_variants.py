"""Every table's rules: the rule options and presets of the rule documents, in the game
loop, the terminal player, the CLI and the Oracle.

Expected values are written from the documents' words (our account of them: docs/seeds/) and
the rulings in notes/DECISIONS.md, with stacked decks; never read back from the code under test.
"""

from __future__ import annotations

import io
import itertools
import json
import random
import re
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import thirtyone
from click.testing import CliRunner, Result
from helpers import PACK, FirstKnocks, build_deck, game_deck, ref_put_down, ref_score, ref_start
from rich.console import Console
from thirtyone import ComputerPlayer, Event, Game, IllegalMoveError, RuleError, Rules, Turn, _core
from thirtyone.cli import main
from thirtyone.narrator import Narrator
from thirtyone.oracle import advise
from thirtyone.terminal_player import QuitGame, TerminalPlayer

H24 = ["AH", "9H", "4H"]
H17 = ["KS", "7S", "AC"]
H10 = ["QD", "QH", "5C"]
H22 = ["JC", "TC", "2C"]
H10B = ["TS", "4D", "3H"]
H31 = ["AS", "KS", "QS"]

PRESETS = [
    "standard",
    "five-lives",
    "four-corners",
    "scat",
    "cadillac",
    "ride-the-bus",
    "gin-lives",
]
ENV = {"COLUMNS": "100", "NO_COLOR": "1"}
EXAMPLE_FILE = Path(__file__).parent / "data" / "example_state.json"


class Steps:
    """Plays the steps it is given, one turn each: ``"knock"``, ``"blind"`` (call the blind
    showdown), ``"look"`` (then the next step in the same turn unless the round ended),
    ``("draw", card)`` / ``("take", card)`` (``None``: put the drawn card back), and
    ``("draw", card, "hide")`` to keep the 31 that leaves hidden."""

    def __init__(self, name: str, steps: Sequence[Any]) -> None:
        self.name = name
        self.steps = list(steps)

    def play(self, turn: Turn) -> None:
        step = self.steps.pop(0)
        if step == "look":
            turn.look()
            if turn.round_over:
                return
            step = self.steps.pop(0)
        if step == "blind":
            turn.call_blind()
        elif step == "knock":
            turn.knock()
        else:
            how, card, *flags = step
            new = turn.draw() if how == "draw" else turn.take()
            turn.put_down(new if card is None else card, hide="hide" in flags)


def make_game(
    rules: Rules, dealer: int, decks: Sequence[Sequence[str]], players: Sequence[Any] | None = None
) -> Game:
    n = rules.seats
    game = Game(rules, players or [FirstKnocks(f"p{i}") for i in range(n)], seed=0, decks=decks)
    game.dealer = dealer  # fix the first dealer for the test
    return game


def events(game: Game, kind: str) -> list[dict[str, Any]]:
    return [e.data for e in game.events if e.kind == kind]


def run(args: list[str], input: str | None = None) -> Result:
    return CliRunner(env=ENV).invoke(main, args, input=input)


# -- the presets follow their documents -----------------------------------------------------------


def test_every_preset_says_which_document_it_follows_and_how_it_differs() -> None:
    assert sorted(Rules.PRESETS) == sorted(PRESETS)
    for name in PRESETS:
        info = Rules.PRESET_INFO[name]
        assert info.name == name and "rule document 00" in info.document and info.differs
        Rules.preset(name)  # valid
    assert Rules.preset("standard") == Rules()


def test_preset_fields_follow_the_documents() -> None:
    # 001: five lives; trips 30.5; a 31 after a knock and the round continues; the knocker 2.
    r = Rules.preset("five-lives")
    assert (r.lives, r.three_of_a_kind, r.thirty_one_after_knock, r.knock_penalty) == (
        5,
        "30.5",
        "continues",
        2,
    )
    assert not r.county
    # 002: four corners, then a fifth loss puts you out; the knocker's penalty doubled.
    r = Rules.preset("four-corners")
    assert (r.lives, r.county, r.knock_penalty) == (4, True, 2)
    # 003's main rules.
    r = Rules.preset("scat")
    assert (r.lives, r.county, r.knocker_tie, r.knock_penalty) == (3, True, "others_pay", 2)
    assert r.two_player_mercy and r.may_hide_31 and r.first_turn_knock == "allowed"
    assert r.thirty_one_after_knock == "ends_round" and r.three_of_a_kind == "none"
    # 003's Cadillac.
    r = Rules.preset("cadillac")
    assert (r.lives, r.three_of_a_kind, r.three_aces, r.knocker_tie) == (4, "30", "33", "cadillac")
    # 003's Ride the Bus: back, middle, front, stairs (the county), off the bus.
    r = Rules.preset("ride-the-bus")
    assert r.county and r.lives == 3
    assert [r.standing(n) for n in (3, 2, 1, 0, -1)] == list(r.life_names)
    assert "back" in r.life_names[0] and "stairs" in r.life_names[3] and "off" in r.life_names[4]
    # 003's Gin lives.
    r = Rules.preset("gin-lives")
    assert (r.lives_mode, r.lives, r.county, r.knock_penalty) == ("gin", 3, False, 1)


def test_describe_and_options_cover_every_field() -> None:
    names = Rules.option_names()
    for new in ("county", "lives_mode", "life_names", "placing", "may_hide_31"):
        assert new in names
    opts = {o.name: o for o in Rules.options()}
    assert set(opts) == set(names)
    assert "blind" in opts["first_turn_knock"].values
    assert all(o.meaning and o.seed for o in opts.values())
    assert opts["county"].default == "false" and opts["placing"].default == "winner_takes_all"


# -- validation -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: Rules.preset("poker"), "poker"),
        (lambda: Rules().replace(jokers=True), "jokers"),
        (lambda: Rules.from_spec({"preset": "scat", "bogus": 1}), "bogus"),
        (lambda: Rules(min_knock=32), "min_knock"),
        (lambda: Rules(lives=0), "lives"),
        (lambda: Rules(seats=1), "seats"),
        (lambda: Rules(seats=10), "seats"),
        (lambda: Rules(placing="podium"), "placing"),
        (lambda: Rules(lives_mode="letters"), "lives_mode"),
        (lambda: Rules(first_turn_knock="hammer"), "first_turn_knock"),
        (lambda: Rules(county="yes"), "county"),
        (lambda: Rules(may_hide_31=1), "may_hide_31"),
        (lambda: Rules(lives_mode="gin", county=True), "county"),
        (lambda: Rules(lives_mode="gin", lives=4), "lives"),
        (lambda: Rules(lives_mode="gin", knocker_tie="others_pay"), "knocker_tie"),
        (lambda: Rules.preset("scat").replace(lives_mode="gin"), "county"),
        (lambda: Rules(life_names=("a", "b")), "life_names"),
        (lambda: Rules.preset("ride-the-bus").replace(lives=4), "life_names"),
        (lambda: Rules(life_names=("a", "", "c", "d")), "life_names"),
        (lambda: Rules.parse_assignment("county=maybe"), "county"),
        (lambda: Rules.parse_assignment("colour=red"), "colour"),
    ],
)
def test_invalid_rules_are_refused_naming_the_field(make: Callable[[], Any], field: str) -> None:
    with pytest.raises(RuleError, match=field):
        make()


def test_assignments_and_specs_of_the_new_options() -> None:
    assert Rules.parse_assignment("life_names=a, b ,c,d") == ("life_names", ("a", "b", "c", "d"))
    assert Rules.parse_assignment("life_names=") == ("life_names", ())
    assert Rules.parse_assignment("county=yes") == ("county", True)
    assert Rules.parse_assignment("first-turn-knock=blind") == ("first_turn_knock", "blind")
    r = Rules.from_spec({"preset": "standard", "life_names": ["w", "x", "y", "z"]})
    assert r.life_names == ("w", "x", "y", "z")
    assert r.standing(3) == "w" and r.standing(0) == "z"
    # A state's rules object round-trips through to_dict (JSON-friendly).
    for name in PRESETS:
        r = Rules.preset(name)
        assert Rules.from_spec(json.loads(json.dumps(r.to_dict()))) == r
    # Gin lives works from the standard table by setting the mode.
    assert Rules(lives_mode="gin").gin


# -- the county -----------------------------------------------------------------------------------


def test_county_after_the_last_life_then_the_next_loss_puts_you_out() -> None:
    # 3 seats, 1 life each, the county. Dealer 2: seat 0 plays first and knocks; seat 2 is lowest.
    rules = Rules(seats=3, lives=1, county=True)
    d1 = game_deck({0: H24, 1: H17, 2: H10}, dealer=2, n_seats=3, upcard="8D")
    d2 = game_deck({0: H24, 1: H22, 2: H10}, dealer=0, n_seats=3, upcard="8D")
    game = make_game(rules, 2, [d1, d2])
    game.play_round()
    assert game.lives == [1, 1, 0]
    assert events(game, "county") == [{"seat": 2}] and events(game, "out") == []
    assert game.on_county(2) and game.standing(2) == "on the county"
    assert game.active == [0, 1, 2]  # nobody is out: seat 2 plays on
    game.play_round()  # seat 2 loses again
    assert game.lives == [1, 1, -1]
    assert events(game, "out") == [{"seat": 2, "place": 3}]
    assert game.active == [0, 1] and game.standing(2) == "out"


@pytest.mark.parametrize(
    ("county", "lives", "left", "out"),
    [
        (True, 1, -1, True),  # two lives lost with one left: out at once (seed 003)
        (True, 2, 0, False),  # two lives lost with two left: on the county
        (False, 2, 0, True),  # no county: no lives left is out
    ],
)
def test_a_knocker_paying_two(county: bool, lives: int, left: int, out: bool) -> None:
    rules = Rules(seats=3, lives=lives, county=county)
    deck = game_deck({0: H10, 1: H17, 2: H24}, dealer=2, n_seats=3, upcard="8D")
    game = make_game(rules, 2, [deck])
    game.play_round()
    assert game.lives[0] == left
    assert (events(game, "out") == [{"seat": 0, "place": 3}]) == out
    assert (events(game, "county") == [{"seat": 0}]) == (not out)


def test_county_wash_when_the_round_would_leave_nobody_in() -> None:
    # Two seats on the county tie for lowest with no knock (stock out): both would be out: a wash.
    rules = Rules(seats=2, lives=1, county=True)
    d1 = game_deck({0: H24, 1: H17}, dealer=1, n_seats=2, upcard="8D")
    d2 = game_deck({0: H10, 1: H24}, dealer=0, n_seats=2, upcard="8D")
    game = make_game(rules, 1, [d1, d2])
    game.play_round()  # seat 0 knocks on 24: seat 1 on the county
    game.play_round()  # seat 1 knocks on 24: seat 0 on the county
    assert game.lives == [0, 0] and not game.over
    # Both hold 10s and decline the discard at once with the stock spent: one life each.
    hands = {0: H10, 1: H10B}
    deck = game_deck(hands, dealer=1, n_seats=2, upcard="8D")
    decliner = _Decliner()
    game.players = [decliner, decliner]
    game._decks = iter([deck, game_deck({0: H24, 1: H17}, dealer=1, n_seats=2, upcard="8D")])
    game.play_round()
    kinds = [e.kind for e in game.events if e.kind != "turn"]
    assert kinds[-6:] == ["deal", "wash", "deal", "round_end", "out", "game_over"]
    (wash,) = events(game, "wash")
    assert wash["losses"] == {0: 1, 1: 1} and wash["end"] == "stock_out"
    # Dealt again: 24 against 17, the stock runs out again, seat 1 is lowest and out.
    assert game.lives == [0, -1] and game.winner == 0


class _Decliner:
    """Draws the whole stock away by putting each card back, then declines: a stock-out round
    of the dealt hands."""

    name = "d"

    def play(self, turn: Turn) -> None:
        if "decline" in [str(a) for a in turn.legal()]:
            turn.decline()
        else:
            turn.put_down(turn.draw())


# -- Gin lives ------------------------------------------------------------------------------------


def test_gin_lives_letters_and_the_knock_that_claims_the_highest() -> None:
    rules = Rules.preset("gin-lives").replace(seats=3, placing="ranked")
    decks = [
        # seat 0 knocks on 24, the highest: everybody else takes a letter
        game_deck({0: H24, 1: H17, 2: H10}, dealer=2, n_seats=3, upcard="8D"),
        # seat 1 knocks on 10, beaten: it takes a letter, nobody else
        game_deck({0: H24, 1: H10, 2: H22}, dealer=0, n_seats=3, upcard="8D"),
        # seat 2 knocks on 22 and ties seat 0's 22: a tie is no claim; seat 2 takes a letter
        game_deck({0: ["JD", "TD", "2D"], 1: H10, 2: H22}, dealer=1, n_seats=3, upcard="8D"),
        # seat 0 knocks on 24, the highest: seats 1 and 2 take their third letter
        game_deck({0: H24, 1: H17, 2: H10}, dealer=2, n_seats=3, upcard="8D"),
    ]
    game = make_game(rules, 2, decks)
    game.play_round()
    assert game.lives == [3, 2, 2]
    assert [game.standing(s) for s in range(3)] == ["-", "G", "G"]
    game.play_round()
    assert game.lives == [3, 1, 2] and game.standing(1) == "G I"
    game.play_round()
    assert game.lives == [3, 1, 1]
    game.play_round()
    assert game.over and game.winner == 0
    assert game.lives == [3, 0, 0] and game.standing(1) == "G I N (out)"
    # Both out in the same round: the lower hand (seat 2's 10) takes the lower place.
    assert events(game, "out") == [{"seat": 2, "place": 3}, {"seat": 1, "place": 2}]
    (over,) = events(game, "game_over")
    assert over == {"winner": 0, "placing": [0, 1, 2], "points": {0: 3, 1: 2, 2: 1}}


def test_gin_a_31_shown_gives_everybody_else_a_letter() -> None:
    rules = Rules.preset("gin-lives").replace(seats=3)
    deck = game_deck(
        {0: H24, 1: ["AS", "KS", "2D"], 2: H10}, dealer=2, n_seats=3, upcard="8D", stock=["QS"]
    )
    players = [Steps("a", ["knock"]), Steps("b", [("draw", "2D")]), Steps("c", [])]
    game = make_game(rules, 2, [deck], players)
    game.play_round()
    assert game.lives == [2, 3, 2]


# -- ranked placing -------------------------------------------------------------------------------


def test_ranked_placing_gives_3_2_1_and_nothing_below_the_podium() -> None:
    for seed in range(5):
        game = Game(Rules(seats=5, lives=1, placing="ranked"), seed=seed)
        game.play()
        (over,) = events(game, "game_over")
        by_place = {p: s for s, p in game.places.items()}
        assert over["points"] == {
            by_place[1]: 3,
            by_place[2]: 2,
            by_place[3]: 1,
            by_place[4]: 0,
            by_place[5]: 0,
        }
        assert game.points() == over["points"]
    plain = Game(Rules(seats=3, lives=1), seed=1)
    plain.play()
    (over,) = events(plain, "game_over")
    assert "points" not in over and plain.points() is None


def test_ranked_points_are_shown_at_the_end() -> None:
    out = run(["play", "--autoplay", "--seed", "4", "--rule", "placing=ranked"]).output
    assert "Placing and points (ranked):" in out
    assert re.search(r"1st\s+\S+\s+3 points", out) and re.search(r"4th\s+\S+\s+0 points", out)


# -- hiding a 31 ----------------------------------------------------------------------------------


def test_a_hidden_31_counts_30_at_the_showdown() -> None:
    rules = Rules(seats=2, may_hide_31=True)
    deck = game_deck(
        {0: ["AS", "QS", "2D"], 1: H24}, dealer=1, n_seats=2, upcard="8D", stock=["KS", "3C", "4C"]
    )
    players = [
        Steps("a", [("draw", "2D", "hide"), "knock"]),
        Steps("b", [("draw", None), ("draw", None)]),
    ]
    game = make_game(rules, 1, [deck], players)
    game.play_round()
    (end,) = events(game, "round_end")
    assert end["end"] == "showdown" and end["knocker"] == 0
    assert sorted(end["hands"][0]) == sorted(["AS", "QS", "KS"])
    assert end["scores"] == {0: 30, 1: 24} and end["hidden_31"] == [0]
    assert end["losses"] == {0: 0, 1: 1}
    turns = events(game, "turn")
    assert turns[0]["hid_31"] is True and turns[0]["showed_31"] is False


def test_a_hidden_31_ties_a_30_and_pays_as_a_tied_knocker() -> None:
    rules = Rules(seats=2, may_hide_31=True)
    deck = game_deck(
        {0: ["AS", "QS", "2D"], 1: ["KD", "QD", "JD"]}, dealer=1, n_seats=2, upcard="8D",
        stock=["KS", "3C", "4C"],
    )  # fmt: skip
    players = [
        Steps("a", [("draw", "2D", "hide"), "knock"]),
        Steps("b", [("draw", None), ("draw", None)]),
    ]
    game = make_game(rules, 1, [deck], players)
    game.play_round()
    (end,) = events(game, "round_end")
    assert end["scores"] == {0: 30, 1: 30}
    assert end["losses"] == {0: 2, 1: 1}  # standard tie: the knocker 2, the other tied 1


def test_someone_elses_31_shown_makes_the_hidden_31_pay() -> None:
    rules = Rules(seats=3, may_hide_31=True)
    deck = game_deck(
        {0: ["AS", "QS", "2D"], 1: ["AH", "JH", "3C"], 2: H22},
        dealer=2,
        n_seats=3,
        upcard="8D",
        stock=["KS", "KH"],
    )
    players = [Steps("a", [("draw", "2D", "hide")]), Steps("b", [("draw", "3C")]), Steps("c", [])]
    game = make_game(rules, 2, [deck], players)
    game.play_round()
    (end,) = events(game, "round_end")
    assert (end["end"], end["by"]) == ("thirty_one", 1)
    assert end["losses"] == {0: 1, 1: 0, 2: 1}


def test_hiding_needs_the_option_and_computer_players_always_show() -> None:
    deck = game_deck(
        {0: ["AS", "QS", "2D"], 1: H24}, dealer=1, n_seats=2, upcard="8D", stock=["KS"]
    )
    game = make_game(
        Rules(seats=2), 1, [deck], [Steps("a", [("draw", "2D", "hide")]), Steps("b", [])]
    )
    with pytest.raises(IllegalMoveError, match="hid"):
        game.play_round()
    # At a table that allows it, the table's rule still shows the 31.
    game = make_game(
        Rules(seats=2, may_hide_31=True), 1, [deck], [ComputerPlayer("a"), ComputerPlayer("b")]
    )
    game.play_round()
    (end,) = events(game, "round_end")
    assert (end["end"], end["by"]) == ("thirty_one", 0)
    for seed in range(10):
        g = Game(Rules.preset("scat"), seed=seed)
        g.play()
        assert not any(e.data.get("hid_31") for e in g.events if e.kind == "turn")


# -- the blind showdown ---------------------------------------------------------------------------


def test_blind_showdown_lowest_loses_one() -> None:
    rules = Rules(seats=3, first_turn_knock="blind")
    deck = game_deck({0: H24, 1: H17, 2: H10}, dealer=2, n_seats=3, upcard="8D")
    game = make_game(rules, 2, [deck], [Steps("a", ["blind"]), Steps("b", []), Steps("c", [])])
    game.play_round()
    assert events(game, "turn") == [{"seat": 0, "action": "blind"}]
    (end,) = events(game, "round_end")
    assert (end["end"], end["by"], end["knocker"]) == ("blind", 0, None)
    assert end["losses"] == {0: 0, 1: 0, 2: 1}


def test_blind_showdown_costs_the_caller_two_when_lowest() -> None:
    rules = Rules(seats=3, first_turn_knock="blind", knock_penalty=1)
    deck = game_deck({0: H10, 1: H17, 2: H24}, dealer=2, n_seats=3, upcard="8D")
    game = make_game(rules, 2, [deck], [Steps("a", ["blind"]), Steps("b", []), Steps("c", [])])
    game.play_round()
    (end,) = events(game, "round_end")
    assert end["losses"] == {0: 2, 1: 0, 2: 0}


def test_blind_table_look_then_no_first_turn_knock_and_a_dealt_31_found_on_looking() -> None:
    rules = Rules(seats=2, first_turn_knock="blind")
    deck = game_deck({0: H24, 1: H17}, dealer=1, n_seats=2, upcard="8D")
    game = make_game(rules, 1, [deck], [Steps("a", ["look", "knock"]), Steps("b", [])])
    with pytest.raises(IllegalMoveError, match="knock"):
        game.play_round()
    deck = game_deck({0: H24, 1: H31}, dealer=1, n_seats=2, upcard="8D")
    game = make_game(rules, 1, [deck], [Steps("a", ["look"]), Steps("b", [])])
    game.play_round()
    (end,) = events(game, "round_end")
    assert end["end"] == "dealt_31" and end["losses"] == {0: 1, 1: 0}


def test_computer_players_never_call_the_blind_showdown() -> None:
    for seed in range(10):
        g = Game(Rules(first_turn_knock="blind"), seed=seed)
        g.play()
        turns = events(g, "turn")
        assert all(t["action"] != "blind" for t in turns)
        assert all(e["end"] != "blind" for e in events(g, "round_end"))


# -- seed 001 and Cadillac in the game ------------------------------------------------------------


def test_seed_001_knocker_loses_one_to_each_31_and_two_at_the_showdown() -> None:
    # 4 players; the knocker (seat 0, on 10) sees three 31s shown on the final turns: it loses
    # 3, and its last 2 for the lowest hand: all five lives in one round.
    rules = Rules.preset("five-lives")
    hands = {0: H10B, 1: ["AS", "KS", "2D"], 2: ["AH", "KH", "2C"], 3: ["AC", "KC", "3D"]}
    deck = game_deck(hands, dealer=3, n_seats=4, upcard="8D", stock=["QS", "QH", "QC"])
    players = [
        Steps("a", ["knock"]),
        Steps("b", [("draw", "2D")]),
        Steps("c", [("draw", "2C")]),
        Steps("d", [("draw", "3D")]),
    ]
    game = make_game(rules, 3, [deck], players)
    game.play_round()
    (end,) = events(game, "round_end")
    assert end["end"] == "showdown"
    assert end["losses"] == {0: 5, 1: 2, 2: 2, 3: 2}
    assert [t["showed_31"] for t in events(game, "turn")[1:]] == [True, True, True]
    assert events(game, "out") == [{"seat": 0, "place": 4}]


def test_cadillac_tied_knocker_pays_two_the_tied_nothing_and_scat_the_reverse() -> None:
    deck = game_deck({0: H10, 1: H10B, 2: H24}, dealer=2, n_seats=3, upcard="8D")
    game = make_game(Rules.preset("cadillac").replace(seats=3), 2, [deck])
    game.play_round()
    assert game.lives == [2, 4, 4]
    game = make_game(Rules.preset("scat").replace(seats=3), 2, [deck])
    game.play_round()
    assert game.lives == [3, 2, 3]


def test_cadillac_scores() -> None:
    r = Rules.preset("cadillac").round_rules()
    assert _core.score(["AC", "AD", "AH"], r) == 33
    assert _core.score(["7C", "7D", "7H"], r) == 30
    assert _core.score(["AS", "KS", "QS"], r) == 31
    # A Grand Cadillac dealt is shown like a 31.
    rules = Rules.preset("cadillac").replace(seats=2)
    deck = game_deck({0: H22, 1: ["AC", "AD", "AH"]}, dealer=1, n_seats=2, upcard="8D")
    game = make_game(rules, 1, [deck])
    game.play_round()
    (end,) = events(game, "round_end")
    assert end["end"] == "dealt_31" and end["losses"] == {0: 1, 1: 0}


# -- the knock limits, runs and mercy in the game loop ---------------------------------------------


def test_knock_limits_bind_the_computer_players() -> None:
    # Dealt 7C 7D 7H: 30 with three_of_a_kind=30, but not three cards of one suit.
    trips = ["7C", "7D", "7H"]
    deck = game_deck({0: trips, 1: H10}, dealer=1, n_seats=2, upcard="2S")
    for one_suit, knocks in ((False, True), (True, False)):
        rules = Rules(seats=2, three_of_a_kind="30", knock_needs_one_suit=one_suit)
        game = make_game(rules, 1, [deck], [ComputerPlayer("a"), ComputerPlayer("b")])
        game.play_round()
        assert (events(game, "turn")[0]["action"] == "knock") == knocks
    # 27 is the computer players' knock score; a minimum of 29 stops it.
    deck = game_deck({0: ["AH", "KH", "6H"], 1: H10}, dealer=1, n_seats=2, upcard="2S")
    for minimum, knocks in ((0, True), (29, False)):
        rules = Rules(seats=2, min_knock=minimum)
        game = make_game(rules, 1, [deck], [ComputerPlayer("a"), ComputerPlayer("b")])
        game.play_round()
        assert (events(game, "turn")[0]["action"] == "knock") == knocks


def test_runs_score_30_in_the_game() -> None:
    deck = game_deck({0: H24, 1: ["4S", "5S", "6S"], 2: H10}, dealer=2, n_seats=3, upcard="8D")
    game = make_game(Rules(seats=3, runs=True), 2, [deck])
    game.play_round()
    (end,) = events(game, "round_end")
    assert end["scores"] == {0: 24, 1: 30, 2: 10}


@pytest.mark.parametrize(("mercy", "allowed"), [(True, True), (False, False)])
def test_two_player_mercy_in_the_game(mercy: bool, allowed: bool) -> None:
    # Seat 0 puts down 4H; seat 1 knocks; on its final turn seat 0 takes its own 4H back.
    rules = Rules(seats=2, two_player_mercy=mercy)
    deck = game_deck({0: H24, 1: H17}, dealer=1, n_seats=2, upcard="8D", stock=["5S"])
    players = [Steps("a", [("draw", "4H"), ("take", "5S")]), Steps("b", ["knock"])]
    game = make_game(rules, 1, [deck], players)
    if allowed:
        game.play_round()
        assert events(game, "turn")[2]["card"] == "4H"
    else:
        with pytest.raises(IllegalMoveError, match="4H"):
            game.play_round()


# -- every preset plays whole games ---------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_plays_whole_autoplay_games(preset: str) -> None:
    rng = random.Random(preset)
    for _ in range(12):
        seats = rng.randint(2, 9)
        rules = Rules.preset(preset).replace(
            seats=seats, placing=rng.choice(["ranked", "winner_takes_all"])
        )
        game = Game(rules, seed=rng.randrange(10**6))
        winner = game.play()
        assert game.over and winner == game.winner
        assert sorted(game.places.values()) == list(range(1, seats + 1))
        assert game.places[winner] == 1
        # lives accounted for: everybody but the winner is out; every loss was charged
        assert all(rules.is_out(game.lives[s]) == (s != winner) for s in range(seats))
        spent = sum(sum(e["losses"].values()) for e in events(game, "round_end"))
        assert spent == sum(rules.lives - lv for lv in game.lives)
        county = [e["seat"] for e in events(game, "county")]
        assert rules.county or county == []
        assert len(set(county)) == len(county)
        points = game.points()
        if rules.placing == "ranked":
            assert points is not None
            assert sorted(points.values(), reverse=True)[:3] == [3, 2, 1][: min(3, seats)]
        else:
            assert points is None
        assert [e.kind for e in game.events].count("game_over") == 1


# -- the terminal player --------------------------------------------------------------------------


def _person_game(
    rules: Rules, deck: list[str], answers: Iterator[str], opponent: Any
) -> tuple[Game, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    names = ["You", "Alice"]
    narrator = Narrator(console, names, me=0)
    me = TerminalPlayer("You", console, narrator, read=lambda prompt: next(answers, None))
    game = make_game(rules.replace(seats=2), 1, [deck], [me, opponent])
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


def test_the_person_looks_and_may_not_knock_on_the_first_turn() -> None:
    deck = build_deck([H24, H10], "8D", ["2C"])
    answers = iter(["", "k", "q"])
    game, out = _person_game(Rules(first_turn_knock="blind"), deck, answers, Steps("b", []))
    with pytest.raises(QuitGame):
        game.play_round()
    text = out.getvalue()
    assert "Your hand: AH 9H 4H" in text
    assert "only a blind showdown called before looking" in text


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


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--rules", "gin-lives", "--lives", "4"], "lives"),
        (["--rule", "lives_mode=gin", "--rule", "county=true"], "county"),
        (["--rules", "ride-the-bus", "--lives", "5"], "life_names"),
        (["--rule", "placing=podium"], "placing"),
    ],
)
def test_play_refuses_incompatible_rules(args: list[str], field: str) -> None:
    result = run(["play", "--autoplay", "--seed", "1", *args])
    assert result.exit_code == 2 and field in result.output


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


# -- the Oracle -----------------------------------------------------------------------------------


class _OracleProbe(ComputerPlayer):
    """The table's rule, asking the Oracle once a round is a few turns old."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.advice: list[thirtyone.Advice] = []

    def play(self, turn: Turn) -> None:
        if len(self.advice) < 2 and turn.turns_played >= 3:
            self.advice.append(advise(turn.game, deals=200, playouts=300, seed=1, max_time=None))
        super().play(turn)


@pytest.mark.parametrize("preset", PRESETS)
def test_the_oracle_answers_for_every_preset(preset: str) -> None:
    probe = _OracleProbe("me")
    rules = Rules.preset(preset).replace(seats=3)
    game = Game(rules, [probe, ComputerPlayer("b"), ComputerPlayer("c")], seed=11)
    while len(probe.advice) < 2 and not game.over:
        game.play_round()
    assert probe.advice
    for a in probe.advice:
        for o in a.options:
            assert 0 <= o.p_safe <= 1 and o.lives_lost >= 0
    # And from a state object naming the preset.
    state = json.loads(EXAMPLE_FILE.read_text())
    for spec in (preset, {"preset": preset, "knock_penalty": 1}):
        a = advise({**state, "rules": spec}, deals=200, playouts=300, seed=2)
        assert a.options


def _knock(rules: Any, state: dict[str, Any] | None = None) -> thirtyone.OptionAdvice:
    s = dict(state or json.loads(EXAMPLE_FILE.read_text()))
    s["rules"] = rules
    return advise(s, deals=2_000, playouts=20_000, seed=3, max_time=None).option("knock")


def test_oracle_knock_penalty_changes_lives_lost_not_p_safe() -> None:
    two = _knock({"preset": "standard", "knock_penalty": 2})
    one = _knock({"preset": "standard", "knock_penalty": 1})
    assert two.p_safe == one.p_safe  # the same playouts, the same outcomes
    assert two.lives_lost > one.lives_lost


def test_oracle_three_of_a_kind_30_5_makes_trips_safe() -> None:
    state = {
        "seats": 3,
        "me": 0,
        "first": 0,
        "upcard": "2D",
        "hand": ["7C", "7D", "7H"],
        "turns": [],
    }
    plain = _knock({"preset": "standard", "first_turn_knock": "allowed"}, state)
    trips = _knock({"preset": "standard", "three_of_a_kind": "30.5"}, state)
    assert plain.p_safe < 0.2 and trips.p_safe > 0.9


def test_oracle_continues_costs_a_knocker_more() -> None:
    ends = _knock("standard")
    cont = _knock({"preset": "standard", "thirty_one_after_knock": "continues"})
    assert cont.p_safe == pytest.approx(ends.p_safe, abs=1e-9)  # a 31 makes you lose either way
    assert cont.lives_lost > ends.lives_lost


def test_oracle_gin_lives_lost_counts_letters() -> None:
    knock = _knock("gin-lives")
    # Under Gin lives every failed knock costs exactly one letter (beaten: 1; a 31 shown: 1).
    assert knock.p_safe + knock.lives_lost == pytest.approx(1.0, abs=1e-9)
    standard = _knock("standard")
    assert standard.lives_lost > 1 - standard.p_safe  # a knocker caught lowest pays 2


def test_oracle_takes_your_hidden_31_and_a_31_shown_after_a_knock() -> None:
    # Your hidden 31 (known only to you) keeps the round going; the Oracle counts it as 30.
    state = {
        "rules": "scat",
        "seats": 2,
        "me": 0,
        "first": 0,
        "upcard": "8D",
        "hand": ["AS", "KS", "QS"],
        "turns": [
            {"seat": 0, "draw": "stock", "drew": "KS", "discard": "2D", "hides": True},
            {"seat": 1, "draw": "stock", "discard": "5H"},
        ],
    }
    a = advise(state, deals=300, playouts=500, seed=1)
    assert "knock" in {o.option for o in a.options}
    with pytest.raises(thirtyone.StateError, match="already over"):
        advise({**state, "turns": [dict(state["turns"][0], hides=False), state["turns"][1]]})
    with pytest.raises(thirtyone.StateError, match="hiding"):
        advise({**state, "rules": "standard"})
    # A game under five-lives: a 31 shown after a knock is passed on as "shows".
    rules = Rules.preset("five-lives").replace(seats=3)
    deck = game_deck(
        {0: H10B, 1: ["AS", "KS", "2D"], 2: H24}, dealer=2, n_seats=3, upcard="8D", stock=["QS"]
    )
    seen: list[dict[str, Any]] = []

    class Probe:
        name = "c"

        def play(self, turn: Turn) -> None:
            seen.append(turn.game.view())
            advise(turn.game, deals=100, playouts=200, seed=1, max_time=None)
            turn.put_down(turn.draw())

    game = make_game(
        rules, 2, [deck], [Steps("a", ["knock"]), Steps("b", [("draw", "2D")]), Probe()]
    )
    game.play_round()
    assert seen[0]["turns"][1]["shows"] == ["AS", "KS", "QS"]


# -- the two-seat exact check under presets -------------------------------------------------------


def _exact_knock_now(hand: list[str], upcard: str, rules: Rules) -> tuple[float, float]:
    """Two seats, your first turn (you play first), you knock: the opponent's dealt hand is
    uniform over the unseen cards (a dealt 31 or better would have ended the round), then it
    takes the upcard or draws the stock's top card by the table's rule. P(safe) and E[lost],
    from the documents' loss rules for the options of ``rules``."""
    r = rules.round_rules()

    @cache
    def score(cards: frozenset[str]) -> float:
        return ref_score(sorted(cards), r["three_of_a_kind"], r["three_aces"], r["runs"])

    def s(h: Sequence[str]) -> float:
        return score(frozenset(h))

    unseen = [c for c in PACK if c not in {*hand, upcard}]
    mine = s(hand)
    penalty = rules.knock_penalty
    safe = lost = weight = 0.0
    for opp in itertools.combinations(unseen, 3):
        if s(opp) >= 31:
            continue
        weight += 1
        if ref_start(opp, upcard, False, False, 27, s) == "take":
            finals = [ref_put_down(opp, upcard, True, s)[1]]
        else:
            finals = [ref_put_down(opp, c, False, s)[1] for c in unseen if c not in opp]
        for theirs in finals:
            w = 1 / len(finals)
            if rules.gin:
                # a 31 shown gives you a letter; else your knock must be strictly the highest
                cost = 1 if theirs >= 31 else (0 if mine > theirs else penalty)
            else:
                cost = 0
                if theirs >= 31:  # shown: you lose one
                    cost = 1
                    if rules.thirty_one_after_knock == "ends_round":
                        lost += w * cost
                        continue
                if mine < theirs:
                    cost += penalty
                elif mine == theirs:  # tied for lowest with the knocker
                    cost += {"knocker_pays": penalty, "others_pay": 0, "only_knocker": penalty}.get(
                        rules.knocker_tie, 2
                    )
            if cost:
                lost += w * cost
            else:
                safe += w
    return safe / weight, lost / weight


@pytest.mark.parametrize(
    ("preset", "hand", "upcard"),
    [
        ("cadillac", ["KH", "9H", "2C"], "6D"),
        ("five-lives", ["KH", "9H", "2C"], "6D"),
        ("gin-lives", ["AH", "KH", "5C"], "6D"),
    ],
)
def test_two_seat_exact_knock_check_under_presets(
    preset: str, hand: list[str], upcard: str
) -> None:
    rules = Rules.preset(preset).replace(seats=2)
    p, lives = _exact_knock_now(hand, upcard, rules)
    state = {
        "rules": preset,
        "seats": 2,
        "me": 0,
        "first": 0,
        "upcard": upcard,
        "hand": hand,
        "turns": [],
    }
    a = advise(state, seed=5, deals=10_000, playouts=50_000, max_time=None)
    knock = a.option("knock")
    assert abs(knock.p_safe - p) <= 2 * knock.margin, (knock.p_safe, p)
    assert abs(knock.lives_lost - lives) <= 0.03, (knock.lives_lost, lives)


def test_listeners_see_county_events() -> None:
    seen: list[str] = []
    game = Game(Rules.preset("scat"), seed=3, on_event=lambda e: seen.append(e.kind))
    game.play()
    assert "county" in seen
    assert isinstance(game.events[0], Event)
