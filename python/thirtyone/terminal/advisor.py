"""The Oracle at the table: :class:`OracleAdvisor` computes the advice for the person's turn and
the read of each opponent (:mod:`thirtyone.oracle.reads`), and shows them.

The random stream of each query is derived from the game's seed and the position (the deal, the
round, the turns played and the card pending), never from the order of the queries: a resumed
game, or advice asked twice, shows the same figures at the same position.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from rich.console import Console, RenderableType
from rich.text import Text

from thirtyone import _core
from thirtyone.errors import ThirtyOneError
from thirtyone.game.seats import SeatView, position_seed
from thirtyone.oracle import query
from thirtyone.oracle.answer import Advice
from thirtyone.oracle.reads import Read, reads, score_now, why_line
from thirtyone.terminal import advice_view
from thirtyone.terminal.display import Layouts


class OracleAdvisor:
    """The Oracle as an advisor: the advice for the seat to move (with the
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
        #: decision that follows: see :mod:`thirtyone.store.keeper`).
        self.on_advice: Callable[[SeatView, Advice], None] | None = None

    def advice(self, view: SeatView) -> tuple[Advice, str | None] | Text:
        """The advice at this position and the line that says why (computed once per
        position), or a note saying why there is none."""
        found = self._advice(view)
        if self.on_advice is not None and not isinstance(found, Text):
            self.on_advice(view, found[0])
        return found

    def _advice(self, view: SeatView) -> tuple[Advice, str | None] | Text:
        key = position_seed(self.seed, view)
        if key in self._cache:
            return self._cache[key]
        try:
            with self.console.status("The Oracle is thinking…", spinner="dots"):
                found = query.advise(
                    view.state(),
                    deals=self.deals,
                    playouts=self.playouts,
                    seed=key,
                    threads=self.threads,
                    max_time=self.max_time,
                    names=list(view.names),
                )
                why = self._why(found, view)
        except ThirtyOneError as err:
            reason = " ".join(str(err).split())
            return Text(f"The Oracle has no advice here: {reason}", style="dim")
        except KeyboardInterrupt:
            return Text(
                "The Oracle was interrupted: no advice this time (a asks again).", style="dim"
            )
        self._cache = {key: (found, why)}
        return found, why

    def _why(self, found: Advice, view: SeatView) -> str | None:
        """The line that says why, from the deals the advice rests on."""
        return why_line(found, self._reads(found, view), score_now(view.state()))

    def _reads(self, found: Advice, view: SeatView) -> list[Read]:
        return reads(view.state(), list(view.names), found)

    def reads(self, view: SeatView) -> list[Read]:
        """Each opponent's read at this position: their scores in the deals the Oracle's
        answer here rests on (the answer is computed if it has not been). Raises
        :class:`~thirtyone.errors.ThirtyOneError` when there is no answer."""
        found = self.advice(view)
        if isinstance(found, Text):
            raise ThirtyOneError(found.plain)
        return self._reads(found[0], view)

    def __call__(self, view: SeatView) -> RenderableType | Layouts:
        found = self.advice(view)
        if isinstance(found, Text):
            return found
        advice, why = found
        return advice_view.advice_layouts(advice, Text(why, style="italic") if why else None)
