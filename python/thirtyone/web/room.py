"""The game over a WebSocket (``/ws``): each page's messages read, checked and carried out, and
the game's messages sent back (docs/web.md is the protocol).

A message that is not understood — not JSON, too long, of an unknown type, with a field of the
wrong kind, a move that is not legal or was for an earlier position — gets an ``error`` message
saying why, and the connection and the game go on; nothing a page sends can stop the server.
Several pages may watch one game (two tabs): each move is played once, in order, and every page
is sent what happens.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from thirtyone import __version__, names
from thirtyone._core import Action
from thirtyone.errors import ThirtyOneError
from thirtyone.game.seats import ACTION_KINDS, is_action_kind
from thirtyone.store import saves
from thirtyone.web import newgame, views
from thirtyone.web.games import Games, Lobby, Refused
from thirtyone.web.table import Table

log = logging.getLogger("thirtyone.web")

#: The longest message a page may send (the new-game form is well under it).
MAX_MESSAGE = 64 * 1024
#: Actions a page may ask for (what is legal is the session's to say).
ACTIONS = ACTION_KINDS
#: The most messages waiting for one page before it is let go (it stopped reading): its
#: connection is closed, what waited is dropped, and the page, once it reads again, opens a new
#: connection and is sent the game as it stands.
MAX_WAITING = 10_000
#: The close of a page let go: "try again later" (the page's link opens a new connection).
LET_GO = 1013
#: A move or a hint for a position the game has left (another page moved first).
STALE = "that was for an earlier position (the game has moved on)"


class Outbox:
    """The messages to one page, sent in order by one task."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.let_go: asyncio.Task[None] | None = None

    def send(self, message: dict[str, Any]) -> None:
        if self.let_go is not None:
            return
        if self.queue.qsize() < MAX_WAITING:
            self.queue.put_nowait(message)
            return
        # (It kept every message it was not reading, without end: a page that read again then
        # missed those past the limit, and its memory stayed the server's.)
        while not self.queue.empty():
            self.queue.get_nowait()
        self.close()
        self.let_go = asyncio.get_running_loop().create_task(self._close())

    async def _close(self) -> None:
        try:
            await self.websocket.close(code=LET_GO, reason="the page stopped reading")
        except (WebSocketDisconnect, RuntimeError, OSError):
            return

    def close(self) -> None:
        self.queue.put_nowait(None)

    async def run(self) -> None:
        while (message := await self.queue.get()) is not None:
            try:
                text = json.dumps(message, allow_nan=False)
            except (TypeError, ValueError):  # a bug: said, and the page is told
                log.exception("a message could not be written as JSON")
                text = json.dumps({"type": "error", "message": "the server could not say that"})
            try:
                await self.websocket.send_text(text)
            except (WebSocketDisconnect, RuntimeError, OSError):
                return


async def game_socket(websocket: WebSocket) -> None:
    """The WebSocket endpoint: one page's connection, for as long as it lasts."""
    games: Games = websocket.app.state.games
    await websocket.accept()
    outbox = Outbox(websocket)
    sender = asyncio.create_task(outbox.run())
    room = Room(games, outbox)
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                room.error("send text: each message is a JSON object (docs/web.md)")
                continue
            await room.handle(text)
    except WebSocketDisconnect:
        pass
    except asyncio.CancelledError:
        # (The server stopping gives each page two seconds to close; one whose browser does not
        # answer, busy or gone, is cancelled: an end like any other, not an error. It printed a
        # traceback at Ctrl-C.)
        pass
    finally:
        room.leave()
        outbox.close()
        await asyncio.gather(sender, return_exceptions=True)


class Room:
    """One page's side of the conversation."""

    def __init__(self, games: Games, outbox: Outbox) -> None:
        self.games = games
        self.outbox = outbox
        self.table: Table | None = None
        self.number = 0
        self.welcomed = False
        self.handlers: dict[str, Callable[[dict[str, Any]], Awaitable[None]]] = {
            "hello": self.hello,
            "new": self.new,
            "act": self.act,
            "hint": self.hint,
            "mode": self.mode,
        }

    def send(self, message: dict[str, Any]) -> None:
        self.outbox.send(message)

    def error(self, text: str) -> None:
        self.send({"type": "error", "message": text})

    async def handle(self, text: str) -> None:
        """Carry out one message (or say why not)."""
        if len(text) > MAX_MESSAGE:
            self.error(f"a message may be at most {MAX_MESSAGE:,} characters")
            return
        try:
            message = json.loads(text)
        except (ValueError, RecursionError):
            self.error("a message must be JSON (docs/web.md)")
            return
        if not isinstance(message, dict):
            self.error('a message must be a JSON object, such as {"type": "hello"} (docs/web.md)')
            return
        kind = message.get("type")
        handler = self.handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            shown = f"{kind!r:.40}" if isinstance(kind, str) else "none"
            self.error(f"unknown message type {shown}: one of {', '.join(self.handlers)}")
            return
        try:
            await handler(message)
        except Refused as err:
            self.error(str(err))
        except Exception as err:  # never let one message stop the connection or the server
            log.exception("message %s failed", kind)
            self.error(f"the server could not do that ({type(err).__name__}: {err})"[:300])

    def leave(self) -> None:
        if self.table is not None:
            self.table.unwatch(self.outbox)
            self.table = None

    # -- the messages -----------------------------------------------------------------------------

    async def hello(self, message: dict[str, Any]) -> None:
        number = names.json_whole(message.get("game", 0))
        if number is None or not 0 <= number <= saves.MAX_BACKUPS:
            raise Refused(f"game: a number from 0 to {saves.MAX_BACKUPS}")
        if not self.welcomed:
            self.welcomed = True
            self.send({"type": "welcome", "version": __version__, "setup": views.setup_options()})
        self.leave()
        self.number = number
        found = await self.games.open(number)
        if isinstance(found, Lobby):
            self.lobby(found)
            return
        await self.join(found)

    def lobby(self, found: Lobby) -> None:
        self.send(
            {
                "type": "lobby",
                "game": found.number,
                "save": saves.short(self.games.path_of(found.number)),
                "found": found.state,
                "why": found.why,
                "last": found.last,
                "others": self.games.others(),
            }
        )

    async def join(self, table: Table) -> None:
        """Watch ``table``: the computers' turns it owes (a new game's deal and first turns:
        the game is sent before them, so that the page plays them as they come), then the game
        as it stands and the advice found at this position."""
        self.leave()
        self.table, self.number = table, table.number
        table.watchers.add(self.outbox)
        async with table.lock:
            if table.owes_turns():  # (the game first: its deal and turns are then played on it)
                self.send(table.state())
            await table.catch_up()
            self.send(table.state())
            for advice in table.desk.messages(len(table.session.journal)):
                self.send(advice)
            table.advise()

    async def new(self, message: dict[str, Any]) -> None:
        found = await self.games.new(
            message.get("setup"), message.get("keep") is True, starter=self.outbox
        )
        if isinstance(found, dict):
            self.send(found)
            return
        # (The pages that watched the game this one replaces; not this page, which the join
        # sends the game: told again, after a move it may have made on it, its buttons came
        # back for a decision already made.)
        others = set(found.watchers) - {self.outbox}
        await self.join(found)
        async with found.lock:
            for page in others:
                page.send({"type": "notice", "message": "A new game has started."})
                page.send(found.state())

    async def _current(self, message: dict[str, Any], at: bool = True) -> Table | None:
        """The game this page plays, read again if it was played elsewhere since (then the
        page is sent where it stands, and None is returned: the move is not made). With ``at``,
        the message must be for the position the game is at."""
        table = self.table
        if table is None:
            raise Refused("no game is open here: send hello first")
        if table.stale() or table.retired:
            found = await self.games.open(self.number)
            if isinstance(found, Lobby):
                self.leave()
                self.lobby(found)
            else:
                self.send(
                    {
                        "type": "notice",
                        "message": "This game was played elsewhere since: here it is as saved.",
                    }
                )
                await self.join(found)
            return None
        now = len(table.session.journal)
        if at and _position(message, now) != now:
            async with table.lock:
                self.send(table.state())
            raise Refused(STALE)
        return table

    async def act(self, message: dict[str, Any]) -> None:
        action = _action(message)  # (a move that is no move is said so, whatever its position)
        table = await self._current(message)
        if table is None:
            return
        async with table.lock:
            now = len(table.session.journal)
            if _position(message, now) != now:  # (another page moved meanwhile)
                raise Refused(STALE)
            pending = table.session.pending
            if pending is None or pending.seat != views.YOU:
                raise Refused("it is not your turn")
            if action not in pending.legal:
                why = table.session.why_not(action) or "not allowed now"
                raise Refused(f"{_spoken(action)}: {why}")
            await table.act(action)
            table.broadcast(table.state())
            table.advise()

    async def hint(self, message: dict[str, Any]) -> None:
        table = await self._current(message)
        if table is None:
            return
        async with table.lock:
            at = len(table.session.journal)
            if message.get("at") != at:
                return  # (the game moved on meanwhile: its state is on its way)
            table.asked = at
            for advice in table.desk.messages(at):
                self.send(advice)
            table.advise()

    async def mode(self, message: dict[str, Any]) -> None:
        table = await self._current(message, at=False)
        if table is None:
            return
        advice, tutor = message.get("advice"), message.get("tutor")
        if advice not in saves.ADVICE_MODES:
            raise Refused(f"advice: one of {', '.join(saves.ADVICE_MODES)}")
        try:  # (read as the form reads them: the text typed, quoted back as typed if wrong)
            points = newgame.tutor_points(tutor)
        except newgame.FormError as err:
            raise Refused(str(err)) from None
        async with table.lock:
            await table.set_mode(str(advice), points)
            table.broadcast(table.state())
            table.advise()


def _position(message: dict[str, Any], now: int) -> int:
    """The position (``at``) a move or a hint was chosen at, the game being at ``now``. One
    that is missing, not a position or not reached yet is refused, saying which; an earlier one
    is returned (another page moved first: the caller says so)."""
    at = message.get("at")
    if at is None:
        raise Refused(f"at is missing: the position this was chosen at (the game is at {now})")
    if isinstance(at, float) and at.is_integer():
        at = int(at)
    shown = names.shown(at)
    if isinstance(at, bool) or not isinstance(at, int) or at < 0:
        raise Refused(f"at: a position is a whole number (the game is at {now}), not {shown}")
    if at > now:
        raise Refused(f"at: the game is at position {now}; {shown} has not been reached")
    return at


def _action(message: dict[str, Any]) -> Action:
    kind, card = message.get("action"), message.get("card")
    if not is_action_kind(kind):
        raise Refused(f"action: one of {', '.join(ACTIONS)}")
    if kind in ("put", "hide"):
        if not isinstance(card, str) or not 1 <= len(card) <= 4:
            raise Refused(f'{kind}: which card (card: "7H")')
        try:
            return Action(kind, card)
        except ThirtyOneError as err:
            raise Refused(f"card: {err}") from None
    return Action(kind)


def _spoken(action: Action) -> str:
    return action.kind if action.card is None else f"{action.kind} {action.card}"
