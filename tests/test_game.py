"""The game loop (rules.md, "The standard table"): rounds one after another, lives, the deal
passing left, elimination, placing, the wash, the winner."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from helpers import FirstKnocks, Script, game_deck
from thirtyone import Event, Game, IllegalMoveError, Rules, TablePolicy

H24 = ["AH", "9H", "4H"]
H17 = ["KS", "7S", "AC"]
H10 = ["QD", "QH", "5C"]
H22 = ["JC", "TC", "2C"]
H10B = ["TS", "4D", "3H"]
H10C = ["KD", "2S", "6H"]
H31 = ["AS", "KS", "QS"]
H31B = ["AD", "TD", "JD"]
H12 = ["8C", "4C", "9D"]  # 8 + 4 clubs
H5 = ["5S", "3D", "2H"]  # three suits: the five


def make_game(
    n: int,
    dealer: int,
    decks: Sequence[Sequence[str]],
    players: Sequence[Any] | None = None,
    **rules: Any,
) -> Game:
    """A game of ``n`` seats with the first dealer fixed and the packs stacked. Every seat is a
    :class:`FirstKnocks` player unless ``players`` is given."""
    game = Game(
        Rules().replace(seats=n, **rules),
        players or [FirstKnocks(f"p{i}") for i in range(n)],
        seed=0,
        decks=decks,
    )
    game.dealer = dealer  # the first dealer is drawn at random; fix it for the test
    return game


def events(game: Game, kind: str) -> list[dict[str, Any]]:
    return [e.data for e in game.events if e.kind == kind]


def rounds(game: Game) -> list[Event]:
    return [e for e in game.events if e.kind in ("round_end", "wash")]


# -- dealt 31 and 31 in play ---------------------------------------------------------------------


def test_dealt_31_costs_everybody_else_a_life() -> None:
    # 3 seats, dealer 2: seat 0 plays first. Seat 1 is dealt 31: no play.
    deck = game_deck({0: H24, 1: H31, 2: H10}, dealer=2, n_seats=3, upcard="8D")
    game = make_game(3, 2, [deck])
    game.play_round()
    assert events(game, "turn") == []
    (end,) = events(game, "round_end")
    assert end["end"] == "dealt_31"
    assert end["losses"] == {0: 1, 1: 0, 2: 1}
    assert end["dealt"] == [1]  # (who was dealt it: no one seat "ends" it, so ``by`` is None)
    assert game.lives == [2, 3, 2]


def test_two_players_dealt_31_are_safe() -> None:
    deck = game_deck({0: H24, 1: H31, 2: H10, 3: H31B}, dealer=3, n_seats=4, upcard="8D")
    game = make_game(4, 3, [deck])
    game.play_round()
    assert game.lives == [2, 3, 2, 3]
    (end,) = events(game, "round_end")
    assert end["dealt"] == [1, 3]


def test_31_in_the_final_turns_costs_the_knocker_one_life() -> None:
    # 3 seats, dealer 2. Seat 0 knocks holding 5 (it would pay 2 at a showdown); seat 1 draws
    # QS to AS KS and shows 31; the round ends and seats 0 and 2 lose one life each.
    deck = game_deck(
        {0: H5, 1: ["AS", "KS", "2D"], 2: H24}, dealer=2, n_seats=3, upcard="8D", stock=["QS"]
    )
    players = [
        Script("a", ["knock"]),
        Script("b", [("draw", "2D")]),
        Script("c", []),
    ]
    game = make_game(3, 2, [deck], players)
    game.play_round()
    (end,) = events(game, "round_end")
    assert (end["end"], end["by"], end["knocker"]) == ("thirty_one", 1, 0)
    assert game.lives == [2, 3, 2]
    turns = events(game, "turn")
    assert [t["action"] for t in turns] == ["knock", "draw"]
    assert turns[1]["showed_31"] is True and turns[1]["discard"] == "2D"


# -- the showdown and the knock penalty ----------------------------------------------------------


@pytest.mark.parametrize(("penalty", "lives_left"), [(1, 2), (2, 1)])
def test_knocker_lowest_pays_the_knock_penalty(penalty: int, lives_left: int) -> None:
    deck = game_deck({0: H10, 1: H17, 2: H24}, dealer=2, n_seats=3, upcard="8D")
    game = make_game(3, 2, [deck], knock_penalty=penalty)
    game.play_round()
    (end,) = events(game, "round_end")
    assert (end["end"], end["knocker"]) == ("showdown", 0)
    assert end["scores"] == {0: 10, 1: 17, 2: 24}
    assert game.lives == [lives_left, 3, 3]


def test_seed_003_worked_hand_in_a_game() -> None:
    # Dev (seat 3) deals, Alice (seat 0) knocks on 24; Cara (10) loses a life.
    deck = game_deck({0: H24, 1: H17, 2: H10, 3: H22}, dealer=3, n_seats=4, upcard="8D")
    game = make_game(4, 3, [deck])
    game.play_round()
    assert game.lives == [3, 3, 2, 3]
    assert [t["seat"] for t in events(game, "turn")] == [0, 1, 2, 3]


def test_a_computer_player_knocks_on_a_dealt_27() -> None:
    # Seat 1 plays first (dealer 0) holding AH KH 6H = 27: it knocks at once.
    deck = game_deck({0: H10, 1: ["AH", "KH", "6H"]}, dealer=0, n_seats=2, upcard="2D")
    game = make_game(2, 0, [deck], [TablePolicy(), TablePolicy()])
    game.play_round()
    turns = events(game, "turn")
    assert turns[0] == {"seat": 1, "action": "knock"}
    assert len(turns) == 2 and turns[1]["seat"] == 0


# -- the deal passes left ------------------------------------------------------------------------


def test_the_deal_passes_left_every_round() -> None:
    decks = [
        game_deck({0: H24, 1: H17, 2: H10}, dealer=1, n_seats=3, upcard="8D"),
        game_deck({0: H24, 1: H17, 2: H10}, dealer=2, n_seats=3, upcard="8D"),
        game_deck({0: H24, 1: H17, 2: H10}, dealer=0, n_seats=3, upcard="8D"),
        game_deck({0: H24, 1: H17, 2: H10}, dealer=1, n_seats=3, upcard="8D"),
    ]
    game = make_game(3, 1, decks, lives=9)
    for _ in range(4):
        game.play_round()
    deals = events(game, "deal")
    assert [d["dealer"] for d in deals] == [1, 2, 0, 1]
    assert [d["first"] for d in deals] == [2, 0, 1, 2]
    assert [d["seats"] for d in deals] == [[2, 0, 1], [0, 1, 2], [1, 2, 0], [2, 0, 1]]
    # The first player of each round knocked (FirstKnocks); seat 2 with 10 always lost: twice
    # as the knocker (penalty 2), twice not.
    assert game.lives == [9, 9, 9 - 2 - 1 - 1 - 2]


def test_the_deal_skips_players_who_are_out() -> None:
    # 3 seats, 1 life each, dealer 2. Round 1: seat 0 knocks on 24, seat 1 (10) is out.
    # The deal passes to seat 0; seat 1 is skipped: seat 2 plays first, then seat 0.
    decks = [
        game_deck({0: H24, 1: H10, 2: H17}, dealer=2, n_seats=3, upcard="8D"),
        game_deck({0: H12, 2: H22}, dealer=0, n_seats=3, upcard="8D", out=[1]),
    ]
    game = make_game(3, 2, decks, lives=1)
    game.play_round()
    assert game.places == {1: 3}
    assert game.dealer == 0
    game.play_round()
    deal = events(game, "deal")[1]
    assert (deal["dealer"], deal["first"], deal["seats"]) == (0, 2, [2, 0])
    # Seat 2 knocked on 22; seat 0 (12) lost its only life: second; seat 2 wins.
    assert game.over and game.winner == 2
    assert game.placing() == [2, 0, 1]
    assert events(game, "game_over") == [{"winner": 2, "placing": [2, 0, 1]}]


def test_the_deal_passes_from_a_dealer_who_is_out() -> None:
    # 3 seats, 1 life; dealer 0, seat 1 plays first and knocks holding 24; the dealer seat 0
    # (10) is out. The deal passes to seat 1 (left of the old dealer), so seat 2 plays first.
    decks = [
        game_deck({0: H10, 1: H24, 2: H17}, dealer=0, n_seats=3, upcard="8D"),
        game_deck({1: H12, 2: H22}, dealer=1, n_seats=3, upcard="8D", out=[0]),
    ]
    game = make_game(3, 0, decks, lives=1)
    game.play_round()
    game.play_round()
    deal = events(game, "deal")[1]
    assert (deal["dealer"], deal["first"], deal["seats"]) == (1, 2, [2, 1])
    assert game.placing() == [2, 1, 0]


# -- elimination and placing ---------------------------------------------------------------------


def test_first_out_takes_last_place() -> None:
    # 4 seats, 1 life, the first player always knocks on a good hand and one player is lowest.
    # Dealer 3: round 1 order 0,1,2,3 (seat 1 out, 4th); dealer 0: order 2,3,0 (seat 3 out,
    # 3rd); dealer 2: order 0,2 (seat 0 knocks on 24 against 10: seat 2 out, 2nd).
    decks = [
        game_deck({0: H24, 1: H10, 2: H17, 3: H22}, dealer=3, n_seats=4, upcard="8D"),
        game_deck({0: H22, 2: H24, 3: H10}, dealer=0, n_seats=4, upcard="8D", out=[1]),
        game_deck({0: H24, 2: H10}, dealer=2, n_seats=4, upcard="8D", out=[1, 3]),
    ]
    game = make_game(4, 3, decks, lives=1)
    assert game.play() == 0
    assert game.places == {1: 4, 3: 3, 2: 2, 0: 1}
    assert [(o["seat"], o["place"]) for o in events(game, "out")] == [(1, 4), (3, 3), (2, 2)]
    assert [d["dealer"] for d in events(game, "deal")] == [3, 0, 2]
    with pytest.raises(IllegalMoveError):
        game.play_round()


def test_losing_two_lives_with_one_left_is_out() -> None:
    # 2 seats, 1 life each: the knocker (seat 1, first to play) is lowest and pays 2: out.
    deck = game_deck({0: H24, 1: H10}, dealer=0, n_seats=2, upcard="8D")
    game = make_game(2, 0, [deck], lives=1)
    game.play_round()
    assert game.over and game.winner == 0 and game.placing() == [0, 1]
    assert game.lives[1] <= 0


def test_players_out_in_one_round_are_placed_by_hand() -> None:
    # 4 seats, 1 life; seat 1 is dealt 31 and everybody else is out at once. The lower hand
    # takes the lower place: seat 2 (10) 4th, seat 0 (17) 3rd, seat 3 (24) 2nd; seat 1 wins.
    deck = game_deck({0: H17, 1: H31B, 2: H10, 3: H24}, dealer=3, n_seats=4, upcard="8D")
    game = make_game(4, 3, [deck], lives=1)
    game.play_round()
    assert game.places == {2: 4, 0: 3, 3: 2, 1: 1}
    assert [(o["seat"], o["place"]) for o in events(game, "out")] == [(2, 4), (0, 3), (3, 2)]
    assert game.winner == 1


def test_equal_hands_out_in_one_round_are_placed_from_the_dealers_left() -> None:
    # 4 seats, 1 life, dealer 1: order 2, 3, 0, 1. Seat 2 knocks on 24; seats 3 and 0 tie on 10
    # and both go out. From the dealer's left seat 3 comes before seat 0, so seat 3 takes the
    # lower place (4th) and seat 0 3rd (DECISIONS.md 3).
    decks = [
        game_deck({0: H10B, 1: H17, 2: H24, 3: H10}, dealer=1, n_seats=4, upcard="8D"),
        # dealer 2: order 1, 2. Seat 1 knocks on 12 against 22 and pays 2: out, 2nd.
        game_deck({1: H12, 2: H22}, dealer=2, n_seats=4, upcard="8D", out=[0, 3]),
    ]
    game = make_game(4, 1, decks, lives=1)
    game.play()
    assert [(o["seat"], o["place"]) for o in events(game, "out")] == [(3, 4), (0, 3), (1, 2)]
    assert game.placing() == [2, 1, 0, 3]


def test_equal_hands_placed_from_the_dealers_left_across_the_table_end() -> None:
    # Dealer 2, order 3, 0, 1, 2; seat 1 is dealt 31; seats 3, 0, 2 all hold 10 and go out.
    # From the dealer's left: 3, 0, 2 -> places 4, 3, 2.
    deck = game_deck({0: H10B, 1: H31, 2: H10C, 3: H10}, dealer=2, n_seats=4, upcard="8D")
    game = make_game(4, 2, [deck], lives=1)
    game.play_round()
    assert game.places == {3: 4, 0: 3, 2: 2, 1: 1}


# -- the wash ------------------------------------------------------------------------------------


def test_a_round_that_would_leave_nobody_is_a_wash() -> None:
    # 2 seats, 1 life each, dealer 0: seat 1 knocks on 10, seat 0 holds 10 too: the knocker
    # would pay 2 and seat 0 1, leaving nobody. Nothing is lost; the round is dealt again (by
    # the same dealer); the second deal settles it: seat 1 knocks on 24 against 17.
    decks = [
        game_deck({0: H10B, 1: H10}, dealer=0, n_seats=2, upcard="8D"),
        game_deck({0: H17, 1: H24}, dealer=0, n_seats=2, upcard="8D"),
    ]
    game = make_game(2, 0, decks, lives=1)
    game.play_round()
    kinds = [e.kind for e in game.events if e.kind != "turn"]
    assert kinds == ["deal", "wash", "deal", "round_end", "out", "game_over"]
    (wash,) = events(game, "wash")
    assert wash["losses"] == {1: 2, 0: 1}
    assert [d["dealer"] for d in events(game, "deal")] == [0, 0]
    assert events(game, "round_end")[0]["lives"] == [0, 1]
    assert game.winner == 1 and game.placing() == [1, 0]


def test_a_stock_out_tie_of_the_last_lives_is_a_wash() -> None:
    # Seed 003's wash: everybody on their last life, the stock runs out, equal lowest hands.
    # 2 seats, both on 10; each passes until the stock is empty; then seat 1 declines.
    hands = {0: H10B, 1: H10}
    deck = game_deck(hands, dealer=1, n_seats=2, upcard="8D")
    passes = [("draw", None)] * 23
    decks = [deck, game_deck({0: H24, 1: H17}, dealer=1, n_seats=2, upcard="8D")]
    players = [
        Script("a", [*passes, "knock"]),  # round 2: seat 0 plays first and knocks on 24
        Script("b", [*passes[:22], "decline", ("draw", None)]),
    ]
    game = make_game(2, 1, decks, players, lives=1)
    game.play_round()
    (wash,) = events(game, "wash")
    assert (wash["end"], wash["by"], wash["knocker"]) == ("stock_out", 1, None)
    assert wash["losses"] == {0: 1, 1: 1}
    # Round 2 (the same dealer): seat 0 knocks on 24, seat 1 (17) loses its life.
    assert game.lives == [1, 0] and game.winner == 0


def test_not_a_wash_when_somebody_keeps_a_life() -> None:
    # 3 seats, 1 life: seat 0 knocks on 24, seats 1 and 2 tie on 10: both out, seat 0 wins.
    deck = game_deck({0: H24, 1: H10, 2: H10B}, dealer=2, n_seats=3, upcard="8D")
    game = make_game(3, 2, [deck], lives=1)
    game.play_round()
    assert events(game, "wash") == []
    assert game.winner == 0 and game.placing() == [0, 2, 1]


def test_knocker_safe_on_a_tie_is_not_a_wash() -> None:
    # The wash of the first test, under seed 003's table (others_pay): the knocker is safe,
    # seat 0 is out.
    deck = game_deck({0: H10B, 1: H10}, dealer=0, n_seats=2, upcard="8D")
    game = make_game(2, 0, [deck], lives=1, knocker_tie="others_pay")
    game.play_round()
    assert events(game, "wash") == []
    assert game.winner == 1


def test_a_knocker_paying_its_last_two_lives_is_no_wash() -> None:
    # 2 seats, 2 lives each: seat 1 knocks on 10 and seat 0 has 17: the knocker pays 2
    # (2 -> 0), seat 0 keeps both: the game is over.
    deck = game_deck({0: H17, 1: H10}, dealer=0, n_seats=2, upcard="8D")
    game = make_game(2, 0, [deck], lives=2)
    game.play_round()
    assert events(game, "wash") == []
    assert game.lives == [2, 0] and game.winner == 0


def test_wash_when_the_knocker_pays_two_of_two_and_the_other_one_of_one() -> None:
    # 2 seats, 2 lives; round 1 (dealer 0, seat 1 knocks on 24, seat 0 on 10 loses 1: [1, 2]).
    # Round 2 (dealer 1): seat 0 knocks on 10, seat 1 holds 10: the knocker would pay 2 (1 -> -1)
    # and seat 1 one (2 -> 1): seat 1 keeps a life, not a wash. Seat 0 is out.
    decks = [
        game_deck({0: H10, 1: H24}, dealer=0, n_seats=2, upcard="8D"),
        game_deck({0: H10, 1: H10B}, dealer=1, n_seats=2, upcard="8D"),
    ]
    game = make_game(2, 0, decks, lives=2)
    game.play()
    assert events(game, "wash") == []
    first, second = (e["lives"] for e in events(game, "round_end"))
    assert first == [1, 2]
    assert second[0] <= 0 and second[1] == 1  # seat 0 has no life left (2 lost of 1)
    assert game.winner == 1
