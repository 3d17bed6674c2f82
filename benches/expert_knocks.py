"""When the expert player knocks: the share of its turns it knocks on, by its lap of the round
(its own turns before, from 0) and its hand's score, at tables of experts only.

    python benches/expert_knocks.py [--seats 4] [--games 200] [--seed 1] [--json FILE] [--fit]

It measures what the ``expert`` model assumes of the experts' knocks (``docs/oracle.md``,
"Opponent models": one knock score for the whole round, from 22 to 30) against what they do;
``docs/evidence.md``, "When the experts knock", has the figures and a model fitted to them that
was not adopted. The experts read each other by the model, so a change to the model changes
the experts too: after a change, play again and see whether the table moved.

Only the turns on which the expert may knock count (nobody has knocked, the table allows it).
A cell with fewer than 8 turns prints as ``.``. Beside each lap, the lowest score at which the
expert knocks at least a third of the time.

With ``--fit``, the knock curve of the ``expert`` model (``model::KnockCurve``) fitted to those
turns: on each lap, the chance of a knock with a hand of ``s`` points as
``top / (1 + exp(-(s - mid) / width))`` by maximum likelihood, printed as the row of
``(mid, width)`` the model keeps for this table size (``top`` cancels in the read of a knock).

Then how the Oracle reads a knock: at each knock, 1,000 consistent deals from the view of the
seat after the knocker (each seat read as an expert), and where each other seat's true score
ranks among them (a rank of 0.5 on average when the read is right): the knocker's, and those
who had not knocked; and the knocker's again by the reading seat's own score (the experts knock
with more against a seat that holds much, which a curve by score and lap cannot say).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import random
import sys
from collections import defaultdict
from statistics import mean

from thirtyone import _core
from thirtyone._core import Action
from thirtyone.game.rules import Rules
from thirtyone.game.session import Session
from thirtyone.oracle.player import opponent
from thirtyone.oracle.state import parse

LAPS = 5  # laps 0-3, then 4 or later
SCORES = range(14, 32)
READ_DEALS = 1_000


@dataclasses.dataclass
class Reads:
    """At each knock: the knocker's true score and the mean of the read's, and the ranks."""

    held: list[float] = dataclasses.field(default_factory=list)
    read: list[float] = dataclasses.field(default_factory=list)
    knocker: list[float] = dataclasses.field(default_factory=list)
    others: list[float] = dataclasses.field(default_factory=list)
    #: The score of the seat that reads (the one to move after the knock), at each knock.
    reader: list[float] = dataclasses.field(default_factory=list)


def read_knock(session: Session, reads: Reads, rng: random.Random) -> None:
    """The read of the knock just made, from the view of the seat to move next."""
    round_ = session.round
    assert round_ is not None and round_.knocker is not None
    if round_.is_over:
        return
    me, rules = round_.to_move, session.rules.round_rules()
    state = session.view(session.seats[me])
    deals, _ = _core.sample_deals(parse(state), READ_DEALS, rng.getrandbits(62), threads=1)
    for seat in (s for s in range(round_.seats) if s != me):
        truth = round_.score(seat)
        scores = [_core.score(d["hands"][seat], rules) for d in deals]
        less, equal = sum(x < truth for x in scores), sum(x == truth for x in scores)
        rank = (less + rng.random() * equal) / len(scores)
        if seat == round_.knocker:
            reads.held.append(truth)
            reads.read.append(mean(scores))
            reads.knocker.append(rank)
            reads.reader.append(round_.score(me))
        else:
            reads.others.append(rank)


def play(seats: int, games: int, seed: int, reads: Reads) -> dict[tuple[int, int], list[int]]:
    """(lap, whole points) -> [knocks, turns] over ``games`` games of ``seats`` experts; each
    knock's read added to ``reads``."""
    table: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0])
    rng = random.Random(seed)
    rules = dataclasses.replace(Rules.standard(), seats=seats)
    for g in range(games):
        game_seed = seed * 1_000_003 + g
        policies = [opponent("expert", s, game_seed) for s in range(seats)]
        session = Session(rules, policies, seed=game_seed)
        while not session.over:
            round_ = session.round
            if round_ is None or round_.is_over:
                session.deal()
                continue
            mover = round_.to_move
            asks = round_.phase == "start" and round_.knocker is None
            if asks and session.seat_view().allows(Action("knock")):
                lap = min(round_.turns_played // round_.seats, LAPS - 1)
                cell = table[(lap, int(round_.score(mover)))]
                session.play_policy()
                knocked = session.round is not None and session.round.knocker == mover
                cell[0] += knocked
                cell[1] += 1
                if knocked:
                    read_knock(session, reads, rng)
            else:
                session.play_policy()
    return table


def fit_lap(cells: list[tuple[int, int, int]]) -> tuple[float, float, float]:
    """``(mid, width, top)`` of the knock curve by maximum likelihood over ``(score, knocks,
    turns)`` cells."""
    import numpy as np
    from scipy.optimize import minimize

    s, k, n = (np.array(col, dtype=float) for col in zip(*cells, strict=True))

    def minus_log_likelihood(theta: np.ndarray) -> float:
        mid, log_width, logit_top = theta
        top = 1 / (1 + math.exp(-logit_top))
        p = np.clip(top / (1 + np.exp(-(s - mid) / math.exp(log_width))), 1e-9, 1 - 1e-9)
        return float(-(k * np.log(p) + (n - k) * np.log(1 - p)).sum())

    options = {"maxiter": 4000, "xatol": 1e-4, "fatol": 1e-6}
    best = minimize(minus_log_likelihood, [20.0, 0.0, 2.0], method="Nelder-Mead", options=options)
    mid, log_width, logit_top = best.x
    return float(mid), math.exp(log_width), 1 / (1 + math.exp(-logit_top))


def print_fit(table: dict[tuple[int, int], list[int]]) -> None:
    """The fitted curve, lap by lap, and the model's row for this table size."""
    row = []
    for lap in range(LAPS):
        cells = [(score, k, n) for (lp, score), (k, n) in table.items() if lp == lap and n]
        mid, width, top = fit_lap(cells)
        print(f"lap {lap}: mid {mid:.2f}, width {width:.2f}, top {top:.2f}")
        row.append(f"({mid:.2f}, {width:.2f})")
    print("the model's row: [" + ", ".join(row) + "]")


#: Bands of the reading seat's own score, for the split of the knocker's read.
READER_BANDS = ((0, 15), (15, 20), (20, 25), (25, 32))


def print_reads(reads: Reads) -> None:
    """The knocker's read on average, then split by the score of the seat that reads: the
    experts knock when they read the others low, so a knock against a seat holding much means
    more than one against a seat holding little, which a read by score and lap cannot say."""
    knocker = reads.knocker
    low = sum(r < 0.3 for r in knocker) / len(knocker)
    print(
        f"{len(knocker)} knocks read: the knocker held {mean(reads.held):.1f} on average, "
        f"read {mean(reads.read):.1f}; the knocker's rank {mean(knocker):.3f} "
        f"({low:.0%} in the lowest three tenths)"
        + (f", the others' {mean(reads.others):.3f}" if reads.others else "")
    )
    for lo, hi in READER_BANDS:
        at = [i for i, s in enumerate(reads.reader) if lo <= s < hi]
        if at:
            print(
                f"  the reader holding {lo}-{hi}: {len(at)} knocks, the knocker held "
                f"{mean(reads.held[i] for i in at):.1f}, read "
                f"{mean(reads.read[i] for i in at):.1f}, rank "
                f"{mean(knocker[i] for i in at):.3f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, default=4, choices=range(2, 10))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", dest="json_out")
    parser.add_argument("--fit", action="store_true", help="fit the model's knock curve")
    args = parser.parse_args()
    reads = Reads()
    table = play(args.seats, args.games, args.seed, reads)
    turns = sum(n for _, n in table.values())
    print(f"{args.seats} experts, {args.games} games, {turns} turns on which they could knock")
    print("lap     " + " ".join(f"{s:>5}" for s in SCORES) + "  a third from")
    for lap in range(LAPS):
        cells = [table.get((lap, s), [0, 0]) for s in SCORES]
        shown = [f"{k / n:5.2f}" if n >= 8 else "    ." for k, n in cells]
        third = next(
            (s for s, (k, n) in zip(SCORES, cells, strict=True) if n >= 8 and k / n >= 1 / 3),
            None,
        )
        name = f"{lap}" if lap < LAPS - 1 else f"{lap}+"
        print(f"{name:<7} " + " ".join(shown) + f"  {third or '-'}")
    if args.fit:
        print_fit(table)
    if reads.held:
        print_reads(reads)
    if args.json_out:
        rows = [
            {"lap": lap, "score": score, "knocks": k, "turns": n}
            for (lap, score), (k, n) in table.items()
        ]
        with open(args.json_out, "w") as f:
            out = {"seats": args.seats, "games": args.games, "seed": args.seed, "cells": rows}
            json.dump(out | {"reads": dataclasses.asdict(reads)}, f)


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:  # the reader (`| head`) has gone: nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
