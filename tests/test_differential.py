"""Differential tests: the Rust Oracle against the independent pure-Python reference.

Positions come from real games (every seat played by the table's rule, so consistent deals
exist): 2 to 9 seats, early / middle / late in the round, final turns after a knock, pending
draws (the player has drawn and chooses the put-down), and four tables: ``standard`` and rule
objects with ``knock_penalty`` 1, ``knocker_tie`` ``others_pay`` and ``three_of_a_kind`` 30.5.

For every option the Rust Oracle reports (at reduced size) the reference plays the same option
at the same ``knock_at`` (the Rust option's, plus thresholds drawn at random from its sweep
array) and the two ``p_safe`` and ``lives_lost`` must agree within 4 combined standard errors.

Which ``n`` each side's error uses: both sides are run with as many playouts as consistent deals,
and playout ``i`` is played on deal ``i`` (both implementations map playout ``i`` to deal
``i mod deals``), so each side's outcomes are independent draws of the true outcome distribution
(a deal from the posterior, then a fresh stock order) and the binomial variance ``p (1 - p) / n``
with ``n`` = playouts = deals is exact. (With more playouts than deals the outcomes of one deal
are correlated and the variance lies between ``p (1 - p) / playouts`` and ``p (1 - p) / deals``;
``n`` = deals is the conservative choice, which is what ``oracle.md``'s margin uses.) The two
proportions are compared with the pooled two-sample z (the variance under the hypothesis that they
are equal); lives lost take the values 0, 1 or 2 only, so their variance follows from ``p_safe``
and the mean: ``E[L^2] = 3 mean - 2 (1 - p_safe)``.

The Rust figure at its own ``knock_at`` is the confirmation run's; the sweep's figure at a
threshold chosen independently of the sweep's values is unbiased too.

Both implementations must also sample the same posterior: for every opponent, the scores of its
hand over the reference's consistent deals and over ``_core.sample_deals`` are compared with a
two-sample chi-square test.

``THIRTYONE_DIFFERENTIAL=big`` runs a few hundred positions (several minutes, in two processes)
and prints the summary; ``THIRTYONE_DIFFERENTIAL_OUT=path.json`` also writes it as JSON.
"""

from __future__ import annotations

import json
import math
import os
import random
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

import pytest
import thirtyone
from thirtyone import _core
from thirtyone.game.rules import Rules
from thirtyone.game.seats import TABLE_KNOCK_AT
from thirtyone.oracle.state import parse
from thirtyone.statistics import chi2_two_sample, ks_uniform

try:
    import reference as ref
except ModuleNotFoundError:  # tests/ made a package
    from tests import reference as ref  # type: ignore[no-redef]

from reference.playout import play_out
from reference.sampler import Attempts, OutOfAttempts, sample_deals_from

BIG = os.environ.get("THIRTYONE_DIFFERENTIAL", "") == "big"

PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "knock_penalty_1": {"knock_penalty": 1},
    "others_pay": {"knocker_tie": "others_pay"},
    "trips_30.5": {"three_of_a_kind": "30.5"},
}
CATEGORIES = ("early", "middle", "late", "after_knock", "pending")
#: The rule options the reference models; every other round rule must be at the standard value.
MODELED = ("knock_penalty", "knocker_tie", "three_of_a_kind", "three_aces", "runs")
Z_BOUND = 4.0
#: P(|Z| > 4) for a standard normal.
TAIL_4 = math.erfc(4 / math.sqrt(2))


@dataclass(frozen=True)
class Size:
    ref: int  # reference deals = playouts (at most)
    min_ref: int  # fewer affordable than this: the position is not used
    rust: int  # Rust deals = playouts
    posterior: int  # Rust deals sampled for the posterior comparison
    other_thresholds: int  # sweep thresholds compared besides the Rust option's own
    budget: int  # the reference's proposal attempts for a position's deals (its work)


# The reference's rejection sampler takes tens of proposal attempts per deal in some positions
# but thousands in others, most with 8 or 9 seats (its distinctness check redraws every
# opponent), so costly positions get fewer deals. Its cost is counted in attempts, not seconds,
# so that the positions chosen and their deals are the same on every machine, however busy.
# It ran about 60,000 attempts per CPU second when this was written: the CI budget is about 3 s
# of sampling per position, the large one 12 s.
CI = Size(ref=150, min_ref=40, rust=2000, posterior=2000, other_thresholds=1, budget=180_000)
LARGE = Size(ref=300, min_ref=60, rust=4000, posterior=4000, other_thresholds=2, budget=720_000)
#: Deals sampled to estimate a position's attempts per deal.
PROBE = 6
#: A position's deals may take this many times its budget (the probe's estimate is rough)
#: before the position is skipped.
OVERRUN = 4


# -- positions from real games ----------------------------------------------------------------


@dataclass
class Case:
    name: str
    seats: int
    preset: str
    category: str
    state: dict[str, Any]  # the Oracle's input (Game.view())
    ref_state: dict[str, Any]  # the same for the reference
    hands: dict[int, list[str]]  # the true hands (round seats)
    seed: int
    ref_deals: int  # the reference's deals (= playouts) for this position


def reference_state(state: dict[str, Any]) -> dict[str, Any] | None:
    """The state with its rules written for the reference (None: a rule it does not model)."""
    rules = Rules.from_spec(state["rules"])
    standard = Rules.standard().round_rules()
    for key, value in rules.round_rules().items():
        if key not in MODELED and value != standard[key]:
            return None
    out = dict(state)
    out["rules"] = {"preset": "standard", **{k: getattr(rules, k) for k in MODELED}}
    return out


class _Recorder(thirtyone.TablePolicy):
    """A seat that plays the table's rule step by step and records every position it sees: the
    start of each turn and, after a draw or a take, the pending put-down."""

    def __init__(self, sink: Callable[[bool], None]) -> None:
        super().__init__(TABLE_KNOCK_AT)
        self.sink = sink

    def decide(self, view: thirtyone.SeatView) -> thirtyone.Action:
        self.sink(view.drawn is not None)
        return super().decide(view)


def round_positions(seats: int, preset: str, seed: int) -> list[tuple[str, dict[str, Any], dict]]:
    """(category, state, true hands) of every position of a game's first round."""
    rules = Rules.from_spec({"preset": "standard", **PRESETS[preset], "seats": seats})
    found: list[tuple[int, bool, dict[str, Any], dict[int, list[str]], bool]] = []

    def sink(pending: bool) -> None:
        r = game.round
        assert r is not None
        found.append(
            (
                r.turns_played,
                pending,
                game.view(),
                {i: r.hand(i) for i in range(r.seats)},
                r.knocker is not None,
            )
        )

    game = thirtyone.Game(rules, [_Recorder(sink) for _ in range(seats)], seed=seed)
    game.play_round()
    length = max((t for t, *_ in found), default=0) + 1
    out = []
    for t, pending, state, hands, knocked in found:
        if pending:
            category = "pending"
        elif knocked:
            category = "after_knock"
        elif t < length / 3:
            category = "early"
        elif t < 2 * length / 3:
            category = "middle"
        else:
            category = "late"
        out.append((category, state, hands))
    return out


def affordable(ref_state: dict[str, Any], size: Size) -> int:
    """How many deals (at most ``size.ref``) the reference can sample for this position within
    its budget of attempts, estimated from a few deals (0: fewer than ``size.min_ref``)."""
    pos = ref.parse_state(ref_state)
    work = Attempts(limit=size.budget * PROBE // size.min_ref)
    try:
        sample_deals_from(pos, PROBE, random.Random("probe"), work=work)
    except ref.NoConsistentDeal:  # OutOfAttempts included: too costly
        return 0
    n = min(size.ref, size.budget * PROBE // work.spent)
    return n if n >= size.min_ref else 0


def pick_case(
    seats: int, preset: str, category: str, index: int, size: Size, tries: int = 30
) -> Case | None:
    """A position of that kind from the first seeded game that has an affordable one."""
    for attempt in range(tries):
        # The preset is part of the seed: the same game under two tables that play alike
        # would otherwise give the same position twice.
        seed = 10_000 * seats + 1000 * list(PRESETS).index(preset) + 100 * index + attempt
        rng = random.Random(f"pick:{seats}:{preset}:{category}:{index}:{attempt}")
        candidates = [p for p in round_positions(seats, preset, seed) if p[0] == category]
        rng.shuffle(candidates)
        for _, state, hands in candidates[:3]:
            ref_state = reference_state(state)
            n = 0 if ref_state is None else affordable(ref_state, size)
            if ref_state is None or n == 0:
                continue
            name = f"{seats}p-{preset}-{category}-{index}"
            return Case(name, seats, preset, category, state, ref_state, hands, seed, n)
    return None


# -- comparisons ----------------------------------------------------------------------------------


def z_proportion(p1: float, n1: int, p2: float, n2: int) -> float:
    pooled = (p1 * n1 + p2 * n2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    diff = p1 - p2
    if se == 0:
        return 0.0 if abs(diff) < 1e-12 else math.copysign(math.inf, diff)
    return diff / se


def z_lives(p1: float, m1: float, n1: int, p2: float, m2: float, n2: int) -> float:
    """Two means of a loss in {0, 1, 2} (variance from p_safe and the mean), pooled."""
    p = (p1 * n1 + p2 * n2) / (n1 + n2)
    m = (m1 * n1 + m2 * n2) / (n1 + n2)
    var = max(0.0, 3 * m - 2 * (1 - p) - m * m)
    se = math.sqrt(var * (1 / n1 + 1 / n2))
    diff = m1 - m2
    if se == 0:
        return 0.0 if abs(diff) < 1e-12 else math.copysign(math.inf, diff)
    return diff / se


@dataclass
class Comparison:
    case: str
    option: str
    knock_at: float | None
    source: str  # "confirmed" (the Rust option's figures), "sweep" or "single" (not swept)
    rust_p: float
    ref_p: float
    rust_lives: float
    ref_lives: float
    n_rust: int
    n_ref: int
    z_p: float
    z_lives: float


@dataclass
class PosteriorTest:
    case: str
    seat: int
    statistic: float
    df: int
    p_value: float


@dataclass
class CaseResult:
    case: Case
    comparisons: list[Comparison] = field(default_factory=list)
    posterior: list[PosteriorTest] = field(default_factory=list)
    skipped: str | None = None
    ref_attempts: int = 0  # the reference's proposal attempts for the deals
    seconds: float = 0.0  # reported by the big run, never asserted


def reference_figures(
    pos: Any, deals: list[Any], option: str, put_down: str | None, knock_at: float | None, seed: int
) -> tuple[float, float]:
    """p_safe and lives_lost exactly as ``reference.evaluate`` computes them (same seeds), over
    deals already sampled: playout ``i`` on deal ``i`` with a fresh shuffled stock."""
    rng = random.Random(f"playouts:{seed}")
    safe = lives = 0
    for deal in deals:
        stock = list(deal.rest)
        rng.shuffle(stock)
        lost = play_out(pos, deal, stock, option, put_down, knock_at)[pos.me]
        safe += lost == 0
        lives += lost
    return safe / len(deals), lives / len(deals)


def compare(case: Case, size: Size, threads: int | None = None) -> CaseResult:
    start = time.perf_counter()
    result = CaseResult(case)
    seed = case.seed
    advice = thirtyone.advise(
        case.state, deals=size.rust, playouts=size.rust, seed=seed, threads=threads, max_time=None
    )
    if advice.warnings:
        result.skipped = "; ".join(advice.warnings)
        return result
    n_rust = min(advice.deals, size.rust)
    pos = ref.parse_state(case.ref_state)
    work = Attempts(limit=OVERRUN * size.budget)
    try:
        deals = sample_deals_from(pos, case.ref_deals, random.Random(f"deals:{seed}"), work=work)
    except OutOfAttempts:
        result.skipped = f"the reference's deals took more than {work.limit} attempts"
        return result
    result.ref_attempts = work.spent
    pick = random.Random(f"thresholds:{seed}")
    for o in advice.options:
        if o.option == "decline":  # the reference does not evaluate declining (README)
            continue
        put = o.discard if o.option == "take" else None
        jobs = [(o.knock_at, "confirmed" if o.swept else "single", o.p_safe, o.lives_lost)]
        if o.sweep is not None:
            ks = o.sweep.knock_at
            for i in pick.sample(range(len(ks)), min(size.other_thresholds, len(ks))):
                k = None if math.isnan(ks[i]) else float(ks[i])
                jobs.append((k, "sweep", float(o.sweep.p_safe[i]), float(o.sweep.lives_lost[i])))
        for knock_at, source, rust_p, rust_lives in jobs:
            ref_p, ref_lives = reference_figures(pos, deals, o.option, put, knock_at, seed)
            result.comparisons.append(
                Comparison(
                    case=case.name,
                    option=o.option if put is None else f"take {o.card} put {put}",
                    knock_at=knock_at,
                    source=source,
                    rust_p=rust_p,
                    ref_p=ref_p,
                    rust_lives=rust_lives,
                    ref_lives=ref_lives,
                    n_rust=n_rust,
                    n_ref=len(deals),
                    z_p=z_proportion(rust_p, n_rust, ref_p, len(deals)),
                    z_lives=z_lives(rust_p, rust_lives, n_rust, ref_p, ref_lives, len(deals)),
                )
            )
    # The posterior: every opponent's score over both samplers' consistent deals.
    rules = Rules.from_spec(case.state["rules"]).round_rules()
    rust_deals, fallback = _core.sample_deals(parse(case.state), size.posterior, seed + 1)
    assert not fallback, f"{case.name}: the core found no deal explaining seats {fallback}"
    for seat in pos.opponents:
        ours = [_core.score(d["hands"][seat], rules) for d in rust_deals]
        theirs = [ref.score(d.hands[seat], pos.rules) for d in deals]
        stat, df, p = chi2_two_sample(ours, theirs)
        result.posterior.append(PosteriorTest(case.name, seat, stat, df, p))
    result.seconds = time.perf_counter() - start
    return result


def _pick_and_compare(args: tuple[int, str, str, int, Size]) -> CaseResult | None:
    seats, preset, category, index, size = args
    case = pick_case(seats, preset, category, index, size, tries=10)
    return None if case is None else compare(case, size, threads=1)


# -- the CI-sized run ----------------------------------------------------------------------------

#: (seats, preset, category): every seat count, every category, every table.
CI_PLAN = [
    (2, "standard", "late"),
    (3, "knock_penalty_1", "after_knock"),
    (4, "standard", "pending"),
    (5, "others_pay", "middle"),
    (6, "trips_30.5", "early"),
    (7, "standard", "after_knock"),
    (8, "knock_penalty_1", "early"),
    (9, "standard", "early"),
]


@pytest.fixture(scope="module")
def ci_results() -> list[CaseResult]:
    results = []
    for seats, preset, category in CI_PLAN:
        case = pick_case(seats, preset, category, 0, CI)
        assert case is not None, f"no affordable {seats}-seat {preset} {category} position"
        results.append(compare(case, CI))
    return results


def _outside(results: list[CaseResult]) -> list[str]:
    bad = []
    for r in results:
        for c in r.comparisons:
            for what, z, a, b in (
                ("p_safe", c.z_p, c.rust_p, c.ref_p),
                ("lives_lost", c.z_lives, c.rust_lives, c.ref_lives),
            ):
                if abs(z) > Z_BOUND:
                    bad.append(
                        f"{c.case} {c.option} knock_at={c.knock_at} ({c.source}) {what}: "
                        f"Rust {a:.4f} (n={c.n_rust}), reference {b:.4f} (n={c.n_ref}), z={z:+.1f}"
                    )
    return bad


def test_positions_cover_every_kind(ci_results: list[CaseResult]) -> None:
    cases = [r.case for r in ci_results]
    assert {c.seats for c in cases} == set(range(2, 10))
    assert {c.category for c in cases} == set(CATEGORIES)
    assert {c.preset for c in cases} == set(PRESETS)
    assert all(r.skipped is None for r in ci_results), [r.skipped for r in ci_results]
    pending = next(c for c in cases if c.category == "pending")
    assert "pending" in pending.state
    knocked = next(c for c in cases if c.category == "after_knock")
    assert any(t.get("knock") for t in knocked.state["turns"])
    options = {c.option.split(" ")[0].split(":")[0] for r in ci_results for c in r.comparisons}
    assert {"knock", "draw", "take", "discard"} <= options
    assert any(c.source == "sweep" for r in ci_results for c in r.comparisons)


def test_rust_oracle_agrees_with_the_reference(ci_results: list[CaseResult]) -> None:
    assert sum(len(r.comparisons) for r in ci_results) >= 30
    assert _outside(ci_results) == []


def test_both_sample_the_same_posterior(ci_results: list[CaseResult]) -> None:
    tests = [t for r in ci_results for t in r.posterior]
    assert len(tests) >= 30
    low = [t for t in tests if t.p_value < 1e-4]
    assert low == [], low


def test_the_reference_figures_are_those_of_reference_evaluate(
    ci_results: list[CaseResult],
) -> None:
    """The comparison runs the reference's own pieces over deals sampled once per position;
    that must be exactly ``reference.evaluate`` at the same seed."""
    case = ci_results[0].case
    c = next(c for c in ci_results[0].comparisons if c.option == "draw")
    n = case.ref_deals
    direct = ref.evaluate(
        case.ref_state, "draw", knock_at=c.knock_at, deals=n, playouts=n, seed=case.seed
    )
    assert direct["p_safe"] == c.ref_p and direct["lives_lost"] == c.ref_lives


def test_the_true_hands_hold_the_known_cards(ci_results: list[CaseResult]) -> None:
    """A check of the positions themselves: the cards the reference places in an opponent's
    hand (taken from the pile) are in its true hand."""
    for r in ci_results:
        pos = ref.parse_state(r.case.ref_state)
        for seat in pos.opponents:
            assert set(pos.known_held[seat]) <= set(r.case.hands[seat])


def test_the_positions_do_not_depend_on_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Which positions are used, and how many reference deals each gets, follows from the seeds
    and the reference's attempts alone: with every clock running a thousand times faster (a
    machine a thousand times slower, or a busy one) the same position is picked."""
    quick = pick_case(2, "standard", "late", 0, CI)
    assert quick is not None
    for name in ("perf_counter", "monotonic", "time", "process_time"):
        real = getattr(time, name)
        start = real()
        monkeypatch.setattr(
            time, name, lambda real=real, start=start: start + 1000 * (real() - start)
        )
    slow = pick_case(2, "standard", "late", 0, CI)
    assert slow is not None
    assert (slow.name, slow.seed, slow.ref_deals, slow.state) == (
        quick.name,
        quick.seed,
        quick.ref_deals,
        quick.state,
    )


# -- the big run ------------------------------------------------------------------------------


def summarize(results: list[CaseResult]) -> dict[str, Any]:
    done = [r for r in results if r.skipped is None]
    comps = [c for r in done for c in r.comparisons]
    zs = [(c, "p_safe", c.z_p) for c in comps] + [(c, "lives_lost", c.z_lives) for c in comps]
    n = len(zs)
    finite = [z for _, _, z in zs if math.isfinite(z)]

    def beyond(k: float) -> int:
        return sum(1 for _, _, z in zs if abs(z) > k)

    # Comparisons within a position share its deals, so they are not independent: the bias
    # check averages z per position first, then over positions (which are independent).
    by_source: dict[str, dict[str, float]] = {}
    for source in ("confirmed", "sweep", "single"):
        means = []
        for r in done:
            zs_r = [c.z_p for c in r.comparisons if c.source == source and math.isfinite(c.z_p)]
            if zs_r:
                means.append(sum(zs_r) / len(zs_r))
        if len(means) > 1:
            m = sum(means) / len(means)
            sd = math.sqrt(sum((x - m) ** 2 for x in means) / (len(means) - 1))
            by_source[source] = {
                "positions": len(means),
                "mean_z_p_safe": m,
                "se": sd / math.sqrt(len(means)),
            }
    posts = [t for r in done for t in r.posterior]
    pvals = [t.p_value for t in posts]
    return {
        "positions": len(done),
        "skipped": [(r.case.name, r.skipped) for r in results if r.skipped],
        "by_seats": dict(sorted(Counter(r.case.seats for r in done).items())),
        "by_category": dict(Counter(r.case.category for r in done)),
        "by_preset": dict(Counter(r.case.preset for r in done)),
        "comparisons": n,
        "outside_4se": beyond(4.0),
        "expected_outside_4se": n * TAIL_4,
        "outside_3se": beyond(3.0),
        "expected_outside_3se": n * math.erfc(3 / math.sqrt(2)),
        "outside_2se": beyond(2.0),
        "expected_outside_2se": n * math.erfc(2 / math.sqrt(2)),
        "mean_z": sum(finite) / len(finite) if finite else 0.0,
        "degenerate": sum(1 for c in comps if c.rust_p == c.ref_p and c.rust_p in (0.0, 1.0)),
        "by_source": by_source,
        "worst": sorted(
            (
                {
                    "case": c.case,
                    "option": c.option,
                    "knock_at": c.knock_at,
                    "source": c.source,
                    "what": what,
                    "rust": c.rust_p if what == "p_safe" else c.rust_lives,
                    "reference": c.ref_p if what == "p_safe" else c.ref_lives,
                    "z": z,
                }
                for c, what, z in zs
            ),
            key=lambda d: -abs(d["z"]),
        )[:10],
        "posterior_tests": len(posts),
        "posterior_p_below_0.01": sum(p < 0.01 for p in pvals),
        "posterior_p_below_0.001": sum(p < 0.001 for p in pvals),
        "posterior_min_p": min(pvals) if pvals else None,
        "posterior_pvalues_ks_uniform_p": ks_uniform(pvals)[1] if pvals else None,
        "reference_attempts": sum(r.ref_attempts for r in results),
        "seconds": sum(r.seconds for r in results),
    }


def big_plan(per_cell: int) -> list[tuple[int, str, str, int]]:
    return [
        (seats, preset, category, index)
        for seats in range(2, 10)
        for preset in PRESETS
        for category in CATEGORIES
        for index in range(per_cell)
    ]


@pytest.mark.skipif(not BIG, reason="THIRTYONE_DIFFERENTIAL=big runs a few hundred positions")
def test_big_differential_run() -> None:
    per_cell = int(os.environ.get("THIRTYONE_DIFFERENTIAL_PER_CELL", "2"))
    workers = int(os.environ.get("THIRTYONE_DIFFERENTIAL_WORKERS", "2"))
    plan = [(*cell, LARGE) for cell in big_plan(per_cell)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        found = list(pool.map(_pick_and_compare, plan))
    results = [r for r in found if r is not None]
    summary = summarize(results)
    summary["no_affordable_position"] = [
        f"{s}p-{p}-{c}-{i}" for (s, p, c, i, _), r in zip(plan, found, strict=True) if r is None
    ]
    summary["planned"] = len(big_plan(per_cell))
    summary["size"] = asdict(LARGE)
    text = json.dumps(summary, indent=1, default=str)
    print(text)
    out = os.environ.get("THIRTYONE_DIFFERENTIAL_OUT")
    if out:
        with open(out, "w") as f:
            f.write(text + "\n")
        with open(out + ".comparisons.jsonl", "w") as f:
            for r in results:
                for c in r.comparisons:
                    f.write(json.dumps(asdict(c)) + "\n")
                for t in r.posterior:
                    f.write(json.dumps({"posterior": asdict(t)}) + "\n")
    # Chance alone puts about n * 6.3e-5 comparisons beyond 4 standard errors.
    expected = summary["expected_outside_4se"]
    assert summary["outside_4se"] <= expected + 3 * math.sqrt(expected) + 2, summary["worst"]
    assert summary["posterior_p_below_0.001"] <= 0.001 * summary["posterior_tests"] + 3
