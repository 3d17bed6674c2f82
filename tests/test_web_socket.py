"""What the table's WebSocket answers a page, beyond a game played (Starlette's test client): a
finished game asked for again is the start page, with the unfinished games beside it, as after a
restart; and a move or a hint whose position is missing, not a position, not reached yet or
already left is refused in words that say which."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient
from web_helpers import Page, make_app, play_to_the_end

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
