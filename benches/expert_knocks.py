"""When the expert player knocks: the share of its turns it knocks on, by its lap of the round
(its own turns before, from 0) and its hand's score, at tables of experts only.

    python benches/expert_knocks.py [--seats 4] [--games 200] [--seed 1] [--json FILE] [--fit]
    python benches/expert_knocks.py --fit-from RUN.json [RUN.json ...]

It measures what the ``expert`` model assumes of the experts' knocks (``docs/models.md``:
one knock score for the whole round, from 22 to 30) against what they do;
``docs/evidence/expert-knock.md``, "When the experts knock", has the figures and a model fitted to
them that was not adopted. The experts read each other by the model, so a change to the model
changes the experts too: after a change, play again and see whether the table moved.

Only the turns on which the expert may knock count (nobody has knocked, the table allows it).
A cell with fewer than 8 turns prints as ``.``. Beside each lap, the lowest score at which the
expert knocks at least a third of the time.

With ``--fit``, the knock curve of the ``expert`` model (``model::KnockCurve``) fitted to those
turns: the chance of a knock with a hand of ``s`` points as
``top / (1 + exp(-(s - mid - per_point * (yours - 16)) / width))``, with ``mid`` and ``width``
by lap, ``yours`` the score of another seat's hand (each other seat in turn, weighed by one
over their number: the seat that will read the knock may be any of them) and ``top`` and
``per_point`` one for the table, by maximum likelihood; printed as the row of ``(mid, width)``
and the ``per_point_yours`` the model keeps for this table size (``top`` cancels in the read).

Then how the Oracle reads a knock: at each knock, 1,000 consistent deals from the view of the
seat after the knocker (each seat read as an expert), and where each other seat's true score
ranks among them (a rank of 0.5 on average when the read is right): the knocker's, and those
who had not knocked; and the knocker's again by the reading seat's own score (the experts knock
with more against a seat that holds much, which the curve reads through that seat's score: the
rank should be about the same in every band).
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


@dataclasses.dataclass(frozen=True)
class Turn:
    """A turn on which an expert could knock: the lap (at most ``LAPS - 1``), the hand's score,
    whether it knocked, and the other seats' scores."""

    lap: int
    score: float
    knocked: bool
    others: tuple[float, ...]


def play(seats: int, games: int, seed: int, reads: Reads) -> list[Turn]:
    """Every turn on which an expert could knock, over ``games`` games of ``seats`` experts;
    each knock's read added to ``reads``."""
    turns: list[Turn] = []
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
                others = tuple(round_.score(s) for s in range(round_.seats) if s != mover)
                score = round_.score(mover)
                session.play_policy()
                knocked = session.round is not None and session.round.knocker == mover
                turns.append(Turn(lap, score, knocked, others))
                if knocked:
                    read_knock(session, reads, rng)
            else:
                session.play_policy()
    return turns


def cells_of(turns: list[Turn]) -> dict[tuple[int, int], list[int]]:
    """(lap, whole points) -> [knocks, turns]."""
    table: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0])
    for t in turns:
        cell = table[(t.lap, int(t.score))]
        cell[0] += t.knocked
        cell[1] += 1
    return table


#: The reader's score at which the fitted middles are given (``model::knocks::YOURS_AT``).
YOURS_AT = 16.0


def fit(turns: list[Turn]) -> tuple[list[tuple[float, float]], float, float]:
    """The knock curve by maximum likelihood: ``(mid, width)`` by lap, ``per_point`` and ``top``
    (see the module's docstring)."""
    import numpy as np
    from scipy.optimize import minimize

    rows = [(t.lap, t.score, t.knocked, y, 1 / len(t.others)) for t in turns for y in t.others]
    lap, s, k, yours, w = (np.array(col, dtype=float) for col in zip(*rows, strict=True))
    lap = lap.astype(int)
    yours -= YOURS_AT

    def minus_log_likelihood(theta: np.ndarray) -> float:
        mids, log_widths = theta[:LAPS], theta[LAPS : 2 * LAPS]
        top = 1 / (1 + math.exp(-theta[2 * LAPS]))
        z = (s - mids[lap] - theta[2 * LAPS + 1] * yours) / np.exp(log_widths[lap])
        p = np.clip(top / (1 + np.exp(-z)), 1e-9, 1 - 1e-9)
        return float(-(w * (k * np.log(p) + (1 - k) * np.log(1 - p))).sum())

    start = np.r_[[20.0] * LAPS, [0.0] * LAPS, 2.0, 0.0]
    best = minimize(minus_log_likelihood, start, method="Powell", options={"maxiter": 200_000})
    best = minimize(minus_log_likelihood, best.x, method="Nelder-Mead", options={"maxfev": 80_000})
    x = best.x
    cells = [(float(x[i]), math.exp(x[LAPS + i])) for i in range(LAPS)]
    return cells, float(x[2 * LAPS + 1]), 1 / (1 + math.exp(-x[2 * LAPS]))


def saved_turns(path: str) -> list[Turn]:
    """The turns of a run saved by ``--json``."""
    with open(path) as f:
        return [Turn(**{**t, "others": tuple(t["others"])}) for t in json.load(f)["turns"]]


def print_fit(turns: list[Turn]) -> None:
    """The fitted curve, lap by lap, and the model's row for this table size."""
    cells, per_point, top = fit(turns)
    for lap, (mid, width) in enumerate(cells):
        print(f"lap {lap}: mid {mid:.2f}, width {width:.2f}")
    print(f"per point of another seat's hand {per_point:+.3f}, top {top:.2f}")
    print("the model's row: [" + ", ".join(f"({m:.2f}, {w:.2f})" for m, w in cells) + "]")
    print(f"the model's per_point_yours: {per_point:.3f}")


#: Bands of the reading seat's own score, for the split of the knocker's read.
READER_BANDS = ((0, 15), (15, 20), (20, 25), (25, 32))


def print_reads(reads: Reads) -> None:
    """The knocker's read on average, then split by the score of the seat that reads: the
    experts knock when they read the others low, so a knock against a seat holding much means
    more than one against a seat holding little; the curve's ``per_point_yours`` is to make the
    read alike in every band."""
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
    parser.add_argument(
        "--fit-from", nargs="+", metavar="JSON", help="fit to the turns of runs saved by --json"
    )
    args = parser.parse_args()
    if args.fit_from:
        print_fit([t for path in args.fit_from for t in saved_turns(path)])
        return
    reads = Reads()
    turns = play(args.seats, args.games, args.seed, reads)
    table = cells_of(turns)
    print(f"{args.seats} experts, {args.games} games, {len(turns)} turns on which they could knock")
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
        print_fit(turns)
    if reads.held:
        print_reads(reads)
    if args.json_out:
        rows = [
            {"lap": lap, "score": score, "knocks": k, "turns": n}
            for (lap, score), (k, n) in table.items()
        ]
        with open(args.json_out, "w") as f:
            out = {"seats": args.seats, "games": args.games, "seed": args.seed, "cells": rows}
            out["turns"] = [dataclasses.asdict(t) for t in turns]
            json.dump(out | {"reads": dataclasses.asdict(reads)}, f)


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:  # the reader (`| head`) has gone: nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
