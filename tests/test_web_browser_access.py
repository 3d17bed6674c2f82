"""The table for a player with a keyboard alone or a screen reader, in a real browser (as in
test_web_browser.py), from a QA round on access: the focus is never left on the page's body
and is seen where it lands, your cards are a list said with their places, the advice asked for
is said once, the Oracle's marks are words, the tutor's question opens on its safe answer, the
form's rule options have short names, and the table's page has its heading.
Screenshots are kept in test-results/web/."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

pytest.importorskip(
    "playwright", reason="the browser tests need playwright (the browser-test extra)"
)
pytest.importorskip("starlette", reason="the browser tests need the web extra")

from browser_helpers import (
    BROWSER_MARKS,
    draw_to_the_end,
    open_table,
    phone_context,
    serving,
    shot,
    start_game,
)
from playwright.sync_api import Browser, Page, expect

pytestmark = BROWSER_MARKS

#: Records, each time the line under the table says another player is playing, which element
#: had the focus (its tag and id).
WATCH_FOCUS = """
window.focusWhileOthersPlay = [];
new MutationObserver(() => {
  const note = document.getElementById("turn-note");
  if (!note || !note.textContent.endsWith("is playing…")) return;
  const e = document.activeElement;
  window.focusWhileOthersPlay.push(e ? `${e.tagName}#${e.id}` : "none");
}).observe(document, { childList: true, subtree: true, characterData: true });
"""

#: Records every line the live region is given.
WATCH_SAID = """
window.said = [];
new MutationObserver((records) => {
  for (const r of records) {
    if (r.target.id === "announcer") for (const n of r.addedNodes) window.said.push(n.textContent);
  }
}).observe(document, { childList: true, subtree: true });
"""

RANKS = {"A": "ace", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def card_name(code: str) -> str:
    """ "7 of hearts", "ace of diamonds": a card as the page says it in words."""
    return f"{RANKS.get(code[0], code[0])} of {SUITS[code[1]]}"


def last_state(received: list[dict[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = [m for m in received if m["type"] == "state"][-1]
    return found


def tab_to(page: Page, name: str) -> None:
    """Tab (as a keyboard does) to the control whose text starts with ``name``."""
    for _ in range(60):
        page.keyboard.press("Tab")
        text = page.evaluate(
            "(document.activeElement.getAttribute('aria-label')"
            " || document.activeElement.textContent).trim()"
        )
        if text.startswith(name):
            return
    raise AssertionError(f"Tab never reached {name!r}")


def your_turn(page: Page) -> None:
    expect(page.locator("#turn-note")).to_have_text(re.compile(r"^Your turn"), timeout=120_000)


def test_the_focus_waits_in_your_hand_while_the_others_play(page: Page, server: str) -> None:
    """Seed 3, four seats, by the keyboard alone: Alice plays first. The game started with
    Enter on "Start the game", and a card put down with Space on its button, the focus was on
    the page's body while the others played (the button pressed was gone), so the next Tab
    started again from the page's top. It waits in your hand now (ruling 240)."""
    page.add_init_script(WATCH_FOCUS)
    open_table(page, server)
    expect(page.get_by_role("button", name="Start the game")).to_be_visible()
    page.get_by_label("Seed").fill("3")
    tab_to(page, "Start the game")
    page.keyboard.press("Enter")
    your_turn(page)
    tab_to(page, "Draw from the stock")
    page.keyboard.press("Enter")
    expect(page.locator("#hand button:enabled").first).to_be_visible()
    tab_to(page, "Put down")
    page.keyboard.press("Space")
    expect(page.get_by_role("button", name="Draw from the stock")).to_be_visible(timeout=120_000)
    seen = page.evaluate("window.focusWhileOthersPlay")
    assert len(seen) >= 2, seen  # (the others played after the start and after your turn)
    assert set(seen) == {"SECTION#hand-area"}, seen
    expect(page.get_by_role("region", name="Your hand")).to_be_focused()


def test_the_focus_in_your_hand_is_seen(page: Page, server: str) -> None:
    """After a move by its key the focus is on your hand, where Enter plays the Oracle's best:
    its outline was taken away (`outline: none`), so a keyboard's player saw no focus at all
    after each move (WCAG 2.4.7). It has the page's focus ring when it came by the keyboard
    (ruling 241)."""
    open_table(page, server)
    start_game(page, Seed="5")
    your_turn(page)
    page.keyboard.press("d")
    hand = page.get_by_role("region", name="Your hand")
    expect(page.locator("#hand button:enabled").first).to_be_visible()
    expect(hand).to_be_focused()
    style = hand.evaluate(
        "e => [getComputedStyle(e).outlineStyle, getComputedStyle(e).outlineWidth]"
    )
    assert style[0] != "none" and float(style[1].removesuffix("px")) >= 2, style
    shot(page, "the-hand-focused-by-the-keyboard")


def test_your_cards_are_a_list_each_said_with_its_place(page: Page, server: str) -> None:
    """Seed 5: your three cards, then four to put one down. They were loose images and
    buttons named "Put down AD" (which a screen reader may spell "A D"), with nothing to say
    which card it was in words or where in the hand. They are the list "Your cards", and each
    button is described by the card in words, its place and its key; the card drawn or taken
    says so, and the one taken has no key (it may not go back)."""
    received = open_table(page, server)
    start_game(page, Seed="5")
    your_turn(page)
    cards = page.get_by_role("list", name="Your cards").get_by_role("listitem")
    hand = last_state(received)["table"]["hand"]
    expect(cards).to_have_count(3)
    for i, code in enumerate(hand):
        expect(cards.nth(i).get_by_role("img")).to_have_accessible_name(card_name(code))
    page.keyboard.press("d")
    expect(cards).to_have_count(4)
    state = last_state(received)
    held = [*state["table"]["hand"], state["drawn"]["card"]]
    for i, code in enumerate(held):
        drew = ", the card you drew" if i == 3 else ""
        expect(cards.nth(i).get_by_role("button")).to_have_accessible_description(
            f"{card_name(code)}, card {i + 1} of 4{drew}, key {i + 1}"
        )
    page.keyboard.press("4")
    expect(page.get_by_role("button", name=re.compile("^Take "))).to_be_visible(timeout=120_000)
    page.keyboard.press("t")
    expect(cards).to_have_count(4)
    taken = last_state(received)["drawn"]["card"]
    expect(cards.nth(3).get_by_role("button")).to_have_accessible_description(
        f"{card_name(taken)}, card 4 of 4, the card you took"
    )


def test_the_advice_asked_for_is_said_once(page: Page) -> None:
    """Advice on request, an Oracle of two stages (a first estimate, then full precision): a
    asks for it. The panel showed it, but nothing was said: a screen reader's player heard
    nothing happen. The live region says the best once, at the first figures, and not again
    when the full ones replace them (ruling 242)."""
    page.add_init_script(WATCH_SAID)
    with serving(1500, 3000) as url:
        received = open_table(page, url)
        page.get_by_role("form", name="New game").get_by_label("Advice").select_option("ask")
        start_game(page, Seed="12")
        your_turn(page)
        page.keyboard.press("a")
        oracle = page.get_by_role("complementary", name="Oracle")
        expect(oracle.get_by_text("Full precision")).to_be_visible(timeout=120_000)
        # The words are the first figures' (the estimate's best, which the figures at full
        # precision may not share: the estimate is stopped at its time, whatever it found).
        first = next(m["advice"] for m in received if m["type"] == "advice")
        option = page.evaluate(
            "async (o) => (await import('/static/oracle.js')).optionLabel(o)", first["options"][0]
        )
        said = [s for s in page.evaluate("window.said") if s.startswith("The Oracle")]
        assert len(said) == 1, said
        assert re.fullmatch(
            rf"The Oracle's best: {re.escape(option)}( \([^)]*\))?,"
            rf" \d+\.\d% safe(; tied with .+)?\.",
            said[0],
        ), said


def test_the_oracles_marks_are_said_in_words(page: Page, server: str) -> None:
    """Seed 12, advice on every turn: the table marks the best ★ and the best for the game ♔.
    The ★ was an aria-label on a plain span (which screen readers do not read) and the ♔ a
    bare symbol, read as a chess king or not at all. Both are words now, the symbols hidden
    from the screen reader."""
    open_table(page, server)
    start_game(page, Seed="12")
    oracle = page.get_by_role("complementary", name="Oracle")
    expect(oracle.locator("tbody tr").first).to_be_visible(timeout=120_000)
    first = oracle.locator("tbody tr").first.locator("td").first
    expect(first).to_have_accessible_name(re.compile(r"^the best: "))
    crowned = oracle.locator("td", has_text="(the best for the game)")
    expect(crowned).to_have_count(1)
    expect(crowned).to_have_accessible_name(re.compile(r"^[^♔★]* \(the best for the game\)$"))


def test_the_tutors_question_opens_on_its_safe_answer(page: Page, server: str) -> None:
    """Seed 14, the tutor at 0.5 points, by the keyboard: the costliest start asked by its
    key. The tutor's question opened with the focus on "Play it anyway", so Enter (a player
    going on with the keys) played the move the tutor was there to stop. It opens on "Show me
    the advice", its primary answer (ruling 243)."""
    received = open_table(page, server)
    form = page.get_by_role("form", name="New game")
    form.get_by_label("Tutor", exact=True).check()
    form.locator("#f-tutor").fill("0.5")
    start_game(page, Seed="14")
    your_turn(page)
    full = None
    for _ in range(1200):  # (polls for the full advice, up to two minutes: a hang guard)
        found = [m for m in received if m["type"] == "advice" and m["stage"] == "full"]
        if found:
            full = found[-1]["advice"]
            break
        page.wait_for_timeout(100)
    assert full is not None
    options = {o["option"]: o for o in full["options"]}
    worst = min(options.values(), key=lambda o: o["p_win"])
    assert 100 * (options[full["best_game"]]["p_win"] - worst["p_win"]) > 0.5
    page.keyboard.press({"knock": "k", "draw": "d", "take": "t"}[worst["kind"]])
    tutor = page.get_by_role("dialog", name="The tutor asks")
    expect(tutor).to_be_visible()
    expect(tutor.get_by_role("button", name="Show me the advice")).to_be_focused()
    page.keyboard.press("Escape")
    expect(tutor).to_be_hidden()
    expect(page.get_by_role("region", name="Your hand")).to_be_focused()


def test_the_forms_rule_options_have_short_names(page: Page, server: str) -> None:
    """Under "More rule options" each field's label held its meaning too, so a screen reader
    said forty words at every Tab ("County after the last life a player plays on …"). Each is
    named by its label and described by its meaning."""
    open_table(page, server)
    form = page.get_by_role("form", name="New game")
    form.get_by_text("More rule options").click()
    county = form.get_by_role("checkbox", name="County", exact=True)
    expect(county).to_be_visible()
    expect(county).to_have_accessible_description(re.compile("^after the last life"))
    first_turn = form.get_by_role("combobox", name="The first turn", exact=True)
    expect(first_turn).to_have_accessible_description(re.compile("^the round's first turn"))
    page.get_by_text("County", exact=True).click()  # (the label still ticks its box)
    expect(county).to_be_checked()


def test_the_tables_page_has_its_heading(page: Page, server: str) -> None:
    """The start page has its level-1 heading; the table's page had none (its headings began
    at "Your hand", level 2), so a screen reader's list of headings had no top."""
    open_table(page, server)
    start_game(page, Seed="5")
    expect(page.get_by_role("heading", level=1)).to_have_text("Thirty-One: the table")
    levels = page.evaluate(
        "[...document.querySelectorAll('h1, h2, h3')].filter((h) => !h.closest('[hidden], dialog'))"
        ".map((h) => Number(h.tagName[1]))"
    )
    assert levels[0] == 1 and all(b - a <= 1 for a, b in itertools.pairwise(levels))


def test_the_tutors_points_in_the_oracle_panel_are_named_for_what_they_are(
    page: Page, server: str
) -> None:
    """The Oracle panel's box of the tutor's points was read "over points" (its label's words
    around it); it is named for what it holds. Its points are percentage points (ruling 358):
    under ranked placing the panel's "Points" column, just below, is the ranked points to
    expect, and "over 5 points" read as either."""
    open_table(page, server)
    start_game(page, Seed="5")
    name = "Tutor: asks before a move that costs more than this many percentage points"
    expect(page.get_by_role("textbox", name=name, exact=True)).to_have_value("5")
    expect(page.locator("label.tutor-points")).to_have_text("over percentage points")


def test_the_seat_to_move_stands_out_in_forced_colours(browser: Browser, server: str) -> None:
    """With forced colours (Windows' high contrast) every border takes the system's colour, and
    the gold border of the seat to move was lost among the others: it keeps a border of its
    own (the system's highlight, drawn double). (The seat's look is read with and without the
    mark in one evaluation: the others' turns redraw the seats at any moment.)"""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.emulate_media(forced_colors="active")
    open_table(page, server)
    start_game(page, Seed="5")
    expect(page.locator("#seats .seat")).to_have_count(3)
    marked, plain = page.evaluate(
        """() => {
          const seat = document.querySelector("#seats .seat");
          const look = () => {
            const s = getComputedStyle(seat);
            return `${s.borderTopStyle} ${s.borderTopColor}`;
          };
          const had = seat.classList.contains("to-move");
          seat.classList.add("to-move");
          const marked = look();
          seat.classList.remove("to-move");
          const plain = look();
          if (had) seat.classList.add("to-move");
          return [marked, plain];
        }"""
    )
    assert marked.startswith("double") and marked != plain, (marked, plain)
    page.close()


def test_the_keys_open_at_their_heading_on_a_small_screen(browser: Browser, server: str) -> None:
    """At 320x568 the Keys dialog is taller than the screen; it opened with its only control,
    Close, focused at its foot, its heading and first keys scrolled out of sight. Focus now
    starts on its heading (Tab reaches Close; Escape closes it)."""
    page = browser.new_page(viewport={"width": 320, "height": 568})
    open_table(page, server)
    start_game(page, Seed="5")
    page.get_by_role("button", name="Keys").click()
    heading = page.get_by_role("heading", name="Keys")
    expect(heading).to_be_focused()
    expect(heading).to_be_in_viewport()
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Close")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator("#keys-dialog")).not_to_be_visible()
    page.close()


#: Records each banner shown, and whether its text was cut (wider than the banner).
WATCH_BANNERS = """
window.banners = [];
new MutationObserver((records) => {
  for (const r of records) {
    const box = r.target.id === "banner" ? r.target : null;
    if (box && !box.hidden && box.textContent) {
      window.banners.push([box.textContent, box.scrollWidth > box.clientWidth + 1]);
    }
  }
}).observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
"""


def test_a_banner_is_wrapped_not_cut_on_a_phone(browser: Browser, server: str) -> None:
    """Four seats, one life each, on a phone, drawing your way through: once you are out the
    rounds' ends are said in the banner over the table, a sentence, which was one line cut with
    an ellipsis ("Showdown: Cara knocked. Cara loses 2 lives (the knock …", seen at 1280 px
    too). It wraps within the table."""
    page = phone_context(browser).new_page()
    page.add_init_script(WATCH_BANNERS)
    open_table(page, server)
    start_game(page, Lives="1", Seed="3")
    draw_to_the_end(page)
    banners = page.evaluate("window.banners")
    assert any(len(text) > 30 for text, _ in banners), banners  # (else the case tests nothing)
    assert [text for text, cut in banners if cut] == []
    page.context.close()
