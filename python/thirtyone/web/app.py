"""The web application: the table's page, its static files, the game's WebSocket, and the routes
of :mod:`thirtyone.web.api` (review, stats, the Oracle over HTTP) when that module is present;
everything behind the :class:`~thirtyone.web.guard.Guard`.

``create_app(Settings(...))`` builds it for uvicorn (``thirtyone serve``) or for Starlette's test
client. The page is plain HTML, CSS and JavaScript from ``static/``, shipped in the wheel: no
build step, nothing fetched from another site (its Content-Security-Policy allows only this
server).
"""

from __future__ import annotations

import importlib
import importlib.util
import mimetypes
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from thirtyone.store import saves
from thirtyone.web.advice import Budget
from thirtyone.web.games import Games
from thirtyone.web.guard import Guard
from thirtyone.web.room import game_socket

STATIC = Path(__file__).parent / "static"
#: The table's page may load and connect to nothing but this server.
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
#: Some systems map .js to text/plain, which a browser refuses for a module script.
mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("text/css", ".css")
mimetypes.add_type("image/svg+xml", ".svg")


@dataclass(frozen=True)
class Settings:
    """What the server plays with: the save (game 0; default: the data folder's), the ``Host``
    names it answers to (``thirtyone serve`` gives :func:`~thirtyone.web.guard.own_hosts`; a
    name without a port: at any port; None: any), and the Oracle's budget."""

    save: Path = field(default_factory=saves.default_path)
    hosts: Collection[str] | None = ("127.0.0.1", "localhost", "[::1]")
    budget: Budget = field(default_factory=Budget)


async def table_page(request: Request) -> Response:
    return FileResponse(
        STATIC / "index.html",
        headers={"Content-Security-Policy": PAGE_POLICY, "Cache-Control": "no-cache"},
    )


def extra_routes() -> list[BaseRoute]:
    """The routes of :mod:`thirtyone.web.api` (the study pages and the Oracle over HTTP), when
    the package has that module."""
    if importlib.util.find_spec("thirtyone.web.api") is None:
        return []
    module: Any = importlib.import_module("thirtyone.web.api")
    return list(module.routes)


def create_app(settings: Settings | None = None) -> Starlette:
    """The application (see the module's doc)."""
    settings = settings or Settings()
    routes: list[BaseRoute] = [
        Route("/", table_page, methods=["GET", "HEAD"]),
        WebSocketRoute("/ws", game_socket),
        *extra_routes(),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(Guard, hosts=settings.hosts)])
    app.state.games = Games(settings.save, settings.budget)
    app.state.settings = settings
    return app
