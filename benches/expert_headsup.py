"""How much stronger the expert is than its model, one against one.

Heads-up games (standard rules, 3 lives): seat 0 is the ``expert`` (the Oracle at its small
budget, no time limit) or the ``model`` of it the Oracle plays in its playouts (the table's rule
at a knock score drawn evenly from 22 to 30 for each round); seat 1 is a table player knocking
at 24 (about where the Oracle's own seat plans to knock in the calibration's heads-up
decisions). Per round: who ended it, each knocker's score and how often they were caught, and
how often each seat lost a life.

    python benches/expert_headsup.py --seat0 expert --games 250 --seed 2
    python benches/expert_headsup.py --seat0 model --games 2000 --seed 2
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import dataclass, field
from typing import Any

from thirtyone.game.rules import Rules
from thirtyone.game.seats import Policy, TablePolicy
from thirtyone.game.session import Event, Game
from thirtyone.oracle.player import OraclePlayer
from thirtyone.statistics import wilson

#: The model's knock scores (the ``expert`` model's prior) and the other seat's.
MODEL_KNOCKS = range(22, 31)
OTHER_KNOCK = 24.0


@dataclass
class Rounds:
    """Every round's end, kept from the games' events."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    turns: int = 0

    def event(self, e: Event) -> None:
        if e.kind == "turn":
            self.turns += 1
        elif e.kind == "wash":  # dealt again: nobody lost anything
            self.turns = 0
        elif e.kind == "round_end":
            d = e.data
            self.rows.append(
                {
                    "end": d["end"],
                    "knocker": d["knocker"],
                    "scores": [d["scores"][0], d["scores"][1]],
                    "lost": [d["losses"][0] > 0, d["losses"][1] > 0],
                    "turns": self.turns,
                }
            )
            self.turns = 0


def _share(k: int, n: int) -> str:
    """k of n as a percentage with its 95% Wilson interval."""
    if n == 0:
        return "-"
    low, high = wilson(k, n)
    return f"{100 * k / n:.1f}% ({100 * low:.1f}-{100 * high:.1f})"


def play(seat0: str, games: int, seed: int) -> Rounds:
    rules = Rules.from_spec({"preset": "standard", "seats": 2, "lives": 3})
    knocks = random.Random(seed)
    rounds = Rounds()
    for g in range(games):
        first: Policy
        if seat0 == "expert":
            expert = OraclePlayer.expert(seed=seed * 1_000_003 + g)
            expert.max_time = None  # the same games on any machine
            first = expert
        else:
            model = TablePolicy()  # its knock score is drawn at each deal (below)
            first = model
        game = Game(rules, [first, TablePolicy(knock_at=OTHER_KNOCK)], seed=seed * 7919 + g)
        game.add_listener(rounds.event)
        if seat0 == "model":

            def redraw(e: Event, model: TablePolicy = model) -> None:
                if e.kind == "deal":
                    model.knock_at = float(knocks.choice(MODEL_KNOCKS))

            game.add_listener(redraw)
        game.play()
    return rounds


def summary(rounds: Rounds) -> dict[str, Any]:
    rows = rounds.rows
    n = len(rows)
    out: dict[str, Any] = {
        "rounds": n,
        "loses_a_life": {f"seat{s}": _share(sum(r["lost"][s] for r in rows), n) for s in (0, 1)},
    }
    for s in (0, 1):
        ks = [r for r in rows if r["knocker"] == s]
        if ks:
            out[f"seat{s}_knocks"] = {
                "rounds": len(ks),
                "share": round(len(ks) / n, 3),
                "caught": _share(sum(r["lost"][s] for r in ks), len(ks)),
                "mean_score": round(sum(r["scores"][s] for r in ks) / len(ks), 2),
                "other_final_score": round(sum(r["scores"][1 - s] for r in ks) / len(ks), 2),
            }
    out["mean_turns"] = round(sum(r["turns"] for r in rows) / max(n, 1), 1)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seat0", choices=("expert", "model"), default="expert")
    ap.add_argument("--games", type=int, default=250)
    ap.add_argument("--seed", type=int, default=2)
    a = ap.parse_args()
    if not 1 <= a.games <= 100_000:
        ap.error("--games must be from 1 to 100,000")
    print(json.dumps(summary(play(a.seat0, a.games, a.seed)), indent=2))


if __name__ == "__main__":
    main()
