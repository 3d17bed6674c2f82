"""The HTTP API's questions take turns without holding anything up, and a question whose client
has left is dropped: cancelled while it runs (the core stops: ``thirtyone.Cancelled``), taken
out of the line while it waits. Every request here is driven by hand through the ASGI interface,
so a client can leave at a chosen moment; every wait has a generous deadline (a hang guard: no
test depends on how fast the machine is)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import threading
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")

import thirtyone
from click.testing import CliRunner
from starlette.applications import Starlette
from thirtyone.cli.app import main
from thirtyone.errors import StateError
from thirtyone.study import review
from thirtyone.web import api

EXAMPLE = (Path(__file__).parent / "data" / "example_state.json").read_bytes()
#: Far more work than any machine does in the moments a test leaves it running.
HUGE = "deals=1000000&playouts=10000000&max_time=0&seed=1"
#: The longest any step may take (a hang guard).
DEADLINE = 120.0


class Call:
    """One HTTP request to ``app``, its client leaving when :meth:`leave` is called."""

    def __init__(self, app: Any, method: str, target: str, body: bytes = b"") -> None:
        path, _, query = target.partition("?")
        self.scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": query.encode(),
            "root_path": "",
            "headers": [(b"host", b"testserver"), (b"content-length", str(len(body)).encode())],
            "client": ("127.0.0.1", 5000),
            "server": ("testserver", 80),
        }
        self.body = body
        self.left = asyncio.Event()
        self.sent: list[dict[str, Any]] = []
        self.task = asyncio.ensure_future(app(self.scope, self._receive, self._send))

    async def _receive(self) -> dict[str, Any]:
        if self.body is not None:
            body, self.body = self.body, None  # type: ignore[assignment]
            return {"type": "http.request", "body": body, "more_body": False}
        await self.left.wait()
        return {"type": "http.disconnect"}

    async def _send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    def leave(self) -> None:
        self.left.set()

    async def answer(self) -> tuple[int, dict[str, str], Any]:
        """The status, headers and body (read when JSON), once the request is done."""
        await asyncio.wait_for(self.task, DEADLINE)
        start = self.sent[0]
        headers = {k.decode().lower(): v.decode() for k, v in start["headers"]}
        body = b"".join(m.get("body", b"") for m in self.sent[1:])
        is_json = headers.get("content-type", "").startswith("application/json")
        return start["status"], headers, json.loads(body) if is_json else body


async def until(done: Callable[[], bool], what: str) -> None:
    """Wait until ``done()`` (a hang guard of :data:`DEADLINE`)."""
    for _ in range(int(DEADLINE * 100)):
        if done():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


def on_a_loop(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """``scenario()`` on an event loop of its own, on a thread of its own."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, scenario()).result(timeout=DEADLINE * 3)


class Noted:
    """``api.ask`` (or ``review.review``) wrapped: each call's Cancel, when it started and what
    it ended with."""

    def __init__(self, real: Callable[..., Any]) -> None:
        self.real = real
        self.cancels: list[thirtyone.Cancel] = []
        self.ended: list[BaseException | None] = []

    def __call__(self, *args: Any, cancel: thirtyone.Cancel, **settings: Any) -> Any:
        self.cancels.append(cancel)
        try:
            out = self.real(*args, cancel=cancel, **settings)
        except BaseException as error:
            self.ended.append(error)
            raise
        self.ended.append(None)
        return out


def queued() -> int:
    """The questions in line on any loop (running or waiting)."""
    return sum(line.queued for line in list(api._turns._lines.values()))


def test_a_question_whose_client_leaves_is_cancelled_and_frees_its_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two huge questions take both turns; their clients leave: each is cancelled in the core
    (it raises Cancelled), and a small question is answered."""
    noted = Noted(api.ask)
    monkeypatch.setattr(api, "ask", noted)

    async def scenario() -> None:
        app = Starlette(routes=api.routes)
        huge = [Call(app, "POST", f"/api/oracle?{HUGE}", EXAMPLE) for _ in range(2)]
        await until(lambda: len(noted.cancels) == 2, "both huge questions started")
        for call in huge:
            call.leave()
        for call in huge:
            status, _, _ = await call.answer()
            assert status == 499
        assert all(c.cancelled for c in noted.cancels)
        assert all(isinstance(e, thirtyone.Cancelled) for e in noted.ended), noted.ended
        small = Call(app, "POST", "/api/oracle?deals=200&playouts=1000&seed=1", EXAMPLE)
        status, _, answer = await small.answer()
        assert status == 200 and answer["deals"] <= 200
        assert queued() == 0

    on_a_loop(scenario)


def held_questions(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, list[int]]:
    """``api.ask`` made to hold its turn until the event is set (or its question is cancelled);
    the list counts the questions that ran."""
    release = threading.Event()
    ran: list[int] = []

    def held(raw: bytes, *, cancel: thirtyone.Cancel, **settings: Any) -> Any:
        ran.append(1)
        for _ in range(int(DEADLINE * 100)):
            if release.wait(0.01) or cancel.cancelled:
                break
        raise StateError("held")

    monkeypatch.setattr(api, "ask", held)
    return release, ran


def test_a_question_whose_client_leaves_while_it_waits_leaves_the_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Both turns held: a third question waits; its client leaves; it is answered (dropped) at
    once, while the others still hold their turns, and never runs."""
    release, ran = held_questions(monkeypatch)

    async def scenario() -> None:
        app = Starlette(routes=api.routes)
        holding = [Call(app, "POST", "/api/oracle", EXAMPLE) for _ in range(2)]
        await until(lambda: len(ran) == 2, "both turns taken")
        waiting = Call(app, "POST", "/api/oracle", EXAMPLE)
        await until(lambda: queued() == 3, "the third question in line")
        waiting.leave()
        status, _, _ = await waiting.answer()
        assert status == 499 and queued() == 2 and not release.is_set()
        release.set()
        for call in holding:
            assert (await call.answer())[2] == {"error": "held"}
        assert len(ran) == 2

    on_a_loop(scenario)


def test_questions_waiting_hold_up_nothing_else_and_a_full_line_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With both turns held and more questions than the server's threads waiting, the record of
    games and a static page are still answered; past the line's length a question gets 503
    with Retry-After, in JSON."""
    release, ran = held_questions(monkeypatch)
    asked = api.AT_ONCE + api.WAITING + 30  # (Starlette's pool of threads has 40)

    async def scenario() -> None:
        app = Starlette(routes=api.routes)
        calls = [Call(app, "POST", "/api/oracle", EXAMPLE) for _ in range(asked)]
        await until(lambda: len(ran) == 2, "both turns taken")
        await until(lambda: sum(c.task.done() for c in calls) == 30, "the line is full")
        stats = Call(app, "GET", "/api/stats")
        page = Call(app, "GET", "/study/review.js")
        assert (await stats.answer())[0] == 200
        assert (await page.answer())[0] == 200
        assert not release.is_set() and queued() == api.AT_ONCE + api.WAITING
        refused = [await c.answer() for c in calls if c.task.done()]
        for status, headers, body in refused:
            assert status == 503 and int(headers["retry-after"]) > 0
            assert "busy" in body["error"]
        release.set()
        answered = [await c.answer() for c in calls]
        assert sum(a[0] == 400 for a in answered) == api.AT_ONCE + api.WAITING
        assert len(ran) == api.AT_ONCE + api.WAITING

    on_a_loop(scenario)


def play_a_game() -> None:
    """A game played to its end in the terminal (the last game a review is asked of). Seed 5:
    you make 30 decisions. Dealt at random, about one game in 160 ends before your first turn
    (a 31 dealt, or Alice's at her first turn: seed 511), and a review of it is refused (422:
    no decisions of yours to review)."""
    moves = "d\n4\n" * 400
    table = ["--seats", "2", "--lives", "1", "--seed", "5"]
    played = CliRunner().invoke(main, ["play", "--no-oracle", "--fast", *table], input=moves)
    assert played.exit_code == 0, played.output


def test_a_review_whose_client_leaves_is_cancelled(monkeypatch: pytest.MonkeyPatch) -> None:
    """A review at the most the API allows, its client gone as it starts: the review stops
    (Cancelled), and the next question is answered."""
    play_a_game()
    noted = Noted(review.review)
    monkeypatch.setattr(review, "review", noted)

    async def scenario() -> None:
        app = Starlette(routes=api.routes)
        most = f"deals={api.REVIEW_DEALS}&playouts={api.REVIEW_PLAYOUTS}"
        asked = Call(app, "GET", f"/api/review?{most}")
        await until(lambda: len(noted.cancels) == 1, "the review started")
        asked.leave()
        assert (await asked.answer())[0] == 499
        assert isinstance(noted.ended[0], thirtyone.Cancelled), noted.ended
        small = Call(app, "GET", "/api/review?deals=100&playouts=200")
        status, _, body = await small.answer()
        assert status == 200 and body["decisions"]

    on_a_loop(scenario)


class Endless:
    """``review.review`` made as long as a review may be: its first call is the real review made
    again and again, in the core, until it is cancelled (a hang guard of :data:`DEADLINE`); the
    others are the real review. Each call's Cancel is kept, and how the first ended."""

    def __init__(self, real: Callable[..., Any]) -> None:
        self.real = real
        self.cancels: list[thirtyone.Cancel] = []
        self.ended: list[BaseException | None] = []

    def __call__(self, *args: Any, cancel: thirtyone.Cancel, **settings: Any) -> Any:
        self.cancels.append(cancel)
        if len(self.cancels) > 1:
            return self.real(*args, cancel=cancel, **settings)
        until = time.monotonic() + DEADLINE
        try:
            found = self.real(*args, cancel=cancel, **settings)
            while time.monotonic() < until:
                found = self.real(*args, cancel=cancel, **settings)
        except BaseException as error:
            self.ended.append(error)
            raise
        self.ended.append(None)
        return found


def test_a_review_past_its_time_limit_is_stopped_and_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A review without end and a time limit of half a second: the review is cancelled in the
    core and the answer is 503 saying what to do (it ran without a limit: a long game at high
    precision held its turn for minutes); its turn is free for the next review."""
    play_a_game()
    endless = Endless(review.review)
    monkeypatch.setattr(review, "review", endless)

    async def scenario() -> None:
        app = Starlette(routes=api.routes)
        asked = Call(app, "GET", "/api/review?deals=100&playouts=200&max_time=0.5")
        status, headers, body = await asked.answer()
        assert status == 503 and "retry-after" not in headers
        assert body["error"] == (
            "the review was stopped at its time limit, 0.5 seconds (max_time): ask with a "
            "longer max_time (at most 3,600), fewer deals or playouts, or run thirtyone review, "
            "which has no time limit"
        )
        assert endless.cancels[0].cancelled
        assert isinstance(endless.ended[0], thirtyone.Cancelled), endless.ended
        assert queued() == 0
        again = Call(app, "GET", "/api/review?deals=100&playouts=200")
        status, _, body = await again.answer()
        assert status == 200 and body["decisions"]

    on_a_loop(scenario)


def test_a_time_limit_of_one_second_is_said_in_the_singular(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A review without end and ``max_time=1``: the refusal said "1 seconds"."""
    play_a_game()
    monkeypatch.setattr(review, "review", Endless(review.review))

    async def scenario() -> None:
        app = Starlette(routes=api.routes)
        asked = Call(app, "GET", "/api/review?deals=100&playouts=200&max_time=1")
        status, _, body = await asked.answer()
        assert status == 503
        assert body["error"].startswith("the review was stopped at its time limit, 1 second ")

    on_a_loop(scenario)


def test_a_reviews_time_limit_is_read_as_the_oracles(monkeypatch: pytest.MonkeyPatch) -> None:
    """``max_time`` of a review: 5 minutes when not given, 0 the server's longest (an hour),
    a number of seconds as ``--max-time`` reads it, refused in the command's words past its
    bounds."""
    play_a_game()
    limits: list[float] = []
    real = api.timed

    def noted(work: Any, seconds: float) -> Any:
        limits.append(seconds)
        return real(work, seconds)

    monkeypatch.setattr(api, "timed", noted)

    async def scenario() -> None:
        app = Starlette(routes=api.routes)
        for given, seed in (("", 1), ("&max_time=0", 2), ("&max_time=1e3", 3)):
            call = Call(app, "GET", f"/api/review?deals=100&playouts=200&seed={seed}{given}")
            assert (await call.answer())[0] == 200
        for given, said in (
            ("abc", 'max_time must be a number of seconds, not "abc"'),
            ("-1", "max_time must be 0 (no limit) or a number of seconds up to 3,600, not -1"),
            ("3601", "max_time must be 0 (no limit) or a number of seconds up to 3,600, not 3601"),
        ):
            status, _, body = await Call(app, "GET", f"/api/review?max_time={given}").answer()
            assert (status, body) == (400, {"error": said})

    on_a_loop(scenario)
    assert limits == [300.0, 3600.0, 1000.0]
