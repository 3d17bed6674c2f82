"""`thirtyone play`: the terminal game, driven through its real prompt.

Written from rules.md, DECISIONS.md and the CLI's contract: autoplay runs a whole game
to a placing; the interactive prompt accepts k/d/t/x, cards by position or name, ? and q, and
answers every bad line with one line of explanation and the question again, never a traceback.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result
from rich.console import Console
from thirtyone import PACK, Action, Event, Game, Policy, Rules, SeatView, Session, TablePolicy
from thirtyone.cli.app import main
from thirtyone.terminal.narrator import Narrator
from thirtyone.terminal.play_session import drive
from thirtyone.terminal.player import Advisor, LineReader, QuitGame, TerminalPlayer

ENV = {"COLUMNS": "100", "NO_COLOR": "1"}
NAMES = ["You", "Alice", "Ben", "Cara"]


def run(args: list[str], input: str | None = None) -> Result:
    return CliRunner(env=ENV).invoke(main, args, input=input)


def placing_of(output: str) -> list[str]:
    """The names listed under ``Placing:`` at the end of a game, first place first."""
    tail = output.split("Placing:", 1)[1]
    return re.findall(r"^\s+\d+(?:st|nd|rd|th)\s+(\S+)", tail, flags=re.M)


def winner_of(output: str) -> str:
    match = re.search(r"Winner: (\S+)", output)
    assert match, output[-2000:]
    return match.group(1)


# -- autoplay -------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 3, 17])
def test_autoplay_plays_a_whole_game_to_a_placing(seed: int) -> None:
    result = run(["play", "--autoplay", "--seed", str(seed)])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Traceback" not in out
    placing = placing_of(out)
    assert sorted(placing) == sorted(NAMES)
    assert placing[0] == winner_of(out)
    # Three players went out, each once, and the placing lists them from last place up.
    outs = re.findall(r"Out: (\S+), (\d)(?:st|nd|rd|th) place", out)
    assert sorted(int(p) for _, p in outs) == [2, 3, 4]
    for name, place in outs:
        assert placing[int(place) - 1] == name

    # The same game through the API (every seat the table's rule) has the same result.
    game = Game(Rules.standard(), [TablePolicy() for _ in NAMES], seed=seed)
    winner = game.play()
    assert NAMES[winner] == placing[0]
    assert [NAMES[s] for s in game.placing()] == placing
    rounds = [e for e in game.events if e.kind in ("round_end", "wash")]
    assert len(re.findall(r"^Round \d+: ", out, flags=re.M)) == len(rounds)
    turns = [e for e in game.events if e.kind == "turn"]
    who = "|".join(NAMES)
    assert len(re.findall(rf"^  ({who})( \[[^]]*\])?: ", out, flags=re.M)) == len(turns)


def test_autoplay_narrative_shows_hands_scores_and_losses() -> None:
    out = run(["play", "--autoplay", "--seed", "3"]).output
    assert out.startswith("Thirty-One: You against Alice, Ben, Cara")
    assert "3 lives each · knock penalty 2 · seed 3" in out
    # Your own stock draws are shown with the card; the others' are hidden.
    assert re.search(r"^  You \[(\w\w ){3}= \d+(\.5)?\]: drew \w\w, put down \w\w$", out, re.M)
    assert re.search(r"^  (Alice|Ben|Cara): drew from the stock, put down \w\w$", out, re.M)
    # Every round result line names a hand of three ASCII cards, its score and what happened.
    rows = re.findall(
        r"^  (\S+)(?: \(knocked\))?\s+((?:[2-9TJQKA][CDHS] ){2}[2-9TJQKA][CDHS])\s+(\d+(?:\.5)?)"
        r"\s+(safe|loses \d li(?:fe|ves))",
        out,
        re.M,
    )
    assert rows
    assert any(r[3].startswith("loses") for r in rows)
    assert "Lives: You " in out


def test_autoplay_same_seed_same_output() -> None:
    first = run(["play", "--autoplay", "--seed", "11"])
    second = run(["play", "--autoplay", "--seed", "11"])
    other = run(["play", "--autoplay", "--seed", "12"])
    assert first.exit_code == second.exit_code == 0
    assert first.output == second.output
    assert other.output != first.output


def test_autoplay_with_options() -> None:
    result = run(
        [
            "play",
            "--autoplay",
            "--seed",
            "4",
            "--seats",
            "2",
            "--lives",
            "1",
            "--knock-penalty",
            "1",
            "--name",
            "Zoe",
            "--rule",
            "three_of_a_kind=30.5",
            "--rules",
            "standard",
        ]
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("Thirty-One: Zoe against Alice")
    assert "1 life each · knock penalty 1 · three_of_a_kind=30.5" in out
    assert sorted(placing_of(out)) == ["Alice", "Zoe"]
    # One life each: the first round that is not a wash ends the game.
    assert len(re.findall(r"^Round \d+: (?!wash)", out, flags=re.M)) == 1


def test_many_seats_get_distinct_friendly_names() -> None:
    result = run(["play", "--autoplay", "--seed", "2", "--seats", "9", "--lives", "1"])
    assert result.exit_code == 0, result.output
    placing = placing_of(result.output)
    assert len(placing) == len(set(placing)) == 9
    assert "You" in placing


# -- bad options ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seats", "12"], "'--seats': must be a whole number from 2 to 9, not 12"),
        (["--seats", "1"], "'--seats': must be a whole number from 2 to 9, not 1"),
        (["--lives", "0"], "'--lives': must be a whole number from 1 to 20, not 0"),
        (["--knock-penalty", "3"], "'--knock-penalty': must be 1 or 2, not 3"),
        (["--rule", "knock_penalty"], "write it as KEY=VALUE"),
        (["--rule", "jokers=4"], 'unknown rule option "jokers"'),
        (
            ["--rule", "runs=maybe"],
            'runs: must be true or false (yes/no, on/off, 1/0), not "maybe"',
        ),
        (
            ["--rule", "three_of_a_kind=29"],
            'three_of_a_kind: must be one of none, 30, 30.5, not "29"',
        ),
        (["--rules", "fancy"], "Invalid value for '--rules': 'fancy'"),
        (
            ["--seed", "abc"],
            'must be a whole number from 0 to 18,446,744,073,709,551,615, not "abc"',
        ),
        (["--name", "  "], "your name may not be empty"),
    ],
)
def test_bad_options_exit_2_with_a_message(args: list[str], message: str) -> None:
    result = run(["play", "--autoplay", *args])
    assert result.exit_code == 2
    assert message in result.output
    assert "Error:" in result.output
    assert "Traceback" not in result.output
    assert "Placing" not in result.output


# -- the interactive prompt -----------------------------------------------------------------------


class _Stop(Exception):
    pass


class _Probe:
    """Records what seat 0 sees at its first turn, then stops the game."""

    def __init__(self) -> None:
        self.hand: list[str] = []
        self.top = ""

    def decide(self, view: SeatView) -> Action:
        self.hand, self.top = list(view.hand), view.top
        raise _Stop


class _Replica:
    """Plays exactly what the scripted input below makes the person play: take the upcard and
    put down the first card held, then draw and put the drawn card back, or decline once the
    stock is empty."""

    def __init__(self) -> None:
        self.turns = 0

    def decide(self, view: SeatView) -> Action:
        if view.drawn is not None:
            return Action("put", view.hand[0] if view.drawn[1] == "pile" else view.drawn[0])
        self.turns += 1
        if self.turns == 1:
            return Action("take")
        return Action("draw") if view.allows(Action("draw")) else Action("decline")


def _first_view(seed: int) -> _Probe:
    probe = _Probe()
    players = [probe, *(TablePolicy() for _ in NAMES[1:])]
    with pytest.raises(_Stop):
        Game(Rules.standard(), players, seed=seed).play()
    return probe


def _answered(out: str, message: str, prompt: str = "Your move (") -> None:
    """A line typed at a prompt got ``message`` (after the prompt, which ends with ``): ``: the
    input is not echoed when it is not typed at a terminal), then the prompt again."""
    pattern = re.escape("): ") + re.escape(message) + r"[^\n]*\n" + re.escape(prompt)
    assert re.search(pattern, out), f"no {message!r} after a prompt"


SEED = 5


def test_scripted_interactive_game_with_bad_input() -> None:
    seen = _first_view(SEED)
    taken = seen.top
    absent = next(c for c in PACK if c not in [*seen.hand, taken])
    bad_start = ["", "zz", "1", "AH", "x", "?"]
    bad_put = ["4", "9", "QQ", "d", absent.lower()]
    script = [*bad_start, "t", *bad_put, "1"] + ["d", "4", "x"] * 150
    # The Oracle's advice is tested in test_cli_oracle.py; off here, it keeps this long game quick.
    args = ["play", "--seed", str(SEED), "--no-oracle"]
    result = run(args, input="\n".join(script) + "\n")
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    assert "Traceback" not in out

    # The first turn's panel: the hand and its score, the top discard, the stock, the opponents.
    assert "Your hand: " + " ".join(seen.hand) in out
    assert f"Top of the pile: {taken}" in out
    assert "Stock: " in out and "This round so far" in out
    for name in NAMES[1:]:
        assert re.search(rf"│ {name}\s+3 ", out)

    # Bad lines at the start of a turn: one line of explanation, then the question again.
    _answered(out, "Type a choice: d, t, k (? for help, q to quit).")
    _answered(out, "'zz' is not a choice: type d, t, k (? for help, q to quit).")
    _answered(out, "First draw or take a card (d, t, k)")
    assert out.count("): First draw or take a card (d, t, k)") == 2  # 1, then AH
    _answered(out, "You may only decline the discard when the stock is empty; draw (d),")
    assert "): What you can type:" in out
    assert "  k          knock: everybody else gets one more turn" in out

    # Bad put-downs after taking the top discard.
    put = "Put down which card? ("
    assert f"You took {taken} from the pile." in out
    _answered(out, f"You took {taken} from the pile: it may not go straight back.", put)
    _answered(out, "There is no card 9: choose 1 to 3.", put)  # (the card taken is the 4th)
    _answered(out, "'QQ' is not a card or a position: choose 1-3", put)
    _answered(out, f"You took {taken} already: now put a card down", put)
    _answered(out, f"{absent} is not in your hand: choose one of", put)
    assert f"You took {taken}, put down {seen.hand[0]}." in out

    # Later turns: "x" while the stock still has cards is explained; "d" then "4" plays.
    assert "Since your last turn" in out
    assert re.search(r"You drew (\w\w), put down \1\.", out)

    # The game ran to its end: same result as the same play through the API.
    replica = _Replica()
    game = Game(Rules.standard(), [replica, *(TablePolicy() for _ in NAMES[1:])], seed=SEED)
    winner = game.play()
    assert winner_of(out) == NAMES[winner]
    assert placing_of(out) == [NAMES[s] for s in game.placing()]
    rounds = [e for e in game.events if e.kind in ("round_end", "wash")]
    assert len(re.findall(r"^Round \d+: ", out, flags=re.M)) == len(rounds)
    for event in rounds:
        for seat, hand in event.data["hands"].items():
            assert re.search(rf"{NAMES[seat]}.*{' '.join(hand)}", out)


@pytest.mark.parametrize(
    "script",
    ["q\n", "Q\n", "quit\n", "d\nq\n", "zz\nq\n", "", "d\n"],
    ids=["q", "Q", "quit", "q-at-put-down", "q-after-bad", "eof-at-once", "eof-at-put-down"],
)
def test_quit_and_end_of_input_leave_cleanly(script: str) -> None:
    result = run(["play", "--seed", "8", "--no-oracle"], input=script)
    assert result.exit_code == 0
    out = result.output
    assert out.rstrip().endswith("Goodbye!")
    assert "Traceback" not in out and "Placing" not in out
    # Nothing more is asked after q.
    assert out.count("Your move (") == 1 + script.count("zz")


# -- the person's seat, with a stacked deck --------------------------------------------------------


def _two_seat_game(
    opponent: Policy, reader: LineReader, deck: list[str], advisor: Advisor | None = None
) -> tuple[Session, TerminalPlayer, io.StringIO]:
    """A 2-seat game where the person (seat 0) moves first, on ``deck``, then random packs."""
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    names = ["You", "Alice"]
    narrator = Narrator(console, names, me=0)
    me = TerminalPlayer("You", console, narrator, read=reader, advisor=advisor)
    rules = Rules.standard().replace(seats=2)
    for seed in range(100):
        game = Session(rules, [None, opponent], seed=seed, names=names, decks=[deck])
        if game.dealer == 1:  # play starts on the dealer's left: seat 0
            break
    game.add_listener(narrator)
    narrator.game = game
    return game, me, out


def _stack(me: list[str], other: list[str], upcard: str, stock: list[str]) -> list[str]:
    """A deck dealt one card at a time, the person first; then the upcard and the stock."""
    top = [c for pair in zip(me, other, strict=True) for c in pair] + [upcard, *stock]
    rest = [c for c in PACK if c not in top]
    return top + rest


def _script(lines: list[str]) -> Iterator[str]:
    yield from lines


def test_knock_and_retake_refused_on_the_final_turn() -> None:
    deck = _stack(["2C", "3D", "4H"], ["KS", "QS", "8S"], "5C", ["6D", "7C"])
    lines = _script(["d", "4", "k", "t", "d", "1"])
    game, me, out = _two_seat_game(TablePolicy(), lambda prompt: next(lines, None), deck)
    with pytest.raises(QuitGame):
        drive(game, me)
    text = out.getvalue()
    # You drew 6D and put it down; Alice (28) knocked; your final turn.
    assert "You drew 6D, put down 6D." in text
    assert "Alice has knocked: this is your final turn." in text
    assert "FINAL TURN" in text
    assert "Alice has already knocked: this is your final turn, draw (d)." in text
    assert "You may not take 6D: you put it down yourself this round; draw (d)." in text
    assert "You drew 7C, put down 2C." in text
    # The showdown: your 7 (7C 3D 4H: best suit 7) is lowest; you lose one life, the knocker
    # is safe.
    assert "Round 1: showdown after Alice's knock." in text
    assert re.search(r"You\s+7C 3D 4H\s+7\s+loses 1 life → 2 lives", text)
    assert re.search(r"Alice \(knocked\)\s+KS QS 8S\s+28\s+safe", text)
    assert game.lives == [2, 3]


class _DrawAndDiscard(_Replica):
    """An opponent that takes the upcard once, then always draws and puts the new card down."""


def test_empty_stock_offers_take_or_decline() -> None:
    deck = _stack(["2C", "3D", "4H"], ["9S", "8H", "6C"], "5D", [])
    said: list[str] = []
    finish = iter(["d", "k", "?", "x"])
    done = False

    def reader(prompt: str) -> str | None:
        nonlocal done
        said.append(prompt)
        if done:
            return None  # end of input: quits at the next question
        if prompt.startswith("Put down"):
            return "4"
        if "x decline" in prompt:
            answer = next(finish)
            done = answer == "x"
            return answer
        return "d"

    game, me, out = _two_seat_game(_DrawAndDiscard(), reader, deck)
    with pytest.raises(QuitGame):
        drive(game, me)
    text = out.getvalue()
    empty = [p for p in said if "x decline" in p]
    assert empty[0] == "Your move (t take " + empty[0][len("Your move (t take ") :]
    assert "d draw" not in empty[0] and "k knock" not in empty[0]
    assert "Stock: empty" in text
    assert "The stock is empty; take " in text and "(t) or decline (x)." in text
    assert "Nobody may knock once the stock is empty; take" in text
    assert "x          decline the top card" in text
    # Declining ends the round at once: the stock-out showdown, the lowest (you, 4) loses 1.
    assert "Round 1: stock out — You declined the top card: the lowest hand loses a life." in text
    assert re.search(r"You\s+2C 3D 4H\s+4\s+loses 1 life → 2 lives", text)
    assert game.lives == [2, 3]


def test_advisor_is_asked_before_the_choice_and_before_the_put_down() -> None:
    deck = _stack(["2C", "3D", "4H"], ["9S", "8H", "6C"], "5D", ["TD", "JD"])
    asked: list[tuple[list[str], tuple[str, str] | None]] = []

    def advisor(view: SeatView) -> str:
        asked.append((list(view.hand), view.drawn))
        return f"advice #{len(asked)}"

    lines = _script(["d", "2"])
    game, me, out = _two_seat_game(TablePolicy(), lambda prompt: next(lines, None), deck, advisor)
    with pytest.raises(QuitGame):
        drive(game, me)
    assert asked[0] == (["2C", "3D", "4H"], None)
    assert asked[1] == (["2C", "3D", "4H"], ("TD", "stock"))
    text = out.getvalue()
    assert text.index("advice #1") < text.index("You drew TD from the stock.")
    assert text.index("You drew TD from the stock.") < text.index("advice #2")
    assert "You drew TD, put down 3D." in text


def test_a_failing_advisor_does_not_end_the_game() -> None:
    def advisor(view: SeatView) -> object:
        raise RuntimeError("oracle offline")

    lines = _script(["q"])
    game, me, out = _two_seat_game(
        TablePolicy(), lambda prompt: next(lines, None), list(PACK), advisor
    )
    with pytest.raises(QuitGame):
        drive(game, me)
    assert "(no advice this time: oracle offline)" in out.getvalue()


def test_events_are_rendered_without_a_person() -> None:
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    narrator = Narrator(console, NAMES, me=None)
    game = Game(Rules.standard(), seed=9, names=NAMES, on_event=narrator)
    narrator.game = game
    game.play()
    text = out.getvalue()
    assert f"Winner: {NAMES[game.winner or 0]}" in text
    kinds = {e.kind for e in game.events}
    assert {"deal", "turn", "round_end", "out", "game_over"} <= kinds
    assert isinstance(game.events[0], Event)


# -- the real command -----------------------------------------------------------------------------


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(ENV)
    return env


def test_python_dash_m_matches_the_console_command() -> None:
    args = ["play", "--autoplay", "--seed", "3"]
    proc = subprocess.run(
        [sys.executable, "-m", "thirtyone", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=_env(),
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "Winner: " in proc.stdout
    assert proc.stdout == run(args).output


def _console_script() -> str:
    beside = Path(sys.executable).with_name("thirtyone")
    if beside.exists():
        return str(beside)
    found = shutil.which("thirtyone")
    if not found:
        pytest.skip("the thirtyone console script is not installed")
    return found


@pytest.mark.posix_only
def test_console_script_in_a_pseudo_terminal() -> None:
    pexpect = pytest.importorskip("pexpect")
    env = _env()
    env.pop("COLUMNS")
    child = pexpect.spawn(
        _console_script(),
        ["play", "--seed", "5", "--oracle-playouts", "2000", "--oracle-deals", "500"],
        env=env,
        encoding="utf-8",
        timeout=120,  # a hang guard: the Oracle's advice comes within its 5 s limit
        dimensions=(50, 120),
    )
    try:
        # The Oracle's advice (computed under a spinner) comes before the first question.
        child.expect("Advice")
        child.expect(r"Best: ")
        child.expect(r"Your move \(")
        child.expect(r"q quit\): ")
        child.sendline("zz")
        child.expect("'zz' is not a choice")
        child.expect(r"Your move \(")
        child.sendline("d")
        child.expect("Advice")
        child.expect(r"put down \w\w")
        child.expect(r"Put down which card\? ")
        child.sendline("4")
        child.expect(r"You drew \S+, put down \S+\.")
        child.expect([r"Your move \(", "Game over"])
        child.sendline("q")
        child.expect("Goodbye!")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in (child.before or "")


def test_help_lists_the_options() -> None:
    result = run(["play", "--help"])
    assert result.exit_code == 0
    for option in ("--seats", "--lives", "--knock-penalty", "--seed", "--rules", "--rule"):
        assert option in result.output
    assert "--autoplay" in result.output
    for option in ("--oracle / --no-oracle", "--oracle-deals", "--oracle-playouts"):
        assert option in result.output
    assert isinstance(main, click.Group)
