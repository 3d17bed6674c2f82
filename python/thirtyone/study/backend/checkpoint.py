"""The checkpoint file that lets an interrupted study resume: its finished batches kept as they
are played (:func:`thirtyone.study.backend.cluster.batches` writes and reads it)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, Generic, TypeVar

from thirtyone import paths
from thirtyone.errors import SettingsError
from thirtyone.study.backend import workers

R = TypeVar("R")

#: The first line of a checkpoint file says what it is.
CHECKPOINT_FORMAT = "thirtyone-checkpoint-1"
#: The most bytes of a header line read (a header is some hundreds: a file of one long line
#: is not read whole to be refused).
HEAD_LIMIT = 1 << 20


def _loads(line: bytes) -> Any:
    """A line's JSON value, or None for a line that is not JSON in UTF-8."""
    try:
        return json.loads(line.decode("utf-8"))
    except ValueError:  # (UnicodeDecodeError and JSONDecodeError alike)
        return None


class Checkpoint(Generic[R]):
    """A file of finished batches: a header line (the study and its settings), then one line
    a batch, ``{"batch": i, "result": ...}``, appended and flushed as each is played (a new file
    is written with the first). A last line cut short (the run killed writing it) is ignored."""

    def __init__(
        self,
        path: Path,
        header: dict[str, Any],
        encode: Callable[[R], Any],
        decode: Callable[[int, Any], R],
        batches: int | None = None,
    ) -> None:
        self.path, self.encode, self.decode = path, encode, decode
        #: How many batches the study has (None: not known ahead, a calibration's games).
        self.batches = batches
        self.header = {"format": CHECKPOINT_FORMAT, **header}
        #: The batches kept in the file: where each one's line begins (read when it is taken:
        #: a study's kept batches are not all held in memory, gigabytes for a large atlas).
        self.kept: dict[int, int] = {}
        self._headed = False  # (whether the file holds its header)

    def _refuse(self, why: str) -> SettingsError:
        return SettingsError(f"--checkpoint {paths.short(self.path)}: {why}")

    def open(self) -> None:
        """Read the batches already there (checking the header); a new file (or an empty one)
        is written with the first batch (:meth:`record`)."""
        try:
            if self.path.exists() and self.path.stat().st_size > 0:
                self._read()
                self._headed = True
        except OSError as err:
            raise self._refuse(paths.why(err, self.path)) from None

    def _read(self) -> None:
        with self.path.open("rb") as f:  # (bytes: a file of any bytes is refused in words)
            last = f.readline(HEAD_LIMIT)
            head = _loads(last)
            if not isinstance(head, dict) or head.get("format") != CHECKPOINT_FORMAT:
                raise self._refuse("not a thirtyone checkpoint file")
            if head != json.loads(json.dumps(self.header, sort_keys=True)):
                raise self._refuse(
                    "it was written by another study or other settings (the same command, "
                    "with the same settings, resumes it; or give another file)"
                )
            damaged, end = None, len(last)  # (a damaged line's number; where a line begins)
            for number, line in enumerate(f, start=2):
                if damaged is not None:  # (a damaged line before this one: not the last)
                    raise self._refuse(f"line {damaged} is damaged")
                if line.strip() and not self._check(_loads(line), end):
                    damaged, cut = number, end  # (told unless it is the last: one cut short)
                last, end = line, end + len(line)
        if damaged is not None:  # (the last line cut short is dropped, not left before others)
            os.truncate(self.path, cut)
        elif not last.endswith(b"\n"):  # (a last line whole but for its end: ended)
            with self.path.open("a", encoding="utf-8") as f:
                f.write("\n")

    def _check(self, entry: Any, where: int) -> bool:
        """Note the batch of the line at byte ``where``; False for a line that is not one of
        this study's batches (a batch number out of the study's range, a result not of its
        shape)."""
        if not isinstance(entry, dict) or entry.keys() != {"batch", "result"}:
            return False
        index = entry["batch"]
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            return False
        if self.batches is not None and index >= self.batches:
            return False
        try:
            self.decode(index, entry["result"])
        except (ValueError, KeyError, TypeError, AttributeError, OverflowError):
            return False
        self.kept[index] = where
        return True

    def take(self, index: int) -> R:
        """Kept batch ``index``'s result, read again from its line (checked when the file was
        opened), and forgotten."""
        where = self.kept.pop(index)
        try:
            with self.path.open("rb") as f:
                f.seek(where)
                return self.decode(index, json.loads(f.readline().decode("utf-8"))["result"])
        except (OSError, ValueError, KeyError, TypeError, AttributeError, OverflowError):
            raise self._refuse(f"batch {index} changed since the file was read") from None

    def record(self, index: int, result: R) -> None:
        """Append batch ``index``'s result, on disk before this returns; a file that cannot
        be written (a full disk) ends the run as :class:`~.workers.Failed` does: what was
        played is told, then one error line."""
        line = json.dumps({"batch": index, "result": self.encode(result)}, allow_nan=False)
        if not self._headed:  # (the first batch of a new file: started, or an empty one again)
            line = json.dumps(self.header, sort_keys=True) + "\n" + line
        try:
            with (
                workers.held(),
                self.path.open("a" if self._headed else "w", encoding="utf-8") as f,
            ):
                f.write(line + "\n")
                f.flush()
                os.fsync(f.fileno())
        except OSError as err:
            where = paths.short(self.path)
            raise workers.Failed(
                f"--checkpoint {where} cannot be written ({paths.why(err, self.path)}), so the "
                "batch just played is not kept in it"
            ) from None
        self._headed = True
