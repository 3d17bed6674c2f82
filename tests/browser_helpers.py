"""What the browser tests of the table share (tests/test_web_browser*.py): `thirtyone serve` on
a free port, the table opened with the other players at once, a new game started from the form,
a phone's screen and the check that the page fits it, and screenshots kept in
test-results/web/. Imported only after the browser tests have checked that Playwright is
installed."""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Callable, Iterator
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from web_helpers import reserved_port, start_server, stop

CHROMIUM = Path(os.environ.get("THIRTYONE_CHROMIUM", "/usr/bin/chromium"))
#: The marks of a module of browser tests: POSIX only, and skipped without Debian's Chromium.
BROWSER_MARKS = [
    pytest.mark.posix_only,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason=f"no Chromium at {CHROMIUM}: apt-get install -y chromium runs the browser tests",
    ),
]
SHOTS = Path(__file__).parent.parent / "test-results" / "web"


@contextlib.contextmanager
def serving(deals: int, playouts: int, *more: str) -> Iterator[str]:
    """``thirtyone serve`` on a free port (in this test's own data folder), its address;
    ``more``: more of its options."""
    budget = ["--oracle-deals", str(deals), "--oracle-playouts", str(playouts)]
    with reserved_port() as port:
        proc, url = start_server("--port", str(port), *budget, *more)
    try:
        yield url
    finally:
        _, err = stop(proc)
        assert "Traceback" not in err, err


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def open_table(page: Page, url: str) -> list[dict[str, Any]]:
    """Open the table with the other players at once; the messages the server sends it."""
    received: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        ws.on("framereceived", lambda frame: received.append(json.loads(frame)))

    page.on("websocket", on_socket)
    page.add_init_script("localStorage.setItem('thirtyone.pace', '0')")
    page.goto(url)
    return received


def start_game(page: Page, **fields: str) -> None:
    expect(page.get_by_role("button", name="Start the game")).to_be_visible()
    for label, value in fields.items():
        page.get_by_label(label, exact=True).fill(value)
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("region", name="Your hand")).to_be_visible()


#: What the page may wait for next while you draw your way through a game.
PLAYABLE = (
    "#over-dialog[open], #result-dialog[open] button, #actions button:enabled, #hand button:enabled"
)


def draw_to_the_end(page: Page, limit: int = 1000, *, knock: bool = False) -> None:
    """Play the game on show to its end as :func:`web_helpers.simple_move` does: at each of
    your turns draw from the stock (or, with none, the first action offered) and put the new
    card down; Continue at each round's result. With ``knock``, knock at each turn where you
    may (not on your last turn after another player knocked: then draw). Returns with the
    game-over dialog open."""
    for _ in range(limit):
        page.locator(PLAYABLE).first.wait_for(timeout=120_000)
        if page.locator("#over-dialog[open]").count():
            return
        if page.locator("#result-dialog[open]").count():
            page.locator("#result-dialog").get_by_role("button", name="Continue").click()
        elif knock and page.locator("#act-knock:enabled").count():
            page.locator("#act-knock").click()
        elif page.locator("#hand button:enabled").count():
            page.locator("#hand button:enabled").last.click()  # (the card just drawn)
        elif page.locator("#act-draw:enabled").count():
            page.locator("#act-draw").click()
        else:
            page.locator("#actions button:enabled").first.click()
    raise AssertionError("the game did not end")


TAP_TARGETS = """() => {
  const small = [];
  for (const e of document.querySelectorAll('button, a, select, input, summary')) {
    const box = (e.type === 'checkbox' ? e.closest('label') : e).getBoundingClientRect();
    const shown = box.width > 0 && box.height > 0 && box.right > 0
      && getComputedStyle(e).visibility !== 'hidden' && e.offsetParent !== null;
    if (shown && (box.width < 44 || box.height < 44)) {
      const name = e.id || e.textContent.trim().slice(0, 20);
      small.push(`${e.tagName} ${name} ${box.width}x${box.height}`);
    }
  }
  return small;
}"""


def fits(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide"
    assert page.evaluate(TAP_TARGETS) == []


def phone_context(browser: Browser) -> BrowserContext:
    """A phone's screen: 390x844, touch, no animations."""
    return browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        reduced_motion="reduce",
    )


def tenths(p: float) -> str:
    """A share as the Oracle's words write it in percent, one decimal: the figure as its answer
    gives it (``repr``, four decimals) in whole hundredths of a percent, half up, then tenths,
    half up, on integers (0.1275 -> 1275 -> 128: ``12.8``)."""
    n = int((Decimal(repr(p)) * 10000).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    t = (n + 5) // 10
    return f"{'-' if t < 0 else ''}{abs(t) // 10}.{abs(t) % 10}"


class HeldSocket:
    """The page's socket routed through Playwright, so that a test decides when the server's
    messages reach the page: while ``holding``, each one the server sends is kept back (and any
    that comes while some are held, behind them: in the order sent) until :meth:`release`;
    while ``hold_advice``, the Oracle's messages alone are kept apart until :meth:`send_advice`.
    ``sent``: what the page sent, as JSON. ``on_sent(message)`` is called after each is passed
    on to the server (a test may hold or release there)."""

    def __init__(self, page: Page, on_sent: Callable[[dict[str, Any]], None] | None = None):
        self.holding = False
        self.hold_advice = False
        self.held: list[str] = []
        self.advice: list[str] = []
        self.sent: list[dict[str, Any]] = []
        self._page_ws: Any = None
        self._on_sent = on_sent
        page.route_web_socket(re.compile(r"/ws"), self._route)

    def _route(self, ws: Any) -> None:
        server = ws.connect_to_server()
        self._page_ws = ws

        def from_page(message: str | bytes) -> None:
            server.send(message)
            self.sent.append(json.loads(message))
            if self._on_sent is not None:
                self._on_sent(self.sent[-1])

        def from_server(message: str | bytes) -> None:
            if self.holding or self.held:
                self.held.append(str(message))
            elif self.hold_advice and json.loads(message).get("type") == "advice":
                self.advice.append(str(message))
            else:
                ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)

    def send_next(self) -> dict[str, Any]:
        """The first message held, sent to the page now; what it was."""
        text = self.held.pop(0)
        self._page_ws.send(text)
        return dict(json.loads(text))

    def send_advice(self) -> None:
        """The Oracle's messages kept apart, sent to the page now."""
        while self.advice:
            self._page_ws.send(self.advice.pop(0))

    def release(self) -> None:
        """Hold no more: every message held goes to the page, in order, and the rest as it comes."""
        self.holding = self.hold_advice = False
        while self.held:
            self.send_next()
