"""Turns per playout, estimated on the model of the pure-Python reference (``tests/reference``):
the engine counts no turns, the reference logs every one."""

from __future__ import annotations

import math
import random
import sys
from dataclasses import dataclass
from typing import Any

from bench_query import ROOT, option_name, timed
from positions import BenchPosition
from thirtyone import _core
from thirtyone.state import parse


class Reference:
    """The pure-Python reference Oracle of ``tests/reference`` (absent: figures left out)."""

    def __init__(self) -> None:
        self.error: str | None = None
        try:
            sys.path.append(str(ROOT))
            from tests.reference.playout import play_out
            from tests.reference.rules import score
            from tests.reference.sampler import Deal
            from tests.reference.state import parse_state

            self.play_out: Any = play_out
            self.score: Any = score
            self.Deal: Any = Deal
            self.parse_state: Any = parse_state
        except Exception as e:  # any failure: report it and go on without the reference
            self.error = f"{type(e).__name__}: {e}"

    @property
    def ok(self) -> bool:
        return self.error is None

    def position(self, p: BenchPosition) -> Any:
        state = dict(p.state)
        rules = state.get("rules")
        if isinstance(rules, dict):  # the reference takes round rules only
            state["rules"] = {k: v for k, v in rules.items() if k != "seats"}
        return self.parse_state(state)

    def deals(self, p: BenchPosition, n: int, seed: int) -> list[Any]:
        """Consistent deals sampled by the Rust core (uniform over the same set as the
        reference's), in the reference's form."""
        raw, _ = _core.sample_deals(parse(p.state), n, seed, 2)
        return [
            self.Deal(
                hands={int(s): tuple(h) for s, h in d["hands"].items()},
                hidden={},
                rest=tuple(d["stock"]),
                histories={},
            )
            for d in raw
        ]


@dataclass
class TurnEstimate:
    #: Mean table-rule turns of one sweep playout and of one confirmation playout.
    sweep: float
    confirm: float


def _ref_option(o: dict[str, Any]) -> list[tuple[str, str | None]]:
    """The reference options (option, put-down) one engine playout of option ``o`` plays."""
    kind = o["kind"]
    if kind == "take":
        return [("take", c) for c in o["_hand"]]  # every put-down variant, one trajectory each
    if kind == "discard":
        return [(f"discard:{o['card']}", None)]
    return [(kind, None)]


def estimate_turns(
    ref: Reference, p: BenchPosition, raw: dict[str, Any], samples: int, seed: int
) -> dict[str, TurnEstimate]:
    """Mean table-rule turns per engine playout, per option, on the reference's model.

    The engine counts no turns, so they are estimated: the same playouts (consistent deal, fresh
    stock order, the table's rule) are played by the reference, which logs every turn. A sweep
    playout of the engine plays the never-knock trajectory and, at each of your turns where a
    knock threshold is first reached, a branch that knocks there and plays the final turns; a
    take plays that for each card you could put down. Your own first move is not a rule turn.
    """
    pos = ref.position(p)
    deals = ref.deals(p, samples, seed)
    out: dict[str, TurnEstimate] = {}
    for o in raw["options"]:
        o = {**o, "_hand": list(p.state["hand"])}
        out[option_name(o)] = _option_turns(ref, pos, deals, o, samples, seed)
    return out


def _option_turns(
    ref: Reference, pos: Any, deals: list[Any], o: dict[str, Any], samples: int, seed: int
) -> TurnEstimate:
    """Mean turns of one option's sweep playout and of its confirmation playout."""
    me = pos.me
    thresholds = (
        sorted(float(k) for k in o["sweep_knock_at"] if not math.isnan(k)) if o["swept"] else []
    )
    rng = random.Random(seed)
    sweep_turns = 0
    confirm_turns = 0
    for i in range(samples):
        deal = deals[i % len(deals)]
        stock = list(deal.rest)
        rng.shuffle(stock)
        for option, put in _ref_option(o):
            log: list[Any] = []
            ref.play_out(pos, deal, stock, option, put, None, log)
            sweep_turns += len(log) - 1
            if thresholds:
                sweep_turns += _branch_turns(ref, pos, deal, stock, option, put, log, me, o)
        # The confirmation: one trajectory, the chosen put-down and knock score.
        option, put = ("take", o["discard"]) if o["kind"] == "take" else _ref_option(o)[0]
        log = []
        knock_at = o["knock_at"] if o["swept"] else None
        ref.play_out(pos, deal, stock, option, put, knock_at, log)
        confirm_turns += len(log) - 1
    return TurnEstimate(sweep_turns / samples, confirm_turns / samples)


def _branch_turns(
    ref: Reference,
    pos: Any,
    deal: Any,
    stock: list[str],
    option: str,
    put: str | None,
    never_log: list[Any],
    me: int,
    o: dict[str, Any],
) -> int:
    """Turns of the branches a sweep trajectory spawns (each from its knock to the end)."""
    thresholds = sorted(float(k) for k in o["sweep_knock_at"] if not math.isnan(k))
    hand = list(pos.hand)
    reached = 0
    turns = 0
    for j, (seat, _action, gained, put_down) in enumerate(never_log):
        if j > 0 and seat == me and reached < len(thresholds):
            s = float(ref.score(hand, pos.rules))
            upto = reached
            while upto < len(thresholds) and thresholds[upto] <= s:
                upto += 1
            if upto > reached:
                log: list[Any] = []
                ref.play_out(pos, deal, stock, option, put, thresholds[reached], log)
                if j < len(log) and log[j][0] == me and log[j][1] == "knock":
                    turns += len(log) - j
                    reached = upto
        if seat == me and gained is not None and put_down is not None:
            hand = [*hand, gained]
            hand.remove(put_down)
    return turns


def query_turns(raw: dict[str, Any], est: dict[str, TurnEstimate]) -> float:
    """Estimated table-rule turns of a whole query: each option's playouts, and the
    confirmation playouts of a swept option."""
    turns = 0.0
    for o in raw["options"]:
        name = option_name(o)
        n = int(o["playouts"])
        turns += n * est[name].sweep + (n * est[name].confirm if o["swept"] else 0.0)
    return turns


def reference_playouts(ref: Reference, p: BenchPosition, playouts: int) -> tuple[str, float, int]:
    """The reference's playouts of one option never knocking, timed: the option, the wall time
    and the table-rule turns they played."""
    pos = ref.position(p)
    ref_deals = ref.deals(p, 200, 3)
    option = "draw" if "pending" not in p.state else f"discard:{p.state['hand'][0]}"
    rng = random.Random(5)
    n_turns = 0

    def python_playouts() -> None:
        nonlocal n_turns
        for i in range(playouts):
            deal = ref_deals[i % len(ref_deals)]
            stock = list(deal.rest)
            rng.shuffle(stock)
            log_: list[Any] = []
            ref.play_out(pos, deal, stock, option, None, None, log_)
            n_turns += len(log_) - 1

    t_py, _ = timed(python_playouts)
    return option, t_py, n_turns
