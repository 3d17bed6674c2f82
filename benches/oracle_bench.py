"""The Oracle's speed on a fixed set of positions, against the project's performance targets.

    python benches/oracle_bench.py            # full precision, ~3 minutes on two cores
    python benches/oracle_bench.py --quick    # a smoke run at low precision, ~20 seconds
    python benches/oracle_bench.py --out FILE.json

Prints a table with each figure beside its target and writes everything as JSON (default
``benches/results/latest.json``) so that runs can be compared. Timings on a shared machine are
noisy: compare ratios measured in one run, and look at the load average recorded with each run.
See ``benches/README.md`` for what each figure means.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from positions import BenchPosition, bench_positions, fingerprint
from thirtyone import _core
from thirtyone.state import parse

try:  # the package's public entry point, where it is exported
    from thirtyone import advise  # type: ignore[attr-defined]
except ImportError:
    from thirtyone.oracle import advise

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "benches" / "results" / "latest.json"

# The performance targets (docs/evidence.md).
TARGET_4P_MEDIAN_S = 0.100
TARGET_4P_SLOWEST_S = 0.250
TARGET_6P_LATE_S = 0.400
TARGET_TURNS_PER_S_PER_CORE = 20e6
TARGET_DEALS_S = 0.020
TARGET_SCALING = 1.8
TARGET_MEMORY_MB = 50.0
TARGET_REFERENCE_RATIO = 1_000.0


@dataclass(frozen=True)
class Precision:
    deals: int
    playouts: int
    threads: int
    reps: int
    #: Consistent deals timed for the deal figures.
    deal_count: int
    #: Samples per option for the estimate of turns per playout (Python reference model).
    turn_samples: int
    #: Playouts of the pure-Python reference timed for the ratio.
    reference_playouts: int


FULL = Precision(10_000, 50_000, 2, 9, 10_000, 200, 1_000)
QUICK = Precision(1_000, 5_000, 2, 1, 10_000, 30, 200)

#: The position the thread scaling, the memory and the Python-reference ratio are measured on.
SCALING_POSITION = "4p-middle"
MEMORY_POSITIONS = ("4p-middle", "6p-early")


# -- machine and build -------------------------------------------------------------------------


def _cpu_model() -> str:
    """The CPU's model name, with its family, model and stepping numbers where they are known
    (a virtual machine may show only a vendor's family name)."""
    fields: dict[str, str] = {}
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            fields.setdefault(key.strip(), value.strip())
    except OSError:
        return platform.processor() or "unknown"
    name = fields.get("model name", platform.processor() or "unknown")
    ids = [f"{k} {fields[k]}" for k in ("cpu family", "model", "stepping") if k in fields]
    return f"{name} ({', '.join(ids)})" if ids else name


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip()


def machine() -> dict[str, Any]:
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    core = Path(_core.__file__)
    return {
        "cpu": _cpu_model(),
        "logical_cpus": os.cpu_count(),
        "usable_cpus": affinity,
        "load_average": list(os.getloadavg()),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "extension": {
            "path": str(core),
            "mtime": dt.datetime.fromtimestamp(core.stat().st_mtime, dt.UTC).isoformat(),
            "bytes": core.stat().st_size,
        },
    }


def git_info() -> dict[str, Any]:
    status = _git("status", "--porcelain", "--", "rust", "python", "Cargo.toml", "Cargo.lock")
    return {
        "commit": _git("rev-parse", "HEAD"),
        "describe": _git("log", "-1", "--format=%h %s"),
        # Uncommitted changes to the code that is timed: the figures may not match the commit.
        "code_dirty": bool(status),
    }


def _machine_busy_s() -> tuple[float, float] | None:
    """CPU seconds the whole machine spent busy (steal included) and wall seconds, from
    ``/proc/stat`` (None where there is none)."""
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()
    except OSError:
        return None
    tick = os.sysconf("SC_CLK_TCK")
    # user nice system idle iowait irq softirq steal ...
    vals = [int(x) for x in fields[1:]]
    busy = sum(vals[:8]) - vals[3] - vals[4]
    return busy / tick, time.monotonic()


def _own_cpu_s() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


# -- timing helpers ----------------------------------------------------------------------------


def timed(f: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    """Wall time of ``f(*args)``, and what it returned."""
    t = time.perf_counter()
    out = f(*args)
    return time.perf_counter() - t, out


def median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else math.nan


# -- the query and what it plays ---------------------------------------------------------------


def query(p: BenchPosition, prec: Precision, seed: int, threads: int) -> Any:
    """The full query as a program calls it; no time limit, so that it always does the whole
    work (a contended run must not be cut short and look fast)."""
    return advise(
        p.state,
        deals=prec.deals,
        playouts=prec.playouts,
        seed=seed,
        threads=threads,
        max_time=None,
    )


def deals_only(p: BenchPosition, deals: int, seed: int, threads: int) -> dict[str, Any]:
    """The query with one playout per option: what it costs is the consistent deals (plus the
    state's check, the setup and a handful of playouts)."""
    return _core.advise(parse(p.state), deals=deals, playouts=1, seed=seed, threads=threads)


def playouts_per_query(raw: dict[str, Any]) -> int:
    """Playouts the engine ran: each option's run, and as many again to confirm a sweep."""
    return sum(int(o["playouts"]) * (2 if o["swept"] else 1) for o in raw["options"])


# -- turns per playout, estimated on the Python reference's model -------------------------------


class Reference:
    """The pure-Python reference Oracle of ``tests/reference`` (absent: figures left out)."""

    def __init__(self) -> None:
        self.error: str | None = None
        try:
            sys.path.append(str(ROOT))
            from tests.reference.playout import play_out
            from tests.reference.rules import score
            from tests.reference.sampler import Deal
            from tests.reference.state import parse_state

            self.play_out: Any = play_out
            self.score: Any = score
            self.Deal: Any = Deal
            self.parse_state: Any = parse_state
        except Exception as e:  # any failure: report it and go on without the reference
            self.error = f"{type(e).__name__}: {e}"

    @property
    def ok(self) -> bool:
        return self.error is None

    def position(self, p: BenchPosition) -> Any:
        state = dict(p.state)
        rules = state.get("rules")
        if isinstance(rules, dict):  # the reference takes round rules only
            state["rules"] = {k: v for k, v in rules.items() if k != "seats"}
        return self.parse_state(state)

    def deals(self, p: BenchPosition, n: int, seed: int) -> list[Any]:
        """Consistent deals sampled by the Rust core (uniform over the same set as the
        reference's), in the reference's form."""
        raw, _ = _core.sample_deals(parse(p.state), n, seed, 2)
        return [
            self.Deal(
                hands={int(s): tuple(h) for s, h in d["hands"].items()},
                hidden={},
                rest=tuple(d["stock"]),
                histories={},
            )
            for d in raw
        ]


@dataclass
class TurnEstimate:
    #: Mean table-rule turns of one sweep playout and of one confirmation playout.
    sweep: float
    confirm: float


def _ref_option(o: dict[str, Any]) -> list[tuple[str, str | None]]:
    """The reference options (option, put-down) one engine playout of option ``o`` plays."""
    kind = o["kind"]
    if kind == "take":
        return [("take", c) for c in o["_hand"]]  # every put-down variant, one trajectory each
    if kind == "discard":
        return [(f"discard:{o['card']}", None)]
    return [(kind, None)]


def estimate_turns(
    ref: Reference, p: BenchPosition, raw: dict[str, Any], samples: int, seed: int
) -> dict[str, TurnEstimate]:
    """Mean table-rule turns per engine playout, per option, on the reference's model.

    The engine counts no turns, so they are estimated: the same playouts (consistent deal, fresh
    stock order, the table's rule) are played by the reference, which logs every turn. A sweep
    playout of the engine plays the never-knock trajectory and, at each of your turns where a
    knock threshold is first reached, a branch that knocks there and plays the final turns; a
    take plays that for each card you could put down. Your own first move is not a rule turn.
    """
    pos = ref.position(p)
    deals = ref.deals(p, samples, seed)
    me = pos.me
    out: dict[str, TurnEstimate] = {}
    for o in raw["options"]:
        o = {**o, "_hand": list(p.state["hand"])}
        thresholds = (
            sorted(float(k) for k in o["sweep_knock_at"] if not math.isnan(k)) if o["swept"] else []
        )
        rng = random.Random(seed)
        sweep_turns = 0
        confirm_turns = 0
        for i in range(samples):
            deal = deals[i % len(deals)]
            stock = list(deal.rest)
            rng.shuffle(stock)
            for option, put in _ref_option(o):
                log: list[Any] = []
                ref.play_out(pos, deal, stock, option, put, None, log)
                sweep_turns += len(log) - 1
                if thresholds:
                    sweep_turns += _branch_turns(ref, pos, deal, stock, option, put, log, me, o)
            # The confirmation: one trajectory, the chosen put-down and knock score.
            option, put = ("take", o["discard"]) if o["kind"] == "take" else _ref_option(o)[0]
            log = []
            knock_at = o["knock_at"] if o["swept"] else None
            ref.play_out(pos, deal, stock, option, put, knock_at, log)
            confirm_turns += len(log) - 1
        name = o["kind"] if o["kind"] != "discard" else f"discard:{o['card']}"
        out[name] = TurnEstimate(sweep_turns / samples, confirm_turns / samples)
    return out


def _branch_turns(
    ref: Reference,
    pos: Any,
    deal: Any,
    stock: list[str],
    option: str,
    put: str | None,
    never_log: list[Any],
    me: int,
    o: dict[str, Any],
) -> int:
    """Turns of the branches a sweep trajectory spawns (each from its knock to the end)."""
    thresholds = sorted(float(k) for k in o["sweep_knock_at"] if not math.isnan(k))
    hand = list(pos.hand)
    reached = 0
    turns = 0
    for j, (seat, _action, gained, put_down) in enumerate(never_log):
        if j > 0 and seat == me and reached < len(thresholds):
            s = float(ref.score(hand, pos.rules))
            upto = reached
            while upto < len(thresholds) and thresholds[upto] <= s:
                upto += 1
            if upto > reached:
                log: list[Any] = []
                ref.play_out(pos, deal, stock, option, put, thresholds[reached], log)
                if j < len(log) and log[j][0] == me and log[j][1] == "knock":
                    turns += len(log) - j
                    reached = upto
        if seat == me and gained is not None and put_down is not None:
            hand = [*hand, gained]
            hand.remove(put_down)
    return turns


# -- memory ------------------------------------------------------------------------------------

_CHILD = """
import json, sys

def hwm_kb():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])

try:
    from thirtyone import advise
except ImportError:
    from thirtyone.oracle import advise
job = json.load(sys.stdin)
imported = hwm_kb()
advise(job["state"], deals=job["deals"], playouts=job["playouts"], seed=1,
       threads=job["threads"], max_time=None)
print(json.dumps({"import_kb": imported, "query_kb": hwm_kb()}))
"""


def child_peak_rss_mb(state: dict[str, Any], prec: Precision) -> tuple[float, float]:
    """The RSS high-water mark (``VmHWM``) of a fresh interpreter after importing thirtyone, and
    after it answered one query, in MB.

    ``VmHWM`` belongs to the process's own address space, which ``exec`` makes anew. The
    rusage ``ru_maxrss`` of a child is no good here: Linux carries the parent's high-water mark
    across ``fork`` and ``exec``, so a small child reports the benchmark's own RSS.
    """
    job = json.dumps(
        {"state": state, "deals": prec.deals, "playouts": prec.playouts, "threads": prec.threads}
    )
    out = subprocess.run(
        [sys.executable, "-c", _CHILD],
        input=job,
        cwd=ROOT,
        text=True,
        capture_output=True,
        check=True,
        timeout=600,
    )
    got = json.loads(out.stdout.strip().splitlines()[-1])
    return got["import_kb"] / 1024, got["query_kb"] / 1024


# -- instruction counts (optional) -------------------------------------------------------------

_CALLGRIND_CHILD = """
import json, sys
from thirtyone import _core
from thirtyone.state import parse
job = json.load(sys.stdin)
_core.advise(parse(job["state"]), deals=job["deals"], playouts=job["playouts"], seed=1,
             threads=1)
"""


def _callgrind_ir(state: dict[str, Any], deals: int, playouts: int) -> int:
    """Instructions executed by a fresh interpreter answering one query on one thread, counted
    by valgrind's callgrind (the same on a busy machine as on a quiet one)."""
    job = json.dumps({"state": state, "deals": deals, "playouts": playouts})
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={tmp}/callgrind.out",
                sys.executable,
                "-c",
                _CALLGRIND_CHILD,
            ],
            input=job,
            text=True,
            capture_output=True,
            check=True,
            timeout=1200,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
    for line in out.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":", 1)[1].strip())
    raise RuntimeError("callgrind printed no instruction count")


def instructions(
    p: BenchPosition, prec: Precision, latency: dict[str, Any], log: Callable[[str], None]
) -> dict[str, Any]:
    """Instructions per playout on one position: two queries that differ only in playouts, so
    that the interpreter's start, the import and the deals cancel out."""
    small, large = 2_000, 12_000
    log(f"instruction counts on {p.name} (callgrind, two runs)")
    ir_small = _callgrind_ir(p.state, prec.deals, small)
    ir_large = _callgrind_ir(p.state, prec.deals, large)
    raw = _core.advise(parse(p.state), deals=prec.deals, playouts=small, seed=1, threads=1)
    runs = sum(2 if o["swept"] else 1 for o in raw["options"])
    per_playout = (ir_large - ir_small) / ((large - small) * runs)
    out: dict[str, Any] = {
        "position": p.name,
        "playouts": [small, large],
        "instructions": [ir_small, ir_large],
        "per_playout": per_playout,
    }
    entry = latency.get(p.name, {})
    if "turns_per_query_est" in entry:
        turns_per_playout = entry["turns_per_query_est"] / entry["playouts_per_query"]
        out["per_turn_est"] = per_playout / turns_per_playout
    return out


# -- the run -----------------------------------------------------------------------------------


def run(
    prec: Precision, quick: bool, log: Callable[[str], None], callgrind: bool = False
) -> dict[str, Any]:
    started = dt.datetime.now(dt.UTC)
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    busy0, own0 = _machine_busy_s(), _own_cpu_s()
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
    result["positions"] = {
        p.name: {
            "describe": p.describe(),
            "seats": p.seats,
            "seed": p.seed,
            "turns_played": p.turns_played,
            "min_opponent_turns": p.min_opponent_turns,
            "stock_left": p.stock_left,
            "tags": p.tags,
            "state": p.state,
        }
        for p in positions
    }

    log("warming up")
    query(positions[0], prec, 0, prec.threads)

    # Latency: repetitions interleaved over the positions, so that a burst of noise is shared.
    times: dict[str, list[float]] = {p.name: [] for p in positions}
    cpu: dict[str, list[float]] = {p.name: [] for p in positions}
    deal_times: dict[str, list[float]] = {p.name: [] for p in positions}
    raws: dict[str, dict[str, Any]] = {}
    for rep in range(prec.reps):
        log(f"latency, repetition {rep + 1} of {prec.reps}")
        for p in positions:
            r0 = resource.getrusage(resource.RUSAGE_SELF)
            t, _ = timed(query, p, prec, rep + 1, prec.threads)
            r1 = resource.getrusage(resource.RUSAGE_SELF)
            times[p.name].append(t)
            cpu[p.name].append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
            t, _ = timed(deals_only, p, prec.deals, rep + 1, prec.threads)
            deal_times[p.name].append(t)
    for p in positions:  # the options' figures for the playout counts (same seed as rep 1)
        raws[p.name] = _core.advise(
            parse(p.state),
            deals=prec.deals,
            playouts=prec.playouts,
            seed=1,
            threads=prec.threads,
        )

    ref = Reference()
    if not ref.ok:
        log(f"pure-Python reference unavailable: {ref.error}")

    latency: dict[str, Any] = {}
    for p in positions:
        raw = raws[p.name]
        n_play = playouts_per_query(raw)
        t_med = median(times[p.name])
        t_deals = median(deal_times[p.name])
        t_play = max(t_med - t_deals, 1e-9)
        entry: dict[str, Any] = {
            "times_s": times[p.name],
            "median_s": t_med,
            "worst_s": max(times[p.name]),
            "cpu_s": cpu[p.name],
            "deals": raw["deals"],
            "warnings": raw["warnings"],
            "deals_in_query_s": deal_times[p.name],
            "deals_in_query_median_s": t_deals,
            "options": [
                {
                    "option": o["kind"] if o["kind"] != "discard" else f"discard:{o['card']}",
                    "swept": o["swept"],
                    "playouts": o["playouts"],
                    "knock_at": o["knock_at"],
                }
                for o in raw["options"]
            ],
            "playouts_per_query": n_play,
            "playout_time_s": t_play,
            "playouts_per_s": n_play / t_play,
            "playouts_per_s_per_core": n_play / t_play / prec.threads,
        }
        if ref.ok:
            log(f"estimating turns per playout on {p.name}")
            est = estimate_turns(ref, p, raw, prec.turn_samples, seed=7)
            turns = 0.0
            for o in raw["options"]:
                name = o["kind"] if o["kind"] != "discard" else f"discard:{o['card']}"
                n = int(o["playouts"])
                turns += n * est[name].sweep + (n * est[name].confirm if o["swept"] else 0.0)
            entry["turns_per_playout_est"] = {
                k: {"sweep": v.sweep, "confirm": v.confirm} for k, v in est.items()
            }
            entry["turns_per_query_est"] = turns
            entry["turns_per_s_per_core_est"] = turns / t_play / prec.threads
        latency[p.name] = entry
    result["latency"] = latency

    # Consistent deals on the late positions (every opponent five turns or more).
    late = [p for p in positions if "late" in p.tags]
    deals: dict[str, Any] = {}
    for p in late:
        log(f"consistent deals on {p.name}")
        ts: list[float] = []
        tq: list[float] = []
        got: list[Any] = []
        for rep in range(max(prec.reps, 3)):
            state = parse(p.state)
            t, (got, _) = timed(_core.sample_deals, state, prec.deal_count, rep + 1, prec.threads)
            ts.append(t)
            t, raw = timed(deals_only, p, prec.deal_count, rep + 1, prec.threads)
            tq.append(t)
        deals[p.name] = {
            "count": len(got),
            "count_in_query": raw["deals"],
            "sample_deals_s": ts,
            "sample_deals_median_s": median(ts),
            "sample_deals_per_s": len(got) / median(ts),
            "in_query_s": tq,
            "in_query_median_s": median(tq),
            "in_query_deals_per_s": raw["deals"] / median(tq),
        }
    result["deals"] = deals

    # Thread scaling: one and two threads on the same position, interleaved.
    sp = by_name[SCALING_POSITION]
    log(f"thread scaling on {sp.name}")
    t1: list[float] = []
    t2: list[float] = []
    d1: list[float] = []
    for rep in range(prec.reps):
        t1.append(timed(query, sp, prec, rep + 1, 1)[0])
        t2.append(timed(query, sp, prec, rep + 1, 2)[0])
        d1.append(timed(deals_only, sp, prec.deals, rep + 1, 1)[0])
    result["scaling"] = {
        "position": sp.name,
        "one_thread_s": t1,
        "two_threads_s": t2,
        "ratio": median(t1) / median(t2),
        # Fastest against fastest: less sensitive to other processes taking the second core.
        "ratio_best": min(t1) / min(t2),
    }

    # The Rust engine's playout rate on one core against the Python reference's.
    if ref.ok:
        log(f"pure-Python reference playouts on {sp.name}")
        pos = ref.position(sp)
        ref_deals = ref.deals(sp, 200, 3)
        option = "draw" if "pending" not in sp.state else f"discard:{sp.state['hand'][0]}"
        rng = random.Random(5)
        n_turns = 0

        def python_playouts() -> None:
            nonlocal n_turns
            for i in range(prec.reference_playouts):
                deal = ref_deals[i % len(ref_deals)]
                stock = list(deal.rest)
                rng.shuffle(stock)
                log_: list[Any] = []
                ref.play_out(pos, deal, stock, option, None, None, log_)
                n_turns += len(log_) - 1

        t_py, _ = timed(python_playouts)
        py_rate = prec.reference_playouts / t_py
        rust_play_1 = max(median(t1) - median(d1), 1e-9)
        rust_rate_1 = latency[sp.name]["playouts_per_query"] / rust_play_1
        ratio: dict[str, Any] = {
            "position": sp.name,
            "python_option": option,
            "python_playouts": prec.reference_playouts,
            "python_s": t_py,
            "python_playouts_per_s": py_rate,
            "python_turns_per_s": n_turns / t_py,
            "rust_one_thread_playout_time_s": rust_play_1,
            "rust_playouts_per_s_one_thread": rust_rate_1,
            "playout_ratio": rust_rate_1 / py_rate,
        }
        if "turns_per_query_est" in latency[sp.name]:
            rust_turns_1 = latency[sp.name]["turns_per_query_est"] / rust_play_1
            ratio["rust_turns_per_s_one_thread_est"] = rust_turns_1
            ratio["turn_ratio_est"] = rust_turns_1 / (n_turns / t_py)
        result["reference"] = ratio
    else:
        result["reference"] = {"error": ref.error}

    # Peak memory of one query, in a fresh interpreter, over one that only imports thirtyone.
    log("peak memory")
    mem: dict[str, Any] = {"method": "VmHWM of a fresh interpreter", "queries": {}}
    for name in MEMORY_POSITIONS:
        imported, peak = child_peak_rss_mb(by_name[name].state, prec)
        mem["queries"][name] = {
            "import_mb": imported,
            "peak_mb": peak,
            "over_import_mb": peak - imported,
        }
    mem["worst_over_import_mb"] = max(q["over_import_mb"] for q in mem["queries"].values())
    mem["worst_peak_mb"] = max(q["peak_mb"] for q in mem["queries"].values())
    result["memory"] = mem

    if callgrind:
        result["instructions"] = instructions(by_name[SCALING_POSITION], prec, latency, log)

    result["targets"] = targets(result, quick)
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    result["finished"] = dt.datetime.now(dt.UTC).isoformat()
    result["bench_cpu_s"] = cpu1.ru_utime + cpu1.ru_stime - cpu0.ru_utime - cpu0.ru_stime
    result["machine"]["load_average_after"] = list(os.getloadavg())
    busy1, own1 = _machine_busy_s(), _own_cpu_s()
    if busy0 is not None and busy1 is not None:
        wall = busy1[1] - busy0[1]
        cpus = result["machine"]["usable_cpus"] or os.cpu_count() or 1
        others = max(busy1[0] - busy0[0] - (own1 - own0), 0.0)
        # The share of the machine that other processes (or the hypervisor) took meanwhile:
        # near 0 on a quiet machine; figures from a run where it is high are contended.
        result["machine"]["others_share_during_run"] = others / (wall * cpus)
    return result


def targets(r: dict[str, Any], quick: bool) -> list[dict[str, Any]]:
    """Each performance target with the figure measured and whether it is met (None: the figure
    is missing, or a quick run, whose precision is not the targets')."""
    lat = r["latency"]
    four = [n for n in lat if n.startswith("4p-")]
    four_medians = [lat[n]["median_s"] for n in four]
    rows: list[dict[str, Any]] = []

    def row(name: str, value: float | None, target: float, higher: bool, unit: str) -> None:
        ok = None
        if value is not None and not math.isnan(value) and not quick:
            ok = value >= target if higher else value <= target
        rows.append(
            {
                "target": name,
                "value": value,
                "goal": target,
                "higher_is_better": higher,
                "unit": unit,
                "pass": ok,
            }
        )

    med4 = statistics.median(four_medians)
    row("4 seats: median over positions", med4, TARGET_4P_MEDIAN_S, False, "s")
    row("4 seats: slowest position (median)", max(four_medians), TARGET_4P_SLOWEST_S, False, "s")
    six = lat["6p-late"]["median_s"] if "6p-late" in lat else None
    row("6 seats late", six, TARGET_6P_LATE_S, False, "s")
    turn_rates = [
        e["turns_per_s_per_core_est"] for e in lat.values() if "turns_per_s_per_core_est" in e
    ]
    total_turns = sum(e.get("turns_per_query_est", 0.0) for e in lat.values())
    total_time = sum(e["playout_time_s"] for e in lat.values())
    threads = r["precision"]["threads"]
    row(
        "table-rule turns / s / core (estimated, all positions)",
        total_turns / total_time / threads if turn_rates else None,
        TARGET_TURNS_PER_S_PER_CORE,
        True,
        "turns/s",
    )
    if r["deals"]:
        row(
            "10,000 deals, late (slowest, inside a query)",
            max(
                (d["in_query_median_s"] for d in r["deals"].values() if d["in_query_median_s"]),
                default=None,
            ),
            TARGET_DEALS_S,
            False,
            "s",
        )
        row(
            "10,000 deals, late (slowest, _core.sample_deals)",
            max(d["sample_deals_median_s"] for d in r["deals"].values()),
            TARGET_DEALS_S,
            False,
            "s",
        )
        # Not judged: most of this time is spent making 10,000 Python dicts and lists.
        rows[-1]["pass"] = None
        rows[-1]["note"] = "not judged: mostly the conversion of the deals to Python objects"
    row("two threads / one thread", r["scaling"]["ratio"], TARGET_SCALING, True, "x")
    row(
        "peak memory of a query",
        r["memory"]["worst_over_import_mb"],
        TARGET_MEMORY_MB,
        False,
        "MB",
    )
    row(
        "Rust / Python reference playout rate",
        r["reference"].get("playout_ratio"),
        TARGET_REFERENCE_RATIO,
        True,
        "x",
    )
    return rows


# -- display -----------------------------------------------------------------------------------


def _ms(s: float | None) -> str:
    return "-" if s is None or math.isnan(s) else f"{1000 * s:.1f} ms"


def _big(x: float | None) -> str:
    if x is None or math.isnan(x):
        return "-"
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(x) >= scale:
            return f"{x / scale:.2f} {unit}"
    return f"{x:.1f}"


def _value(row: dict[str, Any]) -> str:
    v = row["value"]
    if v is None:
        return "-"
    unit = row["unit"]
    if unit == "s":
        return _ms(v)
    if unit == "x":
        return f"{v:.2f}x" if v < 100 else f"{v:,.0f}x"
    if unit == "MB":
        return f"{v:.1f} MB"
    return _big(v)


def _goal(row: dict[str, Any]) -> str:
    sign = ">=" if row["higher_is_better"] else "<="
    goal = row["goal"]
    text = _value({**row, "value": goal})
    return f"{sign} {text}"


def show(r: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=max(Console().width, 130))
    m = r["machine"]
    console.print(
        f"[bold]Oracle benchmark[/bold]  {m['cpu']}, {m['usable_cpus']} usable of "
        f"{m['logical_cpus']} CPUs, load {m['load_average'][0]:.2f} before / "
        f"{m['load_average_after'][0]:.2f} after; commit {str(r['git']['commit'])[:10]}"
        f"{' + uncommitted changes' if r['git']['code_dirty'] else ''}"
    )
    share = m.get("others_share_during_run")
    if share is not None:
        style = "red" if share > 0.15 else "green"
        console.print(
            f"[{style}]Other processes took {100 * share:.0f}% of the machine during the run"
            + (": the figures are contended, compare ratios only" if share > 0.15 else "")
            + f"[/{style}]"
        )
    p = r["precision"]
    console.print(
        f"{p['deals']:,} deals, {p['playouts']:,} playouts per option, {p['threads']} threads, "
        f"{p['reps']} repetitions"
        + ("  [yellow](quick: targets not judged)[/yellow]" if r["quick"] else "")
    )

    t = Table(title=f"Positions (fingerprint {r['positions_fingerprint']})")
    t.add_column("position")
    t.add_column("")
    for name, info in r["positions"].items():
        t.add_row(name, f"{info['describe']} (seed {info['seed']})")
    console.print(t)

    t = Table(title="Latency of a query, per position")
    for col in (
        "position",
        "median",
        "worst",
        "deals part",
        "playouts",
        "playouts/s/core",
        "turns/playout*",
        "turns/s/core*",
        "target (median)",
    ):
        t.add_column(col, justify="left" if col == "position" else "right")
    for name, e in r["latency"].items():
        goal = TARGET_6P_LATE_S if name == "6p-late" else None
        if name.startswith("4p-"):
            goal = TARGET_4P_SLOWEST_S
        mark = ""
        if goal is not None:
            ok = e["median_s"] <= goal
            verdict = "-" if r["quick"] else "[green]pass[/green]" if ok else "[red]FAIL[/red]"
            mark = f"<= {_ms(goal)} {verdict}"
        tpp = (
            e["turns_per_query_est"] / e["playouts_per_query"]
            if "turns_per_query_est" in e
            else None
        )
        t.add_row(
            name,
            _ms(e["median_s"]),
            _ms(e["worst_s"]),
            _ms(e["deals_in_query_median_s"]),
            f"{e['playouts_per_query']:,}",
            _big(e["playouts_per_s_per_core"]),
            "-" if tpp is None else f"{tpp:.1f}",
            _big(e.get("turns_per_s_per_core_est")),
            mark,
        )
    console.print(t)
    console.print(
        "[dim]* turns are not counted by the engine: estimated from the same playouts replayed "
        "by the Python reference (see benches/README.md). 'deals part': the query with one "
        "playout per option.[/dim]"
    )

    if r["deals"]:
        t = Table(title=f"{r['precision']['deal_count']:,} consistent deals, late positions")
        for col in ("position", "inside a query", "deals/s", "_core.sample_deals", "deals/s"):
            t.add_column(col, justify="right")
        for name, d in r["deals"].items():
            t.add_row(
                name,
                _ms(d["in_query_median_s"]),
                _big(d["in_query_deals_per_s"]),
                _ms(d["sample_deals_median_s"]),
                _big(d["sample_deals_per_s"]),
            )
        console.print(t)
        console.print(
            "[dim]_core.sample_deals also converts every deal to Python objects; 'inside a "
            "query' is the query with one playout per option.[/dim]"
        )

    s = r["scaling"]
    console.print(
        f"Thread scaling on {s['position']}: one thread {_ms(median(s['one_thread_s']))}, two "
        f"{_ms(median(s['two_threads_s']))} (medians): {s['ratio']:.2f}x; fastest against "
        f"fastest: {s['ratio_best']:.2f}x"
    )
    ref = r["reference"]
    if "error" in ref:
        console.print(f"Python reference: unavailable ({ref['error']})")
    else:
        console.print(
            f"Python reference on {ref['position']} ({ref['python_option']}, never knocking): "
            f"{ref['python_playouts_per_s']:,.0f} playouts/s, {_big(ref['python_turns_per_s'])} "
            f"turns/s; Rust on one thread: {_big(ref['rust_playouts_per_s_one_thread'])} "
            f"playouts/s (each a whole sweep): {ref['playout_ratio']:,.0f}x"
            + (
                f"; per table-rule turn (estimated) {ref['turn_ratio_est']:,.0f}x"
                if "turn_ratio_est" in ref
                else ""
            )
        )
    ins = r.get("instructions")
    if ins:
        console.print(
            f"Instructions (callgrind, one thread) on {ins['position']}: "
            f"{ins['per_playout']:,.0f} per playout"
            + (
                f", {ins['per_turn_est']:,.0f} per table-rule turn*"
                if "per_turn_est" in ins
                else ""
            )
        )
    mem = r["memory"]
    console.print(
        "Peak memory (RSS high-water mark of a fresh interpreter): "
        + ", ".join(
            f"{n}: {q['import_mb']:.1f} MB after importing thirtyone, {q['peak_mb']:.1f} MB "
            f"after the query (+{q['over_import_mb']:.1f} MB)"
            for n, q in mem["queries"].items()
        )
    )

    t = Table(title="Performance targets")
    for col in ("target", "measured", "goal", ""):
        t.add_column(col, justify="left" if col == "target" else "right")
    for row in r["targets"]:
        ok = row["pass"]
        mark = "[green]pass[/green]" if ok else "[red]FAIL[/red]" if ok is False else "-"
        if "note" in row:
            mark = "- (note)"
        t.add_row(row["target"], _value(row), _goal(row), mark)
    console.print(t)
    for row in r["targets"]:
        if "note" in row:
            console.print(f"[dim]note: {row['target']}: {row['note']}[/dim]")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="a fast smoke run at low precision")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where to write the JSON")
    ap.add_argument("--reps", type=int, help="repetitions per position (default 9; quick 1)")
    ap.add_argument(
        "--callgrind",
        action="store_true",
        help="also count instructions per playout with valgrind (about a minute; repeatable "
        "on a busy machine)",
    )
    args = ap.parse_args(argv)
    prec = QUICK if args.quick else FULL
    if args.reps:
        prec = Precision(**{**prec.__dict__, "reps": args.reps})

    def log(msg: str) -> None:
        print(f"... {msg}", file=sys.stderr, flush=True)

    result = run(prec, args.quick, log, callgrind=args.callgrind)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1, default=float) + "\n")
    show(result)
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
