"""The server's door: what it refuses before any route sees a request.

- **Another site's page.** The game's WebSocket and every request that may change something
  (any method but GET, HEAD and OPTIONS) are refused when their ``Origin`` is not the server's own
  (``http://`` and the ``Host`` the request was sent to), or when the browser says the request
  comes from another site (``Sec-Fetch-Site: cross-site``). A request without ``Origin`` (a script,
  curl) is let in: no page on another site can send one without it. There are no CORS headers,
  so no other site may read an answer either.
- **Another site's page asking the API.** A request to ``/api/…`` of any method (a GET there
  may start minutes of work: a review) is refused when its ``Origin`` is not the server's own or
  the browser marks it ``Sec-Fetch-Site: cross-site`` or ``same-site`` (a page on another port of
  this machine is same-site); the server's own pages send ``same-origin``, a link typed or
  bookmarked ``none``. The other pages may still be linked to from anywhere.
- **A name that is not this server's.** Unless the server listens on every address, a request
  whose ``Host`` is not one of the server's own names (``127.0.0.1:PORT``, ``localhost:PORT``, the
  ``--host`` given) is refused: a site whose name is made to point at 127.0.0.1 (DNS rebinding)
  would otherwise count as the same origin.
- **Oversized bodies.** A body longer than the limit is refused before it is read (413), and one
  without a length is refused (411).

A refusal is ``{"error": MESSAGE}`` (JSON) under ``/api/``, where scripts read the answers, and
one line of text elsewhere.

Every answer also says that it may not be framed by another page or sniffed as another type.
"""

from __future__ import annotations

from collections.abc import Collection

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from thirtyone.names import quoted

#: Requests that change nothing: no Origin check (a page may link to the table).
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: The API's paths: every request there is checked as one that changes something.
API = "/api/"
#: What a browser says of a request from a page of another site (or another port).
OTHER_SITES = frozenset({"cross-site", "same-site"})
#: The longest request body accepted (the Oracle's input is a few kilobytes).
MAX_BODY = 1 << 20
#: Said on every answer.
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def own_hosts(host: str, port: int) -> frozenset[str] | None:
    """The ``Host`` values a server listening on ``host``:``port`` answers to (None: any, for a
    server listening on every address, whose names cannot be known)."""
    bare = host.strip("[]")
    if bare in ("0.0.0.0", "::", ""):
        return None
    names = {f"[{bare}]" if ":" in bare else bare}
    if bare in ("127.0.0.1", "localhost", "::1"):
        names |= {"127.0.0.1", "localhost", "[::1]"}
    found = {f"{name.lower()}:{port}" for name in names}
    if port == 80:  # (a browser leaves the default port out)
        found |= {name.lower() for name in names}
    return frozenset(found)


def refusal(scope: Scope, headers: Headers, hosts: Collection[str] | None) -> str | None:
    """Why the request is refused (None: it is let in)."""
    host = headers.get("host", "").lower()
    if hosts is not None and host not in hosts and host.rsplit(":", 1)[0] not in hosts:
        return f"this server does not answer to the name {quoted(host)}"
    if is_api(scope):
        what, others = "ask this server's API", OTHER_SITES
    elif scope["type"] == "websocket" or scope.get("method", "GET") not in SAFE_METHODS:
        what, others = "play or change anything here", frozenset({"cross-site"})
    else:
        return None
    origin = headers.get("origin")
    if origin is not None and origin.lower() != f"http://{host}":
        return f"a page of another site ({quoted(origin)}) may not {what}"
    if headers.get("sec-fetch-site", "").lower() in others:
        return f"a page of another site may not {what}"
    return None


def is_api(scope: Scope) -> bool:
    """Whether the request is one of the API's (its refusals are JSON)."""
    return scope["type"] == "http" and str(scope.get("path", "")).startswith(API)


class Guard:
    """The ASGI middleware of the module's doc. ``hosts``: the ``Host`` values let in (see
    :func:`own_hosts`; a name without a port: at any port; None: any); ``max_body``: the longest
    body accepted, in bytes."""

    def __init__(
        self, app: ASGIApp, hosts: Collection[str] | None, max_body: int = MAX_BODY
    ) -> None:
        self.app = app
        self.hosts = None if hosts is None else frozenset(h.lower() for h in hosts)
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        why = refusal(scope, headers, self.hosts)
        if why is None and scope["type"] == "http":
            why = self._body(scope, headers)
        if why is not None:
            await self._refuse(scope, receive, send, why)
            return
        await self.app(scope, receive, _with_headers(send))

    def _body(self, scope: Scope, headers: Headers) -> str | None:
        if scope.get("method", "GET") in SAFE_METHODS:
            return None
        length = headers.get("content-length")
        if length is None:
            chunked = "chunked" in headers.get("transfer-encoding", "").lower()
            return "a request body must say its length (Content-Length)" if chunked else None
        if not length.isdigit() or int(length) > self.max_body:
            return f"a request body may be at most {self.max_body:,} bytes"
        return None

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, why: str) -> None:
        if scope["type"] == "websocket":
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": 1008, "reason": why[:120]})
            return
        status = 400 if why.startswith("this server does not answer") else 403
        if "request body" in why:
            status = 411 if "Content-Length" in why else 413
        response: Response = PlainTextResponse(f"Refused: {why}.\n", status_code=status)
        if is_api(scope):
            response = JSONResponse({"error": why}, status, headers={"Cache-Control": "no-store"})
        await response(scope, receive, _with_headers(send))


def _with_headers(send: Send) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = MutableHeaders(scope=message)
            for key, value in HEADERS.items():
                headers.setdefault(key, value)
        await send(message)

    return sending
