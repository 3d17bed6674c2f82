"""The progress line of a study on standard error (``games 37/200 (18%), 3 s``): written over
itself on a terminal, a whole line now and then in a log or a pipe."""

from __future__ import annotations

import sys
import time
from typing import Any

#: How often a progress line is written where it cannot be written over (a log, a pipe).
LOG_EVERY = 10.0


class Progress:
    """A progress callback writing ``games 37/200 (18%), 3 s`` over itself on ``stream``
    (stderr), at most every ``every`` seconds and at the end. Where the stream is no terminal
    (a log file, a pipe) each line is a whole line, at most every :data:`LOG_EVERY` seconds."""

    def __init__(self, stream: Any = None, every: float = 0.5, unit: str = "games") -> None:
        self.out = stream or sys.stderr
        isatty = getattr(self.out, "isatty", None)
        self.over = bool(isatty and isatty())  # written over itself (a terminal)
        self.unit = unit
        self.every = every if self.over else max(every, LOG_EVERY)
        self.start = time.monotonic()
        self.last = self.start - self.every
        self.open = False  # a line is shown, not yet ended
        self.kept = 0  # done before this run (a checkpoint's): not shown again

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and (now - self.last < self.every or done <= self.kept):
            return
        self.last = now
        self.open = self.over and done < total
        start, end = ("\r", "" if self.open else "\n") if self.over else ("", "\n")
        self.out.write(
            f"{start}{self.unit} {done:,}/{total:,} ({done / total:.0%}), "
            f"{now - self.start:.0f} s{end}"
        )
        self.out.flush()

    def said(self, line: str, kept: int = 0) -> None:
        """Write ``line`` whole (``resuming: 53 of 240 batches from ck.json``); the progress
        line comes after it, from beyond the ``kept`` already done (not ``1/240`` on the way
        there, as the kept batches are counted again)."""
        self.end()
        self.out.write(line + "\n")
        self.out.flush()
        self.kept = kept

    def end(self) -> None:
        """End the line shown (before a stopped run's message)."""
        if self.open:
            self.out.write("\n")
            self.out.flush()
            self.open = False


def progress_line(stream: Any = None, every: float = 0.5, unit: str = "games") -> Progress:
    """The :class:`Progress` line on ``stream`` (stderr), counting ``unit``."""
    return Progress(stream, every, unit)
