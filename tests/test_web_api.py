"""The study side of the web server without a browser (Starlette's test client): the Oracle over
HTTP answers exactly what ``thirtyone oracle --json`` prints for the same settings and refuses
what the command refuses with its message; the review and the record are the JSON of
``thirtyone review --json`` and ``thirtyone stats --json``; a review reads only the saves of the
data folder, chosen by name; the Oracle runs off the event loop."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("httpx2", reason="Starlette's test client needs httpx2 (the test extra)")

import httpx2 as httpx
from click.testing import CliRunner, Result
from starlette.applications import Starlette
from starlette.testclient import TestClient
from thirtyone import _core
from thirtyone.cli.app import main
from thirtyone.cli.manners import crop_echoes
from thirtyone.errors import StateError
from thirtyone.game.rules import Rules
from thirtyone.store import record
from thirtyone.store.record import GameRecord
from thirtyone.web import api

EXAMPLE = (Path(__file__).parent / "data" / "example_state.json").read_bytes()
ENV = {"COLUMNS": "100", "NO_COLOR": "1"}
#: A small budget with no time limit: the answer is the whole of its work on any machine.
SMALL = {"deals": "300", "playouts": "1000", "seed": "3", "max_time": "0"}
REVIEW = {"deals": "200", "playouts": "500"}
# Draw from the stock and put the drawn card down (the 4th card), every turn.
ALWAYS_DRAWS = "d\n4\n" * 400
TABLE = ["--seats", "2", "--lives", "1", "--seed", "5"]


@pytest.fixture
def client() -> TestClient:
    return TestClient(Starlette(routes=api.routes))


def cli(*args: str, input: bytes | str | None = None) -> Result:
    data = os.environ["THIRTYONE_DATA_DIR"]
    r = CliRunner().invoke(main, list(args), input=input, env={**ENV, "THIRTYONE_DATA_DIR": data})
    assert "Traceback" not in r.output
    return r


def options(settings: dict[str, str]) -> list[str]:
    """The command's options for the API's query parameters."""
    return [x for k, v in settings.items() for x in (f"--{k.replace('_', '-')}", v)]


def refused_as_the_command(response: httpx.Response, result: Result, status: int = 400) -> None:
    """The API refuses with the command's one line, and the command exits with status 2."""
    assert result.exit_code == 2, result.output
    assert response.status_code == status, response.text
    assert result.stderr == f"Error: {response.json()['error']}\n"


def refused_as_the_option(
    response: httpx.Response, command: list[str], given: list[str], input: bytes | None = None
) -> None:
    """A setting past its bounds is refused in the same words by the API and by the command
    given its options ``given``, each door naming it as it was given there (ruling 366): the
    API by its parameter (``max_time must be …``), the command by its option as typed
    (``Invalid value for '--max-time': must be …``, a long number in it cut short as the
    command line cuts every value it repeats). The command exits with status 2."""
    result = cli(*command, *given, input=input)
    assert result.exit_code == 2, result.output
    assert response.status_code == 400, response.text
    name, _, words = response.json()["error"].partition(" ")
    option = f"--{name.replace('_', '-')}"
    assert option in given and words.startswith("must be "), (option, words)
    words = crop_echoes(words, given)
    where = " ".join(a for a in command if a.isalpha())
    assert result.stderr == f"Error: Invalid value for '{option}': {words}. See main {where} -h.\n"


def play(*args: str, moves: str = ALWAYS_DRAWS) -> None:
    r = cli("play", "--no-oracle", "--fast", *args, input=moves)
    assert r.exit_code == 0, r.output


# -- POST /api/oracle -----------------------------------------------------------------------------


@pytest.mark.parametrize("objective", ["round", "game"])
def test_the_oracle_answers_what_the_command_prints(client: TestClient, objective: str) -> None:
    state = json.loads(EXAMPLE)
    state["lives"] = [3, 3, 2, 1]
    body = json.dumps(state).encode()
    settings = {**SMALL, "objective": objective}
    response = client.post("/api/oracle", params=settings, content=body)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    printed = cli("oracle", "-", "--json", *options(settings), input=body)
    assert printed.exit_code == 0, printed.output
    assert response.text == printed.stdout
    # Holding AH 9H 4H with the QC on top (oracle.md's example): knock, draw, or take the QC.
    answer = response.json()
    assert {o["option"] for o in answer["options"]} == {"knock", "draw", "take"}
    assert next(o for o in answer["options"] if o["option"] == "take")["card"] == "QC"
    assert answer["deals"] <= 300 and "best_game" in answer


def test_the_defaults_are_the_commands(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without parameters the Oracle is asked with the command's defaults."""
    asked: list[dict[str, Any]] = []

    def noted(raw: bytes, *, cancel: Any, **settings: Any) -> Any:
        assert isinstance(cancel, _core.Cancel) and not cancel.cancelled
        asked.append(settings)
        raise StateError("noted")

    monkeypatch.setattr(api, "ask", noted)
    assert client.post("/api/oracle", content=EXAMPLE).json() == {"error": "noted"}
    defaults = main.commands["oracle"].make_context("oracle", ["-"]).params
    wanted = ("deals", "playouts", "seed", "max_time", "objective")
    assert asked == [{name: defaults[name] for name in wanted}]


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"{not json",
        b'{"seats": 4}',
        json.dumps({**json.loads(EXAMPLE), "colour": "red"}).encode(),
        json.dumps({**json.loads(EXAMPLE), "hand": ["AH", "AH", "4H"]}).encode(),
        json.dumps({**json.loads(EXAMPLE), "me": 7}).encode(),
        b"\xff\xfe not text",
    ],
)
def test_a_bad_state_gets_the_commands_message(client: TestClient, body: bytes) -> None:
    response = client.post("/api/oracle", params=SMALL, content=body)
    refused_as_the_command(response, cli("oracle", "-", "--json", *options(SMALL), input=body))


@pytest.mark.parametrize(
    "changed",
    [
        {"deals": "0"},
        {"playouts": "20000000"},
        {"seed": "-1"},
        {"max_time": "4000"},
        # Numbers longer than any bound are refused by it, as the command refuses them (they
        # were "not a whole number" past 40 digits).
        {"deals": "1" + "0" * 60},
        {"seed": "9" * 45},
        {"playouts": "-" + "9" * 45},
        {"max_time": "1e5"},
        {"max_time": "inf"},
    ],
)
def test_a_setting_out_of_bounds_gets_the_commands_message(
    client: TestClient, changed: dict[str, str]
) -> None:
    settings = {**SMALL, **changed}
    response = client.post("/api/oracle", params=settings, content=EXAMPLE)
    refused_as_the_option(response, ["oracle", "-", "--json"], options(settings), EXAMPLE)


def test_a_time_just_past_its_bound_is_quoted_with_its_digits(client: TestClient) -> None:
    """``max_time=3600.0000001`` is over the hour: the API and the command said "up to 3,600,
    not 3600", the bound itself (six digits, ``:g``). The number is quoted as it is."""
    settings = {**SMALL, "max_time": "3600.0000001"}
    response = client.post("/api/oracle", params=settings, content=EXAMPLE)
    refused_as_the_option(response, ["oracle", "-", "--json"], options(settings), EXAMPLE)
    assert response.json()["error"].endswith("up to 3,600, not 3600.0000001")


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("deals=many", 'deals must be a whole number, not "many"'),
        ("max_time=soon", 'max_time must be a number of seconds, not "soon"'),
        # (Python's float() reads both: a full-width one was a second, "0_5" five.)
        ("max_time=%EF%BC%91", 'max_time must be a number of seconds, not "\uff11"'),
        ("max_time=0_5", 'max_time must be a number of seconds, not "0_5"'),
        ("objective=fun", 'objective must be round or game, not "fun"'),
        ("dealz=3", 'unknown query parameter "dealz"'),
        ("seed=1&seed=2", "seed is given twice"),
        ("deals=" + "9" * 5000, "deals must be a whole number"),
    ],
)
def test_parameters_that_are_not_settings_are_refused(
    client: TestClient, query: str, said: str
) -> None:
    response = client.post(f"/api/oracle?{query}", content=EXAMPLE)
    assert response.status_code == 400 and said in response.json()["error"]


@pytest.mark.parametrize("name", ["seed", "deals", "playouts"])
def test_a_number_in_other_digits_is_refused_as_the_command_refuses_it(
    client: TestClient, name: str
) -> None:
    """Ruling 354: `seed=` 1200 in full-width digits was read as 1200 (Python's int() takes any
    script's digits), where the new-game form and the command's options refuse it: it is not
    a whole number in the digits 0 to 9, and is quoted as typed."""
    for typed in ("\uff11\uff12\uff10\uff10", "1_200"):  # (int() reads both as 1200)
        said = f'{name} must be a whole number, not "{typed}"'
        response = client.post("/api/oracle", params={**SMALL, name: typed}, content=EXAMPLE)
        assert (response.status_code, response.json()) == (400, {"error": said})
        response = client.get("/api/review", params={**REVIEW, name: typed})
        assert (response.status_code, response.json()) == (400, {"error": said})
    response = client.post("/api/oracle", params={**SMALL, name: "+1200"}, content=EXAMPLE)
    assert response.status_code == 200  # (a sign, as the command takes it)


def test_the_reviews_query_quotes_a_wrong_value_as_the_product_does(client: TestClient) -> None:
    """Text in double quotes, as the core and the new-game form quote it (ruling 146); it was
    Python's 'many'."""
    response = client.get("/api/review", params={**REVIEW, "deals": "many"})
    assert response.status_code == 400
    assert response.json()["error"] == 'deals must be a whole number, not "many"'
    response = client.get("/api/review", params={**REVIEW, "game": "x.txt"})
    assert response.json()["error"].endswith(', not "x.txt"')


@pytest.mark.parametrize("path", ["/api/saves", "/api/stats"])
def test_a_query_parameter_where_none_is_taken_is_refused_in_a_whole_sentence(
    client: TestClient, path: str
) -> None:
    # (It said "unknown query parameter 'foo': the known ones are", and stopped there.)
    response = client.get(f"{path}?foo=bar")
    assert response.status_code == 400
    assert response.json()["error"] == 'unknown query parameter "foo": it takes none'


def test_an_oversize_body_is_refused_unread(client: TestClient) -> None:
    big = b" " * (api.MAX_STATE_BYTES + 1)
    response = client.post("/api/oracle", params=SMALL, content=big)
    assert response.status_code == 413
    assert f"at most {api.MAX_STATE_BYTES:,} are read" in response.json()["error"]

    def chunks() -> Any:  # no Content-Length: counted as it comes
        for _ in range(api.MAX_STATE_BYTES // 4096 + 2):
            yield b" " * 4096

    response = client.post("/api/oracle", params=SMALL, content=chunks())
    assert response.status_code == 413
    # A state with whitespace up to the limit is read whole.
    padded = EXAMPLE + b" " * (api.MAX_STATE_BYTES - len(EXAMPLE))
    assert client.post("/api/oracle", params=SMALL, content=padded).status_code == 200


def test_only_post_asks_the_oracle(client: TestClient) -> None:
    response = client.get("/api/oracle")
    assert response.status_code == 405 and response.headers["allow"] == "POST"
    assert response.json() == {
        "error": "/api/oracle takes POST with the state as its body, not GET"
    }
    response = client.post("/api/stats")
    assert response.status_code == 405 and response.headers["allow"] == "GET, HEAD"
    assert response.json() == {"error": "/api/stats takes GET, not POST"}
    assert client.head("/api/stats").status_code == 200


def test_a_path_of_the_api_that_is_none_of_its_routes_is_said_in_json(client: TestClient) -> None:
    for method in ("GET", "POST", "DELETE"):
        response = client.request(method, "/api/oracles")
        assert response.status_code == 404
        said = response.json()["error"]
        assert said.startswith('there is no "/api/oracles" here; the API is POST /api/oracle')
        assert "GET /api/review" in said


def test_seconds_are_read_as_the_command_reads_them(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``max_time=1e3`` is a thousand seconds, as ``--max-time 1e3`` is (it was refused)."""
    settings = {**SMALL, "max_time": "1e3"}
    response = client.post("/api/oracle", params=settings, content=EXAMPLE)
    printed = cli("oracle", "-", "--json", *options(settings), input=EXAMPLE)
    assert response.status_code == 200 and printed.exit_code == 0
    assert response.text == printed.stdout


def test_no_question_over_http_is_without_a_time_limit(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``max_time=0`` (the command's "no limit") is the server's longest, an hour."""
    asked: list[float] = []

    def noted(raw: bytes, *, max_time: float, **settings: Any) -> Any:
        asked.append(max_time)
        raise StateError("noted")

    monkeypatch.setattr(api, "ask", noted)
    for given in ("0", "0.0", "2.5"):
        client.post("/api/oracle", params={**SMALL, "max_time": given}, content=EXAMPLE)
    assert asked == [3600.0, 3600.0, 2.5]


def test_the_oracle_runs_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """While the Oracle works on one request, another is answered: the first is held until the
    second has its answer, which could never come if the Oracle held the event loop."""
    released = threading.Event()
    real = api.ask

    def held(raw: bytes, **settings: Any) -> Any:
        if not released.wait(60):
            raise AssertionError("no other request was answered while the Oracle ran")
        return real(raw, **settings)

    monkeypatch.setattr(api, "ask", held)

    async def both() -> tuple[httpx.Response, httpx.Response]:
        transport = httpx.ASGITransport(app=Starlette(routes=api.routes))
        async with httpx.AsyncClient(transport=transport, base_url="http://local") as http:
            asked = asyncio.create_task(http.post("/api/oracle", params=SMALL, content=EXAMPLE))
            await asyncio.sleep(0)
            stats = await http.get("/api/stats")
            released.set()
            return await asked, stats

    # On a thread of its own: a loop of its own, whatever ran in this one before (Playwright's
    # sync API leaves a running loop in the thread that used it).
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        answer, stats = pool.submit(asyncio.run, both()).result(timeout=120)
    assert stats.status_code == 200 and answer.status_code == 200
    assert answer.json()["deals"] <= 300


# -- GET /api/review ------------------------------------------------------------------------------


def test_the_review_is_the_commands(client: TestClient) -> None:
    play(*TABLE)
    response = client.get("/api/review", params=REVIEW)
    assert response.status_code == 200, response.text
    printed = cli("review", "--json", *options(REVIEW))
    assert printed.exit_code == 0 and response.text == printed.stdout
    review = response.json()
    assert review["game"]["seed"] == 5 and review["decisions"]
    # The current save (the same finished game) and the save by its file name: the same review.
    assert client.get("/api/review", params={**REVIEW, "game": "current"}).text == response.text
    named = client.get("/api/review", params={**REVIEW, "game": "saved-game.json"})
    assert named.text == response.text
    seeded = client.get("/api/review", params={**REVIEW, "seed": "9"})
    assert seeded.text == cli("review", "--json", *options(REVIEW), "--seed", "9").stdout


def test_a_review_reads_only_the_saves_of_the_data_folder(client: TestClient) -> None:
    play(*TABLE)
    data = Path(os.environ["THIRTYONE_DATA_DIR"])
    (data / "notes.json").write_text('{"format": "thirtyone-save"}')
    for game in (
        "../saved-game.json",
        "/etc/passwd",
        str(data / "saved-game.json"),
        "saved-game.json/../last-game.json",
        "notes.json",
        "record.sqlite3",
        "saved-game.0.json",
        "saved-game.1.json.bak",
        "%2e%2e/saved-game.json",
    ):
        response = client.get("/api/review", params={**REVIEW, "game": game})
        assert response.status_code == 400, game
        assert response.json()["error"].startswith("game must be last, current or the file name")


def test_a_missing_or_foreign_save_gets_the_commands_message(client: TestClient) -> None:
    response = client.get("/api/review", params=REVIEW)  # no game played yet
    refused_as_the_command(response, cli("review", "--json", *options(REVIEW)), 404)
    data = Path(os.environ["THIRTYONE_DATA_DIR"])
    response = client.get("/api/review", params={**REVIEW, "game": "saved-game.3.json"})
    printed = cli("review", str(data / "saved-game.3.json"), "--json", *options(REVIEW))
    refused_as_the_command(response, printed, 404)
    (data / "saved-game.2.json").write_text("my shopping list")
    response = client.get("/api/review", params={**REVIEW, "game": "saved-game.2.json"})
    printed = cli("review", str(data / "saved-game.2.json"), "--json", *options(REVIEW))
    refused_as_the_command(response, printed, 422)
    assert "not a thirtyone save" in response.json()["error"]


@pytest.mark.parametrize(
    "changed", [{"deals": "0"}, {"seed": "-1"}, {"seed": "99999999999999999999999999"}]
)
def test_review_settings_out_of_bounds_are_the_commands(
    client: TestClient, changed: dict[str, str]
) -> None:
    """A seed out of the engine's bounds too: the review took any whole number (-1 was
    reviewed, and shown as its seed)."""
    play(*TABLE)
    response = client.get("/api/review", params=changed)
    refused_as_the_option(response, ["review", "--json"], options(changed))


def test_a_review_over_http_has_bounds_of_its_own(client: TestClient) -> None:
    """Each decision is a query: a review asked over HTTP takes at most the Oracle's own
    budget (10,000 deals, 50,000 playouts), the command more."""
    play(*TABLE)
    for name, most in (("deals", 10_000), ("playouts", 50_000)):
        response = client.get("/api/review", params={**REVIEW, name: str(most + 1)})
        assert response.status_code == 400
        assert response.json()["error"] == (
            f"{name} must be a whole number from 1 to {most:,} for a review asked over HTTP "
            f"(thirtyone review takes more), not {most + 1:,}"
        )
    response = client.get("/api/review", params={"deals": "1000000", "playouts": "10000000"})
    assert response.status_code == 400


def test_a_review_is_made_once_for_a_file_as_it_is(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    play(*TABLE)
    made: list[int] = []
    real = api.review.review

    def counted(*args: Any, **kw: Any) -> Any:
        made.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(api.review, "review", counted)
    first = client.get("/api/review", params=REVIEW).text
    assert client.get("/api/review", params=REVIEW).text == first and len(made) == 1
    play("--seats", "2", "--lives", "1", "--seed", "6")  # a new last game
    assert client.get("/api/review", params=REVIEW).text != first and len(made) == 2


def test_the_saves_listed(client: TestClient) -> None:
    assert client.get("/api/saves").json()["saves"] == []
    play(*TABLE)
    data = Path(os.environ["THIRTYONE_DATA_DIR"])
    (data / "saved-game.1.json").write_bytes((data / "saved-game.json").read_bytes())
    (data / "saved-game.2.json").write_text("not a save")
    listed = {s["game"]: s for s in client.get("/api/saves").json()["saves"]}
    assert set(listed) == {"last", "current", "saved-game.1.json", "saved-game.2.json"}
    assert listed["last"]["state"] == "finished" and listed["last"]["names"] == ["You", "Alice"]
    assert listed["saved-game.1.json"]["seed"] == 5
    assert listed["saved-game.2.json"]["state"] == "not a save"


def test_a_saves_state_in_the_list_is_its_journals(client: TestClient) -> None:
    """Ruling 290: a finished game edited to end early (its journal cut to its first 20
    actions, "over" still true) is reviewed as unfinished and was listed as finished; a save
    whose journal ended the game under "over": false (a crash at its last moment) is reviewed
    as over and was listed as unfinished; one that cannot be replayed is damaged."""
    play(*TABLE)
    data = Path(os.environ["THIRTYONE_DATA_DIR"])
    finished = json.loads((data / "last-game.json").read_text())
    assert finished["over"] is True
    cut = {**finished, "journal": finished["journal"][:20]}
    (data / "saved-game.1.json").write_text(json.dumps(cut))
    (data / "saved-game.2.json").write_text(json.dumps({**finished, "over": False}))
    wrong = {**finished, "journal": [["knock"], *finished["journal"]]}
    (data / "saved-game.3.json").write_text(json.dumps(wrong))
    listed = {s["game"]: s for s in client.get("/api/saves").json()["saves"]}
    assert listed["saved-game.1.json"]["state"] == "unfinished"
    assert listed["saved-game.2.json"]["state"] == "finished"
    assert listed["saved-game.3.json"]["state"] == "damaged"
    assert "cannot be replayed" in listed["saved-game.3.json"]["why"]
    review = client.get("/api/review", params={**REVIEW, "game": "saved-game.1.json"}).json()
    assert review["game"]["over"] is False
    review = client.get("/api/review", params={**REVIEW, "game": "saved-game.2.json"}).json()
    assert review["game"]["over"] is True


# -- GET /api/stats -------------------------------------------------------------------------------


def test_the_record_is_the_commands(client: TestClient) -> None:
    empty = client.get("/api/stats")
    assert empty.status_code == 200 and empty.json()["games"] == 0
    assert empty.text == cli("stats", "--json").stdout
    path = record.default_path()
    for place, preset in ((1, "standard"), (2, "scat"), (1, "standard")):
        others = [1, 2, 3]
        placing = [*others[: place - 1], 0, *others[place - 1 :]]
        record.add(
            path,
            GameRecord(
                finished=f"2025-02-0{place}T10:00:00+00:00",
                preset=preset,
                rules=Rules.preset(preset).to_dict(),
                names=["You", "Alice", "Ben", "Cara"],
                you=0,
                placing=placing,
                points=None,
                rounds=5,
                opponents="table",
                autoplay=False,
            ),
        )
    response = client.get("/api/stats")
    assert response.status_code == 200 and response.text == cli("stats", "--json").stdout
    stats = response.json()
    assert (stats["games"], stats["wins"]) == (3, 2)
    assert [g["won"] for g in stats["history"]] == [True, False, True]
    assert [g["place"] for g in stats["history"]] == [1, 2, 1]


def test_a_record_that_cannot_be_read_is_said(client: TestClient) -> None:
    record.default_path().parent.mkdir(parents=True, exist_ok=True)
    record.default_path().write_text("not a database")
    response = client.get("/api/stats")
    refused_as_the_command(response, cli("stats", "--json"), 422)


# -- the pages ------------------------------------------------------------------------------------


@pytest.mark.parametrize("page", ["/review", "/stats"])
def test_the_pages_load_only_their_own_files(client: TestClient, page: str) -> None:
    response = client.get(page)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    policy = response.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "http" not in response.text.replace('href="/', "")  # nothing from another site
    script = page.strip("/") + ".js"
    assert f'src="/study/{script}"' in response.text
    assert client.get(f"/study/{script}").status_code == 200
    assert client.get("/study/study.css").status_code == 200
    assert client.get("/study/../api.py").status_code == 404


# -- behind the guard -----------------------------------------------------------------------------


@pytest.fixture
def guarded(tmp_path: Path) -> TestClient:
    """The whole application, its guard in front (the test client's host is its name)."""
    from web_helpers import make_app

    return TestClient(make_app(tmp_path / "saved-game.json"))


def test_the_guards_refusals_under_api_are_json(guarded: TestClient) -> None:
    """Scripts read every answer of the API as JSON, a refusal at the door too; the pages
    keep their line of text."""
    big = guarded.post("/api/oracle", headers={"content-length": str(2 << 20)})
    chunked = guarded.post("/api/oracle", content=iter([b"{}"]))
    foreign = guarded.post("/api/oracle", content=b"{}", headers={"origin": "http://evil.example"})
    wrong_host = guarded.get("/api/stats", headers={"host": "evil.example"})
    for response, status, said in (
        (big, 413, "a request body may be at most 1,048,576 bytes"),
        (chunked, 411, "a request body must say its length (Content-Length)"),
        (foreign, 403, "a page of another site ('http://evil.example') may not ask this server's"),
        (wrong_host, 400, "this server does not answer to the name 'evil.example'"),
    ):
        assert response.status_code == status
        assert response.headers["content-type"] == "application/json"
        assert response.json()["error"].startswith(said)
    page = guarded.post("/", content=b"{}", headers={"origin": "http://evil.example"})
    assert page.status_code == 403 and page.text.startswith("Refused: a page of another site")


def test_a_long_host_or_origin_is_quoted_short(guarded: TestClient) -> None:
    """A refused name is quoted as every message quotes a value: its first 24 characters,
    then "…" (80 were shown, and nothing said that they were cut)."""
    host = guarded.get("/api/stats", headers={"host": "h" * 400})
    origin = guarded.post("/api/oracle", content=b"{}", headers={"origin": "http://" + "o" * 400})
    assert host.json()["error"] == f"this server does not answer to the name '{'h' * 24}'…"
    said = origin.json()["error"]
    assert said.startswith(f"a page of another site ('http://{'o' * 17}'…) may not"), said


@pytest.mark.parametrize("path", ["/api/review", "/api/stats", "/api/saves"])
def test_another_sites_page_cannot_ask_the_api_even_with_a_get(
    guarded: TestClient, path: str
) -> None:
    """A GET of the API may start minutes of work (a review): a page of another site, or of
    another port of this machine, is refused; the server's own pages, a script and an address
    typed in are not; the table's page may still be linked to from anywhere."""
    for headers in (
        {"origin": "http://evil.example"},
        {"sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "same-site"},
        {"origin": "http://testserver:8000", "sec-fetch-site": "same-site"},
    ):
        response = guarded.get(
            path, params=REVIEW if path == "/api/review" else {}, headers=headers
        )
        assert response.status_code == 403, headers
        assert "may not ask this server's API" in response.json()["error"]
    for headers in ({}, {"sec-fetch-site": "same-origin"}, {"sec-fetch-site": "none"}):
        response = guarded.get(
            path, params=REVIEW if path == "/api/review" else {}, headers=headers
        )
        assert response.status_code != 403, headers
    assert guarded.get("/", headers={"sec-fetch-site": "cross-site"}).status_code == 200


@pytest.mark.posix_only
def test_a_client_that_leaves_mid_upload_leaves_no_trace_in_the_log() -> None:
    """A body cut short (Content-Length 5,000, 100 bytes sent, the connection closed) is
    ignored quietly: no traceback on the server's standard error; the server goes on."""
    import socket
    import urllib.request

    from web_helpers import reserved_port, start_server, stop

    with reserved_port() as free:
        proc, url = start_server("--port", str(free))
    try:
        host, port = url.removeprefix("http://").rstrip("/").split(":")
        with socket.create_connection((host, int(port)), timeout=60) as sock:
            head = (
                f"POST /api/oracle HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Length: 5000\r\n\r\n"
            )
            sock.sendall(head.encode() + b"{" * 100)
        request = urllib.request.Request(
            url + "api/oracle?deals=100&playouts=100&seed=1", data=EXAMPLE, method="POST"
        )
        with urllib.request.urlopen(request, timeout=120) as answered:  # (after the cut one)
            assert answered.status == 200
    finally:
        _, err = stop(proc)
    assert "Traceback" not in err and "ClientDisconnect" not in err, err
