"""The page when its connection comes back (the server restarted on its port, or the network
dropped for a while), in a real browser (Debian's Chromium driven by Playwright, as in
test_web_browser.py): what was on show stays, the new-game form with what was typed in it and a
game played to its end, and one click starts one game. Screenshots are kept in
test-results/web/."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip(
    "playwright", reason="the browser tests need playwright (the browser-test extra)"
)
pytest.importorskip("starlette", reason="the browser tests need the web extra")

from browser_helpers import BROWSER_MARKS, draw_to_the_end, open_table, shot
from playwright.sync_api import Page, expect
from web_helpers import reserved_port, start_server, stop

pytestmark = BROWSER_MARKS

SMALL = ("--oracle-deals", "300", "--oracle-playouts", "1000")


@contextlib.contextmanager
def restartable() -> Iterator[tuple[str, Callable[[], None]]]:
    """A server on a port of its own, its address, and a function that stops it and starts it
    again on that port (the page's connection closes and comes back)."""
    with reserved_port() as port:
        proc, url = start_server("--port", str(port), *SMALL)
    server = [proc]

    def restart() -> None:
        _, err = stop(server[0])
        assert "Traceback" not in err, err
        server[0], _ = start_server("--port", str(port), *SMALL)

    try:
        yield url, restart
    finally:
        _, err = stop(server[0])
        assert "Traceback" not in err, err


def came_back(page: Page, received: list[dict[str, Any]], restart: Callable[[], None]) -> None:
    """Restart the server and wait until the page, connected again, has its answer to hello."""
    welcomes = sum(m["type"] == "welcome" for m in received)
    restart()
    deadline = time.monotonic() + 60
    while True:
        again = [m for m in received if m["type"] == "welcome"][welcomes:]
        if again and received[-1]["type"] in ("lobby", "state"):
            break
        assert time.monotonic() < deadline, "the page did not connect again"
        page.wait_for_timeout(50)  # (Playwright's events are delivered while it waits)
    expect(page.locator("#connection")).to_be_hidden()


def test_a_reconnection_keeps_the_form_as_typed_and_one_click_starts_one_game(
    page: Page,
) -> None:
    """The server's welcome, sent again to a page that connects again, built the form again
    (what was typed in it lost) and bound its "Start the game" again: after one reconnection
    one click sent two new games, and the second asked whether to keep the first as a backup."""
    with restartable() as (url, restart):
        received = open_table(page, url)
        sent: list[str] = []

        def on_socket(ws: Any) -> None:
            ws.on("framesent", lambda frame: sent.append(frame))

        page.on("websocket", on_socket)
        form = page.get_by_role("form", name="New game")
        expect(form.get_by_role("button", name="Start the game")).to_be_visible()
        form.get_by_label("Your name", exact=True).fill("Zed")
        form.get_by_label("Seats", exact=True).fill("5")
        came_back(page, received, restart)
        expect(form.get_by_label("Your name", exact=True)).to_have_value("Zed")
        expect(form.get_by_label("Seats", exact=True)).to_have_value("5")
        form.get_by_role("button", name="Start the game").click()
        expect(page.get_by_role("region", name="Your hand")).to_be_visible()
        expect(page.locator("[id^=seat-]")).to_have_count(4)
        expect(page.get_by_role("dialog", name="An unfinished game is saved")).to_be_hidden()
        assert sum(json.loads(m)["type"] == "new" for m in sent) == 1, sent
        shot(page, "reconnect-one-new-game")


def test_a_game_played_to_its_end_stays_on_show_when_the_connection_comes_back(
    page: Page,
) -> None:
    """A page that played its game to the end keeps it (the result, the record) when its
    connection drops and comes back; it showed the start page instead, as a reload does.
    (Seed 198: the other player knocks at its first turn, before yours, so that your last turn
    is a draw; the loop had waited for a knock it could not make, in a game it had dealt at
    random.)"""
    with restartable() as (url, restart):
        received = open_table(page, url)
        form = page.get_by_role("form", name="New game")
        form.get_by_label("Seats", exact=True).fill("2")
        form.get_by_label("Lives", exact=True).fill("1")
        form.get_by_label("Seed", exact=True).fill("198")
        form.get_by_role("button", name="Start the game").click()
        draw_to_the_end(page, knock=True)
        over = page.locator("#over-dialog")
        expect(over).to_be_visible()
        came_back(page, received, restart)
        expect(over).to_be_visible()
        expect(page.get_by_role("region", name="Your hand")).to_be_visible()
        shot(page, "reconnect-game-over")
        over.locator("#over-new").click()
        expect(page.get_by_role("button", name="Play again at the same table")).to_be_visible()
