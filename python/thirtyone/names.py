"""Player names are printed on every turn, so they must be plain text.

A control character (ESC starts the terminal's escape codes, which can recolour, move the cursor
or retitle the window), a line break, a lone surrogate (which cannot be printed at all) or a
bidirectional override (which reorders the text after it) would be sent to the terminal raw.
:func:`problem` says why a name typed with ``--name`` is refused; :func:`neutralise` makes a name
read from a saved game harmless by writing each such character as its escape (``\\x1b``).
"""

from __future__ import annotations

import re
import unicodedata

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


def problem(name: str) -> str | None:
    """Why ``name`` may not be used at the table (None: it may)."""
    for i, ch in enumerate(name):
        if unsafe(ch):
            return (
                f"a name may not hold control characters or terminal codes "
                f"({_escape(ch)} at position {i + 1}); type it as plain text"
            )
    return None


#: Every character :func:`unsafe` finds (categories Cc, Cs, Zl and Zp, and the bidirectional
#: controls; the tests check them against ``unicodedata``) as code point ranges, then as one
#: pattern and as a table of escapes: a name of millions of characters is looked through in
#: milliseconds and rewritten in a second or two, where a test of each character took a minute.
_RANGES = ((0x00, 0x1F), (0x7F, 0x9F), (0x2028, 0x202E), (0x2066, 0x2069), (0xD800, 0xDFFF))
_UNSAFE = re.compile("[" + "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in _RANGES) + "]")
_ESCAPES = {c: _escape(chr(c)) for lo, hi in _RANGES for c in range(lo, hi + 1)}


def neutralise(name: str) -> str:
    """``name`` with every unsafe character written as its escape (``\\x1b``)."""
    return name if _UNSAFE.search(name) is None else name.translate(_ESCAPES)


#: The most characters of a name that are shown (a name read from a file may be of any length).
SHOWN = 60


def crop(name: str, most: int = SHOWN) -> str:
    """``name`` as shown: at most ``most`` characters, a longer one cut and ended with ``…``."""
    return name if len(name) <= most else name[: most - 1] + "…"
