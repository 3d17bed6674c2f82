"""One game played in the browser: the session, its save, the keeper of your decisions, the
Oracle's desk, and the pages that watch it.

The game is the same as ``thirtyone play``'s, in the same file: a :class:`~thirtyone.Session`
with your seat pushed and the computer seats played by the opponents' policies
(:func:`~thirtyone.oracle.player.opponent`), saved after every event by a
:class:`~thirtyone.store.saves.Saver` (a draw or a take too), your decisions kept with the
Oracle's advice by a :class:`~thirtyone.store.keeper.Keeper`, and, once over, kept for
``thirtyone review`` and added to the record of games. A saved game is resumed by replaying its
journal into a new session (:func:`thirtyone.store.saves.replay`), nothing written until the
replay is done.

The session's moves run off the event loop (:func:`~thirtyone.web.work.off_loop`: an expert
opponent asks the Oracle at each of its turns), one at a time under :attr:`Table.lock`; each
event is sent to every page watching as it happens. A save that cannot be written is reported
on the page, and the game goes on (the last good save stays on disk).
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from thirtyone._core import Action
from thirtyone.game.seats import seat_models
from thirtyone.game.session import Event, Session
from thirtyone.oracle.player import opponent
from thirtyone.store import saves
from thirtyone.store import summary as record_summary
from thirtyone.store.keeper import Keeper, game_record, restored
from thirtyone.web import views
from thirtyone.web.advice import Budget, Desk, Gates
from thirtyone.web.work import off_loop

#: What is known of a file: changed when another program writes it (a rename gives a new inode).
Mark = tuple[int, int, int]


class Watcher(Protocol):
    """A page watching the game: it is sent every message."""

    def send(self, message: dict[str, Any]) -> None: ...


def file_mark(path: Path) -> Mark | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_ino, info.st_mtime_ns, info.st_size)


class Table:
    """A game in the browser (see the module's doc), saved at ``path``: game ``number`` (0: the
    save, n: its n-th backup). Build it with :meth:`new` or :meth:`resumed` (on a thread)."""

    def __init__(
        self,
        saved: saves.SavedGame,
        path: Path,
        number: int,
        budget: Budget,
        gates: Gates,
        loop: asyncio.AbstractEventLoop,
    ) -> None:
        self.saved, self.path, self.number, self.loop = saved, path, number, loop
        self.where = saves.short(path)
        self.keeper = Keeper(views.YOU, restored(saved.decisions))
        saved.decisions = self.keeper.kept  # (the save holds the decisions up to each event)
        n = saved.rules.seats
        policies = [None, *(opponent(saved.opponents, s, saved.seed) for s in range(1, n))]
        models = seat_models(policies)
        self.session = Session(
            saved.rules, policies, seed=saved.seed, names=saved.names, models=models
        )
        self.session.add_listener(self.keeper)  # (before the save)
        self.saver = saves.Saver(saved, self.session, path, armed=False)
        self.session.add_listener(self._save)
        self.session.add_listener(self._tell)
        self.desk = Desk(budget.for_game(saved.oracle), gates, saved.seed)
        self.lock = asyncio.Lock()
        self.watchers: set[Watcher] = set()
        #: What the server adds to the state: ``save_error``, ``keep_error``, ``record``.
        self.notes: dict[str, Any] = {}
        self.mark: Mark | None = None
        #: The position at which the advice was asked for (advice on request).
        self.asked: int | None = None
        self.telling = False
        self.recorded = False
        self.retired = False
        self._writing = threading.Lock()

    # -- building ---------------------------------------------------------------------------------

    @classmethod
    def new(cls, saved: saves.SavedGame, path: Path, *args: Any) -> Table:
        """A new game, saved at once (before the first turn, as ``thirtyone play`` does). Raises
        :class:`~thirtyone.store.saves.SaveError`; a thread's work."""
        table = cls(saved, path, 0, *args)
        table.saver.arm()
        table.saver.save()  # (raises: a new game that cannot be saved is not started)
        table.mark = file_mark(path)
        return table

    @classmethod
    def resumed(cls, saved: saves.SavedGame, path: Path, number: int, *args: Any) -> Table:
        """The saved game replayed to where it stands. Raises
        :class:`~thirtyone.store.saves.SaveError` naming the action that cannot be replayed
        (nothing is written); a thread's work."""
        table = cls(saved, path, number, *args)
        saves.replay(table.session, saved, table.where)
        table.keeper.caught_up()
        table.saver.arm()
        table.mark = file_mark(path)
        return table

    # -- the watchers -----------------------------------------------------------------------------

    def unwatch(self, watcher: Watcher) -> None:
        """``watcher`` no longer watches the game (its page closed or went elsewhere); when it
        was the last, the Oracle's query under way is cancelled (:meth:`Desk.pause`): no page
        would be sent its answer, and it would hold the server's turn for its stage."""
        self.watchers.discard(watcher)
        if not self.watchers:
            self.desk.pause()

    def broadcast(self, message: dict[str, Any]) -> None:
        for watcher in list(self.watchers):
            watcher.send(message)

    def state(self) -> dict[str, Any]:
        return views.state(self.session, self.saved, self.number, self.where, self.notes)

    def stale(self) -> bool:
        """Whether the save was written since by someone else (``thirtyone play``, another
        server): the game must be read again from it. Never while this game is being played or
        saved here (the file is then changing under our own hand)."""
        if self.retired or self.telling or not self._writing.acquire(blocking=False):
            return False
        try:
            return file_mark(self.path) != self.mark
        finally:
            self._writing.release()

    def retire(self) -> None:
        """This game is no longer played here (it was kept under another name): write nothing."""
        self.retired = True
        self.saver.armed = False
        self.desk.forget()

    # -- playing ----------------------------------------------------------------------------------

    async def catch_up(self) -> None:
        """Play the computer seats up to your decision (a new game's first turns, or a save left
        before they were played), and settle a game that is over."""
        if not self.session.over and self._yours():
            return
        await self._run(self.session.advance)

    async def act(self, action: Action) -> None:
        """Your decision, then the computer seats' up to your next one (the caller holds
        :attr:`lock` and has checked that ``action`` is legal)."""
        at = len(self.session.journal)
        known = self.desk.best_known(at)
        if known is not None:  # (the record keeps the advice shown with the decision)
            self.keeper.on_advice(self.session.seat_view(), known)
        self.desk.forget()
        await self._run(lambda: self.session.act(action))

    async def _run(self, step: Callable[[], list[Event]]) -> None:
        self.telling = True
        try:
            await off_loop(lambda: self._step(step))
        finally:
            self.telling = False

    def _step(self, step: Callable[[], list[Event]]) -> None:
        step()
        if self.session.over:
            self._finish()

    def owes_turns(self) -> bool:
        """Whether the computer seats have turns to play before your decision (a new game's
        first, with its deal)."""
        return not self.session.over and not self._yours()

    def _yours(self) -> bool:
        pending = self.session.pending
        return pending is not None and pending.seat == views.YOU

    def wants_advice(self) -> bool:
        """Whether the Oracle is to work now: your decision (not the blind call), with advice on
        every turn, asked for here, or the tutor watching."""
        pending = self.session.pending
        if pending is None or pending.seat != views.YOU or pending.phase == "blind":
            return False
        at = len(self.session.journal)
        mode = self.saved.advice
        return mode == "always" or self.asked == at or self.saved.tutor is not None

    def advise(self) -> None:
        """Start the Oracle at your decision when it is wanted (its messages go to every page)."""
        if self.wants_advice():
            self.desk.start(len(self.session.journal), self.session.seat_view(), self.broadcast)

    async def set_mode(self, advice: str, tutor: float | None) -> None:
        """Change when the advice is shown and the tutor (kept in the save). Advice asked for
        under the mode before is not asked for any more (turned off, it stays off)."""
        if advice != self.saved.advice:
            self.asked = None
        self.saved.advice, self.saved.tutor = advice, tutor
        await off_loop(self._save_now)

    # -- the session's listeners (on the thread that plays) ---------------------------------------

    def _save(self, event: Event) -> None:
        if event.kind in saves.SAVE_ON:
            self._save_now()

    def _save_now(self) -> None:
        with self._writing:  # (the save and what is known of the file, together)
            if not self.saver.armed:
                return
            try:
                self.saver.save()
            except saves.SaveError as err:
                self.notes["save_error"] = str(err)
                return
            self.notes.pop("save_error", None)
            self.mark = file_mark(self.path)

    def _tell(self, event: Event) -> None:
        if self.telling:  # (not while a saved game is replayed)
            message = views.event(self.session, event)
            self.loop.call_soon_threadsafe(self.broadcast, message)

    def _finish(self) -> None:
        """The game is over: saved as over, kept for ``thirtyone review``, recorded (once)."""
        if self.recorded or self.retired:
            return
        self.recorded = True
        self._save_now()
        try:
            self.saver.keep()
        except saves.SaveError as err:
            self.notes["keep_error"] = str(err)
        entry = game_record(
            self.session,
            self.keeper.decisions(),
            opponents=self.saved.opponents,
            autoplay=False,
            seed=self.saved.seed,
        )
        # (The page's own Stats page, linked beside the record, not the terminal's command.)
        self.notes["record"] = record_summary.after_game(entry, more="the Stats page")
