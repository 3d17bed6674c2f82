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


class Checkpoint(Generic[R]):
    """A file of finished batches: a header line (the study and its settings), then one line
    a batch, ``{"batch": i, "result": ...}``, appended and flushed as each is played (a new file
    is written with the first). A last line cut short (the run killed writing it) is ignored."""

    def __init__(
        self,
        path: Path,
        header: dict[str, Any],
        encode: Callable[[R], Any],
        decode: Callable[[Any], R],
    ) -> None:
        self.path, self.encode, self.decode = path, encode, decode
        self.header = {"format": CHECKPOINT_FORMAT, **header}
        self.found: dict[int, R] = {}
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
        with self.path.open(encoding="utf-8") as f:
            lines = f.read().split("\n")
        try:
            head = json.loads(lines[0])
        except ValueError:
            head = None
        if not isinstance(head, dict) or head.get("format") != CHECKPOINT_FORMAT:
            raise self._refuse("not a thirtyone checkpoint file")
        if head != json.loads(json.dumps(self.header, sort_keys=True)):
            raise self._refuse(
                "it was written by another study or other settings (the same command, "
                "with the same settings, resumes it; or give another file)"
            )
        for number, line in enumerate(lines[1:], start=2):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                self.found[int(entry["batch"])] = self.decode(entry["result"])
            except (ValueError, KeyError, TypeError):
                if number == len(lines) or (number == len(lines) - 1 and not lines[-1]):
                    break  # (a last line cut short)
                raise self._refuse(f"line {number} is damaged") from None
        if lines[-1]:  # (an unfinished last line: the next batch starts on its own line)
            with self.path.open("a", encoding="utf-8") as f:
                f.write("\n")

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
