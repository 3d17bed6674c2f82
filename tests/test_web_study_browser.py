"""The review and stats pages in a real browser: Playwright driving Chromium against the study
routes served by uvicorn on a free port. The review's replay stepped with the keyboard alone,
a decision retried with the Oracle hidden until the choice, the stats page's figures, and both
pages at 390x844 (no sideways scrolling, tap targets of at least 44 px). Screenshots are kept
in ``test-results/web-study/`` (or ``$THIRTYONE_TEST_ARTEFACTS/web-study/``)."""

from __future__ import annotations

import itertools
import os
import re
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip(
    "playwright", reason="Playwright is not installed: pip install '.[browser-test]'"
)
pytest.importorskip(
    "pytest_playwright", reason="pytest-playwright is not installed: pip install '.[browser-test]'"
)

import httpx2 as httpx
import uvicorn
from click.testing import CliRunner
from playwright.sync_api import Browser, Page, Playwright, expect
from starlette.applications import Starlette
from thirtyone.cli.app import main
from thirtyone.game.rules import Rules
from thirtyone.store import record
from thirtyone.store.record import GameRecord
from thirtyone.web import api

CHROMIUM = Path(os.environ.get("THIRTYONE_CHROMIUM", "/usr/bin/chromium"))
ARTEFACTS = Path(
    os.environ.get("THIRTYONE_TEST_ARTEFACTS", Path(__file__).parent.parent / "test-results")
)
SHOTS = ARTEFACTS / "web-study"
PHONE = {"width": 390, "height": 844}
REVIEW = {"deals": "200", "playouts": "500"}
ALWAYS_DRAWS = "d\n4\n" * 400
SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def card(text: str) -> str:
    """A card as the page writes it: ``10♥`` for ``TH``."""
    rank = text[:-1]
    return f"{'10' if rank == 'T' else rank}{SUITS[text[-1]]}"


def words(option: dict[str, Any]) -> str:
    """The name of the button that plays an option of the Oracle's answer."""
    name = option["option"]
    if name.startswith("discard:"):
        return f"Put down {card(name.split(':')[1])}"
    if name == "take":
        return f"Take {card(option['card'])}, put down {card(option['discard'])}"
    return {"knock": "Knock", "draw": "Draw from the stock", "decline": "Decline the discard"}[name]


# -- the server and the browser -------------------------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The study routes served by uvicorn in a thread, on a free port of 127.0.0.1."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = Starlette(routes=api.routes)
    served = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=served.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(3000):  # (a bound, not a measure: it starts in milliseconds)
        if served.started or not thread.is_alive():
            break
        time.sleep(0.01)
    assert served.started, "uvicorn did not start"
    yield f"http://127.0.0.1:{port}"
    served.should_exit = True
    thread.join(30)
    sock.close()


@pytest.fixture(scope="module")
def chromium(playwright: Playwright) -> Iterator[Browser]:
    """Chromium launched by pytest-playwright's one Playwright of the session (a second
    ``sync_playwright()`` beside it, as the table's browser tests start one, is refused)."""
    if not CHROMIUM.exists():
        pytest.skip(
            f"no Chromium at {CHROMIUM}: apt-get install chromium, or set THIRTYONE_CHROMIUM "
            "to a Chromium executable"
        )
    launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
    yield launched
    launched.close()


def open_tab(browser: Browser, viewport: dict[str, int]) -> tuple[Page, list[str]]:
    context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    tab = context.new_page()
    tab.set_default_timeout(60_000)
    errors: list[str] = []
    tab.on("pageerror", lambda err: errors.append(str(err)))
    tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return tab, errors


@pytest.fixture
def tab(chromium: Browser) -> Iterator[Page]:
    page, errors = open_tab(chromium, {"width": 1280, "height": 900})
    yield page
    page.context.close()
    assert errors == []


@pytest.fixture
def phone(chromium: Browser) -> Iterator[Page]:
    page, errors = open_tab(chromium, PHONE)
    yield page
    page.context.close()
    assert errors == []


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


def play(*args: str, moves: str = ALWAYS_DRAWS) -> None:
    """A game of ``thirtyone play`` in the test's data folder: you draw and put the card drawn
    down every turn (or play ``moves``)."""
    env = {
        "COLUMNS": "100",
        "NO_COLOR": "1",
        "THIRTYONE_DATA_DIR": os.environ["THIRTYONE_DATA_DIR"],
    }
    r = CliRunner().invoke(main, ["play", "--no-oracle", "--fast", *args], input=moves, env=env)
    assert r.exit_code == 0, r.output


def the_review(server: str) -> dict[str, Any]:
    """The review the page shows (also made ready for it: a review is made once)."""
    answer = httpx.get(f"{server}/api/review", params=REVIEW, timeout=300)
    assert answer.status_code == 200, answer.text
    review: dict[str, Any] = answer.json()
    return review


def recorded(finished: str, place: int, preset: str = "standard") -> None:
    """A game of four against the table's players in the record, finished at ``finished``
    (ISO 8601), you placing ``place`` (1: won)."""
    others = [1, 2, 3]
    record.add(
        record.default_path(),
        GameRecord(
            finished=finished,
            preset=preset,
            rules=Rules.preset(preset).to_dict(),
            names=["You", "Alice", "Ben", "Cara"],
            you=0,
            placing=[*others[: place - 1], 0, *others[place - 1 :]],
            points=None,
            rounds=6,
            opponents="table",
            autoplay=False,
        ),
    )


def some_games() -> None:
    """Three games in the record: won and lost at the standard table, lost at a Scat table."""
    for day, place, preset in ((1, 1, "standard"), (2, 3, "standard"), (3, 2, "scat")):
        recorded(f"2025-03-0{day}T20:00:00+00:00", place, preset)


def fits_a_phone(page: Page) -> None:
    """No sideways scrolling, and every control shown at least 44 px each way."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    small = page.evaluate(
        """() => [...document.querySelectorAll('button, a, select, summary')]
            .filter((e) => e.offsetParent !== null && !e.classList.contains('skip'))
            .map((e) => [e.textContent.trim().slice(0, 30), e.getBoundingClientRect()])
            .filter(([, r]) => r.width < 44 || r.height < 44)
            .map(([t, r]) => `${t}: ${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )
    assert small == []


# -- the review -----------------------------------------------------------------------------------


def test_the_replay_stepped_by_keyboard_and_a_decision_retried(server: str, tab: Page) -> None:
    play("--seats", "2", "--lives", "1", "--seed", "5")
    review = the_review(server)
    decisions = review["decisions"]
    n = len(decisions)
    assert n >= 4
    tab.goto(f"{server}/review?deals=200&playouts=500")
    expect(tab.get_by_role("navigation", name="Pages")).to_be_visible()
    title = tab.locator("#decision-title")
    expect(title).to_have_text(f"Decision 1 of {n}")
    rounds = len({d["round"] for d in decisions})  # (the rounds the decisions cover)
    expect(tab.locator("#headline")).to_contain_text(
        f"{n} decisions over {rounds} round{'' if rounds == 1 else 's'} ("
    )
    expect(tab.locator("#chart circle")).to_have_count(
        sum(d["chosen"] is not None for d in decisions)
    )
    for key, at in (
        ("ArrowRight", 2),
        ("ArrowRight", 3),
        ("ArrowLeft", 2),
        ("End", n),
        ("Home", 1),
    ):
        tab.keyboard.press(key)
        expect(title).to_have_text(f"Decision {at} of {n}")
        shown = decisions[at - 1]
        expect(tab.locator("#decision-body .label").first).to_contain_text(shown["label"])
        expect(tab.locator("#where")).to_have_text(f"Round {shown['round']}, turn {shown['turn']}")
    # The costliest decision, reached by keys alone, then retried.
    at = max(range(n), key=lambda i: (decisions[i]["cost_p_win"] or 0, -i))
    for _ in range(at):
        tab.keyboard.press("ArrowRight")
    expect(title).to_have_text(f"Decision {at + 1} of {n}")
    shot(tab, "review-desktop.png")
    tab.get_by_role("button", name="Retry this decision").click()
    panel = tab.locator("#retry-panel")
    expect(panel).to_be_visible()
    expect(tab.locator("#decision")).to_be_hidden()
    d = decisions[at]
    buttons = panel.get_by_role("group", name="Your options").get_by_role("button")
    expect(buttons).to_have_count(len(d["advice"]["options"]))
    assert sorted(buttons.all_inner_texts()) == sorted(words(o) for o in d["advice"]["options"])
    assert "%" not in panel.inner_text()  # the Oracle's figures hidden until you choose
    shot(tab, "review-retry.png")
    played = next(o for o in d["advice"]["options"] if o["option"] == d["choice"])
    panel.get_by_role("button", name=words(played), exact=True).click()
    outcome = tab.locator("#outcome-title")
    expect(outcome).to_contain_text(f"You chose: {words(played)}")
    expect(outcome).to_contain_text(d["option_labels"][d["choice"]])
    expect(panel).to_contain_text(f"safe in {100 * played['p_safe']:.1f}% of the rounds")
    shot(tab, "review-retried.png")
    tab.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(tab.locator("#decision")).to_be_visible()
    expect(title).to_have_text(f"Decision {at + 1} of {n}")
    # Each label counted; the costliest decisions listed, most costly first (five at most),
    # each a way to its decision.
    for name in ("best", "good", "inaccuracy", "mistake", "blunder"):
        count = sum(d["label"] == name for d in decisions)
        expect(tab.locator("#legend li", has_text=name)).to_have_text(
            re.compile(rf"{name}\s+{count}$")
        )

    def cost(d: dict[str, Any]) -> float:
        return float(d["cost_p_win"] if d["label_by"] == "p_win" else d["cost_p_safe"])

    costly = [
        i for i, d in enumerate(decisions) if d["label"] not in (None, "best") and cost(d) > 0
    ]
    costly = sorted(costly, key=lambda i: (-cost(decisions[i]), i))[:5]
    items = tab.locator("#costly li")
    assert costly, "(a game with no costly decision tests nothing here)"
    expect(items).to_have_count(len(costly))
    for item, i in zip(items.all(), costly, strict=True):
        d = decisions[i]
        expect(item).to_contain_text(f"Decision {i + 1}, round {d['round']}, turn {d['turn']}: ")
        expect(item).to_contain_text(f"{100 * cost(d):.1f} points of {d['label_by']}")
    items.last.get_by_role("button").click()
    expect(title).to_have_text(f"Decision {costly[-1] + 1} of {n}")


def test_the_review_says_when_there_is_no_game(server: str, tab: Page) -> None:
    tab.goto(f"{server}/review")
    expect(tab.locator("#status")).to_contain_text("No saved game yet")
    expect(tab.get_by_role("button", name="Review this game")).to_be_disabled()


def test_the_review_on_a_phone(server: str, phone: Page) -> None:
    play("--seats", "2", "--lives", "1", "--seed", "5")
    n = len(the_review(server)["decisions"])
    phone.goto(f"{server}/review?deals=200&playouts=500")
    expect(phone.locator("#decision-title")).to_have_text(f"Decision 1 of {n}")
    phone.get_by_role("button", name="Next →").click()
    expect(phone.locator("#decision-title")).to_have_text(f"Decision 2 of {n}")
    fits_a_phone(phone)
    shot(phone, "review-phone.png")
    phone.get_by_role("button", name="Retry this decision").click()
    expect(phone.locator("#retry-panel")).to_be_visible()
    fits_a_phone(phone)


def test_the_review_names_a_seed_past_the_scripts_numbers_whole(server: str, tab: Page) -> None:
    """A seed up to 2**64 - 1 (every command takes one) is shown with all its digits: a number
    of the page's script keeps 53 bits (it read 18446744073709552000)."""
    play("--seats", "2", "--lives", "1", "--seed", str(2**64 - 1))
    the_review(server)
    tab.goto(f"{server}/review?deals=200&playouts=500")
    expect(tab.locator("#headline")).to_contain_text(f"seed {2**64 - 1}.")


def test_the_share_of_best_is_the_count_of_best_beside_it(server: str, tab: Page) -> None:
    """The summary's share and the count under ★ best are one count of the decisions labelled
    best, said alike. (The share was the agreement with the round's best, the ★ of a turn in
    play: 86.7%, 26 of 30, beside "★ best 28", both called the Oracle's best.)"""
    play("--seats", "2", "--lives", "1", "--seed", "5")
    review = the_review(server)
    decisions = review["decisions"]
    best = sum(d["label"] == "best" for d in decisions)
    round_best = sum(d["choice"] in (d["best"], *d["advice"]["tied"]) for d in decisions)
    assert best != round_best and {d["label_by"] for d in decisions} == {"p_win"}
    tab.goto(f"{server}/review?deals=200&playouts=500")
    share = tab.locator("#figures .figure").nth(1)
    expect(share.locator(".value")).to_have_text(
        f"{100 * best / len(decisions):.1f}%", timeout=30_000
    )
    expect(share.locator(".what")).to_have_text(
        "played the Oracle's best for the game, or within the margins of it (★\u00a0best)"
    )
    expect(tab.locator("#legend li", has_text="best")).to_have_text(re.compile(rf"best\s+{best}$"))
    expect(tab.locator("#thresholds")).to_contain_text(
        "best: the Oracle's best for the game, or within the margins of it;"
    )
    shot(tab, "review-share-of-best.png")


@pytest.mark.parametrize(
    "query",
    [
        "game=foo",
        "game=saved-game.5.json",
        "seed=-1&deals=200&playouts=500",
        "seed=99999999999999999999999999&deals=200&playouts=500",
    ],
)
def test_an_address_the_api_refuses_is_said_not_replaced(
    server: str, chromium: Browser, query: str
) -> None:
    """A game the address names that is no save's name, or no save there, and a seed out of
    the engine's bounds: the page says what the API says, reviews nothing and keeps the
    address. (It reviewed the last game instead and wrote game=last into the address; the seed
    was taken, and shown as "seed -1".)"""
    play("--seats", "2", "--lives", "1", "--seed", "5")
    the_review(server)  # (a last game to review in its place)
    asked = dict(x.split("=") for x in query.split("&"))
    answer = httpx.get(f"{server}/api/review", params=asked, timeout=300)
    assert answer.status_code in (400, 404), answer.text
    tab, errors = open_tab(chromium, {"width": 1280, "height": 900})
    tab.goto(f"{server}/review?{query}")
    # (A bound, not a measure: the page's two requests take milliseconds on an idle machine.)
    expect(tab.locator("#problem")).to_have_text(answer.json()["error"], timeout=30_000)
    expect(tab.locator("#review")).to_be_hidden()
    assert tab.url == f"{server}/review?{query}"
    shot(tab, f"review-refused-{query.split('&')[0].replace('=', '-')}.png")
    tab.context.close()
    # (The browser's own line for the refused request, and nothing else.)
    status = answer.status_code
    assert errors == [
        f"Failed to load resource: the server responded with a status of {status} ("
        + ("Bad Request)" if status == 400 else "Not Found)")
    ]


def test_every_round_of_the_chart_is_labelled(server: str, phone: Page) -> None:
    """A round's label at the middle of its stretch, moved aside as needed so that none
    overlaps another: on a phone the round after a short round (4 decisions of 58) went
    unlabelled."""
    play("--seats", "2", "--lives", "4", "--seed", "4")
    decisions = the_review(server)["decisions"]
    rounds = sorted({d["round"] for d in decisions})
    assert len(rounds) >= 4
    phone.goto(f"{server}/review?deals=200&playouts=500")
    labels = phone.locator("#chart text", has_text=re.compile(r"^R\d+$"))
    expect(labels).to_have_text([f"R{r}" for r in rounds], timeout=30_000)
    expect(phone.locator("#chart line.round-edge")).to_have_count(len(rounds) - 1)
    boxes = [label.bounding_box() for label in labels.all()]
    for left, right in itertools.pairwise(boxes):
        assert left is not None and right is not None
        assert left["x"] + left["width"] <= right["x"], (left, right)
    shot(phone, "review-rounds-phone.png")


def test_the_round_labels_of_a_long_game_stand_apart_on_a_phone(server: str, phone: Page) -> None:
    """Fifteen rounds on a phone: the labels are thinned (every second round) and no two stand
    closer than one em (12 px) of their figures. They were placed by a guess of their width,
    7 px apart where rounds are short ("R3 R5 R7" read as one run) (ruling 295)."""
    play("--seats", "2", "--lives", "15", "--seed", "4")
    rounds = sorted({d["round"] for d in the_review(server)["decisions"]})
    assert len(rounds) >= 12
    phone.goto(f"{server}/review?deals=200&playouts=500")
    labels = phone.locator("#chart text", has_text=re.compile(r"^R\d+$"))
    expect(labels.first).to_have_text("R1", timeout=60_000)
    boxes = [label.bounding_box() for label in labels.all()]
    assert len(boxes) >= 5
    for left, right in itertools.pairwise(boxes):
        assert left is not None and right is not None
        assert right["x"] - (left["x"] + left["width"]) >= 11.5, (left, right)
    shot(phone, "review-rounds-long-phone.png")


# -- the stats ------------------------------------------------------------------------------------


def test_the_stats_page(server: str, tab: Page) -> None:
    some_games()
    tab.goto(f"{server}/stats")
    expect(tab.locator("#status")).to_have_text("3 games in the record.")
    figures = tab.locator("#all .value")
    expect(figures).to_have_text(["3", "1", "33.3%", "2.00"])  # 1 won of 3; places 1, 3, 2
    presets = tab.locator("#by-preset tbody tr")
    expect(presets).to_have_count(2)
    expect(presets.nth(0)).to_contain_text("standard")
    expect(presets.nth(0).locator("td").nth(0)).to_have_text("2")  # games
    expect(presets.nth(0).locator("td").nth(1)).to_have_text("1")  # won
    expect(presets.nth(1)).to_contain_text("scat")
    expect(tab.locator("#by-opponents tbody tr")).to_have_count(1)
    expect(tab.locator("#time rect.won")).to_have_count(1)
    expect(tab.locator("#time rect.lost")).to_have_count(2)
    shot(tab, "stats-desktop.png")


def test_the_stats_page_before_any_game_and_on_a_phone(server: str, phone: Page) -> None:
    phone.goto(f"{server}/stats")
    expect(phone.locator("#status")).to_contain_text("No games recorded yet")
    some_games()
    phone.reload()
    expect(phone.locator("#status")).to_have_text("3 games in the record.")
    fits_a_phone(phone)
    shot(phone, "stats-phone.png")


def test_the_stats_page_of_a_single_game(server: str, tab: Page) -> None:
    """One game won at a table of four: counted in the singular, its interval shown (Wilson's
    for 1 of 1: from 1 / (1 + 1.96²) = 21% to 100%), and its share marked on the chart."""
    recorded("2025-03-01T20:00:00+00:00", 1)
    tab.goto(f"{server}/stats")
    expect(tab.locator("#status")).to_have_text("1 game in the record.")
    expect(tab.locator("#all .figure").first).to_have_text("1game played to its end")
    low = round(100 / (1 + 1.96**2))
    expect(tab.locator("#all")).to_contain_text(f"95% interval {low}% to 100%")
    expect(tab.locator("#by-preset tbody tr").first).to_contain_text(f"{low}% to 100%")
    said = tab.locator("#time-desc")
    expect(said).to_contain_text("100.0% after 1 game (")
    # (No "The last 1 game: 1 won." after it: the last ten are told apart only when there are
    # more than ten.)
    expect(said).to_have_text(re.compile(r"against an even share of 25\.0%\.$"))
    expect(tab.locator("#time text").last).to_have_text("1 game")
    expect(tab.locator("#time line.rate")).to_have_count(1)  # the share, with no line to draw
    expect(tab.locator("#time line.best")).to_have_count(1)  # an even share
    shot(tab, "stats-one-game.png")


def test_the_stats_page_tells_the_last_ten_apart_only_past_ten(server: str, tab: Page) -> None:
    """Twelve games, the first two won and then every fourth: after the share so far, the last
    ten are told apart ("The last 10 games: 2 won."), which they are not with ten or fewer."""
    won = [True, True] + [i % 4 == 0 for i in range(10)]
    for day, w in enumerate(won, start=1):
        recorded(f"2025-04-{day:02d}T20:00:00+00:00", 1 if w else 2)
    tab.goto(f"{server}/stats")
    expect(tab.locator("#status")).to_have_text("12 games in the record.")
    said = tab.locator("#time-desc")
    expect(said).to_contain_text("after 12 games (")
    expect(said).to_have_text(re.compile(r"25\.0%\. The last 10 games: 3 won\.$"))


# -- the review of a ranked game, and of a take ---------------------------------------------------


def hundredths(x: float) -> str:
    """A figure to two decimals as the Oracle's words write it (halves away from zero)."""
    return str(Decimal(repr(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def test_a_ranked_game_is_reviewed_with_its_points(server: str, tab: Page) -> None:
    """Under ranked placing the Oracle's figure for the game is the points to expect: the
    options table has its Points column (the table page's heading), each option's points to
    two decimals, and a retried option says the points it expects. (The column was added only
    when some option had a p_win, which ranked placing never gives.)"""
    play("--seats", "3", "--lives", "1", "--rule", "placing=ranked", "--seed", "5")
    review = the_review(server)
    at, d = next((i, d) for i, d in enumerate(review["decisions"]) if d["advice"])
    options = d["advice"]["options"]
    assert all("points" in o and "p_win" not in o for o in options)
    tab.goto(f"{server}/review?deals=200&playouts=500&decision={at + 1}")
    table = tab.locator("#decision-body table")
    expect(table.locator("thead th")).to_have_text(
        ["Option", "Safe", "Points", "Label"], timeout=30_000
    )
    for row, o in zip(table.locator("tbody tr").all(), options, strict=True):
        expect(row.locator("td").nth(2)).to_have_text(hundredths(o["points"]))
    tab.get_by_role("button", name="Retry this decision").click()
    panel = tab.locator("#retry-panel")
    played = options[-1]
    panel.get_by_role("button", name=words(played), exact=True).click()
    expect(panel.locator(".outcome")).to_contain_text(
        f"expects {hundredths(played['points'])} points in the game "
        f"(±{hundredths(played['points_margin'])})"
    )
    expect(panel.locator("table thead th")).to_have_text(["Option", "Safe", "Points", "Label"])


def tenths(x: float) -> str:
    """A share in percent to one decimal as the Oracle's words write it (halves up)."""
    return str((100 * Decimal(repr(x))).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def test_a_ranked_games_costs_in_chances_say_percentage_points(server: str, tab: Page) -> None:
    """Ruling 358: where the game's figure is ranked points, a cost in a chance is said in
    percentage points. The review page of a ranked game said "12.8 points of p_safe, 0.03
    expected points" and "good: under 2 points"; the Stats page "points of p_safe lost on
    average" beside "expected points lost on average under ranked placing"."""
    play("--seats", "3", "--lives", "1", "--rule", "placing=ranked", "--seed", "5")
    review = the_review(server)
    at, d = next(
        (i, d)
        for i, d in enumerate(review["decisions"])
        if d["cost_p_safe"] and d["cost_points"] is not None
    )
    tab.goto(f"{server}/review?deals=200&playouts=500&decision={at + 1}")
    heads = tab.locator("#decision-body dl.facts dt")
    cost = heads.filter(has_text=re.compile("^Cost$")).locator("xpath=following-sibling::dd[1]")
    expect(cost).to_have_text(
        f"{tenths(d['cost_p_safe'])} percentage points of p_safe, "
        f"{hundredths(d['cost_points'])} expected points",
        timeout=30_000,
    )
    expect(tab.locator("#thresholds")).to_contain_text("good: under 2 percentage points;")
    bare = re.compile(r"\d\.\d points")
    for costly in tab.locator("#costly li").all():
        expect(costly).not_to_have_text(bare)
    ranked = Rules.standard().replace(seats=3, lives=1, placing="ranked")
    record.add(
        record.default_path(),
        GameRecord(
            finished="2025-03-01T20:00:00+00:00",
            preset="standard",
            rules=ranked.to_dict(),
            names=["You", "Alice", "Ben"],
            you=0,
            placing=[0, 1, 2],
            points=3,
            rounds=4,
            opponents="table",
            autoplay=False,
            decisions=[record.Decision(1, "draw", "knock", 0.2, "knock", 0.5)],
        ),
    )
    tab.goto(f"{server}/stats")
    figures = tab.locator("#decisions")
    expect(figures).to_contain_text("20.0percentage points of p_safe lost on average")
    expect(figures).to_contain_text("0.50expected points lost on average under ranked placing")


def test_a_review_at_one_deal_and_one_playout_says_them_in_the_singular(
    server: str, tab: Page
) -> None:
    """Ruling 359: the headline said "The Oracle at 1 deals and 1 playouts per decision", as
    `thirtyone review --deals 1 --playouts 1` said "1 deals / 1 playouts"."""
    play("--seats", "2", "--lives", "1", "--seed", "5")
    tab.goto(f"{server}/review?deals=1&playouts=1")
    expect(tab.locator("#headline")).to_contain_text(
        "The Oracle at 1 deal and 1 playout per decision, seed 5.", timeout=60_000
    )
    tab.goto(f"{server}/review?deals=2&playouts=3")
    expect(tab.locator("#headline")).to_contain_text(
        "The Oracle at 2 deals and 3 playouts per decision, seed 5.", timeout=60_000
    )


def test_the_put_down_after_a_take_shows_the_card_taken(server: str, tab: Page) -> None:
    """At the put-down after a take, your hand is said with the card you took, and the pile as
    it stood after the take: the card under the one taken, or none. (The page showed the hand
    without the card and the taken card still on the pile, "the upcard is" it.)"""
    play("--seats", "3", "--lives", "1", "--seed", "5", moves="t\n1\n" * 400)
    decisions = the_review(server)["decisions"]
    takes = [i for i, d in enumerate(decisions) if d["step"] == "put-down" and d["took"]]
    first = decisions[takes[0]]
    assert first["state"]["turns"] == [] and first["took"] == first["state"]["upcard"]
    later = next(i for i in takes if decisions[i]["state"]["turns"])
    tab.goto(f"{server}/review?deals=200&playouts=500&decision={takes[0] + 1}")
    facts = tab.locator("#decision-body dl.facts").first
    hand = "".join(card(c) for c in first["hand"])  # (each card its own element)
    expect(facts.locator("dd").last).to_have_text(
        f"{hand} and you took {card(first['took'])}", timeout=30_000
    )
    expect(facts.locator("dd").nth(-2)).to_have_text("none: the pile is empty")
    expect(tab.locator("#decision-body")).to_contain_text(
        f"the upcard was {card(first['took'])}, and you took it."
    )
    d = decisions[later]
    pile = [d["state"]["upcard"]]
    for turn in d["state"]["turns"]:
        if turn.get("draw") == "pile":
            pile.pop()
        if turn.get("discard"):
            pile.append(turn["discard"])
    assert pile[-1] == d["took"]
    tab.goto(f"{server}/review?deals=200&playouts=500&decision={later + 1}")
    facts = tab.locator("#decision-body dl.facts").first
    expect(facts.locator("dd").nth(-2)).to_have_text(
        card(pile[-2]) if len(pile) > 1 else "none: the pile is empty", timeout=30_000
    )
    expect(facts.locator("dd").last).to_contain_text(f"and you took {card(d['took'])}")


def test_the_reviews_small_words(server: str, tab: Page) -> None:
    """Three seats, one life each, seed 7: you are out after round 1, and Ben plays first. The
    summary counts the rounds your decisions cover and says how long the game lasted (it said
    "over 2 rounds" of decisions in round 1); the lives are listed in the game's seat order,
    you first, whoever plays first in the round (they came in the round's order). A 31 kept
    hidden at the Cadillac table (two seats, seed 87: draw, put down 2C, keep it hidden): the
    Oracle gives no figure for it, and its cost is "—" alone (it said "— points of p_safe")."""
    play("--seats", "3", "--lives", "1", "--seed", "7")
    review = the_review(server)
    decisions, game = review["decisions"], review["game"]
    assert {d["round"] for d in decisions} == {1} and game["rounds"] == 2
    assert decisions[0]["players"][0] != game["player"]  # (another plays first)
    n = len(decisions)
    tab.goto(f"{server}/review?deals=200&playouts=500")
    expect(tab.locator("#headline")).to_contain_text(
        f"{n} decisions over 1 round (", timeout=30_000
    )
    expect(tab.locator("#headline")).to_contain_text("; the game lasted 2 rounds).")
    facts = tab.locator("#decision-body dl.facts").first
    lives = facts.locator("dt", has_text="Lives").locator("xpath=following-sibling::dd[1]")
    expect(lives).to_have_text(" · ".join(f"{name} 1 life" for name in game["names"]))
    play("--rules", "cadillac", "--seats", "2", "--seed", "87", moves="d\n1\nh\n")
    hidden = httpx.get(f"{server}/api/review", params={**REVIEW, "game": "current"}, timeout=300)
    at, d = next(
        (i, d) for i, d in enumerate(hidden.json()["decisions"]) if d["choice"].startswith("hide:")
    )
    assert d["advice"] and d["cost_p_safe"] is None
    tab.goto(f"{server}/review?deals=200&playouts=500&game=current&decision={at + 1}")
    facts = tab.locator("#decision-body dl.facts").nth(1)
    cost = facts.locator("dt", has_text="Cost").locator("xpath=following-sibling::dd[1]")
    expect(cost).to_have_text("—", timeout=30_000)


def test_the_lives_are_in_the_tables_words(server: str, tab: Page) -> None:
    """Ruling 288: Gin lives, two seats, seed 3, you draw every turn: the decision's lives are
    the letters taken, headed "Letters" (the page gave "Lives: You 3 · Alice 1" where the table
    said "You no letters · Alice G I"); at the ride-the-bus table the stops of the bus."""
    letters = {3: "no letters", 2: "G", 1: "G I"}
    play("--rules", "gin-lives", "--seats", "2", "--seed", "3")
    decisions, names = the_review(server)["decisions"], ["You", "Alice"]
    at, d = next((i, d) for i, d in enumerate(decisions) if min(d["state"]["lives"]) < 3)
    said = {p: letters[n] for p, n in zip(d["players"], d["state"]["lives"], strict=True)}
    tab.goto(f"{server}/review?deals=200&playouts=500&decision={at + 1}")
    facts = tab.locator("#decision-body dl.facts").first
    lives = facts.locator("dt", has_text="Letters").locator("xpath=following-sibling::dd[1]")
    expect(lives).to_have_text(" · ".join(f"{n} {said[n]}" for n in names), timeout=30_000)
    play("--rules", "ride-the-bus", "--seats", "2", "--seed", "21")
    tab.goto(f"{server}/review?deals=200&playouts=500&decision=1")
    facts = tab.locator("#decision-body dl.facts").first
    lives = facts.locator("dt", has_text="Lives").locator("xpath=following-sibling::dd[1]")
    expect(lives).to_have_text("You back of the bus · Alice back of the bus", timeout=30_000)


def test_the_chart_says_p_safe_in_the_tables_unit(server: str, tab: Page) -> None:
    """Ruling 301: a game charted by p_safe (ranked places: no chance of winning to chart) says
    what p_safe is in the table's unit, as `thirtyone review` does: under Gin lives the chance
    of taking no letter in the round; it said "losing no life" at every table."""
    play("--rules", "gin-lives", "--rule", "placing=ranked", "--seats", "2", "--seed", "3")
    tab.goto(f"{server}/review?deals=200&playouts=500")
    title = tab.locator("#chart-title")
    expect(title).to_have_text("Your chance of taking no letter in the round", timeout=30_000)
    expect(tab.locator("#chart-desc")).to_contain_text("Your chance of taking no letter in")
    play("--rules", "standard", "--rule", "placing=ranked", "--seats", "2", "--seed", "3")
    tab.goto(f"{server}/review?deals=200&playouts=500")
    expect(title).to_have_text("Your chance of losing no life in the round", timeout=30_000)


def test_a_record_whose_every_row_is_left_out_says_so(server: str, tab: Page) -> None:
    """Ruling 291: three games, each place edited by hand to 9 at a table of four: no game can
    be read, and the page said "No games recorded yet" without a word of the three rows left
    out (thirtyone stats says why on standard error)."""
    some_games()
    con = sqlite3.connect(record.default_path(), isolation_level=None)
    try:
        con.execute("UPDATE games SET place = 9")
    finally:
        con.close()
    tab.goto(f"{server}/stats")
    expect(tab.locator("#status")).to_have_text(
        "No game of the record can be read: 3 rows of the record could not be read as a game "
        "and are left out (thirtyone stats says why)."
    )


def test_the_page_lists_the_costliest_decisions_the_terminal_lists(server: str, tab: Page) -> None:
    """Ruling 356, the reviewer's game: Scat, three seats, one life, ranked placing, seed 11,
    the Oracle's best played at every decision. Under ranked placing a label measures p_safe,
    so the page's costliest decisions begin with the JSON's ``costliest``, the terminal's three;
    a decision within the margins of the best (≈, labelled best) is in neither. (The terminal
    listed a knock tied with the best, "cost 0.4 points", and the page said none.)"""
    play(
        *("--seats", "3", "--lives", "1", "--seed", "11", "--rules", "scat"),
        *("--rule", "placing=ranked", "--oracle", "--oracle-deals", "2000"),
        *("--oracle-playouts", "5000"),
        moves="\n" * 400,
    )
    review = the_review(server)
    decisions, costliest = review["decisions"], review["summary"]["costliest"]
    assert {d["label_by"] for d in decisions} == {"p_safe"}
    assert any(d["agreed"] and d["cost_p_safe"] > 0 for d in decisions)  # (the case)
    tab.goto(f"{server}/review?deals=200&playouts=500")
    items = tab.locator("#costly li")
    if not costliest:
        # (The decisions tied with the best cost something: the total is made of them, ruling
        # 365.)
        none = "None: every decision the Oracle gave figures for was its best or within its "
        within = "margins, so the total lost above is made of differences within them."
        expect(items).to_have_text([none + within], timeout=30_000)
    for n, i in enumerate(costliest):
        d = decisions[i - 1]
        expect(items.nth(n)).to_contain_text(
            f"Decision {i}, round {d['round']}, turn {d['turn']}: ", timeout=30_000
        )
    shot(tab, "review-ranked.png")


def test_a_review_whose_only_decision_was_the_blind_call(server: str, tab: Page) -> None:
    """Ruling 357: two seats, the blind showdown allowed, seed 5, called at the first prompt
    (before anybody looked: QC TC JS were dealt), then the game left. The summary says in one
    sentence that the Oracle gave no figures (it showed "0.0 points of p_safe lost in all", a
    share of "—" and five labels counted 0); the costliest decisions say why there are none (not
    that every decision was the Oracle's best); the decision names the call and shows no hand,
    and its note is no error."""
    play("--seats", "2", "--rule", "first_turn_knock=blind", "--seed", "5", moves="b\n")
    answer = httpx.get(f"{server}/api/review", params={**REVIEW, "game": "current"}, timeout=300)
    (d,) = answer.json()["decisions"]
    assert d["choice"] == "blind" and d["advice"] is None
    tab.goto(f"{server}/review?deals=200&playouts=500&game=current")
    expect(tab.locator("#thresholds")).to_have_text(
        "No cost and no labels: the Oracle gave no figures for any of your decisions.",
        timeout=30_000,
    )
    figures = tab.locator("#figures .figure")
    expect(figures).to_have_count(1)
    expect(figures.first).to_contain_text("decisions with the Oracle's figures, of 1")
    expect(tab.locator("#legend li")).to_have_count(0)
    expect(tab.locator("#costly li")).to_have_text(
        ["None: the Oracle gave no figures for any of your decisions."]
    )
    body = tab.locator("#decision-body")
    expect(body.locator("strong").first).to_have_text("Call the blind showdown")
    facts = body.locator("dl.facts").first
    hand = facts.locator("dt", has_text="Your hand").locator("xpath=following-sibling::dd[1]")
    expect(hand).to_have_text("unseen: the blind showdown is called before anybody looks at a card")
    for dealt in d["hand"]:
        expect(body).not_to_contain_text(card(dealt))
    expect(body.locator(".error")).to_have_count(0)
    expect(body).to_contain_text(d["note"])
    shot(tab, "review-blind.png")
