"""What an opponent model costs: the same query with every opponent read as a ``person`` (or the
``expert``) against every opponent read by the table's rule, on the benchmark positions.

    python benches/bench_models.py [--deals 10000 --playouts 50000 --threads 2 --repeats 5]

After one untimed query of each model (the process's tables built, its threads started), each
position is asked with both models in turn, ``--repeats`` times, and the best time of each
is kept (the least disturbed by the rest of the machine); the ratio modelled / table is the
figure the opponent-models issue aims at (at most 2 at the same precision). The machine (CPU
model, caches) and how busy it was are printed with the figures and written as JSON with
``--json FILE``.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import thirtyone
from bench_machine import machine, machine_busy_s
from positions import bench_positions

#: The positions timed: every phase at four seats, late at two and six, after a knock.
NAMES = (
    "2p-late",
    "4p-early",
    "4p-middle",
    "4p-late",
    "4p-after-knock",
    "6p-early",
    "6p-late",
)


def _state(state: dict[str, Any], seats: int, model: str) -> dict[str, Any]:
    out = dict(state)
    out.pop("lives", None)
    if model != "table":
        out["models"] = [None if s == state["me"] else model for s in range(seats)]
    return out


def _time(state: dict[str, Any], args: argparse.Namespace) -> float:
    start = time.perf_counter()
    thirtyone.advise(
        state,
        deals=args.deals,
        playouts=args.playouts,
        seed=7,
        threads=args.threads,
        max_time=None,
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--playouts", type=int, default=50_000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--model", choices=("person", "expert"), default="person")
    parser.add_argument("--json", dest="json_out")
    args = parser.parse_args()
    positions = {p.name: p for p in bench_positions()}
    # One query of each model first, untimed: the process's first queries build its tables and
    # start its threads, which once counted into the first position's best time (2p-late's
    # ratio read 2.14 x in such a run, 1.57-1.62 x in the next two).
    first = positions[NAMES[0]]
    for m in ("table", args.model):
        _time(_state(first.state, first.seats, m), args)
    busy_before = machine_busy_s()
    rows = []
    for name in NAMES:
        p = positions[name]
        states = {m: _state(p.state, p.seats, m) for m in ("table", args.model)}
        times: dict[str, list[float]] = {m: [] for m in states}
        for _ in range(args.repeats):
            for m, state in states.items():
                times[m].append(_time(state, args))
        table, modelled = min(times["table"]), min(times[args.model])
        rows.append(
            {
                "position": name,
                "table_ms": round(1000 * table, 1),
                f"{args.model}_ms": round(1000 * modelled, 1),
                "ratio": round(modelled / table, 2),
            }
        )
        print(
            f"{name:15s} table {1000 * table:7.1f} ms  {args.model} {1000 * modelled:7.1f} ms"
            f"  {modelled / table:4.2f}x",
            flush=True,
        )
    busy_after = machine_busy_s()
    facts = machine()
    print(f"CPU: {facts.get('cpu')}; caches {facts.get('caches')}")
    if busy_before and busy_after:
        share = (busy_after[0] - busy_before[0]) / (busy_after[1] - busy_before[1])
        print(f"the machine was busy {share:.2f} CPUs on average (this run included)")
    worst = max(r["ratio"] for r in rows)
    print(f"worst ratio {worst:.2f}x (aim: at most 2x)")
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump({"machine": facts, "settings": vars(args), "rows": rows}, f, indent=2)


if __name__ == "__main__":
    main()
