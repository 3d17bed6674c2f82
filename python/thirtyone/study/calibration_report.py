"""The reports of a calibration run: the reliability table of the predictions, by option and
overall, the rank check of the inference, their text and plot, and the report written to disk.
The statistics come from :mod:`thirtyone.statistics` (scipy).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from thirtyone.oracle.words import counted
from thirtyone.statistics import chi2_sf, chi2_uniform, ks_uniform, wilson

if TYPE_CHECKING:
    from thirtyone.study.backend.workers import Stopped
    from thirtyone.study.calibration_records import Decision, Settings


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


# Sums of floats by math.fsum, not sum(), whose result differs between Python 3.11 and 3.12
# (ruling 256).


def _z(decisions: Sequence[Decision]) -> float:
    var = math.fsum(d.p_safe * (1 - d.p_safe) for d in decisions)
    diff = math.fsum(float(bool(d.safe)) - d.p_safe for d in decisions)
    if var <= 0:
        return 0.0 if abs(diff) < 1e-12 else math.copysign(math.inf, diff)
    return diff / math.sqrt(var)


def _mean(xs: Sequence[float]) -> float:
    return math.fsum(xs) / len(xs) if xs else math.nan


def _half_width(xs: Sequence[float]) -> float:
    n = len(xs)
    if n < 2:
        return math.nan
    m = _mean(xs)
    var = math.fsum((x - m) ** 2 for x in xs) / (n - 1)
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
        var = math.fsum(d.p_safe * (1 - d.p_safe) for d in in_bin)
        diff = math.fsum(float(bool(d.safe)) - d.p_safe for d in in_bin)
        if var > 0:
            stat += diff * diff / var
            df += 1
    kinds: dict[str, list[Decision]] = {}
    for d in decisions:
        kinds.setdefault(d.kind, []).append(d)
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
    shown = [b for b in cal.bins if b.count]  # an empty bin has nothing to show
    xs = [b.predicted for b in shown]
    ys = [b.realized for b in shown]
    lo = [max(0.0, b.realized - b.ci_low) for b in shown]
    hi = [max(0.0, b.ci_high - b.realized) for b in shown]
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


def seconds_text(seconds: float) -> str:
    """A run's time as it is said: ``0.4 s`` under ten seconds (a short run said "0 s"),
    ``12 s`` from ten on."""
    return f"{seconds:.1f} s" if seconds < 9.95 else f"{seconds:.0f} s"


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
    #: The stop (Ctrl-C, SIGTERM, SIGHUP) that ended the run before all its decisions.
    stopped: Stopped | None = None
    #: The Dask scheduler's address of a run on a cluster (None: local processes).
    cluster: str | None = None
    #: How many workers played: the cluster's when it was connected to, or the local processes
    #: (None: every game came from the checkpoint).
    workers: int | None = None
    #: The games and decisions of the report read back from the checkpoint (not timed).
    resumed: tuple[int, int] = (0, 0)

    def text(self) -> str:
        s = self.settings
        knocks = [d for d in self.decisions if d.knock_at is not None]
        table = "" if s.opponents == "table" else f"{s.opponents} players, "
        if s.read_as is not None:
            table += f"read as {s.read_as}, "
        # The seats of the games played (the games take the settings' seats in turn).
        played = sorted({s.seats[g % len(s.seats)] for g in range(min(self.games, len(s.seats)))})
        head = (
            f"{counted(len(self.decisions), 'decision')} in {counted(self.games, 'game')} "
            f"({table}seats {', '.join(map(str, played))}, {s.lives} lives, seed {s.seed}); "
            f"Oracle at {s.deals:,} deals / {s.playouts:,} playouts, {self.where()}; "
            f"{self.timing()}."
        )
        warn = sum(1 for d in self.decisions if d.warnings)
        if self.stopped is not None:
            head = (
                f"Stopped by {self.stopped.name} after {len(self.decisions):,} of "
                f"{s.decisions:,} decisions: this report covers those.\n{head}"
            )
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

    def timing(self) -> str:
        """``12 s (30.8 ms per decision)``; after a resume, the time of the decisions played
        now alone: ``12 s for the 301 played now (40.6 ms per decision), 95 decisions of 16
        games resumed from the checkpoint``."""
        games, kept = self.resumed
        played = len(self.decisions) - kept
        per = f"{1000 * self.seconds / max(1, played):.1f} ms per decision"
        if not games:
            return f"{seconds_text(self.seconds)} ({per})"
        if played <= 0:
            return f"every decision resumed from the checkpoint ({counted(games, 'game')})"
        return (
            f"{seconds_text(self.seconds)} for the {played:,} played now ({per}), {kept:,} "
            f"decisions of {counted(games, 'game')} resumed from the checkpoint"
        )

    def where(self) -> str:
        """Who played the games: ``1 thread x 2 workers``, or ``1 thread a query, on the Dask
        cluster at tcp://…:8786 (3 workers)`` (the workers there when it was connected to)."""
        threads = counted(self.settings.threads, "thread")
        if self.cluster is None:
            return f"{threads} x {counted(self.settings.workers, 'worker')}"
        workers = (
            "every game from the checkpoint"
            if self.workers is None
            else counted(self.workers, "worker")
        )
        return f"{threads} a query, on the Dask cluster at {self.cluster[:80]} ({workers})"
