"""`thirtyone oracle` and the Oracle's advice in `thirtyone play`, through the real commands.

Written from oracle.md (the JSON in and out), DECISIONS.md (the margin's n, ties, the sweep of
pending draws) and the CLI contract: the table and `--json`, standard input, bad states
refused with status 2 and one line, the advice shown (never applied) on the person's turns.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import thirtyone
from click.testing import CliRunner, Result
from positions import positions
from thirtyone import StateError
from thirtyone.cli.app import main

ENV = {"COLUMNS": "100", "NO_COLOR": "1"}
DATA = Path(__file__).parent / "data"
EXAMPLE_FILE = DATA / "example_state.json"
# No time limit (--max-time 0): the answers are the whole of their work on any machine.
FAST = ["--seed", "1", "--deals", "2000", "--playouts", "5000", "--max-time", "0"]
PLAY_FAST = ["--oracle-playouts", "2000", "--oracle-deals", "500"]

TOP_KEYS = ["best", "tied", "reason", "deals", "playouts", "options", "warnings"]
# The keys of each option while nobody has knocked (after a knock nothing is swept and no option
# has knock_at).
OPTION_KEYS = {
    "knock": {"option", "p_safe", "margin", "lives_lost"},
    "draw": {"option", "p_safe", "margin", "lives_lost", "knock_at"},
    "take": {"option", "card", "discard", "p_safe", "margin", "lives_lost", "knock_at"},
    "discard": {"option", "p_safe", "margin", "lives_lost", "knock_at"},
}


def example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE_FILE.read_text())
    return data


def run(args: list[str], input: str | None = None, columns: int = 100) -> Result:
    env = dict(ENV, COLUMNS=str(columns))
    return CliRunner(env=env).invoke(main, args, input=input)


def oracle_json(state: dict[str, Any] | None = None, *extra: str) -> dict[str, Any]:
    """``thirtyone oracle - --json`` on ``state`` (default: the oracle.md example)."""
    text = json.dumps(example() if state is None else state)
    result = run(["oracle", "-", "--json", *FAST, *extra], input=text)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def flat(text: str) -> str:
    return " ".join(text.split())


# -- --json ---------------------------------------------------------------------------------------


def check_advice(
    out: dict[str, Any],
    deals_asked: int = 2000,
    playouts: int = 5000,
    *,
    knocked: bool = False,
    game: bool = True,
) -> None:
    """Everything oracle.md and DECISIONS.md say of an answer, checked on one. ``game``: the
    state carried lives (the example does), so the game-level figures are there."""
    assert list(out) == TOP_KEYS + (["best_game"] if game else [])
    assert 1 <= out["deals"] <= deals_asked
    assert out["playouts"] == playouts
    assert isinstance(out["reason"], str) and out["reason"].strip()
    assert isinstance(out["warnings"], list)
    assert all(isinstance(w, str) and w for w in out["warnings"])
    options = out["options"]
    names = [o["option"] for o in options]
    assert len(names) == len(set(names))
    n = out["deals"]
    for o in options:
        kind = "discard" if o["option"].startswith("discard:") else o["option"]
        keys = OPTION_KEYS[kind] - {"knock_at"} if knocked else OPTION_KEYS[kind]
        if game:
            keys = keys | {"p_win", "p_win_margin"}
            assert 0.0 <= o["p_win"] <= 1.0 and 0.0 <= o["p_win_margin"] <= 1.0
        assert set(o) == keys, o
        p = o["p_safe"]
        assert 0.0 <= p <= 1.0
        assert math.isclose(o["margin"], 1.96 * math.sqrt(p * (1 - p) / n), abs_tol=1.01e-4), o
        assert 0.0 <= o["lives_lost"] <= 2.0
        # Losing no life is being safe, so the lives lost on average are at least 1 - p_safe.
        assert o["lives_lost"] >= 1 - p - 2e-4
        if "knock_at" in o:
            k = o["knock_at"]
            assert k is None or (isinstance(k, int | float) and 2 <= k <= 33)
    # The best first (the highest p_safe), and the ties exactly those within its margin.
    best = options[0]
    assert out["best"] == best["option"]
    assert best["p_safe"] >= max(o["p_safe"] for o in options) - 1e-9
    for o in options[1:]:
        gap = best["p_safe"] - o["p_safe"]
        if o["option"] in out["tied"]:
            assert gap <= best["margin"] + 2e-4
        else:
            assert gap > best["margin"] - 2e-4
    assert set(out["tied"]) <= set(names[1:])
    if game:  # the highest chance of winning the game (the first of equals)
        top = max(o["p_win"] for o in options)
        assert out["best_game"] == next(o["option"] for o in options if o["p_win"] == top)


def test_json_on_the_oracle_md_example() -> None:
    result = run(["oracle", str(EXAMPLE_FILE), "--json", *FAST])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    out = json.loads(result.stdout)  # nothing but the JSON on standard output
    check_advice(out)
    options = {o["option"]: o for o in out["options"]}
    # The example: your turn with nobody knocked, 5C... QC on the pile (QC on top).
    assert set(options) == {"knock", "draw", "take"}
    assert options["take"]["card"] == "QC"
    assert options["take"]["discard"] in ("AH", "9H", "4H")
    # Every opponent's play is the table's rule for some hidden cards: no warning.
    assert out["warnings"] == []


def test_json_is_exactly_the_python_advice() -> None:
    from thirtyone.oracle.query import advise

    # (Without a time limit, as FAST asks of the command: an answer cut at its five seconds on a
    # busy machine would not be the command's whole answer.)
    advice = advise(EXAMPLE_FILE.read_text(), seed=1, deals=2000, playouts=5000, max_time=None)
    result = run(["oracle", str(EXAMPLE_FILE), "--json", *FAST])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == json.loads(json.dumps(advice.to_dict()))


def test_same_seed_same_json_and_standard_input() -> None:
    from_file = run(["oracle", str(EXAMPLE_FILE), "--json", *FAST])
    from_stdin = run(["oracle", "-", "--json", *FAST], input=EXAMPLE_FILE.read_text())
    again = run(["oracle", str(EXAMPLE_FILE), "--json", *FAST])
    assert from_file.exit_code == from_stdin.exit_code == again.exit_code == 0
    assert from_file.stdout == from_stdin.stdout == again.stdout
    other = run(["oracle", str(EXAMPLE_FILE), "--json", *FAST[2:], "--seed", "2"])
    assert other.exit_code == 0
    first = [o["p_safe"] for o in json.loads(from_file.stdout)["options"]]
    second = [o["p_safe"] for o in json.loads(other.stdout)["options"]]
    assert first != second


def test_threads_do_not_change_the_numbers() -> None:
    one = run(["oracle", str(EXAMPLE_FILE), "--json", *FAST, "--threads", "1"])
    two = run(["oracle", str(EXAMPLE_FILE), "--json", *FAST, "--threads", "2"])
    assert one.exit_code == two.exit_code == 0
    assert one.stdout == two.stdout


def test_pending_stock_draw_lists_four_put_downs() -> None:
    state = dict(example(), pending={"draw": "stock", "drew": "9C"})
    out = oracle_json(state)
    check_advice(out)
    names = sorted(o["option"] for o in out["options"])
    assert names == sorted(f"discard:{c}" for c in ["AH", "9H", "4H", "9C"])
    # Nobody has knocked: the put-downs are swept over knock scores like a draw (DECISIONS 7).
    assert all("knock_at" in o for o in out["options"])


def test_pending_pile_take_lists_three_put_downs() -> None:
    state = dict(example(), pending={"draw": "pile"})
    out = oracle_json(state)
    check_advice(out)
    # QC was taken from the pile: it may not go straight back.
    names = sorted(o["option"] for o in out["options"])
    assert names == sorted(f"discard:{c}" for c in ["AH", "9H", "4H"])


def test_final_turn_after_a_knock_has_no_knock_and_no_sweep() -> None:
    state = example()
    # Seat 1 knocks instead of drawing on its second turn; seats 2 and 3 have had their final
    # turns (seat 2 took the 8S you put down); now yours.
    state["turns"][4] = {"seat": 1, "knock": True}
    out = oracle_json(state)
    check_advice(out, knocked=True)
    names = [o["option"] for o in out["options"]]
    assert sorted(names) == ["draw", "take"]
    # Seat 2 holds 5C, 8S and one card never seen: at most 19, below your 24 whatever you do.
    assert [o["p_safe"] for o in out["options"]] == [1.0, 1.0]
    assert out["tied"] == [names[1]]


def test_rule_changes_apply_to_the_states_rules() -> None:
    standard = {o["option"]: o for o in oracle_json()["options"]}
    penalty_one = {
        o["option"]: o for o in oracle_json(None, "--rule", "knock_penalty=1")["options"]
    }
    # The same deals and playouts: the penalty changes what a caught knock costs, not the play.
    assert penalty_one["knock"]["p_safe"] == standard["knock"]["p_safe"]
    assert standard["knock"]["p_safe"] < 1
    # With a penalty of 1 every unsafe outcome of a knock costs exactly one life.
    one = penalty_one["knock"]
    assert math.isclose(one["lives_lost"], 1 - one["p_safe"], abs_tol=1.01e-4)
    assert standard["knock"]["lives_lost"] > one["lives_lost"]
    # --rules replaces the state's rules: back to the standard penalty of 2.
    state = dict(example(), rules={"preset": "standard", "knock_penalty": 1})
    assert {o["option"]: o for o in oracle_json(state)["options"]} == penalty_one
    restored = {o["option"]: o for o in oracle_json(state, "--rules", "standard")["options"]}
    assert restored == standard


# -- the table ------------------------------------------------------------------------------------


def test_table_names_every_option_the_reason_and_the_sweep() -> None:
    data = oracle_json()
    result = run(["oracle", str(EXAMPLE_FILE), *FAST])
    assert result.exit_code == 0, result.output
    out = result.stdout
    text = flat(out)
    assert flat(data["reason"]) in text
    assert f"{data['deals']:,} consistent deals" in out
    lines = out.splitlines()
    for o in data["options"]:
        label = (
            o["option"] if o["option"] != "take" else f"take {o['card']}, put down {o['discard']}"
        )
        row = next(line for line in lines if re.search(rf"^\S?\s+{re.escape(label)}\s+\d", line))
        assert f"{100 * o['p_safe']:.1f}%" in row
        assert f"±{100 * o['margin']:.1f}" in row
        assert f"{o['lives_lost']:.2f}" in row
        assert "█" in row
    best_row = next(line for line in lines if line.startswith("★"))
    assert data["best"] in best_row
    if data["tied"]:
        assert "Statistically tied with the best" in out
    else:
        assert "No other option is within the margin of the best." in out
    for w in data["warnings"]:
        assert flat(w) in text
    # The sweep of the best swept option (draw, or take), with the kept knock score marked.
    swept = next(o for o in data["options"] if "knock_at" in o)
    assert "safe by the score you knock at later" in out
    kept = next(line for line in lines if "◀ kept" in line)
    label = kept.split()[0]
    if swept["knock_at"] is None:
        assert label == "never"
    else:
        low, _, high = label.partition("\u2013")
        assert float(low) <= swept["knock_at"] <= float(high or low)
    assert f"confirm it: {100 * swept['p_safe']:.1f}% safe" in out


def test_table_fits_in_80_columns() -> None:
    for state in (example(), dict(example(), pending={"draw": "pile"})):
        result = run(["oracle", "-", *FAST, "--sweeps", "all"], input=json.dumps(state), columns=80)
        assert result.exit_code == 0, result.output
        assert max(len(line) for line in result.stdout.splitlines()) <= 80
        # Every figure whole: the bar gives way, not the numbers (the game's column included).
        assert "…" not in result.stdout
        assert result.stdout.count("◀ kept") == sum(
            1 for o in oracle_json(state)["options"] if "knock_at" in o
        )


def test_figures_stay_whole_in_80_columns_with_the_games_column() -> None:
    # A late nine-seat position whose options are all 100.0% safe: the widest figures, beside
    # the "win game" column.
    state = next(p.state for p in positions(1, 9) if p.turn == 28)
    result = run(["oracle", "-", *FAST], input=json.dumps(state), columns=80)
    assert result.exit_code == 0, result.output
    assert "100.0%" in result.stdout and "game" in result.stdout
    assert "…" not in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) <= 80


def test_sweeps_none_leaves_the_chart_out() -> None:
    result = run(["oracle", str(EXAMPLE_FILE), *FAST, "--sweeps", "none"])
    assert result.exit_code == 0
    assert "◀ kept" not in result.stdout and "★" in result.stdout


# -- refused states -------------------------------------------------------------------------------


def _edit(**changes: Any) -> str:
    return json.dumps(dict(example(), **changes))


def _turns(turns: list[dict[str, Any]]) -> str:
    return _edit(turns=[*example()["turns"], *turns])


BAD_STATES = [
    ("bad-json", '{"seats": 4,', "not valid JSON"),
    ("not-an-object", "[1, 2]", "must be a JSON object"),
    ("unknown-card", _edit(hand=["ZZ", "9H", "4H"]), '"ZZ" is not a card'),
    ("repeated-card", _edit(hand=["AH", "AH", "4H"]), "AH appears twice"),
    ("card-seen-twice", _edit(upcard="AH"), "AH"),
    (
        "out-of-order",
        _edit(turns=[{"seat": 2, "draw": "stock", "discard": "5C"}]),
        "out of order",
    ),
    (
        "second-knock",
        _turns(
            [
                {"seat": 0, "draw": "stock", "drew": "2H", "discard": "2H"},
                {"seat": 1, "knock": True},
                {"seat": 2, "knock": True},
            ]
        ),
        "second knock",
    ),
    (
        "round-over",
        _turns(
            [
                {"seat": 0, "knock": True},
                {"seat": 1, "draw": "stock", "discard": "2H"},
                {"seat": 2, "draw": "stock", "discard": "3S"},
                {"seat": 3, "draw": "stock", "discard": "4S"},
            ]
        ),
        "round is already over",
    ),
    ("not-your-turn", _edit(turns=example()["turns"][:-1]), "not your turn"),
    ("unknown-rule", _edit(rules={"preset": "standard", "jokers": 2}), "unknown rule option"),
    ("unknown-preset", _edit(rules="fancy"), 'unknown preset "fancy"'),
    ("missing-key", json.dumps({"seats": 4}), 'has no "me"'),
]


@pytest.mark.parametrize(
    ("state", "message"), [b[1:] for b in BAD_STATES], ids=[b[0] for b in BAD_STATES]
)
def test_refused_state_exits_2_with_one_line(state: str, message: str) -> None:
    for as_json in ([], ["--json"]):
        result = run(["oracle", "-", *as_json, *FAST], input=state)
        assert result.exit_code == 2, result.output
        assert result.stdout == ""
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("Error: ")
        assert message in result.stderr
        assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rule", "knock_penalty=5"], "knock_penalty: must be 1 or 2"),
        (["--seed", "-1"], "Invalid value for '--seed': must be a whole number"),
    ],
)
def test_refused_settings_exit_2_with_one_line(args: list[str], message: str) -> None:
    result = run(["oracle", str(EXAMPLE_FILE), *FAST[2:], *args])
    assert result.exit_code == 2, result.output
    # (A bad --rule is an option error: click shows the usage above the one line of the error.)
    assert result.stderr.splitlines()[-1].startswith("Error: ") and message in result.stderr
    assert "Traceback" not in result.output


def test_a_state_past_a_mebibyte_is_refused_unread() -> None:
    """/dev/zero, or a pipe that never ends, fills no memory: the first byte past 1 MiB ends
    the read with one line (as ``POST /api/oracle`` answers 413)."""
    endless = subprocess.run(
        [sys.executable, "-m", "thirtyone", "oracle", "/dev/zero", *FAST],
        capture_output=True,
        text=True,
        env=dict(os.environ, **ENV),
        timeout=120,
    )
    assert endless.returncode == 2, endless.stderr
    assert endless.stderr == (
        "Error: the state in /dev/zero is over 1,048,576 bytes; no state is near that size\n"
    )
    big = json.dumps(example()) + " " * (1 << 20)
    result = run(["oracle", "-", *FAST], input=big)
    assert result.exit_code == 2
    assert "the state in standard input is over 1,048,576" in result.stderr
    # The last byte allowed still reads: a state padded to exactly 1 MiB is answered.
    text = json.dumps(example())
    result = run(["oracle", "-", "--json", *FAST], input=text + " " * ((1 << 20) - len(text)))
    assert result.exit_code == 0, result.output


def test_unreadable_file_and_bad_options_exit_2() -> None:
    result = run(["oracle", str(DATA / "no_such_state.json")])
    assert result.exit_code == 2
    assert (
        result.stderr
        == f"Error: cannot read {DATA / 'no_such_state.json'}: No such file or directory\n"
    )
    result = run(["oracle", str(DATA)])  # a directory
    assert result.exit_code == 2 and result.stderr.startswith("Error: cannot read ")
    for args, message in (
        (["--rule", "jokers=2"], 'unknown rule option "jokers"'),
        (["--rules", "fancy"], "Invalid value for '--rules'"),
        (
            ["--deals", "0"],
            "Error: Invalid value for '--deals': must be a whole number from 1 to 1,000,000, "
            "not 0. See main oracle -h.\n",
        ),
    ):
        result = run(["oracle", str(EXAMPLE_FILE), *args])
        assert result.exit_code == 2, args
        assert message in result.stderr
        assert "Traceback" not in result.output


def _wait_until_computing(proc: subprocess.Popen[str]) -> None:
    """Wait until the Oracle's thread pool runs (its threads are named ``montecarlo-N``): a
    Ctrl-C then lands in the computation, not in the start-up's imports, however slow or busy
    the machine is. Where there is no /proc, a pause has to do."""
    tasks = Path(f"/proc/{proc.pid}/task")
    if not tasks.is_dir():
        time.sleep(1.5)
        return
    deadline = time.monotonic() + 120  # a hang guard, not a measure of speed
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            names = [(t / "comm").read_text() for t in tasks.iterdir()]
        except FileNotFoundError:  # a thread (or the process) ended while being read
            continue
        if any(n.startswith("montecarlo") for n in names):
            return
        time.sleep(0.05)


def test_ctrl_c_during_the_computation_exits_cleanly() -> None:
    env = dict(os.environ, **ENV)
    args = ["oracle", str(EXAMPLE_FILE), "--json", "--playouts", "10000000", "--max-time", "0"]

    def default_sigint() -> None:  # a child of a background job may start with SIGINT ignored
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    proc = subprocess.Popen(
        [sys.executable, "-m", "thirtyone", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=default_sigint,
    )
    try:
        _wait_until_computing(proc)
        assert proc.poll() is None, "the computation ended before it could be interrupted"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    assert out == ""
    assert err == "Interrupted: no advice.\n"


class _WaitingInput(io.BytesIO):
    """Standard input that nothing has been written to yet, when Ctrl-C comes."""

    def read(self, size: int | None = -1) -> bytes:
        if size == 0:  # (click asks whether the stream reads bytes)
            return b""
        raise KeyboardInterrupt


def test_ctrl_c_while_the_state_is_awaited_on_standard_input_exits_cleanly() -> None:
    """`thirtyone oracle -` waiting for its state: Ctrl-C says so in one line, exit 130, as
    during the computation (it had been click's "Aborted!", exit 1)."""
    result = CliRunner(env=ENV).invoke(main, ["oracle", "-"], input=_WaitingInput())
    assert result.exit_code == 130
    assert result.output == "Interrupted: no advice.\n"


# -- thirtyone play -------------------------------------------------------------------------------

SEED = 5  # the person moves first in round 1


def advice_panels(out: str) -> list[str]:
    """The text of every Advice panel, in order."""
    panels = re.findall(r"╭─ Advice ─+╮\n(.*?)╰─+╯", out, flags=re.S)
    return [flat(p.replace("│", " ")) for p in panels]


def test_play_shows_the_advice_on_your_turn_and_never_applies_it() -> None:
    result = run(["play", "--seed", str(SEED), *PLAY_FAST], input="k\nq\n")
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    assert "Traceback" not in out
    first = out.index("Your move (")
    panels = advice_panels(out[:first])
    assert len(panels) == 1
    panel = panels[0]
    assert panel.startswith("Best: ")
    # One line per option with its percentage and margin: knock, draw, take the top discard.
    top = re.search(r"Top of the pile: (\w\w)", out)
    assert top
    for label in ("knock", "draw", f"take {top.group(1)}, put down"):
        assert re.search(rf"{re.escape(label)}.*? \d+\.\d% ±\d+\.\d", panel), label
    # The Oracle says knocking now is the worst (a hand of 6), yet the person's knock is played.
    assert not panel.startswith("Best: knock")
    assert "You knocked." in out


def test_play_shows_the_advice_for_the_put_down_after_a_take() -> None:
    result = run(["play", "--seed", str(SEED), *PLAY_FAST], input="t\n1\nq\n")
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    took = re.search(r"You took (\w\w) from the pile\.", out)
    assert took
    hand = re.search(r"Your hand: (\w\w) (\w\w) (\w\w)", out)
    assert hand
    panels = advice_panels(out[took.end() : out.index("Put down which card?")])
    assert len(panels) == 1
    for card in hand.groups():
        assert re.search(rf"put down {card} +\d+\.\d% ±\d+\.\d", panels[0]), card
    assert f"put down {took.group(1)} " not in panels[0]  # it may not go straight back


def test_play_shows_the_advice_for_the_put_down_after_a_draw() -> None:
    result = run(["play", "--seed", str(SEED), *PLAY_FAST], input="d\n4\nq\n")
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    drew = re.search(r"You drew (\w\w) from the stock\.", out)
    assert drew
    hand = re.search(r"Your hand: (\w\w) (\w\w) (\w\w)", out)
    assert hand
    panels = advice_panels(out[drew.end() : out.index("Put down which card?")])
    assert len(panels) == 1
    for card in [*hand.groups(), drew.group(1)]:
        assert re.search(rf"put down {card} +\d+\.\d% ±\d+\.\d", panels[0]), card


def test_no_oracle_turns_the_advice_off() -> None:
    result = run(["play", "--seed", str(SEED), "--no-oracle"], input="d\n4\nq\n")
    assert result.exit_code == 0
    assert "Your move (" in result.output and "You drew " in result.output
    assert "Advice" not in result.output and "Oracle" not in result.output


def test_autoplay_gives_no_advice_unless_asked() -> None:
    args = ["play", "--autoplay", "--seed", "4", "--seats", "2", "--lives", "1"]
    quiet = run(args)
    assert quiet.exit_code == 0 and "Advice" not in quiet.output
    advised = run([*args, "--oracle", *PLAY_FAST])
    assert advised.exit_code == 0, advised.output[-3000:]
    panels = advice_panels(advised.output)
    assert panels and all(p.startswith("Best: ") for p in panels)
    # The advice is shown, never applied: the game is the same as without it.
    assert re.sub(r"╭─ Advice.*?╰─+╯\n", "", advised.output, flags=re.S) == quiet.output


def test_a_refused_state_gives_a_note_and_the_game_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    import thirtyone.oracle.query

    def refuse(*args: object, **kwargs: object) -> object:
        raise StateError("no deal is possible\nat all")

    monkeypatch.setattr(thirtyone.oracle.query, "advise", refuse)
    result = run(["play", "--seed", str(SEED)], input="d\n4\nq\n")
    assert result.exit_code == 0
    out = result.output
    # The first turn, the put-down after the draw, and the next turn (where q quits).
    assert out.count("The Oracle has no advice here: no deal is possible at all") == 3
    assert "You drew " in out and out.rstrip().endswith("Goodbye!")


def test_help_lists_the_options() -> None:
    result = run(["oracle", "--help"])
    assert result.exit_code == 0
    for option in ("STATE.json", "--json", "--seed", "--deals", "--playouts", "--threads"):
        assert option in result.output
    for option in ("--max-time", "--rules", "--rule", "--sweeps"):
        assert option in result.output


# -- the rendering helpers ------------------------------------------------------------------------


def test_bar_fills_in_eighths() -> None:
    from thirtyone.terminal.advice_view import bar

    assert bar(0.0, 4) == "    "
    assert bar(1.0, 4) == "████"
    assert bar(0.5, 4) == "██  "
    assert bar(1 / 32, 4) == "▏   "
    assert bar(float("nan"), 3) == "   " and bar(2.0, 3) == "███"


def test_sweep_rows_group_equal_neighbours_and_keep_never_apart() -> None:
    import numpy as np
    from thirtyone.oracle.answer import OptionAdvice, Sweep
    from thirtyone.terminal.advice_view import _sweep_rows, later_plan

    nan = float("nan")
    sweep = Sweep(
        knock_at=np.array([2.0, 3.0, 4.0, 30.5, 31.0, nan]),
        p_safe=np.array([0.5, 0.5, 0.6, 0.6, 0.7, 0.7]),
        lives_lost=np.array([0.5, 0.5, 0.4, 0.4, 0.3, 0.3]),
    )
    rows = [(label, p, scores) for label, p, _, scores in _sweep_rows(sweep)]
    # A knock at 31 is never made (a 31 is shown at once): it is the never row, not one of its
    # own.
    assert rows == [
        ("2\u20133", 0.5, [2.0, 3.0]),
        ("4\u201330.5", 0.6, [4.0, 30.5]),
        ("never", 0.7, [None]),
    ]
    option = OptionAdvice("draw", 0.7, 0.01, 0.3, swept=True, knock_at=2.0, sweep=sweep)
    assert later_plan(option) == "knock at the first chance"
    assert later_plan(OptionAdvice("draw", 0.7, 0.01, 0.3, swept=True, knock_at=30.5)) == (
        "knock at 30.5 or more"
    )
    assert (
        later_plan(OptionAdvice("draw", 0.7, 0.01, 0.3, swept=True)) == "never knock: play for 31"
    )
    assert later_plan(OptionAdvice("draw", 0.7, 0.01, 0.3, swept=True, knock_at=31.0)) == (
        "never knock: play for 31"
    )


def test_the_knock_at_column_says_first_for_the_first_chance() -> None:
    import numpy as np
    from thirtyone.oracle.answer import OptionAdvice, Sweep
    from thirtyone.terminal.advice_view import knock_at_text

    sweep = Sweep(
        knock_at=np.array([2.0, 20.0, 27.0]),
        p_safe=np.array([0.6, 0.5, 0.4]),
        lives_lost=np.array([0.4, 0.5, 0.6]),
    )

    def cell(knock_at: float | None, swept: bool = True) -> str:
        return knock_at_text(
            OptionAdvice("draw", 0.6, 0.01, 0.4, swept=swept, knock_at=knock_at, sweep=sweep)
        )

    # The lowest score swept is a knock at the next turn whatever the hand: not "2".
    assert cell(2.0) == "first"
    assert cell(20.0) == "20" and cell(27.0) == "27"
    assert cell(None) == "never"
    assert cell(None, swept=False) == "—"


def test_the_game_objective_keeps_knock_scores_by_p_win() -> None:
    """--objective game: each swept option's knock score is the one with the highest p_win, so
    no swept option's p_win is below what the round objective reports for it (the same
    playouts, seeds and sweep; only the score kept differs), up to the confirmation's noise."""
    base = oracle_json(None, "--seed", "3")
    game = oracle_json(None, "--seed", "3", "--objective", "game")
    by_round = {o["option"]: o for o in base["options"]}
    for o in game["options"]:
        if "knock_at" in o:
            r = by_round[o["option"]]
            assert o["p_win"] >= r["p_win"] - 2 * max(o["p_win_margin"], r["p_win_margin"])
    bad = run(["oracle", str(EXAMPLE_FILE), "--objective", "party"])
    assert bad.exit_code == 2 and "party" in bad.output


def test_an_empty_state_is_told_empty(tmp_path: Path) -> None:
    """Nothing on standard input, or a file of blanks, was "not valid JSON: EOF while parsing a
    value at line 1 column 0": true, but the thing to know is that nothing was given. The
    HTTP API and Python say it alike (the same reader)."""
    blank = tmp_path / "blank.json"
    blank.write_text("  \n")
    said = "the state is empty: a state is a JSON object (docs/oracle.md)"
    for args, text in ((["oracle", "-", *FAST], ""), (["oracle", str(blank), *FAST], None)):
        result = run(args, input=text)
        assert result.exit_code == 2
        assert result.stderr == f"Error: {said}\n"
    with pytest.raises(StateError, match=re.escape(said)):
        thirtyone.advise(" ")


def test_a_state_that_is_a_huge_number_is_told_what_a_state_is() -> None:
    """A state of ``1e999`` (valid JSON, a number no reader holds) was told ".: too large a
    number", a place no player knows; a state of ``5`` is told what a state is, and so is it.
    The command and Python say it alike (the same reader)."""
    said = "the state must be a JSON object with the keys of a round, not a number too large"
    result = run(["oracle", "-", *FAST], input="1e999")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: {said} to read at line 1 column 5"), result.stderr
    with pytest.raises(StateError, match=re.escape(said)):
        thirtyone.advise("1e999")
