"""What the table's WebSocket answers a page, beyond a game played (Starlette's test client): a
finished game asked for again is the start page, with the unfinished games beside it, as after a
restart; a move or a hint whose position is missing, not a position, not reached yet or
already left is refused in words that say which; and the game's Oracle query stops when no page
watches the game any more."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient
from thirtyone.web.advice import Budget
from thirtyone.web.room import MAX_WAITING, Outbox, game_socket
from web_helpers import TIMEOUT, Page, make_app, play_to_the_end

#: A game of one round or so: two seats, one life each.
SHORT = {"seed": 1, "advice": "never", "rules": {"seats": 2, "lives": 1}}


def test_a_finished_game_asked_for_again_is_the_start_page_with_the_unfinished_games(
    app: Any, save: Path
) -> None:
    """An unfinished game kept as saved-game.1.json, the new game played to its end: a page
    that comes then (a reload, New game) is given the start page that lists the unfinished
    game and offers the finished game's table again, as after a server restart, not the
    finished game; the page that played to the end keeps it."""
    with TestClient(app) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        page.hello()
        page.act(page.start(seed=5), "draw")
        page.send(type="new", setup=SHORT, keep=True)
        over = play_to_the_end(page, page.settled()[-1])
        assert over["over"] and over["game"] == 0
        with http.websocket_connect("/ws") as again:  # (a reload)
            reloaded = Page(again).hello()
        asked = page.hello()  # (New game, on the page that played it)
    assert reloaded["type"] == "lobby" and reloaded["found"] == "finished"
    assert [g["game"] for g in reloaded["others"]] == [1]
    assert reloaded["others"][0]["file"] == "saved-game.1.json"
    assert reloaded["last"]["rules"] == SHORT["rules"]
    assert asked == reloaded
    with TestClient(make_app(save)) as http, http.websocket_connect("/ws") as ws:
        restarted = Page(ws).hello()
    assert restarted == reloaded


def error_for(page: Page, **message: Any) -> str:
    page.send(**message)
    got = page.until("error")
    assert [m for m in got if m["type"] not in ("error", "state")] == []
    text: str = got[-1]["message"]
    return text


def test_a_moves_position_is_checked_for_what_is_wrong_with_it(app: Any) -> None:
    """``at`` missing, not a whole number, or ahead of the game: each is said as it is (they
    were all called "for an earlier position"); a move that is no move is said so whatever its
    position; a position the game has left is still "an earlier position"."""
    with TestClient(app) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        page.hello()
        state = page.start(seed=5)
        now = state["at"]
        said: dict[str, str] = {}
        for kind in ("act", "hint"):
            move = {"type": kind, "action": "draw"} if kind == "act" else {"type": kind}
            said[f"{kind} ahead"] = error_for(page, **move, at=99999)
            said[f"{kind} text"] = error_for(page, **move, at="x")
            said[f"{kind} none"] = error_for(page, **move)
            said[f"{kind} negative"] = error_for(page, **move, at=-1)
        said["card"] = error_for(page, type="act", at=99999, action="put", card="ZZ")
        said["action"] = error_for(page, type="act", action="dance")
        after = page.act(state, "draw")
        said["stale"] = error_for(page, type="act", at=now, action="draw")
        said["stale hint"] = error_for(page, type="hint", at=now)
    for kind in ("act", "hint"):
        assert "99999" in said[f"{kind} ahead"] and str(now) in said[f"{kind} ahead"]
        assert "not been reached" in said[f"{kind} ahead"]
        assert '"x"' in said[f"{kind} text"] and "whole number" in said[f"{kind} text"]
        assert said[f"{kind} none"].startswith("at is missing")
        assert "-1" in said[f"{kind} negative"]
    assert said["card"].startswith("card:") and "ZZ" in said["card"]
    assert said["action"].startswith("action: one of")
    wrong = [k for k, text in said.items() if "earlier position" in text]
    assert wrong == ["stale", "stale hint"], said
    assert after["at"] == now + 1


def test_a_number_refused_over_the_socket_is_quoted_with_its_digits(app: Any) -> None:
    """A position a hair past a whole number, tutor points a hair over 100: each was quoted
    to six digits (``:g``), "not 10" at position 10 and "from 0.1 to 100, not 100", the very
    values that would do. They are quoted with the digits that make them wrong."""
    with TestClient(app) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        page.hello()
        now = page.start(seed=5)["at"]
        hint = error_for(page, type="hint", at=now + 1e-9)
        tutor = error_for(page, type="mode", advice="always", tutor=100.0000001)
    assert hint.endswith(f"(the game is at {now}), not {now + 1e-9!r}"), hint
    assert "from 0.1 to 100, not 100.0000001 (" in tutor, tutor


def test_a_games_number_sent_with_a_point_is_the_number(app: Any) -> None:
    """``{"type": "hello", "game": 1.0}`` is game 1, as the setup's whole numbers and the
    state's reader take 5.0 (it was refused, "game: a number from 0 to …"); 1.5 and true are
    not numbers of a game."""
    with TestClient(app) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        assert page.hello(game=1.0)["game"] == 1  # type: ignore[arg-type]
        for wrong in (1.5, True, "1"):
            page.send(type="hello", game=wrong)
            assert page.until("error")[-1]["message"].startswith("game: a number from 0 to ")


def test_a_message_that_is_not_an_object_is_told_so(app: Any) -> None:
    """A message of valid JSON that is not an object (a list, a number, null) was told
    "unknown message type none", as if an object had left out its type. It is told that a
    message is an object, and the connection goes on: a hello after it is answered."""
    with TestClient(app) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        said = []
        for text in ("[1]", "null", "7", '"hello"'):
            ws.send_text(text)
            said.append(page.until("error")[-1]["message"])
        assert page.hello()["type"] in ("lobby", "state")
    for message in said:
        assert message.startswith("a message must be a JSON object"), said
    # An object without a type is still told the types there are.
    with TestClient(app) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        ws.send_text("{}")
        assert page.until("error")[-1]["message"].startswith("unknown message type none: one of")


class NotedQueries:
    """The table's queries (``query.advise`` as the desk calls it): how many of the full stage
    began, and how each ended (``cancelled``, ``answered``). The full stage goes on until it
    is cancelled (a hang guard of :data:`TIMEOUT`)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from thirtyone.errors import Cancelled
        from thirtyone.oracle import query
        from thirtyone.web.advice import QUICK_DEALS

        self.full_started = 0
        self.ended: list[str] = []
        real = query.advise

        def advise(*args: Any, **kwargs: Any) -> Any:
            full = kwargs["deals"] > QUICK_DEALS
            self.full_started += full
            # (The full stage asked again and again until it is cancelled, or for the hang
            # guard's time: under way whatever the machine's speed, in the core.)
            until = time.monotonic() + (TIMEOUT if full else 0.0)
            try:
                found = real(*args, **kwargs)
                while time.monotonic() < until:
                    found = real(*args, **kwargs)
            except Cancelled:
                self.ended.append("cancelled")
                raise
            self.ended.append("answered")
            return found

        monkeypatch.setattr(query, "advise", advise)


def until(done: Callable[[], bool], what: str) -> None:
    """Wait until ``done()`` (a hang guard: nothing here depends on the machine's speed)."""
    for _ in range(int(TIMEOUT * 20)):
        if done():
            return
        time.sleep(0.05)
    raise AssertionError(f"never: {what}")


def test_a_page_that_leaves_cancels_its_tables_query(
    save: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The full query under way (asked until it is cancelled), the two pages watching the game
    close one after the other: while one still watches, the query goes on; once none
    does, it is cancelled in the core and the server's turn for full queries is free again (it
    went on computing for nobody, and every other game's full advice waited for it). A page
    that comes back is sent the first estimate kept, and the full query is asked again."""
    noted = NotedQueries(monkeypatch)
    app = make_app(save, Budget(100_000, 1_000_000, None, True))
    gate = app.state.games.gates.stage["full"]
    with TestClient(app) as http:
        with http.websocket_connect("/ws") as first:
            page = Page(first)
            page.hello()
            state = page.start(advice="always")
            quick = page.until("advice", stage="quick", at=state["at"])[-1]
            until(lambda: noted.full_started == 1 and gate.locked(), "the full query began")
            with http.websocket_connect("/ws") as second:
                Page(second).hello()
            table = app.state.games.live[0]
            until(lambda: len(table.watchers) == 1, "the second page has left")
            assert gate.locked() and noted.ended == ["answered"]  # (the quick stage)
        until(lambda: not gate.locked(), "the full query's turn is free")
        assert noted.ended == ["answered", "cancelled"]
        with http.websocket_connect("/ws") as again:
            back = Page(again)
            assert back.hello()["at"] == state["at"]
            assert back.next() == quick  # (the first estimate kept, after the game)
            until(lambda: noted.full_started == 2, "the full query asked again")
        until(lambda: not gate.locked(), "the full query's turn is free again")
    assert noted.ended == ["answered", "cancelled", "cancelled"]


def test_a_connection_cancelled_as_the_server_stops_ends_quietly(tmp_path: Path) -> None:
    """The server stopping gives each page two seconds to close, then cancels the connections
    left (a page whose browser is busy or gone never answers). Such a connection ends like any
    other, and no error goes up to the server (it printed
    "Exception in ASGI application" and a traceback at Ctrl-C, seen in a test's teardown)."""
    games = make_app(tmp_path / "saved-game.json").state.games
    sent: list[str] = []

    class Cancelled:  # the face of a WebSocket the endpoint uses, cancelled in its wait
        app = SimpleNamespace(state=SimpleNamespace(games=games))

        async def accept(self) -> None:
            return None

        async def receive(self) -> dict[str, Any]:
            raise asyncio.CancelledError("Task cancelled, timeout graceful shutdown exceeded")

        async def send_text(self, text: str) -> None:
            sent.append(text)

    # (On a thread of its own: a browser test before it, in this process, leaves its loop.)
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, game_socket(Cancelled())).result()  # type: ignore[arg-type]
    assert sent == []  # (nothing was asked: nothing said)


def test_a_page_that_stops_reading_is_let_go_and_its_messages_dropped() -> None:
    """A page that stops reading (its browser frozen) is sent no more once ten thousand
    messages wait for it: they are dropped, and its connection is closed with "try again
    later" (1013), so that the page, reading again, opens a new one and is sent the game as it
    stands. Its messages were kept without end and those past the limit silently lost."""
    closed: list[tuple[int, str]] = []

    class Frozen:  # the face of a WebSocket the outbox uses; nothing is ever sent
        async def close(self, code: int, reason: str) -> None:
            closed.append((code, reason))

        async def send_text(self, text: str) -> None:
            raise AssertionError("the sender is not running: the page does not read")

    async def flood() -> Outbox:
        outbox = Outbox(Frozen())  # type: ignore[arg-type]
        for i in range(MAX_WAITING + 5):
            outbox.send({"type": "notice", "message": str(i)})
        assert outbox.let_go is not None
        await outbox.let_go
        return outbox

    with ThreadPoolExecutor(1) as thread:
        outbox = thread.submit(asyncio.run, flood()).result()
    assert closed == [(1013, "the page stopped reading")]
    assert outbox.queue.qsize() == 1 and outbox.queue.get_nowait() is None  # (the sender's end)
