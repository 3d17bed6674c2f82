"""An independent, deliberately simple reference implementation of the Oracle's calculation.

Written only from the contracts for the rules and the Oracle (``docs/rules.md`` and
``docs/oracle.md`` give our account of them), seed 000's "The Oracle" and "How the Oracle
calculates", and ``notes/DECISIONS.md``. It shares no code with the Rust engine or the
``thirtyone`` package, so that differential tests can check the fast Oracle against it. Clarity
comes first; it is slow on purpose.

Public API:

- :func:`evaluate` -- Monte Carlo figures (p_safe, lives_lost) of one option at one knock threshold.
- :func:`legal_options` -- the options you have in a state.
- :func:`sample_deals` -- consistent deals, by plain rejection sampling (uniform over the
  consistent set).
- :func:`opponent_score_posterior` -- an opponent's current hand score in each sampled deal.
- :func:`exact_knock_now_two_seats` -- exact P(safe) and E[lives lost] of knocking on your first
  turn at a two-seat table.
- :func:`parse_state`, :func:`parse_rules`, :func:`score`, :func:`decide`, ... the pieces.
"""

from .cards import card_value, parse_card, rank_of, suit_of
from .exact import exact_knock_now_two_seats
from .oracle import evaluate, legal_options, opponent_score_posterior
from .rules import Rules, best_putdown, best_take, decide, parse_rules, score
from .sampler import Deal, NoConsistentDeal, sample_deals
from .state import Position, StateError, parse_state

__all__ = [
    "Deal",
    "NoConsistentDeal",
    "Position",
    "Rules",
    "StateError",
    "best_putdown",
    "best_take",
    "card_value",
    "decide",
    "evaluate",
    "exact_knock_now_two_seats",
    "legal_options",
    "opponent_score_posterior",
    "parse_card",
    "parse_rules",
    "parse_state",
    "rank_of",
    "sample_deals",
    "score",
    "suit_of",
]
