"""The performance targets (docs/evidence.md) and each one's verdict on a run's figures."""

from __future__ import annotations

import math
import statistics
from typing import Any

TARGET_4P_MEDIAN_S = 0.100
TARGET_4P_SLOWEST_S = 0.250
TARGET_6P_LATE_S = 0.400
TARGET_TURNS_PER_S_PER_CORE = 20e6
TARGET_DEALS_S = 0.020
TARGET_SCALING = 1.8
TARGET_MEMORY_MB = 50.0
TARGET_REFERENCE_RATIO = 1_000.0


class _Rows:
    """The targets' rows as they are judged; a quick run judges none."""

    def __init__(self, quick: bool) -> None:
        self.quick = quick
        self.rows: list[dict[str, Any]] = []

    def row(self, name: str, value: float | None, target: float, higher: bool, unit: str) -> None:
        ok = None
        if value is not None and not math.isnan(value) and not self.quick:
            ok = value >= target if higher else value <= target
        self.rows.append(
            {
                "target": name,
                "value": value,
                "goal": target,
                "higher_is_better": higher,
                "unit": unit,
                "pass": ok,
            }
        )


def targets(r: dict[str, Any], quick: bool) -> list[dict[str, Any]]:
    """Each performance target with the figure measured and whether it is met (None: the figure
    is missing, or a quick run, whose precision is not the targets')."""
    out = _Rows(quick)
    _latency_rows(out, r)
    if r["deals"]:
        _deal_rows(out, r["deals"])
    out.row("two threads / one thread", r["scaling"]["ratio"], TARGET_SCALING, True, "x")
    out.row(
        "peak memory of a query",
        r["memory"]["worst_over_import_mb"],
        TARGET_MEMORY_MB,
        False,
        "MB",
    )
    out.row(
        "Rust / Python reference playout rate",
        r["reference"].get("playout_ratio"),
        TARGET_REFERENCE_RATIO,
        True,
        "x",
    )
    return out.rows


def _latency_rows(out: _Rows, r: dict[str, Any]) -> None:
    """The latency targets and the turn rate's."""
    lat = r["latency"]
    four = [n for n in lat if n.startswith("4p-")]
    four_medians = [lat[n]["median_s"] for n in four]
    med4 = statistics.median(four_medians)
    out.row("4 seats: median over positions", med4, TARGET_4P_MEDIAN_S, False, "s")
    out.row(
        "4 seats: slowest position (median)", max(four_medians), TARGET_4P_SLOWEST_S, False, "s"
    )
    six = lat["6p-late"]["median_s"] if "6p-late" in lat else None
    out.row("6 seats late", six, TARGET_6P_LATE_S, False, "s")
    turn_rates = [
        e["turns_per_s_per_core_est"] for e in lat.values() if "turns_per_s_per_core_est" in e
    ]
    total_turns = sum(e.get("turns_per_query_est", 0.0) for e in lat.values())
    total_time = sum(e["playout_time_s"] for e in lat.values())
    threads = r["precision"]["threads"]
    out.row(
        "table-rule turns / s / core (estimated, all positions)",
        total_turns / total_time / threads if turn_rates else None,
        TARGET_TURNS_PER_S_PER_CORE,
        True,
        "turns/s",
    )


def _deal_rows(out: _Rows, deals: dict[str, Any]) -> None:
    """The consistent deals' target, inside a query (judged) and by sample_deals (not)."""
    out.row(
        "10,000 deals, late (slowest, inside a query)",
        max(
            (d["in_query_median_s"] for d in deals.values() if d["in_query_median_s"]),
            default=None,
        ),
        TARGET_DEALS_S,
        False,
        "s",
    )
    out.row(
        "10,000 deals, late (slowest, _core.sample_deals)",
        max(d["sample_deals_median_s"] for d in deals.values()),
        TARGET_DEALS_S,
        False,
        "s",
    )
    # Not judged: most of this time is spent making 10,000 Python dicts and lists.
    out.rows[-1]["pass"] = None
    out.rows[-1]["note"] = "not judged: mostly the conversion of the deals to Python objects"
