"""The statistics of the calibration run and the differential tests, from ``scipy.stats``.

scipy is an optional dependency (the ``calibrate`` extra: ``pip install 'thirtyone[calibrate]'``);
playing and asking the Oracle never need it. Each function here says which test it is and what
it returns, and leaves the numerics to scipy, except the Wilson interval: its closed form needs
no scipy, so ``thirtyone stats`` works from a plain install (the tests check it against scipy's).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from thirtyone.errors import ThirtyOneError


def require() -> None:
    """Raise :class:`~thirtyone.errors.ThirtyOneError` now, saying how to install scipy, when it
    is missing (before a long run that would need it at its end)."""
    _scipy_stats()


def _scipy_stats() -> Any:
    try:
        from scipy import stats
    except ImportError:
        raise ThirtyOneError(
            "the calibration statistics need scipy: pip install 'thirtyone[calibrate]'"
        ) from None
    return stats


#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(successes: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ((0, 1) when there is no trial). Closed
    form, so it needs no scipy (the tournament and the record use it from a plain install);
    the tests check it against scipy's."""
    if n == 0:
        return (0.0, 1.0)
    p, z2 = successes / n, Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # The interval holds the observed share; rounding alone could leave it a hair outside.
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def percent_interval(low: float, high: float) -> str:
    """An interval of shares as the reports write it, in percent, as the README's tables do:
    ``(21.9-54.5)`` with an en dash for the hyphen."""
    return f"({percent_range(low, high)})"


def percent_range(low: float, high: float) -> str:
    """:func:`percent_interval` without its parentheses, for a sentence: ``21.9-54.5`` (an en
    dash for the hyphen)."""
    return f"{100 * low:.1f}\u2013{100 * high:.1f}"


#: Student's t quantile of a two-sided 95% interval for 1 to 30 degrees of freedom (beyond,
#: :func:`student_t95` works it out); the tests check each against scipy's.
_T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def student_t95(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom (to three decimals up to
    30, then by the Cornish-Fisher expansion about the normal quantile, closer still), with no
    scipy."""
    if df < 1:
        raise ValueError("df must be at least 1")
    if df <= len(_T95):
        return _T95[df - 1]
    z = Z95
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    return z + g1 / df + g2 / df**2 + g3 / df**3


def mean_interval(mean: float, sum_sq: float, n: int) -> tuple[float, float] | None:
    """The 95% interval of the mean of ``n`` chances (each from 0 to 1) whose squares sum to
    ``sum_sq``: Student's t with their sample spread (n - 1), kept within 0 to 1. None from
    fewer than two: one chance says nothing of their spread. (The normal quantile instead of
    t's made three decisions' interval a third as wide as it is.)"""
    if n < 2:
        return None
    var = max(0.0, (sum_sq - n * mean * mean) / (n - 1))
    half = student_t95(n - 1) * math.sqrt(var / n)
    return (max(0.0, mean - half), min(1.0, mean + half))


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError("df must be at least 1")
    return float(_scipy_stats().chi2.sf(x, df))


def kolmogorov_sf(lam: float) -> float:
    """P(K > lam) for the Kolmogorov distribution (the limit of sqrt(n) D)."""
    return float(_scipy_stats().kstwobign.sf(lam))


def ks_uniform(values: Sequence[float]) -> tuple[float, float]:
    """Kolmogorov-Smirnov test of values against uniform(0, 1): (D, p-value)."""
    if not values:
        return (0.0, 1.0)
    result = _scipy_stats().kstest(list(values), "uniform")
    return (float(result.statistic), float(result.pvalue))


def chi2_uniform(counts: Sequence[int]) -> tuple[float, int, float]:
    """Pearson's test of equal cell probabilities: (statistic, df, p-value)."""
    k = len(counts)
    if sum(counts) == 0 or k < 2:
        return (0.0, max(k - 1, 1), 1.0)
    result = _scipy_stats().chisquare(list(counts))
    return (float(result.statistic), k - 1, float(result.pvalue))


def chi2_two_sample(a: Sequence[float], b: Sequence[float]) -> tuple[float, int, float]:
    """Chi-square test that two samples of a discrete variable (hand scores) come from the same
    distribution: a 2 x k contingency table whose neighbouring values are pooled until each
    cell's expected count is at least 5 in both rows. Returns (statistic, df, p-value)."""
    ca, cb = Counter(a), Counter(b)
    na, nb = len(a), len(b)
    if na == 0 or nb == 0:
        raise ValueError("both samples must be non-empty")
    share = min(na, nb) / (na + nb)
    cells: list[tuple[int, int]] = []
    run_a = run_b = 0
    for v in sorted(set(ca) | set(cb)):
        run_a += ca[v]
        run_b += cb[v]
        if (run_a + run_b) * share >= 5:
            cells.append((run_a, run_b))
            run_a = run_b = 0
    if run_a or run_b:
        last = cells.pop() if cells else (0, 0)
        cells.append((last[0] + run_a, last[1] + run_b))
    if len(cells) < 2:
        return (0.0, 1, 1.0)
    table = [[x for x, _ in cells], [y for _, y in cells]]
    result = _scipy_stats().chi2_contingency(table, correction=False)
    return (float(result.statistic), int(result.dof), float(result.pvalue))
