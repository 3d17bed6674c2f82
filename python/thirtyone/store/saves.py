"""Saved games: ``thirtyone play`` saves as it goes and ``--resume`` continues.

A save holds the rules, the seed, the names and the journal of every action applied to a round
(:attr:`thirtyone.Session.journal`). The seed reproduces the dealer draw and every shuffle, so
replaying the journal rebuilds the game exactly where it was. The journal is written after every
turn and also after each step of a turn that cannot be taken back (looking at the cards at a
blind table, drawing from the stock, taking the discard), so a game left in the middle of a turn
resumes at the put-down with the same card in hand.

Nothing here destroys a saved game:

- a save is written to a temporary file in the same folder and renamed over the old one, so a
  process killed at any moment leaves either the previous save or the new one;
- a resumed game writes nothing until its journal has been replayed to the end (:class:`Saver`
  starts disarmed), so a journal that cannot be replayed is left byte for byte as it was;
- :func:`look` tells a save from anything else at a path, so a foreign file is never written
  over, and :func:`backup` keeps an unfinished game beside the new one without replacing any
  earlier backup.
"""

from __future__ import annotations

import errno
import json
import os
import secrets
import stat
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from thirtyone._core import Action
from thirtyone.errors import SaveError as SaveError  # (saves.SaveError, as before)
from thirtyone.errors import ThirtyOneError
from thirtyone.game.rules import Rules
from thirtyone.game.seats import Policy, read_action
from thirtyone.game.session import Session
from thirtyone.names import neutralise, shown
from thirtyone.oracle.player import OPPONENTS as OPPONENTS  # (saves.OPPONENTS, as before)
from thirtyone.oracle.player import opponent_kind
from thirtyone.paths import data_dir as data_dir  # (saves.data_dir, as before)
from thirtyone.paths import problem
from thirtyone.paths import short as short  # (saves.short, as before)
from thirtyone.paths import why as _why
from thirtyone.store import save_fields

FORMAT = "thirtyone-save"
VERSION = 1
#: When the Oracle's advice is shown (``thirtyone play --advice``), and the tutor's bounds (as
#: before: ``saves.ADVICE_MODES``, ``saves.TUTOR_POINTS``, ``saves.tutor_ok``).
ADVICE_MODES = save_fields.ADVICE_MODES
TUTOR_POINTS = save_fields.TUTOR_POINTS
tutor_ok = save_fields.tutor_ok
#: No save comes near this size; a larger file is not read (it is not a save).
MAX_BYTES = 16 * 1024 * 1024
#: Temporary files are named ``.saved-game-*.tmp``; one older than this is a crash's leftover.
TMP_PREFIX, TMP_SUFFIX = ".saved-game-", ".tmp"
LEFTOVER_AGE = 60.0
#: Backups are numbered 1, 2, … up to this.
MAX_BACKUPS = 1000


class NotASave(SaveError):
    """The path holds something other than a thirtyone save (a folder, a text file, …)."""


def default_path() -> Path:
    return data_dir() / "saved-game.json"


def last_game_path() -> Path:
    """Where the last game played to its end is kept (``thirtyone review`` reads it)."""
    return data_dir() / "last-game.json"


@dataclass
class SavedGame:
    rules: Rules
    seed: int
    names: list[str]
    you: int = 0
    journal: list[list[str]] = field(default_factory=list)
    over: bool = False
    #: When the Oracle's advice is shown: ``always``, ``ask`` (on request) or ``never``.
    advice: str = "always"
    #: The computer players: ``table``, ``expert`` or ``mixed`` (see :data:`OPPONENTS`).
    opponents: str = "table"
    #: Your decisions so far with the Oracle's advice where it was computed, for the record of
    #: games (:mod:`thirtyone.store.keeper` writes and checks them).
    decisions: list[Any] = field(default_factory=list)
    #: The tutor (the browser's): ask before a move that costs more than this many points of
    #: ``p_win`` (None: off). The terminal keeps it as it is.
    tutor: float | None = None
    #: The Oracle's precision the game was started with (``thirtyone play --oracle-deals``,
    #: ``--oracle-playouts``): ``{"deals": D, "playouts": P}``; None (a save from before it was
    #: kept, or the browser's): the defaults.
    oracle: dict[str, int] | None = None
    #: The game's id, made when it is started ("" in a save from before it was kept): with
    #: its actions, what the record of games knows the game by, so that it is recorded once.
    game_id: str = field(default_factory=lambda: secrets.token_hex(8))

    def to_json(self) -> str:
        return json.dumps(
            {
                "format": FORMAT,
                "version": VERSION,
                "rules": self.rules.to_dict(),
                "seed": self.seed,
                "names": self.names,
                "you": self.you,
                "over": self.over,
                "journal": self.journal,
                "advice": self.advice,
                "opponents": self.opponents,
                "decisions": self.decisions,
                "tutor": self.tutor,
                "oracle": self.oracle,
                "game_id": self.game_id,
            },
            separators=(",", ":"),
            allow_nan=False,
        )

    @classmethod
    def from_json(cls, text: str, where: str) -> SavedGame:
        """The save in ``text``. Raises :class:`NotASave` for text that is not a thirtyone save
        and :class:`SaveError` for a damaged save. Names are neutralised (see
        :func:`thirtyone.names.neutralise`): they are printed on every turn."""

        def damaged(why: str) -> SaveError:
            return SaveError(f"the saved game at {where} is damaged ({why})")

        text = text.removeprefix("\ufeff")  # (a byte-order mark, as some editors write one)
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as e:
            if FORMAT in text[:200]:  # a save cut short
                raise damaged(f"not JSON: {e}") from None
            raise NotASave(f"{where} is not a thirtyone save (it is not JSON)") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise NotASave(f"{where} is not a thirtyone save (JSON, but not a saved game)")
        if "version" not in data:
            raise damaged("the field version is missing")
        if type(data["version"]) is not int or data["version"] != VERSION:  # (true is not 1)
            raise SaveError(
                f"the saved game at {where} is of version {shown(data['version'])}, "
                f"this thirtyone reads version {VERSION}"
            )
        try:
            f = save_fields.read(data)
        except save_fields.Damaged as e:
            raise damaged(str(e)) from None
        names = [neutralise(n) for n in f.names]
        return cls(
            f.rules,
            f.seed,
            names,
            f.you,
            f.journal,
            f.over,
            f.advice,
            f.opponents,
            f.decisions,
            f.tutor,
            f.oracle,
            f.game_id,
        )


def oracle_ok(oracle: object) -> bool:
    """Whether ``oracle`` is the Oracle's precision as a save keeps it: ``deals`` and
    ``playouts``, whole numbers within the Oracle's bounds."""
    return save_fields.oracle_problem(oracle) is None


# -- the file -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Found:
    """What is at a save's path: ``state`` is ``missing``, ``finished``, ``unfinished``, or
    ``damaged`` (a thirtyone save that cannot be read; ``why`` says what is wrong)."""

    state: str
    saved: SavedGame | None = None
    why: str = ""


def look(path: Path, *, to_read: bool = False) -> Found:
    """What is at ``path``. Raises :class:`NotASave` when it holds anything but a thirtyone save
    (a folder, a text file, JSON of another program), and :class:`SaveError` when it cannot be
    looked at: that games cannot be saved there, or (``to_read``: a save is only read) that
    it cannot be read."""
    where = short(path)
    try:
        info = path.stat()
    except FileNotFoundError:
        return Found("missing")
    except OSError as e:
        doing = f"{where} cannot be read" if to_read else f"games cannot be saved at {where}"
        raise SaveError(f"{doing}: {_why(e, path)}") from None
    if stat.S_ISDIR(info.st_mode):
        raise NotASave(f"{where} is a folder, not a thirtyone save")
    if not stat.S_ISREG(info.st_mode):
        raise NotASave(f"{where} is not a regular file, not a thirtyone save")
    if info.st_size > MAX_BYTES:
        raise NotASave(f"{where} is not a thirtyone save (it is {info.st_size:,} bytes)")
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise NotASave(f"{where} is not a thirtyone save (it is not text)") from None
    except OSError as e:
        raise SaveError(f"{where} cannot be read: {_why(e, path)}") from None
    try:
        saved = SavedGame.from_json(text, where)
    except NotASave:
        raise
    except SaveError as e:
        return Found("damaged", why=str(e))
    return Found("finished" if saved.over else "unfinished", saved)


def read(path: Path) -> SavedGame:
    """The save at ``path``; :class:`SaveError` when there is none or it cannot be read."""
    found = look(path, to_read=True)
    if found.state == "missing":
        raise SaveError(f"there is no saved game at {short(path)}")
    if found.saved is None:
        raise SaveError(f"{found.why}; it was left as it is")
    return found.saved


def write(saved: SavedGame, path: Path) -> None:
    """Write atomically: a temporary file in the same folder, flushed, then renamed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=TMP_PREFIX, suffix=TMP_SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(saved.to_json())
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def prepare_folder(path: Path) -> None:
    """Check, before the first turn, that a save can be written at ``path``: its folder is
    created, a temporary file is written there and removed, and the name is not too long
    (:func:`thirtyone.paths.problem`). Leftover temporary files of an earlier crash (older than
    a minute) are removed. Raises :class:`SaveError` saying what is wrong."""
    if why := problem(path, create_folder=True, prefix=TMP_PREFIX):
        raise SaveError(f"games cannot be saved at {short(path)}: {why}")
    remove_leftovers(path.parent)


def remove_leftovers(folder: Path, age: float = LEFTOVER_AGE) -> list[Path]:
    """Remove the temporary files (``.saved-game-*.tmp``) that a process killed while writing
    left in ``folder``; only those older than ``age`` seconds (a younger one may be another
    game's write in progress). Returns those removed."""
    removed: list[Path] = []
    now = time.time()
    try:
        candidates = list(folder.glob(f"{TMP_PREFIX}*{TMP_SUFFIX}"))
    except OSError:
        return removed
    for p in candidates:
        try:
            info = p.lstat()
            if stat.S_ISREG(info.st_mode) and now - info.st_mtime > age:
                p.unlink()
                removed.append(p)
        except OSError:
            continue
    return removed


def backup_name(path: Path, n: int) -> Path:
    """``saved-game.3.json`` for ``saved-game.json`` and 3."""
    return path.with_name(f"{path.stem}.{n}{path.suffix}")


def next_backup(path: Path) -> Path:
    """The name the next :func:`backup` of ``path`` would take (if nobody takes it first)."""
    for n in range(1, MAX_BACKUPS + 1):
        target = backup_name(path, n)
        if not os.path.lexists(target):
            return target
    return backup_name(path, MAX_BACKUPS + 1)


def backup(path: Path) -> Path:
    """Keep the save at ``path`` as a numbered file beside it (``saved-game.1.json``, the first
    number free) and return its path. An earlier backup is never replaced. The save itself stays
    where it is until a new game is written over it."""
    for n in range(1, MAX_BACKUPS + 1):
        target = backup_name(path, n)
        try:
            _keep(path, target)
        except FileExistsError:
            continue
        except OSError as e:
            why = _why(e, target)
            raise SaveError(f"the saved game at {short(path)} could not be kept: {why}") from None
        return target
    raise SaveError(
        f"the saved game at {short(path)} could not be kept: "
        f"there are {MAX_BACKUPS} backups beside it"
    )


def _keep(path: Path, target: Path) -> None:
    """A second name for the file (a hard link), or else an exclusive copy: never replaces
    ``target`` (FileExistsError)."""
    try:
        os.link(path, target)
        return
    except FileExistsError:
        raise
    except OSError as e:
        if e.errno not in (errno.EPERM, errno.EXDEV, errno.ENOTSUP, errno.EMLINK, errno.EACCES):
            raise
    data = path.read_bytes()
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


# -- saving and replaying -------------------------------------------------------------------------

#: The events after which the game is saved (``mid_turn``: a look, draw or take).
SAVE_ON = ("mid_turn", "turn", "round_end", "wash", "game_over")


class Saver:
    """An event listener that writes the game after every turn, every step of a turn that cannot
    be taken back, and every round's end.

    ``armed=False`` (a resumed game) writes nothing until :meth:`arm` is called, once the
    journal has been replayed to the end. A write that fails raises :class:`SaveError` (the last
    good save stays).
    """

    def __init__(self, saved: SavedGame, game: Session, path: Path, *, armed: bool = True) -> None:
        self.saved, self.game, self.path = saved, game, path
        self.armed = armed
        game.game_id = saved.game_id  # (the record of games knows the game by it)

    def arm(self) -> None:
        self.armed = True

    def __call__(self, event: Any) -> None:
        if event.kind in SAVE_ON:
            self.save()

    def save(self) -> None:
        if not self.armed:
            return
        self.saved.journal = [entry(a) for a in self.game.journal]
        self.saved.over = self.game.over
        try:
            write(self.saved, self.path)
        except OSError as e:
            raise SaveError(
                f"the game could not be saved at {short(self.path)}: {_why(e, self.path)}; "
                "the last save there is kept"
            ) from None

    def keep(self) -> None:
        """Once the game is over, keep a copy of it at :func:`last_game_path` (the next game
        replaces the save; ``thirtyone review`` reads the copy), written like the save. Raises
        :class:`SaveError` when it cannot be written."""
        if not (self.armed and self.game.over):
            return
        target = last_game_path()
        self.saved.journal = [entry(a) for a in self.game.journal]
        self.saved.over = True
        try:
            write(self.saved, target)
        except OSError as e:
            raise SaveError(
                f"the finished game could not be kept at {short(target)} for thirtyone review: "
                f"{_why(e, target)}"
            ) from None


def entry(action: Action) -> list[str]:
    """An action as the save file holds it: ``["draw"]``, ``["put", "AH"]``."""
    return [action.kind] if action.card is None else [action.kind, action.card]


def actions(saved: SavedGame, where: str) -> list[Action]:
    """The saved journal's actions (raises :class:`SaveError` naming an entry that is not
    one)."""
    found = []
    for number, entry in enumerate(saved.journal, 1):
        try:
            found.append(read_action(*entry))
        except ThirtyOneError as e:
            raise SaveError(
                f"the saved game at {where} cannot be replayed: action {number} of "
                f"{len(saved.journal)} ({' '.join(entry)[:40]}): {e}"
            ) from None
    return found


def replay(
    session: Session,
    saved: SavedGame,
    where: str = "the saved game",
    before: Callable[[Session, Action], None] | None = None,
) -> None:
    """Replay the saved journal into ``session`` (a new session of the save's rules, seed and
    names: see :func:`replayed`), which then stands exactly where the save was, in the middle of
    a turn too. ``before`` is called before each action (see :meth:`Session.replay`). Nothing
    plays on: ``advance()`` does that. Raises :class:`SaveError` when the journal cannot be
    replayed."""
    try:
        session.replay(actions(saved, where), before)
    except SaveError as e:
        raise SaveError(f"{e}; it was left as it is") from None
    except ThirtyOneError as e:
        raise SaveError(
            f"the saved game at {where} cannot be replayed: {e}; it was left as it is"
        ) from None


def replayed(
    saved: SavedGame,
    where: str = "the saved game",
    policies: Sequence[Policy | None] | None = None,
    before: Callable[[Session, Action], None] | None = None,
) -> Session:
    """A session of the saved game (its rules, seed and names; ``policies`` for the computer
    seats, None: every seat pushed) with its journal replayed (see :func:`replay`). The Oracle
    reads its seats as the game did: you a person, each opponent by their kind."""
    others = range(1, saved.rules.seats)
    models = ["person", *(opponent_kind(saved.opponents, s) for s in others)]
    session = Session(saved.rules, policies, seed=saved.seed, names=saved.names, models=models)
    replay(session, saved, where, before)
    return session
