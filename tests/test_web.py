"""The browser's front-end without a browser (Starlette's test client): the page and its files,
the guard at the door, the game over the WebSocket (what a page may know, bad messages, a whole
game, reloads and restarts, the terminal's saves both ways, new games over unfinished ones,
several pages at once), the Oracle's messages, and the `thirtyone serve` command."""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from click.testing import CliRunner
from helpers import build_deck
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from thirtyone import Action, Rules, Session
from thirtyone.cli.app import main
from thirtyone.store import record, saves
from thirtyone.web import views
from thirtyone.web.advice import QUICK_DEALS, Budget
from thirtyone.web.app import STATIC
from thirtyone.web.guard import own_hosts
from web_helpers import (
    Page,
    make_app,
    play_to_the_end,
    reserved_port,
    simple_move,
    start_server,
    stop,
    two_connections,
    two_pages,
)
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

ENV = {"COLUMNS": "100", "NO_COLOR": "1"}


# -- the page -------------------------------------------------------------------------------------


def test_the_page_is_served_with_its_files_and_nothing_from_elsewhere(app: Any) -> None:
    with TestClient(app) as http:
        page = http.get("/")
        assert page.status_code == 200
        policy = page.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "script-src 'self'" in policy
        html = page.text
        for name in ("Table", "Your hand", "Oracle", "Round log"):
            assert f'aria-label="{name}"' in html
        assert 'href="/review"' in html and 'href="/stats"' in html
        local = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
        assert len(local) >= 4
        for path in local:
            assert http.get(path).status_code == 200, path
        assert http.get("/static/table.js").headers["content-type"].startswith("text/javascript")
    # No address of another site anywhere in the page's files (the SVG namespace is a name).
    for path in STATIC.rglob("*"):
        if path.suffix in (".html", ".js", ".css") and "study" not in path.parts:
            text = path.read_text(encoding="utf-8").replace("http://www.w3.org/2000/svg", "")
            assert not re.search(r"https?://", text), path


# -- the guard ------------------------------------------------------------------------------------


def test_another_sites_page_cannot_play_or_change_anything(app: Any) -> None:
    with TestClient(app) as http:
        foreign_page = {"origin": "http://evil.example"}
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            http.websocket_connect("/ws", headers=foreign_page),
        ):
            pass
        assert refused.value.code == 1008
        with http.websocket_connect("/ws", headers={"origin": "http://testserver"}) as ws:
            assert Page(ws).hello()["type"] == "lobby"
        foreign = http.post("/", content=b"{}", headers={"origin": "http://evil.example"})
        assert foreign.status_code == 403 and "another site" in foreign.text
        cross = http.post("/", content=b"{}", headers={"sec-fetch-site": "cross-site"})
        assert cross.status_code == 403
        assert http.post("/", content=b"{}").status_code == 405  # let in: there is no such route
        assert http.post("/", headers={"content-length": str(2 << 20)}).status_code == 413
        chunked = http.post("/", content=iter([b"{}"]))
        assert chunked.status_code == 411
        assert "access-control-allow-origin" not in foreign.headers
        wrong_host = http.get("/", headers={"host": "evil.example"})
        assert wrong_host.status_code == 400
        css = http.get("/static/table.css")
        assert css.headers["x-frame-options"] == "DENY"
        assert css.headers["x-content-type-options"] == "nosniff"


def test_the_hosts_a_server_answers_to() -> None:
    hosts = own_hosts("127.0.0.1", 8031)
    assert hosts is not None
    assert {"127.0.0.1:8031", "localhost:8031", "[::1]:8031"} <= hosts
    assert "evil.example:8031" not in hosts
    assert own_hosts("0.0.0.0", 8031) is None
    assert own_hosts("::1", 9000) == frozenset({"127.0.0.1:9000", "localhost:9000", "[::1]:9000"})


# -- a game over the WebSocket --------------------------------------------------------------------


def test_a_page_is_told_only_what_your_seat_may_know(app: Any) -> None:
    with TestClient(app) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        assert page.hello()["found"] == "missing"
        state = page.start(seed=3)
        for _ in range(12):
            state = page.act(state, *simple_move(state))
        session = app.state.games.live[0].session
        round_ = session.round
        assert state["table"]["hand"] == round_.hand(session.seats.index(0))
        hidden = {
            card for i, seat in enumerate(session.seats) if seat != 0 for card in round_.hand(i)
        }
        now = state["table"]["round"]
        shown = set()  # cards the table saw them take this round
        for message in page.seen:
            if message["type"] != "event":
                continue
            event = message["event"]
            if event["kind"] == "turn" and event["seat"] != 0:
                assert "drew" not in event and "hid_31" not in event
                if event["round"] == now:
                    shown |= {event.get("card")}
        this_round = [
            m["event"]
            for m in page.seen
            if m["type"] == "event"
            and m["event"]["round"] == now
            and m["event"]["kind"] not in ("round_end", "wash")
        ]
        told = {k: v for k, v in state.items() if k != "last_result"}  # (an earlier round's end)
        for message in [*this_round, told]:
            text = json.dumps(message)
            leaked = [c for c in hidden - shown if re.search(rf'"{c}"', text)]
            assert leaked == [], message


def _two_seats(rules: Rules, deck: list[str]) -> tuple[Session, list[dict[str, Any]]]:
    """A session of two pushed seats, you (seat 0) first, dealt ``deck``; the events as the
    page is sent them."""
    session = Session(rules.replace(seats=2), seed=0, decks=[deck])
    session.dealer = 1
    sent: list[dict[str, Any]] = []
    session.add_listener(lambda e: sent.append(views.event(session, e)))
    session.deal()
    return session, sent


def test_your_hidden_31_is_sent_as_it_counts() -> None:
    """A 31 kept hidden counts 30 until it is shown (ruling 15): the table sent says the score
    your hand counts, 30, and that the 31 is hidden; the page shows "score 30 (31 hidden)"."""
    deck = build_deck([["AS", "QS", "2D"], ["AH", "9H", "4H"]], "8D", ["KS", "3C"])
    session, sent = _two_seats(Rules(may_hide_31=True), deck)
    assert views.table(session)["hidden_31"] is False and views.table(session)["score"] == 21
    session.act(Action("draw"))
    session.act(Action("hide", "2D"))
    table = sent[-1]["table"]
    assert (table["hand"], table["score"], table["hidden_31"]) == (["AS", "QS", "KS"], 30, True)
    assert "hid_31" in sent[-1]["event"] and "called" not in sent[-1]["event"]


def test_a_31_shown_at_the_cadillac_table_is_sent_with_its_name() -> None:
    """Rule document 003's Cadillac calls a 31 a Cadillac (ruling 126): the turn that shows it
    and the round it ends say its score and name, for the page's words; at scat they do not."""
    deck = build_deck([["AH", "9H", "4H"], ["AS", "QS", "2D"]], "8D", ["3C", "KS"])
    for preset, called in (("cadillac", {"shown": 31, "called": "a Cadillac"}), ("scat", {})):
        session, sent = _two_seats(Rules.preset(preset), deck)
        for action in (Action("draw"), Action("put", "3C"), Action("draw"), Action("put", "2D")):
            session.apply(action)  # (the round's end, no next deal: its log as a reload sends it)
        turn, end = sent[-2]["event"], sent[-1]["event"]
        assert turn["seat"] == 1 and turn["showed_31"] and end["end"] == "thirty_one"
        for event in (turn, end):
            assert {k: event[k] for k in ("shown", "called") if k in event} == called
        assert [views.public_event(e, session) for e in session.events[-2:]] == [turn, end]


def test_bad_messages_get_an_error_and_the_game_goes_on(app: Any) -> None:
    with TestClient(app) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        page.send(type="act", at=0, action="draw")
        assert "hello" in page.until("error")[-1]["message"]
        page.hello()
        state = page.start(seed=5)
        wrong: list[tuple[str, Any]] = [
            ("text", "this is not JSON"),
            ("text", "[1, 2]"),
            ("text", json.dumps({"type": "fly"})),
            ("text", json.dumps({"type": "act", "x": "y" * 70_000})),
            ("bytes", b"\x00\x01"),
            ("json", {"type": "act", "at": state["at"], "action": "dance"}),
            ("json", {"type": "act", "at": state["at"], "action": "decline"}),
            ("json", {"type": "act", "at": state["at"], "action": "put", "card": "ZZ"}),
            ("json", {"type": "act", "at": state["at"], "action": "put"}),
            ("json", {"type": "hello", "game": -1}),
            ("json", {"type": "mode", "advice": "loud"}),
        ]
        for how, what in wrong:
            if how == "text":
                ws.send_text(what)
            elif how == "bytes":
                ws.send_bytes(what)
            else:
                ws.send_json(what)
            error = page.next()
            assert error["type"] == "error" and error["message"], (how, what, error)
        assert "empty" in page_error(page, {"type": "act", "at": state["at"], "action": "decline"})
        # A value refused is quoted as every message quotes one: short, then "…" (it was cut
        # at 40 characters of its JSON, the closing quote lost and no "…" to say so).
        said = page_error(page, {"type": "act", "at": "9" * 400, "action": "draw"})
        assert said.endswith(f'not "{"9" * 24}"…'), said
        page.send(type="act", at=state["at"] - 1, action="draw")
        stale = page.until("error")
        assert "earlier position" in stale[-1]["message"]
        after = page.act(state, "draw")  # the game goes on, where it was
        assert after["at"] == state["at"] + 1 and after["pending"]["phase"] == "put_down"


def page_error(page: Page, message: dict[str, Any]) -> str:
    page.send(**message)
    text: str = page.until("error")[-1]["message"]
    return text


def test_a_whole_game_is_saved_kept_for_review_and_recorded(app: Any, save: Path) -> None:
    with TestClient(app) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        page.hello()
        last = play_to_the_end(page, page.start(seed=8, name="Mia"))
    assert last["over"] and last["winner"] is not None
    assert sorted(last["placing"]) == [0, 1, 2, 3] and last["placing"][0] == last["winner"]
    saved = saves.read(save)
    assert saved.over and saved.names[0] == "Mia"
    kept = saves.read(saves.last_game_path())
    assert kept.journal == saved.journal and len(saved.journal) == last["at"]
    games = record.read(record.default_path()).games
    assert len(games) == 1 and games[0].placing == last["placing"]
    assert any("1 game" in line for line in last["record"])
    ended = [m["event"] for m in page.seen if m["type"] == "event"]
    assert ended[-1]["kind"] == "game_over" and ended[-1]["winner"] == last["winner"]


def test_a_reload_and_a_server_restart_resume_at_the_same_card(save: Path) -> None:
    app = make_app(save)
    with TestClient(app) as http:
        with http.websocket_connect("/ws") as ws:
            page = Page(ws)
            page.hello()
            state = page.start(seed=21)
            state = page.act(state, "draw")
            drawn = state["drawn"]
            assert drawn["from"] == "stock"
        with http.websocket_connect("/ws") as ws:  # the page reloaded
            again = Page(ws).hello()
        assert again["at"] == state["at"] and again["drawn"] == drawn
        assert again["table"]["hand"] == state["table"]["hand"]
    restarted = make_app(save)  # a new server, the same save
    with TestClient(restarted) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        resumed = page.hello()
        assert resumed["at"] == state["at"] and resumed["drawn"] == drawn
        assert resumed["pending"]["phase"] == "put_down"
        assert {"kind": "draw"} not in resumed["pending"]["legal"]  # no second draw
        after = page.act(resumed, "put", drawn["card"])
        assert after["at"] > resumed["at"]


def terminal(args: list[str], text: str, save: Path) -> str:
    result = CliRunner().invoke(
        main, ["play", "--save-file", str(save), *args], input=text, env=ENV
    )
    assert result.exit_code == 0, result.output
    return result.output


def test_a_game_goes_from_the_terminal_to_the_browser_and_back(save: Path) -> None:
    terminal(["--no-oracle", "--seed", "11"], "d\n4\nd\nq\n", save)  # left after a draw
    expected = saves.replayed(saves.read(save))
    card, source = expected.seat_view().drawn or ("", "")
    app = make_app(save)
    with TestClient(app) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        state = page.hello()
        assert state["type"] == "state" and state["at"] == len(expected.journal)
        assert state["drawn"] == {"card": card, "from": source}
        assert state["setup"]["advice"] == "never"
        state = page.act(state, "put", card)
        state = page.act(state, *simple_move(state))  # a draw: left at the put-down again
        at = state["at"]
        # Back in the terminal, while the browser still holds the game.
        output = terminal(["--resume"], "1\nd\n4\nq\n", save)
        assert "Resumed: round" in output and "at the put-down of your turn" in output
        played = len(saves.read(save).journal)
        assert played > at
        page.send(type="act", at=at, action="put", card=state["drawn"]["card"])
        told = page.until("state")
        assert any(m["type"] == "notice" and "elsewhere" in m["message"] for m in told)
        assert told[-1]["at"] == played  # the game as the terminal left it, nothing replayed twice


def test_a_new_game_never_replaces_an_unfinished_one(app: Any, save: Path) -> None:
    with two_pages(app) as (first, second, state):
        before = save.read_bytes()
        second.send(type="new", setup={"seed": 2, "advice": "never"})
        asked = second.until("confirm_new")[-1]
        assert asked["backup"] == "saved-game.1.json" and asked["standing"].startswith("round 1")
        assert save.read_bytes() == before  # nothing changed by asking
        second.send(type="new", setup={"seed": 2, "advice": "never"}, keep=True)
        new = second.settled()[-1]
        assert new["game"] == 0 and saves.read(save).seed == 2
        moved = first.until("moved")[-1]
        assert moved["game"] == 1 and "saved-game.1.json" in moved["message"]
        kept = saves.read(save.with_name("saved-game.1.json"))
        assert kept.seed == 1 and len(kept.journal) == state["at"]
        resumed = first.hello(1)
        assert resumed["game"] == 1 and resumed["drawn"] == state["drawn"]
        lobby = first.hello(7)
        assert lobby["type"] == "lobby" and [g["game"] for g in lobby["others"]] == [1]


def test_a_save_that_cannot_be_replayed_is_kept_aside_not_lost(app: Any, save: Path) -> None:
    good = saves.SavedGame(Rules.standard(), 4, ["You", "Alice", "Ben", "Cara"])
    good.journal = [["knock"], ["put", "AS"]]
    save.write_text(good.to_json())
    before = save.read_bytes()
    with TestClient(app) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        lobby = page.hello()
        assert lobby["found"] == "damaged" and "cannot be replayed" in lobby["why"]
        page.send(type="new", setup={"seed": 2, "advice": "never"})
        asked = page.until("confirm_new")[-1]
        assert asked["standing"] is None and "cannot be replayed" in asked["why"]
        page.send(type="new", setup={"seed": 2, "advice": "never"}, keep=True)
        page.settled()
    assert save.with_name("saved-game.1.json").read_bytes() == before


def test_two_pages_watch_one_game_and_each_move_is_played_once(app: Any) -> None:
    with two_connections(app) as (first, second):
        first.hello()
        state = first.start(seed=9)
        seen = second.hello()
        assert seen["at"] == state["at"]
        after = first.act(state, "draw")
        watched = second.until("state")
        assert watched[-1]["at"] == after["at"] and watched[-1]["drawn"] == after["drawn"]
        second.send(type="act", at=state["at"], action="draw")
        assert "earlier position" in second.until("error")[-1]["message"]


def test_a_new_games_deal_and_first_turns_come_after_the_game_they_are_played_on(
    app: Any,
) -> None:
    """The page has the game (nothing dealt yet) before its deal and the computer players'
    first turns, so that it can play them as they happen; then the game as it stands."""
    with TestClient(app) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        page.hello()
        page.send(type="new", setup={"seed": 10, "advice": "never"})
        before = page.until("state")
        assert [m["type"] for m in before if m["type"] == "event"] == []
        first = before[-1]
        assert first["table"]["round"] == 0 and first["pending"] is None and first["at"] == 0
        then = page.until("state")
        events = [m["event"] for m in then if m["type"] == "event"]
        deal = events[0]
        assert deal["kind"] == "deal"
        ahead = deal["seats"][: deal["seats"].index(0)]  # (the seats that play before you)
        turns = [e["seat"] for e in events if e["kind"] == "turn"]
        assert turns == ahead and len(turns) > 0
        assert then[-1]["pending"]["seat"] == 0 and then[-1]["at"] > 0


def test_the_new_game_form_is_checked_field_by_field(app: Any, save: Path) -> None:
    # (Each field named as the form labels it.)
    wrong = {
        "seats": ({"rules": {"seats": 12}}, "Seats"),
        "name": ({"name": "Eve\x1b[31m"}, "Your name"),
        "empty": ({"name": "  "}, "Your name"),
        "seed": ({"seed": "abc"}, "Seed"),
        "big seed": ({"seed": 2**70}, "Seed"),
        "opponents": ({"opponents": "wolves"}, "Opponents"),
        "preset": ({"preset": "poker"}, "Preset"),
        "tutor": ({"tutor": 0}, "Tutor"),
        "rule": ({"rules": {"jokers": True}}, "jokers"),
    }
    with TestClient(app) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        page.hello()
        for case, (form, named) in wrong.items():
            page.send(type="new", setup=form)
            message = page.until("error")[-1]["message"]
            assert named in message, (case, message)
    assert not save.exists()


# -- the Oracle -----------------------------------------------------------------------------------


def test_the_oracle_gives_a_first_estimate_then_full_precision(save: Path) -> None:
    app = make_app(save, Budget(3000, 6000))
    with TestClient(app) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        page.hello()
        page.send(type="new", setup={"seed": 4, "advice": "always"})
        state = page.settled()[-1]
        quick = page.until("advice", stage="quick")[-1]
        full = page.until("advice", stage="full")[-1]
        assert quick["at"] == full["at"] == state["at"]
        assert quick["advice"]["deals"] <= QUICK_DEALS < full["advice"]["deals"]
        advice = full["advice"]
        legal = {a["kind"] for a in state["pending"]["legal"]}
        assert {o["kind"] for o in advice["options"]} <= legal | {"discard"}
        assert advice["best"] == advice["options"][0]["option"]
        for option in advice["options"]:
            assert 0 <= option["p_safe"] <= 1 and option["margin"] > 0
            assert 0 <= option["p_win"] <= 1 and option["describe"]
        assert advice["reason"] and "best_game" in advice
        # The record keeps the advice with the decision that follows it.
        best = advice["options"][0]
        page.act(state, best["kind"] if best["kind"] != "discard" else "put")
        decision = saves.read(save).decisions[0]
        assert decision["best"] == advice["best"] and decision["played"] == best["option"]


def test_a_game_started_at_another_precision_is_advised_at_it(save: Path) -> None:
    """A save that keeps the Oracle's precision it was started with (``thirtyone play
    --oracle-deals 500 --oracle-playouts 1000``) is advised at it in the browser too, as a
    resume in the terminal is (it was advised at the server's); unless the server was given a
    precision of its own, which applies to every game."""
    with TestClient(make_app(save)) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        page.hello()
        page.send(type="new", setup={"seed": 4, "advice": "always"})
        page.settled()
    data = json.loads(save.read_text())
    data["oracle"] = {"deals": 500, "playouts": 1000}
    save.write_text(json.dumps(data))
    for budget, most in ((Budget(3000, 6000), 500), (Budget(3000, 6000, given=True), 3000)):
        with TestClient(make_app(save, budget)) as http, http.websocket_connect("/ws") as ws:
            page = Page(ws)
            page.hello()
            full = page.until("advice", stage="full")[-1]["advice"]
            assert full["deals"] <= most and (most == 500 or full["deals"] > 500), budget
            if most == 500:
                assert not [m for m in page.seen if m.get("stage") == "quick"]


def test_the_first_estimate_is_bounded_to_about_150_ms_and_the_full_query_by_its_settings() -> None:
    """The command's default budget: a first estimate of at most 1,000 deals and 2,000 playouts
    stopped at 0.15 s (the core's anytime bound), then the full query with the server's
    settings (five seconds at most); a budget no larger than the estimate's is asked once."""
    from thirtyone import _core
    from thirtyone.web.advice import QUICK_PLAYOUTS, QUICK_TIME

    assert QUICK_TIME <= 0.15
    default = Budget()
    assert (default.deals, default.playouts) == (_core.DEFAULT_DEALS, _core.DEFAULT_PLAYOUTS)
    assert default.stages() == [
        ("quick", QUICK_DEALS, QUICK_PLAYOUTS, QUICK_TIME),
        ("full", _core.DEFAULT_DEALS, _core.DEFAULT_PLAYOUTS, 5.0),
    ]
    assert Budget(300, 1000).stages() == [("full", 300, 1000, 5.0)]


def test_the_advice_json_is_the_oracles_own_with_its_words() -> None:
    import thirtyone

    session = thirtyone.Session(thirtyone.Rules.standard(), seed=2)
    session.advance()
    found = thirtyone.advise(session, deals=300, playouts=800, seed=1)
    shown = views.advice(found, "Why: a line.")
    documented = found.to_dict()
    for key, value in documented.items():
        if key == "options":
            for mine, theirs in zip(shown["options"], value, strict=True):
                assert {k: mine[k] for k in theirs} == theirs
        else:
            assert shown[key] == value
    assert shown["why"] == "Why: a line." and shown["unit"] == "lives"
    json.dumps(shown, allow_nan=False)


def test_advice_on_request_and_the_tutor_are_kept_in_the_save(app: Any, save: Path) -> None:
    with TestClient(app) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        page.hello()
        state = page.start(seed=6, advice="ask")
        state = page.act(state, "draw")  # no advice was sent for the first decision
        assert [m for m in page.seen if m["type"] == "advice"] == []
        page.send(type="hint", at=state["at"])
        asked = page.until("advice", stage="full")[-1]
        assert asked["at"] == state["at"]
        page.send(type="mode", advice="never", tutor=7.5)
        mode = page.until("state")[-1]
        assert mode["setup"]["advice"] == "never" and mode["setup"]["tutor"] == 7.5
        page.send(type="mode", advice="always", tutor=500)
        assert "tutor" in page.until("error")[-1]["message"]
    saved = saves.read(save)
    assert saved.advice == "never" and saved.tutor == 7.5
    # The terminal plays the save and keeps the tutor for the browser.
    terminal(["--resume"], "1\nq\n", save)
    assert saves.read(save).tutor == 7.5


def test_the_form_offers_every_preset_and_option() -> None:
    options = views.setup_options()
    assert [p["name"] for p in options["presets"]] == list(Rules.PRESETS)
    names = {o["name"]: o for o in options["options"]}
    assert set(names) == set(Rules.option_names())
    assert names["knock_penalty"]["choices"] == [1, 2]
    assert names["seats"]["min"] == 2 and names["seats"]["max"] == 9
    assert names["county"]["type"] == "bool"
    assert "blind" in names["first_turn_knock"]["choices"]
    assert options["opponents"] == ["table", "expert", "mixed"]


# -- thirtyone serve ------------------------------------------------------------------------------


def test_serve_without_the_web_extra_says_how_to_install_it() -> None:
    code = (
        "import sys\n"
        "sys.modules['uvicorn'] = None\n"
        "from thirtyone.cli import main\n"
        "main(['serve', '--no-browser'])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 2
    assert 'pip install "thirtyone[web]"' in out.stderr and "uvicorn" in out.stderr
    assert "Traceback" not in out.stderr


@pytest.mark.posix_only
def test_serve_prints_its_address_serves_the_table_and_stops_on_ctrl_c() -> None:
    with reserved_port() as port:
        proc, url = start_server("--port", str(port), "--oracle-deals", "500")
    try:
        assert url == f"http://127.0.0.1:{port}/"
        with urllib.request.urlopen(url, timeout=60) as answer:
            assert answer.status == 200 and b"Your hand" in answer.read()
        address = f"ws://127.0.0.1:{port}/ws"
        with connect(address, open_timeout=60) as ws:  # a message far too long: let go
            ws.send("x" * (2 << 20))
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=60)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        with connect(address, open_timeout=60) as ws:  # and the server goes on
            ws.send(json.dumps({"type": "hello", "game": 0}))
            assert json.loads(ws.recv(timeout=60))["type"] == "welcome"
    finally:
        out, err = stop(proc)
    assert proc.returncode == 0, err
    assert out.strip().endswith("Stopped.") and "Traceback" not in err


@pytest.mark.posix_only
def test_serve_on_every_address_warns_and_still_refuses_other_sites() -> None:
    with reserved_port() as port:
        proc, url = start_server("--host", "0.0.0.0", "--port", str(port))
    try:
        request = urllib.request.Request(url, method="POST", data=b"{}")
        request.add_header("Origin", "http://evil.example")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=60)
        assert refused.value.code == 403
    finally:
        _, err = stop(proc)
    assert "Warning: listening on 0.0.0.0" in err


def test_serve_refuses_a_busy_port_and_a_save_file_that_is_not_a_save(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--no-browser", "--port", str(port)])
    assert result.exit_code == 2 and f"port {port}: it is in use" in result.output
    result = CliRunner().invoke(main, ["serve", "--no-browser", "--save-file", str(tmp_path)])
    assert result.exit_code == 2 and "is a folder, not a thirtyone save" in result.output
    result = CliRunner().invoke(main, ["serve", "--oracle-deals", "0"])
    assert result.exit_code == 2 and "deals" in result.output
    assert "--no-browser" in CliRunner().invoke(main, ["serve", "-h"]).output


def test_serve_without_a_port_takes_8031_or_else_one_that_is_free() -> None:
    """No --port: 8031 when it is free (a page left open finds the server after a restart),
    else a free port the system gives, not an error."""
    from thirtyone.web.server import DEFAULT_PORT, listen

    with contextlib.ExitStack() as held:
        try:
            busy = held.enter_context(socket.socket())
            busy.bind(("127.0.0.1", DEFAULT_PORT))
            busy.listen()
        except OSError:  # (held already by some other program: busy all the same)
            pass
        sock = held.enter_context(listen("127.0.0.1", None))
        port = sock.getsockname()[1]
        assert port not in (DEFAULT_PORT, 0)
        with socket.create_connection(("127.0.0.1", port), timeout=60):
            pass  # (it listens there)


def test_at_a_blind_table_your_cards_stay_hidden_until_you_look(app: Any) -> None:
    with TestClient(app) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        page.hello()
        rules = {"seats": 2, "first_turn_knock": "blind"}
        # A seed whose dealer is the other seat: you play first.
        seed = next(s for s in range(100) if Session(Rules(**rules), seed=s).dealer == 1)
        page.send(type="new", setup={"rules": rules, "advice": "always", "seed": seed})
        state = page.settled()[-1]
        assert state["pending"]["phase"] == "blind"
        assert state["table"]["hand"] is None and state["table"]["score"] is None
        assert {a["kind"] for a in state["pending"]["legal"]} == {"blind", "look"}
        since = len(page.seen)
        looked = page.act(state, "look")
        assert looked["pending"]["phase"] == "start" and len(looked["table"]["hand"]) == 3
        page.until("advice", at=looked["at"])
        asked = [m["at"] for m in page.seen[since:] if m["type"] == "advice"]
        assert state["at"] not in asked  # the Oracle never advises the blind call


def test_expert_opponents_play_off_the_event_loop_and_each_move_is_told(app: Any) -> None:
    with TestClient(app) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        page.hello()
        state = page.start(seed=17, opponents="mixed")
        for _ in range(6):
            state = page.act(state, *simple_move(state))
        turns = [m["event"] for m in page.seen if m["type"] == "event"]
        assert {e["seat"] for e in turns if e["kind"] == "turn"} >= {0, 1, 2, 3}
        assert saves.read(app.state.games.path).opponents == "mixed"


def luminance(colour: str) -> float:
    """WCAG's relative luminance of ``#rrggbb``."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_pages_text_keeps_a_contrast_of_at_least_4_5_to_1() -> None:
    css = (STATIC / "base.css").read_text(encoding="utf-8")
    colour = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", css))
    colour["white"] = "#ffffff"
    pairs = [
        ("on-felt", "felt"),  # the table's text (the seats' darker panels only add contrast)
        ("on-felt-muted", "felt"),
        ("accent", "felt"),  # your score, "Your turn."
        ("on-felt", "felt-dark"),
        ("on-felt-muted", "felt-dark"),
        ("ink", "paper"),  # the Oracle's panel, the form, the dialogs
        ("ink-muted", "paper"),
        ("good", "paper"),
        ("blue", "paper"),
        ("bad", "paper"),
        ("ink", "accent"),  # the main buttons
        ("red", "white"),  # the cards' suits, two colours and four
        ("green", "white"),
        ("blue", "white"),
    ]
    low = [(a, b, round(contrast(colour[a], colour[b]), 2)) for a, b in pairs]
    assert [p for p in low if p[2] < 4.5] == [], low


def test_the_routes_of_the_api_module_are_served_behind_the_guard(
    monkeypatch: pytest.MonkeyPatch, save: Path
) -> None:
    """The study pages and the Oracle over HTTP come from ``thirtyone.web.api.routes`` when
    the package has that module (here a stand-in), behind the same door."""
    import importlib.machinery
    import types

    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    async def posted(request: Any) -> PlainTextResponse:
        return PlainTextResponse("done")

    api = types.ModuleType("thirtyone.web.api")
    api.__spec__ = importlib.machinery.ModuleSpec("thirtyone.web.api", None)
    api.routes = [Route("/api/stand-in", posted, methods=["POST"])]  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "thirtyone.web.api", api)
    with TestClient(make_app(save)) as http:
        assert http.post("/api/stand-in", content=b"{}").text == "done"
        foreign = http.post("/api/stand-in", content=b"{}", headers={"origin": "http://a.example"})
        assert foreign.status_code == 403


@pytest.mark.posix_only
def test_serve_opens_the_browser_at_its_address(tmp_path: Path) -> None:
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser.py"
    browser.write_text(f"import sys\nopen({str(opened)!r}, 'w').write(sys.argv[1])\n")
    env = {**os.environ, "BROWSER": f"{sys.executable} {browser} %s"}
    with reserved_port() as port:  # (until the server listens: it prints its address then)
        proc = subprocess.Popen(
            [sys.executable, "-m", "thirtyone", "serve", "--port", str(port)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert proc.stdout is not None
        line = proc.stdout.readline()
    try:
        url = re.search(r"http://\S+/", line)
        assert url is not None
        for _ in range(600):  # (waits for the browser's file, a minute at most)
            if opened.exists() and opened.read_text():
                break
            time.sleep(0.1)
        assert opened.read_text() == url.group(0)
    finally:
        stop(proc)


def test_play_again_shows_the_new_game_on_every_page_that_watched(app: Any) -> None:
    with (
        TestClient(app) as http,
        http.websocket_connect("/ws") as a,
        http.websocket_connect("/ws") as b,
    ):
        first, second = Page(a), Page(b)
        first.hello()
        start = first.start(seed=8)
        assert second.hello()["at"] == start["at"]
        over = play_to_the_end(first, start)
        assert second.until("state", over=True)[-1]["at"] == over["at"]
        first.send(type="new", setup={"seed": 9, "advice": "never"})
        new = first.settled()[-1]
        assert not new["over"] and new["at"] < over["at"]
        told = second.until("state")
        assert told[-1]["at"] == new["at"] and not told[-1]["over"]
        assert any(m["type"] == "notice" for m in told)


def test_a_query_the_game_moved_on_from_stops_in_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's Oracle at a position the game has left is cancelled in the core, not left to
    compute an answer nobody waits for beside the next one (its thread went on; the table's
    queries then shared the cores with it)."""
    import asyncio

    from thirtyone.errors import Cancelled
    from thirtyone.oracle import query
    from thirtyone.web.advice import Desk, Gates

    ended: list[str] = []
    real = query.advise

    def advise(*args: Any, **kwargs: Any) -> Any:
        try:
            return real(*args, **kwargs)
        except Cancelled:
            ended.append("cancelled")
            raise

    monkeypatch.setattr(query, "advise", advise)
    session = Session(Rules.standard(), seed=3)
    session.advance()

    async def scenario() -> None:
        gates = Gates()
        # The full stage at a budget of hours, without a time limit.
        desk = Desk(Budget(1_000_000, 10_000_000, None, True), gates, 3)
        desk.start(len(session.journal), session.seat_view(), lambda message: None)
        for _ in range(2400):  # (the quick stage done, the full one under way)
            if gates.stage["full"].locked():
                break
            await asyncio.sleep(0.05)
        assert gates.stage["full"].locked()
        desk.forget()  # the game moved on
        for _ in range(2400):
            if ended and not gates.stage["full"].locked():
                break
            await asyncio.sleep(0.05)

    # (On a thread of its own: a browser test run before it in the same process leaves
    # Playwright's event loop running on this one, where asyncio.run is refused.)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, scenario()).result(timeout=600)
    assert ended == ["cancelled"]


@pytest.mark.posix_only
@pytest.mark.parametrize("stop", ["SIGTERM", "SIGHUP"])
def test_serve_stopped_by_sigterm_ends_as_ctrl_c_does(tmp_path: Path, stop: str) -> None:
    """SIGTERM (``kill``, a service manager) and SIGHUP (the terminal closed) stop the server
    as Ctrl-C does: the closing line, exit status 0, and the game started is kept in its save.
    They ended the process at once with status 143 and 129 and no "Stopped." (rulings 292, 315)."""
    save = tmp_path / "game.json"
    with reserved_port() as port:
        proc, _ = start_server("--port", str(port), "--save-file", str(save))
    try:
        with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=60) as ws:
            ws.send(json.dumps({"type": "hello", "game": 0}))
            ws.send(json.dumps({"type": "new", "setup": {"seed": 7, "advice": "never"}}))
            deadline = time.monotonic() + 120  # (a hang guard)
            while not save.exists() and time.monotonic() < deadline:
                with contextlib.suppress(TimeoutError):
                    ws.recv(timeout=0.2)
    finally:
        proc.send_signal(getattr(signal, stop))
        out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, (proc.returncode, err)
    assert out.strip().endswith("Stopped.") and "Traceback" not in err
    assert json.loads(save.read_text())["seed"] == 7
