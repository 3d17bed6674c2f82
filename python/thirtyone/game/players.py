"""Players: the table's computer player, and the interface a person's seat implements.

A player is asked to play a turn through a :class:`~thirtyone.game.Turn`: it calls
``turn.knock()``, ``turn.draw()``, ``turn.take()`` or ``turn.decline()``, then
``turn.put_down(card)`` after a draw or take. The computer player hands the whole turn to the
table's decision rule, which lives once, in the Rust core. The rule has no clause for the blind
showdown or for hiding a 31, so a computer player never calls the one (it looks at its cards)
and always shows the other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from thirtyone import _core

if TYPE_CHECKING:
    from thirtyone.game.turn import Turn

#: The computer players' knock threshold (``rules.md``), the core's.
TABLE_KNOCK_AT: float = _core.TABLE_KNOCK_AT


class Player(Protocol):
    """Anything that can play a turn."""

    name: str

    def play(self, turn: Turn) -> None:
        """Play one whole turn (knock, or draw or take and put down, or decline)."""


class ComputerPlayer:
    """A computer player: the table's decision rule, knocking at ``knock_at`` (27) or more
    (None: never)."""

    def __init__(self, name: str = "Computer", knock_at: float | None = TABLE_KNOCK_AT) -> None:
        self.name = name
        self.knock_at = knock_at

    def play(self, turn: Turn) -> None:
        turn.play_by_rule(self.knock_at)

    def __repr__(self) -> str:
        return f"ComputerPlayer({self.name!r}, knock_at={self.knock_at})"
