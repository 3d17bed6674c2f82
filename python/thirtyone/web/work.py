"""Work off the event loop: a game's moves (the computer players' turns, the experts asking the
Oracle) and the Oracle's advice run on threads of their own, so the page never freezes.

:func:`off_loop` runs a function on a new daemon thread and awaits its result. Daemon threads,
not an executor's: an executor joins its threads when the process exits, so Ctrl-C would wait for
an Oracle query still running (up to its time limit); a daemon thread is simply left. The Rust
core releases the interpreter while it computes, so the event loop keeps serving meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import threading
from collections.abc import Callable
from typing import TypeVar

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
