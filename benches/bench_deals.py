"""10,000 consistent deals, for every seat count 2-9 in every phase of a round (the first turn,
early, middle, late) and on late 7-, 8- and 9-seat positions of real games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bench_query import Precision, deals_only, median, timed
from positions import BenchPosition, many_seat_positions, phase_positions


def deal_positions() -> list[BenchPosition]:
    """Every seat count in every phase, then the kept late positions of real games."""
    return [p for seats in range(2, 10) for p in phase_positions(seats)] + many_seat_positions()


def consistent_deals(
    positions: list[BenchPosition], prec: Precision, log: Callable[[str], None]
) -> dict[str, Any]:
    """Each position's time for ``prec.deal_count`` consistent deals inside a query (the query
    with one playout per option: the state's check, the opponents' counts, the deals and a
    handful of playouts), repetitions interleaved over the positions."""
    reps = max(prec.reps // 3, 3)
    times: dict[str, list[float]] = {p.name: [] for p in positions}
    raws: dict[str, Any] = {}
    for rep in range(reps):
        log(f"consistent deals, repetition {rep + 1} of {reps}")
        for p in positions:
            t, raws[p.name] = timed(deals_only, p, prec.deal_count, rep + 1, prec.threads)
            times[p.name].append(t)
    out: dict[str, Any] = {}
    for p in positions:
        t = median(times[p.name])
        raw = raws[p.name]
        out[p.name] = {
            "seats": p.seats,
            "phase": p.tags[0],
            "game": "game" in p.tags,
            "describe": p.describe(),
            "state": p.state,
            "times_s": times[p.name],
            "median_s": t,
            "deals": raw.deals,
            "warnings": raw.warnings,
            "deals_per_100ms": raw.deals * 0.1 / t,
        }
    return out
