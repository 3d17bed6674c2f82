"""The scripting API's refusals, a fourth QA round (README, "Scripting" and "Errors"): what a
script passes to ``TablePolicy``, ``OraclePlayer``, ``Session`` and ``advise`` is refused, when
wrong, by a :class:`thirtyone.ThirtyOneError` naming the setting, when it is given, never by a
raw ``OverflowError`` or ``TypeError`` (or later, in the middle of a game)."""

from __future__ import annotations

from typing import Any

import pytest
from thirtyone import OraclePlayer, RuleError, SettingsError, TablePolicy


def test_a_knock_score_past_every_float_is_refused_as_any_other() -> None:
    """``float(10**400)`` raises ``OverflowError``: it escaped from ``TablePolicy``."""
    with pytest.raises(RuleError) as caught:
        TablePolicy(knock_at=10**400)
    assert str(caught.value) == (
        "rule knock_at: a number of 401 digits is not a score (whole or half points from 0)"
    )


@pytest.mark.parametrize(
    ("seed", "said"),
    [
        (-1, "seed must be a whole number from 0 to 18,446,744,073,709,551,615, not -1"),
        (2**64, "seed must be a whole number from 0 to 18,446,744,073,709,551,615, not "),
        ("7", 'seed must be a whole number, not "7"'),
        (1.5, "seed must be a whole number, not 1.5"),
        (True, "seed must be a whole number, not true"),
    ],
)
def test_an_oracle_player_checks_its_seed_when_it_is_made(seed: Any, said: str) -> None:
    """Its settings are checked when it is made (README): the seed was taken whatever it was
    (it is only hashed with the position), a seed that ``advise`` and ``--seed`` refuse."""
    with pytest.raises(SettingsError) as caught:
        OraclePlayer(seed=seed, deals=100, playouts=200)
    assert str(caught.value).startswith(said)


@pytest.mark.parametrize("seed", [None, 0, 2**64 - 1])
def test_an_oracle_player_takes_every_seed_of_the_bounds(seed: int | None) -> None:
    player = OraclePlayer(seed=seed, deals=100, playouts=200)
    assert player.seed == seed or seed is None
