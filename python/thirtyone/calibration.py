"""Calibration of the Oracle against real play.

Whole games are played with the game loop, every seat by the table's rule, except that at one
turn per round, chosen at random before the round is dealt (so the choice cannot depend on how
the round will go), the seat to move asks the Oracle, takes its best option and from then on
plays exactly the policy the Oracle simulated for it: the table's rule, knocking at the Oracle's
``knock_at`` (never if null). Prediction and outcome then refer to the same play, so among the
decisions predicted ``p_safe = p`` a share ``p`` should come through without losing a life.

For each decision the predicted ``p_safe`` and ``lives_lost`` of the option taken are recorded
with what happened (no life lost this round? lives lost, the round's nominal loss: the Oracle
does not know about washes). :func:`reliability` bins the predictions; :func:`rank_uniformity`
is the simulation-based check of the inference: the true hidden hands are known, so the rank of
the true score of one opponent's hand among the scores of the consistent deals the core samples
must be uniform.

``thirtyone calibrate`` and ``benches/calibrate.py`` run :func:`calibrate`.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from thirtyone import _core
from thirtyone.game import Event, Game, Turn
from thirtyone.oracle import Advice, OptionAdvice
from thirtyone.oracle import advise as oracle_advise
from thirtyone.players import TABLE_KNOCK_AT
from thirtyone.rules import Rules
from thirtyone.state import parse

#: A knock threshold no hand reaches: "never knock" for ``play_by_rule``.
NEVER_KNOCK = 100.0


class Advisor(Protocol):
    """What the calibration calls to ask the Oracle (``thirtyone.advise`` or a test double)."""

    def __call__(
        self,
        state: Mapping[str, Any],
        *,
        deals: int,
        playouts: int,
        seed: int | None,
        threads: int | None,
        max_time: float | None,
    ) -> Advice: ...


def oracle_advisor(
    state: Mapping[str, Any],
    *,
    deals: int,
    playouts: int,
    seed: int | None,
    threads: int | None,
    max_time: float | None,
) -> Advice:
    """``thirtyone.advise``, the Oracle the calibration checks."""
    return oracle_advise(
        state, deals=deals, playouts=playouts, seed=seed, threads=threads, max_time=max_time
    )


@dataclass(frozen=True)
class Settings:
    """How a calibration run is played."""

    #: Decisions to record (games are played until there are this many).
    decisions: int = 20_000
    seed: int = 1
    #: The Oracle's precision per query (reduced from the 10,000 / 50,000 of a real query).
    deals: int = 2_000
    playouts: int = 5_000
    #: Oracle threads per query.
    threads: int = 1
    #: Processes playing games side by side (each asking the Oracle with ``threads``).
    workers: int = 1
    #: Seats at the table, game ``g`` using ``seats[g % len(seats)]``.
    seats: tuple[int, ...] = (2, 3, 4, 5, 6)
    lives: int = 3
    #: Rule changes from the standard preset (``{"knock_penalty": 1}``...).
    rules: tuple[tuple[str, Any], ...] = ()
    #: Share of decisions asked after drawing from the stock (the ``discard:XX`` options).
    pending_share: float = 0.2
    #: Consistent deals sampled for the rank check of each decision.
    rank_deals: int = 200
    #: The Oracle's time limit for collecting deals (seconds).
    max_time: float | None = 30.0

    def table(self, game: int) -> Rules:
        return Rules.from_spec(
            {
                "preset": "standard",
                **dict(self.rules),
                "seats": self.seats[game % len(self.seats)],
                "lives": self.lives,
            }
        )


@dataclass
class Decision:
    """One query and what came of it."""

    game: int
    round: int
    #: Players in the round, the asking seat (round numbering), its turn index in the round.
    seats: int
    me: int
    turn: int
    pending: bool
    #: Whether somebody had knocked before the query.
    after_knock: bool
    option: str
    knock_at: float | None
    p_safe: float
    margin: float
    lives_lost: float
    deals: int
    options: int
    #: Another option was statistically tied with the best.
    tied: bool
    warnings: int
    #: What happened: no life lost this round, and the round's (nominal) loss.
    safe: bool | None = None
    lost: int | None = None
    #: Rank check: the opponent (round numbering), deals sampled, how many scored less than the
    #: true hand, how many the same, the randomised rank (0..n) and a uniform(0,1) transform.
    rank_opponent: int = -1
    rank_n: int = 0
    rank_less: int = 0
    rank_equal: int = 0
    rank: int = 0
    rank_u: float = 0.0


def parse_seats(text: str) -> tuple[int, ...]:
    """Seat counts from ``4``, ``2-6`` or ``2,4,6`` (ValueError when not 2 to 9)."""
    seats: list[int] = []
    try:
        for part in text.split(","):
            low, _, high = part.strip().partition("-")
            seats.extend(range(int(low), int(high or low) + 1))
    except ValueError:
        raise ValueError(f"seats must be like 4, 2-6 or 2,4,6, not {text!r}") from None
    if not seats or any(not 2 <= s <= 9 for s in seats):
        raise ValueError(f"seats must be 2 to 9, not {text!r}")
    return tuple(seats)


def _seed(*parts: object) -> int:
    """A 63-bit seed derived from the parts (stable across runs and processes)."""
    return random.Random(":".join(str(p) for p in parts)).getrandbits(63)


class _Seat:
    """A seat of the calibration table: the controller decides how it plays."""

    def __init__(self, name: str, table: _Table) -> None:
        self.name = name
        self.table = table

    def play(self, turn: Turn) -> None:
        self.table.play(turn)


class _Table:
    """Plays one game: the table's rule everywhere, one Oracle decision per round."""

    def __init__(self, game_index: int, settings: Settings, advisor: Advisor) -> None:
        self.index = game_index
        self.settings = settings
        self.advisor = advisor
        self.rng = random.Random(f"calibrate:{settings.seed}:{game_index}")
        rules = settings.table(game_index)
        self.rules = rules
        seats = [_Seat(f"Seat {i}", self) for i in range(rules.seats)]
        self.game = Game(rules, seats, seed=_seed("game", settings.seed, game_index))
        self.game.add_listener(self._event)
        self.decisions: list[Decision] = []
        self._ask_turn = -1
        self._asked = False
        self._policy: dict[int, float] = {}  # game seat -> knock_at after its decision
        self._open: list[tuple[Decision, int]] = []  # decisions of this round, game seat

    def play_game(self) -> list[Decision]:
        self.game.play()
        return self.decisions

    def _event(self, event: Event) -> None:
        if event.kind == "deal":
            seats = len(event.data["seats"])
            # Chosen before the round is played: independent of how it will go.
            self._ask_turn = self.rng.randrange(4 * seats + 4)
            self._asked = False
            self._policy = {}
            self._open = []
        elif event.kind in ("round_end", "wash"):
            losses: Mapping[int, int] = event.data["losses"]
            for decision, seat in self._open:
                decision.lost = int(losses[seat])
                decision.safe = decision.lost == 0
                self.decisions.append(decision)
            self._open = []

    def play(self, turn: Turn) -> None:
        if turn.seat in self._policy:
            turn.play_by_rule(self._policy[turn.seat])
            return
        if not self._asked and turn.round.turns_played == self._ask_turn:
            self._asked = True
            self._decide(turn)
            return
        turn.play_by_rule(TABLE_KNOCK_AT)

    def _decide(self, turn: Turn) -> None:
        s = self.settings
        round_ = turn.round
        hand_before = round_.hand(turn.round_seat)
        pending = round_.stock_len > 0 and self.rng.random() < s.pending_share
        if pending:
            turn.draw()
        state = self.game.view()
        advice = self.advisor(
            state,
            deals=s.deals,
            playouts=s.playouts,
            seed=self.rng.getrandbits(63),
            threads=s.threads,
            max_time=s.max_time,
        )
        best = advice.best
        decision = Decision(
            game=self.index,
            round=self.game.round_number,
            seats=round_.seats,
            me=turn.round_seat,
            turn=round_.turns_played,
            pending=pending,
            after_knock=round_.knocker is not None,
            option=best.option,
            knock_at=best.knock_at,
            p_safe=best.p_safe,
            margin=best.margin,
            lives_lost=best.lives_lost,
            deals=advice.deals,
            options=len(advice.options),
            tied=bool(advice.tied),
            warnings=len(advice.warnings),
        )
        self._rank_check(decision, state, round_)
        self._open.append((decision, turn.seat))
        self._policy[turn.seat] = NEVER_KNOCK if best.knock_at is None else best.knock_at
        self._execute(turn, best, hand_before)

    def _rank_check(self, decision: Decision, state: dict[str, Any], round_: _core.Round) -> None:
        s = self.settings
        if s.rank_deals < 1:
            return
        opponents = [i for i in range(round_.seats) if i != decision.me]
        opponent = self.rng.choice(opponents)
        round_rules = self.rules.round_rules()
        truth = _core.score(round_.hand(opponent), round_rules)
        deals, _fallback = _core.sample_deals(
            parse(state), s.rank_deals, self.rng.getrandbits(63), threads=s.threads
        )
        scores = [_core.score(d["hands"][opponent], round_rules) for d in deals]
        less = sum(x < truth for x in scores)
        equal = sum(x == truth for x in scores)
        rank = less + self.rng.randint(0, equal)  # ties broken at random
        decision.rank_opponent = opponent
        decision.rank_n = len(scores)
        decision.rank_less = less
        decision.rank_equal = equal
        decision.rank = rank
        decision.rank_u = (rank + self.rng.random()) / (len(scores) + 1)

    def _execute(self, turn: Turn, best: OptionAdvice, hand_before: list[str]) -> None:
        option = best.option
        if option == "knock":
            turn.knock()
        elif option == "draw":
            new = turn.draw()
            turn.put_down(_core.choose_put_down(hand_before, new, False, self.rules.round_rules()))
        elif option == "take":
            turn.take()
            assert best.discard is not None
            turn.put_down(best.discard)
        elif option.startswith("discard:"):
            turn.put_down(option.split(":", 1)[1])
        elif option == "decline":
            turn.decline()
        else:  # pragma: no cover - the Oracle names no other option
            raise ValueError(f"unknown option {option!r}")


def play_game(
    game_index: int, settings: Settings, advisor: Advisor | None = None
) -> list[Decision]:
    """The decisions of one whole game (game ``game_index`` of a run with ``settings``)."""
    return _Table(game_index, settings, advisor or oracle_advisor).play_game()


def _play_game_default(args: tuple[int, Settings]) -> list[Decision]:
    return play_game(args[0], args[1])


def _games(settings: Settings, advisor: Advisor | None) -> Iterator[list[Decision]]:
    """Every game's decisions, in game order."""
    if settings.workers <= 1 or advisor is not None:
        g = 0
        while True:
            yield play_game(g, settings, advisor)
            g += 1
    with ProcessPoolExecutor(max_workers=settings.workers) as pool:
        g = 0
        batch = 4 * settings.workers
        while True:
            yield from pool.map(_play_game_default, [(g + i, settings) for i in range(batch)])
            g += batch


def run(
    settings: Settings,
    advisor: Advisor | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Decision]:
    """Play games until ``settings.decisions`` decisions are recorded; the first that many, in
    game order (the same whatever ``workers``). ``advisor`` replaces ``thirtyone.advise`` (a
    test hook; it forces one worker). ``progress(decisions, games)`` is called after each game.
    """
    out: list[Decision] = []
    for games, decisions in enumerate(_games(settings, advisor), start=1):
        out.extend(decisions)
        if progress is not None:
            progress(len(out), games)
        if len(out) >= settings.decisions:
            break
    return out[: settings.decisions]


# -- statistics -----------------------------------------------------------------------------------


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def _gamma_series(a: float, x: float) -> float:
    """The regularised lower incomplete gamma P(a, x) by its series (x < a + 1)."""
    term = 1.0 / a
    total = term
    k = a
    for _ in range(10_000):
        k += 1
        term *= x / k
        total += term
        if abs(term) < abs(total) * 1e-15:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_fraction(a: float, x: float) -> float:
    """The regularised upper incomplete gamma Q(a, x) by Lentz's continued fraction."""
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return h * math.exp(-x + a * math.log(x) - math.lgamma(a))


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError("df must be at least 1")
    if x <= 0:
        return 1.0
    a, y = df / 2, x / 2
    if y < a + 1:
        return max(0.0, 1 - _gamma_series(a, y))
    return min(1.0, _gamma_fraction(a, y))


def kolmogorov_sf(lam: float) -> float:
    """P(K > lam) for the Kolmogorov distribution."""
    if lam < 0.2:
        return 1.0
    total = 0.0
    for j in range(1, 200):
        term = (-1) ** (j - 1) * math.exp(-2 * j * j * lam * lam)
        total += term
        if abs(term) < 1e-16:
            break
    return min(1.0, max(0.0, 2 * total))


def ks_uniform(values: Sequence[float]) -> tuple[float, float]:
    """Kolmogorov-Smirnov test of values against uniform(0, 1): (D, p-value) (Stephens'
    small-sample correction of the asymptotic distribution)."""
    n = len(values)
    if n == 0:
        return (0.0, 1.0)
    xs = sorted(values)
    d = max(max((i + 1) / n - x, x - i / n) for i, x in enumerate(xs))
    root = math.sqrt(n)
    return (d, kolmogorov_sf((root + 0.12 + 0.11 / root) * d))


def chi2_uniform(counts: Sequence[int]) -> tuple[float, int, float]:
    """Pearson's test of equal cell probabilities: (statistic, df, p-value)."""
    n = sum(counts)
    k = len(counts)
    if n == 0 or k < 2:
        return (0.0, max(k - 1, 1), 1.0)
    e = n / k
    stat = sum((c - e) ** 2 / e for c in counts)
    return (stat, k - 1, chi2_sf(stat, k - 1))


def chi2_two_sample(a: Sequence[float], b: Sequence[float]) -> tuple[float, int, float]:
    """Chi-square test that two samples of a discrete variable (hand scores) come from the same
    distribution (a 2 x k contingency table). Neighbouring values are pooled until each cell's
    expected count is at least 5 in both rows. Returns (statistic, df, p-value)."""
    from collections import Counter

    ca, cb = Counter(a), Counter(b)
    na, nb = len(a), len(b)
    if na == 0 or nb == 0:
        raise ValueError("both samples must be non-empty")
    values = sorted(set(ca) | set(cb))
    share_a = na / (na + nb)
    cells: list[tuple[int, int]] = []
    run_a = run_b = 0
    for v in values:
        run_a += ca[v]
        run_b += cb[v]
        total = run_a + run_b
        if total * min(share_a, 1 - share_a) >= 5:
            cells.append((run_a, run_b))
            run_a = run_b = 0
    if run_a or run_b:
        if cells:
            last_a, last_b = cells.pop()
            cells.append((last_a + run_a, last_b + run_b))
        else:
            cells.append((run_a, run_b))
    if len(cells) < 2:
        return (0.0, 1, 1.0)
    stat = 0.0
    for x, y in cells:
        t = x + y
        ea, eb = t * share_a, t * (1 - share_a)
        stat += (x - ea) ** 2 / ea + (y - eb) ** 2 / eb
    df = len(cells) - 1
    return (stat, df, chi2_sf(stat, df))


# -- reports --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bin:
    """One row of the reliability table."""

    low: float
    high: float
    count: int
    predicted: float
    realized: float
    ci_low: float
    ci_high: float
    #: (realized - predicted) in standard errors of the realized share under the predictions.
    z: float
    predicted_lives: float
    realized_lives: float
    lives_half_width: float


def _z(decisions: Sequence[Decision]) -> float:
    var = sum(d.p_safe * (1 - d.p_safe) for d in decisions)
    diff = sum(float(bool(d.safe)) - d.p_safe for d in decisions)
    if var <= 0:
        return 0.0 if abs(diff) < 1e-12 else math.copysign(math.inf, diff)
    return diff / math.sqrt(var)


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else math.nan


def _half_width(xs: Sequence[float]) -> float:
    n = len(xs)
    if n < 2:
        return math.nan
    m = _mean(xs)
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return 1.96 * math.sqrt(var / n)


def _row(low: float, high: float, ds: Sequence[Decision]) -> Bin:
    safe = sum(1 for d in ds if d.safe)
    n = len(ds)
    lo, hi = wilson(safe, n)
    lost = [float(d.lost or 0) for d in ds]
    return Bin(
        low=low,
        high=high,
        count=n,
        predicted=_mean([d.p_safe for d in ds]),
        realized=safe / n if n else math.nan,
        ci_low=lo,
        ci_high=hi,
        z=_z(ds),
        predicted_lives=_mean([d.lives_lost for d in ds]),
        realized_lives=_mean(lost),
        lives_half_width=_half_width(lost),
    )


def reliability(decisions: Sequence[Decision], bins: int = 10) -> list[Bin]:
    """Decisions binned by predicted ``p_safe`` (``bins`` equal widths; 1.0 in the last)."""
    rows = []
    for b in range(bins):
        low, high = b / bins, (b + 1) / bins
        ds = [
            d for d in decisions if low <= d.p_safe < high or (b == bins - 1 and d.p_safe == high)
        ]
        if ds:
            rows.append(_row(low, high, ds))
    return rows


@dataclass(frozen=True)
class Calibration:
    """Overall figures: the reliability bins, a chi-square over them, and per option kind."""

    decisions: int
    bins: list[Bin]
    #: Hosmer-Lemeshow-style statistic: sum over bins of (realized - predicted safe count)^2 /
    #: sum of p (1 - p), its degrees of freedom (bins used) and p-value.
    statistic: float
    df: int
    p_value: float
    overall: Bin
    by_option: dict[str, Bin]


def option_kind(option: str) -> str:
    return "discard" if option.startswith("discard:") else option


def calibration(decisions: Sequence[Decision], bins: int = 10) -> Calibration:
    rows = reliability(decisions, bins)
    stat = 0.0
    df = 0
    for b in rows:
        in_bin = [
            d
            for d in decisions
            if b.low <= d.p_safe < b.high or (b.high == 1.0 and d.p_safe == 1.0)
        ]
        var = sum(d.p_safe * (1 - d.p_safe) for d in in_bin)
        diff = sum(float(bool(d.safe)) - d.p_safe for d in in_bin)
        if var > 0:
            stat += diff * diff / var
            df += 1
    kinds: dict[str, list[Decision]] = {}
    for d in decisions:
        kinds.setdefault(option_kind(d.option), []).append(d)
    return Calibration(
        decisions=len(decisions),
        bins=rows,
        statistic=stat,
        df=df,
        p_value=chi2_sf(stat, df) if df else 1.0,
        overall=_row(0.0, 1.0, decisions),
        by_option={k: _row(0.0, 1.0, v) for k, v in sorted(kinds.items())},
    )


@dataclass(frozen=True)
class RankCheck:
    """The rank of the true opponent score among sampled consistent deals."""

    decisions: int
    histogram: list[int]
    chi2: float
    df: int
    chi2_p: float
    ks: float
    ks_p: float


def rank_uniformity(decisions: Sequence[Decision], bins: int = 10) -> RankCheck:
    """Histogram (``bins`` equal cells of the rank's uniform transform) and tests of uniformity.

    The rank of the truth among ``n`` sampled scores (ties broken at random) is uniform on
    0..n when the sampler draws from the true posterior; ``rank_u`` spreads it to uniform(0, 1).
    """
    us = [d.rank_u for d in decisions if d.rank_n > 0]
    hist = [0] * bins
    for u in us:
        hist[min(int(u * bins), bins - 1)] += 1
    stat, df, p = chi2_uniform(hist)
    ks, ks_p = ks_uniform(us)
    return RankCheck(len(us), hist, stat, df, p, ks, ks_p)


def _pct(x: float) -> str:
    return "   -  " if math.isnan(x) else f"{100 * x:5.1f}%"


def _num(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:.3f}"


def format_table(cal: Calibration) -> str:
    """The reliability table as Markdown."""
    lines = [
        "| predicted p_safe | decisions | mean predicted | realized (95% CI) | z "
        "| predicted lives lost | realized lives lost (95% CI) |",
        "| --- | ---: | ---: | --- | ---: | ---: | --- |",
    ]

    def line(label: str, b: Bin) -> str:
        return (
            f"| {label} | {b.count} | {_pct(b.predicted)} | {_pct(b.realized)} "
            f"({_pct(b.ci_low)} - {_pct(b.ci_high)}) | {b.z:+.1f} | {b.predicted_lives:.3f} "
            f"| {b.realized_lives:.3f} ± {_num(b.lives_half_width)} |"
        )

    for b in cal.bins:
        lines.append(line(f"{b.low:.1f} - {b.high:.1f}", b))
    lines.append(line("**all**", cal.overall))
    for kind, b in cal.by_option.items():
        lines.append(line(f"option {kind}", b))
    return "\n".join(lines)


def format_ranks(rc: RankCheck) -> str:
    width = max(rc.histogram) if rc.histogram else 1
    bins = len(rc.histogram)
    lines = [
        f"Rank of the true opponent score among the sampled consistent deals ({rc.decisions} "
        f"decisions; expected {rc.decisions / bins:.1f} per cell):"
    ]
    for i, c in enumerate(rc.histogram):
        bar = "#" * round(40 * c / width) if width else ""
        lines.append(f"  {i / bins:.1f}-{(i + 1) / bins:.1f} {c:6d} {bar}")
    lines.append(
        f"  chi-square {rc.chi2:.2f} on {rc.df} df, p = {rc.chi2_p:.3f}; "
        f"Kolmogorov-Smirnov D = {rc.ks:.4f}, p = {rc.ks_p:.3f}"
    )
    return "\n".join(lines)


def save_plot(cal: Calibration, rc: RankCheck, path: Path) -> bool:
    """The reliability diagram and the rank histogram as PNG; False when matplotlib is missing
    (``pip install thirtyone[plot]``)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 5))
    xs = [b.predicted for b in cal.bins]
    ys = [b.realized for b in cal.bins]
    lo = [b.realized - b.ci_low for b in cal.bins]
    hi = [b.ci_high - b.realized for b in cal.bins]
    ax.plot([0, 1], [0, 1], color="grey", linestyle="--", linewidth=1, label="perfect")
    ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o-", capsize=3, label="realized (95% CI)")
    for b in cal.bins:
        ax.annotate(
            str(b.count),
            (b.predicted, b.realized),
            textcoords="offset points",
            xytext=(6, -12),
            fontsize=7,
            color="dimgrey",
        )
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("predicted p_safe (mean in bin)")
    ax.set_ylabel("share of decisions with no life lost")
    ax.set_title(f"Reliability: {cal.decisions} decisions, p = {cal.p_value:.2f}")
    ax.legend(loc="upper left")
    bins = len(rc.histogram)
    ax2.bar(
        [i / bins for i in range(bins)],
        rc.histogram,
        width=1 / bins,
        align="edge",
        edgecolor="white",
    )
    ax2.axhline(rc.decisions / bins, color="grey", linestyle="--", linewidth=1)
    ax2.set_xlim(0, 1)
    ax2.set_xlabel("rank of the true opponent score among consistent deals")
    ax2.set_ylabel("decisions")
    ax2.set_title(f"Inference check: chi-square p = {rc.chi2_p:.2f}, KS p = {rc.ks_p:.2f}")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


@dataclass
class Report:
    settings: Settings
    decisions: list[Decision]
    calibration: Calibration
    ranks: RankCheck
    seconds: float
    games: int
    plot: Path | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        s = self.settings
        per = 1000 * self.seconds / max(1, len(self.decisions))
        knocks = [d for d in self.decisions if d.knock_at is not None]
        head = (
            f"{len(self.decisions)} decisions in {self.games} games "
            f"(seats {', '.join(map(str, s.seats))}, {s.lives} lives, seed {s.seed}); "
            f"Oracle at {s.deals} deals / {s.playouts} playouts, {s.threads} thread(s) x "
            f"{s.workers} worker(s); {self.seconds:.0f} s ({per:.1f} ms per decision)."
        )
        warn = sum(1 for d in self.decisions if d.warnings)
        lines = [
            head,
            "Options taken: "
            + ", ".join(f"{k} {b.count}" for k, b in self.calibration.by_option.items())
            + f"; {sum(d.pending for d in self.decisions)} after a pending draw, "
            f"{sum(d.after_knock for d in self.decisions)} after a knock, "
            f"{len(knocks)} with a knock_at, {warn} with warnings.",
            "",
            format_table(self.calibration),
            "",
            f"Calibration chi-square over the bins: {self.calibration.statistic:.2f} on "
            f"{self.calibration.df} df, p = {self.calibration.p_value:.3f}.",
            "",
            format_ranks(self.ranks),
        ]
        if self.plot is not None:
            lines += ["", f"Plot: {self.plot}"]
        return "\n".join(lines)


def calibrate(
    settings: Settings,
    out_dir: Path | None = None,
    *,
    advisor: Advisor | None = None,
    echo: Callable[[str], None] | None = None,
) -> Report:
    """Run, analyse, and (with ``out_dir``) write ``decisions.jsonl``, ``report.md``,
    ``summary.json`` and ``reliability.png`` (when matplotlib is installed)."""
    start = time.monotonic()
    last = [start]
    games = [0]

    def progress(n: int, g: int) -> None:
        games[0] = g
        now = time.monotonic()
        if echo is not None and now - last[0] >= 10:
            last[0] = now
            echo(f"  {n} decisions, {g} games, {now - start:.0f} s")

    decisions = run(settings, advisor, progress)
    seconds = time.monotonic() - start
    report = Report(
        settings=settings,
        decisions=decisions,
        calibration=calibration(decisions),
        ranks=rank_uniformity(decisions),
        seconds=seconds,
        games=games[0],
    )
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        with (out_dir / "decisions.jsonl").open("w") as f:
            for d in decisions:
                f.write(json.dumps(asdict(d)) + "\n")
        png = out_dir / "reliability.png"
        if save_plot(report.calibration, report.ranks, png):
            report.plot = png
        (out_dir / "report.md").write_text(report.text() + "\n")
        summary = {
            "settings": asdict(settings),
            "seconds": seconds,
            "games": report.games,
            "calibration": asdict(report.calibration),
            "ranks": asdict(report.ranks),
        }
        (out_dir / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    return report


def shifted(advisor: Advisor, option: str, shift: float) -> Advisor:
    """An advisor whose ``option`` (e.g. ``"knock"``) reports ``p_safe`` shifted by ``shift``
    (clipped to 0..1), options re-sorted best first: a planted bias the calibration must catch."""

    def biased(
        state: Mapping[str, Any],
        *,
        deals: int,
        playouts: int,
        seed: int | None,
        threads: int | None,
        max_time: float | None,
    ) -> Advice:
        advice = advisor(
            state, deals=deals, playouts=playouts, seed=seed, threads=threads, max_time=max_time
        )
        options = [
            replace(o, p_safe=min(1.0, max(0.0, o.p_safe + shift))) if o.option == option else o
            for o in advice.options
        ]
        options.sort(key=lambda o: -o.p_safe)
        return replace(advice, options=options)

    return biased
