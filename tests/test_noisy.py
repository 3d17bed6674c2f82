"""Noisy table players (``NoisyPolicy``): the table's rule at a knock score of their own with a
share of random legal moves, as seated by ``thirtyone tournament --players noisy`` and
``thirtyone calibrate --opponents noisy``; and the calibration at other tables than the
table's rule (``--opponents``, ``--read-as``)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from click.testing import CliRunner
from thirtyone import Rules, Session
from thirtyone._core import Action
from thirtyone.cli.app import main
from thirtyone.game.seats import (
    NOISE,
    NOISY_KNOCK_AT,
    NoisyPolicy,
    Policy,
    SeatView,
    TablePolicy,
    model_of,
)
from thirtyone.oracle.answer import Advice
from thirtyone.study import calibration as cal
from thirtyone.study import tournament


class Watched:
    """A policy's decisions, each with whether the rule would have made it."""

    def __init__(self, policy: NoisyPolicy) -> None:
        self.policy = policy
        self.model = policy.model
        self.seen: list[tuple[SeatView, Action]] = []

    def decide(self, view: SeatView) -> Action:
        action = self.policy.decide(view)
        self.seen.append((view, action))
        return action


def _game(policies: list[Policy], seed: int) -> Session:
    session = Session(Rules.from_spec({"seats": len(policies)}), policies, seed=seed)
    session.advance()
    assert session.over
    return session


def test_without_noise_it_is_the_table_rule_at_its_knock_score() -> None:
    for k in (22.0, 25.0, 29.0):
        quiet = _game([NoisyPolicy(k, seed=5, noise=0.0) for _ in range(4)], seed=11)
        rule = _game([TablePolicy(k) for _ in range(4)], seed=11)
        assert quiet.journal == rule.journal
        assert quiet.places == rule.places


def test_its_random_moves_are_legal_at_about_the_noise_share() -> None:
    watched = [Watched(NoisyPolicy(24.0, seed=100 + s)) for s in range(4)]
    decisions = off_rule = 0
    for seed in range(12):
        for w in watched:
            w.seen.clear()
        _game(list(watched), seed=seed)
        for w in watched:
            for view, action in w.seen:
                assert action in view.pending.legal
                decisions += 1
                off_rule += action != TablePolicy(24.0).decide(view)
    moves = sum(w.policy.random_moves for w in watched)
    # Every random move is counted, and a random move may be the rule's own.
    assert off_rule <= moves
    assert decisions > 1000
    share = moves / decisions
    sd = (NOISE * (1 - NOISE) / decisions) ** 0.5
    assert abs(share - NOISE) < 5 * sd, (moves, decisions)
    assert off_rule > moves / 3  # most random moves are not the rule's


def test_all_noise_is_a_random_player_and_the_dice_belong_to_the_position() -> None:
    wild = [Watched(NoisyPolicy(27.0, seed=3, noise=1.0)) for _ in range(3)]
    first = _game(list(wild), seed=4)
    again = _game([NoisyPolicy(27.0, seed=3, noise=1.0) for _ in range(3)], seed=4)
    assert first.journal == again.journal  # (the same seed and position: the same move)
    views = [view for w in wild for view, _ in w.seen]
    assert all(w.policy.random_moves == len(w.seen) for w in wild)
    # Random players knock where the rule would not (at scores far below 27).
    assert any(a == Action("knock") and v.score < 20 for w in wild for v, a in w.seen)
    assert len(views) > 10


def test_the_drawn_knock_score_and_the_model() -> None:
    scores = {NoisyPolicy.drawn(seed).rule.knock_at for seed in range(400)}
    low, high = NOISY_KNOCK_AT
    assert scores == {float(k) for k in range(low, high + 1)}
    assert model_of(NoisyPolicy.drawn(1)) == "person"
    with pytest.raises(ValueError, match="noise must be from 0 to 1"):
        NoisyPolicy(25.0, seed=1, noise=1.5)


def test_a_tournament_seats_noisy_players() -> None:
    assert tournament.parse_kind(" Noisy ") == ("noisy", None)
    settings = tournament.Settings(players=("table", "noisy", "noisy"), games=3, seed=2)
    settings.check()
    player = settings.player(1, 0)
    assert isinstance(player, NoisyPolicy)
    low, high = NOISY_KNOCK_AT
    assert player.rule.knock_at is not None and low <= player.rule.knock_at <= high
    results = tournament.play_game(0, settings)
    assert sorted(r.place for r in results) == [1, 2, 3]
    result = CliRunner().invoke(
        main, ["tournament", "--games", "2", "--players", "noisy,table", "--jobs", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert [p["player"] for p in json.loads(result.stdout)["players"]] == ["noisy", "table"]


class Recording:
    """An advisor that keeps the states it was asked about."""

    def __init__(self) -> None:
        self.states: list[dict[str, Any]] = []

    def __call__(self, state: Any, **kwargs: Any) -> Advice:
        self.states.append(dict(state))
        return cal.oracle_advisor(state, **kwargs)


SMALL = cal.Settings(
    decisions=12, seed=5, deals=60, playouts=120, seats=(3,), rank_deals=20, max_time=None
)


@pytest.mark.parametrize(
    ("opponents", "models"),
    [("noisy", ["person"]), ("mixed", None), ("table", None)],
)
def test_the_calibration_plays_at_the_table_it_is_given(
    opponents: str, models: list[str] | None
) -> None:
    asked = Recording()
    report = cal.calibrate(dataclasses.replace(SMALL, opponents=opponents), advisor=asked)
    assert len(report.decisions) >= SMALL.decisions
    for state in asked.states:
        seen = [m for i, m in enumerate(state.get("models", [])) if i != state["me"]]
        if opponents == "mixed":
            # experts at the odd game seats: the Oracle reads them as experts
            assert set(seen) <= {"expert", "table"}
        elif models is None:
            assert "models" not in state
        else:
            assert seen and set(seen) == set(models)  # (one per opponent still in)
    if opponents == "mixed":
        assert any("expert" in s.get("models", []) for s in asked.states)
    old = Recording()
    cal.calibrate(dataclasses.replace(SMALL, opponents=opponents, read_as="table"), advisor=old)
    assert all("models" not in s for s in old.states)
    people = Recording()
    cal.calibrate(dataclasses.replace(SMALL, opponents=opponents, read_as="person"), advisor=people)
    for state in people.states:
        assert [m for i, m in enumerate(state["models"]) if i != state["me"]] == ["person"] * (
            len(state["models"]) - 1
        )


def test_an_unknown_table_is_refused() -> None:
    with pytest.raises(cal.ThirtyOneError, match="opponents must be one of"):
        dataclasses.replace(SMALL, opponents="robots").check()
    with pytest.raises(cal.ThirtyOneError, match="read_as must be one of"):
        dataclasses.replace(SMALL, read_as="robot").check()
    for option in ("--opponents", "--read-as"):
        result = CliRunner().invoke(main, ["calibrate", option, "robots"])
        assert result.exit_code == 2
        assert "robots" in result.output and "Traceback" not in result.output
