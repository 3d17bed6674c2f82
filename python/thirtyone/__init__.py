"""thirtyone: Thirty-One against computer players, with the Oracle's advice.

Scripting in short::

    import thirtyone
    game = thirtyone.Game(thirtyone.Rules.preset("standard"), seed=7)
    winner = game.play()              # every seat played by the table's rule (TablePolicy)
    for event in game.events: ...

    # Or push the decisions yourself: seat 0 is yours, the others play by the table's rule.
    table = thirtyone.TablePolicy()
    session = thirtyone.Session(thirtyone.Rules.standard(), [None, table, table, table], seed=7)
    events = session.advance()        # the deal, and the computers' turns before yours
    while not session.over:
        pending = session.pending     # whose decision, its phase, the legal actions
        events = session.act(pending.legal[0])
"""

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version

from thirtyone._core import Action, Cancel
from thirtyone.errors import (
    Cancelled,
    CardError,
    IllegalMoveError,
    RuleError,
    SaveError,
    SettingsError,
    StateError,
    ThirtyOneError,
)
from thirtyone.game.cards import PACK, card_value, hand_score, parse_card, parse_cards
from thirtyone.game.rules import Rules
from thirtyone.game.seats import TABLE_KNOCK_AT, Pending, Policy, SeatView, TablePolicy
from thirtyone.game.session import Event, Game, Session
from thirtyone.oracle.answer import Advice, OptionAdvice, Sweep
from thirtyone.oracle.player import OraclePlayer
from thirtyone.oracle.query import advise

try:
    #: The installed package's version (from its metadata: the one pip reports).
    __version__ = _version("thirtyone")
except PackageNotFoundError:  # pragma: no cover - a source tree that was never installed
    __version__ = "0+unknown"

__all__ = [
    "PACK",
    "TABLE_KNOCK_AT",
    "Action",
    "Advice",
    "Cancel",
    "Cancelled",
    "CardError",
    "Event",
    "Game",
    "IllegalMoveError",
    "OptionAdvice",
    "OraclePlayer",
    "Pending",
    "Policy",
    "RuleError",
    "Rules",
    "SaveError",
    "SeatView",
    "Session",
    "SettingsError",
    "StateError",
    "Sweep",
    "TablePolicy",
    "ThirtyOneError",
    "__version__",
    "advise",
    "card_value",
    "hand_score",
    "parse_card",
    "parse_cards",
]
