"""Every table's rules in the Oracle: it answers under every preset, its figures follow the
rule options, and a two-seat exact check under three presets.

Expected values are written from the documents' words (our account of them: seeds/) and
the rulings in notes/DECISIONS.md, with stacked decks; never read back from the code under test.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from functools import cache
from typing import Any

import pytest
import thirtyone
from helpers import PACK, game_deck, ref_put_down, ref_score, ref_start
from thirtyone import Action, Game, Rules, SeatView, TablePolicy
from thirtyone.oracle.query import advise
from variant_helpers import EXAMPLE_FILE, H10B, H24, PRESETS, Steps, make_game

# -- the Oracle -----------------------------------------------------------------------------------


class _OracleProbe(TablePolicy):
    """The table's rule, asking the Oracle once a round is a few turns old."""

    def __init__(self) -> None:
        super().__init__()
        self.advice: list[thirtyone.Advice] = []

    def decide(self, view: SeatView) -> Action:
        if len(self.advice) < 2 and view.turns_played >= 3 and view.phase == "start":
            found = advise(view.state(), deals=200, playouts=300, seed=1, max_time=None)
            self.advice.append(found)
        return super().decide(view)


@pytest.mark.parametrize("preset", PRESETS)
def test_the_oracle_answers_for_every_preset(preset: str) -> None:
    probe = _OracleProbe()
    rules = Rules.preset(preset).replace(seats=3)
    game = Game(rules, [probe, TablePolicy(), TablePolicy()], seed=11)
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
        def decide(self, view: SeatView) -> Action:
            if view.drawn is not None:
                return Action("put", view.drawn[0])
            seen.append(view.state())
            advise(view.state(), deals=100, playouts=200, seed=1, max_time=None)
            return Action("draw")

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
