"""The session as a library (QA round: session): what a script that pushes actions, writes a
policy or asks the Oracle meets at the edges (rulings 230-239)."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import game_deck
from thirtyone import (
    Action,
    Game,
    IllegalMoveError,
    OraclePlayer,
    RuleError,
    Rules,
    SeatView,
    Session,
    SettingsError,
    StateError,
    TablePolicy,
    advise,
)
from thirtyone.game.cards import PACK

H31 = ["AS", "KS", "QS"]
H24 = ["AH", "9H", "4H"]
H10 = ["QD", "QH", "5C"]


def pushed(rules: Rules, dealer: int, decks: list[list[str]]) -> Session:
    """A session of pushed seats with the first dealer fixed and the packs stacked."""
    session = Session(rules, seed=0, decks=decks)
    session.dealer = dealer
    return session


# -- ruling 230: a journal replayed past a dealt 31 ---------------------------------------------


def test_a_journal_replays_past_a_round_dealt_31() -> None:
    # 3 seats, dealer 2: seat 0 plays first; seat 1 is dealt 31, so round 1 ends at the deal
    # with no action (rules.md, "A dealt 31": everybody else loses a life). Round 2 is dealt by
    # seat 0, so seat 1 plays first; it knocks: the journal is that one knock.
    rules = Rules(seats=3)
    decks = [game_deck({0: H24, 1: H31, 2: H10}, dealer=2, n_seats=3, upcard="8D"), list(PACK)]
    game = pushed(rules, 2, decks)
    game.advance()
    assert game.lives == [2, 3, 2] and game.round_number == 2
    game.act(Action("knock"))
    assert game.journal == [Action("knock")]

    again = pushed(rules, 2, decks)
    again.replay(game.journal)  # it refused: "action 1 of 1 (knock): no round is under way"
    assert again.lives == [2, 3, 2]
    assert again.round_number == 2 and again.rounds_dealt == 2
    assert again.round is not None and again.round.knocker == 0  # (round seat 0: game seat 1)
    assert again.pending == game.pending


def test_a_journal_that_plays_past_the_game_s_end_is_refused() -> None:
    # Two seats of one life: seat 1 dealt 31 puts seat 0 out at the deal. Nothing is left to
    # play, so any action is refused as after the game's end.
    rules = Rules(seats=2, lives=1)
    decks = [game_deck({0: H24, 1: H31}, dealer=1, n_seats=2, upcard="8D")]
    again = pushed(rules, 1, decks)
    with pytest.raises(IllegalMoveError, match=r"action 1 of 1 \(draw\): the game is over"):
        again.replay([Action("draw")])
    assert again.winner == 1


# -- ruling 231: nobody has looked at the blind call ----------------------------------------------


class Spy:
    """A policy that notes what it is shown at the blind call, then looks."""

    def __init__(self) -> None:
        self.seen: list[tuple[tuple[str, ...], float]] = []

    def decide(self, view: SeatView) -> Action:
        if view.phase == "blind":
            self.seen.append((view.hand, view.score))
            with pytest.raises(StateError, match="nobody has looked"):
                view.state()
            return Action("look")
        return TablePolicy().decide(view)


def test_the_blind_call_shows_no_hand_and_gets_no_advice() -> None:
    # rules.md (first_turn_knock=blind): the first player may call the showdown "before anybody
    # looks at a card"; the Oracle never offers it (ruling 14).
    rules = Rules(first_turn_knock="blind")
    session = Session(rules, seed=3)
    session.advance()
    pending = session.pending
    assert pending is not None and pending.phase == "blind"
    view = session.seat_view()
    assert view.hand == () and view.score == 0.0
    with pytest.raises(StateError, match="nobody has looked"):
        advise(session, deals=20, playouts=40, seed=1)
    session.apply(Action("look"))
    view = session.seat_view()
    assert len(view.hand) == 3
    advice = advise(session, deals=20, playouts=40, seed=1, max_time=None)
    # After looking: no knock on this first turn; draw or take.
    assert {o.option for o in advice.options} == {a.kind for a in session.seat_view().pending.legal}
    assert Action("knock") not in view.pending.legal


def test_a_policy_decides_the_blind_call_without_its_cards() -> None:
    spy = Spy()
    game = Game(Rules(first_turn_knock="blind", seats=2, lives=5), [spy, spy], seed=5)
    for _ in range(3):
        if not game.over:
            game.play_round()
    # It was shown the hand it had been dealt, and could call the showdown only when it won.
    assert len(spy.seen) >= 3 and all(seen == ((), 0.0) for seen in spy.seen)


# -- ruling 232: an Oracle player's settings are checked when it is made --------------------------


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ({"deals": 0}, "deals"),
        ({"playouts": 10**8}, "playouts"),
        ({"threads": 0}, "threads"),
        ({"max_time": 0}, "max_time"),
        ({"objective": "x"}, "objective must be round or game"),
    ],
)
def test_an_oracle_player_s_settings_are_checked_when_it_is_made(
    settings: dict[str, Any], named: str
) -> None:
    # It was made, then every turn fell back to the table's rule: a game of "Oracle" players
    # played by the table's rule without a word.
    with pytest.raises(SettingsError, match=named):
        OraclePlayer(**settings)


# -- ruling 233: what a session is made of is checked when it is made ----------------------------


@pytest.mark.parametrize(
    ("given", "error", "named"),
    [
        ({"policies": [None, object(), None, None]}, RuleError, r"policies\[1\] must be a policy"),
        ({"policies": "abcd"}, RuleError, "policies must be a list of 4"),
        ({"names": [1, 2, 3, 4]}, RuleError, r"names\[0\] must be text, not int"),
        ({"names": "abcd"}, RuleError, "names must be a list of 4"),
        ({"models": ["table", "xyz", "table", "table"]}, RuleError, r"models\[1\] must be one of"),
        ({"decks": 5}, StateError, "decks must be packs to deal"),
    ],
)
def test_what_a_session_is_made_of_is_checked_when_it_is_made(
    given: dict[str, Any], error: type[Exception], named: str
) -> None:
    with pytest.raises(error, match=named):
        Session(Rules(), seed=1, **given)


def test_rules_that_are_not_rules_are_refused() -> None:
    with pytest.raises(RuleError, match=r"rules must be a thirtyone\.Rules"):
        Session({"seats": 4})  # type: ignore[arg-type]


def test_a_journal_that_is_not_a_list_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match=r"a journal is a list of thirtyone\.Action"):
        Session(Rules(), seed=1).replay(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("seat", [4, 99, -1, True, "1", 1.0, None])
def test_a_seat_asked_about_is_one_of_the_games(seat: Any) -> None:
    """`who`, `standing`, `on_county` and `view` take a game seat, 0 to 3 at four players: a
    seat past the end was a bare IndexError, -1 read the last seat and True the second; each is
    refused naming it (None is the player to move for `view` alone)."""
    game = Session(Rules.standard(), None, seed=4)
    game.advance()
    asks = [game.who, game.standing, game.on_county]
    if seat is not None:
        asks.append(game.view)
    for ask in asks:
        with pytest.raises(StateError, match="seat must be a whole number from 0 to 3, not "):
            ask(seat)
    assert game.who(2) == "seat 2" and game.standing(3) == "3 lives"
    assert len(game.view(0)["hand"]) == 3
