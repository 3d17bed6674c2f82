"""One line typed at a prompt of ``thirtyone play``, whatever it holds.

- The line is read as bytes and decoded as UTF-8 with replacement: a byte that is not UTF-8
  becomes ``\ufffd``, so nothing typed can fail to print when it is quoted back.
- At most :data:`LINE_BYTES` bytes of a line are kept; the rest of a longer line is read and
  dropped in pieces of that size, so a line of any length (with or without a newline at its end)
  takes bounded memory and ends at the newline or at the end of the input.
- A line longer than :data:`LINE_CHARS` characters is cut there and ends with ``…``: no choice
  holds ``…``, so a cut line is never taken for a choice (``k`` followed by a megabyte of spaces
  and an ``x`` is not a knock); it is refused and quoted short, like any other mistake.
"""

from __future__ import annotations

import sys
from typing import IO, Protocol, TextIO

import click

#: The longest line kept, in characters (a choice is a word or two).
LINE_CHARS = 200
#: The most bytes of a line read at once (a character is at most 4 bytes of UTF-8).
LINE_BYTES = 4 * LINE_CHARS + 4


def bounded(raw: bytes) -> str:
    """The text of the line ``raw`` (without its line break): decoded with replacement, and cut
    to :data:`LINE_CHARS` characters followed by ``…`` when it is longer."""
    text = raw.decode("utf-8", errors="replace").removesuffix("\n").removesuffix("\r")
    return text if len(text) <= LINE_CHARS else text[:LINE_CHARS] + "…"


class _Lines(Protocol):
    def readline(self, limit: int = -1, /) -> bytes: ...


class _AsBytes:
    """A text stream without a byte buffer under it (a test's ``StringIO``), read as bytes."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def readline(self, limit: int = -1, /) -> bytes:
        return self.stream.readline(limit).encode("utf-8", errors="replace")


def read_line(stream: _Lines) -> bytes | None:
    """The first :data:`LINE_BYTES` bytes of the next line of ``stream`` (the rest of a longer
    line is read and dropped); None at the end of the input."""
    head = stream.readline(LINE_BYTES)
    if not head:
        return None
    if not head.endswith(b"\n"):
        while True:  # drop the rest of the line, a piece at a time
            rest = stream.readline(LINE_BYTES)
            if not rest or rest.endswith(b"\n"):
                break
    return head


def _stdin() -> _Lines | None:
    stream = sys.stdin
    if stream is None:
        return None
    buffer: IO[bytes] | None = getattr(stream, "buffer", None)
    return _AsBytes(stream) if buffer is None else buffer


class QuitGame(Exception):
    """The person chose to leave the game (``q``, end of input, Ctrl-C)."""


def prompt_line(prompt: str) -> str | None:
    """Show ``prompt`` and read one line from standard input (a terminal, a pipe, or
    ``CliRunner``'s input): its text (see :func:`bounded`), or None at the end of the input or
    on Ctrl-C."""
    click.echo(f"{prompt}: ", nl=False)
    stream = _stdin()
    try:
        raw = None if stream is None else read_line(stream)
    except KeyboardInterrupt:
        return None
    except (OSError, ValueError):  # standard input closed or unreadable: the end of it
        return None
    return None if raw is None else bounded(raw)
