"""thirtyone: Thirty-One against computer players, with the Oracle's advice.

Scripting in short::

    import thirtyone
    game = thirtyone.Game(thirtyone.Rules.preset("standard"), seed=7)
    winner = game.play()              # every seat played by the table's rule
    for event in game.events: ...
"""

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version

from thirtyone.cards import PACK, card_value, hand_score, parse_card, parse_cards
from thirtyone.errors import (
    CardError,
    IllegalMoveError,
    RuleError,
    SaveError,
    SettingsError,
    StateError,
    ThirtyOneError,
)
from thirtyone.game import Event, Game, RoundLog
from thirtyone.oracle import Advice, OptionAdvice, Sweep, advise
from thirtyone.oracle_player import OraclePlayer
from thirtyone.players import TABLE_KNOCK_AT, ComputerPlayer, Player
from thirtyone.rules import Rules
from thirtyone.turn import Turn

try:
    #: The installed package's version (from its metadata: the one pip reports).
    __version__ = _version("thirtyone")
except PackageNotFoundError:  # pragma: no cover - a source tree that was never installed
    __version__ = "0+unknown"

__all__ = [
    "PACK",
    "TABLE_KNOCK_AT",
    "Advice",
    "CardError",
    "ComputerPlayer",
    "Event",
    "Game",
    "IllegalMoveError",
    "OptionAdvice",
    "OraclePlayer",
    "Player",
    "RoundLog",
    "RuleError",
    "Rules",
    "SaveError",
    "SettingsError",
    "StateError",
    "Sweep",
    "ThirtyOneError",
    "Turn",
    "__version__",
    "advise",
    "card_value",
    "hand_score",
    "parse_card",
    "parse_cards",
]
