"""The table's manners in a real browser (as in test_web_browser.py), from a QA tester's round
in Chromium: the new-game form asked for while the others play stays on show, a dialog closed
gives Enter back to your hand, a refusal goes with the next move and is said in the buttons'
words, a wash loses nothing on screen, a Cadillac is named in the hide dialog too, the best for
the game is named on the terminal's rule, the tutor's cost is that of the figures it shows,
and the form's and the Settings' small things.
Screenshots are kept in test-results/web/."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

pytest.importorskip(
    "playwright", reason="the browser tests need playwright (the browser-test extra)"
)
pytest.importorskip("starlette", reason="the browser tests need the web extra")

from browser_helpers import (
    BROWSER_MARKS,
    HeldSocket,
    open_table,
    phone_context,
    shot,
    start_game,
)
from playwright.sync_api import Browser, Page, expect

pytestmark = BROWSER_MARKS


def card(code: str) -> str:
    """A card as the page writes it: ten as 10 (``TD``: ``10D``)."""
    return ("10" + code[1:]) if code.startswith("T") else code


def states(received: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in received if m["type"] == "state"]


def watch_sent(page: Page) -> list[dict[str, Any]]:
    """The messages the page sends, as it sends them."""
    sent: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(json.loads(f))))
    return sent


def test_new_game_asked_for_while_the_others_play_stays_on_show(page: Page, server: str) -> None:
    """Two seats at scat, the other player at the normal pace: you put a card down (4) and ask
    for a new game at once. The form stays on show while the other player's move comes and your
    next turn is dealt behind it (it had jumped back to the table at "Your turn."), with no
    result to click through; "Back to your game" brings the table, your turn on it. (What the
    server sends after your move is held back until the form is on show: it comes behind it
    whatever the machine's speed.)"""
    socket = HeldSocket(page)
    received = open_table(page, server)
    page.get_by_role("form", name="New game").get_by_label("Preset").select_option("scat")
    start_game(page, Seats="2", Seed="3")
    page.get_by_role("button", name="Settings").click()
    page.get_by_label("Pace of the other players").select_option("normal")
    page.get_by_role("button", name="Done").click()
    page.get_by_role("button", name="Draw from the stock").click()
    expect(page.locator("#hand button:enabled").first).to_be_visible()
    before = len(states(received))
    socket.holding = True
    page.keyboard.press("4")
    page.get_by_role("button", name="New game").click()
    form = page.get_by_role("form", name="New game")
    expect(form).to_be_visible()
    socket.release()  # the other player's move and your next turn, as the server sent them
    # (Your next turn has come to the page, drawn on the table behind the form.)
    next_turn = re.compile(r"^Your turn(\.| —)")
    expect(page.locator("#turn-note")).to_have_text(next_turn, timeout=120_000)
    assert len(states(received)) > before
    expect(form).to_be_visible()
    expect(page.get_by_role("region", name="Your hand")).to_be_hidden()
    expect(page.locator("dialog[open]")).to_have_count(0)
    shot(page, "new-game-while-the-others-play")
    page.get_by_role("button", name="Back to your game").click()
    expect(page.locator("#turn-note")).to_have_text(next_turn)
    expect(page.locator("#turn-note")).to_be_visible()
    expect(form).to_be_hidden()
    expect(page.get_by_role("region", name="Your hand")).to_be_focused()  # (Enter plays)


@pytest.mark.parametrize("dialog", ["Settings", "Keys", "?"])
def test_a_dialog_closed_gives_enter_back_to_your_hand(
    page: Page, server: str, dialog: str
) -> None:
    """Settings closed with Done, the keys closed with Escape (opened with the header's button
    or with ?): Enter then plays the Oracle's best, as the keys say. The focus went back to the
    header's button, and Enter opened the dialog again."""
    sent = watch_sent(page)
    received = open_table(page, server)
    start_game(page, Seed="5")
    best = page.get_by_role("button", name=re.compile("^Play the Oracle's best"))
    expect(best).to_be_enabled(timeout=120_000)
    at = states(received)[-1]["at"]
    if dialog == "Settings":
        page.get_by_role("button", name="Settings").click()
        page.locator("#settings-dialog").get_by_role("button", name="Done").click()
    else:
        if dialog == "Keys":
            page.get_by_role("button", name="Keys").click()
        else:
            page.keyboard.press("?")
        expect(page.locator("#keys-dialog")).to_be_visible()
        page.keyboard.press("Escape")
    expect(page.locator("dialog[open]")).to_have_count(0)
    expect(page.get_by_role("region", name="Your hand")).to_be_focused()
    page.keyboard.press("Enter")
    for _ in range(1200):  # (until the game has answered the move: a hang guard of 2 minutes)
        if any(m["at"] > at for m in states(received)):
            break
        page.wait_for_timeout(100)
    # (Not opened again by Enter; a round's result may be on show, if the move ended it.)
    expect(page.locator("#settings-dialog[open], #keys-dialog[open]")).to_have_count(0)
    assert [m["type"] for m in sent if m["type"] in ("act", "hint")] == ["act"]


def test_a_refusal_is_said_in_the_buttons_words_and_goes_with_the_next_move(
    page: Page, server: str
) -> None:
    """Keys that are no move now: at a turn's start x says what you may do as the buttons say it
    ("draw from the stock, take 7H or knock": it said "knock, draw, take"); at the put-down t says
    which cards may go down (it said "put 7S, put 9C, …"), and b names the blind showdown; a
    card's key (1 to 4) at a turn's start says the same as x, "You cannot put down now: …". Each
    message goes when a move is made (it stayed into the next turn)."""
    received = open_table(page, server)
    start_game(page, Seed="3")
    expect(page.get_by_role("button", name="Draw from the stock")).to_be_visible()
    state = states(received)[-1]
    top = card(state["table"]["top"])
    problem = page.locator("#problem")
    page.keyboard.press("x")
    expect(problem).to_have_text(
        f"You cannot decline now: draw from the stock, take {top} or knock."
    )
    page.keyboard.press("1")  # (a card's key, with no card to put down yet: it said nothing)
    expect(problem).to_have_text(
        f"You cannot put down now: draw from the stock, take {top} or knock."
    )
    shot(page, "refusal-at-the-start")
    page.keyboard.press("d")
    expect(problem).to_be_hidden()
    expect(page.locator("#hand button:enabled").first).to_be_visible()
    state = states(received)[-1]
    cards = [card(c) for c in [*state["table"]["hand"], state["drawn"]["card"]]]
    put = f"Put a card down: {cards[0]}, {cards[1]}, {cards[2]} or {cards[3]}."
    for key in "tkxb":
        page.keyboard.press(key)
        expect(problem).to_have_text(put)
    page.keyboard.press("4")
    expect(problem).to_be_hidden()


def test_the_blind_showdown_says_what_it_costs_and_who_called_it(page: Page, server: str) -> None:
    """Two seats, the blind showdown allowed, seed 5 (you play first, dealt QC TC JS = 20
    against Alice's 6D AS 2H = 11): before you look, the turn's note says what the call costs
    (docs/tables.md: the lowest dealt hand 1, a caller among the lowest 2; after looking, no
    first-turn knock); called, the result names its caller, and the caller, higher, is safe."""
    open_table(page, server)
    form = page.get_by_role("form", name="New game")
    form.get_by_text("More rule options").click()
    form.get_by_label("The first turn").select_option("blind")
    start_game(page, Seats="2", Seed="5")
    note = page.locator("#turn-note")
    expect(note).to_contain_text("the lowest dealt hand loses 1 life, and 2 lives if it is yours")
    expect(note).to_contain_text("no knock on this first turn")
    page.get_by_role("button", name="Call the blind showdown").click()
    result = page.locator("#result-dialog")
    expect(result).to_be_visible()
    expect(page.locator("#result-how")).to_have_text(
        "You called it before anybody looked: the lowest dealt hand loses 1 life, and 2 lives "
        "if it is the caller's."
    )
    expect(page.locator("#result-after")).to_have_text("Alice loses 1 life.")
    shot(page, "blind-called-result")


def test_the_blind_showdown_is_named_in_a_refusal(page: Page, server: str) -> None:
    """Two seats, the blind showdown allowed, seed 5 (you play first): before you look, d says
    "You cannot draw from the stock now: call the blind showdown or look at your cards"; once
    you look, b says "You cannot call the blind showdown now: …" (it said "blind")."""
    received = open_table(page, server)
    form = page.get_by_role("form", name="New game")
    form.get_by_text("More rule options").click()
    form.get_by_label("The first turn").select_option("blind")
    start_game(page, Seats="2", Seed="5")
    problem = page.locator("#problem")
    expect(page.get_by_role("button", name="Call the blind showdown")).to_be_visible()
    # Your turn, and the Oracle does not advise a blind call: the panel says so (it said "The
    # Oracle speaks on your turns." on your turn).
    expect(page.locator("#advice")).to_have_text(
        "The Oracle speaks once the cards are looked at: it does not advise a blind call."
    )
    page.keyboard.press("d")
    expect(problem).to_have_text(
        "You cannot draw from the stock now: call the blind showdown or look at your cards."
    )
    page.keyboard.press("l")
    expect(problem).to_be_hidden()
    expect(page.get_by_role("button", name="Draw from the stock")).to_be_visible()
    top = card(states(received)[-1]["table"]["top"])
    page.keyboard.press("b")
    expect(problem).to_have_text(
        f"You cannot call the blind showdown now: draw from the stock or take {top}."
    )


def test_a_wash_shows_nothing_lost(page: Page, server: str) -> None:
    """Two seats, one life each, seed 35: you knock at once and both hands score 14, so both
    would lose their last life and the round is a wash. The result says nothing is lost, and
    its table agrees: what the round would have cost is headed so and not marked as a loss,
    and each player still has 1 life (it showed the losses with a minus sign in red under
    "Lost", and no lives)."""
    open_table(page, server)
    start_game(page, Seats="2", Lives="1", Seed="35")
    page.get_by_role("button", name="Knock").click()
    result = page.locator("#result-dialog")
    expect(result.get_by_role("heading")).to_have_text("A wash: the round is dealt again")
    expect(result).to_contain_text("nothing is lost")
    heads = result.locator("thead th")
    expect(heads).to_have_text(["Player", "Hand", "Score", "Would have lost", "Now"])
    rows = result.locator("tbody tr")
    expect(rows).to_have_count(2)
    for i in range(2):
        expect(rows.nth(i).locator("td").last).to_have_text("1 life")
    assert "\N{MINUS SIGN}" not in result.inner_text()
    colours = rows.evaluate_all("rows => rows.map(r => getComputedStyle(r.cells[3]).color)")
    ink = result.evaluate("d => getComputedStyle(d).color")
    assert colours == [ink, ink]  # (none in the red of a loss)
    shot(page, "wash-result")
    result.get_by_role("button", name="Continue").click()
    expect(page.locator("#result-dialog")).to_be_hidden()


def test_the_hide_dialog_names_a_cadillac(page: Page, server: str) -> None:
    """Two seats at the cadillac table, seed 87: your first draw brings AH to 2C, KH, 10H, and
    putting the 2C down leaves a 31, which the table calls a Cadillac. The question whether to
    keep it hidden says so, as the banner and the log would ("That leaves you 31!" it said)."""
    open_table(page, server)
    form = page.get_by_role("form", name="New game")
    form.get_by_label("Preset").select_option("cadillac")
    form.get_by_label("Advice").select_option("never")
    start_game(page, Seats="2", Seed="87")
    page.get_by_role("button", name="Draw from the stock").click()
    page.get_by_role("button", name="Put down 2C").click()
    hide = page.locator("#hide-dialog")
    expect(hide.get_by_role("heading")).to_have_text("That leaves you a Cadillac (31)!")
    expect(hide).to_contain_text("if somebody else shows a Cadillac")
    shot(page, "hide-a-cadillac")
    hide.get_by_role("button", name="Keep it hidden").click()
    expect(page.locator("#score")).to_have_text("score 30 (31 hidden)")


def test_a_draw_with_a_31_kept_hidden_says_it_shows_it(page: Page, server: str) -> None:
    """Two seats at the Cadillac table, seed 87: draw, put down 2C, keep the 31 hidden. At your
    next turn the Oracle's best is to draw, safe because the draw keeps the 31 and shows it: its
    "Best" line, its "Then" cell and the reason say so (it read "Best: draw", 100.0% safe, and
    an empty cell)."""
    open_table(page, server)
    form = page.get_by_role("form", name="New game")
    form.get_by_label("Preset").select_option("cadillac")
    start_game(page, Seats="2", Seed="87")
    page.get_by_role("button", name="Draw from the stock").click()
    page.get_by_role("button", name="Put down 2C", exact=True).click()
    page.locator("#hide-dialog").get_by_role("button", name="Keep it hidden").click()
    expect(page.get_by_role("button", name="Draw from the stock")).to_be_visible(timeout=120_000)
    oracle = page.get_by_role("complementary", name="Oracle")
    expect(oracle.get_by_text("Full precision")).to_be_visible(timeout=120_000)
    expect(oracle.locator(".best-line")).to_have_text("Best: draw (then show your 31)")
    expect(oracle.locator('tr[data-option="draw"] td.plan')).to_have_text("show your 31")
    expect(oracle.locator(".reason")).to_contain_text("Draw from the stock, then showing your 31:")
    shot(page, "hidden-31-draw")


#: How many lines a label's own words take on screen (its text, not its control).
LABEL_LINES = """label => {
  const text = [...label.childNodes].find((n) => n.nodeType === 3 && n.textContent.trim());
  const range = document.createRange();
  range.selectNodeContents(text);
  return new Set([...range.getClientRects()].filter((r) => r.width > 1).map((r) => r.top)).size;
}"""

#: Whether a check box's words start beside the box (not on a line below it).
WORDS_BESIDE_THE_BOX = """label => {
  const text = [...label.childNodes].find((n) => n.nodeType === 3 && n.textContent.trim());
  const range = document.createRange();
  range.selectNodeContents(text);
  const first = [...range.getClientRects()].find((r) => r.width > 1);
  return first.left >= label.querySelector("input").getBoundingClientRect().right;
}"""


def test_the_settings_and_the_forms_small_things(page: Page, browser: Browser, server: str) -> None:
    """The "More rule options" summary opens with a disclosure triangle (as a flex box it had
    none and read as a heading); in Settings each control has a line of its own and "Pace of
    the other players" stays whole beside or above its control, on a wide screen and a
    phone's (it broke after "other")."""
    open_table(page, server)
    summary = page.get_by_role("form", name="New game").locator("summary")
    expect(summary).to_have_text("More rule options")
    assert summary.evaluate("s => getComputedStyle(s).display") == "list-item"
    phone = phone_context(browser)
    try:
        small = phone.new_page()
        open_table(small, server)
        for shown, name in ((page, "settings-1280"), (small, "settings-390")):
            shown.get_by_role("button", name="Settings").click()
            dialog = shown.locator("#settings-dialog")
            pace = dialog.locator("label", has_text="Pace of the other players")
            assert pace.evaluate(LABEL_LINES) == 1, name
            four = dialog.locator("label", has_text="Four-colour deck")
            box, below = four.bounding_box(), pace.bounding_box()
            assert box is not None and below is not None
            assert below["y"] >= box["y"] + box["height"], name  # (a line of its own)
            assert four.evaluate(WORDS_BESIDE_THE_BOX), name
            shot(shown, name)
    finally:
        phone.close()


def _valued(kind: Any, p: float, win: float, win_margin: float = 0.008, **kw: Any) -> Any:
    """An option of a made-up answer: safe ``p``, the game's chance ``win`` (its margin
    ``win_margin``)."""
    from thirtyone.oracle.answer import OptionAdvice

    return OptionAdvice(
        kind=kind, p_safe=p, margin=0.01, lives_lost=1 - p, p_win=win, p_win_margin=win_margin,
        **kw,
    )  # fmt: skip


def _terminal_lines(advice: Any) -> list[str]:
    """The terminal's advice panel for ``advice``, line by line, its spaces folded."""
    from rich.console import Console
    from thirtyone.terminal.advice_view import advice_panel_body

    console = Console(width=200, record=True, file=None, color_system=None)
    with console.capture() as cap:
        console.print(advice_panel_body(advice))
    return [" ".join(line.split()) for line in cap.get().splitlines()]


def test_the_pages_plan_words_are_the_terminals(page: Page, server: str) -> None:
    """What follows each option, in the page's words (``oracle.js``'s ``plan``) and the
    terminal's (``words.plan``), for the same answer: a put-down or a take that makes 31, a
    never plan after a hand of 30 kept (waiting for another's knock) and after anything else
    (playing for 31), a later knock score, a knock at the first chance, and a draw that shows a
    31 kept hidden."""
    import numpy as np
    from thirtyone.oracle.answer import Advice, Kind, OptionAdvice, Sweep
    from thirtyone.oracle.words import plan
    from thirtyone.web.views import advice as advice_json

    sweep = Sweep(np.array([20.0, 25.0, np.nan]), np.array([0.5] * 3), np.array([0.3] * 3))

    def option(kind: Kind, keeps: float | None, knock_at: float | None, **kw: Any) -> OptionAdvice:
        swept = (
            kind is not Kind.KNOCK
            and (keeps is None or keeps < 31)
            and not kw.get("shows_hidden_31")
        )  # (a draw that shows a hidden 31 ends the round: not swept)
        return OptionAdvice(
            kind=kind, p_safe=0.5, margin=0.01, lives_lost=0.3, keeps=keeps,
            swept=swept, knock_at=knock_at if swept else None, sweep=sweep if swept else None,
            **kw,
        )  # fmt: skip

    options = [
        option(Kind.PUT_DOWN, 31, None, discard="2C"),
        option(Kind.TAKE, 31, None, card="KH", discard="3D"),
        option(Kind.PUT_DOWN, 30, None, discard="4C"),
        option(Kind.DRAW, None, None),
        option(Kind.PUT_DOWN, 24, 27.0, discard="5C"),
        option(Kind.TAKE, 22, 20.0, card="9H", discard="6D"),
        option(Kind.DRAW, None, None, shows_hidden_31=True),
    ]
    wanted = [
        "makes 31 — show it",
        "makes 31 — show it",
        "never knock: wait for another's knock",
        "never knock: play for 31",
        "knock at 27 or more",
        "knock at the first chance",
        "show your 31",
    ]
    assert [plan(o) for o in options] == wanted
    sent = advice_json(Advice(options, [], "", 100, 1000), None)
    open_table(page, server)
    got = page.evaluate(
        "async (a) => { const m = await import('/static/oracle.js');"
        " return a.options.map((o) => m.plan(o)); }",
        sent,
    )
    assert got == wanted


def test_the_pages_best_lines_are_the_terminals(page: Page, server: str) -> None:
    """The "Best" line of a put-down that makes 31 and the "Best for the game" line of an
    option whose lead is within its margin, drawn by the page (``oracle.js``) and the terminal
    (``advice_view``) from one answer, say the same: "(it makes 31 — show it)", as the reason
    does (the page said "then makes 31", the terminal ": makes 31"), and "within ±0.8" (only
    the terminal said it), in points under ranked placing too."""
    from thirtyone.oracle.answer import Advice, Kind
    from thirtyone.web.views import advice as advice_json

    terminal, option = _terminal_lines, _valued

    def shown(advice: Advice) -> tuple[str, str]:
        # Drawn and read in one go: the game's own next state, drawn meanwhile, would draw the
        # panel again as its mode says (no advice), as it did in a loaded run.
        best, game = page.evaluate(
            "async (a) => { const m = await import('/static/oracle.js');"
            " m.drawAdvice({ full: a }, { shown: true, mode: 'always', thinking: true });"
            " const panel = document.getElementById('oracle');"
            " const line = (c) => panel.querySelector(c)?.innerText ?? null;"
            " return [line('.best-line'), line('.game-line') ?? '']; }",
            advice_json(advice, None),
        )
        assert best is not None, "the panel drew no Best line"
        return best, game

    open_table(page, server)
    page.get_by_role("form", name="New game").get_by_label("Advice").select_option("never")
    start_game(page, Seed="3")  # (the panel on show, with no advice of its own to draw)
    show = option(Kind.PUT_DOWN, 1.0, 0.9, discard="5D", keeps=31)
    keep = option(Kind.PUT_DOWN, 0.6, 0.5, discard="QS", keeps=21)
    made = Advice([show, keep], [], "Put down the 5D (it makes 31 — show it).", 300, 1000)
    best, _ = shown(made)
    assert best == "Best: put down 5D (it makes 31 — show it)"
    assert best in terminal(made)
    for points, within in ((False, "within ±0.8"), (True, "within ±0.01")):
        round_best = option(Kind.DRAW, 0.7, 0.388)
        game_best = option(Kind.PUT_DOWN, 0.6, 0.395, discard="4S", keeps=20)
        answer = Advice(
            [round_best, game_best], [], "", 300, 1000, best_game=game_best, points=points
        )
        _, line = shown(answer)
        assert line.endswith(f"for the round's best, {within})"), line
        said = next(x for x in terminal(answer) if x.startswith("Best for the game"))
        assert said.endswith(f", {within})"), said


def test_the_best_for_the_game_is_named_on_the_terminals_rule(page: Page, server: str) -> None:
    """An answer whose best for the game is another option with a figure no higher as shown
    (35.7% against 35.7%; 1.62 points against 1.62): the terminal names no best for the game,
    and neither does the page (it drew "Best for the game" whenever the option differed from
    the round's best), its ♔ on the best; a figure higher as shown is named by both, ♔ on it.
    The rule is the server's (``game_named``), which the page reads."""
    from thirtyone.oracle.answer import Advice, Kind
    from thirtyone.web.views import advice as advice_json

    def terminal(advice: Advice) -> str:
        return " ".join(" ".join(_terminal_lines(advice)).split())

    option = _valued

    def drawn(advice: Advice) -> tuple[str, str]:
        # (Drawn and read in one evaluation: the game's own next state would draw it again.)
        line, crowned = page.evaluate(
            "async (a) => { const m = await import('/static/oracle.js');"
            " m.drawAdvice({ full: a }, { shown: true, mode: 'always', thinking: true });"
            " const panel = document.getElementById('oracle');"
            " const crown = [...panel.querySelectorAll('tbody tr')]"
            "   .find((r) => r.cells[0].innerText.includes('♔'));"
            " return [panel.querySelector('.game-line')?.innerText ?? '',"
            "   crown?.dataset.option ?? '']; }",
            advice_json(advice, None),
        )
        return line, crowned

    open_table(page, server)
    page.get_by_role("form", name="New game").get_by_label("Advice").select_option("never")
    start_game(page, Seed="3")  # (the panel on show, with no advice of its own to draw)
    for points, (same, higher) in ((False, (0.35704, 0.361)), (True, (1.624, 1.631))):
        best = option(Kind.DRAW, 0.7, 0.357 if not points else 1.621)
        for figure, named in ((same, False), (higher, True)):
            other = option(Kind.PUT_DOWN, 0.6, figure, discard="7D", keeps=20)
            answer = Advice([best, other], [], "", 300, 1000, best_game=other, points=points)
            line, crowned = drawn(answer)
            assert ("Best for the game" in terminal(answer)) is named
            assert line.startswith("Best for the game: put down 7D") is named, line
            assert line == "" or named
            assert crowned == ("discard:7D" if named else "draw")


def test_the_tutors_cost_is_the_difference_of_the_figures_it_shows(page: Page, server: str) -> None:
    """Knocking at 20.36% to win the game against the best for the game's 24.04%: the tutor
    said "costs about 3.7 percentage points … (20.4% against 24.0% …)", the unrounded
    difference beside figures 3.6 apart; it now says the figures' own difference, as the
    reason does (``rank.shown_gap``)."""
    from thirtyone.oracle.answer import Advice, Kind
    from thirtyone.oracle.rank import shown_gap
    from thirtyone.web.views import advice as advice_json

    def option(kind: Kind, p: float, win: float, **kw: Any) -> Any:
        return _valued(kind, p, win, 0.001, **kw)

    draw = option(Kind.DRAW, 0.708, 0.238)
    knock = option(Kind.KNOCK, 0.659, 0.2036)
    take = option(Kind.TAKE, 0.624, 0.2404, card="4C", discard="3D")
    answer = Advice([draw, knock, take], [], "", 300, 1000, best_game=take)
    open_table(page, server)
    said = page.evaluate(
        "async (a) => { const m = await import('/static/oracle.js');"
        " return m.tutorText(m.tutorCheck(a, { action: 'knock' }, 0.5)); }",
        advice_json(answer, None),
    )
    assert f"{100 * shown_gap(0.2404, 0.2036):.1f}" == "3.6"
    assert said.startswith(
        "To knock costs about 3.6 percentage points of your chance to win the game "
        "(20.4% against 24.0% for the Oracle's best: take 4C, put down 3D)."
    ), said


def test_the_tutor_asks_of_a_take_before_its_put_down_is_chosen(page: Page, server: str) -> None:
    """The tutor asks when Take is pressed, before the player puts a card down: the take's
    figures are the take with the Oracle's put-down after it, and the question said "To take
    4C, put down 3D costs …", a put-down the player had not chosen. It names the take, and the
    put-down as the one its figures assume."""
    from thirtyone.oracle.answer import Advice, Kind
    from thirtyone.web.views import advice as advice_json

    draw = _valued(Kind.DRAW, 0.708, 0.30, 0.001)
    take = _valued(Kind.TAKE, 0.624, 0.20, 0.001, card="4C", discard="3D")
    answer = Advice([draw, take], [], "", 300, 1000, best_game=draw)
    open_table(page, server)
    said = page.evaluate(
        "async (a) => { const m = await import('/static/oracle.js');"
        " return m.tutorText(m.tutorCheck(a, { action: 'take' }, 0.5)); }",
        advice_json(answer, None),
    )
    assert said == (
        "To take 4C (then putting down 3D, as its figures do) costs about 10.0 percentage "
        "points of your chance to win the game (20.0% against 30.0% for the Oracle's best: "
        "draw). Play it anyway?"
    ), said


def test_the_page_says_a_put_down_keeps_a_31_kept_hidden(page: Page, server: str) -> None:
    """Ruling 314, on the page as in the terminal: a put-down leaving a 31 says "makes 31 — show
    it", and "keeps your 31 — show it" where the 31 was kept hidden already."""
    open_table(page, server)
    plans = page.evaluate(
        "async (os) => { const m = await import('/static/oracle.js');"
        " return os.map((o) => [m.plan(o), m.optionLabel(o)]); }",
        [
            {"kind": "discard", "option": "discard:8H", "discard": "8H", "keeps": 31},
            {
                "kind": "discard",
                "option": "discard:8H",
                "discard": "8H",
                "keeps": 31,
                "shows_hidden_31": True,
            },
        ],
    )
    assert [p for p, _ in plans] == ["makes 31 — show it", "keeps your 31 — show it"]


#: Every title the page gives its tab, as it gives it.
WATCH_TITLES = """
window.titles = [];
const own = Object.getOwnPropertyDescriptor(Document.prototype, "title");
Object.defineProperty(document, "title", {
  configurable: true,
  get() { return own.get.call(this); },
  set(value) { window.titles.push(value); own.set.call(this, value); },
});
"""


def test_the_tab_stops_saying_your_turn_once_you_have_moved(page: Page, server: str) -> None:
    """Two seats at scat, seed 3: you draw and put a card down. While the other player's move
    is on show, the tab no longer says "Your turn" (it did until the game came back with your
    next turn); with that turn it says so again."""
    page.add_init_script(WATCH_TITLES)
    open_table(page, server)
    page.get_by_role("form", name="New game").get_by_label("Preset").select_option("scat")
    start_game(page, Seats="2", Seed="3")
    expect(page).to_have_title("Your turn · thirtyone")
    page.get_by_role("button", name="Draw from the stock").click()
    expect(page.locator("#hand button:enabled").first).to_be_visible()
    before = page.evaluate("window.titles.length")
    page.keyboard.press("4")
    page.wait_for_function(
        "(n) => window.titles.slice(n).includes('Your turn · thirtyone')",
        arg=before,
        timeout=120_000,
    )
    expect(page.get_by_role("button", name="Draw from the stock")).to_be_visible()
    titles = page.evaluate(f"window.titles.slice({before})")
    assert titles[0] == "thirtyone · the table", titles  # (with your own move, at once)
    assert titles[-1] == "Your turn · thirtyone", titles


def test_one_deal_and_one_playout_are_said_in_the_singular(page: Page, server: str) -> None:
    """Ruling 359: an answer of one consistent deal and one playout an option. The panel said
    "Full precision: 1 consistent deals, 1 playouts an option." (and "First estimate (1
    deals)"); it says them as the terminal's report does (``words.counted``: "1 consistent
    deal · 1 playout per option"), and many in the plural."""
    from thirtyone.oracle.answer import Advice, Kind
    from thirtyone.web.views import advice as advice_json

    def status(deals: int, playouts: int, stage: str) -> str:
        # (Drawn and read in one evaluation: the game's own next state would draw it again.)
        answer = Advice([_valued(Kind.DRAW, 0.7, 0.4)], [], "", deals, playouts)
        said: str = page.evaluate(
            "async ([a, stage]) => { const m = await import('/static/oracle.js');"
            " m.drawAdvice({ [stage]: a }, { shown: true, mode: 'always', thinking: true });"
            " return document.querySelector('#advice .status').innerText; }",
            [advice_json(answer, None), stage],
        )
        return said

    open_table(page, server)
    page.get_by_role("form", name="New game").get_by_label("Advice").select_option("never")
    start_game(page, Seed="3")  # (the panel on show, with no advice of its own to draw)
    one = status(1, 1, "full")
    assert one == "Full precision: 1 consistent deal, 1 playout an option."
    from thirtyone.oracle.words import counted  # (the terminal's words: new with the ruling)

    assert counted(1, "consistent deal") in one and counted(1, "playout") in one
    assert status(1, 1, "quick") == "First estimate (1 deal): the full figures are on their way…"
    many = "Full precision: 10,000 consistent deals, 50,000 playouts an option."
    assert status(10_000, 50_000, "full") == many
