"""The record of games: every finished game of ``thirtyone play`` in an SQLite database in the
data folder (``record.sqlite3``), read back by ``thirtyone stats``.

What keeps it whole:

- a game is written in one transaction (``BEGIN IMMEDIATE`` … ``COMMIT``): a process killed
  while writing leaves the games written before it, and nothing of the game it was writing;
- the database runs in write-ahead-log mode with ``synchronous=FULL``, so a committed game
  survives a crash of the process or of the machine;
- a busy timeout lets two games that end at the same moment both be written, one after the
  other;
- the file is ours only when its header says so (``PRAGMA application_id``, with the schema's
  version in ``PRAGMA user_version``): a file that is not an SQLite database, another program's
  database, or a record of a newer schema is reported in one line and left as it is (nothing is
  connected to a file that is not an SQLite database, and nothing is written to one not ours);
- a record, a ``-wal`` or ``-shm`` file or a folder that cannot be written is named, with what to
  change, before anything is connected; the ``-wal`` and ``-shm`` files of a writable record are
  given its permissions again (SQLite creates them read-only while the record is read-only, and
  they would refuse every later write);
- every seed is stored exactly and a row that is not one thirtyone wrote is skipped and told
  (:mod:`thirtyone.store.rows`).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from thirtyone.errors import SaveError
from thirtyone.paths import data_dir, short
from thirtyone.paths import why as paths_why
from thirtyone.store.rows import BadRow, decision_row, game_row, seed_value

FILE_NAME = "record.sqlite3"
#: "31RC": the mark of a thirtyone record in the database header.
APPLICATION_ID = 0x33315243
SCHEMA_VERSION = 1
#: Seconds a writer waits for another one to finish before giving up.
BUSY_TIMEOUT = 10.0
_HEADER = b"SQLite format 3\x00"

_SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    finished TEXT NOT NULL,
    preset TEXT NOT NULL,
    rules TEXT NOT NULL,
    seats INTEGER NOT NULL,
    names TEXT NOT NULL,
    you INTEGER NOT NULL,
    place INTEGER NOT NULL,
    placing TEXT NOT NULL,
    points INTEGER,
    rounds INTEGER NOT NULL,
    opponents TEXT NOT NULL,
    autoplay INTEGER NOT NULL,
    seed INTEGER
);
CREATE TABLE decisions (
    game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    round INTEGER NOT NULL,
    played TEXT NOT NULL,
    best TEXT,
    cost_p_safe REAL,
    best_game TEXT,
    cost_p_win REAL,
    PRIMARY KEY (game, n)
);
"""


class RecordError(SaveError):
    """The record of games cannot be read or written, or the file at its path is not one."""


def default_path() -> Path:
    """``record.sqlite3`` in the data folder (see :func:`thirtyone.paths.data_dir`)."""
    return data_dir() / FILE_NAME


#: What a best played is where the record counts it (``thirtyone stats``, the Stats page, the
#: record at a game's end), said there: the record keeps no margins (ruling 296).
STAR_ONLY = (
    "a best played is the Oracle's ★ alone: thirtyone review also counts an option within "
    "the margins of it (≈), which the record does not keep"
)


def agrees(played: str, best: str, tied: Iterable[str] = ()) -> bool:
    """Whether playing ``played`` agrees with the Oracle whose best option is ``best``: it is
    the best (★) or one of the options within the margins of it (``tied``, ≈). The
    one definition of the review's agreement, its label "best" and the record's count; the
    record keeps no margins, so a recorded decision agrees with its ★ alone."""
    return played == best or played in set(tied)


@dataclass(frozen=True)
class Decision:
    """One decision of yours: the ``round``, the option ``played`` (the Oracle's names:
    ``knock``, ``draw``, ``take``, ``decline``, ``discard:XX``; also ``blind``, and ``hide:XX``
    for a 31 kept hidden), and when the Oracle's advice was computed for it, its ``best``
    option and what your choice cost in ``p_safe`` (0 when you played the best; None when the
    option played is not among the Oracle's); ``best_game`` and ``cost_p_win`` the same for
    ``p_win`` (None when the advice carries no ``p_win``)."""

    round: int
    played: str
    best: str | None = None
    cost_p_safe: float | None = None
    best_game: str | None = None
    cost_p_win: float | None = None

    @property
    def advised(self) -> bool:
        return self.best is not None


@dataclass(frozen=True)
class GameRecord:
    """One finished game: when (``finished``, ISO 8601 in UTC), the rules (``preset``: the one
    they are or differ least from; ``rules``: every option), the ``names`` by seat, your seat
    (``you``), the ``placing`` (seats, first place first), your ranked ``points`` (None when
    the winner takes all), the rounds dealt, the ``opponents`` (``table``, ``expert``,
    ``mixed``), whether your seat was played by the table's rule (``autoplay``), the seed, and
    your decisions."""

    finished: str
    preset: str
    rules: dict[str, Any]
    names: list[str]
    you: int
    placing: list[int]
    points: int | None
    rounds: int
    opponents: str
    autoplay: bool
    seed: int | None = None
    decisions: list[Decision] = field(default_factory=list)
    #: What identifies the game (:func:`thirtyone.store.keeper.game_key`): a game already in
    #: the record under it is not added again. None: a game of its own (an ``--autoplay`` run).
    key: str | None = None

    @property
    def seats(self) -> int:
        return len(self.names)

    @property
    def place(self) -> int:
        return self.placing.index(self.you) + 1


# -- the file -------------------------------------------------------------------------------------


def _what(err: BaseException) -> str:
    return " ".join(str(err).split())[:200] or type(err).__name__


def _has_content(path: Path, doing: str = "read") -> bool:
    """Whether ``path`` holds an SQLite database (False: no file, or an empty one). Raises
    :class:`RecordError` when it holds anything else; reads 16 bytes and writes nothing."""
    where = short(path)
    try:
        info = path.stat()
    except FileNotFoundError:
        return False
    except OSError as e:
        why = paths_why(e, path)
        raise RecordError(f"the record of games at {where} cannot be {doing}: {why}") from None
    if stat.S_ISDIR(info.st_mode):
        raise RecordError(f"{where} is a folder, not a record of games; it was left as it is")
    if not stat.S_ISREG(info.st_mode):
        raise RecordError(f"{where} is not a file; it was left as it is")
    if info.st_size == 0:
        return False
    try:
        with path.open("rb") as f:
            head = f.read(len(_HEADER))
    except OSError as e:
        raise RecordError(f"the record of games at {where} cannot be read: {_what(e)}") from None
    if head != _HEADER:
        raise RecordError(
            f"{where} is not a thirtyone record of games (not an SQLite database); "
            "it was left as it is"
        )
    return True


def _create_private(path: Path) -> None:
    """Create the folder and an empty file readable by its owner only (the record holds the
    names played with), unless somebody has just created it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def _connect(path: Path, mode: str) -> sqlite3.Connection:
    uri = f"{path.resolve().as_uri()}?mode={mode}"
    # isolation_level=None: transactions are begun and ended here, explicitly.
    con = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT, isolation_level=None)
    # A text that is not UTF-8 (a row edited by hand) reads with replacement characters.
    con.text_factory = _decoded
    return con


def _decoded(raw: bytes) -> str:
    return raw.decode("utf-8", errors="replace")


def _state(con: sqlite3.Connection) -> str:
    """``ours``, ``new`` (an empty database), or a sentence saying why it is not ours."""
    app = con.execute("PRAGMA application_id").fetchone()[0]
    version = con.execute("PRAGMA user_version").fetchone()[0]
    objects = con.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    if app == APPLICATION_ID:
        if version > SCHEMA_VERSION:
            return (
                f"is a record of a newer thirtyone (schema {version}; this one reads "
                f"{SCHEMA_VERSION})"
            )
        return "ours" if version >= 1 else "is a damaged record (no schema version)"
    if app == 0 and version == 0 and objects == 0:
        return "new"
    return "is another program's SQLite database, not a thirtyone record of games"


def _fail(path: Path, doing: str, err: BaseException) -> RecordError:
    if isinstance(err, sqlite3.OperationalError) and "locked" in str(err):
        why = f"it is busy (another thirtyone is writing it) for more than {BUSY_TIMEOUT:.0f} s"
    else:
        why = _what(err)
        if doing == "written" and (blocked := _blocked(path)) is not None:
            return RecordError(blocked)
    return RecordError(f"the record of games at {short(path)} cannot be {doing}: {why}")


# -- permissions ----------------------------------------------------------------------------------


def _companions(path: Path) -> list[Path]:
    """The files SQLite keeps beside the record in write-ahead-log mode (``-wal``, ``-shm``)."""
    return [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm")]


def _blocked(path: Path) -> str | None:
    """What keeps the record at ``path`` from being written, and how to fix it, in one
    sentence (None: nothing that permissions show)."""
    folder = path.parent
    if folder.is_dir() and not os.access(folder, os.W_OK | os.X_OK):
        return (
            f"the folder {short(folder)} of the record of games cannot be written: make it "
            f"writable (chmod u+wx {short(folder)}) and the next game is recorded"
        )
    if not os.path.lexists(folder) and (above := _made_in(folder)) is not None:
        if not above.is_dir():
            return f"{short(above)} is a file, not a folder: the record of games cannot be made"
        if not os.access(above, os.W_OK | os.X_OK):
            return (
                f"the folder {short(above)} cannot be written, so the folder {short(folder)} of "
                f"the record of games cannot be made in it: make it writable (chmod u+wx "
                f"{short(above)}) and the next game is recorded"
            )
    for file in (path, *_companions(path)):
        if file.exists() and not os.access(file, os.R_OK | os.W_OK):
            what = "record of games" if file == path else "file of the record of games"
            return (
                f"the {what} {short(file)} is read-only: make it writable (chmod u+rw "
                f"{short(file)}) and the next game is recorded"
            )
    return None


def _made_in(folder: Path) -> Path | None:
    """The nearest of the folders above ``folder`` (missing) that exists: where it would be
    made (None: none exists)."""
    return next((p for p in folder.parents if os.path.lexists(p)), None)


def _repair(path: Path) -> None:
    """Give the ``-wal`` and ``-shm`` files of a writable record its permissions again. SQLite
    creates them with the permissions of the record, so a record made read-only for a while
    and read then leaves read-only ones behind, which would refuse every later write."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return
    if not os.access(path, os.R_OK | os.W_OK):
        return
    for file in _companions(path):
        with contextlib.suppress(OSError):  # (what cannot be repaired is told by _blocked)
            if file.is_file() and not os.access(file, os.R_OK | os.W_OK):
                file.chmod(mode | stat.S_IRUSR | stat.S_IWUSR)


@contextlib.contextmanager
def _opened(path: Path, *, write: bool) -> Iterator[sqlite3.Connection | None]:
    """A connection to the record at ``path`` checked to be ours (None when reading and there
    is no record yet; created when writing). Raises :class:`RecordError`."""
    doing = "written" if write else "read"
    exists = _has_content(path, doing)
    if not exists and not write:
        yield None
        return
    if exists:
        _repair(path)
    if write and (blocked := _blocked(path)) is not None:
        raise RecordError(blocked)  # (before connecting: SQLite would open it read-only)
    stack = contextlib.ExitStack()
    try:
        if write:
            _create_private(path)
            con = _connect(path, "rwc")
        else:
            con = _open_to_read(path, stack)
    except (OSError, sqlite3.Error) as e:
        stack.close()
        raise _fail(path, doing, e) from None
    try:
        state = _state(con)
        if state not in ("ours", "new"):
            raise RecordError(f"{short(path)} {state}; it was left as it is")
        if state == "new" and not write:
            yield None
            return
        if write:
            _prepare(con, state)
        yield con
    except sqlite3.Error as e:
        raise _fail(path, doing, e) from None
    finally:
        con.close()
        stack.close()


def _open_to_read(path: Path, stack: contextlib.ExitStack) -> sqlite3.Connection:
    """Read-write when allowed (a reader may have to finish the log of a crashed writer), else
    read-only; and when the folder cannot hold the log's index (``-shm``), which even a
    read-only connection needs, a copy of the record and its log in a private temporary folder
    (no writer can be at work then: a writer needs that index too)."""
    failure: sqlite3.OperationalError | None = None
    for mode in ("rw", "ro"):
        try:
            con = _connect(path, mode)
        except sqlite3.OperationalError as e:
            failure = failure or e
            continue
        try:
            con.execute("PRAGMA application_id").fetchone()  # (reads the log, if any)
        except sqlite3.OperationalError as e:
            con.close()
            failure = failure or e
            continue
        return con
    if os.path.lexists(path.with_name(path.name + "-shm")):
        raise failure or sqlite3.OperationalError("unable to open database file")
    folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="thirtyone-record-")))
    for file in (path, path.with_name(path.name + "-wal")):
        if file.is_file():
            shutil.copyfile(file, folder / file.name)
    return _connect(folder / path.name, "rw")


def _prepare(con: sqlite3.Connection, state: str) -> None:
    """Create the schema in a new database (once, whoever comes first) and set the write-ahead
    log."""
    con.execute("PRAGMA foreign_keys = ON")
    con.execute("PRAGMA synchronous = FULL")
    if state == "new":
        con.execute("BEGIN IMMEDIATE")
        try:
            if _state(con) == "new":  # nobody created it while we waited
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        con.execute(statement)  # (executescript would commit first)
                con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            con.execute("COMMIT")
        except BaseException:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise
    if con.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        # (Busy: the next writer sets it; meanwhile the rollback journal is as safe.)
        with contextlib.suppress(sqlite3.OperationalError):
            con.execute("PRAGMA journal_mode = WAL")


# -- writing and reading --------------------------------------------------------------------------


def add(path: Path, game: GameRecord, *, before_commit: Callable[[], None] | None = None) -> int:
    """Write ``game`` and its decisions in one transaction; returns its id. A game with a
    ``key`` already in the record is not written again: the id is the one it has. ``before_commit``
    (for tests) is called after the last insert, before the commit. Raises
    :class:`RecordError` when the record cannot be written (nothing of ``game`` is then)."""
    with _opened(path, write=True) as con:
        assert con is not None
        try:
            con.execute("BEGIN IMMEDIATE")
            if game.key is not None and (known := _known(con, game.key)) is not None:
                con.execute("ROLLBACK")
                return known
            game_id = _insert(con, game)
            if game.key is not None:
                con.execute("INSERT INTO game_keys (key, game) VALUES (?, ?)", (game.key, game_id))
            if before_commit is not None:
                before_commit()
            con.execute("COMMIT")
        except BaseException:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise
        return game_id


#: Each game's key (:attr:`GameRecord.key`): made in a record the first time a game with a key
#: is written (a record of an earlier thirtyone has none; one that lacks it reads the same).
_KEYS = (
    "CREATE TABLE IF NOT EXISTS game_keys (key TEXT PRIMARY KEY, "
    "game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE)"
)


def _known(con: sqlite3.Connection, key: str) -> int | None:
    """The id of the game recorded under ``key`` (None: none is)."""
    con.execute(_KEYS)
    row = con.execute("SELECT game FROM game_keys WHERE key = ?", (key,)).fetchone()
    return None if row is None else int(row[0])


def _insert(con: sqlite3.Connection, game: GameRecord) -> int:
    row = (
        game.finished,
        game.preset,
        json.dumps(game.rules, sort_keys=True, allow_nan=False),
        game.seats,
        json.dumps(game.names, ensure_ascii=False),
        game.you,
        game.place,
        json.dumps(game.placing),
        game.points,
        game.rounds,
        game.opponents,
        int(game.autoplay),
        seed_value(game.seed),
    )
    cur = con.execute(
        "INSERT INTO games (finished, preset, rules, seats, names, you, place, placing, points, "
        "rounds, opponents, autoplay, seed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        row,
    )
    game_id = cur.lastrowid
    assert game_id is not None
    con.executemany(
        "INSERT INTO decisions (game, n, round, played, best, cost_p_safe, best_game, "
        "cost_p_win) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            (game_id, n, d.round, d.played, d.best, d.cost_p_safe, d.best_game, d.cost_p_win)
            for n, d in enumerate(game.decisions)
        ),
    )
    return game_id


@dataclass(frozen=True)
class Contents:
    """What the record holds: the games read, oldest first, and the rows ``skipped`` because
    they are not what thirtyone writes (each the game's id and why)."""

    games: list[GameRecord]
    skipped: list[tuple[object, str]] = field(default_factory=list)

    def note(self) -> str | None:
        """One line on the rows skipped (None: none were)."""
        count = len(self.skipped)
        if not count:
            return None
        why = "; ".join(f"game {i}: {reason}" for i, reason in self.skipped[:3])
        if count > 3:
            why += f"; and {count - 3:,} more"
        what = "1 row of the record was" if count == 1 else f"{count:,} rows of the record were"
        return f"{what} skipped, not being a game as thirtyone writes it ({why})"


def games(path: Path) -> list[GameRecord]:
    """Every game that reads in the record at ``path`` (see :func:`read`)."""
    return read(path).games


def read(path: Path) -> Contents:
    """Every game in the record at ``path``, oldest first (none when there is no record yet);
    a row that is not one thirtyone wrote is skipped and told in :attr:`Contents.skipped`.
    Raises :class:`RecordError` when the file cannot be read or is not a thirtyone record."""
    with _opened(path, write=False) as con:
        if con is None:
            return Contents([])
        decisions: dict[object, list[tuple[object, ...]]] = {}
        for game_id, *rest in con.execute(
            "SELECT game, round, played, best, cost_p_safe, best_game, cost_p_win "
            "FROM decisions ORDER BY game, n"
        ):
            decisions.setdefault(game_id, []).append(tuple(rest))
        rows = con.execute(
            "SELECT id, finished, preset, rules, seats, names, you, place, placing, points, "
            "rounds, opponents, autoplay, seed FROM games ORDER BY id"
        ).fetchall()
    out = Contents([])
    for game_id, *row in rows:
        try:
            out.games.append(_game(row, decisions.get(game_id, [])))
        except BadRow as err:
            out.skipped.append((game_id, str(err)))
    return out


def _game(row: list[object], decisions: list[tuple[object, ...]]) -> GameRecord:
    fields = game_row(row)
    spread = fields.pop("spread")
    kept = []
    for n, d in enumerate(decisions):
        try:
            kept.append(Decision(**decision_row(d, spread)))
        except BadRow as err:
            raise BadRow(f"decision {n + 1}: {err}") from None
    return GameRecord(**fields, decisions=kept)
