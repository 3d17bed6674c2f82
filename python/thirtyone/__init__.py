"""thirtyone: Thirty-One against computer players, with the Oracle's advice.

Scripting in short::

    import thirtyone
    game = thirtyone.Game(thirtyone.Rules.preset("standard"), seed=7)
    winner = game.play()              # every seat played by the table's rule
    for event in game.events: ...
"""

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
from thirtyone.players import TABLE_KNOCK_AT, ComputerPlayer, Player
from thirtyone.rules import Rules
from thirtyone.turn import Turn

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
    "advise",
    "card_value",
    "hand_score",
    "parse_card",
    "parse_cards",
]
