"""Table-rule turns counted by the engine: a counting build (the ``count-turns`` feature of
``thirtyone-core``) answers the benchmark's queries with the same settings and seed, and reports
the turns its playouts played. The count depends only on the seed, so it pairs with the times
measured on the shipped build."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_query import ROOT, Precision
from positions import BenchPosition


def example_build(example: str, *features: str) -> list[str]:
    """The cargo command that builds one of the engine's examples (``rust/thirtyone-core/
    examples``) in the profiling profile: the release build's code, with symbols."""
    wanted = ["--features", ",".join(features)] if features else []
    build = ["cargo", "build", "--profile", "profiling", "-p", "thirtyone-core"]
    return [*build, *wanted, "--example", example]


BUILD = example_build("count_turns", "count-turns")


def target_dir() -> Path:
    """Where cargo builds: ``CARGO_TARGET_DIR`` when it is set (relative to the repository),
    else the repository's ``target``."""
    return ROOT / os.environ.get("CARGO_TARGET_DIR", "target")


def counted_turns(
    positions: list[BenchPosition], prec: Precision, log: Callable[[str], None]
) -> dict[str, Any]:
    """``{"turns": {name: turns of the query with seed 1}, "playouts": {...}}``, or
    ``{"error": why}`` when the counting build cannot be made (no cargo)."""
    if shutil.which("cargo") is None:
        return {"error": "cargo is not on the PATH: the counting build cannot be made"}
    log("building the turn-counting engine (cargo, count-turns feature)")
    t = time.perf_counter()
    built = subprocess.run(BUILD, cwd=ROOT, capture_output=True, text=True, timeout=1800)
    if built.returncode != 0:
        return {"error": "the counting build failed: " + built.stderr.strip()[-300:]}
    build_s = time.perf_counter() - t
    log("counting turns (same queries, seed 1)")
    job = {
        "deals": prec.deals,
        "playouts": prec.playouts,
        "seed": 1,
        "threads": prec.threads,
        "positions": {p.name: p.round_state for p in positions},
    }
    run = subprocess.run(
        [str(target_dir() / "profiling" / "examples" / "count_turns")],
        input=json.dumps(job),
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if run.returncode != 0:
        return {"error": "the counting run failed: " + run.stderr.strip()[-300:]}
    got = json.loads(run.stdout)
    return {
        "build_s": build_s,
        "turns": {n: v["turns"] for n, v in got.items()},
        "playouts": {n: v["playouts"] for n, v in got.items()},
    }
