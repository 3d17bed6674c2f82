"""Test-side helpers for the browser's front-end: one page's WebSocket conversation through
Starlette's test client (every read bounded in time, so a missing message fails the test instead
of hanging it), and a game played by always-legal moves."""

from __future__ import annotations

import contextlib
import json
import re
import select
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
from starlette.testclient import TestClient, WebSocketTestSession
from thirtyone.web.advice import Budget
from thirtyone.web.app import Settings, create_app

#: The longest wait for one message (a hang guard: no test relies on it).
TIMEOUT = 120.0


def make_app(save: Path, budget: Budget | None = None) -> Any:
    return create_app(Settings(save=save, hosts=("testserver",), budget=budget or Budget(200, 500)))


class Page:
    """One page's side of the WebSocket (``ws`` from ``TestClient.websocket_connect``)."""

    def __init__(self, ws: WebSocketTestSession) -> None:
        self.ws = ws
        self.seen: list[dict[str, Any]] = []

    def send(self, **message: Any) -> None:
        self.ws.send_json(message)

    def next(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message (the test client's own receive has no time limit)."""

        async def receive() -> Any:
            with anyio.fail_after(timeout):
                return await self.ws._send_rx.receive()  # (the test session's queue)

        raw = self.ws.portal.call(receive)
        assert raw["type"] == "websocket.send", raw
        message: dict[str, Any] = json.loads(raw["text"])
        self.seen.append(message)
        return message

    def until(self, kind: str, **match: Any) -> list[dict[str, Any]]:
        """Every message up to and including the first of type ``kind`` (with ``match``)."""
        got = []
        while True:
            message = self.next()
            got.append(message)
            if message["type"] == kind and all(message.get(k) == v for k, v in match.items()):
                return got

    def settled(self) -> list[dict[str, Any]]:
        """Every message up to the game once the computer players have played: a state at your
        decision or at the game's end (a new game's first state, sent before its deal and first
        turns, is passed by)."""
        got: list[dict[str, Any]] = []
        while True:
            got += self.until("state")
            state = got[-1]
            pending = state["pending"]
            if state["over"] or (pending is not None and pending["seat"] == state["you"]):
                return got

    def hello(self, game: int = 0) -> dict[str, Any]:
        """Say hello; the lobby or the state that answers."""
        self.send(type="hello", game=game)
        while True:
            message = self.next()
            if message["type"] in ("lobby", "state"):
                return message

    def start(self, **setup: Any) -> dict[str, Any]:
        """A new game (the form's fields); its first state."""
        form = {"seed": 1, "advice": "never", **setup}
        self.send(type="new", setup=form)
        return self.settled()[-1]

    def act(self, state: dict[str, Any], action: str, card: str | None = None) -> dict[str, Any]:
        """A move at ``state``'s position; the state that follows it."""
        message: dict[str, Any] = {"type": "act", "at": state["at"], "action": action}
        if card is not None:
            message["card"] = card
        self.ws.send_json(message)
        while True:
            got = self.next()
            assert got["type"] != "error", got
            if got["type"] == "state":
                return got


@contextlib.contextmanager
def two_connections(app: Any) -> Iterator[tuple[Page, Page]]:
    """Two pages connected to the server of ``app``, neither of which has said hello."""
    with (
        TestClient(app) as http,
        http.websocket_connect("/ws") as a,
        http.websocket_connect("/ws") as b,
    ):
        yield Page(a), Page(b)


@contextlib.contextmanager
def two_pages(app: Any) -> Iterator[tuple[Page, Page, dict[str, Any]]]:
    """Two pages on one game: the first starts it (seed 1) and draws from the stock, then the
    second says hello. The two pages, and the state after the draw."""
    with two_connections(app) as (first, second):
        first.hello()
        state = first.act(first.start(seed=1), "draw")
        second.hello()
        yield first, second, state


def simple_move(state: dict[str, Any]) -> tuple[str, str | None]:
    """A legal move that never ends a game early: draw (or take), then put down the new card
    (or the first card that may go)."""
    legal = state["pending"]["legal"]
    kinds = [a["kind"] for a in legal]
    if state["pending"]["phase"] == "put_down":
        new = state["drawn"]["card"]
        puts = [a["card"] for a in legal if a["kind"] == "put"]
        return "put", new if new in puts else puts[0]
    for kind in ("look", "draw", "take", "decline", "knock"):
        if kind in kinds:
            return kind, None
    raise AssertionError(f"no move in {legal}")


def play_to_the_end(page: Page, state: dict[str, Any], limit: int = 2000) -> dict[str, Any]:
    """Play ``state``'s game to its end with :func:`simple_move`; the last state."""
    for _ in range(limit):
        if state["over"]:
            return state
        state = page.act(state, *simple_move(state))
    raise AssertionError("the game did not end")


@contextlib.contextmanager
def reserved_port() -> Iterator[int]:
    """A free port of 127.0.0.1, kept from everyone else until the block ends: bound with
    SO_REUSEADDR and not listening, so that the system gives it to no other socket, while a
    server that binds it with SO_REUSEADDR (as ``thirtyone serve`` does) may. Start the server
    in the block. (A port found free and let go at once could be taken before the server took
    it, by another test's server asking the system for a free port.)"""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


def start_server(*args: str) -> tuple[subprocess.Popen[str], str]:
    """``thirtyone serve --no-browser ARGS`` and the address it printed."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "thirtyone", "serve", "--no-browser", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], 120)  # a hang guard
    line = proc.stdout.readline() if ready else ""
    found = re.search(r"http://\S+/", line)
    if found is None:
        proc.kill()
        raise AssertionError(
            f"no address printed: {line!r} {proc.stderr.read() if proc.stderr else ''}"
        )
    return proc, found.group(0)


def stop(proc: subprocess.Popen[str]) -> tuple[str, str]:
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    return out, err
