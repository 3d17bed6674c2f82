"""The Oracle at the browser's table: at each of your decisions a first estimate, then the figures
at full precision, computed off the event loop (:func:`~thirtyone.web.work.in_turn`), one of
each stage at a time, a query the game has moved on from cancelled in the core.

The first estimate is a small query (at most :data:`QUICK_DEALS` deals and :data:`QUICK_PLAYOUTS`
playouts, within :data:`QUICK_TIME` seconds): it is on the page within a fraction of a second.
The full query is the command line's (``--oracle-deals``, ``--oracle-playouts``, five seconds at
most); it replaces the estimate when it is done. Each query's seed comes from the game's seed and
the position (:func:`~thirtyone.game.seats.position_seed`), as in ``thirtyone play``: the same
position shows the same figures, after a reload or a resume too.

One query of each kind runs at a time on the whole server (each already uses every core), so
many tabs cannot pile up work; a query whose position has been played past is dropped before it
starts, and its answer, if it was under way, is not sent. A query whose game no page watches any
more (the last tab closed or went elsewhere) is cancelled too (:meth:`Desk.pause`); the answers
already found are kept, and a page that comes back has the stages still missing computed again.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from thirtyone import _core
from thirtyone.errors import ThirtyOneError
from thirtyone.game.seats import SeatView, position_seed
from thirtyone.oracle import query
from thirtyone.oracle.answer import Advice
from thirtyone.oracle.reads import reads, score_now, why_line
from thirtyone.web import views
from thirtyone.web.work import in_turn

#: The first estimate's budget.
QUICK_DEALS = 1_000
QUICK_PLAYOUTS = 2_000
QUICK_TIME = 0.15

Send = Callable[[dict[str, Any]], None]


@dataclass(frozen=True)
class Budget:
    """The full query's settings (the command line's bounds apply: the core checks them)."""

    deals: int = _core.DEFAULT_DEALS
    playouts: int = _core.DEFAULT_PLAYOUTS
    max_time: float | None = 5.0
    #: Whether the precision was given to ``thirtyone serve`` (it then applies to every game, as
    #: ``--oracle-deals`` given with ``play --resume`` does); else a game started at another
    #: precision (the save's ``oracle``) is advised at its own.
    given: bool = False

    def for_game(self, oracle: dict[str, int] | None) -> Budget:
        """The budget of a game whose save keeps ``oracle`` (``{"deals", "playouts"}``, or None:
        the default), so that it shows the advice it showed in the terminal at each position."""
        if self.given or oracle is None:
            return self
        return Budget(oracle["deals"], oracle["playouts"], self.max_time)

    def stages(self) -> list[tuple[str, int, int, float | None]]:
        """The queries, in order: a quick one (unless the full one is as small), then the full."""
        full = ("full", self.deals, self.playouts, self.max_time)
        if self.deals <= QUICK_DEALS and self.playouts <= QUICK_PLAYOUTS:
            return [full]
        quick = ("quick", min(self.deals, QUICK_DEALS), min(self.playouts, QUICK_PLAYOUTS))
        return [(*quick, QUICK_TIME), full]


class Gates:
    """One query of each stage at a time on the whole server."""

    def __init__(self) -> None:
        self.stage = {"quick": asyncio.Semaphore(1), "full": asyncio.Semaphore(1)}


def compute(
    state: dict[str, Any],
    names: list[str],
    seed: int,
    deals: int,
    playouts: int,
    limit: float | None,
    cancel: _core.Cancel | None = None,
) -> tuple[Advice, str | None]:
    """The Oracle's answer for ``state`` and the line that says why (a thread's work), stopped
    by ``cancel``."""
    found = query.advise(
        state,
        deals=deals,
        playouts=playouts,
        seed=seed,
        max_time=limit,
        names=names,
        cancel=cancel,
    )
    return found, why_line(found, reads(state, names, found), score_now(state))


class Desk:
    """The Oracle for one game: the advice at the position ``at`` (the journal's length), with
    each stage's answer kept until the game moves on."""

    def __init__(self, budget: Budget, gates: Gates, game_seed: int) -> None:
        self.budget = budget
        self.gates = gates
        self.game_seed = game_seed
        self.at: int | None = None
        #: Each stage's answer at :attr:`at`, and its message.
        self.found: dict[str, tuple[Advice, dict[str, Any]]] = {}
        self.task: asyncio.Task[None] | None = None

    def start(self, at: int, view: SeatView, send: Send) -> None:
        """Compute the advice at ``at`` (seen from ``view``) unless it is under way or done;
        each stage's message is sent as it is ready (a stage already found at ``at`` is not
        asked again)."""
        if self.at == at and self.task is not None:
            return
        if self.at != at:
            self.forget()
        self.at = at
        state, names = view.state(), list(view.names)
        seed = position_seed(self.game_seed, view)
        self.task = asyncio.create_task(self._run(at, state, names, seed, send))

    def forget(self) -> None:
        """The game has moved on: drop what was found and any query not yet started."""
        self.pause()
        self.at, self.found = None, {}

    def pause(self) -> None:
        """Nobody watches the game any more: cancel the query under way (in the core; its
        stage's gate is freed once the core has stopped) and keep what was found, so that
        :meth:`start` at the same position asks only for the stages still missing."""
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = None

    def messages(self, at: int) -> list[dict[str, Any]]:
        """The messages already sent at ``at`` (for a page that has just come)."""
        if self.at != at:
            return []
        return [message for _, message in self.found.values()]

    def best_known(self, at: int) -> Advice | None:
        """The most precise answer found at ``at`` (None: none yet)."""
        if self.at != at:
            return None
        for stage in ("full", "quick"):
            if stage in self.found:
                return self.found[stage][0]
        return None

    async def _run(
        self, at: int, state: dict[str, Any], names: list[str], seed: int, send: Send
    ) -> None:
        for stage, deals, playouts, limit in self.budget.stages():
            if self.at != at:
                return
            if stage in self.found:  # (found before the game's last page left)
                continue
            # A game that moves on cancels this task, and with it the query (its stage's gate
            # held until the core has stopped: an answer nobody waits for takes no core).
            work = functools.partial(compute, state, names, seed, deals, playouts, limit)
            try:
                found, why = await in_turn(self.gates.stage[stage], work, _core.Cancel())
            except ThirtyOneError as err:
                reason = " ".join(str(err).split())
                if self.at == at:
                    text = f"The Oracle has no advice here: {reason}"
                    send({"type": "advice", "at": at, "stage": "error", "message": text})
                return
            if self.at != at:
                return
            message = {
                "type": "advice",
                "at": at,
                "stage": stage,
                "advice": views.advice(found, why),
            }
            self.found[stage] = (found, message)
            send(message)
