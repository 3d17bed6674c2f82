"""Facts about the machine and the build a run is measured on, and how busy the machine was."""

from __future__ import annotations

import datetime as dt
import os
import platform
import resource
import subprocess
import time
from pathlib import Path
from typing import Any

from bench_query import ROOT
from thirtyone import _core


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


def _caches() -> dict[str, str]:
    """The first CPU's caches by level and kind (``L1d``, ``L1i``, ``L2``, ``L3``) with their
    sizes as the kernel gives them (``/sys/devices/system/cpu/cpu0/cache``; empty where there is
    none): the figures' speed depends on them, so every run records them."""
    out: dict[str, str] = {}
    for index in sorted(Path("/sys/devices/system/cpu/cpu0/cache").glob("index*")):
        try:
            level, kind, size = ((index / f).read_text().strip() for f in ("level", "type", "size"))
        except OSError:
            continue
        suffix = {"Data": "d", "Instruction": "i"}.get(kind, "")
        out[f"L{level}{suffix}"] = size
    return out


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
        "caches": _caches(),
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


def machine_busy_s() -> tuple[float, float] | None:
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


def own_cpu_s() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def threads_cpu_s() -> dict[int, tuple[str, float, float]]:
    """This process's threads so far, by thread id: each one's name, the CPU seconds it ran and
    the seconds it waited, ready, for a CPU (Linux's ``/proc/self/task/*/schedstat``; empty
    where there is none). The engine's workers are named ``montecarlo-N``."""
    out: dict[int, tuple[str, float, float]] = {}
    try:
        tasks = list(Path("/proc/self/task").iterdir())
    except OSError:
        return out
    for task in tasks:
        try:
            ran, waited = task.joinpath("schedstat").read_text().split()[:2]
            name = task.joinpath("comm").read_text().strip()
        except (OSError, ValueError):
            continue  # (a thread that ended meanwhile)
        out[int(task.name)] = (name, int(ran) / 1e9, int(waited) / 1e9)
    return out


def workers_used(
    before: dict[int, tuple[str, float, float]], workers: int
) -> tuple[list[float], float]:
    """What the engine's ``workers`` busiest workers did since ``before``
    (:func:`threads_cpu_s`): the CPU seconds of each (the busiest first) and the seconds they
    waited, together, ready for a CPU."""
    used: list[tuple[float, float]] = []
    for tid, (name, ran, wait) in threads_cpu_s().items():
        _, ran0, wait0 = before.get(tid, (name, 0.0, 0.0))
        if name.startswith("montecarlo") and ran > ran0:
            used.append((ran - ran0, wait - wait0))
    used = sorted(used, reverse=True)[:workers]
    return [ran for ran, _ in used], sum(wait for _, wait in used)
