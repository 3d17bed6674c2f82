"""Every table's rules: how lives run out: the county, Gin lives' letters and ranked placing.

Expected values are written from the documents' words (our account of them: seeds/) and
the rulings in notes/DECISIONS.md, with stacked decks; never read back from the code under test.
"""

from __future__ import annotations

import re

import pytest
from helpers import game_deck
from thirtyone import Action, Event, Game, Rules, SeatView
from variant_helpers import H10, H10B, H17, H22, H24, Steps, events, make_game, run

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
    game.policies = [decliner, decliner]
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

    def decide(self, view: SeatView) -> Action:
        if view.drawn is not None:
            return Action("put", view.drawn[0])
        return Action("decline") if view.allows(Action("decline")) else Action("draw")


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
    assert [game.standing(s) for s in range(3)] == ["no letters", "G", "G"]
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
    # The numbers stand in one column ("1 point" had sat a column right of "3 points").
    lines = [line for line in out.splitlines() if re.search(r"\d points?\s*$", line)]
    assert len(lines) == 4 and len({re.search(r"\d points?", line).start() for line in lines}) == 1  # type: ignore[union-attr]


def test_listeners_see_county_events() -> None:
    seen: list[str] = []
    game = Game(Rules.preset("scat"), seed=3, on_event=lambda e: seen.append(e.kind))
    game.play()
    assert "county" in seen
    assert isinstance(game.events[0], Event)
