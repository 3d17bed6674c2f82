"""When the expert takes the top discard before anybody knocks: the expert model's ``take_from``.

Games of ``--seats`` experts (``thirtyone play --opponents expert``: the Oracle at a small
budget; four unless told) are played with every decision recorded (``fit_expert.py``). At each
start of a turn before anybody knocked, with the stock not empty, where the table's rule would
take the top discard, the score the take leaves (the rule's put-down made) and whether the
expert took it: the share taken by that score, and for each threshold K the share of those
choices that "take only where the take leaves K or more" gets right. The best K is printed
last, as JSON, beside the share the rule's own takes get right (``rule_agreed``).

    python benches/expert_takes.py --games 300 --seats 4 --seed 11
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections import defaultdict

from fit_expert import Decision, play_experts
from thirtyone import _core
from thirtyone.game.rules import Rules

#: Thresholds tried, in points.
THRESHOLDS = range(8, 26)


def takes(rounds: list[list[Decision]]) -> list[tuple[float, bool]]:
    """Where the rule would take before a knock (the stock not empty, no knock made): the
    score the take leaves, and whether the expert took."""
    out = []
    for d in (d for r in rounds for d in r):
        if d.phase != "start" or d.final or not d.may_take or d.stock_empty or d.top is None:
            continue
        if d.made == "knock":
            continue
        if _core.choose_start(list(d.hand), d.top, False, False, 99.0) != "take":
            continue
        put = _core.choose_put_down(list(d.hand), d.top, True)
        left = [c for c in [*d.hand, d.top] if c != put]
        out.append((_core.score(left), d.made == "take"))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seats", type=int, default=4, choices=range(2, 10))
    ap.add_argument("--seed", type=int, default=11)
    a = ap.parse_args()
    rules = dataclasses.replace(Rules.preset("standard"), seats=a.seats)
    rows = takes(play_experts(rules, a.games, a.seed))
    by_left: dict[int, list[bool]] = defaultdict(list)
    for left, took in rows:
        by_left[int(left)].append(took)
    print(f"{len(rows)} starts where the rule takes ({a.games} games of {a.seats} experts)")
    print("left  starts  taken")
    for left in sorted(by_left):
        seen = by_left[left]
        print(f"{left:4}  {len(seen):6}  {sum(seen) / len(seen):5.1%}")
    agree = {k: sum((left >= k) == took for left, took in rows) / len(rows) for k in THRESHOLDS}
    print("take from  choices agreed")
    for k, share in agree.items():
        print(f"{k:9}  {share:6.1%}")
    best = max(agree, key=lambda k: agree[k])
    print(
        json.dumps(
            {
                "seats": a.seats,
                "games": a.games,
                "seed": a.seed,
                "starts": len(rows),
                "take_from": best,
                "agreed": round(agree[best], 4),
                "rule_agreed": round(sum(t for _, t in rows) / len(rows), 4),
            }
        )
    )


if __name__ == "__main__":
    main()
