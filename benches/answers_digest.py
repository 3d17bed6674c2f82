"""A digest of the Oracle's answers on the benchmark's positions: the check that a speed step
changed no answer.

    python benches/answers_digest.py > before.txt
    # ... change the hot path, rebuild ...
    python benches/answers_digest.py > after.txt && diff before.txt after.txt

Every answer is asked with a fixed seed and no time limit, so the same build prints the same
lines on any host and with any thread count (the Oracle's answers do not depend on either). Each
line names the position and the query, and the SHA-256 of the answer's JSON: every option's
figures, reasons, sweeps and the opponents' reads. The queries: every position of
``positions.py`` (2 to 9 seats, every phase) without ``lives``, with ``lives``, and with
``lives`` playing for the game; and the 2-, 4- and 6-seat positions with every opponent read as
``person`` and as ``expert``. ``--quick`` asks at 1,000 deals / 2,000 playouts instead of full
precision (a few seconds instead of about a minute).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import thirtyone  # noqa: E402
from positions import BenchPosition, bench_positions, many_seat_positions  # noqa: E402

#: Lives of the queries that carry them: the player to move one life from out, the others two.
LIVES = 2


def _queries(p: BenchPosition) -> list[tuple[str, dict[str, Any], str]]:
    """(label, state, objective) of every query asked at ``p``."""
    plain = dict(p.round_state)
    lives = dict(plain, lives=[LIVES] * p.seats)
    lives["lives"][plain["me"]] = 1
    out = [("round", plain, "round"), ("lives", lives, "round"), ("game", lives, "game")]
    if p.seats <= 6:
        for model in ("person", "expert"):
            models = [None if s == plain["me"] else model for s in range(p.seats)]
            out.append((model, dict(lives, models=models), "round"))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="1,000 deals / 2,000 playouts")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    deals, playouts = (1_000, 2_000) if args.quick else (10_000, 50_000)
    for p in bench_positions() + many_seat_positions():
        for label, state, objective in _queries(p):
            advice = thirtyone.advise(
                state,
                deals=deals,
                playouts=playouts,
                seed=7,
                threads=args.threads,
                max_time=None,
                objective=objective,
            )
            text = json.dumps(advice.to_dict(), sort_keys=True)
            digest = hashlib.sha256(text.encode()).hexdigest()[:20]
            print(f"{p.name:<18} {label:<7} {digest}", flush=True)


if __name__ == "__main__":
    main()
