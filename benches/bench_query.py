"""The query the benchmark times, its precision, and the timing helpers."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from positions import BenchPosition
from thirtyone import _core
from thirtyone.oracle.state import parse

try:  # the package's public entry point, where it is exported
    from thirtyone import advise  # type: ignore[attr-defined]
except ImportError:
    from thirtyone.oracle.query import advise

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "benches" / "results" / "latest.json"


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


# -- timing helpers ----------------------------------------------------------------------------


def timed(f: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    """Wall time of ``f(*args)``, and what it returned."""
    t = time.perf_counter()
    out = f(*args)
    return time.perf_counter() - t, out


def median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else math.nan


# -- the query and what it plays ---------------------------------------------------------------


def query(p: BenchPosition, prec: Precision, seed: int, threads: int, game: bool = False) -> Any:
    """The full query as a program calls it; no time limit, so that it always does the whole
    work (a contended run must not be cut short and look fast). Round-level unless `game`:
    then with the position's ``lives``, so that it adds the game-level figures."""
    return advise(
        p.state if game else p.round_state,
        deals=prec.deals,
        playouts=prec.playouts,
        seed=seed,
        threads=threads,
        max_time=None,
    )


def deals_only(p: BenchPosition, deals: int, seed: int, threads: int) -> _core.Answer:
    """The query with one playout per option: what it costs is the consistent deals (plus the
    state's check, the setup and a handful of playouts)."""
    return _core.advise(parse(p.round_state), deals=deals, playouts=1, seed=seed, threads=threads)


def playouts_per_query(raw: _core.Answer) -> int:
    """Playouts the engine ran: each option's run, and as many again to confirm a sweep."""
    return sum(o.playouts * (2 if o.swept else 1) for o in raw.options)


def option_name(o: _core.OptionRecord) -> str:
    """An option's name in the figures: its kind, and the card for a discard."""
    return o.kind if o.kind != "discard" else f"discard:{o.discard}"
