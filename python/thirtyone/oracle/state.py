"""The Oracle's input (``oracle.md``): a round as one player sees it, as a dict or JSON text.

:func:`parse` hands it to the Rust core, which reads and checks it once (every key, type,
card and rule, naming the place of a problem; then the round is replayed to check that it could
have happened) and raises a :class:`~thirtyone.errors.ThirtyOneError` subclass otherwise.
:func:`from_game` gives the input of a running game (the core builds it from the round's record).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from thirtyone import _core
from thirtyone.errors import StateError

if TYPE_CHECKING:
    from thirtyone.game.session import Session

#: What :func:`parse` takes: JSON text, a mapping in the ``oracle.md`` shape, or a parsed state.
StateLike = str | bytes | Mapping[str, Any] | _core.State


def parse(
    state: StateLike,
    *,
    preset: str | None = None,
    changes: Mapping[str, Any] | None = None,
) -> _core.State:
    """Read and check a state. ``preset`` replaces the state's rules; ``changes`` (option name to
    value) apply on top of them."""
    if isinstance(state, _core.State) and preset is None and not changes:
        return state
    if isinstance(state, _core.State):
        raise StateError("rules can be changed only while reading a state, not after")
    return _core.State.parse(state, preset, list((changes or {}).items()))


def from_game(game: Session, seat: int | None = None) -> dict[str, Any]:
    """The current round as game seat ``seat`` sees it (default: the player to move), in the
    ``oracle.md`` format: :meth:`Session.view <thirtyone.session.Session.view>`."""
    return game.view(seat)
