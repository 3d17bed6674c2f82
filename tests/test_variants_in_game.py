"""Every table's rules in the game loop: seed 001's knocker, Cadillac, the knock limits, runs,
the two-player mercy, and whole games under every preset.

Expected values are written from the documents' words (our account of them: seeds/) and
the rulings in notes/DECISIONS.md, with stacked decks; never read back from the code under test.
"""

from __future__ import annotations

import random

import pytest
from helpers import game_deck
from thirtyone import Game, IllegalMoveError, Rules, TablePolicy, _core
from thirtyone.terminal.display import round_headline
from variant_helpers import H10, H10B, H17, H22, H24, PRESETS, Steps, events, make_game

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
    # The round's end names the 31s shown after the knock, and the terminal says what they cost
    # apart from the showdown (the losses above are their sum).
    assert end["shown_31"] == [1, 2, 3]
    (happened,) = [e for e in game.events if e.kind == "round_end"]
    line = round_headline(happened, ["You", "Ben", "Cara", "Dan"], 0, rules).plain
    assert line == (
        "Round 1: showdown after your knock. Ben's 31 after it: everybody else loses a life. "
        "Cara's 31 after it: everybody else loses a life. Dan's 31 after it: everybody else "
        "loses a life."
    )
    # Under Gin lives a letter is taken, as in the losses' own words (ruling 313): it said
    # "cost everybody else 1 letter".
    gin = rules.replace(lives_mode="gin", lives=3)
    line = round_headline(happened, ["You", "Ben", "Cara", "Dan"], 0, gin).plain
    assert line.endswith("Dan's 31 after it: everybody else takes a letter."), line


def test_a_showdown_without_a_31_after_the_knock_names_none() -> None:
    deck = game_deck({0: H10, 1: H10B, 2: H24}, dealer=2, n_seats=3, upcard="8D")
    game = make_game(Rules.preset("five-lives").replace(seats=3), 2, [deck])
    game.play_round()
    (end,) = events(game, "round_end")
    assert end["end"] == "showdown" and "shown_31" not in end


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
        game = make_game(rules, 1, [deck], [TablePolicy(), TablePolicy()])
        game.play_round()
        assert (events(game, "turn")[0]["action"] == "knock") == knocks
    # 27 is the computer players' knock score; a minimum of 29 stops it.
    deck = game_deck({0: ["AH", "KH", "6H"], 1: H10}, dealer=1, n_seats=2, upcard="2S")
    for minimum, knocks in ((0, True), (29, False)):
        rules = Rules(seats=2, min_knock=minimum)
        game = make_game(rules, 1, [deck], [TablePolicy(), TablePolicy()])
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
