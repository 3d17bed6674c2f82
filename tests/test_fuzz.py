"""Bad input never crashes: mutated states given to the parser and the Oracle either give an
answer or raise a ThirtyOneError naming the problem — never another exception, never a Rust
panic, never a hang. Any case that ever failed is kept below as an explicit example.

The CI run is small; ``THIRTYONE_FUZZ_EXAMPLES=10000 pytest tests/test_fuzz.py`` runs longer.
"""

from __future__ import annotations

import contextlib
import copy
import json
import math
import os
from typing import Any

import pytest
import thirtyone
from helpers import most_attempts
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from positions import positions
from thirtyone import _core
from thirtyone.errors import ThirtyOneError
from thirtyone.oracle.state import parse

EXAMPLES = int(os.environ.get("THIRTYONE_FUZZ_EXAMPLES", "150"))

BASES: list[dict[str, Any]] = []
for seed, seats in [(1, 2), (2, 4), (3, 6), (4, 9)]:
    ps = positions(seed, seats)
    BASES += [ps[0].state, ps[len(ps) // 2].state, ps[-1].state]
BASES.append(dict(BASES[4], pending={"draw": "pile"}))

CARDISH = st.one_of(
    st.sampled_from(thirtyone.PACK),
    st.sampled_from(["10D", "K♠", "ah", "", "ZZ", "1H", "AHH", "  QS ", "T", "🂡"]),
    st.text(max_size=4),
    st.integers(-3, 60),
    st.none(),
)
VALUES = st.one_of(
    CARDISH,
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.lists(CARDISH, max_size=4),
    st.dictionaries(st.sampled_from(["seat", "draw", "discard", "knock", "x"]), CARDISH),
    st.integers(-(2**70), 2**70),
)


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*prefix, i))
    return out


@st.composite
def mutated_states(draw: st.DrawFn) -> Any:
    state = copy.deepcopy(draw(st.sampled_from(BASES)))
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(state) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent: Any = state
        for key in path[:-1]:
            parent = parent[key]
        last = path[-1]
        kind = draw(st.sampled_from(["replace", "delete", "duplicate", "swap", "add"]))
        if kind == "replace":
            parent[last] = draw(VALUES)
        elif kind == "delete":
            del parent[last]
        elif kind == "duplicate" and isinstance(parent, list):
            parent.insert(last, copy.deepcopy(parent[last]))
        elif kind == "swap" and isinstance(parent, list) and len(parent) > 1:
            j = draw(st.integers(0, len(parent) - 1))
            parent[last], parent[j] = parent[j], parent[last]
        elif kind == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["drew", "shows", "pending", "knock", "colour"]))] = draw(
                VALUES
            )
        # Mutations can leave the state not a dict at all: that is input too.
    return state


def _check(state: Any) -> None:
    try:
        advice = thirtyone.advise(state, deals=40, playouts=60, seed=1, threads=2, max_time=2)
    except ThirtyOneError as e:
        assert str(e), "an error must say what is wrong"
        return
    d = advice.to_dict()
    json.dumps(d)
    assert d["options"]
    for o in d["options"]:
        assert 0 <= o["p_safe"] <= 1 and o["lives_lost"] >= 0
        assert math.isfinite(o["margin"])


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(mutated_states())
@example({"seats": 2, "me": 0, "first": 0, "upcard": "AH", "hand": ["AH", "KH", "QH"], "turns": []})
@example({"seats": 2**70, "me": 0, "first": 0, "upcard": "AH", "hand": [], "turns": []})
@example({**BASES[1], "turns": [{"seat": -1, "draw": "stock", "discard": "AH"}]})
def test_mutated_states_never_crash(state: Any) -> None:
    _check(state)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.one_of(st.text(max_size=200), st.binary(max_size=200)))
@example("{")
@example("null")
@example('{"seats": 4}')
@example("[]")
def test_garbage_text_never_crashes(text: str | bytes) -> None:
    _check(text)


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["knock", "draw", "take", "decline", "put", "bogus"]),
            st.one_of(st.none(), CARDISH.filter(lambda c: isinstance(c, str))),
        ),
        max_size=60,
    ),
    st.integers(2, 9),
    st.randoms(use_true_random=False),
)
def test_random_actions_on_a_round_never_crash(
    actions: list[tuple[str, str | None]], seats: int, rnd: Any
) -> None:
    deck = list(thirtyone.PACK)
    rnd.shuffle(deck)
    r = _core.Round(None, seats, 0, deck)
    for action, card in actions:
        with contextlib.suppress(ThirtyOneError):
            r.apply(_core.Action(action, card))
        # The pack stays whole whatever was tried.
        held = [c for s in range(seats) for c in r.hand(s)]
        assert len(set(held)) == 3 * seats
        assert r.top not in held


def test_states_where_consistent_deals_are_rare_return_within_their_work() -> None:
    # Late positions of large tables, asked for many deals with a short time limit and without
    # one: an answer, its deals within their bound of attempts (counted, not timed).
    for pos in positions(8, 9)[-3:]:
        a = thirtyone.advise(pos.state, deals=10_000, playouts=500, seed=2, max_time=0.5)
        assert a.options
        answer = _core.advise(parse(pos.state), deals=10_000, playouts=500, seed=2)
        assert answer.deals == 10_000
        assert answer.attempts <= most_attempts(10_000, 8), answer.attempts


@pytest.mark.parametrize("state", BASES[:3])
def test_the_bases_are_valid(state: dict[str, Any]) -> None:
    assert _core.check_state(parse(state)) is not None
