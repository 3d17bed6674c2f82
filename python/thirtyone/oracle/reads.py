"""The Oracle's read of the table: each opponent's read (:class:`Read`: their scores in the
consistent deals an answer was played over) and the "Why" line that names the opponent most
likely to beat the best option (:func:`why_line`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (numpy is imported by the first answer: not by `import thirtyone`)
    import numpy as np
    import numpy.typing as npt

from thirtyone import _core
from thirtyone.oracle.answer import Advice
from thirtyone.oracle.words import pct, score_text

#: The read's "high hand": this score or more.
HIGH = 27.0


@dataclass(frozen=True)
class Read:
    """What the consistent deals say of one opponent's hand: ``scores`` holds its score in each
    deal, ``took`` the cards they took from the pile this round."""

    seat: int
    name: str
    scores: npt.NDArray[np.float64]
    took: tuple[str, ...]
    #: For an opponent read by a model (a person, the expert: ``models``), the score they knock
    #: at in each deal, before anybody knocks (and for a person who knocked: how their knock was
    #: read); None for a player of the table's rule (who knocks at 27), after a knock, and for
    #: an expert who knocked (the expert's knock is read by when experts knock).
    knocks: npt.NDArray[np.float64] | None = None
    #: They knocked this round.
    knocked: bool = False
    #: Read by a model (a person, the expert): each deal weighed by how likely their play is in
    #: it, not kept or ruled out by the table's rule.
    weighed: bool = False

    def knock_from(self) -> float | None:
        """The score they knock from, as the deals read it (the median over the deals); None
        for the table's rule."""
        import numpy as np

        if self.knocks is None or not len(self.knocks):
            return None
        return float(np.quantile(self.knocks, 0.5, method="inverted_cdf"))

    def knock_text(self) -> str | None:
        """``knocks from about 22``: what the deals read of their knocks (None for the table's
        rule)."""
        k = self.knock_from()
        return None if k is None else f"knocks from about {score_text(k)}"

    def share_at_least(self, score: float) -> float:
        """The share of the consistent deals in which they hold ``score`` or more."""
        return float((self.scores >= score).mean()) if len(self.scores) else 0.0

    def share_above(self, score: float) -> float:
        """The share of the consistent deals in which they hold more than ``score``."""
        return float((self.scores > score).mean()) if len(self.scores) else 0.0

    def middle(self) -> tuple[float, float]:
        """The scores of the middle 80% of the deals (10th to 90th percentile)."""
        import numpy as np

        low, high = np.quantile(self.scores, [0.1, 0.9], method="inverted_cdf")
        return float(low), float(high)

    def line(self) -> str:
        """``Cara (took QD, JD): 14 to 25 in 8 deals of 10; 27 or more in 12%`` (and for a
        modelled opponent ``; knocks from about 22``); ``20 in 8 deals of 10 or more`` where the
        middle of the deals is one score."""
        low, high = self.middle()
        who = self.name + (f" (took {', '.join(self.took)})" if self.took else "")
        knocks = self.knock_text()
        middle = (
            f"{score_text(low)} in 8 deals of 10 or more"
            if low == high
            else f"{score_text(low)} to {score_text(high)} in 8 deals of 10"
        )
        return (
            f"{who}: {middle}; "
            f"{score_text(HIGH)} or more in {pct(self.share_at_least(HIGH))}"
            + (f"; {knocks}" if knocks else "")
        )


def held_from_pile(state: dict[str, Any]) -> dict[int, list[str]]:
    """Each seat's cards taken from the pile this round and still held (not put down since),
    in the order taken."""
    took: dict[int, list[str]] = {}
    top = state["upcard"]
    for t in state["turns"]:
        seat = t["seat"]
        if t.get("draw") == "pile":
            took.setdefault(seat, []).append(top)
        if t.get("discard") in took.get(seat, ()):
            took[seat].remove(t["discard"])
        top = t.get("discard", top)
    return {seat: cards for seat, cards in took.items() if cards}


def reads(state: dict[str, Any], names: Sequence[str], advice: Advice) -> list[Read]:
    """Each opponent's read: their scores in the consistent deals ``advice`` was played over
    (``state`` is the Oracle's input it answered, in round seats; ``names`` by round seat)."""
    took = held_from_pile(state)
    me, n_seats = state["me"], state["seats"]
    knocker = next((t["seat"] for t in state["turns"] if t.get("knock")), None)
    models = state.get("models") or [None] * n_seats
    seats = sorted(advice.opponent_scores, key=lambda s: (s - me) % n_seats)
    return [
        Read(
            seat,
            names[seat],
            advice.opponent_scores[seat],
            tuple(took.get(seat, ())),
            advice.opponent_knocks.get(seat),
            seat == knocker,
            models[seat] not in (None, "table"),
        )
        for seat in seats
    ]


def score_now(state: dict[str, Any]) -> float:
    """The score of your hand as ``state`` (the Oracle's input) holds it, by its rules."""
    return _core.score(list(state["hand"]), _core.parse_rules(state.get("rules")))


def why_line(advice: Advice, table_reads: Sequence[Read], now: float | None = None) -> str | None:
    """One line: the opponent who most often beats the hand the best option keeps, and the read
    of them; when the option plans a later knock, or keeps a hand not yet known (a draw), the
    opponent most often at the score the plan knocks at (27 when it never knocks). After a
    knock, a draw keeps at least your hand ``now`` (its put-down keeps the best three cards):
    the threat is then a hand above it ("more than your 17 now"), which says more than 27
    against players who knock lower.

    Said only when it explains the option's risk: when that opponent's share is at least half
    the share of rounds the option is not safe in and at most twice it (None otherwise, and for
    a safe option): "safe in 99.2%" beside "Dev holds more than your 23 in 10.3% of the deals"
    read as a contradiction, being beaten by one of three opponents not being a loss. The
    cards named are those the opponent took from the pile and still holds."""
    if not table_reads:
        return None
    best = advice.best
    risk = 1.0 - best.p_safe
    if risk <= 0.0:
        return None
    plan: float | None = None
    if best.swept:  # the round goes on: the threat is a hand at the score the plan knocks at
        plan = best.knock_at if best.knock_at is not None else HIGH  # (27: never knocking)
        if all(r.share_at_least(plan) >= 1 for r in table_reads):
            # Knocking at the first chance: every opponent holds that much in every deal,
            # which says nothing. The threat is then a hand above the one kept, or at the
            # table's score.
            plan = None if best.keeps is not None else HIGH
    # The hand to beat: the one the option keeps, or after a knock (nothing swept) a draw's
    # least, your hand now; None where the plan's knock score is the threat.
    if best.keeps is not None:
        beat = best.keeps if plan is None else None
    else:
        beat = now if not best.swept else None
    if beat is not None:
        if beat >= 31:
            return None
        what = f"more than your {score_text(beat)}" + (" now" if best.keeps is None else "")
        threat = max(table_reads, key=lambda r: r.share_above(beat))
        share = threat.share_above(beat)
    else:
        target = plan if plan is not None else HIGH
        what = f"{score_text(target)} or more"
        threat = max(table_reads, key=lambda r: r.share_at_least(target))
        share = threat.share_at_least(target)
    if not risk / 2 <= share <= 2 * risk:
        return None  # the line would explain little of the risk: the table says enough
    return (
        f"Why: {_why_head(threat)}{threat.name} holds {what} in {pct(share)} of {_deals(threat)}."
    )


def _why_head(threat: Read) -> str:
    """What the line starts from: the knock of a modelled knocker (and what it is read as), or
    the cards they took from the pile."""
    knocks = threat.knock_text()
    if threat.knocked and knocks:
        return f"{threat.name} knocked, read as a player who {knocks}: "
    if threat.knocked and threat.weighed:
        return f"{threat.name} knocked, read by when experts knock: "
    if threat.took:
        return f"{threat.name} took the {' and the '.join(threat.took)}: "
    return ""


def _deals(threat: Read) -> str:
    """The deals the share is of: consistent with a table player's play, weighed by a modelled
    player's."""
    if threat.weighed:
        return f"the deals, each weighed by how likely {threat.name}'s play is"
    return f"the deals consistent with {threat.name}'s play"
