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
