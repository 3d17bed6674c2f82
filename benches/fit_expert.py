"""Fit the Oracle's model of the expert player (``expert`` in a state's ``models``) to its play.

Games of ``--seats`` expert players (four unless told; ``thirtyone play --opponents expert``: the
Oracle at a small budget) are played with every decision recorded with the hand it was made
from. The model reads a player as the table's rule with a knock score of their own, unknown (one
per player and round), who makes another legal move with chance ``slip`` (each other legal move
alike, a knock aside) and knocks below their knock score with chance ``knock_slip`` (the core's
``model::likelihood``). Knowing the hands, the likelihood of a player's decisions in a round is,
for each knock score K, the product of their decisions' chances at K, and the prior over K (16
to 31) maximising the sum over rounds of log(sum_K prior(K) L(K)) is found by
expectation-maximisation (with one pseudo-round spread evenly, so that no score is ruled out by
a small sample), for each slip of a grid; the best pair is printed as JSON (``--out`` writes it)
with the decisions' count.

The final turns, after somebody else knocked, are left out of that fit: the model weighs them
by chances of their own (the core's ``model::FinalTurn``), printed as ``final_turn``: where the
rule takes, the chance of a take by the hand it leaves and what it gains (``take``, a logistic
curve fitted by maximum likelihood; ``passes`` beside it, the share of draws there), the share
of takes where the rule draws (``takes``), and of put-downs keeping less than the rule's where
some card does (``below``), each with the number of final turns it is fitted to.

    python benches/fit_expert.py --games 60 --seed 1 --out benches/calibration/expert-model.json
    python benches/fit_expert.py --seats 5 --games 40 --seed 2

``--prior 22-30`` holds the prior even over those knock scores and fits the slips alone (the
expert model's prior is chosen by calibration: ``docs/evidence/models-calibration.md``);
``--decisions FILE`` keeps the decisions recorded and ``--from-decisions FILE [FILE ...]`` fits them
again without playing (several files together: tables of four and five, say).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from thirtyone import _core
from thirtyone._core import Action
from thirtyone.game.rules import Rules
from thirtyone.game.seats import Policy, SeatView
from thirtyone.game.session import Game
from thirtyone.oracle.player import OraclePlayer, seat_seed

KNOCKS = list(range(16, 32))
SLIPS = [0.02, 0.04, 0.06, 0.08, 0.1, 0.12, 0.15, 0.2, 0.25, 0.3, 0.35]
KNOCK_SLIPS = [0.001, 0.003, 0.01, 0.02, 0.04, 0.08, 0.12, 0.16, 0.2, 0.25, 0.3]


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
    #: Somebody else had knocked: their final turn (weighed apart, ``FinalTurn``).
    final: bool = False


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


def play_experts(rules: Rules, games: int, seed: int) -> list[list[Decision]]:
    """Play ``games`` games of experts under ``rules`` (game ``g`` dealt by seed ``seed *
    1_000_003 + g``); each player-round's decisions, in order."""
    started = time.monotonic()
    recorders: list[Recorder] = []
    for g in range(games):
        game_seed = seed * 1_000_003 + g
        seats = [
            Recorder(OraclePlayer.expert(seed=seat_seed(game_seed, s)), g)
            for s in range(rules.seats)
        ]
        Game(rules, seats, seed=game_seed).play()
        recorders += seats
        print(f"game {g + 1}/{games}: {time.monotonic() - started:.0f} s", file=sys.stderr)
    return [r for rec in recorders for r in rec.rounds.values()]


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
        view.knocker is not None,
    )


@dataclass(frozen=True)
class Rule:
    """What the table's rule does at each decision, worked out once: for a start, whether it
    knocks at each knock score and what it does otherwise; for a put-down, whether it puts down
    the card put down. ``rounds`` gives each round's decisions' rows."""

    start: np.ndarray  # (decisions,) a start (not a put-down)
    knocks: np.ndarray  # (decisions, knock scores): the rule knocks at that score
    made_knock: np.ndarray  # they knocked
    made_never: np.ndarray  # they did what the rule does when it does not knock
    may_knock: np.ndarray
    others: np.ndarray  # legal moves besides a knock (take, and draw or decline)
    put_rules: np.ndarray  # a put-down: the rule's card
    legal_put: np.ndarray  # cards that could be put down
    rounds: np.ndarray  # (decisions,) the round of each decision


def rule_of(rounds: list[list[Decision]], rules: dict[str, object]) -> Rule:
    n = sum(len(r) for r in rounds)
    start = np.zeros(n, bool)
    knocks = np.zeros((n, len(KNOCKS)), bool)
    made_knock, made_never, may_knock = (np.zeros(n, bool) for _ in range(3))
    put_rules, others, legal_put = np.zeros(n, bool), np.ones(n), np.full(n, 4.0)
    of_round = np.zeros(n, int)
    i = 0
    for r_i, r in enumerate(rounds):
        for d in r:
            of_round[i] = r_i
            if d.phase == "put_down":
                assert d.new is not None
                rule = _core.choose_put_down(list(d.hand), d.new, d.from_pile, rules)
                put_rules[i], legal_put[i] = rule == d.made, 3 if d.from_pile else 4
            else:
                start[i], may_knock[i] = True, d.may_knock
                others[i] = int(d.may_take) + 1
                hand, top = list(d.hand), d.top
                never = _core.choose_start(hand, top, False, d.stock_empty, 31.0, rules)
                made_knock[i], made_never[i] = d.made == "knock", d.made == never
                score = _core.score(hand, rules)
                knocks[i] = [d.may_knock and score >= k for k in KNOCKS]
            i += 1
    return Rule(
        start, knocks, made_knock, made_never, may_knock, others, put_rules, legal_put, of_round
    )


def log_chances(rule: Rule, slip: float, knock_slip: float) -> np.ndarray:
    """Each decision's log-likelihood at each knock score (decisions x knock scores), as the
    core's ``model::likelihood`` defines it."""
    others = rule.others[:, None]
    # Where the rule knocks: a knock 1 - slip, each other move slip / others.
    knocking = np.where(rule.made_knock[:, None], 1.0 - slip, slip / others)
    # Where it does not: a knock knock_slip, its move 1 - slip - knock_slip, another a slip.
    k = np.where(rule.may_knock, knock_slip, 0.0)[:, None]
    other = np.where(rule.others > 1, slip, 0.0)[:, None]
    alternatives = np.maximum(others - 1, 1)
    not_knocking = np.where(
        rule.made_knock[:, None],
        k,
        np.where(rule.made_never[:, None], 1.0 - other - k, slip / alternatives),
    )
    start = np.where(rule.knocks, knocking, not_knocking)
    put = np.where(rule.put_rules, 1.0 - slip, slip / (rule.legal_put - 1))[:, None]
    chances = np.where(rule.start[:, None], start, np.broadcast_to(put, start.shape))
    return np.log(chances)


def fit(
    rule: Rule, slip: float, knock_slip: float, fixed: np.ndarray | None = None
) -> tuple[float, np.ndarray]:
    """The prior over ``KNOCKS`` maximising the rounds' likelihood at these slips, and that
    log-likelihood (expectation-maximisation from a flat prior, with one pseudo-round spread
    over the knock scores so that no score is ruled out by a small sample); with ``fixed``,
    that prior and its log-likelihood."""
    n_rounds = int(rule.rounds.max()) + 1
    logs = np.zeros((n_rounds, len(KNOCKS)))
    np.add.at(logs, rule.rounds, log_chances(rule, slip, knock_slip))
    top = logs.max(axis=1, keepdims=True)
    like = np.exp(logs - top)
    prior = np.full(len(KNOCKS), 1.0 / len(KNOCKS)) if fixed is None else fixed
    for _ in range(2000 if fixed is None else 0):  # a held prior is not fitted
        w = like * prior
        resp = w / w.sum(axis=1, keepdims=True)
        new = (resp.sum(axis=0) + 1.0 / len(KNOCKS)) / (n_rounds + 1.0)
        done = np.abs(new - prior).max() < 1e-12
        prior = new
        if done:
            break
    loglik = float((top[:, 0] + np.log((like * prior).sum(axis=1))).sum())
    return loglik, prior


def fit_take(rows: list[tuple[float, float, bool]]) -> dict[str, float]:
    """The take curve of a final turn where the rule takes (the core's ``model::TakeCurve``):
    over ``(now, after, took)`` rows, the chance of a take
    ``top / (1 + exp(-(bias + per_point * after + per_gain * (after - now))))`` by maximum
    likelihood."""
    from scipy.optimize import minimize

    now, after, took = (np.array(col, dtype=float) for col in zip(*rows, strict=True))

    def chance(theta: np.ndarray) -> np.ndarray:
        bias, per_point, per_gain, logit_top = theta
        z = bias + per_point * after + per_gain * (after - now)
        return np.clip(1 / (1 + np.exp(-logit_top)) / (1 + np.exp(-z)), 1e-12, 1 - 1e-12)

    def minus_log_likelihood(theta: np.ndarray) -> float:
        p = chance(theta)
        return float(-(took * np.log(p) + (1 - took) * np.log(1 - p)).sum())

    options = {"maxiter": 20_000, "xatol": 1e-6, "fatol": 1e-8}
    best = minimize(
        minus_log_likelihood, [-10.0, 0.7, 0.3, 3.0], method="Nelder-Mead", options=options
    )
    bias, per_point, per_gain, logit_top = (float(x) for x in best.x)
    return {
        "bias": round(bias, 3),
        "per_point": round(per_point, 3),
        "per_gain": round(per_gain, 3),
        "top": round(1 / (1 + np.exp(-logit_top)), 3),
        "of": len(rows),
    }


def fit_final(rounds: list[list[Decision]], rules: dict[str, object]) -> dict[str, object]:
    """The final turn's chances (the core's ``model::FinalTurn``), fitted to the final turns
    recorded by maximum likelihood: ``take``, the take curve where the rule takes (``passes``
    beside it: the share of draws there, one chance for all such turns); ``takes``, the share
    of takes where it draws; ``below``, the share of put-downs keeping less than the rule's among
    those where some card does."""
    passes, takes, below = [0, 0], [0, 0], [0, 0]
    take_rows: list[tuple[float, float, bool]] = []
    for d in (d for r in rounds for d in r if d.final):
        if d.phase == "put_down":
            assert d.new is not None
            four = [*d.hand, d.new]
            legal = four[:3] if d.from_pile else four
            kept = {c: _core.score([x for x in four if x != c], rules) for c in legal}
            best = kept[_core.choose_put_down(list(d.hand), d.new, d.from_pile, rules)]
            if any(k < best for k in kept.values()):
                below[0] += kept[d.made] < best
                below[1] += 1
        elif d.may_take:
            rule = _core.choose_start(list(d.hand), d.top, False, d.stock_empty, 31.0, rules)
            tally = passes if rule == "take" else takes
            tally[0] += (d.made == "take") != (rule == "take")
            tally[1] += 1
            if rule == "take":
                assert d.top is not None
                put = _core.choose_put_down(list(d.hand), d.top, True, rules)
                after = _core.score([c for c in [*d.hand, d.top] if c != put], rules)
                take_rows.append((_core.score(list(d.hand), rules), after, d.made == "take"))
    shares = {
        name: {"share": round(n / max(of, 1), 4), "of": of}
        for name, (n, of) in (("passes", passes), ("takes", takes), ("below", below))
    }
    return {"take": fit_take(take_rows) if take_rows else None, **shares}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--seats", type=int, default=4, choices=range(2, 10))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--decisions", type=Path, help="Also keep the decisions recorded (JSON).")
    ap.add_argument(
        "--from-decisions",
        type=Path,
        nargs="+",
        help="Fit to decisions kept earlier (one file or more) instead of playing.",
    )
    ap.add_argument(
        "--prior",
        help="Fit the slips only, the prior held even over these knock scores (e.g. 22-30).",
    )
    a = ap.parse_args()
    fixed = None
    if a.prior:
        low, high = (int(x) for x in a.prior.split("-"))
        fixed = np.array([1.0 if low <= k <= high else 0.0 for k in KNOCKS])
        fixed /= fixed.sum()
    rules = dataclasses.replace(Rules.preset("standard"), seats=a.seats)
    started = time.monotonic()
    rounds = play_experts(rules, 0 if a.from_decisions else a.games, a.seed)
    for path in a.from_decisions or []:
        kept = json.loads(path.read_text())
        rounds += [[Decision(**{**d, "hand": tuple(d["hand"])}) for d in r] for r in kept]
    core_rules = rules.round_rules()
    if a.decisions:
        a.decisions.parent.mkdir(parents=True, exist_ok=True)
        a.decisions.write_text(json.dumps([[vars(d) for d in r] for r in rounds]))
    # Final turns are weighed apart (``fit_final``); the slips are fitted to the other turns.
    rule = rule_of([[d for d in r if not d.final] for r in rounds], core_rules)
    fits = [(fit(rule, s, k, fixed), s, k) for s in SLIPS for k in KNOCK_SLIPS]
    (loglik, prior), slip, knock_slip = max(fits, key=lambda x: x[0][0])
    decisions = sum(len(r) for r in rounds)
    out = {
        "games": a.games,
        "seats": a.seats,
        "seed": a.seed,
        "prior_held": a.prior,
        "rounds": len(rounds),
        "decisions": decisions,
        "slip": slip,
        "knock_slip": knock_slip,
        "log_likelihood": round(loglik, 3),
        "prior": {str(k): round(float(p), 5) for k, p in zip(KNOCKS, prior, strict=True)},
        "final_turn": fit_final(rounds, core_rules),
        "seconds": round(time.monotonic() - started),
    }
    text = json.dumps(out, indent=2)
    print(text)
    if a.out:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
