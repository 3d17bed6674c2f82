"""The Oracle: its input (a round as one player sees it), the query and its answer, the answer
in words, the read of each opponent, and the Oracle as a player. Knows the game; knows nothing of
the terminal, saved games or the record."""

from thirtyone.oracle.answer import Advice, OptionAdvice, Sweep
from thirtyone.oracle.query import ROUND_RESULTS, advise

__all__ = ["ROUND_RESULTS", "Advice", "OptionAdvice", "Sweep", "advise"]
