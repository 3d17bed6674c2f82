"""The run's steps, in order: positions, latency (with the turns counted by a counting build),
consistent deals, thread scaling, the Python reference's rate, memory, instructions, and the
targets' verdicts."""

from __future__ import annotations

import datetime as dt
import math
import os
import resource
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import bench_game as game_level
from bench_deals import consistent_deals, deal_positions
from bench_machine import git_info, machine, machine_busy_s, own_cpu_s, threads_cpu_s, workers_used
from bench_query import (
    SCALING_POSITION,
    Precision,
    deals_only,
    median,
    option_name,
    playouts_per_query,
    query,
    timed,
)
from bench_targets import targets
from bench_valgrind import host_independent
from memory_and_instructions import instructions, memory
from positions import BenchPosition, bench_positions, fingerprint
from thirtyone import _core
from thirtyone.oracle.state import parse
from turn_count import counted_turns
from turn_estimate import Reference, ReferencePlayouts, SamePlayouts

Log = Callable[[str], None]


def run(prec: Precision, quick: bool, log: Log, callgrind: bool = False) -> dict[str, Any]:
    started = dt.datetime.now(dt.UTC)
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    busy0, own0 = machine_busy_s(), own_cpu_s()
    result: dict[str, Any] = {
        "schema": 1,
        "started": started.isoformat(),
        "quick": quick,
        "precision": prec.__dict__,
        "machine": machine(),
        "git": git_info(),
    }
    log("building positions")
    positions = bench_positions()
    by_name = {p.name: p for p in positions}
    result["positions_fingerprint"] = fingerprint(positions)
    result["positions"] = {p.name: _position_facts(p) for p in positions}

    log("warming up (and the game-value tables built or loaded)")
    tables = {p.name: game_level.build_table(p.state) for p in positions}
    query(positions[0], prec, 0, prec.threads)
    timings = time_latency(positions, prec, log)
    counted = counted_turns(positions, prec, log)
    result["turn_count"] = {k: v for k, v in counted.items() if k != "turns"}
    if "error" in counted:
        log(f"turns not counted: {counted['error']}")
    latency = {p.name: latency_entry(p, prec, timings, counted) for p in positions}
    result["latency"] = latency
    log("the game-level figure's cost (the same repetitions, with lives)")
    result["game_level"] = game_level.summary(
        {
            p.name: {
                "round_s": latency[p.name]["median_s"],
                "game_s": latency[p.name]["game_median_s"],
                "table_s": tables[p.name],
            }
            for p in positions
        },
        log,
    )
    result["deals"] = consistent_deals(deal_positions(), prec, log)
    ref = Reference()
    if not ref.ok:
        log(f"pure-Python reference unavailable: {ref.error}")
    sp = by_name[SCALING_POSITION]
    runs = ReferencePlayouts(ref, sp) if ref.ok else None
    if runs is not None:
        log("building the engine's example that plays the reference's playouts (cargo)")
    same = SamePlayouts(runs, sp) if runs is not None else None
    if same is not None and same.error is not None:
        log(f"the engine's same playouts unavailable: {same.error}")
        same = None
    refs = (runs, same)
    result["scaling"], one_thread_deals, batches = thread_scaling(sp, prec, log, refs)
    one_thread = (result["scaling"]["one_thread_s"], one_thread_deals, batches)
    result["reference"] = reference_ratio(ref, refs, sp, prec, one_thread, latency)
    result["memory"] = memory(by_name, prec, log)
    result["host_independent"] = host_independent(by_name, prec, log)
    if "skipped" in result["host_independent"]:
        log(f"host-independent figures skipped: {result['host_independent']['skipped']}")
    if callgrind:
        ins = instructions(by_name[SCALING_POSITION], prec, latency, log)
        rate = result["reference"].get("rust_playouts_per_s_one_thread")
        if rate is not None:
            # How fast this host ran the engine: the instructions a playout takes (counted) at
            # the one-thread playout rate (timed) of the same position. Runs on hosts of one
            # kind compare by it: a run at half the rate was on a host running at half speed.
            ins["per_ns_one_thread"] = ins["per_playout"] * rate / 1e9
        result["instructions"] = ins

    result["targets"] = targets(result, quick)
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    result["finished"] = dt.datetime.now(dt.UTC).isoformat()
    result["bench_cpu_s"] = cpu1.ru_utime + cpu1.ru_stime - cpu0.ru_utime - cpu0.ru_stime
    result["machine"]["load_average_after"] = list(os.getloadavg())
    _others_share(result["machine"], busy0, own0)
    return result


def _position_facts(p: BenchPosition) -> dict[str, Any]:
    return {
        "describe": p.describe(),
        "seats": p.seats,
        "seed": p.seed,
        "turns_played": p.turns_played,
        "min_opponent_turns": p.min_opponent_turns,
        "stock_left": p.stock_left,
        "tags": p.tags,
        "state": p.state,
    }


def _others_share(m: dict[str, Any], busy0: tuple[float, float] | None, own0: float) -> None:
    """Record the share of the machine that other processes took during the run."""
    busy1, own1 = machine_busy_s(), own_cpu_s()
    if busy0 is not None and busy1 is not None:
        wall = busy1[1] - busy0[1]
        cpus = m["usable_cpus"] or os.cpu_count() or 1
        others = max(busy1[0] - busy0[0] - (own1 - own0), 0.0)
        # The share of the machine that other processes (or the hypervisor) took meanwhile:
        # near 0 on a quiet machine; figures from a run where it is high are contended.
        m["others_share_during_run"] = others / (wall * cpus)


# -- latency -----------------------------------------------------------------------------------


@dataclass
class LatencyTimes:
    """Per position: each repetition's wall time (round-level and with the game-level figures),
    CPU time and deals part, and the options' figures of one round-level query (same seed as
    the first repetition)."""

    times: dict[str, list[float]] = field(default_factory=dict)
    game_times: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)
    deal_times: dict[str, list[float]] = field(default_factory=dict)
    raws: dict[str, _core.Answer] = field(default_factory=dict)


def time_latency(positions: list[BenchPosition], prec: Precision, log: Log) -> LatencyTimes:
    """Latency: repetitions interleaved over the positions, and each position's round-level
    query beside the one with the game-level figures, so that a burst of noise is shared."""
    lt = LatencyTimes(
        times={p.name: [] for p in positions},
        game_times={p.name: [] for p in positions},
        cpu={p.name: [] for p in positions},
        deal_times={p.name: [] for p in positions},
    )
    for rep in range(prec.reps):
        log(f"latency, repetition {rep + 1} of {prec.reps}")
        for p in positions:
            r0 = resource.getrusage(resource.RUSAGE_SELF)
            t, _ = timed(query, p, prec, rep + 1, prec.threads)
            r1 = resource.getrusage(resource.RUSAGE_SELF)
            lt.times[p.name].append(t)
            lt.cpu[p.name].append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
            lt.game_times[p.name].append(timed(query, p, prec, rep + 1, prec.threads, True)[0])
            t, _ = timed(deals_only, p, prec.deals, rep + 1, prec.threads)
            lt.deal_times[p.name].append(t)
    for p in positions:  # the options' figures for the playout counts (same seed as rep 1)
        lt.raws[p.name] = _core.advise(
            parse(p.round_state),
            deals=prec.deals,
            playouts=prec.playouts,
            seed=1,
            threads=prec.threads,
        )
    return lt


def latency_entry(
    p: BenchPosition, prec: Precision, lt: LatencyTimes, counted: dict[str, Any]
) -> dict[str, Any]:
    """One position's latency figures, with the turns its query played (counted by the engine,
    seed 1) where the counting build ran."""
    raw = lt.raws[p.name]
    n_play = playouts_per_query(raw)
    t_med = median(lt.times[p.name])
    t_deals = median(lt.deal_times[p.name])
    # The playouts' time; a burst of load on the deals part can leave nothing (then no rates).
    t_play = t_med - t_deals if t_med > t_deals else math.nan
    entry: dict[str, Any] = {
        "times_s": lt.times[p.name],
        "median_s": t_med,
        "worst_s": max(lt.times[p.name]),
        "game_times_s": lt.game_times[p.name],
        "game_median_s": median(lt.game_times[p.name]),
        "cpu_s": lt.cpu[p.name],
        "deals": raw.deals,
        "warnings": raw.warnings,
        "deals_in_query_s": lt.deal_times[p.name],
        "deals_in_query_median_s": t_deals,
        "options": [
            {
                "option": option_name(o),
                "swept": o.swept,
                "playouts": o.playouts,
                "knock_at": o.knock_at,
            }
            for o in raw.options
        ],
        "playouts_per_query": n_play,
        "playout_time_s": t_play,
        "playouts_per_s": n_play / t_play,
        "playouts_per_s_per_core": n_play / t_play / prec.threads,
    }
    turns = counted.get("turns", {}).get(p.name)
    if turns is not None and not math.isnan(t_play):
        entry["turns_per_query"] = turns
        entry["turns_per_playout"] = turns / n_play
        entry["turns_per_s_per_core"] = turns / t_play / prec.threads
    return entry


# -- thread scaling, the Python reference -------------------------------------------------------


#: The reference's playouts and the engine's of the same kind, each when it can run.
Refs = tuple[ReferencePlayouts | None, SamePlayouts | None]

#: Each repetition's reference batch (seconds, turns) and the engine's same playouts (seconds).
RefTimes = tuple[list[tuple[float, int]], list[float]]


def thread_scaling(
    sp: BenchPosition, prec: Precision, log: Log, refs: Refs = (None, None)
) -> tuple[dict[str, Any], list[float], RefTimes]:
    """One and two threads on the same position, interleaved; also the deals part on one thread
    and, with ``refs``, a batch of the Python reference's playouts and one of the engine's
    playouts of the same kind (for the reference ratio: each repetition times both sides in
    turn)."""
    ref, same = refs
    log(f"thread scaling on {sp.name}" + ("" if ref is None else ", and the Python reference"))
    t1: list[float] = []
    t2: list[float] = []
    d1: list[float] = []
    py: list[tuple[float, int]] = []
    engine: list[float] = []
    one_cpu: list[float] = []  # the one-thread queries' CPU seconds
    split: list[list[float]] = []  # each two-thread query's CPU seconds a worker
    waited: list[float] = []  # the two workers' seconds ready but without a CPU
    for rep in range(prec.reps):
        before = threads_cpu_s()
        t1.append(timed(query, sp, prec, rep + 1, 1)[0])
        one_cpu.extend(workers_used(before, 1)[0])
        before = threads_cpu_s()
        t2.append(timed(query, sp, prec, rep + 1, 2)[0])
        cpu, wait = workers_used(before, 2)
        split.append(cpu)
        waited.append(wait)
        d1.append(timed(deals_only, sp, prec.deals, rep + 1, 1)[0])
        if ref is not None:
            py.append(ref.batch(prec.reference_playouts))
        if same is not None:
            engine.append(same.batch())
    scaling = {
        "position": sp.name,
        "one_thread_s": t1,
        "two_threads_s": t2,
        "ratio": median(t1) / median(t2),
        # Fastest against fastest: less sensitive to other processes taking the second core.
        "ratio_best": min(t1) / min(t2),
    }
    if one_cpu and all(split):
        # What the host took from the scaling: the workers' CPU seconds show how the work was
        # split; were both cores given, a query would take about its busiest worker's time.
        scaling["one_thread_cpu_s"] = one_cpu
        scaling["two_threads_cpu_s"] = split
        scaling["two_threads_waited_s"] = waited
        scaling["ratio_by_cpu"] = median(one_cpu) / median([c[0] for c in split])
    return scaling, d1, (py, engine)


def reference_ratio(
    ref: Reference,
    refs: Refs,
    sp: BenchPosition,
    prec: Precision,
    timings: tuple[list[float], list[float], RefTimes],
    latency: dict[str, Any],
) -> dict[str, Any]:
    """The Rust engine's playout rate on one core against the Python reference's, each the
    median of the repetitions that timed both in turn (`timings`: the engine's one-thread
    queries, their deals parts, the reference's batches and the engine's same playouts). The
    ratio is of the same playouts (`SamePlayouts`); without them, of the query's (which
    understates it: a query's playout plays every knock score of its sweep)."""
    runs, same = refs
    if runs is None:
        return {"error": ref.error}
    t1, d1, (batches, same_s) = timings
    t_py = median([t for t, _ in batches])
    n_turns = sum(n for _, n in batches)
    py_rate = prec.reference_playouts / t_py
    rust_play_1 = max(median(t1) - median(d1), 1e-9)
    rust_rate_1 = latency[sp.name]["playouts_per_query"] / rust_play_1
    ratio: dict[str, Any] = {
        "position": sp.name,
        "python_option": runs.option,
        "python_playouts": prec.reference_playouts,
        "python_batches": len(batches),
        "python_batch_s": [t for t, _ in batches],
        "python_s": t_py,
        "python_playouts_per_s": py_rate,
        "python_turns_per_s": n_turns / sum(t for t, _ in batches),
        "python_turns_per_playout": n_turns / (prec.reference_playouts * len(batches)),
        "python_lives_lost_per_playout": runs.lost / (prec.reference_playouts * len(batches)),
        "rust_one_thread_playout_time_s": rust_play_1,
        "rust_playouts_per_s_one_thread": rust_rate_1,
        "query_playout_ratio": rust_rate_1 / py_rate,
        "playout_ratio": rust_rate_1 / py_rate,
        "playout_ratio_of": "the query's playouts (each a whole sweep)",
    }
    if same is not None and same_s:
        same_rate = same.job["playouts"] / median(same_s)
        ratio |= {
            "same_playouts": same.job["playouts"],
            "same_batch_s": same_s,
            "same_playouts_per_s": same_rate,
            "same_lives_lost_per_playout": same.lost / (same.job["playouts"] * len(same_s)),
            "playout_ratio": same_rate / py_rate,
            "playout_ratio_of": "the same playouts",
        }
    if "turns_per_query" in latency[sp.name]:
        rust_turns_1 = latency[sp.name]["turns_per_query"] / rust_play_1
        ratio["rust_turns_per_s_one_thread"] = rust_turns_1
        ratio["turn_ratio"] = rust_turns_1 / ratio["python_turns_per_s"]
    return ratio
