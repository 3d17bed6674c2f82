"""Calibration of the Oracle against real play.

Plays whole games with the game loop; at one turn per round (chosen at random before the deal)
the seat to move asks the Oracle, takes its best option and then plays exactly the policy the
Oracle simulated for it. Prints the reliability table (predicted p_safe bins against the realized
share of rounds with no life lost, 95% intervals, predicted and realized lives lost) and the
inference check (rank of the true opponent score among the sampled consistent deals), and writes
``decisions.jsonl``, ``report.md``, ``summary.json`` and ``reliability.png`` (with matplotlib:
``pip install -e '.[plot]'``) to ``--out``. ``thirtyone calibrate`` runs the same code.

    python benches/calibrate.py                          # 20,000 decisions, 2,000 / 5,000
    python benches/calibrate.py --decisions 500 --deals 500 --playouts 1000   # a quick look
    python benches/calibrate.py --workers 2 --out benches/results/calibration
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from thirtyone.study.calibration import Settings, calibrate, parse_seats


def seats_arg(text: str) -> tuple[int, ...]:
    try:
        return parse_seats(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def main(argv: list[str] | None = None) -> int:
    d = Settings()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--decisions", type=int, default=d.decisions, help="decisions to record")
    ap.add_argument("--seed", type=int, default=d.seed)
    ap.add_argument("--deals", type=int, default=d.deals, help="Oracle deals per query")
    ap.add_argument("--playouts", type=int, default=d.playouts, help="Oracle playouts per option")
    ap.add_argument("--threads", type=int, default=d.threads, help="Oracle threads per query")
    ap.add_argument("--workers", type=int, default=d.workers, help="processes playing games")
    ap.add_argument(
        "--seats",
        type=seats_arg,
        default=d.seats,
        help="seats per game, cycled over the games (e.g. 4 or 2-6 or 2,4,6)",
    )
    ap.add_argument("--lives", type=int, default=d.lives)
    ap.add_argument("--pending-share", type=float, default=d.pending_share)
    ap.add_argument("--rank-deals", type=int, default=d.rank_deals)
    ap.add_argument("--out", type=Path, default=Path("benches/results/calibration"))
    args = ap.parse_args(argv)
    settings = Settings(
        decisions=args.decisions,
        seed=args.seed,
        deals=args.deals,
        playouts=args.playouts,
        threads=args.threads,
        workers=args.workers,
        seats=args.seats,
        lives=args.lives,
        pending_share=args.pending_share,
        rank_deals=args.rank_deals,
    )
    report = calibrate(settings, args.out, echo=lambda line: print(line, file=sys.stderr))
    print(report.text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
