"""The performance targets (docs/evidence/speed.md, and the issue "speed toward the limit") and each
one's verdict on a run's figures."""

from __future__ import annotations

import math
import statistics
from typing import Any

TARGET_4P_MEDIAN_S = 0.040
TARGET_4P_SLOWEST_S = 0.080
TARGET_6P_EARLY_S = 0.100
TARGET_TURNS_PER_S_PER_CORE = 60e6
TARGET_DEALS_S = 0.100
TARGET_GAME_LEVEL_RATIO = 1.5
TARGET_SCALING = 1.8
TARGET_MEMORY_MB = 50.0
TARGET_REFERENCE_RATIO = 1_000.0
#: Host-independent (valgrind): instructions per table-rule turn, and last-level data misses
#: per turn with a simulated 512 KB last level ("near zero once warm": one turn in a hundred).
TARGET_INSTRUCTIONS_PER_TURN = 120.0
TARGET_LL_MISSES_PER_TURN = 0.01


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
    game = r.get("game_level")
    out.row(
        "query with the game-level figure / round-level query (worst position)",
        game["worst_ratio"] if game else None,
        TARGET_GAME_LEVEL_RATIO,
        False,
        "x",
    )
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
    hi = r.get("host_independent", {})
    out.row(
        "instructions per table-rule turn (callgrind, worst position)",
        hi.get("instructions_per_turn"),
        TARGET_INSTRUCTIONS_PER_TURN,
        False,
        "count",
    )
    out.row(
        "last-level misses per turn, 512 KB simulated (cachegrind, worst position)",
        hi.get("ll_misses_per_turn"),
        TARGET_LL_MISSES_PER_TURN,
        False,
        "count",
    )
    return out.rows


def _latency_rows(out: _Rows, r: dict[str, Any]) -> None:
    """The latency targets and the turn rate's."""
    lat = r["latency"]
    four = [n for n in lat if n.startswith("4p-")]
    for key, query in (("median_s", "round-level"), ("game_median_s", "with lives")):
        if any(key not in lat[n] for n in four):
            continue
        four_medians = [lat[n][key] for n in four]
        med4 = statistics.median(four_medians)
        out.row(f"4 seats: median over positions ({query})", med4, TARGET_4P_MEDIAN_S, False, "s")
        out.row(
            f"4 seats: slowest position ({query})",
            max(four_medians),
            TARGET_4P_SLOWEST_S,
            False,
            "s",
        )
        six = lat["6p-early"].get(key) if "6p-early" in lat else None
        out.row(f"6 seats early ({query})", six, TARGET_6P_EARLY_S, False, "s")
    counted = any("turns_per_query" in e for e in lat.values())
    total_turns = sum(e.get("turns_per_query", 0) for e in lat.values())
    total_time = sum(e["playout_time_s"] for e in lat.values() if "turns_per_query" in e)
    threads = r["precision"]["threads"]
    out.row(
        "table-rule turns / s / core (counted by the engine, all positions)",
        total_turns / total_time / threads if counted else None,
        TARGET_TURNS_PER_S_PER_CORE,
        True,
        "turns/s",
    )


def _deal_rows(out: _Rows, deals: dict[str, Any]) -> None:
    """The consistent deals' target: every seat count and phase, and the late positions of real
    games, inside a query (the slowest position is judged)."""
    slowest = max(deals, key=lambda n: deals[n]["median_s"])
    out.row(
        f"10,000 consistent deals, every seat count 2-9 and phase (slowest: {slowest})",
        deals[slowest]["median_s"],
        TARGET_DEALS_S,
        False,
        "s",
    )
