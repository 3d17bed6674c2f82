"""The Oracle: known cards, the posterior, an exact check, the sweep, ties and wording,
determinism, and refused states. Expected values come from the rules, computed here by small
independent references (tests/helpers.py), never from the code under test."""

from __future__ import annotations

import itertools
import json
import math
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import thirtyone
from helpers import PACK, ref_put_down, ref_score, ref_start, value
from positions import Position, positions
from thirtyone import _core
from thirtyone.errors import CardError, RuleError, SettingsError, StateError, ThirtyOneError
from thirtyone.oracle.answer import Advice
from thirtyone.oracle.query import advise as oracle_advise
from thirtyone.oracle.state import parse
from thirtyone.oracle.words import pct

# The example of docs/oracle.md.
EXAMPLE: dict[str, Any] = json.loads(
    (Path(__file__).parent / "data" / "example_state.json").read_text()
)


def advise(*args: Any, **kwargs: Any) -> Advice:
    """The Oracle with no time limit unless a test gives one: every answer is the whole of its
    work, the same on every machine however busy."""
    kwargs.setdefault("max_time", None)
    return oracle_advise(*args, **kwargs)


def known_cards(state: dict[str, Any]) -> tuple[set[str], dict[int, set[str]]]:
    """Cards you know the place of (your hand, every card that passed through the pile and is
    not in an opponent's hand), and the pile-taken cards each opponent still holds."""
    pile = [state["upcard"]]
    held: dict[int, set[str]] = {}
    for t in state["turns"]:
        if t.get("knock"):
            continue
        if t["draw"] == "pile":
            taken = pile.pop()
            if t["seat"] != state["me"]:
                held.setdefault(t["seat"], set()).add(taken)
        if t["seat"] != state["me"]:
            held.setdefault(t["seat"], set()).discard(t["discard"])
        pile.append(t["discard"])
    # (Cards you drew are now in your hand, in the pile, or taken by somebody.)
    return set(pile) | set(state["hand"]), held


def late_positions() -> list[Position]:
    out = []
    for seed, seats in [(1, 2), (2, 3), (3, 4), (4, 4), (5, 6), (6, 9)]:
        ps = positions(seed, seats)
        out.extend(ps[len(ps) // 2 :: max(1, len(ps) // 4)])
    return out


@pytest.mark.parametrize("pos", late_positions(), ids=lambda p: f"turn{p.turn}")
def test_known_cards_are_never_dealt_and_pile_takes_stay_put(pos: Position) -> None:
    state = parse(pos.state)
    deals, fallback = _core.sample_deals(state, 1500, seed=3)
    assert fallback == [], "real games are explained by the rule"
    assert len(deals) == 1500
    known, held = known_cards(pos.state)
    for d in deals:
        simulated = [c for h in d["hands"].values() for c in h] + d["stock"]
        assert len(simulated) == len(set(simulated))
        for seat, hand in d["hands"].items():
            assert held.get(seat, set()) <= set(hand), "a pile-taken card left its taker"
            assert not (set(hand) - held.get(seat, set())) & known
        assert not set(d["stock"]) & known
        assert len(d["stock"]) == pos.stock_len
        # Every card is either known or dealt in the simulation, exactly once.
        assert len(known) + len(simulated) == 52
        assert known | set(simulated) == set(PACK)


def _enumerate_posterior(state: dict[str, Any]) -> Counter[tuple[str, ...]]:
    """Every consistent deal of the one opponent of a two-seat round whose only turn was a
    stock draw and a put-down, by enumeration: their dealt cards and their one stock card."""
    me = state["me"]
    (turn,) = state["turns"]
    opp = turn["seat"]
    assert opp != me and turn["draw"] == "stock" and state["first"] == opp
    discard = turn["discard"]
    unseen = [c for c in PACK if c not in {*state["hand"], state["upcard"], discard}]
    out: Counter[tuple[str, ...]] = Counter()

    def consistent(dealt: list[str], drawn: str) -> bool:
        if ref_score(dealt) >= 31:
            return False
        # The first turn of the round: may knock; the upcard may be taken.
        if ref_start(dealt, state["upcard"], True, False) != "draw":
            return False
        put, kept = ref_put_down(dealt, drawn, False)
        return put == discard and kept < 31

    def record(dealt: list[str], drawn: str) -> None:
        if consistent(dealt, drawn):
            now = [c for c in [*dealt, drawn] if c != discard]
            out[tuple(sorted(now))] += 1

    for dealt in itertools.combinations(unseen, 3):  # the discard was the card drawn
        record(list(dealt), discard)
    for pair in itertools.combinations(unseen, 2):  # the discard was dealt
        for drawn in unseen:
            if drawn not in pair:
                record([*pair, discard], drawn)
    return out


def test_posterior_matches_the_enumeration() -> None:
    state = {
        "seats": 2,
        "me": 1,
        "first": 0,
        "upcard": "5D",
        "hand": ["KS", "QH", "3C"],
        "turns": [{"seat": 0, "draw": "stock", "discard": "9S"}],
    }
    exact = _enumerate_posterior(state)
    total = sum(exact.values())
    n = 20_000
    deals, fallback = _core.sample_deals(parse(state), n, seed=11)
    assert fallback == []
    # Compare the distribution of the opponent's hand score (a sum over many hands).
    exact_by_score: Counter[float] = Counter()
    for hand, k in exact.items():
        exact_by_score[ref_score(hand)] += k
    sampled = Counter(ref_score(d["hands"][0]) for d in deals)
    assert set(sampled) <= set(exact_by_score)
    # Pool scores whose expected count is small, then a chi-square test.
    bins: list[tuple[float, float]] = []
    pending_e = pending_o = 0.0
    for s in sorted(exact_by_score):
        pending_e += n * exact_by_score[s] / total
        pending_o += sampled.get(s, 0)
        if pending_e >= 20:
            bins.append((pending_o, pending_e))
            pending_e = pending_o = 0.0
    if pending_e:
        o, e = bins.pop()
        bins.append((o + pending_o, e + pending_e))
    chi = sum((o - e) ** 2 / e for o, e in bins)
    dof = len(bins) - 1
    # The 0.999 quantile of chi-square, by the Wilson-Hilferty approximation.
    z = 3.09
    critical = dof * (1 - 2 / (9 * dof) + z * math.sqrt(2 / (9 * dof))) ** 3
    assert chi < critical, (chi, critical, dof)
    # And every sampled hand is one of the consistent hands.
    assert all(tuple(sorted(d["hands"][0])) in exact for d in deals[:2000])


def _exact_knock_now(hand: list[str], upcard: str, penalty: int = 2) -> tuple[float, float]:
    """Two seats, your first turn (you play first), you knock now: the opponent's dealt hand is
    uniform over the unseen cards (a dealt 31 would have ended the round), then they take the
    upcard or draw the stock's top card by the rule. P(safe) and E[lives lost], exactly."""
    unseen = [c for c in PACK if c not in {*hand, upcard}]
    mine = ref_score(hand)
    safe = lost = weight = 0.0
    for opp in itertools.combinations(unseen, 3):
        if ref_score(opp) >= 31:
            continue
        weight += 1
        if ref_start(opp, upcard, False, False) == "take":
            finals = [ref_put_down(opp, upcard, True)[1]]
        else:
            rest = [c for c in unseen if c not in opp]
            finals = [ref_put_down(opp, c, False)[1] for c in rest]
        for theirs in finals:
            w = 1 / len(finals)
            if theirs >= 31 or mine <= theirs:  # a 31 shown, or you lowest / tied lowest
                lost += w * (1 if theirs >= 31 else penalty)
            else:
                safe += w
    return safe / weight, lost / weight


def test_knock_now_agrees_with_the_exact_figure() -> None:
    hand, upcard = ["KH", "9H", "2C"], "6D"
    p, lives = _exact_knock_now(hand, upcard)
    state = {"seats": 2, "me": 0, "first": 0, "upcard": upcard, "hand": hand, "turns": []}
    a = advise(state, seed=5, deals=10_000, playouts=50_000, max_time=None)
    knock = a.option("knock")
    assert abs(knock.p_safe - p) <= 2 * knock.margin, (knock.p_safe, p)
    assert abs(knock.lives_lost - lives) <= 0.03, (knock.lives_lost, lives)
    assert a.deals == 10_000
    assert knock.margin == pytest.approx(1.96 * math.sqrt(knock.p_safe * (1 - knock.p_safe) / 1e4))


def test_the_sweep_reports_the_confirmation_run() -> None:
    gaps = []
    for pos in late_positions():
        if any(t.get("knock") for t in pos.state["turns"]):
            continue
        # Few playouts: the sweep's maximum over many thresholds is visibly biased upward.
        a = advise(pos.state, seed=2, deals=2_000, playouts=300)
        stock = len(PACK) - 3 * pos.state["seats"] - 1
        stock -= sum(t.get("draw") == "stock" for t in pos.state["turns"])
        stock -= (pos.state.get("pending") or {}).get("draw") == "stock"
        for o in a.options:
            if not o.swept:
                # No later knock: after a knock, or with the stock empty (rules.md).
                empty_after = stock - (o.option == "draw") == 0
                assert o.sweep is None and (o.option in ("knock", "decline") or empty_after)
                continue
            assert o.sweep is not None
            ks = o.sweep.knock_at
            assert np.isnan(ks[-1]), "the last policy is never knocking"
            assert np.all(np.diff(ks[:-1]) > 0)
            if o.knock_at is None:
                best_i = len(ks) - 1
            else:
                assert o.knock_at in set(ks[:-1].tolist())
                best_i = int(np.flatnonzero(ks == o.knock_at)[0])
            if o.option != "take":  # take's sweep row is the chosen put-down's
                assert o.sweep.p_safe[best_i] == pytest.approx(o.sweep.p_safe.max())
            gaps.append(o.sweep.p_safe.max() - o.p_safe)
    assert len(gaps) >= 12
    # The reported figure is a fresh run, not the sweep's own number...
    assert sum(g != 0 for g in gaps) >= len(gaps) // 2
    # ...and the sweep's maximum is biased upward while the confirmation is not.
    assert sum(gaps) / len(gaps) > 0


def test_same_seed_same_numbers_whatever_the_threads() -> None:
    pos = late_positions()[3]
    a1 = advise(pos.state, seed=9, deals=1_000, playouts=3_000, threads=1)
    a2 = advise(pos.state, seed=9, deals=1_000, playouts=3_000, threads=2)
    assert a1.to_dict() == a2.to_dict()
    a3 = advise(pos.state, seed=10, deals=1_000, playouts=3_000, threads=2)
    assert a3.to_dict() != a1.to_dict()


def test_ties_are_said_in_words() -> None:
    # With few deals the margin is wide: options close together are statistically tied.
    a = advise(EXAMPLE, seed=4, deals=30, playouts=3_000)
    assert a.tied, a.to_dict()
    assert "statistically tied" in a.reason
    for o in a.tied:
        assert a.best.p_safe - o.p_safe <= a.best.margin + 1e-12
    d = a.to_dict()
    assert d["tied"] == [o.option for o in a.tied]
    assert d["best"] == d["options"][0]["option"]
    # With many deals, the knock in the example is clearly best and not tied.
    b = advise(EXAMPLE, seed=1, deals=10_000, playouts=50_000, max_time=None)
    assert "statistically tied" not in b.reason
    assert b.best.describe() in b.reason.lower()
    assert pct(b.best.p_safe) in b.reason


def test_lives_lost_count_no_more_lives_than_you_hold() -> None:
    """A knock caught lowest costs two lives; on your last life it costs that one life (you are
    out either way), so the lives lost are then the share of rounds you lose a life in. With
    the county, a player on their last life has the county's stage still to lose: two."""

    def by_option(lives: list[int], **rules: Any) -> dict[str, Any]:
        # A weak hand (13): a knock with it is often caught lowest.
        state = dict(EXAMPLE, lives=lives, rules={"preset": "standard", **rules})
        state["hand"] = ["2H", "4C", "9S"]
        answer = advise(state, seed=3, deals=3_000, playouts=8_000, max_time=None)
        return {o["option"]: o for o in answer.to_dict()["options"]}

    def beyond_one(o: dict[str, Any]) -> float:
        return float(o["lives_lost"] - (1 - o["p_safe"]))

    plenty = by_option([3, 3, 2, 1])
    assert beyond_one(plenty["knock"]) > 0.01, plenty["knock"]  # caught knocks cost two
    last = by_option([1, 3, 2, 1])
    for o in last.values():
        assert abs(beyond_one(o)) <= 2e-4, o
    county = by_option([1, 3, 2, 1], county=True)
    assert beyond_one(county["knock"]) > 0.01, county["knock"]
    on_the_county = by_option([0, 3, 2, 1], county=True)
    for o in on_the_county.values():
        assert abs(beyond_one(o)) <= 2e-4, o
    # Where the game's table is too large to build (nine seats of five lives: no p_win), the
    # lives still bound the round's loss; without lives, a caught knock costs two.
    nine = {
        "rules": {"preset": "five-lives", "seats": 9},
        "seats": 9,
        "me": 0,
        "first": 0,
        "upcard": "JH",
        "hand": ["2H", "4C", "9S"],
        "turns": [],
    }
    for lives, capped in (([1] + [5] * 8, True), (None, False)):
        state = nine if lives is None else dict(nine, lives=lives)
        answer = advise(state, seed=3, deals=500, playouts=2_000, max_time=None).to_dict()
        knock = next(o for o in answer["options"] if o["option"] == "knock")
        assert "p_win" not in knock
        assert (abs(beyond_one(knock)) <= 2e-4) == capped, knock


def test_output_follows_oracle_md() -> None:
    # Without lives: the round's figures only.
    round_only = {k: v for k, v in EXAMPLE.items() if k != "lives"}
    d = advise(round_only, seed=1, deals=2_000, playouts=5_000).to_dict()
    assert list(d) == ["best", "tied", "reason", "deals", "playouts", "options", "warnings"]
    assert d["deals"] == 2_000 and d["playouts"] == 5_000
    by_name = {o["option"]: o for o in d["options"]}
    assert set(by_name) == {"knock", "draw", "take"}
    assert set(by_name["knock"]) == {"option", "p_safe", "margin", "lives_lost"}
    assert set(by_name["draw"]) == {"option", "p_safe", "margin", "lives_lost", "knock_at"}
    # With lives (the example has them): p_win and its margin per option, and best_game.
    d = advise(EXAMPLE, seed=1, deals=2_000, playouts=5_000).to_dict()
    assert list(d)[-1] == "best_game"
    by_name = {o["option"]: o for o in d["options"]}
    assert set(by_name["knock"]) == {
        "option",
        "p_safe",
        "margin",
        "lives_lost",
        "p_win",
        "p_win_margin",
    }
    # best_game: the highest p_win, unless the best shows the same figure (then the best).
    top = max(d["options"], key=lambda o: o["p_win"])
    if d["best_game"] != top["option"]:
        assert d["best_game"] == d["best"]
        assert top["p_win"] - by_name[d["best"]]["p_win"] < 0.0006
    assert by_name["take"]["card"] == "QC"
    assert by_name["take"]["discard"] in {"AH", "9H", "4H"}
    for o in d["options"]:
        p = o["p_safe"]
        assert 0 <= p <= 1
        assert o["margin"] == pytest.approx(1.96 * math.sqrt(p * (1 - p) / 2_000), abs=1e-4)
    assert isinstance(d["warnings"], list)
    json.dumps(d)


def test_pending_draw_options() -> None:
    state = dict(EXAMPLE, pending={"draw": "stock", "drew": "9C"})
    a = advise(state, seed=1, deals=1_000, playouts=2_000)
    assert {o.option for o in a.options} == {"discard:AH", "discard:9H", "discard:4H", "discard:9C"}
    assert all(o.swept for o in a.options)
    state = dict(EXAMPLE, pending={"draw": "pile"})
    a = advise(state, seed=1, deals=1_000, playouts=2_000)
    assert {o.option for o in a.options} == {"discard:AH", "discard:9H", "discard:4H"}


def test_a_game_gives_the_view_of_the_player_to_move() -> None:
    game = thirtyone.Game(thirtyone.Rules(seats=3), seed=4)
    seen: list[dict[str, Any]] = []

    def grab(event: thirtyone.Event) -> None:
        r = game.round
        if event.kind == "turn" and r is not None and not r.is_over and len(seen) < 3:
            seen.append(game.view())
            a = advise(game, seed=1, deals=200, playouts=500)
            assert a.options

    game.add_listener(grab)
    game.play_round()
    assert len(seen) == 3
    for s in seen:
        assert _core.check_state(parse(s))


BAD_STATES: list[tuple[Any, type[ThirtyOneError], str]] = [
    ("{not json", StateError, "not valid JSON"),
    ([1, 2], StateError, "JSON object"),
    (dict(EXAMPLE, hand=["AH", "9H", "ZZ"]), CardError, "hand[2]"),
    (dict(EXAMPLE, hand=["AH", "9H", "9H"]), CardError, "appears twice"),
    (dict(EXAMPLE, hand=["AH", "9H", "7S"]), StateError, "7S"),
    (dict(EXAMPLE, upcard="AH"), StateError, "AH"),
    (dict(EXAMPLE, seats=12), StateError, "seats"),
    (dict(EXAMPLE, me=4), StateError, "me"),
    (dict(EXAMPLE, rules={"preset": "standard", "bogus": 1}), RuleError, "bogus"),
    (dict(EXAMPLE, rules="nonsense"), RuleError, "nonsense"),
    (dict(EXAMPLE, colour="red"), StateError, "colour"),
    (dict(EXAMPLE, turns=EXAMPLE["turns"][1:]), StateError, "out of order"),
    (dict(EXAMPLE, turns=EXAMPLE["turns"][:-1]), StateError, "not your turn"),
    (
        dict(
            EXAMPLE,
            turns=[*EXAMPLE["turns"][:3], {"seat": 0, "knock": True}, {"seat": 1, "knock": True}],
        ),
        StateError,
        "second knock",
    ),
    (
        dict(
            EXAMPLE,
            turns=[
                *EXAMPLE["turns"][:3],
                {"seat": 0, "knock": True},
                *EXAMPLE["turns"][4:7],
                {"seat": 0, "draw": "stock", "drew": "8D", "discard": "8D"},
            ],
        ),
        StateError,
        "already over",
    ),
    (
        dict(
            EXAMPLE,
            turns=[
                *EXAMPLE["turns"][:3],
                {"seat": 0, "draw": "pile", "discard": "8S"},
                *EXAMPLE["turns"][4:],
            ],
        ),
        StateError,
        "does not match your own turns",
    ),
    (
        dict(
            EXAMPLE,
            turns=[
                *EXAMPLE["turns"][:3],
                {"seat": 0, "draw": "stock", "discard": "8S"},
                *EXAMPLE["turns"][4:],
            ],
        ),
        StateError,
        "drew",
    ),
    (
        dict(EXAMPLE, turns=[{"seat": 1, "draw": "pile", "discard": "7S"}, *EXAMPLE["turns"][1:]]),
        StateError,
        "straight back",
    ),
    (
        dict(
            EXAMPLE,
            turns=[
                *EXAMPLE["turns"][:2],
                {"seat": 3, "draw": "stock", "discard": "2S"},
                *EXAMPLE["turns"][3:],
            ],
        ),
        StateError,
        "seat 3",
    ),
]


@pytest.mark.parametrize(("state", "error", "words"), BAD_STATES)
def test_bad_states_are_refused_with_the_problem_named(
    state: Any, error: type[ThirtyOneError], words: str
) -> None:
    with pytest.raises(error) as e:
        advise(state if isinstance(state, str) else json.dumps(state), deals=10, playouts=10)
    assert words in str(e.value)
    assert isinstance(e.value, ValueError)


def test_rare_consistent_deals_do_not_hang() -> None:
    # A history the rule cannot produce: seat 1 knocks holding... nothing checkable; seat 1 took
    # a 2 and put down an ace, which the rule never does (an ace is worth more than a 2).
    state = {
        "seats": 2,
        "me": 1,
        "first": 0,
        "upcard": "2C",
        "hand": ["KS", "QH", "3D"],
        "turns": [{"seat": 0, "draw": "pile", "discard": "AC"}],
    }
    a = advise(state, seed=1, deals=500, playouts=1_000, max_time=2)
    assert any("seat 0" in w and "without the consistency test" in w for w in a.warnings)
    assert a.options


def test_value_helper_matches_pack() -> None:
    assert sum(value(c) for c in PACK) == 4 * (11 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 40)


def test_a_time_limit_gives_the_best_estimate_reached() -> None:
    a = advise(EXAMPLE, seed=3, deals=10_000, playouts=5_000_000, max_time=0.2)
    assert any("time limit" in w for w in a.warnings)
    assert 0 < a.playouts < 5_000_000
    # Each option's margin is over the deals it was played on: the playouts the time left it
    # (``a.playouts`` is the fewest any option had), at most the deals collected.
    for o in a.options:
        assert 0 <= o.p_safe <= 1

        def margin(n: int, p: float = o.p_safe) -> float:
            return 1.96 * math.sqrt(p * (1 - p) / n)

        assert margin(a.deals) - 1e-3 <= o.margin <= margin(min(a.deals, a.playouts)) + 1e-3


def test_a_target_margin_adds_deals_until_it_is_reached() -> None:
    a = advise(EXAMPLE, seed=3, deals=500, playouts=2_000, target_margin=0.01, max_time=None)
    assert a.deals > 500
    assert all(o.margin <= 0.01 for o in a.options), a.to_dict()
    assert not any("target margin" in w for w in a.warnings)
    with pytest.raises(SettingsError, match="target_margin"):
        advise(EXAMPLE, target_margin=0)


def test_under_gin_lives_the_advice_counts_letters() -> None:
    state = {**EXAMPLE, "rules": "gin-lives"}
    assert advise(state, seed=1, deals=200, playouts=500).unit == "letters"
    assert advise(EXAMPLE, seed=1, deals=200, playouts=500).unit == "lives"


def test_the_margin_of_lives_lost_is_measured() -> None:
    # With a knock penalty of 1 a round costs 0 or 1 life, and what it costs is exactly "not
    # safe": the margin of the mean loss is then the margin of the safe share (same deals).
    state = dict(EXAMPLE, rules={"preset": "standard", "knock_penalty": 1})
    a = advise(state, deals=800, playouts=3000, seed=3, max_time=None)
    for o in a.options:
        assert o.lives_lost == pytest.approx(1 - o.p_safe, abs=1e-12)
        assert o.lives_lost_margin == pytest.approx(o.margin, rel=1e-9, abs=1e-12)
    # With 2 for a caught knocker, a knock costs 0, 1 (somebody shows 31) or 2 (caught): the
    # shares of 1 and 2 follow from p_safe and the mean, and so does the spread.
    state = dict(EXAMPLE, rules={"preset": "standard", "knock_penalty": 2})
    a = advise(state, deals=800, playouts=3000, seed=3, max_time=None)
    knock = a.option("knock")
    two = knock.lives_lost - (1 - knock.p_safe)
    one = (1 - knock.p_safe) - two
    assert one >= -1e-12 and two > 0
    var = one + 4 * two - knock.lives_lost**2
    assert knock.lives_lost_margin == pytest.approx(1.96 * math.sqrt(var / a.deals), rel=1e-9)
    assert knock.lives_lost_margin > knock.margin


def _stock_drawn_down(draws: int) -> dict[str, Any]:
    """A standard four-seat round in which ``draws`` stock draws were each put straight back
    (seat 1 first), advised to the seat to move next (its own draws recorded with the card)."""
    deck = [r + s for s in "CDHS" for r in "A23456789TJQK"]
    hand, upcard = ["AH", "9H", "4H"], "7S"
    pool = [c for c in deck if c not in hand and c != upcard]
    me = (1 + draws) % 4
    turns: list[dict[str, Any]] = []
    for i in range(draws):
        seat, card = (1 + i) % 4, pool[i]
        turns.append({"seat": seat, "draw": "stock", "discard": card})
        if seat == me:
            turns[-1]["drew"] = card
    return {"seats": 4, "me": me, "first": 1, "upcard": upcard, "hand": hand, "turns": turns}


def test_no_later_knock_is_offered_once_the_stock_is_empty() -> None:
    # rules.md: once the stock has run out, nobody may knock any more. An option after which
    # the stock is empty has no later knock to sweep, and the advice says none.
    empty = advise(_stock_drawn_down(39), seed=1, deals=300, playouts=600)
    assert {o.option for o in empty.options} == {"take", "decline"}
    for o in empty.options:
        assert not o.swept and o.sweep is None and o.knock_at is None, o.option
    assert "knock" not in empty.reason.lower()
    # One card left: drawing it leaves the stock empty (no sweep); a take leaves it to the
    # others, who may all take from the pile before your next turn (a knock stays possible).
    last = advise(_stock_drawn_down(38), seed=1, deals=300, playouts=600)
    by = {o.option: o for o in last.options}
    assert not by["draw"].swept and by["draw"].knock_at is None
    assert by["take"].swept and by["take"].sweep is not None


#: The example state as its JSON text.
CANCEL_STATE = json.dumps(EXAMPLE)


def test_a_cancel_stops_a_query_from_another_thread() -> None:
    """``advise(..., cancel=c)`` raises Cancelled (no ThirtyOneError: a review does not take it
    for bad input) once ``c.cancel()`` is called, and at once when it already was."""
    cancel = thirtyone.Cancel()
    assert not cancel.cancelled
    started = threading.Timer(0.2, cancel.cancel)
    started.start()
    with pytest.raises(thirtyone.Cancelled) as raised:
        thirtyone.advise(
            CANCEL_STATE, deals=1_000_000, playouts=10_000_000, max_time=None, cancel=cancel
        )
    assert cancel.cancelled and not isinstance(raised.value, thirtyone.ThirtyOneError)
    with pytest.raises(thirtyone.Cancelled):
        thirtyone.advise(CANCEL_STATE, deals=100, playouts=100, cancel=cancel)
    fresh = thirtyone.advise(CANCEL_STATE, deals=100, playouts=100, cancel=thirtyone.Cancel())
    assert fresh.deals <= 100
