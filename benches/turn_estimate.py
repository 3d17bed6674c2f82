"""The pure-Python reference Oracle (``tests/reference``) timed on the same kind of playouts, for
the Rust / Python ratio (the reference logs every turn it plays), and the engine timed on the
very same playouts (``SamePlayouts``)."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from typing import Any

from bench_query import ROOT, timed
from positions import BenchPosition
from thirtyone import _core
from thirtyone.oracle.state import parse
from turn_count import example_build, target_dir


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
        #: The lives you lost in all the playouts timed (to compare with the engine's).
        self.lost = 0

    def batch(self, playouts: int) -> tuple[float, int]:
        """``playouts`` more of them, timed: the wall time and the table-rule turns played."""
        n_turns = lost = 0
        me = self.pos.me

        def python_playouts() -> None:
            nonlocal n_turns, lost
            for _ in range(playouts):
                deal = self.deals[self.played % len(self.deals)]
                self.played += 1
                stock = list(deal.rest)
                self.rng.shuffle(stock)
                log_: list[Any] = []
                losses = self.ref.play_out(self.pos, deal, stock, self.option, None, None, log_)
                lost += losses[me]
                n_turns += len(log_) - 1

        t_py, _ = timed(python_playouts)
        self.lost += lost
        return t_py, n_turns


#: The engine's example that plays the reference's playouts.
SAME_BUILD = example_build("same_playouts")

#: The engine's playouts a batch: about as long as the reference's 1,000 take.
SAME_PLAYOUTS = 1_000_000


class SamePlayouts:
    """The reference's playouts played by the engine (the example ``same_playouts``): the same
    position, the same 200 deals, the same option never knocking, on one thread, a new stock
    order each (the code a query's confirmation runs). A query's playouts are not these: each
    plays every knock score of its sweep (a branch for each) and a take each of its put-downs,
    so a query's playouts a second are fewer than the engine's playouts of this kind."""

    def __init__(self, runs: ReferencePlayouts, p: BenchPosition) -> None:
        self.error: str | None = None
        self.job: dict[str, Any] = {
            "state": p.round_state,
            "option": runs.option,
            "deals": len(runs.deals),
            "deal_seed": 3,
            "playouts": SAME_PLAYOUTS,
        }
        self.batches = 0
        self.lost = 0
        if shutil.which("cargo") is None:
            self.error = "cargo is not on the PATH: the engine's example cannot be built"
            return
        built = subprocess.run(SAME_BUILD, cwd=ROOT, capture_output=True, text=True, timeout=1800)
        if built.returncode != 0:
            self.error = "the example's build failed: " + built.stderr.strip()[-300:]
        self.exe = target_dir() / "profiling" / "examples" / "same_playouts"

    def batch(self) -> float:
        """``SAME_PLAYOUTS`` more of them (a new seed each batch): the seconds they took."""
        job = {**self.job, "seed": self.batches}
        self.batches += 1
        run = subprocess.run(
            [str(self.exe)], input=json.dumps(job), capture_output=True, text=True, timeout=600
        )
        if run.returncode != 0:
            raise RuntimeError("same_playouts failed: " + run.stderr.strip()[-300:])
        out = json.loads(run.stdout)
        self.lost += int(out["lives_lost"])
        return float(out["seconds"])
