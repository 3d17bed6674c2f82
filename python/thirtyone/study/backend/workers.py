"""Worker processes that stop when asked.

``thirtyone tournament`` and ``thirtyone calibrate`` play their games on worker processes, and
every command must stop when asked, leaving no process behind:

- :func:`stopping` turns Ctrl-C (SIGINT), SIGTERM and SIGHUP into :class:`Stopped` in the main
  thread, also from within a long call of the Rust core (it checks for signals every 50 ms); a
  signal ignored when the command began (``nohup``, a background job) stays ignored;
- :class:`Pool` spawns the workers deaf to SIGINT (ignored from their first instruction: a
  Ctrl-C at a terminal reaches the whole process group, and the parent alone decides what it
  means), hands them the work a chunk at a time,
  takes the results in order, and on leaving, for whatever reason, terminates the workers and
  waits for them. A worker also ends by itself when its parent is gone (a thread watches
  ``os.getppid()``, for a parent killed with SIGKILL) and when the pipe to it is closed;
- :func:`held` defers those signals over a step that must not be cut in the middle (counting a
  game's results, ending the workers, writing the results), then acts on the first one.

With one job the work runs in this process, the same code path otherwise.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import multiprocessing
import os
import signal
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from types import FrameType, TracebackType
from typing import Any, Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: The signals that stop a run (SIGHUP: the terminal was closed; not on Windows).
SIGNALS = tuple(
    s for s in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)) if s is not None
)
#: How often a worker looks whether its parent is still there (seconds).
WATCH_EVERY = 0.25
#: How long the workers are given to end after SIGTERM before they are killed (seconds).
GRACE = 5.0


class Stopped(KeyboardInterrupt):
    """A run was asked to stop by the signal ``signum`` (a Ctrl-C is a SIGINT)."""

    def __init__(self, signum: int = signal.SIGINT) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def name(self) -> str:
        """``Ctrl-C``, ``SIGTERM``, ``SIGHUP``."""
        if self.signum == signal.SIGINT:
            return "Ctrl-C"
        return signal.Signals(self.signum).name

    @property
    def status(self) -> int:
        """The exit status that tells it: 128 plus the signal's number (130 for Ctrl-C)."""
        return 128 + self.signum


def stopped(err: KeyboardInterrupt) -> Stopped:
    """``err`` as a :class:`Stopped` (a plain KeyboardInterrupt is a Ctrl-C)."""
    return err if isinstance(err, Stopped) else Stopped(signal.SIGINT)


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _raise(signum: int, frame: FrameType | None) -> None:
    raise Stopped(signum)


@contextlib.contextmanager
def _handlers(handler: Any) -> Iterator[None]:
    """Within: ``handler`` for each of :data:`SIGNALS`; the handlers before restored after."""
    if not _in_main_thread():  # (only the main thread may set handlers)
        yield
        return
    # A signal ignored when the command began stays ignored (nohup, a background job); one
    # handled outside Python (None) is left to its handler.
    old = {
        s: signal.signal(s, handler)
        for s in SIGNALS
        if signal.getsignal(s) not in (signal.SIG_IGN, None)
    }
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def stopping() -> contextlib.AbstractContextManager[None]:
    """Within: SIGINT, SIGTERM and SIGHUP raise :class:`Stopped` in the main thread."""
    return _handlers(_raise)


def noting(noted: list[int]) -> contextlib.AbstractContextManager[None]:
    """Within: SIGINT, SIGTERM and SIGHUP are appended to ``noted``, not acted on (the caller
    tells them when its work is done)."""
    return _handlers(lambda signum, frame: noted.append(signum))


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Within: SIGINT, SIGTERM and SIGHUP are noted, not acted on; on leaving, the first one
    noted is raised again, for the handler before to act on."""
    noted: list[int] = []
    try:
        with noting(noted):
            yield
    finally:
        if noted:
            signal.raise_signal(noted[0])


@contextlib.contextmanager
def _sigint_ignored_by_children() -> Iterator[None]:
    """Within: the processes started here begin with SIGINT ignored, from their first
    instruction: a Ctrl-C while a worker is still starting (importing, which takes seconds on a
    busy machine) cannot interrupt it. An ignored signal stays ignored through exec, and the
    interpreter then leaves it so (the spawn resets the signal mask, so blocking alone would not
    do). This process does not lose one meanwhile: it is blocked here, so it waits, pending,
    until the handler is back."""
    mask = getattr(signal, "pthread_sigmask", None)
    main = threading.current_thread() is threading.main_thread()
    if mask is None or not main:  # (Windows, or not the main thread: each worker ignores it)
        yield
        return
    before = mask(signal.SIG_BLOCK, {signal.SIGINT})
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, handler)
        mask(signal.SIG_SETMASK, before)


def _watch(parent: int) -> None:
    """End this worker as soon as its parent is gone."""
    while os.getppid() == parent:
        time.sleep(WATCH_EVERY)
    os._exit(1)


def _serve(conn: Connection, fn: Callable[[Any], Any], parent: int) -> None:
    """A worker: ``fn`` of each item of the chunks received, until the pipe is closed."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # (already so where it began ignored)
    threading.Thread(target=_watch, args=(parent,), daemon=True).start()
    while True:
        try:
            index, chunk = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[str, Any] = ("done", [fn(item) for item in chunk])
        except Exception as err:  # told to the parent, which raises it
            answer = ("error", err)
        try:
            _send(conn, index, answer)
        except (OSError, EOFError):  # the parent is gone
            return


def _send(conn: Connection, index: int, answer: tuple[str, Any]) -> None:
    try:
        conn.send((index, *answer))
    except (OSError, EOFError):
        raise
    except Exception:  # (an exception that cannot be pickled goes as text)
        text = "".join(traceback.format_exception(answer[1]))
        conn.send((index, "error", RuntimeError(f"in a worker process: {text}")))


class WorkerError(RuntimeError):
    """A worker process ended without its results (killed from outside, out of memory)."""


class RunStopped(Exception):
    """The run a batch was played for was stopped while it played (its client on a cluster
    was stopped): the batch ends there, its result unwanted."""


#: How often (seconds) a batch played for a run on a cluster asks whether the run was stopped.
ASK_EVERY = 1.0
#: The question of the run the batch in this thread plays for (none: a local run, which a
#: stop ends by ending its worker processes), and when it was last asked.
_asked = threading.local()


@contextlib.contextmanager
def playing_for(stopped: Callable[[], bool]) -> Iterator[None]:
    """Within: :func:`asked_to_stop` asks ``stopped`` (whether the run was stopped) at most once
    every :data:`ASK_EVERY` seconds."""
    _asked.question, _asked.last = stopped, -math.inf
    try:
        yield
    finally:
        _asked.question = None


def asked_to_stop() -> bool:
    """Whether the run the batch in this thread plays for was stopped (always False locally):
    a batch's games ask between games, and end the batch with :class:`RunStopped`."""
    question = getattr(_asked, "question", None)
    now = time.monotonic()
    if question is None or now - _asked.last < ASK_EVERY:
        return False
    _asked.last = now
    return bool(question())


class Pool(Generic[T, R]):
    """``fn`` over items on ``jobs`` spawned worker processes, the results in the items' order;
    a context manager that ends every worker on leaving. ``fn`` must be a module-level function
    when ``jobs`` is more than 1 (it is pickled); the items are sent ``chunk`` at a time."""

    def __init__(self, fn: Callable[[T], R], jobs: int, chunk: int = 1) -> None:
        self.fn, self.jobs, self.chunk = fn, jobs, max(1, chunk)
        self._workers: list[tuple[BaseProcess, Connection]] = []
        #: How many processes play (one: this one, when ``jobs`` is 1).
        self.size = jobs

    def __enter__(self) -> Pool[T, R]:
        if self.jobs > 1:
            try:
                self._start()
            except BaseException:
                self.close()
                raise
        return self

    def __exit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def _start(self) -> None:
        # Spawned, not forked: a fork of a process whose core already runs threads may deadlock.
        spawn = multiprocessing.get_context("spawn")
        with held(), _sigint_ignored_by_children():
            for _ in range(self.jobs):
                mine, theirs = spawn.Pipe()
                process = spawn.Process(
                    target=_serve, args=(theirs, self.fn, os.getpid()), daemon=True
                )
                self._workers.append((process, mine))
                process.start()
                theirs.close()

    def close(self) -> None:
        """End every worker: SIGTERM, then SIGKILL after :data:`GRACE` seconds; wait for them."""
        with held():
            for _, conn in self._workers:
                conn.close()  # (an idle worker sees the end of the pipe and returns)
            for process, _ in self._workers:
                if process.pid is not None and process.is_alive():
                    process.terminate()
            deadline = time.monotonic() + GRACE
            for process, _ in self._workers:
                if process.pid is None:
                    continue
                process.join(max(0.0, deadline - time.monotonic()))
                if process.is_alive():
                    process.kill()
                    process.join()
                process.close()
            self._workers = []

    def map(self, items: Iterable[T], done: Callable[[int, R], None] | None = None) -> Iterator[R]:
        """``fn(item)`` for each item, in order (the items are read as the work goes on);
        ``done(index, result)`` is called as each result arrives, in whatever order."""
        if not self._workers:
            for index, item in enumerate(items):
                result = self.fn(item)
                if done is not None:
                    done(index, result)
                yield result
            return
        source = iter(items)
        chunks = iter(lambda: list(itertools.islice(source, self.chunk)), [])
        idle = deque(conn for _, conn in self._workers)
        busy: dict[Connection, int] = {}
        ready: dict[int, list[R] | BaseException] = {}  # a worker's error: raised in turn
        sent = wanted = 0
        more = True
        while True:
            while more and idle and sent - wanted < 4 * self.jobs:
                chunk = next(chunks, None)
                if chunk is None:
                    more = False
                    break
                conn = idle.popleft()
                conn.send((sent, chunk))
                busy[conn] = sent
                sent += 1
            if wanted in ready:
                results = ready.pop(wanted)
                if isinstance(results, BaseException):
                    raise results
                yield from results
                wanted += 1
                continue
            if not busy:
                return
            for ended in wait(list(busy)):
                assert isinstance(ended, Connection)
                index = busy.pop(ended)
                ready[index] = results = self._receive(ended)
                idle.append(ended)
                if done is not None and not isinstance(results, BaseException):
                    for k, result in enumerate(results):
                        done(index * self.chunk + k, result)

    def _receive(self, conn: Connection) -> list[R] | BaseException:
        try:
            _index, _kind, value = conn.recv()  # (value: the results, or the error)
        except (EOFError, OSError):
            process = next(p for p, c in self._workers if c is conn)
            process.join(GRACE)
            raise WorkerError(
                f"a worker process ended before its work was done (exit status {process.exitcode})"
            ) from None
        out: list[R] | BaseException = value
        return out


class Failed(Stopped):
    """A run ended early by a failure that is not the user's (the Dask scheduler lost, no
    worker left, a worker of another version): the games counted until then are told, as for a
    stop, then ``message`` as the error, with exit status 2."""

    def __init__(self, message: str) -> None:
        super().__init__(signal.SIGINT)
        self.message = message

    @property
    def name(self) -> str:
        return "an error"

    @property
    def status(self) -> int:
        return 2


def told(stop: Stopped, after: str) -> str:
    """The line that ends a stopped run: ``Stopped by Ctrl-C {after}``, or for a
    :class:`Failed` run ``Error: {its message}; stopped {after}``."""
    if isinstance(stop, Failed):
        return f"Error: {stop.message}; stopped {after}"
    return f"Stopped by {stop.name} {after}"
