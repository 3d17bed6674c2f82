"""Work off the event loop: a game's moves (the computer players' turns, the experts asking the
Oracle) and the Oracle's advice run on threads of their own, so the page never freezes.

:func:`off_loop` runs a function on a new daemon thread and awaits its result. Daemon threads,
not an executor's: an executor joins its threads when the process exits, so Ctrl-C would wait for
an Oracle query still running (up to its time limit); a daemon thread is simply left. The Rust
core releases the interpreter while it computes, so the event loop keeps serving meanwhile.

:class:`Turns` queues the HTTP API's queries (the Oracle, the reviews): a few run at once, the
others wait on the event loop (holding no thread, so pages and files are served meanwhile), a
bounded number of them (:class:`Busy` beyond), and a query whose client has left is cancelled,
waiting or running (:class:`Gone`): the core stops within a tenth of a second, and the next
query takes its turn. :func:`timed` gives a query that has no time limit of its own (a review)
one: cancelled in the core when it runs out, it raises :class:`TooLong`.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import threading
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

from thirtyone import _core
from thirtyone.errors import Cancelled

T = TypeVar("T")


async def off_loop(work: Callable[[], T]) -> T:
    """``work()`` run on a daemon thread; its result (or its exception) once it is done."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[T] = loop.create_future()
    context = contextvars.copy_context()

    def settle_result(value: T) -> None:
        if not done.done():
            done.set_result(value)

    def settle_error(error: BaseException) -> None:
        if not done.done():
            done.set_exception(error)

    def run() -> None:
        try:
            value = context.run(work)
        except BaseException as error:  # (handed to the awaiting coroutine, raised there)
            _call(loop, settle_error, error)
        else:
            _call(loop, settle_result, value)

    threading.Thread(target=run, name="thirtyone-web-work", daemon=True).start()
    return await done


def _call(loop: asyncio.AbstractEventLoop, fn: Callable[[T], None], arg: T) -> None:
    """``fn(arg)`` on the loop's thread, unless the loop has closed (the server stopped)."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(fn, arg)


class Gone(Exception):
    """The client left before its answer: the query was cancelled (or never started)."""


class Busy(Exception):
    """Too many queries are waiting for their turn: this one is refused unstarted."""


class TooLong(Exception):
    """The query ran out of its time limit (:func:`timed`): it was cancelled, with no answer."""


def timed(work: Callable[[_core.Cancel], T], seconds: float) -> Callable[[_core.Cancel], T]:
    """``work`` with a time limit of ``seconds`` from when it begins (its turn, not its wait in
    line): then its ``Cancel`` is set, and the work, stopped in the core, raises
    :class:`TooLong` rather than :class:`~thirtyone.Cancelled`. Whatever the work gives in time
    is given; a cancel from elsewhere (the client left) is still ``Cancelled``."""

    def run(cancel: _core.Cancel) -> T:
        expired = threading.Event()

        def expire() -> None:
            expired.set()
            cancel.cancel()

        timer = threading.Timer(seconds, expire)
        timer.daemon = True
        timer.start()
        try:
            return work(cancel)
        except Cancelled:
            if expired.is_set():
                raise TooLong from None
            raise
        finally:
            timer.cancel()

    return run


@dataclass
class _Line:
    """The queries of one event loop: the turns to run, and how many are in line (running or
    waiting)."""

    slots: asyncio.Semaphore
    queued: int = 0


@dataclass
class Turns:
    """At most ``at_once`` queries running at once (each uses every core), at most ``waiting``
    more waiting their turn. One line per event loop (a server has one; each test client its
    own)."""

    at_once: int
    waiting: int
    _lines: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Line] = field(
        default_factory=weakref.WeakKeyDictionary, repr=False
    )

    def _line(self) -> _Line:
        loop = asyncio.get_running_loop()
        line = self._lines.get(loop)
        if line is None:
            line = self._lines[loop] = _Line(asyncio.Semaphore(self.at_once))
        return line

    async def run(
        self, work: Callable[[_core.Cancel], T], left: Callable[[], Awaitable[object]]
    ) -> T:
        """``work(cancel)`` on a thread of its own once its turn comes, its result (or its
        exception). ``left()`` returns when the client has left: the query is then cancelled
        (``cancel.cancel()``, or taken out of the line), and :class:`Gone` raised once its thread
        has stopped. Raises :class:`Busy` when the line is full."""
        line = self._line()
        if line.queued >= self.at_once + self.waiting:
            raise Busy
        line.queued += 1
        cancel = _core.Cancel()
        watch = asyncio.ensure_future(left())
        job = asyncio.ensure_future(in_turn(line.slots, work, cancel))
        try:
            await asyncio.wait({job, watch}, return_when=asyncio.FIRST_COMPLETED)
            if job.done():
                return job.result()
            raise Gone
        finally:
            watch.cancel()
            if not job.done():
                cancel.cancel()
                job.cancel()
                with contextlib.suppress(BaseException):
                    await job
            line.queued -= 1


async def in_turn(
    slots: asyncio.Semaphore, work: Callable[[_core.Cancel], T], cancel: _core.Cancel
) -> T:
    """``work(cancel)`` on a thread once a slot is free; cancelled, it cancels the work and
    keeps the slot until the thread has stopped (a slot is a query computing)."""
    async with slots:
        running = asyncio.ensure_future(off_loop(lambda: work(cancel)))
        try:
            return await asyncio.shield(running)
        except asyncio.CancelledError:
            cancel.cancel()
            with contextlib.suppress(BaseException):
                await running
            raise
