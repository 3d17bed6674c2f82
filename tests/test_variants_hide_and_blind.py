"""Every table's rules: hiding a 31 (it counts 30) and the blind showdown, in the game loop.

Expected values are written from the documents' words (our account of them: seeds/) and
the rulings in notes/DECISIONS.md, with stacked decks; never read back from the code under test.
"""

from __future__ import annotations

import pytest
from helpers import game_deck
from thirtyone import Game, IllegalMoveError, Rules, TablePolicy
from variant_helpers import H10, H17, H22, H24, H31, Steps, events, make_game

# -- hiding a 31 ----------------------------------------------------------------------------------


@pytest.mark.parametrize("min_knock", [0, 31])
def test_a_hidden_31_counts_30_at_the_showdown(min_knock: int) -> None:
    """Also where only 31 may knock: min_knock counts the hand's cards (ruling 298), and a 31
    kept hidden holds 31 until the showdown counts it 30."""
    rules = Rules(seats=2, may_hide_31=True, min_knock=min_knock)
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


def test_a_30_may_not_knock_where_only_31_may() -> None:
    """min_knock=31 (ruling 298): a hand of 30, not a 31 kept hidden, may not knock."""
    rules = Rules(seats=2, may_hide_31=True, min_knock=31)
    thirty = game_deck(
        {0: ["KD", "QD", "2C"], 1: H24}, dealer=1, n_seats=2, upcard="8S", stock=["JD", "3C"]
    )
    players = [Steps("a", [("draw", "2C"), "knock"]), Steps("b", [("draw", None)])]
    with pytest.raises(IllegalMoveError, match="31"):
        make_game(rules, 1, [thirty], players).play_round()


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
    game = make_game(Rules(seats=2, may_hide_31=True), 1, [deck], [TablePolicy(), TablePolicy()])
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
