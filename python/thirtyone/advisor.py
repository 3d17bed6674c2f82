"""The Oracle at the table: :class:`OracleAdvisor` computes the advice for the person's turn and
the read of each opponent: their scores in the consistent deals the advice was played over.

The random stream of each query is derived from the game's seed and the position (the deal, the
round, the turns played and the card pending), never from the order of the queries: a resumed
game, or advice asked twice, shows the same figures at the same position.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from rich.console import Console, RenderableType
from rich.text import Text

from thirtyone import _core, advice_view, oracle
from thirtyone.advice_words import pct, score_text
from thirtyone.errors import ThirtyOneError
from thirtyone.oracle import Advice

if TYPE_CHECKING:
    from thirtyone.turn import Turn

#: The read's "high hand": this score or more.
HIGH = 27.0


def position_seed(seed: int, turn: Turn, purpose: str = "advice") -> int:
    """A seed from the game's ``seed`` and the position of ``turn`` (63 bits)."""
    game = turn.game
    key = (seed, purpose, len(game.logs), game.round_number, turn.turns_played, turn.pending)
    digest = hashlib.blake2b(repr(key).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


@dataclass(frozen=True)
class Read:
    """What the consistent deals say of one opponent's hand: ``scores`` holds its score in each
    deal, ``took`` the cards they took from the pile this round."""

    seat: int
    name: str
    scores: npt.NDArray[np.float64]
    took: tuple[str, ...]

    def share_at_least(self, score: float) -> float:
        """The share of the consistent deals in which they hold ``score`` or more."""
        return float(np.mean(self.scores >= score)) if len(self.scores) else 0.0

    def share_above(self, score: float) -> float:
        """The share of the consistent deals in which they hold more than ``score``."""
        return float(np.mean(self.scores > score)) if len(self.scores) else 0.0

    def middle(self) -> tuple[float, float]:
        """The scores of the middle 80% of the deals (10th to 90th percentile)."""
        low, high = np.quantile(self.scores, [0.1, 0.9], method="inverted_cdf")
        return float(low), float(high)

    def line(self) -> str:
        """``Cara (took QD, JD): 14 to 25 in 8 deals of 10; 27 or more in 12%``."""
        low, high = self.middle()
        who = self.name + (f" (took {', '.join(self.took)})" if self.took else "")
        return (
            f"{who}: {score_text(low)} to {score_text(high)} in 8 deals of 10; "
            f"{score_text(HIGH)} or more in {pct(self.share_at_least(HIGH))}"
        )


def reads(state: dict[str, Any], names: Sequence[str], advice: Advice) -> list[Read]:
    """Each opponent's read: their scores in the consistent deals ``advice`` was played over
    (``state`` is the Oracle's input it answered, in round seats; ``names`` by round seat)."""
    took: dict[int, list[str]] = {}
    top = state["upcard"]
    for t in state["turns"]:
        if t.get("draw") == "pile":
            took.setdefault(t["seat"], []).append(top)
        top = t.get("discard", top)
    me, n_seats = state["me"], state["seats"]
    seats = sorted(advice.opponent_scores, key=lambda s: (s - me) % n_seats)
    return [
        Read(seat, names[seat], advice.opponent_scores[seat], tuple(took.get(seat, ())))
        for seat in seats
    ]


def why_line(advice: Advice, table_reads: Sequence[Read]) -> str | None:
    """One line: the opponent who most often beats the hand the best option keeps, and the read
    of them; when the option plans a later knock, or keeps a hand not yet known (a draw), the
    opponent most often at the score the plan knocks at (27 when it never knocks)."""
    if not table_reads:
        return None
    best = advice.best
    plan = best.knock_at if best.swept and best.knock_at is not None else None
    if plan is not None and all(r.share_at_least(plan) >= 1 for r in table_reads):
        # Knocking at the first chance: every opponent holds that much in every deal, which
        # says nothing. The threat is then a hand above the one kept, or at the table's score.
        plan = None if best.keeps is not None else HIGH
    if best.keeps is not None and plan is None:
        if best.keeps >= 31:
            return None
        what = f"more than your {score_text(best.keeps)}"
        threat = max(table_reads, key=lambda r: r.share_above(best.keeps or 0))
        share = threat.share_above(best.keeps)
    else:
        target = plan if plan is not None else HIGH
        what = f"{score_text(target)} or more"
        threat = max(table_reads, key=lambda r: r.share_at_least(target))
        share = threat.share_at_least(target)
    head = f"{threat.name} took the {' and the '.join(threat.took)}: " if threat.took else ""
    return (
        f"Why: {head}{threat.name} holds {what} in {pct(share)} of the deals consistent with "
        f"{threat.name}'s play."
    )


class OracleAdvisor:
    """The Oracle as an advisor: the advice for the player to move in the turn's game (with the
    pending draw after a draw or take), computed under a spinner.

    ``seed``: the game's seed, from which each query's seed is derived with the position (None:
    a random seed per advisor). A state the Oracle refuses, or Ctrl-C while it computes, gives a
    one-line note instead of advice; the game goes on, and the advice may be asked again.
    """

    def __init__(
        self,
        console: Console,
        *,
        deals: int = _core.DEFAULT_DEALS,
        playouts: int = _core.DEFAULT_PLAYOUTS,
        seed: int | None = None,
        threads: int | None = None,
        max_time: float | None = 5.0,
    ) -> None:
        self.console = console
        self.deals = deals
        self.playouts = playouts
        self.threads = threads
        self.max_time = max_time
        self.seed = secrets.randbits(62) if seed is None else seed
        self._cache: dict[int, tuple[Advice, str | None]] = {}
        #: Told each advice given, with its turn (the record of games keeps it with the
        #: decision that follows: see :mod:`thirtyone.record_keeper`).
        self.on_advice: Callable[[Turn, Advice], None] | None = None

    def advice(self, turn: Turn) -> tuple[Advice, str | None] | Text:
        """The advice at this position and the line that says why (computed once per
        position), or a note saying why there is none."""
        found = self._advice(turn)
        if self.on_advice is not None and not isinstance(found, Text):
            self.on_advice(turn, found[0])
        return found

    def _advice(self, turn: Turn) -> tuple[Advice, str | None] | Text:
        key = position_seed(self.seed, turn)
        if key in self._cache:
            return self._cache[key]
        try:
            with self.console.status("The Oracle is thinking…", spinner="dots"):
                found = oracle.advise(
                    turn.game,
                    deals=self.deals,
                    playouts=self.playouts,
                    seed=key,
                    threads=self.threads,
                    max_time=self.max_time,
                )
                why = self._why(found, turn)
        except ThirtyOneError as err:
            reason = " ".join(str(err).split())
            return Text(f"The Oracle has no advice here: {reason}", style="dim")
        except KeyboardInterrupt:
            return Text(
                "The Oracle was interrupted: no advice this time (a asks again).", style="dim"
            )
        self._cache = {key: (found, why)}
        return found, why

    def _why(self, found: Advice, turn: Turn) -> str | None:
        """The line that says why, from the deals the advice rests on."""
        return why_line(found, self._reads(found, turn))

    def _reads(self, found: Advice, turn: Turn) -> list[Read]:
        game = turn.game
        names = [game.names[s] for s in game.logs[-1].seats]
        return reads(game.view(), names, found)

    def reads(self, turn: Turn) -> list[Read]:
        """Each opponent's read at this position: their scores in the deals the Oracle's
        answer here rests on (the answer is computed if it has not been). Raises
        :class:`~thirtyone.errors.ThirtyOneError` when there is no answer."""
        found = self.advice(turn)
        if isinstance(found, Text):
            raise ThirtyOneError(found.plain)
        return self._reads(found[0], turn)

    def __call__(self, turn: Turn) -> RenderableType:
        found = self.advice(turn)
        if isinstance(found, Text):
            return found
        advice, why = found
        return advice_view.advice_panel_body(advice, Text(why, style="italic") if why else None)
