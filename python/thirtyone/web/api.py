"""The study side of the local web server: the Oracle over HTTP, the review of a saved game and
the record of games, as JSON and as two pages.

- ``POST /api/oracle``: the body is a state (``oracle.md``); the query parameters ``deals``,
  ``playouts``, ``seed``, ``max_time`` and ``objective`` are ``thirtyone oracle``'s, with its
  defaults and bounds, but ``max_time=0`` (no limit) is :data:`LONGEST`. The answer is the
  text of ``thirtyone oracle --json`` for the same settings (one function,
  :func:`thirtyone.oracle.query.ask`, answers both); a bad state or setting gets 400 and
  ``{"error": MESSAGE}``, the command's message; a body over :data:`MAX_STATE_BYTES` gets 413,
  unread.
- ``GET /api/review?game=…&deals=…&playouts=…&seed=…``: the text of ``thirtyone review --json``
  for the game ``last`` (the default: the last game played to its end), ``current`` (the save
  of the game under way) or a save of the data folder named by its file name
  (``saved-game.2.json``, :data:`SAVE_NAME`): never a path, so no page can have another file
  read. ``deals`` and ``playouts`` are at most :data:`REVIEW_DEALS` and :data:`REVIEW_PLAYOUTS`;
  ``max_time`` is the whole review's time limit (:data:`REVIEW_TIME` by default, ``0`` is
  :data:`LONGEST`): past it the review is stopped in the core and refused (503). A review is made
  once for a file as it is and its settings, and kept.
- ``GET /api/saves``: the saves a review may be asked of, with their players and state.
- ``GET /api/stats``: the text of ``thirtyone stats --json``.
- ``GET /review``, ``GET /stats`` and ``/study/…``: the two pages (plain HTML, CSS and
  JavaScript shipped in the package: no build step, nothing from the internet).

The Oracle and the reviews run in threads of their own (never on the event loop), at most
:data:`AT_ONCE` at a time; at most :data:`WAITING` more wait their turn on the event loop,
holding no thread (503 beyond), and a question whose client leaves is cancelled, waiting or
running (:class:`thirtyone.web.work.Turns`). Every answer under ``/api/`` is JSON, a path that is
no route (404) and a method a route does not take (405) too.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, request_response
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from thirtyone import _core
from thirtyone.errors import ThirtyOneError
from thirtyone.names import crop, plain_number, plain_whole, shown
from thirtyone.oracle.query import MAX_STATE_BYTES, answer_text, ask, check_max_time
from thirtyone.store import record, saves
from thirtyone.store import summary as record_summary
from thirtyone.study import review, review_json
from thirtyone.web.work import Busy, Gone, TooLong, Turns, timed

#: The query parameters of ``POST /api/oracle`` and of ``GET /api/review``.
ORACLE_PARAMETERS = ("deals", "playouts", "seed", "max_time", "objective")
REVIEW_PARAMETERS = ("game", "deals", "playouts", "seed", "max_time")
OBJECTIVES = ("round", "game")
#: The save files a review may be asked of: the last game, the save and its numbered backups.
SAVE_NAME = re.compile(r"(?:last-game|saved-game(?:\.[1-9][0-9]{0,3})?)\.json")
#: The backups listed by ``GET /api/saves`` (the most recent first).
LISTED_BACKUPS = 50
#: Questions to the Oracle (and reviews) running at once; each uses every core.
AT_ONCE = 2
#: Questions waiting for their turn, at most (beyond: 503, with Retry-After).
WAITING = 16
#: The seconds a refused question is told to wait before asking again.
RETRY_AFTER = 5
#: The longest a question to the Oracle may take over HTTP, in seconds: ``max_time=0`` ("no
#: limit" on the command line) is this over HTTP (the core's own bound for ``max_time``).
LONGEST = 3600.0
#: The most deals and playouts per decision of a review asked over HTTP (the Oracle's own
#: defaults, its full precision): ``thirtyone review`` takes more.
REVIEW_DEALS = _core.DEFAULT_DEALS
REVIEW_PLAYOUTS = _core.DEFAULT_PLAYOUTS
#: A review's time limit over HTTP by default, in seconds, from when it begins (its turn): far
#: more than a review at the page's precision takes (seconds), and about what a person waits
#: at a page. A script may ask for up to :data:`LONGEST` (``max_time``; 0 is that too).
REVIEW_TIME = 300.0
#: Reviews kept, the most recently asked.
KEPT_REVIEWS = 8

STATIC = Path(__file__).parent / "static" / "study"
#: The pages load only their own files, and no other site may frame them.
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
API_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}

T = TypeVar("T")
_turns = Turns(AT_ONCE, WAITING)


class Refused(Exception):
    """A request refused: its HTTP status and the message, one line as the command says it."""

    def __init__(self, status: int, message: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = " ".join(message.split())
        self.headers = {**API_HEADERS, **(headers or {})}

    def response(self) -> JSONResponse:
        return JSONResponse({"error": self.message}, self.status, headers=self.headers)


def _json(text: str) -> Response:
    """A JSON text as the command prints it (with its final newline)."""
    return Response(text + "\n", media_type="application/json", headers=API_HEADERS)


async def _left(request: Request) -> None:
    """Returns when the client has gone (its body, if any, already read)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def _in_turn(request: Request, work: Callable[[_core.Cancel], T]) -> T:
    """``work(cancel)`` in a thread of its own once fewer than :data:`AT_ONCE` are running,
    cancelled when the client leaves (:class:`Gone`); refused (503) when :data:`WAITING`
    questions already wait."""
    try:
        return await _turns.run(work, lambda: _left(request))
    except Busy:
        raise Refused(
            503,
            f"the server is busy: {AT_ONCE} questions are being answered and {WAITING} are "
            f"waiting; ask again in a few seconds",
            {"Retry-After": str(RETRY_AFTER)},
        ) from None


def _gone() -> Response:
    """The answer to a client that left (nobody reads it)."""
    return Response(status_code=499)


# -- the query parameters -------------------------------------------------------------------------


def parameters(request: Request, allowed: tuple[str, ...]) -> dict[str, str]:
    """The query parameters, each given once and each one of ``allowed``."""
    found: dict[str, str] = {}
    for key, value in request.query_params.multi_items():
        if key not in allowed:
            known = f"the known ones are {', '.join(allowed)}" if allowed else "it takes none"
            raise Refused(400, f"unknown query parameter {shown(key)}: {known}")
        if key in found:
            raise Refused(400, f"{key} is given twice")
        found[key] = value
    return found


#: More digits than any bound (10^38): such a number is read as 10^39, which the core names.
LONG_NUMBER = re.compile(r"\s*([+-]?)0*[0-9]{40,}\s*")


def _whole(given: Mapping[str, str], name: str, default: int | None) -> int | None:
    """A whole number as the command's options read it (Python's ``int``: any length, so a
    number too large is refused by its bounds, in the command's words)."""
    text = given.get(name)
    if text is None:
        return default
    if long := LONG_NUMBER.fullmatch(text):  # (int() reads at most 4,300 digits)
        return -(10**39) if long.group(1) == "-" else 10**39
    refused = Refused(400, f"{name} must be a whole number, not {shown(text)}")
    if not plain_whole(text):  # (int() reads other digits and "1_000": refused as the options are)
        raise refused
    try:
        return int(text)
    except ValueError:
        raise refused from None


def _seconds(given: Mapping[str, str], name: str, default: float) -> float:
    """A number of seconds as ``--max-time`` reads it (Python's ``float``: ``1e3``, ``2.5``)."""
    text = given.get(name)
    if text is None:
        return default
    if not plain_number(text):  # (float() reads other digits and "0_5": refused as the options are)
        raise Refused(400, f"{name} must be a number of seconds, not {shown(text)}")
    return float(text)


def _seed(given: Mapping[str, str]) -> int | None:
    """``seed`` (None when not given), checked against the core's bounds as ``--seed`` is: the
    review took any whole number (-1 was reviewed and shown as its seed)."""
    seed = _whole(given, "seed", None)
    if seed is not None:
        try:
            _core.check_settings(seed=seed)
        except ThirtyOneError as err:
            raise Refused(400, str(err)) from None
    return seed


def _counts(given: Mapping[str, str], deals: int, playouts: int) -> tuple[int, int]:
    """``deals`` and ``playouts`` (with these defaults), checked against the core's bounds as
    the command checks its options."""
    chosen = (_whole(given, "deals", deals), _whole(given, "playouts", playouts))
    assert chosen[0] is not None and chosen[1] is not None
    try:
        _core.check_settings(deals=chosen[0], playouts=chosen[1])
    except ThirtyOneError as err:
        raise Refused(400, str(err)) from None
    return chosen[0], chosen[1]


def _review_counts(given: Mapping[str, str]) -> tuple[int, int]:
    """A review's ``deals`` and ``playouts``: the command's bounds, and over HTTP at most
    :data:`REVIEW_DEALS` and :data:`REVIEW_PLAYOUTS` (each decision is a query)."""
    deals, playouts = _counts(given, review.DEALS, review.PLAYOUTS)
    for name, value, most in (
        ("deals", deals, REVIEW_DEALS),
        ("playouts", playouts, REVIEW_PLAYOUTS),
    ):
        if value > most:
            raise Refused(
                400,
                f"{name} must be a whole number from 1 to {most:,} for a review asked over "
                f"HTTP (thirtyone review takes more), not {value:,}",
            )
    return deals, playouts


def _review_time(given: Mapping[str, str]) -> float:
    """A review's ``max_time``: read and bounded as the Oracle's (``0`` is :data:`LONGEST`),
    :data:`REVIEW_TIME` when not given."""
    seconds = _seconds(given, "max_time", REVIEW_TIME)
    try:
        check_max_time(seconds)
    except ThirtyOneError as err:
        raise Refused(400, str(err)) from None
    return seconds or LONGEST


# -- POST /api/oracle -----------------------------------------------------------------------------


def oracle_settings(given: Mapping[str, str]) -> dict[str, Any]:
    """The settings of ``thirtyone oracle`` from the query parameters, with its defaults."""
    deals, playouts = _counts(given, _core.DEFAULT_DEALS, _core.DEFAULT_PLAYOUTS)
    objective = given.get("objective", "round")
    if objective not in OBJECTIVES:
        raise Refused(400, f"objective must be round or game, not {shown(objective)}")
    return {
        "deals": deals,
        "playouts": playouts,
        "seed": _seed(given),
        "max_time": _seconds(given, "max_time", 5.0),
        "objective": objective,
    }


def longest(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The settings with ``max_time`` 0 (no limit) made :data:`LONGEST`: no question runs
    longer over HTTP."""
    return {**settings, "max_time": settings["max_time"] or LONGEST}


async def read_body(request: Request, most: int = MAX_STATE_BYTES) -> bytes:
    """The request's body, refused (413) past ``most`` bytes without reading the rest."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and len(length) < 20 and int(length) > most:
        raise Refused(413, f"the state is {int(length):,} bytes; at most {most:,} are read")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > most:
            raise Refused(413, f"the state is over {most:,} bytes; at most {most:,} are read")
        chunks.append(chunk)
    return b"".join(chunks)


async def oracle(request: Request) -> Response:
    """``POST /api/oracle``: the Oracle's answer to the state in the body."""
    try:
        settings = longest(oracle_settings(parameters(request, ORACLE_PARAMETERS)))
        raw = await read_body(request)
        advice = await _in_turn(request, lambda cancel: ask(raw, **settings, cancel=cancel))
    except Refused as refused:
        return refused.response()
    except ThirtyOneError as err:
        return Refused(400, str(err)).response()
    except (ClientDisconnect, Gone):
        return _gone()
    return _json(answer_text(advice))


# -- GET /api/review, GET /api/saves --------------------------------------------------------------


def save_path(game: str | None) -> Path | None:
    """The save called ``game``: None for the last game (``last``, the default), the current
    save (``current``), or a save file of the data folder by name; anything else is refused."""
    if game in (None, "", "last"):
        return None
    if game == "current":
        return saves.default_path()
    if game is not None and SAVE_NAME.fullmatch(game):
        return saves.data_dir() / game
    raise Refused(
        400,
        f"game must be last, current or the file name of a save in the data folder "
        f"(saved-game.1.json), not {shown(game or '')}",
    )


class Reviews:
    """The reviews made, by the file as it was (its identity, size and time) and the settings
    (used on the event loop only). Reviews are made as the Oracle's questions are, in turn
    with them, and cancelled when their client leaves."""

    def __init__(self, kept: int = KEPT_REVIEWS) -> None:
        self.kept = kept
        self._done: OrderedDict[tuple[Any, ...], str] = OrderedDict()

    async def text(
        self,
        request: Request,
        path: Path | None,
        settings: tuple[int, int, int | None],
        seconds: float,
    ) -> str:
        """The JSON text of the review at ``settings`` (deals, playouts, seed), made within
        ``seconds`` (raises :class:`Refused` as the command would fail, and 503 past its time
        limit; :class:`Gone` when the client leaves before it is made)."""
        deals, playouts, seed = settings
        where = path or saves.last_game_path()
        try:
            info = where.stat()
            key: tuple[Any, ...] = (str(where), info.st_ino, info.st_size, info.st_mtime_ns)
        except OSError:
            key = (str(where), None)
        key += (deals, playouts, seed)
        if key in self._done:
            self._done.move_to_end(key)
            return self._done[key]
        made = timed(lambda cancel: _review_text(path, deals, playouts, seed, cancel), seconds)
        try:
            text = await _in_turn(request, made)
        except TooLong:
            raise Refused(
                503,
                f"the review was stopped at its time limit, {seconds:g} "
                f"{'second' if seconds == 1 else 'seconds'} (max_time): "
                f"ask with a longer max_time (at most {LONGEST:,.0f}), fewer deals or playouts, "
                f"or run thirtyone review, which has no time limit",
            ) from None
        self._done[key] = text
        while len(self._done) > self.kept:
            self._done.popitem(last=False)
        return text


def _review_text(
    path: Path | None,
    deals: int,
    playouts: int,
    seed: int | None,
    cancel: _core.Cancel | None = None,
) -> str:
    """``thirtyone review [PATH] --json``'s text, or :class:`Refused` with its message."""
    try:
        saved, where = review.load(path)
        replay = review.decisions(saved, where)
    except saves.SaveError as err:
        missing = not os.path.lexists(path or saves.last_game_path())
        raise Refused(404 if missing else 422, str(err)) from None
    if not replay.decisions:
        name = saved.names[replay.seat]
        raise Refused(422, f"the game at {where} has no decisions of {name} to review")
    settings = review.Settings(deals, playouts, saved.seed if seed is None else seed)
    try:
        return review_json.to_text(review.review(replay, settings, cancel=cancel))
    except ThirtyOneError as err:
        raise Refused(400, str(err)) from None


_reviews = Reviews()


async def review_game(request: Request) -> Response:
    """``GET /api/review``: a saved game reviewed, as ``thirtyone review --json``."""
    try:
        given = parameters(request, REVIEW_PARAMETERS)
        deals, playouts = _review_counts(given)
        seed = _seed(given)
        seconds = _review_time(given)
        path = save_path(given.get("game"))
        text = await _reviews.text(request, path, (deals, playouts, seed), seconds)
    except Refused as refused:
        return refused.response()
    except Gone:
        return _gone()
    return _json(text)


def _listed(game: str, path: Path) -> dict[str, Any] | None:
    """A save as ``GET /api/saves`` lists it (None when there is nothing at ``path``)."""
    try:
        found = saves.look(path)
        if found.state == "missing":
            return None
        modified = dt.datetime.fromtimestamp(path.stat().st_mtime, dt.UTC)
    except (saves.SaveError, OSError) as err:
        return {"game": game, "file": path.name, "state": "not a save", "why": str(err)}
    entry: dict[str, Any] = {
        "game": game,
        "file": path.name,
        "state": found.state,
        "modified": modified.isoformat(timespec="seconds"),
    }
    if found.saved is not None:
        entry["state"], why = _replayed_state(found.saved)
        if why:
            entry["why"] = why
        entry["names"] = [crop(n) for n in found.saved.names]
        entry["you"] = found.saved.you
        entry["seed"] = found.saved.seed
    else:
        entry["why"] = found.why
    return entry


def _replayed_state(saved: saves.SavedGame) -> tuple[str, str]:
    """A save's state as its journal has it, as the review finds it (ruling 290): ``finished``
    when its actions ended the game (also under ``"over": false``, a crash at its last moment),
    ``unfinished`` when they did not (also under ``"over": true``, an edited file), ``damaged``
    when they cannot be replayed (and why). A replay is milliseconds, even of a long game."""
    try:
        game = saves.replayed(saved)
    except saves.SaveError as err:
        return "damaged", str(err)
    return ("finished" if game.over else "unfinished"), ""


def saves_list() -> list[dict[str, Any]]:
    """The last game, the save and the most recent backups of the data folder."""
    folder = saves.data_dir()
    chosen = [("last", saves.last_game_path()), ("current", saves.default_path())]
    try:
        backups = [p for p in folder.glob("saved-game.*.json") if SAVE_NAME.fullmatch(p.name)]
        backups.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        backups = []
    chosen += [(p.name, p) for p in backups[:LISTED_BACKUPS]]
    return [e for game, path in chosen if (e := _listed(game, path)) is not None]


async def saves_listed(request: Request) -> Response:
    """``GET /api/saves``."""
    try:
        parameters(request, ())
    except Refused as refused:
        return refused.response()
    listed = await run_in_threadpool(saves_list)
    return JSONResponse({"folder": str(saves.data_dir()), "saves": listed}, headers=API_HEADERS)


# -- GET /api/stats -------------------------------------------------------------------------------


def stats_text() -> str:
    """``thirtyone stats --json``'s text, or :class:`Refused` with its message."""
    path = record.default_path()
    try:
        contents = record.read(path)
    except record.RecordError as err:
        raise Refused(422, str(err)) from None
    summary = record_summary.summary(contents.games, path, skipped=len(contents.skipped))
    return record_summary.to_text(summary)


async def stats(request: Request) -> Response:
    """``GET /api/stats``: the record of games, as ``thirtyone stats --json``."""
    try:
        parameters(request, ())
        text = await run_in_threadpool(stats_text)
    except Refused as refused:
        return refused.response()
    return _json(text)


# -- the pages ------------------------------------------------------------------------------------


def page(name: str) -> Callable[[Request], Any]:
    """The route of a page: its HTML file, with headers that keep it to its own files."""

    async def show(request: Request) -> Response:
        text = (STATIC / name).read_text(encoding="utf-8")
        return HTMLResponse(text, headers=PAGE_HEADERS)

    return show


#: The API's routes: each takes one method (GET ones HEAD too).
API = {
    "/api/oracle": ("POST", oracle, " with the state as its body"),
    "/api/review": ("GET", review_game, ""),
    "/api/saves": ("GET", saves_listed, ""),
    "/api/stats": ("GET", stats, ""),
}


def api_route(path: str) -> Route:
    """``path``'s route, which answers any other method with 405 and a JSON error."""
    method, endpoint, body = API[path]
    allowed = "GET, HEAD" if method == "GET" else method

    async def answer(request: Request) -> Response:
        if request.method in allowed.split(", "):
            response: Response = await endpoint(request)
            return response
        message = f"{path} takes {method}{body}, not {request.method}"
        return Refused(405, message, {"Allow": allowed}).response()

    return Route(path, EveryMethod(answer), name=path)


class EveryMethod:
    """An endpoint as an ASGI application, so that its route takes every method (Starlette
    gives a function's route GET alone) and the endpoint answers the others itself."""

    def __init__(self, endpoint: Callable[[Request], Awaitable[Response]]) -> None:
        self.app = request_response(endpoint)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)


async def not_found(request: Request) -> Response:
    """Any other path under ``/api/``: 404, with the routes there are."""
    known = ", ".join(f"{method} {path}" for path, (method, _, _) in API.items())
    where = shown(request.url.path)
    return Refused(404, f"there is no {where} here; the API is {known}").response()


routes: list[BaseRoute] = [
    *(api_route(path) for path in API),
    Route("/api/{rest:path}", EveryMethod(not_found)),
    Route("/review", page("review.html"), methods=["GET"]),
    Route("/stats", page("stats.html"), methods=["GET"]),
    Mount("/study", app=StaticFiles(directory=STATIC), name="study"),
]
