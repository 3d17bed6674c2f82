"""The cost of the game-level figures: the same positions asked with and without ``lives``, at
full precision (10,000 deals, 50,000 playouts, 2 threads), interleaved so that the machine's
load falls on both alike. Target (the speed issue): a query with ``p_win`` at most 1.5 times a
round-level query. The game-value table is built once per table before the first timing (a
one-time cost, outside the time limit; it is timed separately).

    python benches/bench_game.py [--reps 5] [--quick]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from positions import bench_positions
from thirtyone import _core
from thirtyone.oracle.query import ROUND_RESULTS, advise

TARGET = 1.5


def _time(state: dict[str, Any], deals: int, playouts: int, seed: int) -> float:
    start = time.perf_counter()
    advise(state, deals=deals, playouts=playouts, seed=seed, threads=2, max_time=None)
    return time.perf_counter() - start


def build_table(state: dict[str, Any]) -> float:
    """Build (or load) the game-value table a state with ``lives`` needs, before any timing: a
    one-time cost per table, outside the time limit. Returns the seconds it took."""
    _core.set_cache_folders([ROUND_RESULTS])
    start = time.perf_counter()
    _core.game_value(state["rules"], state["lives"], state["me"], 0)
    return time.perf_counter() - start


def summary(rows: dict[str, Any], log: Any = print) -> dict[str, Any]:
    """Per position ``round_s`` and ``game_s`` (medians) and ``table_s``: the ratios, their
    median and worst."""
    for name, row in rows.items():
        r, g = row["round_s"], row["game_s"]
        row["ratio"] = g / r
        log(
            f"{name:<28} round {1000 * r:7.1f} ms  game {1000 * g:7.1f} ms  "
            f"ratio {g / r:4.2f}  (table built in {1000 * row['table_s']:.0f} ms)"
        )
    ratios = [row["ratio"] for row in rows.values()]
    return {
        "positions": rows,
        "median_ratio": statistics.median(ratios),
        "worst_ratio": max(ratios),
    }


def measure(
    positions: list[Any], deals: int, playouts: int, reps: int, log: Any = print
) -> dict[str, Any]:
    """Each position asked without and with ``lives``, interleaved: the medians, their ratio,
    and the ratios' median and worst."""
    rows: dict[str, Any] = {}
    for pos in positions:
        table = build_table(pos.state)
        rounds, games = [], []
        for rep in range(reps):
            rounds.append(_time(pos.round_state, deals, playouts, rep))
            games.append(_time(pos.state, deals, playouts, rep))
        rows[pos.name] = {
            "round_s": statistics.median(rounds),
            "game_s": statistics.median(games),
            "table_s": table,
        }
    return summary(rows, log)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="1,000 deals, 5,000 playouts")
    args = parser.parse_args()
    deals, playouts = (1_000, 5_000) if args.quick else (10_000, 50_000)
    print(f"load average before: {os.getloadavg()[0]:.2f}; {deals:,} deals, {playouts:,} playouts")
    found = measure(bench_positions(), deals, playouts, args.reps)
    worst, median = found["worst_ratio"], found["median_ratio"]
    verdict = "met" if worst <= TARGET else "NOT met"
    print(f"ratio median {median:.2f}, worst {worst:.2f}: target <= {TARGET} {verdict}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
