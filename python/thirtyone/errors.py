"""The one exception hierarchy of thirtyone.

Every error caused by bad input is a :class:`ThirtyOneError`, itself a :class:`ValueError`:

- :class:`CardError`: text that is not a card (``"1X"``), or a card used twice;
- :class:`RuleError`: an unknown preset or rule option, or a value out of range;
- :class:`StateError`: a round state that cannot have happened, or is not the player's turn;
- :class:`IllegalMoveError`: an action the rules do not allow now.

They are raised by the Rust core and by the Python layer alike.
"""

from thirtyone._core import (
    CardError,
    IllegalMoveError,
    RuleError,
    StateError,
    ThirtyOneError,
)

__all__ = ["CardError", "IllegalMoveError", "RuleError", "StateError", "ThirtyOneError"]
