"""The games the server plays: the save (``saved-game.json`` in the data folder, or
``--save-file``), game 0, and its numbered backups (``saved-game.1.json`` …), game n: the very
files of ``thirtyone play``, so a game goes on in either front-end.

A game is read from its file when a page first asks for it, and kept while the server runs; it is
read again whenever the file was written by someone else since (``thirtyone play --resume``, or
another server). A finished game is not shown again to a page that asks for it: the page is
given the start page (the unfinished backups, "play again"), as after a restart; the pages that
watched it to its end keep it. A new game never replaces an unfinished one: as in the terminal,
the unfinished game is kept as the next numbered backup (after the page has asked), and stays
playable as that game. A path that holds anything but a thirtyone save is never written over.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from thirtyone.store import saves
from thirtyone.web import newgame, views
from thirtyone.web.advice import Budget, Gates
from thirtyone.web.table import Table, Watcher
from thirtyone.web.work import off_loop

#: The most backups the lobby lists.
LISTED = 20


class Refused(Exception):
    """What was asked cannot be done (the message says why, for the page)."""


@dataclass
class Lobby:
    """No game to play at that number: what is there instead (the page's start screen)."""

    number: int
    state: str  # missing, finished, damaged, refused
    why: str = ""
    last: dict[str, Any] | None = None


class Games:
    """Every game of this server, by number (see the module's doc)."""

    def __init__(self, path: Path, budget: Budget) -> None:
        self.path = path
        self.budget = budget
        self.gates = Gates()
        self.live: dict[int, Table] = {}
        self.lock = asyncio.Lock()

    def path_of(self, number: int) -> Path:
        return self.path if number == 0 else saves.backup_name(self.path, number)

    def _args(self) -> tuple[Budget, Gates, asyncio.AbstractEventLoop]:
        return self.budget, self.gates, asyncio.get_running_loop()

    async def open(self, number: int) -> Table | Lobby:
        """The game at ``number``, read from its file unless it is being played here."""
        async with self.lock:
            table = self.live.get(number)
            if table is not None and not table.stale():
                if table.session.over:  # (the start page, as after a restart; the pages that
                    # watched the game keep it, and follow a new one started at its table)
                    return Lobby(number, "finished", last=views.setup_of(table.saved))
                return table
            if table is not None:  # written elsewhere since: it must never write again
                table.retire()
            self.live.pop(number, None)
            path = self.path_of(number)
            try:
                found = saves.look(path)
            except saves.NotASave as err:
                return Lobby(number, "refused", f"{err}; it was left as it is")
            except saves.SaveError as err:
                return Lobby(number, "refused", str(err))
            if found.state != "unfinished" or found.saved is None:
                last = None if found.saved is None else views.setup_of(found.saved)
                return Lobby(number, found.state, found.why, last)
            saved = found.saved
            try:
                saves.prepare_folder(path)
                args = self._args()
                table = await off_loop(lambda: Table.resumed(saved, path, number, *args))
            except saves.SaveError as err:
                return Lobby(number, "damaged", str(err))
            self.live[number] = table
            return table

    async def new(
        self, form: object, keep: bool, starter: Watcher | None = None
    ) -> Table | dict[str, Any]:
        """A new game at the save (game 0), from the new-game form. Where an unfinished game (or
        one that cannot be replayed) is saved, returns the question to ask first unless
        ``keep``: then it is kept as the next backup, and the pages that watched it follow it
        there, all but ``starter`` (the page that starts the new game: it plays the new one).
        Raises :class:`Refused`."""
        try:
            saved = newgame.saved_game(form)
        except newgame.FormError as err:
            raise Refused(str(err)) from None
        async with self.lock:
            path = self.path
            try:
                found = saves.look(path)
            except saves.NotASave as err:
                raise Refused(
                    f"{err}; it was left as it is: move it away or start thirtyone serve with "
                    "another --save-file"
                ) from None
            except saves.SaveError as err:
                raise Refused(str(err)) from None
            if found.state in ("unfinished", "damaged"):
                if not keep:
                    return await self._question(found)
                await self._keep(starter)
            try:
                saves.prepare_folder(path)
                args = self._args()
                table = await off_loop(lambda: Table.new(saved, path, *args))
            except saves.SaveError as err:
                raise Refused(str(err)) from None
            old = self.live.pop(0, None)
            if old is not None:
                old.retire()
                table.watchers |= old.watchers
            self.live[0] = table
            return table

    async def _question(self, found: saves.Found) -> dict[str, Any]:
        """Ask before a new game is started over an unfinished one."""
        standing, why = None, found.why
        table = self.live.get(0)
        if table is not None and not table.stale():
            standing = views.standing_line(table.session)
        elif found.saved is not None:
            saved = found.saved
            try:
                session = await off_loop(lambda: saves.replayed(saved, saves.short(self.path)))
                standing = views.standing_line(session)
            except saves.SaveError as err:
                why = str(err)
        return {
            "type": "confirm_new",
            "standing": standing,
            "why": why,
            "backup": saves.next_backup(self.path).name,
            "save": saves.short(self.path),
        }

    async def _keep(self, starter: Watcher | None) -> None:
        """Keep the unfinished game as the next backup; the pages playing it follow it there,
        but for ``starter``, which stays at the save for the new game. When it cannot be kept
        (the folder read-only or full, a thousand backups), the game goes on here as it was."""
        old = self.live.get(0)
        if old is None:
            kept = _backup(self.path)
        else:
            async with old.lock:  # (kept after its last save; retired only once it is kept)
                kept = _backup(self.path)
                old.retire()
            self.live.pop(0, None)
        if old is not None:
            number = backup_number(self.path, kept)
            if starter is not None:
                old.watchers.discard(starter)
            old.broadcast(
                {
                    "type": "moved",
                    "game": number,
                    "message": f"A new game was started; this one was kept as {kept.name}.",
                }
            )
            old.watchers.clear()

    def others(self) -> list[dict[str, Any]]:
        """The unfinished backups beside the save (for the start screen), the first
        :data:`LISTED`."""
        found = []
        stem, suffix = re.escape(self.path.stem), re.escape(self.path.suffix)
        pattern = re.compile(rf"{stem}\.([1-9][0-9]{{0,3}}){suffix}")
        try:
            names = sorted(p.name for p in self.path.parent.iterdir())
        except OSError:
            return []
        for name in names:
            match = pattern.fullmatch(name)
            if match is None or int(match.group(1)) > saves.MAX_BACKUPS:
                continue
            try:
                there = saves.look(self.path.parent / name)
            except saves.SaveError:
                continue
            if there.state == "unfinished" and there.saved is not None:
                setup = views.setup_of(there.saved)
                found.append(
                    {
                        "game": int(match.group(1)),
                        "file": name,
                        "names": there.saved.names,
                        "preset": setup["preset"],
                        "moves": len(there.saved.journal),
                    }
                )
            if len(found) >= LISTED:
                break
        return sorted(found, key=lambda g: g["game"])


def _backup(path: Path) -> Path:
    """The save at ``path`` kept as its next backup (:func:`saves.backup`). Raises
    :class:`Refused`."""
    try:
        return saves.backup(path)
    except saves.SaveError as err:
        raise Refused(str(err)) from None


def backup_number(path: Path, kept: Path) -> int:
    """The game number of the backup ``kept`` of ``path``."""
    middle = kept.name.removeprefix(path.stem + ".").removesuffix(path.suffix)
    return int(middle)
