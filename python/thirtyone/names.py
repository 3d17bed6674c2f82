"""Player names are printed on every turn, so they must be plain text.

A control character (ESC starts the terminal's escape codes, which can recolour, move the cursor
or retitle the window), a line break, a lone surrogate (which cannot be printed at all) or a
bidirectional override (which reorders the text after it) would be sent to the terminal raw.
:func:`problem` says why a name typed with ``--name`` is refused; :func:`neutralise` makes a name
read from a saved game harmless by writing each such character as its escape (``\\x1b``).
"""

from __future__ import annotations

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


def neutralise(name: str) -> str:
    """``name`` with every unsafe character written as its escape (``\\x1b``)."""
    return "".join(_escape(ch) if unsafe(ch) else ch for ch in name)
