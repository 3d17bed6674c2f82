"""The Oracle at the table, through the real prompt (click's runner): advice on demand, the
toggle, Enter to play the best move, the pause after a round, the round log, "play again?", and
a resumed game that shows the same advice as the game played straight through."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner, Result
from thirtyone import _core
from thirtyone.cli.app import main
from thirtyone.oracle.answer import Advice, OptionAdvice
from thirtyone.oracle.query import advise
from thirtyone.oracle.reads import Read, reads, why_line
from thirtyone.oracle.state import parse

ENV = {"COLUMNS": "100", "NO_COLOR": "1"}
FAST = ["--oracle-playouts", "1000", "--oracle-deals", "200"]
SEED = 5  # you move first in round 1


@pytest.fixture(autouse=True)
def _advice_without_a_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's advice without its 5 s limit: every answer is the whole of its work, so two
    games show the same panels on every machine, however busy."""
    import thirtyone.oracle.query

    real = thirtyone.oracle.query.advise

    def whole(*args: Any, **kwargs: Any) -> Advice:
        return real(*args, **{**kwargs, "max_time": None})

    monkeypatch.setattr(thirtyone.oracle.query, "advise", whole)


def run(args: list[str], input: str | None = None, data: Path | None = None) -> Result:
    env = dict(ENV, THIRTYONE_DATA_DIR=str(data)) if data else ENV
    return CliRunner(env=env).invoke(main, ["play", *args], input=input)


def panels(out: str) -> list[str]:
    found = re.findall(r"╭─ Advice ─+╮\n(.*?)╰─+╯", out, flags=re.S)
    return [" ".join(p.replace("│", " ").split()) for p in found]


def test_advice_on_demand_shows_only_when_asked(tmp_path: Path) -> None:
    args = ["--seed", str(SEED), "--advice", "ask", *FAST, "--save-file", str(tmp_path / "s")]
    out = run(args, "d\n4\nq\n").output
    assert panels(out) == [] and "a advice" in out
    out = run(args, "a\nd\na\n4\nq\n").output
    shown = panels(out)
    assert len(shown) == 2 and all(p.startswith("Best: ") for p in shown)
    assert "put down" in shown[1]


def test_an_interrupted_advice_can_be_asked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import thirtyone.oracle.query

    real, calls = thirtyone.oracle.query.advise, []

    def once_interrupted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == 1:
            raise KeyboardInterrupt
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(thirtyone.oracle.query, "advise", once_interrupted)
    args = ["--seed", str(SEED), *FAST, "--save-file", str(tmp_path / "s")]
    out = run(args, "a\nq\n").output
    assert "The Oracle was interrupted: no advice this time (a asks again)." in out
    assert len(panels(out)) == 2 and panels(out)[1].startswith("Best: ")


def test_the_toggle_hides_the_advice_until_asked(tmp_path: Path) -> None:
    args = ["--seed", str(SEED), *FAST, "--save-file", str(tmp_path / "s")]
    out = run(args, "o\nd\n4\nq\n").output
    assert "Advice only when asked: a" in out
    assert len(panels(out)) == 1  # the first turn's, before the toggle
    # The choice is kept in the save: the resumed game asks too.
    resumed = run(["--resume", "--save-file", str(tmp_path / "s")], "q\n").output
    assert panels(resumed) == [] and "a advice" in resumed


def test_enter_plays_the_best_move_after_a_confirmation(tmp_path: Path) -> None:
    args = ["--seed", str(SEED), *FAST, "--save-file", str(tmp_path / "s")]
    out = run(args, "\nn\nq\n").output
    assert "Play the Oracle's best: " in out and "Not played: your choice." in out
    assert "You drew" not in out and "You took" not in out
    out = run(args, "\n\n\ny\nq\n").output
    best = re.search(r"Best: (draw|take (\S+)|knock)", panels(out)[0])
    assert best, panels(out)[0]
    if best.group(1) == "draw":
        assert "Play the Oracle's best: draw from the stock?" in out and "You drew " in out
    elif best.group(2):
        assert f"You took {best.group(2)} " in out
    put = re.search(r"Best: put down (\S+)", panels(out)[1])
    assert put and f"Play the Oracle's best: put down the {put.group(1)}?" in out
    assert re.search(rf"You (drew|took) \S+, put down {put.group(1)}", out), out


def test_a_round_ends_with_a_pause_unless_fast_or_autoplay(tmp_path: Path) -> None:
    moves = "d\n4\n" * 40
    args = ["--seed", "3", "--no-oracle", "--seats", "2", "--lives", "2"]
    paused = run([*args, "--save-file", str(tmp_path / "a")], moves).output
    first_end = paused.index("Round 1: ")
    assert "Press Enter for the next round" in paused[first_end:].split("Round 2 ·")[0]
    fast = run([*args, "--fast", "--save-file", str(tmp_path / "b")], moves).output
    assert "Round 1: " in fast and "Press Enter" not in fast
    auto = run(["--autoplay", "--seed", "3"]).output
    assert "Round 1: " in auto and "Press Enter" not in auto


def test_play_again_is_asked_at_the_end(tmp_path: Path) -> None:
    args = ["--seed", "3", "--no-oracle", "--seats", "2", "--lives", "1", "--fast"]
    out = run([*args, "--save-file", str(tmp_path / "s")], "d\n4\n" * 40).output
    assert "Game over. Winner:" in out
    assert "Play again? (y: a new game at the same table, Enter: no)" in out
    assert "Play again" not in run(["--autoplay", "--seed", "3"]).output


def test_the_round_log_shows_every_turn_and_the_discard_pile(tmp_path: Path) -> None:
    args = ["--seed", str(SEED), "--no-oracle", "--save-file", str(tmp_path / "s")]
    out = run(args, "d\n4\nl\nq\n").output
    log = out.split("The round so far", 1)[1]
    assert re.search(r"You drew \S+, put down \S+", log)
    top = re.findall(r"Top of the pile: (\S+)", out)[-1]
    pile = re.search(r"Discard pile, bottom to top: ([^│\n]+)", log)
    assert pile and pile.group(1).split()[-1] == top


def test_a_card_taken_this_turn_is_off_the_pile_in_the_round_log(tmp_path: Path) -> None:
    # Seed 5: Cara takes the upcard 4S and puts down 4D; you take the 4D: the pile is empty
    # until you put a card down.
    args = ["--seed", str(SEED), "--no-oracle", "--save-file", str(tmp_path / "s")]
    out = run(args, "t\nl\nq\n").output
    log = out.split("The round so far", 1)[1]
    assert "Cara took 4S, put down 4D" in log
    assert re.search(r"Discard pile, bottom to top: \(empty\)", log)


def test_a_resumed_game_shows_the_same_advice_and_keeps_the_advice_mode(tmp_path: Path) -> None:
    args = ["--seed", str(SEED), *FAST]
    straight = panels(run([*args, "--save-file", str(tmp_path / "a")], "d\n4\nq\n").output)
    b = str(tmp_path / "b")
    left = run([*args, "--save-file", b], "d\nq\n").output
    assert panels(left) == straight[:2]
    resumed = run(["--resume", *FAST, "--save-file", b], "4\nq\n").output
    assert "Round 1 · dealer" in resumed  # the round's head, as it was
    assert panels(resumed) == straight[1:3]
    # --advice never (or --no-oracle) survives a resume.
    c = str(tmp_path / "c")
    run(["--seed", str(SEED), "--no-oracle", "--save-file", c], "q\n")
    again = run(["--resume", "--save-file", c], "q\n").output
    assert "Resumed" in again and panels(again) == []


def test_resume_names_the_options_it_does_not_apply(tmp_path: Path) -> None:
    run(["--seed", str(SEED), "--no-oracle", "--save-file", str(tmp_path / "s")], "q\n")
    given = ["--rules", "scat", "--opponents", "mixed", "--seats", "6"]
    r = run(["--resume", *given, "--save-file", str(tmp_path / "s")], "q\n")
    assert r.exit_code == 0 and "Resumed: round 1" in r.output
    said = (
        "The resumed game keeps its own table: --seats, --rules and --opponents were not applied."
    )
    assert said in r.output and "--preset" not in r.output
    assert "Alice" in r.output and "Dev" not in r.output  # (four seats, as saved)


def test_a_resumed_game_keeps_the_oracles_precision(tmp_path: Path) -> None:
    """A game started at a precision of its own is resumed at it without the options given
    again (before, at the default precision: other margins at the same put-down); given again,
    the new ones apply to that session, one line says so, and the save keeps its own."""
    args = ["--seed", str(SEED), *FAST]
    straight = panels(run([*args, "--save-file", str(tmp_path / "a")], "d\n4\nq\n").output)
    b = tmp_path / "b"
    run([*args, "--save-file", str(b)], "d\nq\n")
    assert json.loads(b.read_text())["oracle"] == {"deals": 200, "playouts": 1000}
    out = run(["--resume", "--save-file", str(b)], "4\nq\n").output
    assert panels(out) == straight[1:3] and "The Oracle at" not in out
    again = run(["--resume", "--oracle-deals", "400", "--save-file", str(b)], "q\n").output
    said = "The Oracle at 400 deals / 1,000 playouts, as given, in this session (the game keeps"
    assert said in again and "its own: 200 / 1,000)." in again
    assert panels(again)[0] != straight[2]
    assert json.loads(b.read_text())["oracle"] == {"deals": 200, "playouts": 1000}


# -- the read of the opponents ---------------------------------------------------------------------

STATE = {
    "rules": {"preset": "standard"},
    "seats": 3,
    "me": 0,
    "first": 1,
    "upcard": "QD",
    "hand": ["2C", "7H", "9S"],
    "turns": [
        {"seat": 1, "draw": "pile", "discard": "4C"},
        {"seat": 2, "draw": "stock", "discard": "JD"},
    ],
    "lives": [3, 3, 3],
}


def test_the_read_is_a_count_over_the_consistent_deals() -> None:
    names = ["You", "Alice", "Ben"]
    advice = advise(STATE, deals=1500, playouts=500, seed=9, max_time=None)
    found = reads(STATE, names, advice)
    # The Oracle's deals are those sample_deals draws with the same seed and number.
    deals, _ = _core.sample_deals(parse(STATE), 1500, seed=9)
    assert advice.deals == len(deals) == 1500
    rules = parse(STATE).rules
    assert [r.name for r in found] == ["Alice", "Ben"]
    for r in found:
        scores = [_core.score(d["hands"][r.seat], dict(rules)) for d in deals]
        assert r.share_at_least(25) == sum(s >= 25 for s in scores) / len(deals)
        assert r.share_above(21) == sum(s > 21 for s in scores) / len(deals)
        ordered = sorted(scores)
        assert r.middle() == (ordered[int(np.ceil(0.1 * 1500)) - 1], ordered[1349])
    alice = found[0]
    assert alice.took == ("QD",) and "QD" in {c for d in deals for c in d["hands"][1]}
    assert all("QD" in d["hands"][1] for d in deals)  # a pile take stays with its taker
    best = OptionAdvice("knock", 0.4, 0.01, 0.6, keeps=9)
    line = why_line(Advice([best], [], "", 100, 100), found)
    threat = max(found, key=lambda r: r.share_above(9))
    assert line == (
        f"Why: {'Alice took the QD: ' if threat.name == 'Alice' else ''}{threat.name} holds "
        f"more than your 9 in {100 * threat.share_above(9):.1f}% of the deals consistent with "
        f"{threat.name}'s play."
    )


def test_a_knock_at_the_first_chance_is_explained_by_the_hand_kept_not_by_any_hand() -> None:
    # Every deal gives Alice 5 to 29 and Ben 8 to 20: "2 or more in 100%" would say nothing.
    alice = Read(1, "Alice", np.array([5.0, 12.0, 18.0, 22.0, 29.0]), ())
    ben = Read(2, "Ben", np.array([8.0, 10.0, 14.0, 16.0, 20.0]), ())
    found = [alice, ben]
    first_chance = {"swept": True, "knock_at": 2.0}
    put_down = OptionAdvice("discard", 0.5, 0.01, 0.5, discard="3C", keeps=17, **first_chance)
    line = why_line(Advice([put_down], [], "", 100, 100), found)
    consistent = "of the deals consistent with Alice's play."
    assert line == f"Why: Alice holds more than your 17 in 60.0% {consistent}"
    # A draw keeps no hand known yet: the threat is a hand at the table's knock score, 27.
    draw = OptionAdvice("draw", 0.7, 0.01, 0.3, **first_chance)
    line = why_line(Advice([draw], [], "", 100, 100), found)
    assert line == f"Why: Alice holds 27 or more in 20.0% {consistent}"
    # After a knock (nothing swept) a draw keeps at least the hand held now: the threat is a
    # hand above it. Alice holds more than 17 in 3 deals of 5, Ben in 1.
    last = OptionAdvice("draw", 0.6, 0.01, 0.4)
    line = why_line(Advice([last], [], "", 100, 100), found, now=17.0)
    assert line == f"Why: Alice holds more than your 17 now in 60.0% {consistent}"
    # (Without the hand's score, as before: 27 or more.)
    line = why_line(Advice([last], [], "", 100, 100), found)
    assert line == f"Why: Alice holds 27 or more in 20.0% {consistent}"
    # A knock score some deals do not reach is itself the threat.
    later = OptionAdvice("draw", 0.7, 0.01, 0.3, swept=True, knock_at=15.0)
    line = why_line(Advice([later], [], "", 100, 100), found)
    assert line == f"Why: Alice holds 15 or more in 60.0% {consistent}"
    # A share far above the risk explains none of it: beaten by one of the others is no loss
    # at a table of more (it read "safe in 99.2%" beside "holds more than your 23 in 10.3%").
    safe = OptionAdvice("discard", 0.97, 0.01, 0.03, discard="3C", keeps=17, **first_chance)
    assert why_line(Advice([safe], [], "", 100, 100), found) is None


def test_the_advice_panel_shows_the_chance_of_winning_the_game(tmp_path: Path) -> None:
    """A game always knows every seat's lives: the panel has a "win game" column, one figure
    per option, each the option's p_win as a percentage."""
    args = ["--seed", str(SEED), *FAST, "--save-file", str(tmp_path / "s")]
    out = run(args, "q\n").output
    shown = panels(out)
    assert shown and "win game" in shown[0]
    # At the first turn of a 4-seat game with 3 lives each, every option's chance of winning
    # the game is near the fair share of 25%.
    figures = [float(x) for x in re.findall(r"(\d+\.\d)%", shown[0].split("win game", 1)[1])]
    assert figures and any(15 < f < 35 for f in figures)


def test_the_read_panel_fits_a_terminal_and_breaks_between_words() -> None:
    """A long entry (three cards taken, a modelled knock score) at 80 and 60 columns: every line
    of the panel fits, no word is cut, and an entry's later lines are indented under its name."""
    from io import StringIO

    from rich.console import Console
    from thirtyone.terminal.keys import read_panel

    long = Read(
        1,
        "Bartholomew",
        np.array([14.0, 21.0, 25.0, 28.0, 31.0] * 20),
        ("QD", "JD", "10D"),
        knocks=np.array([22.0] * 100),
        weighed=True,
    )
    short = Read(2, "Ann", np.array([20.0] * 10), ())
    for width in (80, 60):
        out = StringIO()
        Console(file=out, width=width, color_system=None).print(read_panel([long, short], width))
        lines = out.getvalue().splitlines()
        assert all(len(line) <= width for line in lines), lines
        body = [line.strip("│ ") for line in lines[1:-1]]
        text = " ".join(body)
        # Every word of each entry is there whole, in order.
        for r in (long, short):
            assert " ".join(r.line().split()) in " ".join(text.split())
        starts = [line for line in lines[1:-1] if "Bartholomew" in line]
        assert len(starts) == 1
        i = lines.index(starts[0])
        # The entry runs over more than one line, the next indented two columns deeper.
        assert re.match(r"│   \S", lines[i]) and re.match(r"│     \S", lines[i + 1]), lines


def test_a_read_whose_middle_is_one_score_says_it_once() -> None:
    assert Read(2, "Ann", np.array([20.0] * 9 + [25.0]), ()).line() == (
        "Ann: 20 in 8 deals of 10 or more; 27 or more in 0.0%"
    )
    assert Read(2, "Ann", np.array([20.0] * 5 + [25.0] * 5), ()).line() == (
        "Ann: 20 to 25 in 8 deals of 10; 27 or more in 0.0%"
    )


def test_the_read_panel_says_the_deals_are_weighed_when_a_model_reads_anyone() -> None:
    """A modelled opponent's deals are weighed by their play even when no knock score is shown
    (after a knock); only a table of the table's rule is read by deals consistent with it."""
    from io import StringIO

    from rich.console import Console
    from thirtyone.terminal.keys import read_panel

    def head(found: list[Read]) -> str:
        out = StringIO()
        Console(file=out, width=80, color_system=None).print(read_panel(found, 80))
        return out.getvalue().splitlines()[1]

    expert = Read(1, "Cara", np.array([17.0, 20.0, 22.0]), (), knocked=True, weighed=True)
    table = Read(2, "Ann", np.array([20.0] * 10), ())
    assert "weighed by their play" in head([expert, table])
    assert "consistent with their play" in head([table])
