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
import json
import sys
from pathlib import Path

from bench_display import show
from bench_query import DEFAULT_OUT, FULL, QUICK, Precision
from bench_run import run


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
