"""Peak memory of a query in a fresh interpreter, and instructions per playout (callgrind)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from typing import Any

from bench_query import MEMORY_POSITIONS, ROOT, Precision
from positions import BenchPosition
from thirtyone import _core
from thirtyone.oracle.state import parse

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
    from thirtyone.oracle.query import advise
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


def memory(
    by_name: dict[str, BenchPosition], prec: Precision, log: Callable[[str], None]
) -> dict[str, Any]:
    """Peak memory of one query, in a fresh interpreter, over one that only imports thirtyone.
    The query is asked with ``lives``: with the game-level figures, the larger of the two."""
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
    return mem


# -- instruction counts (optional) -------------------------------------------------------------

_CALLGRIND_CHILD = """
import json, sys
from thirtyone import _core
from thirtyone.oracle.state import parse
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
            # One OpenBLAS thread: numpy's idle BLAS threads spin for a varying while, and
            # callgrind counted that (1% of the total, 5% of the difference between two runs).
            env={**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"},
        )
    for line in out.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":", 1)[1].strip())
    raise RuntimeError("callgrind printed no instruction count")


def instructions(
    p: BenchPosition, prec: Precision, latency: dict[str, Any], log: Callable[[str], None]
) -> dict[str, Any]:
    """Instructions per playout on one position: two round-level queries that differ only in
    playouts, so that the interpreter's start, the import and the deals cancel out."""
    small, large = 2_000, 12_000
    log(f"instruction counts on {p.name} (callgrind, two runs)")
    ir_small = _callgrind_ir(p.round_state, prec.deals, small)
    ir_large = _callgrind_ir(p.round_state, prec.deals, large)
    raw = _core.advise(parse(p.round_state), deals=prec.deals, playouts=small, seed=1, threads=1)
    runs = sum(2 if o.swept else 1 for o in raw.options)
    per_playout = (ir_large - ir_small) / ((large - small) * runs)
    out: dict[str, Any] = {
        "position": p.name,
        "playouts": [small, large],
        "instructions": [ir_small, ir_large],
        "per_playout": per_playout,
    }
    entry = latency.get(p.name, {})
    if "turns_per_playout" in entry:
        out["per_turn"] = per_playout / entry["turns_per_playout"]
    return out
