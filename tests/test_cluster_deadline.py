"""No scheduler at a ``--cluster`` address: the refusal docs/cluster.md promises for a port
where nothing listens, "no answer within 10 seconds", every time. Dask's own connect, given the
same deadline, retries with a random backoff and may give up a moment before it, with its own
words ("Timed out trying to connect to … after 10 s"): which line was printed was a race."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from thirtyone.errors import ThirtyOneError
from thirtyone.study.backend import cluster

distributed = pytest.importorskip("distributed")


def test_a_port_where_nothing_listens_is_no_answer_within_the_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def connect(address: str, timeout: float, **kwargs: Any) -> Any:
        # As Dask's connect does when nothing listens: it retries until its deadline, and its
        # last backoff may end it a little before the caller's.
        await asyncio.sleep(timeout * 0.95)
        raise OSError(f"Timed out trying to connect to {address} after {timeout} s")

    monkeypatch.setattr("distributed.comm.connect", connect)
    monkeypatch.setattr(cluster, "_resolve", lambda address: None)
    with pytest.raises(ThirtyOneError) as refused:
        cluster._build(distributed, "tcp://127.0.0.1:9", 0.2)
    assert str(refused.value) == (
        "cannot reach a Dask scheduler at tcp://127.0.0.1:9: no answer within 0.2 seconds "
        "(the scheduler's port is 8786 by default; 8787 is its dashboard)"
    )


def test_the_deadline_holds_where_an_event_loop_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A study started from a script whose thread runs an event loop (a notebook, a server):
    `asyncio.run` refuses such a thread, and the refusal read "what answers there is not one
    (RuntimeError: asyncio.run() cannot be called from a running event loop)"; the address is
    asked on a thread of its own and the refusal is the deadline's."""

    async def connect(address: str, timeout: float, **kwargs: Any) -> Any:
        await asyncio.sleep(timeout * 0.95)
        raise OSError(f"Timed out trying to connect to {address} after {timeout} s")

    monkeypatch.setattr("distributed.comm.connect", connect)
    monkeypatch.setattr(cluster, "_resolve", lambda address: None)

    async def script() -> str:
        with pytest.raises(ThirtyOneError) as refused:
            cluster._build(distributed, "tcp://127.0.0.1:9", 0.2)
        return str(refused.value)

    # (On a thread of its own: the test's own thread may run a loop already, a browser test's.)
    with ThreadPoolExecutor(1) as pool:
        said = pool.submit(asyncio.run, script()).result()
    assert said.endswith(
        "no answer within 0.2 seconds (the scheduler's port is 8786 by default; "
        "8787 is its dashboard)"
    ), said
