"""The table in a real browser: Debian's Chromium driven by Playwright (pytest-playwright) against
`thirtyone serve` run as a user runs it. Whole games by clicks and by keyboard alone, the
Oracle's panel, a reload in the middle of a turn, a phone's screen, the tutor, the four-colour
deck, and a page of another site refused. Screenshots are kept in test-results/web/.

Chromium is not downloaded (``playwright install`` cannot here): the tests launch
/usr/bin/chromium (``apt-get install -y chromium``; scripts/test installs it when it can) and
are skipped, saying so, where it is missing. The Oracle's budget is small and the other players
play at once: nothing here waits on the clock, it waits for what the page shows.
"""

from __future__ import annotations

import decimal
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip(
    "playwright", reason="the browser tests need playwright (the browser-test extra)"
)
pytest.importorskip("starlette", reason="the browser tests need the web extra")

from browser_helpers import (
    BROWSER_MARKS,
    fits,
    open_table,
    phone_context,
    serving,
    shot,
    start_game,
    tenths,
)
from playwright.sync_api import Browser, Page, expect

pytestmark = BROWSER_MARKS


@pytest.fixture
def server_in_two_stages() -> Iterator[str]:
    """The table with an Oracle above the first estimate's budget: two queries a decision."""
    with serving(1500, 3000) as url:
        yield url


#: What may need doing next: a result to go past, the game's end, a decision of yours.
NEXT = (
    "#result-dialog[open] button, #over-dialog[open], "
    "#actions button:enabled, #hand button:enabled, #play-best:enabled:visible"
)


def next_thing(page: Page) -> str:
    found = page.locator(NEXT).first
    found.wait_for(state="visible", timeout=120_000)
    if page.locator("#over-dialog[open]").count():
        return "over"
    if page.locator("#result-dialog[open]").count():
        return "result"
    return "decide"


def test_a_whole_game_by_clicks_with_the_oracle(page: Page, server_in_two_stages: str) -> None:
    received = open_table(page, server_in_two_stages)
    start_game(page, **{"Your name": "Ada", "Seed": "12"})
    oracle = page.get_by_role("complementary", name="Oracle")
    expect(oracle.get_by_text("Full precision")).to_be_visible(timeout=120_000)
    expect(oracle.locator("tbody tr").first).to_be_visible()
    shot(page, "table-1280")
    decisions = results = 0
    while (thing := next_thing(page)) != "over":
        if thing == "result":
            results += 1
            if results == 1:
                shot(page, "round-result")
            page.locator("#result-dialog").get_by_role("button", name="Continue").click()
            continue
        decisions += 1
        if decisions % 4 == 0 and page.get_by_role("button", name="Draw from the stock").count():
            page.get_by_role("button", name="Draw from the stock").click()
            page.locator("#hand button:enabled").last.click()  # the card just drawn
            continue
        best = page.get_by_role("button", name="Play the Oracle's best")
        best.wait_for(state="visible", timeout=120_000)
        best.click()
    shot(page, "game-over")
    over = page.locator("#over-dialog")
    expect(over.get_by_role("heading")).to_contain_text("won the game")
    expect(over.locator("#over-placing li")).to_have_count(4)
    expect(over.get_by_role("link", name="Review this game")).to_have_attribute("href", "/review")
    # The record points to the page's own Stats page (a link here), not to a terminal command.
    expect(over.locator("#over-record")).to_contain_text("(the Stats page tells more)")
    expect(over.get_by_role("link", name="Stats", exact=True)).to_have_attribute("href", "/stats")
    assert decisions > 5 and results >= 2
    # The first estimate came before the figures at full precision, at the same position.
    stages = [(m["at"], m["stage"]) for m in received if m["type"] == "advice"]
    first_at = stages[0][0]
    assert [s for at, s in stages if at == first_at] == ["quick", "full"]
    # The other players' moves were announced as they happened.
    said = page.locator("#announcer").inner_text()
    assert said.strip()
    over.get_by_role("button", name="Play again").click()
    expect(page.get_by_text("Round 1 ·")).to_be_visible()


def test_a_whole_game_by_keyboard_alone(page: Page, server: str) -> None:
    open_table(page, server)
    expect(page.get_by_role("button", name="Start the game")).to_be_visible()
    for _ in range(60):  # Tab to the button, as a keyboard does
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent") == "Start the game":
            break
    page.keyboard.press("Enter")
    expect(page.get_by_role("region", name="Your hand")).to_be_visible()
    decisions = 0
    while (thing := next_thing(page)) != "over":
        if thing == "result":
            page.keyboard.press("Enter")  # (the dialog's button has the focus)
            continue
        decisions += 1
        if page.locator("#hand button:enabled").count():
            page.keyboard.press("4" if decisions % 2 else "1")  # the new card, or the first
        elif decisions % 3 == 0:
            expect(page.get_by_role("button", name="Play the Oracle's best")).to_be_visible(
                timeout=120_000
            )
            page.keyboard.press("Enter")
        else:
            page.keyboard.press("d")
        page.locator(NEXT).first.wait_for(state="attached")
    assert decisions > 5
    expect(page.locator("#over-dialog")).to_be_visible()


def test_a_reload_in_the_middle_of_a_turn_keeps_the_card_drawn(page: Page, server: str) -> None:
    open_table(page, server)
    start_game(page, Seed="5")
    page.get_by_role("button", name="Draw from the stock").click()
    drawn = page.locator("#hand .card-slot.new")
    expect(drawn).to_be_visible()
    card = drawn.get_attribute("data-card")
    page.reload()
    again = page.locator("#hand .card-slot.new")
    expect(again).to_have_attribute("data-card", card or "")
    expect(again).to_contain_text("drawn")
    expect(page.get_by_role("button", name="Draw from the stock")).to_have_count(0)
    expect(page.get_by_role("button", name=re.compile(r"^Put down"))).to_have_count(4)


def test_a_phone_screen_fits_with_large_tap_targets(browser: Browser, server: str) -> None:
    context = phone_context(browser)
    page = context.new_page()
    open_table(page, server)
    expect(page.get_by_role("button", name="Start the game")).to_be_visible()
    fits(page)
    start_game(page, Seed="3")
    expect(page.get_by_role("button", name="Draw from the stock")).to_be_visible()
    fits(page)
    shot(page, "table-390")
    page.get_by_role("button", name="Draw from the stock").tap()
    expect(page.get_by_role("button", name=re.compile(r"^Put down"))).to_have_count(4)
    fits(page)
    context.close()


def test_a_card_taken_is_named_so_and_fits_a_phone(browser: Browser, server: str) -> None:
    """After a take, on a phone: three cards to put down and the one taken, named and labelled
    as one that may not go back; the page still fits."""
    context = phone_context(browser)
    page = context.new_page()
    open_table(page, server)
    start_game(page, Seed="3")
    page.get_by_role("button", name=re.compile(r"^Take ")).tap()
    expect(page.get_by_role("button", name=re.compile(r"^Put down"))).to_have_count(3)
    taken = page.get_by_role("button", name=re.compile(r"\(taken: may not go back\)$"))
    expect(taken).to_be_disabled()
    expect(taken).to_contain_text(": may not go back")
    fits(page)
    shot(page, "taken-card-390")
    context.close()


def test_the_tutor_asks_before_a_costly_move(page: Page, server: str) -> None:
    received = open_table(page, server)
    expect(page.get_by_role("button", name="Start the game")).to_be_visible()
    form = page.get_by_role("form", name="New game")
    form.get_by_label("Tutor", exact=True).check()
    form.locator("#f-tutor").fill("0.5")
    form.get_by_label("Advice").select_option("ask")
    start_game(page, Seed="14")
    expect(page.get_by_role("button", name="Show the Oracle's advice")).to_be_visible()
    page.wait_for_function("() => document.querySelectorAll('#actions button').length > 0")
    advice = next_advice(page, received)
    options = {o["option"]: o for o in advice["options"]}
    best = options[advice["best_game"]]
    worst = min(options.values(), key=lambda o: o["p_win"])
    assert 100 * (best["p_win"] - worst["p_win"]) > 0.5  # (else the case tests nothing)
    kind = worst["kind"]
    button = {"knock": "Knock", "draw": "Draw from the stock", "take": "Take"}[kind]
    page.get_by_role("button", name=re.compile(f"^{button}")).click()
    tutor = page.get_by_role("dialog", name="The tutor asks")
    expect(tutor).to_be_visible()
    expect(tutor).to_contain_text("percentage points of your chance to win the game")
    tutor.get_by_role("button", name="Show me the advice").click()
    expect(
        page.get_by_role("complementary", name="Oracle").locator("tbody tr").first
    ).to_be_visible()


def next_advice(page: Page, received: list[dict[str, Any]]) -> dict[str, Any]:
    for _ in range(1200):  # (polls for a message, up to two minutes: a hang guard)
        full = [m for m in received if m["type"] == "advice" and m["stage"] == "full"]
        if full:
            found: dict[str, Any] = full[-1]["advice"]
            return found
        page.wait_for_timeout(100)
    raise AssertionError("no advice came")


def test_the_four_colour_deck(page: Page, server: str) -> None:
    open_table(page, server)
    start_game(page, Seed="2")
    page.get_by_role("button", name="Settings").click()
    page.get_by_label("Four-colour deck").check()
    page.get_by_role("button", name="Done").click()
    club = page.evaluate(
        "() => { const p = document.createElementNS('http://www.w3.org/2000/svg', 'path');"
        " p.setAttribute('class', 'suit-C'); document.querySelector('svg.card').append(p);"
        " return getComputedStyle(p).fill; }"
    )
    assert club == "rgb(19, 107, 47)"  # green, not black
    page.reload()
    expect(page.locator("body")).to_have_class(re.compile("four-colour"))


def test_a_page_of_another_site_cannot_open_the_game(page: Page, server: str) -> None:
    socket_url = server.replace("http://", "ws://") + "ws"
    html = f"""<!doctype html><title>waiting</title><script>
      const ws = new WebSocket("{socket_url}");
      ws.onopen = () => {{ document.title = "opened"; }};
      ws.onmessage = () => {{ document.title = "read the game"; }};
      ws.onclose = () => {{ if (document.title === "waiting") document.title = "refused"; }};
    </script>"""
    page.route(
        "http://evil.example/**", lambda route: route.fulfill(body=html, content_type="text/html")
    )
    page.goto("http://evil.example/")
    expect(page).to_have_title("refused", timeout=60_000)


def shown_card(card: str) -> str:
    """A card as the buttons name it: ``10H`` for ``TH``."""
    return ("10" if card[0] == "T" else card[0]) + card[1]


def your_turns_table(page: Page, received: list[dict[str, Any]]) -> dict[str, Any]:
    """The table of the last state the page was sent, once it is the state of your turn (on a
    busy machine the page can show it before the test has read its frame)."""
    for _ in range(300):
        states = [m for m in received if m["type"] == "state"]
        table = states[-1].get("table") if states else None
        if table and table.get("top") and table.get("hand"):
            return dict(table)
        page.wait_for_timeout(100)
    raise AssertionError(f"no state of your turn among {len(received)} messages")


def test_every_action_is_a_named_button_with_the_terminals_key(page: Page, server: str) -> None:
    """The landmarks; the buttons' names; the keys ?, a, Enter, t, 1-4 and k; the Oracle off
    (advice "never") until asked."""
    received = open_table(page, server)
    expect(page.get_by_role("button", name="Start the game")).to_be_visible()
    page.get_by_role("form", name="New game").get_by_label("Advice").select_option("never")
    start_game(page, Seed="4")
    for role, name in (("region", "Table"), ("region", "Your hand"), ("complementary", "Oracle")):
        expect(page.get_by_role(role, name=name)).to_be_visible()  # type: ignore[arg-type]
    expect(page.get_by_role("button", name="Draw from the stock")).to_be_visible()
    table = your_turns_table(page, received)
    top = table["top"]
    take = page.get_by_role("button", name=f"Take {shown_card(top)}", exact=True)
    expect(take).to_be_visible()
    expect(page.get_by_role("button", name="Knock", exact=True)).to_be_visible()
    page.keyboard.press("?")
    keys = page.get_by_role("dialog", name="Keys")
    expect(keys).to_be_visible()
    page.keyboard.press("Escape")
    expect(keys).to_be_hidden()
    # The Oracle is off: nothing is shown until asked (a), then Enter plays its best.
    oracle = page.get_by_role("complementary", name="Oracle")
    expect(oracle).to_contain_text("The Oracle is off in this game")
    expect(oracle.locator("tbody tr")).to_have_count(0)
    page.keyboard.press("a")
    expect(oracle.locator("tbody tr").first).to_be_visible(timeout=120_000)
    expect(page.get_by_role("button", name="Play the Oracle's best")).to_be_visible()
    # Take the top card (t): three cards to put down, by name; the one taken may not go back.
    page.keyboard.press("t")
    hand = page.get_by_role("region", name="Your hand")
    cards = [*table["hand"], top]
    for card in table["hand"]:
        expect(hand.get_by_role("button", name=f"Put down {shown_card(card)}")).to_be_visible()
    # (The card taken is named for what it is, not as a put-down it cannot be.)
    taken = hand.get_by_role("button", name=f"{shown_card(top)} (taken: may not go back)")
    expect(taken).to_be_disabled()
    expect(taken).to_contain_text(f"{shown_card(top)}: may not go back")
    expect(hand.get_by_role("button", name=f"Put down {shown_card(top)}")).to_have_count(0)
    page.keyboard.press("1")
    expect(page.locator("#log li.mine").first).to_contain_text(
        f"You took {top} from the pile and put down {cards[0]}."
    )
    # At your next turn, k knocks.
    expect(page.get_by_role("button", name="Knock", exact=True)).to_be_visible(timeout=120_000)
    page.keyboard.press("k")
    expect(page.locator("#log li.mine").last).to_contain_text("You knock")
    # The others' final turns and the round's end come next: once its Continue is on show,
    # nothing redraws the actions until it is pressed (a button drawn before it could be
    # wiped by their turns arriving, on a slow machine).
    expect(page.get_by_role("button", name="Continue")).to_be_visible(timeout=120_000)
    # Decline (the stock is out, rarely met in a game): the button as the page draws it.
    page.evaluate(
        "async () => (await import('/static/view.js')).drawActions({ you: 0 }, { top: 'TH' },"
        " { seat: 0, phase: 'start', legal: [{ kind: 'decline' }] }, () => {})"
    )
    decline = page.locator("#actions button")  # (the round's end may be on show: by its id)
    expect(decline).to_have_count(1)
    expect(decline).to_have_accessible_name("Decline")
    expect(decline).to_have_attribute("aria-keyshortcuts", "x")


#: Records the cards flying across the table (where each starts: the stock, the pile or a seat;
#: a card's back or its face) and the banners shown.
WATCH_MOTION = """
window.motion = { flights: [], banners: [] };
const inside = (x, y, id) => {
  const b = document.getElementById(id).getBoundingClientRect();
  return x >= b.left && x <= b.right && y >= b.top && y <= b.bottom;
};
new MutationObserver((records) => {
  for (const r of records) {
    for (const n of r.addedNodes) {
      if (n.nodeType !== 1 || !n.classList.contains("flying")) continue;
      const box = n.getBoundingClientRect();
      const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
      const from = inside(x, y, "stock") ? "stock" : inside(x, y, "pile") ? "pile" : "seat";
      window.motion.flights.push([from, n.classList.contains("back") ? "back" : "face"]);
    }
    if (r.type === "attributes" && r.target.id === "banner" && !r.target.hidden) {
      window.motion.banners.push(r.target.textContent);
    }
  }
}).observe(document, {
  childList: true, subtree: true, attributes: true, attributeFilter: ["hidden"],
});
"""


@pytest.mark.parametrize("reduced", [False, True], ids=["motion", "reduced-motion"])
def test_the_other_players_moves_are_animated_unless_motion_is_reduced(
    browser: Browser, server: str, reduced: bool
) -> None:
    """Seed 10, you drawing and putting the new card down: round 1 has the deal, a draw, a take
    of the pile (seat 2) and put-downs, and seat 1 takes your discard to show 31; in round 2
    seat 3 knocks. Cards fly for the deal, the draws, the take and the put-downs, except when
    the system asks for reduced motion; the banners for the 31 and the knock are shown either
    way, and the showdown shows every hand."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, reduced_motion="reduce" if reduced else None
    )
    page = context.new_page()
    page.add_init_script("localStorage.setItem('thirtyone.pace', '350')")  # (fast)
    page.add_init_script(WATCH_MOTION)
    received: list[dict[str, Any]] = []
    page.on(
        "websocket", lambda ws: ws.on("framereceived", lambda f: received.append(json.loads(f)))
    )
    page.goto(server)
    page.get_by_role("form", name="New game").get_by_label("Advice").select_option("never")
    start_game(page, Seed="10")
    names = [m for m in received if m["type"] == "state"][-1]["names"]
    page.get_by_role("button", name="Draw from the stock").click()
    page.locator("#hand button:enabled").last.click()  # the card just drawn
    result = page.locator("#result-dialog")
    expect(result).to_be_visible(timeout=120_000)
    expect(result.get_by_role("heading")).to_contain_text("31")
    expect(result.locator("tbody tr")).to_have_count(4)  # every hand shown, three cards each
    for row in result.locator("tbody tr").all():
        expect(row.locator("svg.card")).to_have_count(3)
    result.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("button", name="Draw from the stock")).to_be_visible(timeout=120_000)
    # Whose turn, each player's lives (a 31 costs everyone else a life) and what they did.
    expect(page.locator("#turn-note")).to_have_text(f"Your turn — your last: {names[3]} knocked.")
    expect(page.locator("#seat-1")).to_contain_text(re.compile(rf"^{names[1]}\s*3 lives"))
    for seat in (2, 3):
        expect(page.locator(f"#seat-{seat}")).to_contain_text(
            re.compile(rf"^{names[seat]}\s*2 lives")
        )
    expect(page.locator("#my-lives")).to_have_text("· 2 lives")
    # The head names the lives the game started with, not a count that no longer holds.
    expect(page.locator("#round-head")).to_have_text(
        re.compile(r"^Round 2 · .+ dealt · started with 3 lives each$")
    )
    expect(page.locator("#seat-2")).to_contain_text("This round: drew, put down 2C")
    expect(page.locator("#seat-3")).to_contain_text("knocked")
    motion = page.evaluate("window.motion")
    assert f"{names[1]} shows 31!" in motion["banners"]
    assert f"{names[3]} knocks!" in motion["banners"]
    flights = motion["flights"]
    if reduced:
        assert flights == []
    else:
        assert flights[:4] == [["stock", "back"]] * 4  # the deal, a card to each seat
        assert ["pile", "face"] in flights  # seat 2 takes the 7D
        assert flights.count(["seat", "face"]) >= 3  # put-downs, the 31's included
        assert flights.count(["stock", "back"]) >= 4 + 4  # round 2's deal and draws too
    context.close()


def shown(x: float, digits: int) -> str:
    """A figure as the page writes it with toFixed (the exact value, half up): lives lost."""
    quantum = decimal.Decimal(1).scaleb(-digits)
    return str(decimal.Decimal(x).quantize(quantum, rounding=decimal.ROUND_HALF_UP))


def tens_written(text: str) -> str:
    """The Oracle's words as the page writes them: a ten as 10 (``TD`` -> ``10D``), as on its
    cards."""
    return re.sub(r"\bT(?=[CDHS]\b)", "10", text)


def test_the_oracle_panel_shows_each_options_figures(page: Page, server: str) -> None:
    """Every option of the Oracle's answer in the panel: safe %, its ±, the chance to win the
    game, ★ for the best, ≈ for the tied, ♔ for the best for the game; the reason and the
    "Why" line; the lives lost column when it changes the picture."""
    received = open_table(page, server)
    start_game(page, Seed="12")
    oracle = page.get_by_role("complementary", name="Oracle")
    expect(oracle.get_by_text("Full precision")).to_be_visible(timeout=120_000)
    at = [m for m in received if m["type"] == "state"][-1]["at"]
    advice = next_advice(page, received)
    assert [m["at"] for m in received if m["type"] == "advice" and m["stage"] == "full"][-1] == at
    options = advice["options"]
    expect(oracle.locator("tbody tr")).to_have_count(len(options))
    for i, o in enumerate(options):
        cells = oracle.locator(f'tbody tr[data-option="{o["option"]}"] td').all_inner_texts()
        assert cells[1].strip() == f"{tenths(o['p_safe'])}%"
        assert cells[2] == f"±{tenths(o['margin'])}"
        assert cells[3 + advice["lives_matter"]] == f"{tenths(o['p_win'])}%"
        marks = "★" if i == 0 else "≈" if o["option"] in advice["tied"] else ""
        assert cells[0].startswith(marks) and ("♔" in cells[0]) == (
            o["option"] == advice["best_game"]
        )
    expect(oracle.locator(".reason")).to_have_text(tens_written(advice["reason"]))
    if advice["why"]:
        expect(oracle.locator(".why")).to_have_text(tens_written(advice["why"]))
    expect(page.get_by_role("button", name="Play the Oracle's best")).to_contain_text(
        options[0]["option"] if options[0]["kind"] in ("draw", "knock") else "put down"
    )
    # Lives lost, where they change the picture: the same answer drawn with that column.
    page.evaluate(
        "async (a) => (await import('/static/oracle.js')).drawAdvice({ full: a },"
        " { shown: true, mode: 'always', thinking: true })",
        {**advice, "lives_matter": True},
    )
    expect(oracle.locator("thead th").nth(3)).to_have_text("Lives lost")  # (as the others)
    for o in options:
        cells = oracle.locator(f'tbody tr[data-option="{o["option"]}"] td').all_inner_texts()
        assert cells[3] == shown(o["lives_lost"], 2)
    # A ten in the Oracle's words is written as the page writes it on the cards and buttons.
    tens = {
        "reason": "Take the TD and put down the 2C: safe in 61.0% (TH kept).",
        "why": "Cara knocked with TS.",
    }
    page.evaluate(
        "async (a) => (await import('/static/oracle.js')).drawAdvice({ full: a },"
        " { shown: true, mode: 'always', thinking: true })",
        {**advice, **tens},
    )
    expect(oracle.locator(".reason")).to_have_text(
        "Take the 10D and put down the 2C: safe in 61.0% (10H kept)."
    )
    expect(oracle.locator(".why")).to_have_text("Cara knocked with 10S.")


def test_a_rounds_showdown_fits_a_phone(browser: Browser, server: str) -> None:
    """At 390x844 the showdown's table (every hand, score, loss and standing) fits its dialog:
    nothing cut off at the right, no sideways scrolling inside it. (Seed 10: you draw and put
    the new card down, then Alice takes your discard and shows 31.)"""
    context = phone_context(browser)
    page = context.new_page()
    open_table(page, server)
    start_game(page, Seed="10")
    page.get_by_role("button", name="Draw from the stock").tap()
    page.locator("#hand button:enabled").last.tap()  # the card just drawn
    dialog = page.locator("#result-dialog")
    expect(dialog).to_be_visible(timeout=120_000)
    expect(dialog.locator("tbody tr")).to_have_count(4)
    shot(page, "round-result-390")
    wide = dialog.evaluate("d => [d.scrollWidth, d.clientWidth]")
    assert wide[0] <= wide[1], f"the showdown is {wide[0]} px wide in a dialog of {wide[1]}"
    box, table = dialog.bounding_box(), dialog.locator("table").bounding_box()
    assert box is not None and table is not None
    assert table["x"] + table["width"] <= box["x"] + box["width"]
    fits(page)
    context.close()


def test_the_round_logs_numbers_are_not_cut_off(page: Page, server: str) -> None:
    """A long round's log numbers its moves past 100: the list leaves room for "100." beside
    each move (the numbers are drawn in the list's padding, which its scrolling box clips)."""
    open_table(page, server)
    start_game(page, Seed="3")
    room = page.evaluate(
        """() => {
        const log = document.getElementById("log");
        for (let i = 0; i < 120; i++) log.append(document.createElement("li"));
        const probe = document.createElement("span");
        probe.textContent = "100. ";
        probe.style.font = getComputedStyle(log).font;
        document.body.append(probe);
        const width = probe.getBoundingClientRect().width;
        probe.remove();
        return [parseFloat(getComputedStyle(log).paddingLeft), width];
    }"""
    )
    assert room[0] >= room[1], f"the log leaves {room[0]} px for numbers {room[1]} px wide"
