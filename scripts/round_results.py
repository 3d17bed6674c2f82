"""Simulate the round results of every preset at 2 to 9 seats into the package's data folder
(``python/thirtyone/data/round-results``), so that the game-level figures need no simulation at
the presets' tables. Run after any change to the round's rules or to the simulation:

    python scripts/round_results.py

The files are exactly what the core would simulate itself (same seed); the tests check one.
"""

from __future__ import annotations

import sys
import time

from thirtyone import _core
from thirtyone.game.rules import Rules
from thirtyone.oracle.query import ROUND_RESULTS


def main() -> None:
    ROUND_RESULTS.mkdir(parents=True, exist_ok=True)
    for old in ROUND_RESULTS.glob("round-results-*.json"):
        old.unlink()
    _core.set_cache_folders([ROUND_RESULTS])
    start = time.monotonic()
    for preset in Rules.PRESETS:
        rules = Rules.preset(preset).to_dict()
        low = 0 if rules["county"] else 1
        # One life each (on the county at a county table) at 9 seats: every seat count from
        # 2 to 9 is simulated on the way.
        _core.game_value(dict(rules, seats=9), [low] * 9, 0, 8)
        print(f"{preset}: done at {time.monotonic() - start:.0f} s", file=sys.stderr)
    print(f"{len(list(ROUND_RESULTS.glob('*.json')))} files in {ROUND_RESULTS}", file=sys.stderr)


if __name__ == "__main__":
    main()
