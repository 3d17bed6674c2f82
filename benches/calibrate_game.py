"""The calibration of ``p_win`` (``thirtyone.game_calibration``): one Oracle decision per game of
table players, at a round and turn drawn before the game, and whether the asking seat went on
to win. Prints the reliability table and writes it to ``benches/results/game_calibration.json``.

    python benches/calibrate_game.py [--forecasts 2000] [--jobs 2] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from dataclasses import asdict
from pathlib import Path

from thirtyone.study import game_calibration as gc

OUT = Path(__file__).resolve().parent / "results" / "game_calibration.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--forecasts", type=int, default=2_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deals", type=int, default=1_000)
    parser.add_argument("--playouts", type=int, default=2_000)
    args = parser.parse_args()
    settings = gc.Settings(
        forecasts=args.forecasts,
        deals=args.deals,
        playouts=args.playouts,
        seed=args.seed,
        jobs=args.jobs,
    )
    start = time.monotonic()
    forecasts, games = gc.run(settings)
    seconds = time.monotonic() - start
    bins = gc.reliability(forecasts)
    print(f"{len(forecasts):,} forecasts from {games:,} games in {seconds:.0f} s")
    print("| p_win forecast | decisions | mean forecast | won | 95% interval | within |")
    print("| --- | ---: | ---: | ---: | --- | --- |")
    for b in bins:
        print(
            f"| {b.low:.1f} to {b.high:.1f} | {b.count:,} | {100 * b.forecast:.1f}% | "
            f"{100 * b.won:.1f}% | {100 * b.ci[0]:.1f} to {100 * b.ci[1]:.1f}% | "
            f"{'yes' if b.within else 'no'} |"
        )
    mean_f = sum(f.p_win for f in forecasts) / len(forecasts)
    won = sum(f.won for f in forecasts)
    print(f"overall: forecast {100 * mean_f:.1f}%, won {100 * won / len(forecasts):.1f}%")
    print(f"load average: {os.getloadavg()[0]:.2f}")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(
        json.dumps(
            {
                "settings": asdict(settings),
                "games": games,
                "seconds": seconds,
                "bins": [asdict(b) for b in bins],
                "forecasts": [asdict(f) for f in forecasts],
            },
            indent=1,
        )
        + "\n"
    )


if __name__ == "__main__":
    main()
