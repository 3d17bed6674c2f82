"""The pure-Python reference Oracle (``tests/reference``) timed on the same kind of playouts, for
the Rust / Python ratio (the reference logs every turn it plays)."""

from __future__ import annotations

import random
import sys
from typing import Any

from bench_query import ROOT, timed
from positions import BenchPosition
from thirtyone import _core
from thirtyone.oracle.state import parse


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


class ReferencePlayouts:
    """The reference's playouts of one option never knocking at a position, set up once (the
    deals, the option, one random stream for the stocks) and then timed in batches: the batches
    can run in turns with the engine's own timings, so that both see the host as it was."""

    def __init__(self, ref: Reference, p: BenchPosition) -> None:
        self.ref = ref
        self.pos = ref.position(p)
        self.deals = ref.deals(p, 200, 3)
        self.option = "draw" if "pending" not in p.state else f"discard:{p.state['hand'][0]}"
        self.rng = random.Random(5)
        self.played = 0

    def batch(self, playouts: int) -> tuple[float, int]:
        """``playouts`` more of them, timed: the wall time and the table-rule turns played."""
        n_turns = 0

        def python_playouts() -> None:
            nonlocal n_turns
            for _ in range(playouts):
                deal = self.deals[self.played % len(self.deals)]
                self.played += 1
                stock = list(deal.rest)
                self.rng.shuffle(stock)
                log_: list[Any] = []
                self.ref.play_out(self.pos, deal, stock, self.option, None, None, log_)
                n_turns += len(log_) - 1

        t_py, _ = timed(python_playouts)
        return t_py, n_turns
