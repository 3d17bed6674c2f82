"""The new-game form and the games it starts, over the WebSocket (Starlette's test client): a
new game started over an unfinished one stays on the page that started it, the form's choices
in words, and the form's and the tutor's messages for a field left empty or out of bounds."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient
from thirtyone.store import record, saves, summary
from thirtyone.store.saves import TUTOR_POINTS
from thirtyone.web import views
from thirtyone.web.newgame import FormError, saved_game
from web_helpers import Page, play_to_the_end, two_pages


def test_the_page_that_starts_a_new_game_over_an_unfinished_one_plays_the_new_one(
    app: Any, save: Path
) -> None:
    """The page that answered "start the new game" is not sent after the game it kept aside
    (a ``moved`` to it made the page leave its new game for the backup); another page that
    watched the old game is."""
    with two_pages(app) as (starter, other, old):
        starter.send(type="new", setup={"seed": 7, "advice": "never"})
        starter.until("confirm_new")
        starter.send(type="new", setup={"seed": 7, "advice": "never"}, keep=True)
        new = starter.settled()[-1]
        assert new["game"] == 0
        moved = other.until("moved")[-1]
        assert moved["game"] == 1
        # Nothing after the new game's start sends the starter elsewhere: its next message
        # answers its own move, at the save.
        after = starter.act(new, "draw")
        assert after["game"] == 0 and after["at"] == new["at"] + 1
        assert [m for m in starter.seen if m["type"] == "moved"] == []
    assert saves.read(save).seed == 7 and len(saves.read(save).journal) == after["at"]
    kept = saves.read(save.with_name("saved-game.1.json"))
    assert kept.seed == 1 and len(kept.journal) == old["at"]


def test_play_again_tells_the_page_that_asked_its_new_game_once(app: Any) -> None:
    """Play again on the page that played the game to its end (it still watches it): the new
    game is sent to it once. It was sent again after it, with "A new game has started." (as to
    the other pages that watched the old game), so that a move made on the first copy crossed
    the second, which gave the page its buttons back for a decision already made."""
    with TestClient(app) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        page.hello()
        over = play_to_the_end(page, page.start(seed=8))
        assert over["over"]
        page.send(type="new", setup={"seed": 9, "advice": "never"})
        new = page.settled()[-1]
        since = len(page.seen)
        after = page.act(new, "draw")  # (its answer is the next state: none comes before it)
        assert after["at"] == new["at"] + 1
        assert [m["type"] for m in page.seen[since:] if m["type"] != "event"] == ["state"]


def test_the_record_at_a_games_end_points_to_the_stats_page_in_the_browser(app: Any) -> None:
    """The browser's record names its own Stats page; the terminal's names the command."""
    with TestClient(app) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        page.hello()
        last = play_to_the_end(page, page.start(seed=8))
    assert last["over"] and any("(the Stats page tells more)" in x for x in last["record"])
    assert not any("thirtyone stats tells more" in x for x in last["record"])
    games = record.read(record.default_path()).games
    assert "(thirtyone stats tells more)" in summary.record_lines(games)[0]


def test_the_forms_rule_options_are_in_words_and_send_the_rules_values() -> None:
    """Every rule option has a label and, for a choice, words for each value, with none of the
    identifiers (``winner_takes_all``) a player never sees elsewhere; the values stay the
    rule's own."""
    options = {o["name"]: o for o in views.setup_options()["options"]}
    for name, option in options.items():
        shown = [option["label"], option["meaning"], *option.get("words", [])]
        assert not [text for text in shown if "_" in text], name
        if "choices" in option:
            assert len(option["words"]) == len(option["choices"]), name
    placing = options["placing"]
    assert placing["choices"] == ["winner_takes_all", "ranked"]
    assert placing["words"] == ["last one in wins", "ranked: points for the last three"]
    assert options["knocker_tie"]["words"][1] == "knocker safe, others tied pay 1"


def test_a_field_left_empty_or_out_of_bounds_is_named_without_null(app: Any) -> None:
    """The page sends an empty number field as null: the message names the field as the form
    labels it and says it is empty; the tutor's points say how to turn it off."""
    with TestClient(app) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        page.hello()
        said = {}
        for case, form in {
            "seats": {"rules": {"seats": None}},
            "min_knock": {"rules": {"min_knock": None}},
            "tutor": {"tutor": ""},
            "tutor -3": {"tutor": -3},
        }.items():
            page.send(type="new", setup=form)
            said[case] = page.until("error")[-1]["message"]
        state = page.start(seed=3)
        page.send(type="mode", advice="always", tutor=-3)
        said["mode"] = page.until("error")[-1]["message"]
        page.send(type="mode", advice="always", tutor=None)
        assert page.until("state")[-1]["at"] == state["at"]
    assert said["seats"] == "Seats is empty: give a whole number from 2 to 9"
    assert said["min_knock"] == "Lowest score to knock is empty: give a number from 0 to 31"
    assert said["tutor"].startswith("Tutor: the points are empty: give a number from 0.1 to 100")
    for case in ("tutor -3", "mode"):
        assert said[case] == (
            "Tutor: the points must be a number from 0.1 to 100, not -3 "
            "(untick Tutor to play without the tutor)"
        )
    assert not [text for text in said.values() if "null" in text]


def test_a_presets_names_of_the_lives_give_way_to_the_forms_lives() -> None:
    """The form sends the options changed: four-corners with Lives 2 plays with the lives as
    numbers (its six names are for four lives), and names typed that do not fit are refused."""
    rules = saved_game({"preset": "four-corners", "rules": {"lives": "2"}}).rules
    assert (rules.lives, rules.county, rules.life_names) == (2, True, ())
    assert saved_game({"preset": "four-corners"}).rules.life_names[0] == "bill unfolded"
    with pytest.raises(FormError, match="Names of the lives: 4 names are needed"):
        saved_game({"preset": "four-corners", "rules": {"lives": "2", "life_names": ["a"]}})


def test_gin_lives_at_scat_says_to_set_the_knocker_tie() -> None:
    """Scat's knocker tied for lowest is safe (others_pay), which Gin lives does not play
    (docs/tables.md): scat with letters and County unticked was told to "leave it at" the tie
    it is not at, a field the player never changed. The form says to set it."""
    setup = {"preset": "scat", "rules": {"lives_mode": "gin", "county": False}}
    with pytest.raises(FormError) as refused:
        saved_game(setup)
    assert str(refused.value).startswith("Knocker tied for lowest: ")
    assert "set it to “knocker pays penalty, others tied 1”" in str(refused.value)
    assert "leave it" not in str(refused.value)


def test_the_forms_seed_is_any_seed_a_command_takes() -> None:
    """0 to 2**64 - 1, as `--seed` (the form stopped at 2**63 - 1), sent as text so that no
    digit is lost; outside, the field is named."""
    top = 2**64 - 1
    assert saved_game({"seed": str(top)}).seed == top
    assert saved_game({"seed": "0"}).seed == 0
    refused = r"^Seed: must be a whole number from 0 to 18,446,744,073,709,551,615, not "
    for bad in (str(top + 1), "-1", "1.5", 2**64, 1.5, -1.0):
        with pytest.raises(FormError, match=refused):
            saved_game({"seed": bad})
    # A whole number sent as a JSON number with a point is the number, as the rules' fields
    # and the state's reader take it: 5.0 was refused as "not 5".
    assert saved_game({"seed": 5.0}).seed == 5


def test_a_tutors_points_past_any_number_are_quoted_as_typed(app: Any) -> None:
    """The points as the text typed: 1e400 was called empty (the page's number field gives no
    number for it, and the page sent an empty field); as text, it is quoted as typed, in the
    words said of a number out of bounds. Points typed within the bounds start the game."""
    low, high = TUTOR_POINTS
    bounds = f"Tutor: the points must be a number from {low:g} to {high:g}, not "
    with TestClient(app) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        page.hello()
        said = {}
        for typed in ("1e400", " -3 ", "five"):
            page.send(type="new", setup={"tutor": typed})
            said[typed] = page.until("error")[-1]["message"]
        assert said["1e400"].startswith(bounds + '"1e400" (')
        assert said[" -3 "].startswith(bounds + '"-3" (')
        assert said["five"].startswith(bounds + '"five" (')
        assert not [text for text in said.values() if "empty" in text]
        state = page.start(seed=3, tutor="7.5")
        assert state["setup"]["tutor"] == 7.5
        page.send(type="mode", advice="always", tutor=" -3 ")  # (the Oracle panel's text)
        assert page.until("error")[-1]["message"] == said[" -3 "]


def test_the_forms_messages_name_each_field_as_the_form_labels_it(app: Any) -> None:
    """Each field named by its label on the form (``Seats``, never ``rule seats``), what was
    typed quoted as typed (a number field's text: 99999999999999999999999, not the
    100000000000000000000000 a number of the page's script makes of it), and none of the
    command line's words (``life_names=``, ``county=false``, identifiers with ``_``)."""
    labels = {o["name"]: o["label"] for o in views.setup_options()["options"]}
    labels.update(seed="Seed", name="Your name", opponents="Opponents", advice="Advice")
    huge = "99999999999999999999999"
    cases: dict[str, tuple[str, dict[str, Any], str]] = {
        "seats": ("seats", {"rules": {"seats": huge}}, huge),
        "seats left empty": ("seats", {"rules": {"seats": None}}, ""),
        "min_knock": ("min_knock", {"rules": {"min_knock": "40"}}, "40"),
        "lives": ("lives", {"rules": {"lives": "0"}}, "0"),
        "life_names": ("life_names", {"rules": {"life_names": ["one", "two"]}}, ""),
        "gin lives": ("lives", {"rules": {"lives_mode": "gin", "lives": 4}}, "4"),
        "gin county": ("county", {"rules": {"lives_mode": "gin", "county": True}}, ""),
        "gin tie": ("knocker_tie", {"rules": {"lives_mode": "gin", "knocker_tie": "cadillac"}}, ""),
        "seed": ("seed", {"seed": "-1"}, "-1"),
        "name": ("name", {"name": "Eve\x1b[31m"}, ""),
        "invisible name": ("name", {"name": "\u200b"}, ""),  # (it started a game)
        "opponents": ("opponents", {"opponents": "wolves"}, "wolves"),
    }
    with TestClient(app) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        page.hello()
        said = {}
        for case, (_, form, _) in cases.items():
            page.send(type="new", setup=form)
            said[case] = page.until("error")[-1]["message"]
    for case, (field, _, typed) in cases.items():
        message = said[case]
        assert message.startswith(f"{labels[field]}: ") or message.startswith(
            f"{labels[field]} is empty"
        ), (case, message)
        assert typed in message, (case, message)
        assert not re.search(r"\brule \w+:|=|\w_\w", message), (case, message)
    assert "100000000000000000000000" not in said["seats"]
    assert "leave the field empty" in said["life_names"]  # (it said "none with life_names=")


@pytest.mark.parametrize(
    ("setup", "shown"),
    [
        ({"rules": {"seats": "0"}}, '"0"'),
        ({"rules": {"lives": "abc"}}, '"abc"'),
        ({"rules": {"min_knock": "40"}}, '"40"'),
        ({"seed": "abc"}, '"abc"'),
        ({"seed": " -1 "}, '"-1"'),
        ({"tutor": "0"}, '"0"'),
        ({"tutor": "abc"}, '"abc"'),
        ({"tutor": "1e400"}, '"1e400"'),
        ({"opponents": "wolves"}, '"wolves"'),
        ({"rules": {"seats": 0}}, "0"),
        ({"seed": -1}, "-1"),
        ({"tutor": 0}, "0"),
        # JSON's 1e400 is read as infinity: not quoted as if "inf" had been typed.
        ({"seed": float("inf")}, "a number too large to read"),
        ({"tutor": float("inf")}, "a number too large to read"),
    ],
)
def test_the_forms_messages_quote_a_value_one_way(setup: dict[str, Any], shown: str) -> None:
    """What was typed (sent as text) is quoted in double quotes as it stands, in every field's
    message, as the core quotes a rule option's (``Seats: … not "0"``); the Seed and the tutor's
    points were quoted as Python writes a string ('abc'), and points typed as 0 not at all. A
    number sent as a number is written as one, in every field alike."""
    with pytest.raises(FormError) as refused:
        saved_game(setup)
    message = str(refused.value)
    assert f"not {shown}" in message or f": {shown} is not one of" in message, message
    assert "'" not in message, message


def test_a_game_says_what_its_table_calls_a_31(app: Any) -> None:
    """The state carries the name the table gives a 31 (``called_31``), for the page's question
    whether to keep yours hidden: "a Cadillac" at the cadillac table, none at scat."""
    with TestClient(app) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        page.hello()
        assert page.start(preset="cadillac")["called_31"] == "a Cadillac"
        page.send(type="new", setup={"seed": 1, "advice": "never", "preset": "scat"}, keep=True)
        assert page.settled()[-1]["called_31"] is None


def test_the_hide_question_after_a_knock_says_the_round_goes_on(app: Any) -> None:
    """five-lives with ``may_hide_31`` (docs/tables.md: a 31 shown after a knock costs everybody
    else a life and the round goes on to the showdown), seed 11: Ben knocks, and on your final
    turn the draw of JD to AD 9D QD makes 31 by putting down the 9D. The state's question
    (``hide_question``), which the page shows, must not say that showing it ends the round; at
    your first put-down, before any knock, there is no question (no 31 to hide)."""
    with TestClient(app) as http, http.websocket_connect("/ws") as ws:
        page = Page(ws)
        page.hello()
        state = page.start(preset="five-lives", seed=11, rules={"may_hide_31": True})
        for card in ("3D", "QS", "KS", "4D", "9H"):
            state = page.act(state, "draw")
            assert "hide_question" not in state
            state = page.act(state, "put", card)
        assert state["table"]["knocker"] is not None
        state = page.act(state, "draw")
        assert state["drawn"] == {"card": "JD", "from": "stock"}
        question = state["hide_question"]
        assert question["title"] == "That leaves you 31!"
        assert "the round ends" not in question["text"]
        assert question["text"].startswith(
            "Show it: everybody else loses a life, and the round goes on to the showdown."
        )


def test_a_new_game_whose_backup_fails_leaves_the_game_on_show_playing(
    app: Any, save: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The unfinished game could not be kept (the folder read-only, or full, or a thousand
    backups beside the save): the new game is refused, and the game on show goes on where it
    is, on every page. It was retired first: the next move on any page was not made, the page
    was told "This game was played elsewhere since" and, the folder read-only, given the start
    page with the game called damaged."""

    def cannot(path: Path) -> Path:
        raise saves.SaveError(f"the saved game at {path} could not be kept: the folder is full")

    with two_pages(app) as (starter, other, state):
        since = len(starter.seen), len(other.seen)
        monkeypatch.setattr(saves, "backup", cannot)
        starter.send(type="new", setup={"seed": 7, "advice": "never"}, keep=True)
        assert "could not be kept" in starter.until("error")[-1]["message"]
        monkeypatch.undo()
        after = starter.act(state, "put", state["drawn"]["card"])
        assert after["at"] > state["at"] and after["game"] == 0
        other.until("state", at=after["at"])
        told = starter.seen[since[0] :] + other.seen[since[1] :]
        assert [m for m in told if m["type"] in ("notice", "lobby", "moved")] == []
    assert saves.read(save).seed == 1 and len(saves.read(save).journal) == after["at"]
    assert not save.with_name("saved-game.1.json").exists()
