"""Where the game keeps its files, and files a command writes, checked before its work starts.

:func:`data_dir` is the data folder (saved games, the record, the Oracle's cache).

``thirtyone play --save-file``, ``thirtyone tournament --plot`` and ``thirtyone calibrate --out``
name where something will be written, perhaps after hours of work. :func:`problem` says, before
that work, why nothing could be written there: the path is a folder, a folder on the way is a
file, the folder cannot be written (a temporary file is written there and removed: the only test
that holds for every user, root included), or the name is too long for the file system.
:func:`why` puts an ``OSError`` in words, and :func:`short` cuts a long path for a message.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path


def data_dir() -> Path:
    """Where the game keeps its files: ``$THIRTYONE_DATA_DIR``, else ``$XDG_DATA_HOME/thirtyone``,
    else ``~/.local/share/thirtyone``."""
    if env := os.environ.get("THIRTYONE_DATA_DIR"):
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "thirtyone"


def short(path: Path | str, most: int = 80) -> str:
    """``path`` for a message: a very long one cut to its start and end."""
    text = str(path)
    return text if len(text) <= most else f"{text[: most // 2]}…{text[-most // 4 :]}"


def why(err: OSError, path: Path | None = None) -> str:
    """What went wrong, in words: ``/a/b is a file, not a folder``, ``permission denied``."""
    if path is not None and err.errno == errno.ENOTDIR:
        for parent in path.parents:
            if os.path.lexists(parent) and not parent.is_dir():
                return f"{short(parent)} is a file, not a folder"
    if path is not None and err.errno == errno.ENAMETOOLONG:
        longest = max(len(os.fsencode(part)) for part in path.parts)
        return f"a name in it is too long ({longest} bytes)"
    what = (err.strerror or str(err)).lower()
    if path is not None and err.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        # (the folder the failed call wrote in: the file's, or the one above a new folder)
        written = Path(os.fsdecode(err.filename)) if err.filename else path
        return f"the folder {short(written.parent)} cannot be written ({what})"
    return f"{what}: {short(err.filename)}" if err.filename else what


def is_folder(path: Path) -> bool:
    """Whether ``path`` is a folder (False when it cannot be looked at)."""
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):  # (a name too long, a file on the way: found below)
        return False


def same_file(path: Path, *others: Path) -> bool:
    """Whether ``path`` names the same file as one of ``others`` (made or not: their folders
    and links resolved as far as they exist)."""
    try:
        mine = path.resolve()
        return any(mine == other.resolve() for other in others)
    except (OSError, RuntimeError):  # (a loop of links: not a file anyone writes)
        return False


def unwritable(path: Path) -> str | None:
    """Why the regular file at ``path`` cannot be written to (None: it can): it is opened for
    appending, and nothing written (a file made read-only, or on a read-only mount, in a folder
    that can be written)."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_APPEND))
    except OSError as err:
        return f"the file cannot be written ({(err.strerror or str(err)).lower()})"
    return None


def problem(path: Path, *, create_folder: bool, prefix: str = ".thirtyone-check-") -> str | None:
    """Why a file cannot be written at ``path`` (None: it can). With ``create_folder`` its
    folder is made (with the folders above it) when missing; a temporary file named
    ``prefix…`` is written in the folder and removed at once. A file already at ``path`` is no
    problem (the caller says whether it is replaced)."""
    if is_folder(path):
        return f"{short(path)} is a folder"
    folder = path.parent
    try:
        if create_folder:
            folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=folder)
        os.close(fd)
        os.unlink(tmp)
    except FileExistsError:
        return f"{short(folder)} is a file, not a folder"
    except FileNotFoundError as e:
        if folder.is_dir():  # (a folder where no file can be made, such as /proc, says so too)
            return f"no file can be made in the folder {short(folder)}"
        return why(e, path) if create_folder else f"the folder {short(folder)} does not exist"
    except OSError as e:
        return why(e, path)
    try:
        longest = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        longest = 255
    size = len(os.fsencode(path.name))
    if size > longest:
        return f"the name is too long ({size} bytes; at most {longest})"
    return None
