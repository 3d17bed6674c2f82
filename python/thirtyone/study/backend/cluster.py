"""Where a study's batches are played: local worker processes, or a Dask cluster, with the
checkpoint file that lets an interrupted study resume.

A study (``thirtyone tournament``, ``thirtyone calibrate``) is cut into *batches*: batch ``i``
is a range of games, each game seeded by its own index, and its result is what those games
give (compact: counts, and the few numbers the report needs per game). :func:`batches` plays
them on a :class:`Backend` and yields the results in batch order, whatever the order they were
played in, so the same seed gives the same results whatever the backend, the number of workers
or the batch order:

- by default on :class:`~.workers.Pool` (local worker processes);
- with ``cluster="tcp://HOST:8786"`` on an existing Dask distributed cluster
  (:class:`ClusterPool`; needs the ``cluster`` extra). Every worker must run this version of
  thirtyone: checked when connecting and again by each task;
- with ``checkpoint=PATH``, each batch's result is written there as soon as it is played; a
  run given the same file again takes the batches found there instead of playing them (the
  file must be of the same study: :class:`~.checkpoint.Checkpoint` checks its header).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import itertools
import logging
import socket
import threading
import time
import uuid
import warnings
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import CancelledError
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version
from pathlib import Path
from types import TracebackType
from typing import Any, Generic, Protocol, TypeVar
from urllib.parse import urlsplit

from thirtyone import paths
from thirtyone.errors import SettingsError, ThirtyOneError
from thirtyone.names import shown
from thirtyone.study.backend import workers
from thirtyone.study.backend.checkpoint import Checkpoint

T = TypeVar("T")
R = TypeVar("R")

#: Seconds to wait for the scheduler to answer, and for a worker (at the start, or when every
#: worker is gone mid-run).
CONNECT_TIMEOUT = 10.0
WORKER_TIMEOUT = 30.0
#: How often (seconds) a run on a cluster looks whether its scheduler and workers are there.
WATCH_EVERY = 1.0
#: The address schemes of a Dask scheduler that ``--cluster`` accepts (tls:// needs
#: certificates, which thirtyone does not take).
SCHEMES = ("tcp",)


def version() -> str:
    """This thirtyone's version (its package metadata: the one pip reports)."""
    try:
        return _version("thirtyone")
    except PackageNotFoundError:  # pragma: no cover - a source tree that was never installed
        return "0+unknown"


@dataclass(frozen=True)
class Backend:
    """Where batches are played: ``jobs`` local processes, or the Dask cluster at ``cluster``;
    with ``checkpoint``, the file the finished batches are kept in; ``resumed(kept)`` is told,
    before anything is played, how many batches that file already holds (when it holds any)."""

    jobs: int = 1
    cluster: str | None = None
    checkpoint: Path | None = None
    resumed: Callable[[int], None] | None = field(default=None, compare=False, repr=False)

    def check(self) -> None:
        """Raise :class:`~thirtyone.errors.SettingsError` for an address that is not a Dask
        scheduler's (``tcp://HOST:PORT``) or a checkpoint file that cannot be written."""
        if self.cluster is not None:
            check_address(self.cluster)
        if self.checkpoint is None:
            return
        # (a link is written through: its target's folder is the one to try)
        target = self.checkpoint.resolve() if self.checkpoint.is_symlink() else self.checkpoint
        if why := paths.problem(target, create_folder=False):
            raise SettingsError(f"--checkpoint {paths.short(self.checkpoint)}: {why}")
        if self.checkpoint.exists() and not self.checkpoint.is_file():  # (/dev/null, a pipe)
            raise SettingsError(
                f"--checkpoint {paths.short(self.checkpoint)}: not a regular file (a checkpoint "
                "is a file of its own)"
            )
        if self.checkpoint.exists() and (why := paths.unwritable(self.checkpoint)):
            raise SettingsError(f"--checkpoint {paths.short(self.checkpoint)}: {why}")


def check_address(address: str) -> None:
    """SettingsError unless ``address`` is ``tcp://HOST:PORT`` (``tls://`` is refused: it
    needs certificates, which thirtyone does not take)."""
    said = shown(address, 80)
    if address.lower().startswith("tls://"):
        raise SettingsError(
            f"--cluster {address[:80]}: tls:// needs certificates, which thirtyone does not take; "
            "use a tcp:// address (within a private network, or through an SSH tunnel)"
        )
    try:
        parts = urlsplit(address)
        ok = parts.scheme in SCHEMES and bool(parts.hostname) and parts.port is not None
        ok = ok and parts.path in ("", "/") and not parts.query and not parts.fragment
    except ValueError:  # (a port that is not a number, or out of range)
        ok = False
    if not ok:
        raise SettingsError(
            f"--cluster needs a Dask scheduler's address like tcp://HOST:8786, not {said}"
        )


class Runner(Protocol[T, R]):
    """What plays items: :class:`~thirtyone.study.backend.workers.Pool` or :class:`ClusterPool`."""

    #: How many workers play, once entered: the local processes, or the cluster's workers.
    size: int

    def __enter__(self) -> Runner[T, R]: ...

    def __exit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None: ...

    def map(
        self, items: Iterable[T], done: Callable[[int, R], None] | None = None
    ) -> Iterator[R]: ...


class _Indexed(Generic[T, R]):
    """``fn`` over ``(index, item)``, giving ``(index, fn(item))`` (picklable when ``fn`` is
    a module-level function)."""

    def __init__(self, fn: Callable[[T], R]) -> None:
        self.fn = fn

    def __call__(self, pair: tuple[int, T]) -> tuple[int, R]:
        return pair[0], self.fn(pair[1])


def batches(
    fn: Callable[[T], R],
    items: Iterable[T],
    backend: Backend,
    codec: tuple[Callable[[R], Any], Callable[[int, Any], R]] | None = None,
    header: dict[str, Any] | None = None,
    started: Callable[[int], None] | None = None,
    count: int | None = None,
) -> Iterator[R]:
    """``fn(item)`` for each batch of ``items``, in their order, played on ``backend``;
    ``fn`` must be a module-level function (it is pickled). With ``backend.checkpoint``, the
    batches are kept there, written with ``codec`` (encode, and decode of batch ``i``'s JSON
    value, which raises ValueError or TypeError for one not of the batch's shape), the file's
    ``header`` must match (the study and its settings), and a batch kept must be one of the
    ``count`` batches of the study (when known ahead). The cluster is
    connected to only when a batch is left to play (a finished checkpoint needs none); a new
    checkpoint is written with the first batch played (a run that never connects leaves none);
    ``started(workers)`` is told how many workers play it once they are there (the cluster's,
    when it is connected to)."""
    keep = None
    if backend.checkpoint is not None:
        if codec is None or header is None:
            raise ValueError("a checkpoint needs a codec and a header")
        keep = Checkpoint(backend.checkpoint, header, codec[0], codec[1], count)
        keep.open()
    indexed: _Indexed[T, R] = _Indexed(fn)
    kept: dict[int, int] = {} if keep is None else keep.kept  # (emptied as they are taken)
    skip = set(kept)
    runner: Runner[tuple[int, T], tuple[int, R]]
    if backend.cluster is not None:
        runner = ClusterPool(indexed, backend.cluster)
    else:
        # No more processes than batches left to play (`--jobs 64` started 64 for one game).
        left = None if count is None else max(1, count - len(skip))
        runner = workers.Pool(indexed, backend.jobs if left is None else min(backend.jobs, left))
    if skip and backend.resumed is not None:
        backend.resumed(len(skip))
    todo = ((i, item) for i, item in enumerate(items) if i not in skip)  # (read lazily)
    first = next(todo, None)
    if first is None:  # (every batch in the checkpoint: nothing to play, nowhere to connect)
        for index in sorted(skip):
            assert keep is not None
            yield keep.take(index)
        return
    rest: Iterator[tuple[int, T]] = itertools.chain([first], todo)

    def record(_position: int, pair: tuple[int, R]) -> None:
        if keep is not None:
            keep.record(pair[0], pair[1])

    with runner:
        if started is not None:
            started(runner.size)
        played = runner.map(rest, record)
        index = 0
        while True:
            if index in kept:
                assert keep is not None
                yield keep.take(index)
            else:
                pair = next(played, None)
                if pair is None:
                    return
                yield pair[1]
            index += 1


def _worker_version() -> str:
    """The thirtyone version of the process this runs in (a Dask worker)."""
    return version()


class VersionMismatch(RuntimeError):
    """A task reached a worker running another version of thirtyone."""


def _checked(fn: Callable[[T], R], expected: str, item: T, run: str | None = None) -> R:
    """``fn(item)`` on a worker, refused when the worker's thirtyone is not ``expected``; for
    the run ``run``, whose stop (:func:`_stop_name`) the batch's games ask about
    (:func:`~.workers.asked_to_stop`)."""
    mine = version()
    if mine != expected:
        try:
            where = f" {_distributed().get_worker().address}"
        except Exception:  # (not on a Dask worker)
            where = ""
        raise VersionMismatch(
            f"the worker{where} runs thirtyone {mine}, this client thirtyone {expected}"
        )
    if run is None:
        return fn(item)
    with workers.playing_for(lambda: _was_stopped(run)):
        return fn(item)


def _stop_name(run: str) -> str:
    """The name of the Dask event a stopped run's client sets: the batches still running on
    the workers see it between games and end (Dask cannot stop a running task)."""
    return f"thirtyone-stop-{run}"


def _was_stopped(run: str) -> bool:
    """On a worker: whether the client of ``run`` set its stop (no answer: not stopped)."""
    try:
        return bool(_distributed().Event(_stop_name(run)).is_set())
    except Exception:  # (the scheduler gone: the task is lost with it)
        return False


def _mismatch(versions: dict[str, str], ours: str) -> str | None:
    """The refusal for workers whose version is not ``ours`` (None: all match)."""
    other = {addr: v for addr, v in sorted(versions.items()) if v != ours}
    if not other:
        return None
    addr, theirs = next(iter(other.items()))
    more = f" (and {len(other) - 1} more)" if len(other) > 1 else ""
    return (
        f"the worker {addr}{more} runs thirtyone {theirs}, this client runs thirtyone {ours}: "
        "every worker must run the same version (pip install the same thirtyone there)"
    )


class ClusterPool(Generic[T, R]):
    """``fn`` over items on the Dask cluster whose scheduler is at ``address``, the results in
    the items' order (the same interface as :class:`~.workers.Pool`). Entering connects and
    checks every worker's version; leaving, for whatever reason (a Ctrl-C), stops the run: the
    tasks still waiting are cancelled, those running end at their next game, and the client
    disconnects."""

    def __init__(self, fn: Callable[[T], R], address: str, expected: str | None = None) -> None:
        self.fn, self.address = fn, address
        self.expected = version() if expected is None else expected
        self.client: Any = None
        self._dask: Any = None
        self._futures: dict[Any, int] = {}
        self._token = uuid.uuid4().hex[:12]
        self.size = 0  # (the cluster's workers when it was connected to: each asked its version)

    def __enter__(self) -> ClusterPool[T, R]:
        check_address(self.address)
        self._dask = _require_distributed()
        self.client = _connect(self._dask, self.address, CONNECT_TIMEOUT)
        try:
            self._check_workers()
        except BaseException:
            self.close()
            raise
        return self

    def _check_workers(self) -> None:
        try:
            self.client.wait_for_workers(1, timeout=WORKER_TIMEOUT)
        except (OSError, TimeoutError) as err:
            raise ThirtyOneError(
                f"the Dask cluster at {self.address[:80]} has no worker ({_first_line(err)})"
            ) from None
        try:
            versions = self.client.run(_worker_version, on_error="return")
        except Exception as err:
            raise ThirtyOneError(
                f"the workers of the Dask cluster at {self.address[:80]} cannot be asked for "
                f"their thirtyone: {_first_line(err)}"
            ) from None
        for addr, answer in sorted(versions.items()):
            if isinstance(answer, BaseException):
                raise ThirtyOneError(
                    f"the worker {addr} of the Dask cluster at {self.address[:80]} cannot run "
                    f"thirtyone (is it installed there?): {_first_line(answer)}"
                )
        if why := _mismatch(versions, self.expected):
            raise ThirtyOneError(why)
        self.size = len(versions)

    def __exit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Cancel the tasks still on the cluster and disconnect."""
        if self.client is None:
            return
        with workers.held():
            try:
                if self._futures and self.client.status == "running":
                    # The running ones end at their next game; the others are cancelled.
                    self._dask.Event(_stop_name(self._token), client=self.client).set()
                    self.client.cancel(list(self._futures), force=True)
            except Exception:  # (the scheduler gone: nothing to cancel there)
                pass
            finally:
                self._futures = {}
                lost = self.client.status != "running"
                with contextlib.suppress(Exception):  # (its scheduler may be gone)
                    self.client.close(timeout=1 if lost else CONNECT_TIMEOUT)
                self.client = None

    def _window(self) -> int:
        """How many tasks to keep on the cluster: four for each of its threads."""
        found = self.client.scheduler_info()["workers"].values()
        threads = sum(int(w.get("nthreads", 1)) for w in found)
        return max(8, 4 * threads)

    def map(self, items: Iterable[T], done: Callable[[int, R], None] | None = None) -> Iterator[R]:
        """``fn(item)`` for each item, in order; ``done(index, result)`` as each ends."""
        source = enumerate(items)
        ready: dict[int, R] = {}
        wanted, more, window = 0, True, self._window()
        while True:
            while more and len(self._futures) + len(ready) < window:
                step = next(source, None)
                if step is None:
                    more = False
                    break
                index, item = step
                key = f"thirtyone-{self._token}-{index}"
                future = self.client.submit(
                    _checked, self.fn, self.expected, item, self._token, key=key, pure=False
                )
                self._futures[future] = index
            if wanted in ready:
                yield ready.pop(wanted)
                wanted += 1
                continue
            if not self._futures:
                return
            for future in self._finished():
                index = self._futures.pop(future)
                ready[index] = self._result(future)
                if done is not None:
                    done(index, ready[index])

    def _finished(self) -> list[Any]:
        """The tasks finished, as soon as one is; :class:`~.workers.Failed` when the scheduler
        is lost or no worker is left for :data:`WORKER_TIMEOUT` seconds."""
        alone_since: float | None = None
        while True:
            try:
                with self.client.as_current():
                    finished, _ = self._dask.wait(
                        list(self._futures), timeout=WATCH_EVERY, return_when="FIRST_COMPLETED"
                    )
            except TimeoutError:
                finished = set()
            except Exception as err:
                raise self._lost(err) from None
            if any(f.status == "cancelled" for f in finished):
                raise self._lost(None)
            if finished:
                return list(finished)
            alone_since = self._watch(alone_since)

    def _watch(self, alone_since: float | None) -> float | None:
        """Failed when the scheduler is gone, or no worker for :data:`WORKER_TIMEOUT` seconds
        (since ``alone_since``); the time the workers were first missed (None: they are)."""
        if self.client.status != "running":
            raise self._lost(None)
        try:
            count = len(self.client.scheduler_info()["workers"])
        except Exception as err:
            raise self._lost(err) from None
        if count:
            return None
        now = time.monotonic()
        if alone_since is not None and now - alone_since >= WORKER_TIMEOUT:
            raise workers.Failed(
                f"the Dask cluster at {self.address[:80]} has had no worker for "
                f"{WORKER_TIMEOUT:g} seconds"
            )
        return now if alone_since is None else alone_since

    def _lost(self, err: BaseException | None) -> workers.Failed:
        why = ""  # (its tasks cancelled: nothing more to say)
        # (A connection closed or reset is the loss itself: Dask's words for it say no more.)
        if err is not None and not isinstance(
            err, (asyncio.CancelledError, CancelledError, OSError)
        ):
            why = f" ({type(err).__name__}: {_first_line(err)})"
        self._futures = {}  # (nothing left to cancel there)
        return workers.Failed(f"the Dask scheduler at {self.address[:80]} was lost{why}")

    def _result(self, future: Any) -> R:
        try:
            result: R = future.result()
        except VersionMismatch as err:
            raise workers.Failed(f"{err}: every worker must run the same version") from None
        except ThirtyOneError:
            raise
        except (CancelledError, OSError) as err:  # (the scheduler lost while it was fetched)
            raise self._lost(err) from None
        except Exception as err:
            if self.client.status != "running":
                raise self._lost(err) from None
            raise ThirtyOneError(
                f"a task failed on the Dask cluster: {type(err).__name__}: {_first_line(err)}"
            ) from None
        return result


def _distributed() -> Any:
    """Dask's ``distributed`` module (ImportError without the ``cluster`` extra); untyped."""
    return importlib.import_module("distributed")


def _require_distributed() -> Any:
    """:func:`_distributed`, or the ThirtyOneError that says how to install it."""
    try:
        return _distributed()
    except ImportError:
        raise ThirtyOneError(
            "--cluster needs Dask's distributed scheduler: pip install 'thirtyone[cluster]'"
        ) from None


def _first_line(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return text[0][:200] if text else type(err).__name__


def quiet(dask: Any) -> None:
    """Dask's own messages off: its version table (thirtyone checks the workers' versions
    itself) and its logged tracebacks (a lost scheduler is told in one line)."""
    warnings.filterwarnings("ignore", category=dask.versions.VersionMismatchWarning)
    for name in [n for n in logging.root.manager.loggerDict if n.startswith("distributed")]:
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    logging.getLogger("distributed").setLevel(logging.CRITICAL + 1)


async def _identity(address: str, timeout: float) -> Any:
    """What answers at ``address`` says it is (a Dask server's ``identity``)."""
    comm_connect: Any = importlib.import_module("distributed.comm").connect
    comm = await comm_connect(address, timeout=timeout)
    try:
        await comm.write({"op": "identity", "reply": True})
        return await comm.read()
    finally:
        comm.abort()


def _resolve(address: str) -> None:
    """ThirtyOneError when the address's host has no address (a typo, no network)."""
    parts = urlsplit(address)
    try:
        socket.getaddrinfo(parts.hostname, parts.port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as err:
        raise ThirtyOneError(
            f"cannot reach a Dask scheduler at {address[:80]}: the host "
            f"{shown(parts.hostname, 80)} cannot be found ({_first_line(err)})"
        ) from None


def _asked(question: Callable[[], Any]) -> Any:
    """``asyncio.run(question())``; on a thread of its own where an event loop already runs in
    this one (a notebook's, a server's), which ``asyncio.run`` refuses: a study run from such a
    script was told that what answers at the address "is not one (RuntimeError …)"."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(question())
    got: dict[str, Any] = {}

    def ask() -> None:
        try:
            got["answer"] = asyncio.run(question())
        except BaseException as err:  # (given back to the caller's thread as it is)
            got["error"] = err

    thread = threading.Thread(target=ask, name="thirtyone-cluster-probe", daemon=True)
    thread.start()
    thread.join()
    if "error" in got:
        raise got["error"]
    return got["answer"]


def _build(dask: Any, address: str, timeout: float) -> Any:
    """The client of the scheduler at ``address``, after it said it is one."""
    _resolve(address)
    try:  # (Dask's own connect is given a second more, so that this deadline always ends it)
        answer = _asked(lambda: asyncio.wait_for(_identity(address, timeout + 1.0), timeout))
    except TimeoutError:
        raise ThirtyOneError(
            f"cannot reach a Dask scheduler at {address[:80]}: no answer within "
            f"{timeout:g} seconds (the scheduler's port is 8786 by default; 8787 is its dashboard)"
        ) from None
    except OSError as err:
        raise ThirtyOneError(
            f"cannot reach a Dask scheduler at {address[:80]}: {_first_line(err)}"
        ) from None
    except Exception as err:  # (what answers does not speak Dask: an HTTP server, garbage)
        raise ThirtyOneError(
            f"cannot reach a Dask scheduler at {address[:80]}: what answers there is not one "
            f"({type(err).__name__}: {_first_line(err)[:80]})"
        ) from None
    if not isinstance(answer, dict) or answer.get("type") != "Scheduler":
        raise ThirtyOneError(
            f"cannot reach a Dask scheduler at {address[:80]}: what answers there is not a Dask "
            "scheduler (a worker's address?)"
        )
    try:
        return dask.Client(address, timeout=timeout, set_as_default=False, asynchronous=False)
    except Exception as err:
        raise ThirtyOneError(
            f"cannot reach a Dask scheduler at {address[:80]}: {_first_line(err)}"
        ) from None


def _connect(dask: Any, address: str, timeout: float) -> Any:
    """A Dask ``Client`` of the scheduler at ``address`` (``dask``: the ``distributed``
    module), or ThirtyOneError within about twice ``timeout`` seconds. ``Client`` alone hangs on
    a silent port (the dashboard's) and reads HTTP as a frame of 3 EiB: the address is first
    asked who it is, and the client built, on a thread with its own deadlines, while this thread
    waits a tenth of a second at a time (a stop acts at once; the thread is left behind)."""
    quiet(dask)
    box: dict[str, Any] = {}
    done, left = threading.Event(), threading.Event()

    def run() -> None:
        try:
            client = _build(dask, address, timeout)
        except BaseException as err:
            box["error"] = err
        else:
            box["client"] = client
            if left.is_set():  # (nobody waits for it any more)
                client.close(timeout=timeout)
        finally:
            done.set()

    threading.Thread(target=run, name="thirtyone-connect", daemon=True).start()
    try:
        for _ in range(int(20 * timeout) + 50):  # (a hang guard: the thread has its deadlines)
            if done.wait(0.1):
                break
        else:
            raise ThirtyOneError(
                f"cannot reach a Dask scheduler at {address[:80]}: no answer within "
                f"{2 * timeout:g} seconds"
            )
    except BaseException:
        left.set()
        if "client" in box:
            box["client"].close(timeout=1)
        raise
    if "error" in box:
        raise box["error"]
    return box["client"]
