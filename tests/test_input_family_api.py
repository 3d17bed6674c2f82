"""The scripting API's refusals, a fourth QA round (README, "Scripting" and "Errors"): what a
script passes to ``TablePolicy``, ``OraclePlayer``, ``Session`` and ``advise`` is refused, when
wrong, by a :class:`thirtyone.ThirtyOneError` naming the setting, when it is given, never by a
raw ``OverflowError`` or ``TypeError`` (or later, in the middle of a game)."""

from __future__ import annotations

import pytest
from thirtyone import RuleError, TablePolicy


def test_a_knock_score_past_every_float_is_refused_as_any_other() -> None:
    """``float(10**400)`` raises ``OverflowError``: it escaped from ``TablePolicy``."""
    with pytest.raises(RuleError) as caught:
        TablePolicy(knock_at=10**400)
    assert str(caught.value) == (
        "rule knock_at: a number of 401 digits is not a score (whole or half points from 0)"
    )
