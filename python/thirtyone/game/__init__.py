"""The game: cards, a table's rules, the session that holds a game from its first deal to its
end, the seats' views and the computer seats' policies (the table's rule among them), and
:class:`Game` (a session of computer seats played to its end). Knows nothing of the Oracle, the
terminal or files."""

from thirtyone.game.seats import TABLE_KNOCK_AT, Pending, Policy, SeatView, TablePolicy
from thirtyone.game.session import Event, Game, Session

__all__ = [
    "TABLE_KNOCK_AT",
    "Event",
    "Game",
    "Pending",
    "Policy",
    "SeatView",
    "Session",
    "TablePolicy",
]
