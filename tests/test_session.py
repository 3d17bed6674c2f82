"""The game session driven without a terminal: decisions pushed one at a time, the computer
seats' policies played in between, a game saved mid-round and resumed exactly."""

from __future__ import annotations

import pytest
from thirtyone import Game, Rules
from thirtyone._core import Action
from thirtyone.errors import IllegalMoveError
from thirtyone.game.session import Event, Session, TablePolicy

TABLES = [
    Rules.standard(),
    Rules.preset("five-lives").replace(seats=3),
    Rules.preset("scat").replace(seats=5, first_turn_knock="blind"),
    Rules.preset("gin-lives").replace(seats=2),
    Rules.preset("cadillac").replace(seats=3, may_hide_31=True),
]


def pushed_game(rules: Rules, seed: int) -> tuple[Session, list[Event]]:
    """Seat 0 pushed by the test (each decision: the table's rule, asked from what the seat
    sees), every other seat a table policy."""
    policies = [None] + [TablePolicy() for _ in range(rules.seats - 1)]
    session = Session(rules, policies, seed=seed)
    told = session.advance()
    person = TablePolicy()
    while not session.over:
        pending = session.pending
        assert pending is not None and pending.seat == 0, "the session stopped for a computer"
        action = person.decide(session.seat_view())
        assert action in pending.legal
        told += session.act(action)
    return session, told


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: f"{r.seats}-seats")
@pytest.mark.parametrize("seed", [1, 2])
def test_a_pushed_game_is_the_game_its_policies_would_play(rules: Rules, seed: int) -> None:
    session, told = pushed_game(rules, seed)
    # Played by the table's policy at every seat (each turn in one step of the core): the same
    # game as decided one step at a time.
    game = Game(rules, [TablePolicy() for _ in range(rules.seats)], seed=seed)
    game.play()
    assert session.events == game.events
    assert session.journal == game.journal
    assert (session.winner, session.placing(), session.lives) == (
        game.winner,
        game.placing(),
        game.lives,
    )
    # What act() returned is every event, in order (the mid-turn steps included).
    assert [e for e in told if e.kind != "mid_turn"] == session.events
    assert told[-1].kind == "game_over" and told[-1].data["winner"] == session.winner


def test_the_pending_decision_says_who_and_what_is_legal() -> None:
    session = Session(Rules.standard(), seed=4)  # every seat pushed
    assert session.pending is None  # nothing dealt yet
    told = session.advance()
    assert [e.kind for e in told] == ["deal"]
    pending = session.pending
    assert pending is not None and pending.phase == "start"
    assert pending.seat == told[0].data["first"]
    assert {a.kind for a in pending.legal} == {"knock", "draw", "take"}
    told = session.act(Action("draw"))
    assert [(e.kind, e.data) for e in told] == [
        ("mid_turn", {"seat": pending.seat, "step": "draw"})
    ]
    after = session.pending
    assert after is not None and after.phase == "put_down" and after.seat == pending.seat
    view = session.seat_view()
    assert view.drawn is not None and view.drawn[1] == "stock"
    assert {a.card for a in after.legal} == {*view.hand, view.drawn[0]}


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    session = Session(Rules.standard(), seed=4)
    session.advance()
    before = (session.pending, list(session.journal), session.view())
    with pytest.raises(IllegalMoveError):
        session.act(Action("put", "AS"))  # a put-down before drawing
    with pytest.raises(IllegalMoveError):
        session.act(Action("decline"))  # the stock is not empty
    assert (session.pending, session.journal, session.view()) == before


@pytest.mark.parametrize("stop_after", [1, 2, 7, 12, 30])
def test_a_game_saved_mid_round_resumes_exactly(stop_after: int) -> None:
    rules = Rules.preset("five-lives").replace(seats=3)
    policies = [None, TablePolicy(), TablePolicy(knock_at=22)]
    first = Session(rules, policies, seed=11)
    first.advance()
    person = TablePolicy(knock_at=25)
    decisions = 0
    while not first.over and decisions < stop_after:
        first.act(person.decide(first.seat_view()))
        decisions += 1
    saved = list(first.journal)

    resumed = Session(rules, policies, seed=11)
    resumed.replay(saved)
    resumed.advance()
    assert resumed.pending == first.pending
    assert resumed.events == first.events
    if first.pending is not None:
        assert resumed.seat_view() == first.seat_view()
        assert resumed.view(0) == first.view(0)
    # Both go on to the same end.
    while not first.over:
        action = person.decide(first.seat_view())
        assert first.act(action) == resumed.act(action)
    assert resumed.events == first.events and resumed.winner == first.winner


def test_a_journal_ending_after_a_draw_resumes_at_the_put_down_with_that_card() -> None:
    first = Session(Rules.standard(), seed=5)
    first.advance()
    first.act(Action("draw"))
    resumed = Session(Rules.standard(), seed=5)
    resumed.replay(first.journal)
    pending = resumed.pending
    assert pending is not None and pending.phase == "put_down"
    assert resumed.seat_view().drawn == first.seat_view().drawn
    with pytest.raises(IllegalMoveError):
        resumed.act(Action("take"))  # no second draw


def test_a_journal_that_cannot_be_played_names_the_action() -> None:
    session = Session(Rules.standard(), seed=5)
    with pytest.raises(IllegalMoveError, match=r"action 2 of 2 \(draw\)"):
        session.replay([Action("draw"), Action("draw")])
