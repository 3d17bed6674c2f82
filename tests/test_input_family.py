"""Every mistake in input raises a subclass of ``thirtyone.ThirtyOneError`` naming the problem
(README, "Errors"): wrong types and values given to the library's functions and classes, never a
raw ``TypeError``, ``IndexError`` or ``AttributeError``, and never a failure later in a game.
Written from the README's error table and the documented signatures (QA round three)."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
import thirtyone
from helpers import EXAMPLE, QUICK, example
from thirtyone import (
    Action,
    CardError,
    Game,
    IllegalMoveError,
    RuleError,
    Rules,
    SeatView,
    Session,
    SettingsError,
    StateError,
    TablePolicy,
    ThirtyOneError,
)
from thirtyone.oracle.query import checked_names

# -- advise: names, objective, a finished game -------------------------------------------------


@pytest.mark.parametrize(
    ("names", "said"),
    [
        (["a"], "names must be a list of 4 names, one per seat of the state, not 1"),
        (["a", "b", "c", "d", "e"], "names must be a list of 4 names"),
        ([1, 2, 3, 4], "names[0] must be text, not int"),
        ("abcd", "names must be a list of 4 names, one per seat of the state, not the text"),
        (5, "names must be a list of 4 names"),
    ],
)
def test_advise_refuses_names_that_are_not_one_text_per_seat(names: Any, said: str) -> None:
    # (At a precision where the reason names no seat too: the check is the names', not the
    # words'.)
    with pytest.raises(SettingsError) as caught:
        thirtyone.advise(example(), names=names, **QUICK)
    assert said in str(caught.value)


def test_advise_takes_one_name_per_seat() -> None:
    advice = thirtyone.advise(example(), names=("Ann", "Bob", "Cy", "Di"), **QUICK)
    assert advice.best is not None


def test_advise_shows_names_as_the_table_does() -> None:
    # Names reach the reason and the warnings: a lone surrogate (which JSON text cannot carry),
    # a line break, a terminal's escape code, a name of 100,000 characters and a blank one.
    given = ["Me", "\ud800x", "Bob\nnew\x1b[31m", "y" * 100_000]
    assert checked_names(given, 4) == [
        "Me",
        "\\ud800x",
        "Bob\\x0anew\\x1b[31m",
        "y" * 29 + "…",
    ]
    assert checked_names(["Ann", "", "  ", "Di"], 4) == ["Ann", "seat 1", "seat 2", "Di"]
    advice = thirtyone.advise(example(), names=given, **QUICK)
    json.dumps([advice.reason, advice.warnings], ensure_ascii=False).encode()


@pytest.mark.parametrize("objective", [None, 1, ["game"]])
def test_advise_refuses_an_objective_that_is_not_text(objective: Any) -> None:
    with pytest.raises(SettingsError, match="objective must be round or game, not "):
        thirtyone.advise(example(), objective=objective, **QUICK)


def test_a_finished_game_has_no_decision_to_advise_or_view() -> None:
    game = Game(Rules.standard(), seed=3)
    game.play()
    assert game.over
    for ask in (lambda: thirtyone.advise(game, **QUICK), game.view, lambda: game.view(0)):
        with pytest.raises(StateError, match="the game is over: no decision is pending"):
            ask()
    assert game.why_not(Action("draw")) == "the game is over"


def test_between_rounds_no_round_is_viewed() -> None:
    session = Session(Rules.standard(), [None, None, None, None], seed=4)
    with pytest.raises(StateError, match="no round is under way: no decision is pending"):
        session.view()


def test_a_state_whose_hand_is_text_says_a_hand_is_a_list() -> None:
    state = {**example(), "hand": "AH 9H 4H"}
    with pytest.raises(StateError, match=r'hand: must be a list of 3 cards, such as \["AH"'):
        thirtyone.advise(state, **QUICK)


# -- hand_score -----------------------------------------------------------------------------------


def test_hand_score_refuses_a_card_used_twice() -> None:
    # (The README's table: CardError for "a card used twice"; it scored 32.)
    with pytest.raises(CardError, match="hand: AH appears twice"):
        thirtyone.hand_score(["AH", "AH", "KH"])


@pytest.mark.parametrize(("hand", "what"), [("AH", "a string"), (None, "None"), (5, "int")])
def test_hand_score_says_a_hand_is_a_list_of_cards(hand: Any, what: str) -> None:
    with pytest.raises(CardError) as caught:
        thirtyone.hand_score(hand)
    assert (
        str(caught.value) == f'a hand is a list of 3 cards, such as ["AH", "9H", "4H"], not {what}'
    )


def test_hand_score_still_reads_every_spelling_of_a_card() -> None:
    assert thirtyone.hand_score(("ah", "10h", "K♥")) == 31.0


def test_hand_score_reads_its_rules_as_rules_are_read_everywhere() -> None:
    """Three aces are 33 at Cadillac (three_aces = 33) and 11 at the standard table, whether
    the rules come as Rules or as the preset's name; anything else is a RuleError naming it
    (a name or a number had been taken silently as the standard table: 11)."""
    aces = ["AS", "AD", "AC"]
    assert thirtyone.hand_score(aces) == 11.0
    assert thirtyone.hand_score(aces, Rules.preset("cadillac")) == 33.0
    assert thirtyone.hand_score(aces, "cadillac") == 33.0
    with pytest.raises(RuleError, match="not int"):
        thirtyone.hand_score(aces, 42)
    with pytest.raises(RuleError, match='unknown preset "nope"'):
        thirtyone.hand_score(aces, "nope")


@pytest.mark.parametrize(
    ("args", "kind", "said"),
    [
        ((None,), IllegalMoveError, "an action's kind is text, one of knock, draw"),
        ((5,), IllegalMoveError, "not int"),
        (("put", 5), CardError, 'an action\'s card is text such as "AH", not int'),
        (("\ud800",), IllegalMoveError, "a lone surrogate"),
    ],
)
def test_an_action_of_values_of_the_wrong_type_is_refused_in_the_family(
    args: Any, kind: type, said: str
) -> None:
    """Action(None), Action(5), Action("put", 5): the family's errors naming the value, as
    for an unknown kind or a card that is no card (they had been Python's TypeError)."""
    with pytest.raises(kind) as caught:
        Action(*args)
    assert said in str(caught.value)
    assert str(Action("draw", None)) == "draw" and str(Action("put", "AH")) == "put:AH"


# -- the session: the seat named, actions that are not actions ----------------------------------


def _seat_two_to_move() -> Session:
    """Ann, Bob, Cy and Di by the table's rule but Cy (game seat 2), who is to move."""
    table = TablePolicy()
    session = Session(
        Rules.standard(), [table, table, None, table], seed=5, names=["Ann", "Bob", "Cy", "Di"]
    )
    session.advance()
    assert session.pending is not None and session.pending.seat == 2
    assert session.pending.round_seat != 2  # (the round's own numbering differs)
    return session


def test_a_refused_action_names_the_player_by_the_game_seat() -> None:
    session = _seat_two_to_move()
    with pytest.raises(IllegalMoveError) as caught:
        session.act(Action("decline"))
    assert str(caught.value) == (
        "seat 2 (Cy): you may only decline the discard when the stock is empty"
    )


def test_with_default_names_the_refusal_names_the_game_seat() -> None:
    session = Session(Rules.standard(), [TablePolicy(), TablePolicy(), None, TablePolicy()], seed=5)
    session.advance()
    pending = session.pending
    assert pending is not None
    with pytest.raises(IllegalMoveError, match=rf"^seat {pending.seat}: you may only decline"):
        session.act(Action("decline"))


@pytest.mark.parametrize("action", ["draw", None, ("draw",)])
def test_act_refuses_what_is_not_an_action(action: Any) -> None:
    session = _seat_two_to_move()
    before = list(session.journal)
    with pytest.raises(IllegalMoveError, match=r"an action is a thirtyone\.Action"):
        session.act(action)
    assert session.journal == before
    assert "an action is a thirtyone.Action" in str(session.why_not(action))


def test_replay_refuses_a_journal_of_text() -> None:
    with pytest.raises(IllegalMoveError, match=r"^action 1 of 2: an action is a thirtyone"):
        Session(Rules.standard(), seed=5).replay(["draw", "knock"])  # type: ignore[list-item]


class _Silent:
    """A policy whose decide returns nothing."""

    def decide(self, view: SeatView) -> Action:
        return None  # type: ignore[return-value]


def test_a_policy_that_returns_no_action_is_named() -> None:
    game = Game(Rules.standard(), [TablePolicy(), _Silent(), TablePolicy(), TablePolicy()], seed=1)
    with pytest.raises(IllegalMoveError, match=r"^seat 1: its policy's decide returned None"):
        game.play()


# -- TablePolicy's knock score, checked when it is made -----------------------------------------


@pytest.mark.parametrize("knock_at", ["x", -5, float("nan"), math.inf, 1e9, True, [27]])
def test_a_table_policy_refuses_a_knock_score_that_is_not_one(knock_at: Any) -> None:
    with pytest.raises(RuleError, match=r"knock_at: .* is not a score"):
        TablePolicy(knock_at=knock_at)


def test_a_long_knock_score_is_quoted_short() -> None:
    """Quoted as every message quotes a refused value: 24 characters, then "…" (it was cut at
    24 characters of its repr, the closing quote lost and nothing said that it was cut)."""
    with pytest.raises(RuleError) as caught:
        TablePolicy(knock_at="7" * 400)
    assert str(caught.value) == (
        f'rule knock_at: "{"7" * 24}"… is not a score (whole or half points from 0)'
    )


@pytest.mark.parametrize("knock_at", [None, 0, 22, 22.5, 27, 31])
def test_a_table_policy_takes_any_score_or_never(knock_at: float | None) -> None:
    policy = TablePolicy(knock_at=knock_at)
    assert policy.knock_at == knock_at
    Game(Rules.standard(), [policy] * 4, seed=2).play()


def test_every_refusal_here_is_of_the_family() -> None:
    for error in (CardError, IllegalMoveError, RuleError, SettingsError, StateError):
        assert issubclass(error, ThirtyOneError) and issubclass(error, ValueError)


def test_the_game_objective_without_lives_says_there_is_no_game_to_weigh() -> None:
    """objective="game" on a state without lives: the answer is the round's (there is no
    game), and a warning says so instead of nothing; with lives, or for the round, none."""
    state = json.loads(EXAMPLE.read_text())
    bare = {k: v for k, v in state.items() if k != "lives"}
    cheap: dict[str, Any] = {"deals": 100, "playouts": 200, "seed": 1}
    asked = thirtyone.advise(bare, objective="game", **cheap)
    assert any("game objective needs each seat's lives" in w for w in asked.warnings)
    assert all(o.p_win is None for o in asked.options)
    assert [o.p_safe for o in asked.options] == [
        o.p_safe for o in thirtyone.advise(bare, **cheap).options
    ]
    assert not any("game objective" in w for w in thirtyone.advise(bare, **cheap).warnings)
    with_lives = thirtyone.advise(state, objective="game", **cheap)
    assert not any("game objective" in w for w in with_lives.warnings)
