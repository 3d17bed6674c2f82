"""Player names are printed on every turn, so they must be plain text of a sane width; and a
message quoting what somebody typed quotes a short part of it.

A control character (ESC starts the terminal's escape codes, which can recolour, move the cursor
or retitle the window), a line break, a lone surrogate (which cannot be printed at all) or a
bidirectional override (which reorders the text after it) would be sent to the terminal raw.
:func:`problem` says why a name typed with ``--name`` is refused (also a name wider than
:data:`NAME_WIDTH` columns); :func:`neutralise` makes a name read from a saved game harmless by
writing each such character as its escape (``\\x1b``) and cropping it to that width.
:func:`quoted` is the one way a message quotes a value it refuses: at most :data:`QUOTE_CHARS`
characters of it, as the core's messages do; :func:`shown` names a refused value of any type
(the library's settings, the studies' queries) as JSON spells it.
"""

from __future__ import annotations

import json
import math
import re
import sys
import unicodedata
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

#: The most characters of a refused value that a message quotes (as in the core's messages).
QUOTE_CHARS = 24
#: The widest name at the table, in terminal columns.
NAME_WIDTH = 30
#: The computer players' names, in seat order (every front-end seats the same players).
COMPUTER_NAMES = ("Alice", "Ben", "Cara", "Dev", "Eve", "Finn", "Gus", "Hana", "Ivo")

#: Bidirectional embeddings, overrides and isolates (they reorder the text that follows).
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: Control characters, surrogates, line and paragraph separators.
_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})


def unsafe(ch: str) -> bool:
    """Whether the character ``ch`` must not reach the terminal raw."""
    return ch in _BIDI or unicodedata.category(ch) in _CATEGORIES


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def quoted(text: str) -> str:
    """``text`` quoted for a message: its first :data:`QUOTE_CHARS` characters, with anything
    unprintable escaped (Python's ``repr``), then ``…`` when there is more."""
    head = repr(text[:QUOTE_CHARS])
    return head if len(text) <= QUOTE_CHARS else head + "…"


def number(value: float) -> str:
    """A float for a message: short (``1e+09``, ``2.5``) where that is the very number, else
    every digit it needs (``3600.0000001``, not ``3600``: a refused value must not read as one
    in bounds, the bound itself)."""
    short = f"{value:g}"
    return short if float(short) == value else repr(value)


#: A whole number written plainly: a sign if any, then the digits 0 to 9.
_PLAIN_WHOLE = re.compile(r"\s*[+-]?[0-9]+\s*")


def plain_whole(typed: str) -> bool:
    """Whether a whole number typed as text is written plainly: a sign if any and the digits 0
    to 9 (spaces around it aside). Python's ``int()`` also reads the digits of other scripts
    (full-width ``\uff11\uff12``, Arabic-Indic ``\u0661\u0662``) and underscores between
    digits (``1_000``), which the new-game form never took: every entry point refuses them
    alike, quoting them as typed (ruling 354)."""
    return _PLAIN_WHOLE.fullmatch(typed) is not None


@contextmanager
def any_length() -> Iterator[None]:
    """Whole numbers of any length read and written, for a while: Python reads and writes at
    most 4,300 digits (a guard against work without end from text of any size). For text
    whose size is bounded, such as an argument of a command (at most 128 KiB, read in a few
    hundredths of a second), so that a number too large is refused by its bounds."""
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(before)


def json_whole(value: object) -> int | None:
    """A whole number sent as a JSON number: an integer, or a number with no fraction (``5.0``,
    which JSON Schema takes for an integer, as the state's reader does), else None (a bool is
    not a number here)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def plain_number(typed: str) -> bool:
    """Whether a number typed as text (``2.5``, ``1e3``, ``inf``) is one Python's ``float()``
    reads and written in plain characters: ``float()`` also reads the digits of other scripts
    (full-width ``\uff11``) and underscores between digits (``0_5``), which every option of
    seconds refuses as the whole-number options refuse them (ruling 355)."""
    if not typed.isascii() or "_" in typed:
        return False
    try:
        float(typed)
    except ValueError:
        return False
    return True


def shown(value: object, most: int = QUOTE_CHARS) -> str:
    """A refused value as the product's messages show it, whatever its type: as JSON spells it
    (``"abc"`` in double quotes, at most ``most`` characters of it, then ``…``,
    anything unprintable escaped;
    ``5``, ``2.5``, ``true``, ``null``), a list or a tuple as ``a list``, a mapping as ``an
    object``, anything else by its type's name. The core quotes text the same way."""
    if isinstance(value, str):
        head = escaped(json.dumps(value[:most], ensure_ascii=False))
        return head if len(value) <= most else head + "…"
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, float):
        return "NaN" if math.isnan(value) else number(value)
    if isinstance(value, int):
        digits = digits_of(value) if abs(value) >= 10**30 else 0
        return f"a number of {digits:,} digits" if digits else str(value)
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def digits_of(value: int) -> int:
    """How many digits ``value`` has, without writing it out (Python writes at most 4,300)."""
    n = abs(value)
    if n == 0:
        return 1
    digits = int(math.log10(n)) + 1  # (a float's log: one off at most, mended below)
    if 10 ** (digits - 1) > n:
        digits -= 1
    elif 10**digits <= n:
        digits += 1
    return digits


def what_it_is(value: object) -> str:
    """A refused value for a message: ``the text 'abc'`` (quoted short: :func:`quoted`), ``None``,
    or its type's name."""
    if isinstance(value, str):
        return f"the text {quoted(value)}"
    return "None" if value is None else type(value).__name__


def crop(text: str, width: int = NAME_WIDTH) -> str:
    """``text`` cut to at most ``width`` terminal columns, ending with ``…`` when it was cut.
    Only the first ``4 * width`` characters are looked at (a text of millions of characters is
    cropped as fast as a short one)."""
    if len(text) <= width and text.isascii():  # (at most one column a character)
        return text
    from rich.cells import cell_len  # (here: the library face loads no rich)

    head = text[: 4 * width]
    if len(head) == len(text) and cell_len(text) <= width:
        return text
    kept: list[str] = []
    used = 0
    for ch in head:
        used += cell_len(ch)
        if used > width - 1:
            break
        kept.append(ch)
    return "".join(kept) + "…"


def problem(name: str) -> str | None:
    """Why ``name`` may not be used at the table (None: it may)."""
    from rich.cells import cell_len

    if (width := cell_len(name)) > NAME_WIDTH:
        return f"a name may be at most {NAME_WIDTH} columns wide (this one is {width:,})"
    for i, ch in enumerate(name):
        if unsafe(ch):
            return (
                f"a name may not hold control characters or terminal codes "
                f"({_escape(ch)} at position {i + 1}); type it as plain text"
            )
    if name and not any(unicodedata.category(ch)[0] in "LNPS" for ch in name):
        # (A zero-width space, or spaces and marks alone: a name nobody sees at the table.)
        return "a name needs a letter, digit or sign that shows; this one shows nothing"
    return None


#: Every character :func:`unsafe` finds (categories Cc, Cs, Zl and Zp, and the bidirectional
#: controls; the tests check them against ``unicodedata``) as code point ranges, then as one
#: pattern and as a table of escapes: a name of millions of characters is looked through in
#: milliseconds and rewritten in a second or two, where a test of each character took a minute.
_RANGES = ((0x00, 0x1F), (0x7F, 0x9F), (0x2028, 0x202E), (0x2066, 0x2069), (0xD800, 0xDFFF))
_UNSAFE = re.compile("[" + "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in _RANGES) + "]")
_ESCAPES = {c: _escape(chr(c)) for lo, hi in _RANGES for c in range(lo, hi + 1)}


def escaped(text: str) -> str:
    """``text`` with every unsafe character written as its escape (``\\x1b``)."""
    return text if _UNSAFE.search(text) is None else text.translate(_ESCAPES)


def neutralise(name: str) -> str:
    """``name`` made harmless: :func:`escaped`, then cropped to :data:`NAME_WIDTH` columns."""
    return crop(escaped(name))


def computer_names(count: int, taken: str) -> list[str]:
    """Friendly names for ``count`` computer players, avoiding the person's name."""
    return [n for n in COMPUTER_NAMES if n.casefold() != taken.casefold()][:count]
