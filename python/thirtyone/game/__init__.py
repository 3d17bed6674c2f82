"""The game: cards, a table's rules, the session that holds a game from its first deal to its
end, the turn a player acts through, the table's computer player, and :class:`Game` (the session
driven by its players). Knows nothing of the Oracle, the terminal or files."""

from thirtyone.game.loop import Game
from thirtyone.game.session import Event, Pending, Policy, RoundLog, SeatView, Session, TablePolicy

__all__ = ["Event", "Game", "Pending", "Policy", "RoundLog", "SeatView", "Session", "TablePolicy"]
