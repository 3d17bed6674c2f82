"""Fit the Oracle's model of the expert player (``expert`` in a state's ``models``) to its play.

Games of four expert players (``thirtyone play --opponents expert``: the Oracle at a small
budget) are played with every decision recorded with the hand it was made from. The model reads
a player as the table's rule with a knock score of their own, unknown (one per player and
round), who makes another legal move with chance ``slip`` (each other legal move alike, a knock
aside) and knocks below their knock score with chance ``knock_slip`` (the core's
``model::likelihood``). Knowing the hands, the likelihood of a player's decisions in a round is,
for each knock score K, the product of their decisions' chances at K:

and the prior over K (16 to 31) maximising the sum over rounds of log(sum_K prior(K) L(K)) is
found by expectation-maximisation (with one pseudo-round spread evenly, so that no score is
ruled out by a small sample), for each slip of a grid; the best pair is printed as JSON
(``--out`` writes it) with the decisions' count and the share of decisions that are the rule's
at the fitted prior's most likely K.

    python benches/fit_expert.py --games 60 --seed 1 --out benches/results/expert-model.json
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from thirtyone import _core
from thirtyone._core import Action
from thirtyone.game.rules import Rules
from thirtyone.game.seats import Policy, SeatView
from thirtyone.game.session import Game
from thirtyone.oracle.player import OraclePlayer, seat_seed

KNOCKS = list(range(16, 32))
SLIPS = [0.02, 0.04, 0.06, 0.08, 0.1, 0.12, 0.15, 0.2, 0.25, 0.3, 0.35]
KNOCK_SLIPS = [0.001, 0.003, 0.01, 0.02, 0.04, 0.08]


@dataclass
class Decision:
    """One decision: at the start of a turn (``made`` is knock, take or draw) or a put-down."""

    phase: str
    hand: tuple[str, ...]
    top: str | None
    may_knock: bool
    may_take: bool
    stock_empty: bool
    new: str | None
    from_pile: bool
    made: str


@dataclass
class Recorder:
    """A policy that plays as ``inner`` does and keeps each decision by (game, round, seat)."""

    inner: Policy
    game: int
    rounds: dict[tuple[int, int, int], list[Decision]] = field(default_factory=dict)

    def decide(self, view: SeatView) -> Action:
        action = self.inner.decide(view)
        if view.phase in ("start", "put_down"):
            key = (self.game, view.rounds_dealt, view.seat)
            self.rounds.setdefault(key, []).append(decision(view, action))
        return action


def decision(view: SeatView, action: Action) -> Decision:
    may_take = Action("take") in view.pending.legal
    new, source = view.drawn if view.drawn is not None else (None, "")
    made = action.card if view.phase == "put_down" else action.kind
    return Decision(
        view.phase,
        tuple(view.hand),
        view.top if may_take else None,
        view.may_knock,
        may_take,
        view.stock_len == 0,
        new,
        source == "pile",
        str(made),
    )


def chances(d: Decision, slip: float, knock_slip: float, rules: dict[str, object]) -> list[float]:
    """The decision's likelihood at each knock score of ``KNOCKS``."""
    if d.phase == "put_down":
        assert d.new is not None
        rule = _core.choose_put_down(list(d.hand), d.new, d.from_pile, rules)
        legal = 3 if d.from_pile else 4
        return [1.0 - slip if rule == d.made else slip / (legal - 1)] * len(KNOCKS)
    others = int(d.may_take) + 1  # take, and draw (or decline)
    out = []
    for k in KNOCKS:
        rule = _core.choose_start(list(d.hand), d.top, d.may_knock, d.stock_empty, float(k), rules)
        if rule == "knock":
            out.append(1.0 - slip if d.made == "knock" else slip / others)
            continue
        knock = knock_slip if d.may_knock else 0.0
        other = slip if others > 1 else 0.0
        if d.made == "knock":
            out.append(knock)
        elif d.made == rule:
            out.append(1.0 - other - knock)
        else:
            out.append(slip / (others - 1))
    return out


def fit(
    rounds: list[list[Decision]], slip: float, knock_slip: float, rules: dict[str, object]
) -> tuple[float, list[float]]:
    """The prior over ``KNOCKS`` maximising the rounds' likelihood at ``slip``, and that
    log-likelihood (expectation-maximisation from a flat prior)."""
    logs = []
    for r in rounds:
        row = [0.0] * len(KNOCKS)
        for d in r:
            for i, c in enumerate(chances(d, slip, knock_slip, rules)):
                row[i] += math.log(c)
        logs.append(row)
    prior = [1.0 / len(KNOCKS)] * len(KNOCKS)
    loglik = -math.inf
    for _ in range(500):
        totals = [0.0] * len(KNOCKS)
        loglik = 0.0
        for row in logs:
            top = max(row)
            w = [p * math.exp(x - top) for p, x in zip(prior, row, strict=True)]
            s = sum(w)
            loglik += top + math.log(s)
            for i, x in enumerate(w):
                totals[i] += x / s
        # (One pseudo-round spread over the knock scores: no score is ruled out by a small
        # sample.)
        new = [(t + 1.0 / len(KNOCKS)) / (len(logs) + 1.0) for t in totals]
        if max(abs(a - b) for a, b in zip(new, prior, strict=True)) < 1e-10:
            prior = new
            break
        prior = new
    return loglik, prior


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--decisions", type=Path, help="Also keep the decisions recorded (JSON).")
    a = ap.parse_args()
    rules = Rules.preset("standard")
    started = time.monotonic()
    recorders: list[Recorder] = []
    for g in range(a.games):
        seed = a.seed * 1_000_003 + g
        seats = [
            Recorder(OraclePlayer.expert(seed=seat_seed(seed, s)), g) for s in range(rules.seats)
        ]
        Game(rules, seats, seed=seed).play()
        recorders += seats
        print(f"game {g + 1}/{a.games}: {time.monotonic() - started:.0f} s", file=sys.stderr)
    rounds = [r for rec in recorders for r in rec.rounds.values()]
    core_rules = rules.round_rules()
    if a.decisions:
        a.decisions.parent.mkdir(parents=True, exist_ok=True)
        a.decisions.write_text(json.dumps([[vars(d) for d in r] for r in rounds]))
    fits = [(fit(rounds, s, k, core_rules), s, k) for s in SLIPS for k in KNOCK_SLIPS]
    (loglik, prior), slip, knock_slip = max(fits, key=lambda x: x[0][0])
    decisions = sum(len(r) for r in rounds)
    out = {
        "games": a.games,
        "seed": a.seed,
        "rounds": len(rounds),
        "decisions": decisions,
        "slip": slip,
        "knock_slip": knock_slip,
        "log_likelihood": round(loglik, 3),
        "prior": {str(k): round(p, 5) for k, p in zip(KNOCKS, prior, strict=True)},
        "seconds": round(time.monotonic() - started),
    }
    text = json.dumps(out, indent=2)
    print(text)
    if a.out:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
