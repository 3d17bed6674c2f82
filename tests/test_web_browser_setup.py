"""The start screen and the figures of the table in a real browser (Debian's Chromium driven by
Playwright, as in test_web_browser.py): a new game started over an unfinished one stays on the
page that started it, the form's words and messages, the preset list on a phone, the page's
percentages rounded as the Oracle's words round them, and the game's end pointing to the Stats
page. Screenshots are kept in test-results/web/."""

from __future__ import annotations

import json
import os
from pathlib import Path
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
    shot,
    start_game,
    tenths,
)
from playwright.sync_api import Browser, Page, expect
from thirtyone.store import saves

pytestmark = BROWSER_MARKS


def the_save() -> Path:
    """The save of the server the test started (in the test's own data folder)."""
    return Path(os.environ["THIRTYONE_DATA_DIR"]) / "saved-game.json"


def state_from(page: Page, received: list[dict[str, Any]], at: int) -> dict[str, Any]:
    """The first state the server sent at position ``at`` or later (polled: a hang guard of two
    minutes)."""
    for _ in range(1200):
        found = [m for m in received if m["type"] == "state" and m["at"] >= at]
        if found:
            state: dict[str, Any] = found[0]
            return state
        page.wait_for_timeout(100)
    raise AssertionError(f"no state at {at}")


def test_a_new_game_over_an_unfinished_one_stays_on_the_page_that_started_it(
    page: Page, server: str
) -> None:
    """New game -> scat, seed 7 -> keep the unfinished game as saved-game.1.json: the page
    plays the new game (it went back to the old one, following it to its backup), and a move
    goes into saved-game.json, not into the backup."""
    received = open_table(page, server)
    start_game(page, Seed="5")
    page.get_by_role("button", name="Draw from the stock").click()
    expect(page.locator("#hand .card-slot.new")).to_be_visible()
    old_at = [m for m in received if m["type"] == "state"][-1]["at"]
    page.get_by_role("button", name="New game").click()
    form = page.get_by_role("form", name="New game")
    form.get_by_label("Preset").select_option("scat")
    form.get_by_label("Seed", exact=True).fill("7")
    form.get_by_role("button", name="Start the game").click()
    confirm = page.get_by_role("dialog", name="An unfinished game is saved")
    expect(confirm).to_contain_text("saved-game.1.json")
    confirm.get_by_role("button", name="Start the new game").click()
    draw = page.get_by_role("button", name="Draw from the stock")
    expect(draw).to_be_visible(timeout=120_000)
    new = [m for m in received if m["type"] == "state"][-1]
    assert new["game"] == 0 and new["setup"]["preset"] == "scat"
    shown = page.locator("#hand .card-slot").evaluate_all("s => s.map(e => e.dataset.card)")
    assert shown == new["table"]["hand"]
    draw.click()
    page.locator("#hand button:enabled").last.click()  # (the card just drawn)
    after = state_from(page, received, new["at"] + 2)
    assert after["game"] == 0
    assert [m for m in received if m["type"] == "moved"] == []
    assert "game=" not in page.url
    expect(page.locator("#hand .card-slot.new")).to_have_count(0)
    played = saves.read(the_save())
    assert played.seed == 7 and len(played.journal) >= new["at"] + 2
    kept = saves.read(the_save().with_name("saved-game.1.json"))
    assert kept.seed == 5 and len(kept.journal) == old_at
    assert json.loads(the_save().read_text())["journal"][new["at"]] == ["draw"]


#: Shares whose tenths toFixed wrote otherwise than the Oracle's words (12.75 is stored as
#: 12.7499…), and the ends.
EXAMPLES = {
    0.1275: "12.8",
    0.1225: "12.3",
    0.0215: "2.2",
    0.99995: "100.0",
    0.0: "0.0",
    1.0: "100.0",
}


def test_the_pages_percentages_round_as_the_oracles_words_do(page: Page, server: str) -> None:
    """pct() and the margin's ± in Chromium: every figure of four decimals from 0 to 1 written
    as the Oracle's reason writes it (hundredths of a percent, then tenths, each half up on
    integers), so that the table and the reason beside it agree digit for digit."""
    page.goto(server)
    shares = [k / 10_000 for k in range(10_001)] + list(EXAMPLES)
    written = page.evaluate(
        "async (xs) => { const o = await import('/static/oracle.js');"
        " return [xs.map(o.pct), xs.map(o.pts)]; }",
        shares,
    )
    assert written[0] == [f"{tenths(p)}%" for p in shares]
    assert written[1] == [f"±{tenths(p)}" for p in shares]
    for p, text in EXAMPLES.items():
        assert written[0][shares.index(p)] == f"{text}%"
        assert written[1][shares.index(p)] == f"±{text}"


def test_the_pages_figures_are_the_words_figures_digit_for_digit(page: Page, server: str) -> None:
    """The page's script and the Oracle's words (`thirtyone.oracle.rank`) write every figure of
    four decimals from -2 to 2 alike: in tenths of a percent and to two decimals (lives lost,
    points). Negative figures rounded toward +infinity on the page and away from zero in the
    words before; no figure shows as a dash."""
    from thirtyone.oracle.rank import percent_shown, two_places

    page.goto(server)
    figures = [k / 10_000 for k in range(-20_000, 20_001)]
    written = page.evaluate(
        "async (xs) => { const f = await import('/static/study/figures.js');"
        " return [xs.map(f.tenths), xs.map(f.hundredths), [f.tenths(NaN), f.hundredths(1/0)]]; }",
        figures,
    )
    assert written[0] == [percent_shown(x) for x in figures]
    assert written[1] == [two_places(x) for x in figures]
    assert written[2] == [percent_shown(float("nan")), two_places(float("inf"))] == ["—", "—"]


#: Each option of a select whose text is wider than the select shows (its content box less the
#: arrow's room), measured in the select's own font.
CUT_OFF = """(select) => {
  const style = getComputedStyle(select);
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const probe = document.createElement("span");
  probe.style.font = style.font;
  probe.style.whiteSpace = "pre";
  document.body.append(probe);
  const cut = [];
  for (const option of select.options) {
    probe.textContent = option.text;
    const width = probe.getBoundingClientRect().width;
    if (width > room - 20) cut.push(`${option.text}: ${width} px in ${room - 20}`);
  }
  probe.remove();
  return cut;
}"""


def test_the_new_game_form_on_a_phone_shows_whole_presets_and_rules_in_words(
    browser: Browser, server: str
) -> None:
    """At 390x844 every preset's name fits its select (it read "standard (rule document 000
    (rules.md", cut off), the rule options are shown in words with the rule's values behind
    them, and the page fits the phone."""
    context = phone_context(browser)
    page = context.new_page()
    open_table(page, server)
    form = page.get_by_role("form", name="New game")
    preset = form.get_by_label("Preset")
    expect(preset.locator("option")).to_have_count(7)
    assert preset.evaluate(CUT_OFF) == []
    assert preset.locator("option").all_inner_texts()[:2] == ["standard", "five-lives"]
    preset.select_option("scat")
    expect(form.locator("#f-preset-note")).to_contain_text("From rule document 003 (main rules).")
    shot(page, "new-game-390")
    form.get_by_text("More rule options").tap()
    placing = form.get_by_label("Result of a game")
    expect(placing.locator("option")).to_have_text(
        ["last one in wins", "ranked: points for the last three"]
    )
    assert placing.locator("option").evaluate_all("os => os.map(o => o.value)") == [
        "winner_takes_all",
        "ranked",
    ]
    tie = form.get_by_label("Knocker tied for lowest")
    tie.select_option(label="knocker safe, others tied pay 1")
    assert tie.input_value() == "others_pay"
    shown = form.locator("#f-more").inner_text()
    assert "_" not in shown, shown
    for select in form.locator("select").all():
        assert select.evaluate(CUT_OFF) == [], select.get_attribute("id")
    shot(page, "new-game-rules-390")
    fits(page)
    context.close()


def test_a_field_left_empty_is_named_and_the_tutors_points_say_how_to_turn_it_off(
    page: Page, server: str
) -> None:
    """An empty Seats field says so (it said "must be a whole number, not null"); the tutor's
    points at -3 say the bounds and how to play without it (it said "or null (off)")."""
    open_table(page, server)
    form = page.get_by_role("form", name="New game")
    form.get_by_label("Seats").fill("")
    form.get_by_role("button", name="Start the game").click()
    problem = page.locator("#form-problem")
    expect(problem).to_have_text("Seats is empty: give a whole number from 2 to 9")
    shot(page, "form-empty-seats-1280")
    form.get_by_label("Seats").fill("4")
    form.get_by_label("Tutor", exact=True).check()
    form.locator("#f-tutor").fill("")
    form.get_by_role("button", name="Start the game").click()
    expect(problem).to_contain_text("Tutor: the points are empty: give a number from 0.1 to 100")
    form.get_by_label("Tutor", exact=True).uncheck()
    start_game(page, Seed="3")
    # (Your turn on show first: a state still on its way from the game's start, which has no
    # tutor, would untick the box as check() looks whether it is ticked.)
    expect(page.get_by_role("button", name="Draw from the stock")).to_be_visible()
    oracle = page.get_by_role("complementary", name="Oracle")
    oracle.get_by_label("Tutor", exact=True).check()
    oracle.locator("#tutor-points").fill("-3")
    oracle.locator("#tutor-points").dispatch_event("change")
    expect(page.locator("#problem")).to_have_text(
        'Tutor: the points must be a number from 0.1 to 100, not "-3" '
        "(untick Tutor to play without the tutor)"
    )
    assert "null" not in page.locator("#problem").inner_text()


@pytest.mark.parametrize(
    ("opponents", "badges"),
    [("mixed", ["expert", "the table's rule", "expert"]), ("table", [])],
)
def test_each_seat_says_who_plays_it_unless_all_play_the_tables_rule(
    page: Page, server: str, opponents: str, badges: list[str]
) -> None:
    """At a table of experts and table players each seat's badge says which it is (experts at
    the odd seats, the table's rule at the even ones: docs/cli.md), as the terminal's opening
    line does; where every one plays the table's rule no seat says so (ruling 157)."""
    open_table(page, server)
    page.locator("#f-opponents").select_option(opponents)
    start_game(page, Seed="4")
    expect(page.locator("#seat-1")).to_be_visible()
    expect(page.locator("#seats .badge.kind")).to_have_text(badges)
