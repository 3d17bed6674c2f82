"""Every piece of work is bounded, and no answer comes from nothing.

Written from the README's "Errors" section (the bounds of every setting, the SettingsError they
raise, one line and exit 2 on the command line) and its account of ``max_time`` (the answer comes
within it, but for the least work an answer rests on: 100 deals and 1,000 playouts per option, or
as many as asked if fewer, bounded in work, not time). Every JSON the product writes is strict
JSON: no NaN, no Infinity.

Nothing here is timed: the work is counted (the core reports the attempts of an answer's
consistent deals, and every answer its deals and playouts), so no test depends on the machine's
speed. A time limit that is up before the work begins shows what the limit cuts: everything but
the least work.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import thirtyone
from click.testing import CliRunner
from helpers import MIN_DEALS, MIN_PLAYOUTS, least_attempts, most_attempts
from hypothesis import example, given, settings
from hypothesis import strategies as st
from positions import positions
from thirtyone import _core
from thirtyone.cli.app import main
from thirtyone.errors import SaveError, SettingsError, StateError, ThirtyOneError
from thirtyone.oracle.state import parse
from thirtyone.store import saves
from thirtyone.study.calibration import Settings as CalibrationSettings
from thirtyone.study.calibration import calibrate

DATA = Path(__file__).parent / "data"
EXAMPLE_FILE = DATA / "example_state.json"
EXAMPLE: dict[str, Any] = json.loads(EXAMPLE_FILE.read_text())

#: The README's bounds (whole-number settings: inclusive).
WHOLE = {
    "deals": (1, 1_000_000),
    "playouts": (1, 10_000_000),
    "threads": (1, 64),
    "seed": (0, 2**64 - 1),
}
MAX_TIME = 3_600
TARGET_MARGIN = (0.001, 0.5)
#: Late 9-seat positions where consistent deals are rare (collected at a few dozen a second).
RARE = [(1, 19), (1, 25), (3, 23), (12, 29)]
#: One where the old half second of grace found none.
RAREST = (1, 28)


def strict(text: str) -> Any:
    """JSON parsed the way any parser must: NaN and Infinity are not JSON."""

    def refuse(constant: str) -> Any:
        raise AssertionError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


def state_at(seed: int, seats: int, turn: int) -> dict[str, Any]:
    for p in positions(seed, seats):
        if p.turn == turn:
            return p.state
    raise AssertionError(f"no turn {turn} in game {seed} of {seats} seats")


def is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def within_bounds(name: str, value: object) -> bool:
    """Whether the README says ``value`` is accepted for setting ``name``."""
    if name in WHOLE:
        low, high = WHOLE[name]
        return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
    if not is_number(value):
        return False
    x = float(value) if not isinstance(value, int) or abs(value) < 2**1000 else math.inf
    if name == "max_time":
        return 0 < x <= MAX_TIME
    return TARGET_MARGIN[0] <= x <= TARGET_MARGIN[1]


def check_answer(advice: thirtyone.Advice, asked_playouts: int) -> None:
    """A real answer: played, with finite figures and margins."""
    assert advice.deals >= 1
    assert advice.playouts >= min(MIN_PLAYOUTS, asked_playouts)
    for o in advice.options:
        assert 0 <= o.p_safe <= 1 and o.lives_lost >= 0
        assert math.isfinite(o.margin) and 0 <= o.margin <= 1
    strict(json.dumps(advice.to_dict(), allow_nan=False))


# -- any value of any setting: an answer or a SettingsError, in time -------------------------------

NUMBERS = st.one_of(
    st.integers(),
    st.integers(min_value=-(2**200), max_value=2**200),
    st.integers(min_value=-5, max_value=70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(min_value=-1, max_value=4_000),
    st.booleans(),
)
EDGES = [
    0,
    1,
    -1,
    64,
    65,
    1_000_000,
    1_000_001,
    10_000_001,
    2**64 - 1,
    2**64,
    10**12,
    10**20,
    -(10**20),
    10**400,
    1e20,
    math.inf,
    -math.inf,
    math.nan,
    0.0005,
    0.6,
    3_600.5,
    2.0,
]
#: The cheap work around the setting under test (bounded by its own short time limit).
CHEAP: dict[str, Any] = {"deals": 50, "playouts": 200, "seed": 1, "max_time": 0.5}


SETTINGS = ["deals", "playouts", "threads", "seed", "max_time", "target_margin"]


def with_edges(test: Callable[..., None]) -> Callable[..., None]:
    """The test with every edge value as an explicit example (run first, every time)."""
    for value in EDGES:
        test = example(value=value)(test)
    return test


@pytest.mark.parametrize("name", SETTINGS)
@settings(max_examples=25, deadline=None)
@with_edges
@given(value=NUMBERS)
def test_any_value_of_a_setting_gives_an_answer_or_a_settings_error(name: str, value: Any) -> None:
    _ask(name, value)


def _ask(name: str, value: Any) -> None:
    kwargs = dict(CHEAP, **{name: value})
    accepted = within_bounds(name, value)
    try:
        advice = thirtyone.advise(EXAMPLE, **kwargs)
    except SettingsError as err:
        assert not accepted, f"{name}={value!r} refused: {err}"
        message = str(err)
        assert name in message and "\n" not in message and len(message) < 200, message
    else:
        assert accepted, f"{name}={value!r} accepted"
        check_answer(advice, kwargs["playouts"])


def test_sample_deals_bounds_its_count_seed_and_threads() -> None:
    state = parse(EXAMPLE)
    for kwargs in (
        {"n": 10**12},
        {"n": 10**20},
        {"n": 0},
        {"n": 5, "seed": -1},
        {"n": 5, "threads": 10**6},
        {"n": 2.5},
    ):
        with pytest.raises(SettingsError):
            _core.sample_deals(state, **kwargs)
    deals, _ = _core.sample_deals(state, 5, seed=2**64 - 1, threads=64)
    assert len(deals) == 5


# -- the time limit holds in every phase -----------------------------------------------------------


@pytest.mark.parametrize(("seed", "turn"), RARE)
def test_a_late_nine_seat_position_says_what_the_time_limit_cut(seed: int, turn: int) -> None:
    # Consistent deals are rare here (opponents' hands collide in most combinations), so the
    # full 10,000 deals and 50,000 playouts may not fit in 0.1 s, whatever the threads (more
    # threads than cores share them): whatever it cut short is said.
    state = state_at(seed, 9, turn)
    for threads in (None, 8):
        advice = thirtyone.advise(state, seed=1, max_time=0.1, threads=threads)
        check_answer(advice, 50_000)
        cut = advice.deals < 10_000 or advice.playouts < 50_000
        said = any("time limit" in w or "rare" in w for w in advice.warnings)
        assert said == cut, (advice.deals, advice.playouts, advice.warnings)


def answer_opponents(state: dict[str, Any]) -> int:
    return len(_core.check_state(parse(state)))


def _time_up_positions() -> list[tuple[str, dict[str, Any]]]:
    out = [("example", EXAMPLE)]
    out += [(f"9 seats, game {seed} turn {turn}", state_at(seed, 9, turn)) for seed, turn in RARE]
    out.append(("the rarest", state_at(RAREST[0], 9, RAREST[1])))
    for seats in range(2, 10):
        ps = positions(3, seats)
        out += [(f"{seats} seats, turn {p.turn}", p.state) for p in (ps[len(ps) // 2], ps[-1])]
    return out


@pytest.mark.parametrize(("name", "state"), _time_up_positions())
def test_when_the_time_is_up_at_the_start_only_the_least_work_is_done(
    name: str, state: dict[str, Any]
) -> None:
    # The time limit holds in every phase: with none left, the counting, the deals and the
    # playouts do the least work and nothing more, whatever the machine's speed (no lives: the
    # game-level table is another matter).
    round_only = {k: v for k, v in state.items() if k != "lives"}
    answer = _core.advise(parse(round_only), seed=1, max_time=1e-9, threads=8)
    opponents = answer_opponents(round_only)
    assert 1 <= answer.deals < 10_000, name
    assert answer.attempts <= least_attempts(opponents), (name, answer.attempts)
    for o in answer.options:
        # The least work's playouts, in whole chunks of them: nothing more was begun.
        assert MIN_PLAYOUTS <= o.playouts < 2 * MIN_PLAYOUTS, (name, o)
    assert any("time limit" in w for w in answer.warnings), name


def test_the_rarest_position_answers_under_a_time_limit() -> None:
    # Where the old half second of grace found no consistent deal on a busy machine: the least
    # work is bounded in attempts, not time, so there is an answer on any machine.
    state = state_at(RAREST[0], 9, RAREST[1])
    advice = thirtyone.advise(state, seed=1, max_time=0.1, threads=8)
    check_answer(advice, 50_000)
    answer = _core.advise(parse(state), seed=1, max_time=None, deals=10_000, playouts=100)
    assert answer.deals == 10_000
    assert answer.attempts <= most_attempts(10_000, 8), answer.attempts


def test_every_table_size_answers_under_a_time_limit() -> None:
    for seats in range(2, 10):
        ps = positions(3, seats)
        for p in (ps[len(ps) // 2], ps[-1]):
            check_answer(thirtyone.advise(p.state, seed=2, max_time=0.2, threads=8), 50_000)


# -- no answer from nothing ------------------------------------------------------------------------


def test_a_time_limit_too_short_to_play_still_answers_from_the_minimum() -> None:
    advice = thirtyone.advise(EXAMPLE, seed=4, max_time=1e-9)
    # The least work exactly: the time was up before any more was begun.
    assert advice.deals == MIN_DEALS and MIN_PLAYOUTS <= advice.playouts < 2 * MIN_PLAYOUTS
    check_answer(advice, 50_000)
    # Real figures: the example's options are not all 0% safe.
    assert advice.best.p_safe > 0.3, advice.to_dict()
    assert "0.0%" not in advice.reason
    assert any("time limit" in w for w in advice.warnings)


def test_fewer_playouts_asked_than_the_minimum_are_all_played() -> None:
    advice = thirtyone.advise(EXAMPLE, seed=4, deals=20, playouts=30, max_time=1e-9)
    assert advice.deals == 20 and advice.playouts == 30


# -- the command line ------------------------------------------------------------------------------

BIG = str(10**12)
HUGE = str(10**20)
#: More digits than Python reads as a whole number (4,300).
LONGEST = "9" * 5000
SEED_MAX = "18,446,744,073,709,551,615"
MAX_TIME_WORDS = "0 (no limit) or a number of seconds up to 3,600"
ORACLE_PAST = [
    (["--deals", BIG], "a whole number from 1 to 1,000,000"),
    (["--deals", HUGE], "a whole number from 1 to 1,000,000"),
    (["--deals", "0"], "a whole number from 1 to 1,000,000, not 0"),
    (["--playouts", BIG], "a whole number from 1 to 10,000,000"),
    (["--playouts", "-3"], "a whole number from 1 to 10,000,000, not -3"),
    (["--threads", "1000000"], "a whole number from 1 to 64"),
    (["--threads", "0"], "a whole number from 1 to 64, not 0"),
    (["--seed", "-1"], f"a whole number from 0 to {SEED_MAX}, not -1"),
    (["--seed", str(2**64)], f"a whole number from 0 to {SEED_MAX}"),
    (["--max-time", "1e20"], f"{MAX_TIME_WORDS}, not 1e+20"),
    (["--max-time", "inf"], f"{MAX_TIME_WORDS}, not inf"),
    (["--max-time", "nan"], f"{MAX_TIME_WORDS}, not nan"),
    (["--max-time", "-1"], f"{MAX_TIME_WORDS}, not -1"),
    (["--target-margin", "0"], "from 0.001 to 0.5"),
    (["--target-margin", "0.9"], "from 0.001 to 0.5, not 0.9"),
    (["--target-margin", "nan"], "from 0.001 to 0.5, not NaN"),
]


def _run(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    # A process of its own: an abort or a runaway must not take the test run with it.
    env = dict(os.environ, COLUMNS="100", NO_COLOR="1", THIRTYONE_DATA_DIR=str(tmp_path))
    return subprocess.run(
        [sys.executable, "-m", "thirtyone", *args],
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )


def _refused(args: list[str], words: str) -> str:
    """How an option's value past its bounds is refused, as every option's is: naming the
    option as typed, then what it must be (``words``)."""
    return f"Invalid value for '{args[0]}': must be {words}"


def _one_line_error(result: subprocess.CompletedProcess[str], words: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stderr[-500:])
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, result.stderr
    assert words in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


@pytest.mark.parametrize(
    ("args", "words"), ORACLE_PAST, ids=lambda a: " ".join(a) if isinstance(a, list) else ""
)
def test_oracle_options_past_their_bounds_exit_2_with_one_line(
    args: list[str], words: str, tmp_path: Path
) -> None:
    result = _run(["oracle", str(EXAMPLE_FILE), "--json", *args], tmp_path)
    _one_line_error(result, _refused(args, words))


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--oracle-deals", BIG], "a whole number from 1 to 1,000,000"),
        (["--oracle-playouts", HUGE], "a whole number from 1 to 10,000,000"),
        (["--oracle-deals", "0"], "a whole number from 1 to 1,000,000, not 0"),
        # (Past the 4,300 digits Python reads: click's "… is not a valid integer" before.)
        (["--oracle-deals", LONGEST], "a whole number from 1 to 1,000,000, not a"),
        (["--seed", LONGEST], f"a whole number from 0 to {SEED_MAX}, not a"),
    ],
)
def test_play_oracle_options_past_their_bounds_exit_2_before_the_game(
    args: list[str], words: str, tmp_path: Path
) -> None:
    result = _run(["play", "--seed", "5", *args], tmp_path)
    _one_line_error(result, _refused(args, words))
    assert result.stdout == ""
    assert not list(tmp_path.iterdir()), "nothing is saved for a game that never started"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--deals", BIG], "a whole number from 1 to 1,000,000"),
        (["--playouts", HUGE], "a whole number from 1 to 10,000,000"),
        (["--threads", "1000000"], "a whole number from 1 to 64"),
        (["--workers", "1000000"], "a whole number from 1 to 64"),
        (["--decisions", BIG], "a whole number from 1 to 1,000,000"),
        (["--decisions", "0"], "a whole number from 1 to 1,000,000, not 0"),
        (
            ["--decisions", LONGEST],
            "a whole number from 1 to 1,000,000, not "
            "99999999999999999999… (a number of 5,000 digits)",
        ),
    ],
)
def test_calibrate_options_past_their_bounds_exit_2_with_one_line(
    args: list[str], words: str, tmp_path: Path
) -> None:
    result = _run(["calibrate", "--out", str(tmp_path / "out"), *args], tmp_path)
    _one_line_error(result, _refused(args, words))
    assert not (tmp_path / "out").exists()


def test_calibrate_seats_are_checked_before_they_are_counted(tmp_path: Path) -> None:
    # (Counted first, a billion seat counts would never end: the process has a hang guard.)
    result = _run(["calibrate", "--seats", "2-1000000000", "--out", str(tmp_path)], tmp_path)
    assert result.returncode == 2 and "Invalid value for '--seats': must be 2 to 9" in result.stderr
    assert "Traceback" not in result.stderr


# -- strict JSON -----------------------------------------------------------------------------------


def _oracle_json(state: dict[str, Any], *extra: str) -> Any:
    result = CliRunner(env={"COLUMNS": "100", "NO_COLOR": "1"}).invoke(
        main, ["oracle", "-", "--json", "--seed", "1", *extra], input=json.dumps(state)
    )
    assert result.exit_code == 0, result.output
    return strict(result.stdout)


def _after_a_knock() -> dict[str, Any]:
    state = json.loads(json.dumps(EXAMPLE))
    state["turns"][4] = {"seat": 1, "knock": True}
    return state


@pytest.mark.parametrize(
    ("state", "extra"),
    [
        # Each under a time limit too short to play anything, where non-finite numbers arose.
        (EXAMPLE, ["--max-time", "0.000001"]),
        (EXAMPLE, ["--max-time", "0.000001", "--rules", "gin-lives", "--threads", "1"]),
        (dict(EXAMPLE, pending={"draw": "stock", "drew": "9C"}), ["--max-time", "0.000001"]),
        (dict(EXAMPLE, pending={"draw": "pile"}), ["--max-time", "0.000001"]),
        (_after_a_knock(), ["--max-time", "0.000001"]),
        (state_at(RARE[0][0], 9, RARE[0][1]), ["--max-time", "0.1"]),
        (state_at(RARE[2][0], 9, RARE[2][1]), ["--max-time", "0.1", "--threads", "8"]),
    ],
    ids=[
        "example",
        "no-time",
        "pending-stock",
        "pending-pile",
        "after-knock",
        "rare-9",
        "rare-9-t8",
    ],
)
def test_every_json_the_oracle_prints_is_strict_json(
    state: dict[str, Any], extra: list[str]
) -> None:
    out = _oracle_json(state, *extra)
    assert out["playouts"] >= 1 and out["deals"] >= 1
    for o in out["options"]:
        assert 0 <= o["margin"] <= 1
    assert "equally safe: 0.0%" not in out["reason"]


def test_the_calibration_files_are_strict_json(tmp_path: Path) -> None:
    # A run this small leaves most reliability bins empty: their figures are undefined (null).
    settings = CalibrationSettings(
        decisions=4, seed=3, deals=30, playouts=60, seats=(3,), rank_deals=20
    )
    calibrate(settings, tmp_path)
    summary = strict((tmp_path / "summary.json").read_text())
    assert summary["settings"]["decisions"] == 4
    lines = (tmp_path / "decisions.jsonl").read_text().splitlines()
    assert len(lines) == 4
    for line in lines:
        strict(line)


# -- what kind of mistake it was -------------------------------------------------------------------


def test_settings_and_saves_have_their_own_errors_in_the_family() -> None:
    assert issubclass(SettingsError, ThirtyOneError) and issubclass(SaveError, ThirtyOneError)
    assert not issubclass(SettingsError, StateError)
    assert thirtyone.SettingsError is SettingsError and thirtyone.SaveError is SaveError
    assert saves.SaveError is SaveError
    with pytest.raises(SettingsError):
        thirtyone.advise(EXAMPLE, deals=0)
    with pytest.raises(SettingsError):
        thirtyone.advise(EXAMPLE, target_margin=0)
    # A bad state is still a StateError, not a settings error.
    with pytest.raises(StateError):
        thirtyone.advise(dict(EXAMPLE, me=9), deals=10, playouts=10)
