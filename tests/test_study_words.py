"""The studies' settings refuse a value in the product's words, as the rest of the API does: the
setting, what it takes, and the value as JSON spells it (``"5"``, ``null``, ``a list``), never
Python's ``'5'``, ``None``, ``(1,)`` or a raw ``TypeError``. The same for the query parameters of
the server's study pages (``GET /api/review?deals=…``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from thirtyone.errors import RuleError, SettingsError
from thirtyone.study import calibration, knock, review, tournament
from thirtyone.study.backend import cluster
from thirtyone.study.calibration_records import Settings as CalibrationSettings

PAIR = ("table", "table")

CASES: list[tuple[Callable[[], Any], type, str]] = [
    (
        lambda: tournament.Settings(PAIR, games="5").check(),
        SettingsError,
        'games must be a whole number from 1 to 1,000,000, not "5"',
    ),
    (
        lambda: tournament.Settings(PAIR, jobs=[2]).check(),
        SettingsError,
        "jobs must be a whole number from 1 to 64, not a list",
    ),
    (
        lambda: tournament.Settings(PAIR, preset="fancy").check(),
        RuleError,
        'unknown preset "fancy": choose one of ',
    ),
    (
        lambda: tournament.Settings(PAIR, preset=None).check(),  # (it was a TypeError)
        RuleError,
        "unknown preset null: choose one of ",
    ),
    (
        lambda: tournament.Settings(("table", 5)).check(),  # (it was a TypeError)
        SettingsError,
        'players[1] must be a player kind such as "oracle", not 5',
    ),
    (
        lambda: tournament.Settings(("table", "bogus")).check(),
        SettingsError,
        'unknown player kind "bogus": use one of ',
    ),
    (
        lambda: tournament.Settings(("table", "table:x")).check(),
        SettingsError,
        'table:K needs a knock score K from 0 to 31 in whole or half points, not "table:x"',
    ),
    (
        lambda: tournament.Settings(("table", "table@expert")).check(),
        SettingsError,
        '"table@expert": only an Oracle player',
    ),
    (
        lambda: tournament.Settings(PAIR, read_as="robot").check(),
        SettingsError,
        'read_as must be one of table, person, expert, not "robot"',
    ),
    (
        lambda: tournament.Settings(PAIR, seed="1").check(),
        SettingsError,
        'seed must be a whole number, not "1"',
    ),
    (
        lambda: CalibrationSettings(decisions="100").check(),
        SettingsError,
        'decisions must be a whole number from 1 to 1,000,000, not "100"',
    ),
    (
        lambda: CalibrationSettings(opponents="robots").check(),
        SettingsError,
        'opponents must be one of table, expert, mixed, noisy, not "robots"',
    ),
    (
        lambda: CalibrationSettings(deals=True).check(),
        SettingsError,
        "deals must be a whole number, not true",
    ),
    (lambda: calibration.parse_seats("4-2"), ValueError, 'the more, not "4-2"'),
    (lambda: calibration.parse_seats("ten"), ValueError, 'not "ten"'),
    (
        lambda: knock.Settings(rounds="1000").check(),  # (it was a TypeError)
        SettingsError,
        'rounds must be a whole number from 1 to 100,000,000, not "1000"',
    ),
    (lambda: knock.Settings(seats=(1, 4)).check(), SettingsError, "seats must be 2 to 9, not 1"),
    (
        lambda: knock.Settings(seats="4").check(),
        SettingsError,
        'seats must be a list of table sizes from 2 to 9, not "4"',
    ),
    (
        lambda: knock.Settings(seed=None).check(),
        SettingsError,
        "seed must be a whole number from 0 to 18,446,744,073,709,551,615, not null",
    ),
    (
        lambda: review.Settings(deals="500").check(),
        SettingsError,
        'deals must be a whole number, not "500"',
    ),
    (
        lambda: cluster.check_address("localhost:8786"),
        SettingsError,
        'address like tcp://HOST:8786, not "localhost:8786"',
    ),
    (
        lambda: review.Settings(playouts=None).check(),
        SettingsError,
        "playouts must be a whole number, not null",
    ),
]


@pytest.mark.parametrize(("call", "kind", "words"), CASES)
def test_a_study_setting_is_refused_in_the_products_words(
    call: Callable[[], Any], kind: type, words: str
) -> None:
    with pytest.raises(kind) as err:
        call()
    said = str(err.value)
    assert words in said
    assert not re.search(r"'[^']*'", said), said  # (nothing in Python's quotes)
    assert "None" not in said and "(1" not in said, said


@pytest.mark.parametrize(
    ("players", "said"),
    [
        # float() read these as 10 and 27, and 26.25 reached the core as "rule knock_at".
        ("table:1e1,table", 'whole or half points, not "table:1e1"'),
        ("table:\u0662\u0667,table", 'whole or half points, not "table:\u0662\u0667"'),
        ("table:26.25,table", 'whole or half points, not "table:26.25"'),
        ("", "a tournament needs 2 to 9 players, and none was given"),
        ("oracle,,table", "player 2 of 3 is empty: a kind goes between each two commas"),
    ],
)
def test_a_players_list_a_tournament_cannot_seat_is_told_what_is_wrong(
    players: str, said: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(said)):
        tournament.parse_players(players)


def test_a_knock_score_in_half_points_is_a_table_players_kind() -> None:
    assert tournament.parse_players("table:26.5, table:027.50,table:27.") == (
        "table:26.5",
        "table:27.5",
        "table:27",
    )
