"""The two figures that do not depend on the host: instructions per table-rule turn (valgrind's
callgrind) and last-level cache misses per turn under a simulated small cache (cachegrind with a
512 KB last level, the size of one core's L2 on the small hosts). Both count the engine's own
example binary (``hot_path``: the queries on one thread, the shipped build's code) at two
playout counts; the difference over the difference of the turns the counting build counts
(``turn_count.py``) leaves out the start, the tables' building and the deals: what is left is
the playouts' cost once warm."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_query import ROOT, Precision
from positions import BenchPosition
from turn_count import BUILD as COUNT_BUILD
from turn_count import example_build, target_dir

#: The positions measured: a first turn (random hands: the widest spread of table reads), the
#: position of the thread scaling and the Python reference, and a six-seat one.
POSITIONS = ("4p-first", "4p-middle", "6p-early")
#: Playouts per option of the two runs whose difference is measured: both above the deals (the
#: precision's 10,000), so that both keep the deals, as the timed queries do (below
#: the deals each playout would make its own, and the difference would mix two ways of playing).
SMALL, LARGE = 12_000, 22_000
#: The simulated last-level cache: 512 KB, 8-way, 64-byte lines.
SMALL_LL = "--LL=524288,8,64"
BUILD = example_build("hot_path")

Log = Callable[[str], None]


def _job(p: BenchPosition, prec: Precision, playouts: int) -> str:
    return json.dumps(
        {
            "deals": prec.deals,
            "playouts": playouts,
            "seed": 1,
            "threads": 1,
            "positions": {p.name: p.round_state},
        }
    )


def _run(cmd: list[str], job: str) -> str:
    out = subprocess.run(cmd, input=job, capture_output=True, text=True, timeout=1800)
    if out.returncode != 0:
        raise RuntimeError(f"{cmd[0]} failed: {out.stderr.strip()[-300:]}")
    return out.stderr


def _summary(stderr: str, label: str) -> int:
    """The first count after ``label`` in valgrind's summary (``==pid== label: 1,234 (...)``)."""
    for line in stderr.splitlines():
        _, _, rest = line.partition(label)
        if rest:
            return int(rest.split()[0].replace(",", ""))
    raise RuntimeError(f"valgrind printed no {label!r}")


def _turns(binary: Path, job: str) -> int:
    out = subprocess.run([str(binary)], input=job, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError(f"count_turns failed: {out.stderr.strip()[-300:]}")
    return int(next(iter(json.loads(out.stdout).values()))["turns"])


def _measure(p: BenchPosition, prec: Precision, binaries: tuple[Path, Path]) -> dict[str, Any]:
    hot, count = binaries
    per: dict[str, list[int]] = {"turns": [], "instructions": [], "ll_misses": [], "d1_misses": []}
    with tempfile.TemporaryDirectory() as tmp:
        for n in (SMALL, LARGE):
            job = _job(p, prec, n)
            per["turns"].append(_turns(count, job))
            cg = _run(
                ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg", str(hot)], job
            )
            per["instructions"].append(_summary(cg, "Collected :"))
            cache = _run(
                [
                    "valgrind",
                    "--tool=cachegrind",
                    "--cache-sim=yes",
                    SMALL_LL,
                    f"--cachegrind-out-file={tmp}/cache",
                    str(hot),
                ],
                job,
            )
            per["ll_misses"].append(_summary(cache, "LLd misses:"))
            per["d1_misses"].append(_summary(cache, "D1  misses:"))
    turns = per["turns"][1] - per["turns"][0]
    return {
        **per,
        "instructions_per_turn": (per["instructions"][1] - per["instructions"][0]) / turns,
        "ll_misses_per_turn": (per["ll_misses"][1] - per["ll_misses"][0]) / turns,
        "d1_misses_per_turn": (per["d1_misses"][1] - per["d1_misses"][0]) / turns,
    }


def host_independent(
    by_name: dict[str, BenchPosition], prec: Precision, log: Log
) -> dict[str, Any]:
    """Instructions and simulated last-level data misses per table-rule turn on each of
    ``POSITIONS``, and the worst of each; or ``{"skipped": why}`` without valgrind or cargo."""
    for tool in ("valgrind", "cargo"):
        if shutil.which(tool) is None:
            return {"skipped": f"{tool} is not on the PATH: no host-independent figures"}
    log("building the engine's examples for valgrind (cargo, profiling profile)")
    for cmd in (BUILD, COUNT_BUILD):
        built = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=1800)
        if built.returncode != 0:
            return {"skipped": "the build failed: " + built.stderr.strip()[-300:]}
    examples = target_dir() / "profiling" / "examples"
    binaries = (examples / "hot_path", examples / "count_turns")
    out: dict[str, Any] = {
        "method": f"callgrind, and cachegrind --cache-sim=yes {SMALL_LL} (D1 the host's); "
        f"{SMALL:,} and {LARGE:,} playouts per option, one thread, seed 1; "
        "(large - small) / (turns large - turns small)",
        "positions": {},
    }
    for name in POSITIONS:
        log(f"valgrind on {name} (callgrind and cachegrind, two runs each)")
        out["positions"][name] = _measure(by_name[name], prec, binaries)
    figures = out["positions"].values()
    out["instructions_per_turn"] = max(f["instructions_per_turn"] for f in figures)
    out["ll_misses_per_turn"] = max(f["ll_misses_per_turn"] for f in figures)
    return out
