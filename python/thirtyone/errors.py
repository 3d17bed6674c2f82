"""The one exception hierarchy of thirtyone.

Every error caused by bad input is a :class:`ThirtyOneError`, itself a :class:`ValueError`:

- :class:`CardError`: text that is not a card (``"1X"``), or a card used twice;
- :class:`RuleError`: an unknown preset or rule option, or a value out of range;
- :class:`StateError`: a round state that cannot have happened, or is not the player's turn;
- :class:`IllegalMoveError`: an action the rules do not allow now;
- :class:`SettingsError`: a setting of the Oracle (``deals``, ``playouts``, ``threads``,
  ``seed``, ``max_time``, ``target_margin``) out of its bounds, or a time limit too short to
  find a single consistent deal;
- :class:`SaveError`: a saved game that is missing, damaged, or cannot be replayed or written.

A query stopped from another thread by its :class:`thirtyone.Cancel` raises :class:`Cancelled`,
which is not a :class:`ThirtyOneError` (nothing was wrong with the input): a loop that turns bad
input into a note (a review) still stops.

They are defined in one place (the Rust core's binding), raised by the core and by the Python
layer alike.
"""

from thirtyone._core import (
    Cancelled,
    CardError,
    IllegalMoveError,
    RuleError,
    SaveError,
    SettingsError,
    StateError,
    ThirtyOneError,
)

__all__ = [
    "Cancelled",
    "CardError",
    "IllegalMoveError",
    "RuleError",
    "SaveError",
    "SettingsError",
    "StateError",
    "ThirtyOneError",
]
