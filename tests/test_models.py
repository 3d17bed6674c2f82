"""Opponent models (``models`` in a state, ``docs/models.md``): a person or the expert is read as
the table's rule with a knock score of their own and slips, so that a knock at 17 is not read as
"27 or more"; the table's model is the same answer as no models; bad models are named."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from helpers import ref_score
from thirtyone import _core
from thirtyone.cli.app import main
from thirtyone.errors import StateError
from thirtyone.game.rules import Rules
from thirtyone.game.seats import TablePolicy, model_of, seat_models
from thirtyone.game.session import Session
from thirtyone.oracle.player import OraclePlayer
from thirtyone.oracle.query import advise
from thirtyone.oracle.reads import reads, why_line
from thirtyone.oracle.state import parse
from thirtyone.oracle.words import score_text


def low_knock() -> tuple[dict[str, Any], int]:
    """A view of seat 0 after seat 1, a player knocking at 17 or more, knocked below 27: the
    first such round over seeds 1, 2, … (seat 0 plays by the table's rule)."""
    for seed in range(1, 400):
        game = Session(None, [None, TablePolicy(17.0), TablePolicy(), TablePolicy()], seed=seed)
        game.advance()
        while not game.over and game.pending is not None:
            state = game.view()
            knocks = [t["seat"] for t in state["turns"] if t.get("knock")]
            if knocks and game.seats[knocks[0]] == 1 and game.round is not None:
                knocker = knocks[0]
                assert state["models"][knocker] == "person"
                if ref_score(game.round.hand(knocker)) < 27:
                    return state, knocker
                break
            if knocks:
                break
            game.act(TablePolicy().decide(game.seat_view()))
    raise AssertionError("no low knock in 400 seeds")


def knocker_scores(state: dict[str, Any], knocker: int) -> list[float]:
    deals, fallback = _core.sample_deals(parse(state), 400, seed=3)
    assert fallback == []
    return [ref_score(d["hands"][knocker]) for d in deals]


def test_a_low_knock_is_read_as_a_low_knock_by_the_person_model_and_as_27_by_the_table() -> None:
    state, knocker = low_knock()
    person = knocker_scores(state, knocker)
    table = knocker_scores({k: v for k, v in state.items() if k != "models"}, knocker)
    # The table's rule knocks only at 27 or more: every deal of its read says so.
    assert min(table) >= 27
    # A person knocks at a score of their own: most deals give them less than 27.
    assert sum(s < 27 for s in person) / len(person) > 0.5
    deals, _ = _core.sample_deals(parse(state), 400, seed=3)
    knock_at = [d["knock_at"][knocker] for d in deals]
    assert all(16 <= k <= 31 for k in knock_at)
    # (They knocked: a score above their hand's is read only as a slip.)
    assert sum(k <= s for k, s in zip(knock_at, person, strict=True)) / len(person) > 0.8


def test_the_why_line_and_the_read_say_what_the_model_believes() -> None:
    state, knocker = low_knock()
    names = ["You", "Ann", "Ben", "Cara"]
    advice = advise(state, deals=400, playouts=1000, seed=2, max_time=None, names=names)
    read = {r.seat: r for r in reads(state, names, advice)}[knocker]
    assert read.knocked and read.knocks is not None
    knock_from = read.knock_from()
    assert knock_from is not None and 16 <= knock_from <= 31
    assert "; knocks from about " in read.line()
    line = why_line(advice, list(reads(state, names, advice)))
    assert line is None or "27 or more in 100" not in line
    assert line is None or "seat" not in line


def test_an_experts_low_knock_is_read_by_when_experts_knock() -> None:
    """The expert model reads a knock by how often experts knock with each score on that lap of
    the round (not by a knock score for the round): a knock below 27 is read as the low hand it
    most likely is, and the read names no knock score for the knocker."""
    state, knocker = low_knock()
    models = list(state["models"])
    models[knocker] = "expert"
    expert = {**state, "models": models}
    scores = knocker_scores(expert, knocker)
    assert float(np.median(scores)) < 24
    assert sum(s < 27 for s in scores) / len(scores) > 0.8
    names = ["You", "Ann", "Ben", "Cara"]
    advice = advise(expert, deals=400, playouts=1000, seed=2, max_time=None, names=names)
    assert knocker not in advice.opponent_knocks
    # After a knock nobody knocks: no other seat's knock score is reported either.
    others = [m if i in (knocker, state["me"]) else "person" for i, m in enumerate(models)]
    after = advise({**state, "models": others}, deals=200, playouts=500, seed=2, max_time=None)
    assert after.opponent_knocks == {}
    read = {r.seat: r for r in reads(expert, names, advice)}[knocker]
    assert read.knocked and read.weighed and read.knock_from() is None
    assert "knocks from about" not in read.line()
    line = why_line(advice, list(reads(expert, names, advice)))
    assert line is None or "knocks from about" not in line


def test_an_expert_one_against_one_is_given_no_knock_score() -> None:
    """One against one the expert reads the table (it knocks with 27, or from 20 holding more
    than you: oracle.md), not at a knock score of its own: the read names none for it (it said
    "knocks from about 26", a score its playouts never use), while at three seats, where the
    expert plays the rule at its knock score, the read names one."""
    for seats, named in ((2, False), (3, True)):
        policies = [None] + [TablePolicy()] * (seats - 1)
        game = Session(Rules(seats=seats), policies, seed=4)
        game.advance()
        state = game.view()
        state["models"] = [None if s == state["me"] else "expert" for s in range(seats)]
        names = ["You", "Ann", "Ben"][:seats]
        advice = advise(state, deals=300, playouts=800, seed=2, max_time=None, names=names)
        others = [s for s in range(seats) if s != state["me"]]
        assert all((s in advice.opponent_knocks) == named for s in others), seats
        for r in reads(state, names, advice):
            assert ("knocks from about" in r.line()) == named, (seats, r.line())


def test_an_experts_knock_is_read_as_its_playouts_knock_on_this_lap() -> None:
    """At four seats the playouts' experts knock at their knock score moved by the round's lap
    (oracle.md: a knock score of 26 knocks from 23 on the first lap): on the first lap the read
    names that lower score, not the knock score (it said "knocks from about 26" beside figures
    played with knocks from 23)."""
    game = Session(Rules(seats=4), [None] + [TablePolicy()] * 3, seed=4)
    game.advance()
    state = game.view()
    assert len(state["turns"]) < 4  # (the first lap)
    state["models"] = [None if s == state["me"] else "expert" for s in range(4)]
    names = ["Ann", "Ben", "Cara", "Dan"]
    names[state["me"]] = "You"
    advice = advise(state, deals=400, playouts=1000, seed=2, max_time=None, names=names)
    deals, _ = _core.sample_deals(parse(state), 400, seed=3)
    for r in reads(state, names, advice):
        scores = [d["knock_at"][r.seat] for d in deals]
        knock_score = float(np.median(scores))
        knock_from = r.knock_from()
        assert knock_from is not None and knock_from <= knock_score - 2, (r.line(), knock_score)
        assert f"knocks from about {score_text(knock_from)}" in r.line()


def test_the_table_model_is_the_answer_without_models() -> None:
    game = Session(None, [None, TablePolicy(), TablePolicy(), TablePolicy()], seed=5)
    game.advance()
    state = game.view()
    assert "models" not in state  # every opponent plays the table's rule
    given = {**state, "models": [None if i == state["me"] else "table" for i in range(4)]}
    a = advise(state, deals=300, playouts=800, seed=1, max_time=None)
    b = advise(given, deals=300, playouts=800, seed=1, max_time=None)
    assert a.to_dict() == b.to_dict()
    assert a.opponent_knocks == {} and b.opponent_knocks == {}


def test_a_game_says_how_each_seat_plays() -> None:
    policies = [None, OraclePlayer.expert(seed=1), TablePolicy(24.0), TablePolicy()]
    assert [model_of(p) for p in policies] == ["table", "expert", "person", "table"]
    assert seat_models(policies) == ["person", "expert", "person", "table"]
    game = Session(None, policies, seed=8, models=seat_models(policies))
    game.advance()
    state = game.view()
    me = state["me"]
    assert state["models"][me] is None
    assert sorted(m for i, m in enumerate(state["models"]) if i != me) == [
        "expert",
        "person",
        "table",
    ]


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("robot", 'must be one of table, person, expert, not "robot"'),
        (3, "must be one of table, person, expert, not a number"),
        (None, "must be one of table, person, expert, not null"),
        (["table"], "must be one of table, person, expert, not a list"),
    ],
)
def test_a_bad_opponent_model_is_named_with_its_place(bad: Any, message: str) -> None:
    game = Session(None, [None, TablePolicy(), TablePolicy(), TablePolicy()], seed=5)
    game.advance()
    state = game.view()
    other = (state["me"] + 1) % 4
    models: list[Any] = ["table"] * 4
    models[other] = bad
    with pytest.raises(StateError) as err:
        parse({**state, "models": models})
    assert str(err.value) == f"models[{other}] {message}" + (
        " (only your own seat's entry may be anything)" if not isinstance(bad, str) else ""
    )


@pytest.mark.parametrize(
    ("models", "message"),
    [
        (["table"], "models has 1 entry, but the table has 4 seats"),
        ("expert", "a list of one model per seat"),
        (["table"] * 10, "more than 9 entries"),
    ],
)
def test_a_models_list_of_the_wrong_shape_is_refused(models: Any, message: str) -> None:
    game = Session(None, [None, TablePolicy(), TablePolicy(), TablePolicy()], seed=5)
    game.advance()
    with pytest.raises(StateError, match=message):
        parse({**game.view(), "models": models})


def test_your_own_entry_may_be_anything() -> None:
    game = Session(None, [None, TablePolicy(), TablePolicy(), TablePolicy()], seed=5)
    game.advance()
    state = game.view()
    models: list[Any] = ["person"] * 4
    models[state["me"]] = {"any": ["thing"]}
    parse({**state, "models": models})


def test_the_oracle_command_takes_models(tmp_path: Any) -> None:
    game = Session(None, [None, TablePolicy(), TablePolicy(), TablePolicy()], seed=5)
    game.advance()
    state = game.view()
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state))
    models = ["expert"] * 4
    models[state["me"]] = "-"
    args = ["oracle", str(path), "--deals", "200", "--playouts", "500", "--seed", "1", "--json"]
    run = CliRunner().invoke(main, [*args, "--models", ",".join(models)])
    assert run.exit_code == 0, run.output
    assert json.loads(run.output)["deals"] == 200
    bad = CliRunner().invoke(main, [*args, "--models", "-,expert"])
    assert bad.exit_code != 0
    assert "models has 2 entries, but the table has 4 seats" in bad.output
    assert "Traceback" not in bad.output


def test_a_dash_of_the_oracle_command_at_another_seat_names_your_seat(tmp_path: Any) -> None:
    """``-`` in ``--models`` is your own seat (docs/cli.md: "-,expert,table,person" where you are
    seat 0); given at another, the error says which seat is yours (it said only 'models[0] must
    be one of table, person, expert, not "-"')."""
    game = Session(None, [None, TablePolicy(), TablePolicy(), TablePolicy()], seed=5)
    game.advance()
    state = game.view()
    me = state["me"]
    assert me != 0  # (seed 5: you are the round's seat 1)
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state))
    run = CliRunner().invoke(main, ["oracle", str(path), "--models", "-,expert,table,person"])
    assert run.exit_code == 2 and "Traceback" not in run.output
    assert f"--models has - at seat 0, but you are seat {me} (the state's me)" in run.output
