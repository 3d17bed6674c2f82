"""The table as a game goes on and ends, in a real browser (Debian's Chromium driven by
Playwright, as in test_web_browser.py): the winner's seat at the end, the last round's line
while you are out and the others play on, the Oracle's advice turned off in the middle of a
decision, and its answer, or a state of the position you moved from, coming after your move
went. Screenshots are kept in test-results/web/."""

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
    PLAYABLE,
    HeldSocket,
    draw_to_the_end,
    open_table,
    shot,
    start_game,
)
from playwright.sync_api import Page, expect

pytestmark = BROWSER_MARKS


def last_state(received: list[dict[str, Any]]) -> dict[str, Any]:
    state: dict[str, Any] = [m for m in received if m["type"] == "state"][-1]
    return state


def test_the_winner_is_not_shown_as_out(page: Page, server: str) -> None:
    """Two seats, one life each (seed 1: Alice wins the one round): at the end Alice's seat
    says she won the game, with nothing of "out" about it."""
    received = open_table(page, server)
    start_game(page, Seats="2", Lives="1", Seed="1")
    draw_to_the_end(page)
    over = last_state(received)
    winner = over["winner"]
    assert over["over"] and winner != over["you"]  # (else no seat's box shows the winner)
    page.locator("#over-dialog").get_by_role("button", name="Close").click()
    seat = page.locator(f"#seat-{winner}")
    expect(seat.locator(".badge")).to_contain_text(["won the game"])
    expect(seat).not_to_contain_text("out")
    expect(seat).not_to_have_class(re.compile(r"\bout\b"))
    # (Nothing is left to resume: the footer points to the review instead.)
    expect(page.locator("#save-note")).to_have_text(
        "The game is over: the Review page (or thirtyone review) goes through it."
    )
    shot(page, "game-over-winner")


#: Records, at each deal the page shows, the round's first line in the log and the line under
#: it that says how the round before ended (null: none shown).
WATCH_LAST_ROUND = """
window.lastRounds = [];
new MutationObserver(() => {
  const first = document.querySelector("#log li");
  const last = document.getElementById("last-result");
  if (!first || !first.textContent.startsWith("Round ")) return;
  const seen = window.lastRounds;
  if (seen.length && seen[seen.length - 1][0] === first.textContent) return;
  seen.push([first.textContent, last.hidden ? null : last.textContent]);
}).observe(document, { childList: true, subtree: true, characterData: true });
"""


def test_the_last_rounds_line_follows_the_rounds_played_while_you_are_out(
    page: Page, server: str
) -> None:
    """Four seats, two lives (seed 1: you are out in round 2, and two more rounds are played
    without you): at each deal, "Last round:" tells the round that has just ended, as the
    events told it, not one from before you went out."""
    page.add_init_script(WATCH_LAST_ROUND)
    received = open_table(page, server)
    start_game(page, Lives="2", Seed="1")
    draw_to_the_end(page)
    events = [m["event"] for m in received if m["type"] == "event"]
    out = next(e["round"] for e in events if e["kind"] == "out" and e["seat"] == 0)
    ends = [e for e in events if e["kind"] in ("round_end", "wash")]
    assert len([e for e in ends if e["round"] > out]) >= 2  # (else the case tests nothing)
    state = last_state(received)
    seen = page.evaluate("window.lastRounds")
    rounds = [int(text.split(":")[0].removeprefix("Round ")) for text, _ in seen]
    assert rounds == sorted(set(rounds)) and rounds[-1] == state["table"]["round"]
    assert len([r for r in rounds if r > out]) >= 2
    for (_, shown), number in zip(seen, rounds, strict=True):
        before = [e for e in ends if e["round"] < number]
        if not before:
            assert shown is None
            continue
        end = before[-1]
        expected = page.evaluate(
            "async ([e, names]) => { const s = await import('/static/story.js');"
            " return `Last round: ${s.sentence(e, new s.Names(names, 0), 'lives')}`; }",
            [end, state["names"]],
        )
        assert shown == expected, (number, shown, expected)
        for seat, lost in end.get("losses", {}).items():  # (the losers of that very round)
            if lost and int(seat) != 0:
                assert state["names"][int(seat)] in shown


def test_advice_turned_off_hides_what_was_shown_and_enter_no_longer_plays_it(
    page: Page, server: str
) -> None:
    """Advice on request, asked for (a) and on show; turned to "never": the advice and "Play
    the Oracle's best" go at once, and Enter plays nothing (it says how to ask). Asked for
    again (a), as the panel says, it comes back for this decision."""
    sent: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(json.loads(f))))
    received = open_table(page, server)
    expect(page.get_by_role("button", name="Start the game")).to_be_visible()
    page.get_by_role("form", name="New game").get_by_label("Advice").select_option("ask")
    start_game(page, Seed="4")
    expect(page.get_by_role("button", name="Draw from the stock")).to_be_visible()
    at = last_state(received)["at"]
    page.keyboard.press("a")
    oracle = page.get_by_role("complementary", name="Oracle")
    best = page.get_by_role("button", name=re.compile("^Play the Oracle's best"))
    expect(best).to_be_visible(timeout=120_000)
    oracle.get_by_label("Advice").select_option("never")
    expect(best).to_be_hidden()
    expect(oracle.locator("tbody tr")).to_have_count(0)
    expect(oracle).to_contain_text("The Oracle is off in this game")
    for _ in range(1200):  # (the game as the server has it now: a hang guard of two minutes)
        if last_state(received)["setup"]["advice"] == "never":
            break
        page.wait_for_timeout(100)
    expect(best).to_be_hidden()
    page.locator("#hand-area").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#problem")).to_contain_text("The Oracle is off in this game")
    assert [m for m in sent if m["type"] in ("act", "hint")] == [{"type": "hint", "at": at}]
    page.keyboard.press("a")
    expect(best).to_be_visible(timeout=120_000)
    expect(oracle.locator("tbody tr").first).to_be_visible()


def test_a_31_is_told_with_one_stop(page: Page, server: str) -> None:
    """Seed 10, you drawing and putting the new card down: Alice takes your discard and shows
    31, and everybody else loses a life. The next round's "Last round:" line says so with the
    31's own exclamation mark, not "31!." as it did."""
    received = open_table(page, server)
    start_game(page, Seed="10")
    names = last_state(received)["names"]
    page.get_by_role("button", name="Draw from the stock").click()
    page.locator("#hand button:enabled").last.click()  # (the card just drawn)
    page.locator("#result-dialog").get_by_role("button", name="Continue").click()
    expect(page.get_by_role("button", name="Draw from the stock")).to_be_visible()
    expect(page.locator("#last-result")).to_have_text(
        f"Last round: {names[1]} showed 31! You lose 1 life; {names[2]} loses 1 life;"
        f" {names[3]} loses 1 life."
    )


#: Records the text of every banner shown.
WATCH_BANNERS = """
window.banners = [];
new MutationObserver((records) => {
  for (const r of records) {
    if (r.target.id === "banner") window.banners.push(r.target.textContent);
  }
}).observe(document, { childList: true, subtree: true });
"""


def test_a_cadillac_is_told_by_its_name(page: Page, server: str) -> None:
    """Seed 10 at the cadillac table, you drawing and putting the new card down: Alice takes
    your discard and shows 31, as at the standard table. Rule document 003's Cadillac calls a
    31 a Cadillac (ruling 126): the banner, the round's result and the next round's "Last
    round:" line say so."""
    page.add_init_script(WATCH_BANNERS)
    received = open_table(page, server)
    page.get_by_role("form", name="New game").get_by_label("Preset").select_option("cadillac")
    start_game(page, Seed="10")
    names = last_state(received)["names"]
    page.get_by_role("button", name="Draw from the stock").click()
    page.locator("#hand button:enabled").last.click()  # (the card just drawn)
    result = page.locator("#result-dialog")
    expect(result.get_by_role("heading")).to_have_text(f"{names[1]} showed 31: a Cadillac!")
    result.get_by_role("button", name="Continue").click()
    expect(page.locator("#last-result")).to_contain_text(
        f"Last round: {names[1]} showed 31: a Cadillac! You lose 1 life;"
    )
    assert f"{names[1]} shows 31: a Cadillac!" in page.evaluate("window.banners")


def test_a_hidden_31_is_shown_as_it_counts(page: Page, server: str) -> None:
    """Seed 78 at scat, you drawing and putting the new card down: at your second turn the
    draw makes 31 with the 5D put down, and you keep it hidden. It counts 30 until it is shown
    (ruling 15), and your hand's score says so: "score 30 (31 hidden)", never "score 31"."""
    open_table(page, server)
    form = page.get_by_role("form", name="New game")
    form.get_by_label("Preset").select_option("scat")
    form.get_by_label("Advice").select_option("never")
    start_game(page, Seed="78")
    draw = page.get_by_role("button", name="Draw from the stock")
    draw.click()
    page.locator("#hand button:enabled").last.click()  # (the card just drawn)
    expect(draw).to_be_enabled(timeout=120_000)
    draw.click()
    page.locator('#hand button[data-card="5D"]').click()
    page.locator("#hide-dialog").get_by_role("button", name="Keep it hidden").click()
    expect(page.locator("#score")).to_have_text("score 30 (31 hidden)")


#: Records each time the line under the table says "Your turn." and how many of your actions'
#: buttons were on show at that moment.
WATCH_TURN_NOTE = """
window.turnNotes = [];
new MutationObserver(() => {
  const note = document.getElementById("turn-note");
  if (!note || note.textContent !== "Your turn.") return;
  window.turnNotes.push(document.querySelectorAll("#actions button").length);
}).observe(document, { childList: true, subtree: true, characterData: true });
"""


def test_your_turn_is_said_with_the_buttons_to_play_it(page: Page, server: str) -> None:
    """Four seats, you drawing your way through a game: whenever the page says "Your turn.",
    the buttons of your turn are there with it. It had said so as soon as the player before
    you had played, while their move was still on show and before the buttons came."""
    page.add_init_script(WATCH_TURN_NOTE)
    open_table(page, server)
    start_game(page, Lives="1", Seed="3")
    draw_to_the_end(page)
    notes = page.evaluate("window.turnNotes")
    assert notes  # (else the case tests nothing)
    assert 0 not in notes, notes


def test_one_ranked_point_is_said_in_the_singular(page: Page, server: str) -> None:
    """Three seats, one life each, ranked placing (seed 5): the game's end lists each player's
    points, one point as "1 point" (it said "1 points")."""
    received = open_table(page, server)
    form = page.get_by_role("form", name="New game")
    form.get_by_text("More rule options").click()
    form.get_by_label("Result of a game").select_option("ranked")
    start_game(page, Seats="3", Lives="1", Seed="5")
    draw_to_the_end(page)
    over = last_state(received)
    points = {int(seat): n for seat, n in over["points"].items()}  # (by seat, in JSON's text)
    assert 1 in points.values()  # (else nothing here is said in the singular)
    said = [
        f"{over['names'][s]} · {points[s]} point{'' if points[s] == 1 else 's'}"
        for s in over["placing"]
    ]
    expect(page.locator("#over-placing li")).to_have_text(said)
    shot(page, "game-over-ranked-points")


def test_advice_that_comes_after_your_move_is_sent_offers_nothing(page: Page, server: str) -> None:
    """The Oracle's answer and your move may cross: its figures for the decision you have just
    made come while the move is on its way. The panel may show them, but "Play the Oracle's
    best" stays disabled (it was enabled again, a button for a decision already made: the
    keyboard test once took it for a new decision). Made certain here by holding the server's
    advice back until the move is sent, and what follows the move until it is checked."""

    def on_sent(message: dict[str, Any]) -> None:
        if message["type"] == "act" and socket.advice:
            socket.holding = True  # (what follows the move waits until the button is checked)
            socket.send_advice()  # (the answer comes now, after the move went)

    socket = HeldSocket(page, on_sent)
    socket.hold_advice = True
    open_table(page, server)
    start_game(page, Seed="3")
    oracle = page.get_by_role("complementary", name="Oracle")
    expect(oracle).to_contain_text("The Oracle is thinking")
    # The full answer is kept apart before the move: pressed sooner, the move went with no
    # answer to send after it, and the answer, held as it came, never reached the page.
    for _ in range(1200):  # (a minute at most; waiting on the page lets its socket run)
        if any(json.loads(a).get("stage") == "full" for a in socket.advice):
            break
        page.wait_for_timeout(50)
    else:
        raise AssertionError("the Oracle's full answer never came")
    page.keyboard.press("d")  # a move of yours while the page has no answer
    expect(oracle).to_contain_text("Full precision")  # (the answer came, after the move)
    best = page.locator("#play-best")
    expect(best).to_be_disabled()
    socket.release()  # the game goes on as the server said
    expect(page.get_by_role("button", name=re.compile(r"^Put down"))).to_have_count(4)


def test_a_state_sent_before_your_move_was_answered_offers_no_move(page: Page, server: str) -> None:
    """A state of the position your move went from can come after the move was sent: the
    server's answer to the Oracle's mode changed a moment before the move. It is no answer to
    the move, and your buttons stay disabled (they were drawn enabled again for the decision
    already made: a second move went, refused as one for an earlier position). Made certain by
    holding the server's messages back from before the mode's change until the move is sent."""
    socket = HeldSocket(page)
    received = open_table(page, server)
    page.get_by_role("form", name="New game").get_by_label("Advice").select_option("never")
    start_game(page, Seed="3")
    draw = page.get_by_role("button", name="Draw from the stock")
    expect(draw).to_be_enabled()
    at = last_state(received)["at"]
    socket.holding = True
    oracle = page.get_by_role("complementary", name="Oracle")
    oracle.get_by_label("Advice").select_option("ask")
    draw.click()  # (the answer to the mode held back: it comes after the move)
    for _ in range(1200):  # (until the server has answered the mode: a hang guard of 2 minutes)
        if any(json.loads(m)["type"] == "state" for m in socket.held):
            break
        page.wait_for_timeout(100)
    page.evaluate("() => { document.getElementById('act-draw').before = true; }")
    first = socket.send_next()
    assert first["type"] == "state" and first["at"] == at and first["setup"]["advice"] == "ask"
    expect(draw).not_to_have_js_property("before", True)  # (drawn again by that state)
    expect(draw).to_be_disabled()
    expect(page.locator("#actions button:enabled, #hand button:enabled")).to_have_count(0)
    socket.release()  # the game goes on as the server said
    expect(page.get_by_role("button", name=re.compile(r"^Put down"))).to_have_count(4)
    assert [m for m in socket.sent if m["type"] == "act"] == [
        {"type": "act", "at": at, "action": "draw"}
    ]


LOSSES = """async ([e, you]) => {
  const m = await import('/static/story.js');
  return m.lossSentence(e, new m.Names(['Alice', 'Ben', 'Cara', 'Dan'], you), 'lives');
}"""


def test_a_31_shown_after_the_knock_is_said_apart_from_the_showdown(
    page: Page, server: str
) -> None:
    """At a table where a 31 shown after a knock costs everybody else 1 and the round goes on,
    the result says so before the losses, and the knock penalty is named only where the
    showdown charged it: Ben and Cara each showed 31 after your knock and Dan was lowest, so you
    lose 2 (their two 31s, no penalty: you were not lowest), each of them 1 (the other's 31),
    Dan 3 (both 31s, and 1 as the lowest). In the rules' own example (docs/rules.md, "31 in
    play"), three 31s and the knocker lowest: the knocker's 5 are 3 and the penalty's 2."""
    open_table(page, server)
    event = {
        "kind": "round_end",
        "end": "showdown",
        "knocker": 0,
        "shown_31": [1, 2],
        "losses": {"0": 2, "1": 1, "2": 1, "3": 3},
    }
    assert page.evaluate(LOSSES, [event, 0]) == (
        "Ben's 31 after the knock: everybody else loses 1 life. Cara's 31 after the knock: "
        "everybody else loses 1 life. You lose 2 lives; Ben loses 1 life; Cara loses 1 life; Dan "
        "loses 3 lives."
    )
    # Under Gin lives a letter is taken, before the losses as in them (ruling 313): it said
    # "Ben's 31 after the knock costs everybody else 1 letter. You take 2 letters; …".
    assert page.evaluate(LOSSES.replace("'lives'", "'letters'"), [event, 0]) == (
        "Ben's 31 after the knock: everybody else takes a letter. Cara's 31 after the knock: "
        "everybody else takes a letter. You take 2 letters; Ben takes a letter; Cara takes a "
        "letter; Dan takes 3 letters."
    )
    three = {**event, "shown_31": [1, 2, 3], "losses": {"0": 5, "1": 2, "2": 2, "3": 2}}
    assert page.evaluate(LOSSES, [three, 1]).endswith(
        "Alice loses 5 lives (the knock penalty); you lose 2 lives; Cara loses 2 lives; Dan loses "
        "2 lives."
    )
    plain = {"kind": "round_end", "end": "showdown", "knocker": 0, "losses": {"0": 2, "1": 0}}
    assert page.evaluate(LOSSES, [plain, 1]) == "Alice loses 2 lives (the knock penalty)."


END_TITLE = """async ([e, you]) => {
  const m = await import('/static/story.js');
  return m.endTitle(e, new m.Names(['Alice', 'Ben', 'Cara', 'Dan'], you));
}"""


def test_a_dealt_31_names_who_was_dealt_it(page: Page, server: str) -> None:
    """A round ended by a dealt 31 was titled "null was dealt 31!" in the result, the last
    round's line, the log and the live region: no one seat ends it (every hand dealt 31 is
    shown at once), so the event's ``by`` is empty. The title names the players dealt it, from
    the event's ``dealt``."""
    open_table(page, server)
    event = {"kind": "round_end", "end": "dealt_31", "by": None, "knocker": None}
    assert page.evaluate(END_TITLE, [{**event, "dealt": [1]}, 0]) == "Ben was dealt 31!"
    assert page.evaluate(END_TITLE, [{**event, "dealt": [0]}, 0]) == "You were dealt 31!"
    both = page.evaluate(END_TITLE, [{**event, "dealt": [0, 2]}, 0])
    assert both == "You and Cara were dealt 31!"
    three = page.evaluate(END_TITLE, [{**event, "dealt": [1, 2, 3]}, 0])
    assert three == "Ben, Cara and Dan were dealt 31!"
    # At a table that names them, each one's name (a 31 and three aces' 33 are not one "31").
    names = ["a Cadillac", "a Grand Cadillac"]
    two = page.evaluate(END_TITLE, [{**event, "dealt": [1, 3], "dealt_called": names}, 0])
    assert two == "Ben and Dan were dealt a Cadillac and a Grand Cadillac!"
    alike = {**event, "dealt": [0, 3], "dealt_called": [names[0]] * 2}
    assert page.evaluate(END_TITLE, [alike, 0]) == "You and Dan were each dealt a Cadillac!"
    # A game whose first round is a dealt 31 (seed 129: Alice's), from the server's event on.
    start = page.context.new_page()
    open_table(start, server)
    start_game(start, Seed="129")
    result = start.locator("#result-dialog")
    expect(result.get_by_role("heading")).to_have_text("Alice was dealt 31!")
    start.close()


#: Whether the banner is up (not hidden by the page's script), and whether it is seen.
BANNER_NOW = """() => {
  const box = document.getElementById("banner");
  return [!box.hidden, box.checkVisibility({ visibilityProperty: true })];
}"""


def test_no_banner_shows_under_an_open_dialog(page: Page, server: str) -> None:
    """The other players at once: a knock's or a 31's banner stays up for a moment, and the
    round's result opened meanwhile had it showing under the dialog's backdrop, over the seats
    beside the dialog. While a dialog is open the banner is not seen (ruling 294); and the
    round's result puts it away, so that "You knock!" does not come back over the next round's
    deal when Continue is pressed within its moment (ruling 309). (Seed 5: without ruling 309,
    the banner is up under some result.)"""
    open_table(page, server)
    start_game(page, Seed="5")
    results = 0
    for _ in range(400):
        page.locator(PLAYABLE).first.wait_for(timeout=120_000)
        if page.locator("#over-dialog[open]").count():
            break
        if page.locator("#result-dialog[open]").count():
            # (At one moment: the banner up, under the dialog, and whether it is seen.)
            up, seen = page.evaluate(BANNER_NOW)
            assert not up and not seen, page.locator("#banner").text_content()
            results += 1
            page.locator("#result-dialog").get_by_role("button", name="Continue").click()
        elif page.locator("#hand button:enabled").count():
            page.locator("#hand button:enabled").last.click()
        elif page.locator("#act-draw:enabled").count():
            page.locator("#act-draw").click()
        else:
            page.locator("#actions button:enabled").first.click()
    assert results > 0  # (else the case tests nothing)


def test_a_letter_is_taken_not_lost_under_gin_lives(page: Page, server: str) -> None:
    """Under Gin lives a player takes a letter (G, I, N and out: docs/rules.md, the terminal's
    "takes a letter"); the round's result said "You lose 1 letter; Ben loses 1 letter." It says
    the letters taken (ruling 311); lives are still lost."""
    open_table(page, server)
    event = {"kind": "round_end", "end": "showdown", "knocker": 1, "losses": {"0": 1, "2": 1}}
    said = page.evaluate(LOSSES.replace("'lives'", "'letters'"), [event, 0])
    assert said == "You take a letter; Cara takes a letter."
    two = {**event, "knocker": 0, "losses": {"0": 2, "1": 0}}
    assert page.evaluate(LOSSES.replace("'lives'", "'letters'"), [two, 1]) == (
        "Alice takes 2 letters (the knock penalty)."
    )
    assert page.evaluate(LOSSES, [event, 0]) == "You lose 1 life; Cara loses 1 life."


def test_a_banner_is_not_seen_under_keys_and_shows_again_after(page: Page, server: str) -> None:
    """Ruling 294 by itself: a banner still up when Keys (or Settings) opens is not seen while
    the dialog is open, and shows again for the rest of its moment when it closes. (The test
    above meets the round's result only, where ruling 309 puts the banner away: it passes
    without the style of ruling 294.)"""
    open_table(page, server)
    start_game(page, Seed="5")
    page.evaluate(
        "async () => { const m = await import('/static/motion.js');"
        " m.banner('Ben knocks!', 60000); }"
    )
    assert page.evaluate(BANNER_NOW) == [True, True]
    page.locator("#keys-button").click()
    expect(page.locator("#keys-dialog")).to_be_visible()
    assert page.evaluate(BANNER_NOW) == [True, False]
    page.keyboard.press("Escape")
    expect(page.locator("#keys-dialog")).not_to_be_visible()
    assert page.evaluate(BANNER_NOW) == [True, True]
