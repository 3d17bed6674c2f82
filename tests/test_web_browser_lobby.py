"""The start page in a real browser (Debian's Chromium driven by Playwright, as in
test_web_browser.py): the unfinished games listed once a game is over, with no restart of the
server; a long save path on a phone's screen; and a game in the address that is none, or one
that is not there. Screenshots are kept in test-results/web/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip(
    "playwright", reason="the browser tests need playwright (the browser-test extra)"
)
pytest.importorskip("starlette", reason="the browser tests need the web extra")

from browser_helpers import (
    BROWSER_MARKS,
    draw_to_the_end,
    fits,
    open_table,
    phone_context,
    serving,
    shot,
    start_game,
)
from playwright.sync_api import Browser, Page, expect
from thirtyone.store import saves

pytestmark = BROWSER_MARKS


def new_game_over_the_unfinished_one(page: Page, **fields: str) -> None:
    """New game, with ``fields``, keeping the game under way as a backup."""
    page.get_by_role("button", name="New game").click()
    form = page.get_by_role("form", name="New game")
    for label, value in fields.items():
        form.get_by_label(label, exact=True).fill(value)
    form.get_by_role("button", name="Start the game").click()
    confirm = page.get_by_role("dialog", name="An unfinished game is saved")
    confirm.get_by_role("button", name="Start the new game").click()
    expect(page.get_by_role("region", name="Your hand")).to_be_visible()


def test_the_unfinished_games_are_listed_once_a_game_is_over(page: Page, server: str) -> None:
    """A game left after a draw, kept as saved-game.1.json by a new game, which is played to
    its end: "New game…" at its end, and a reload, show the start page with the unfinished
    game to continue and the table to play again (they used to show the finished game, the
    backup out of reach until the server restarted); Continue opens the game where it was."""
    open_table(page, server)
    start_game(page, Seed="5")
    page.get_by_role("button", name="Draw from the stock").click()
    drawn = page.locator("#hand .card-slot.new")
    expect(drawn).to_be_visible()
    card = drawn.get_attribute("data-card")
    new_game_over_the_unfinished_one(page, Seats="2", Lives="1", Seed="1")
    draw_to_the_end(page)
    page.locator("#over-dialog").get_by_role("button", name="New game…").click()
    others = page.locator("#others-list li")
    for when in ("at-the-end", "reloaded"):
        expect(page.get_by_role("heading", name="Unfinished games")).to_be_visible()
        expect(others).to_have_count(1)
        expect(others).to_contain_text("saved-game.1.json")
        # (Named for its game: "Continue", "Continue" told a screen reader nothing.)
        expect(others.get_by_role("button")).to_have_accessible_name("Continue saved-game.1.json")
        expect(page.get_by_role("button", name="Play again at the same table")).to_be_visible()
        expect(page.locator("#lobby-note")).to_contain_text("over")
        expect(page.locator("#over-dialog")).to_be_hidden()
        shot(page, f"lobby-after-a-game-{when}")
        if when == "at-the-end":
            page.reload()
    others.get_by_role("button", name="Continue").click()
    again = page.locator("#hand .card-slot.new")
    expect(again).to_have_attribute("data-card", card or "")
    assert page.url.endswith("/?game=1")


def test_a_long_save_path_wraps_on_a_phone(browser: Browser, short_tmp: Path) -> None:
    """A save in a deep folder (a path with no place to break a line but its slashes): the
    start page, with no game and with a game over, and the table keep to a phone's width."""
    folder = short_tmp / "home" / "someone" / ".local" / "share" / "thirtyone"
    folder.mkdir(parents=True)
    save = folder / "saved-game.json"
    with serving(300, 1000, "--save-file", str(save)) as url:
        context = phone_context(browser)
        page = context.new_page()
        open_table(page, url)
        expect(page.locator("#lobby-note")).to_contain_text(str(save))
        fits(page)
        start_game(page, Seats="2", Lives="1", Seed="1")
        fits(page)
        draw_to_the_end(page)
        page.reload()
        expect(page.locator("#lobby-note")).to_contain_text(str(save))
        expect(page.locator("#lobby-note")).to_contain_text("over")
        shot(page, "lobby-long-path-390")
        fits(page)
        context.close()


#: What an address may say that names no game, as typed.
NO_GAMES = ["abc", "-1", "99999", "1001", "1.5", "", "0x1"]


def test_a_game_in_the_address_that_is_none_is_said(page: Page, server: str) -> None:
    """``?game=`` that is no game's number is said, with the bounds, and the page goes to "/"
    (it showed "/" and said nothing; "0x1" was read as 1). A backup that is not there is said
    so, without calling the game under way unsaved, and a link leads to it."""
    open_table(page, server)
    expect(page.get_by_role("button", name="Start the game")).to_be_visible()
    start_game(page, Seed="3")
    page.get_by_role("button", name="Draw from the stock").click()
    expect(page.locator("#hand .card-slot.new")).to_be_visible()
    for typed in NO_GAMES:
        page.goto(f"{server}?game={typed}")
        problem = page.locator("#problem")
        expect(problem).to_contain_text(f'"?game={typed}"')
        expect(problem).to_contain_text(f"a number from 0 to {saves.MAX_BACKUPS}")
        expect(page.locator("#hand .card-slot.new")).to_be_visible()  # (the game at "/")
        assert page.url == server, typed
    page.goto(f"{server}?game=1")
    note = page.locator("#lobby-note")
    expect(note).to_contain_text("There is no game 1")
    expect(note).not_to_contain_text(re.compile("No game is saved|Saved at"))
    page.get_by_role("link", name="Go to your main game").click()
    expect(page.locator("#hand .card-slot.new")).to_be_visible()


def test_a_huge_game_in_the_address_is_quoted_short(page: Page, server: str) -> None:
    """``?game=`` followed by 400 digits is said as any other game that is none, quoting the
    first 24 characters and "…": the whole number was quoted, hundreds of characters in the
    page's notice (ruling 293)."""
    open_table(page, server)
    expect(page.get_by_role("button", name="Start the game")).to_be_visible()
    page.goto(f"{server}?game={'9' * 400}")
    problem = page.locator("#problem")
    expect(problem).to_contain_text(f'"?game={"9" * 24}…" in the address is not a game')
    expect(problem).to_contain_text(f"a number from 0 to {saves.MAX_BACKUPS}")
    assert "9" * 25 not in (problem.text_content() or "")
    assert page.url == server
