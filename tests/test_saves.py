"""Nothing lost: the game is saved after every turn (atomically), `--resume` continues exactly
where it was, a process killed at any moment loses at most the turn in progress (and not even
that after a draw: see test_save_safety.py), a damaged save gives a clear message and is left as
it is, and quitting saves."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import sys
import time
from pathlib import Path

import pexpect
import pytest
from click.testing import CliRunner
from thirtyone.cli.app import main
from thirtyone.game.rules import Rules
from thirtyone.game.seats import TABLE_KNOCK_AT
from thirtyone.game.session import Session
from thirtyone.store import saves

ENV = {"COLUMNS": "100", "NO_COLOR": "1"}
# Draw and put down the drawn card (or the first card): always legal, never ends the game early.
MOVES = "d\n4\n" * 400


def run(args: list[str], text: str, path: Path) -> str:
    result = CliRunner().invoke(
        main, ["play", "--no-oracle", "--save-file", str(path), *args], input=text, env=ENV
    )
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.output


def winner_line(output: str) -> str:
    lines = [ln for ln in output.splitlines() if "wins" in ln or "Winner" in ln]
    assert lines, output[-2000:]
    return lines[-1]


def test_resume_continues_exactly_where_the_game_was(tmp_path: Path) -> None:
    whole = run(["--seed", "11"], MOVES, tmp_path / "a.json")
    first, rest = "d\n4\n" * 7, MOVES
    path = tmp_path / "b.json"
    run(["--seed", "11"], first + "q\n", path)
    saved = saves.read(path)
    assert saved.seed == 11 and not saved.over
    assert len(saved.journal) > 14  # seven turns of yours and the table's in between
    resumed = run(["--resume"], rest, path)
    assert "Resumed: round" in resumed
    assert winner_line(resumed) == winner_line(whole)
    assert saves.read(path).over


def test_quitting_mid_turn_keeps_the_draw(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    run(["--seed", "3"], "d\n4\nd\nq\n", path)  # quit after drawing, before the put-down
    journal = saves.read(path).journal
    assert journal[-1] == ["draw"]
    run(["--resume"], "q\n", path)  # and quitting at the put-down again keeps it
    assert saves.read(path).journal == journal


def test_a_damaged_save_is_reported_and_left_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text('{"format": "thirtyone-save", "version": 1, "rules": ')
    before = path.read_bytes()
    r = CliRunner().invoke(main, ["play", "--resume", "--save-file", str(path)], env=ENV)
    assert r.exit_code == 2
    assert "damaged" in r.output and str(path) in r.output
    assert "Traceback" not in r.output
    assert path.read_bytes() == before
    missing = CliRunner().invoke(
        main, ["play", "--resume", "--save-file", str(tmp_path / "none.json")], env=ENV
    )
    assert missing.exit_code == 2 and "no saved game" in missing.output


def test_a_save_that_cannot_be_replayed_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    saves.write(saves.SavedGame(Rules(), 5, ["You", "A", "B", "C"], journal=[["put", "AH"]]), path)
    r = CliRunner().invoke(main, ["play", "--resume", "--save-file", str(path)], env=ENV)
    assert r.exit_code == 2 and "cannot be replayed" in r.output


def test_resume_keeps_its_own_table_and_refuses_finished_games(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    run(["--seed", "4"], "q\n", path)
    out = run(["--resume", "--seed", "9"], "q\n", path)
    assert "The resumed game keeps its own table: --seed was not applied." in out
    assert saves.read(path).seed == 4
    run(["--resume"], MOVES, path)
    assert saves.read(path).over
    r = CliRunner().invoke(main, ["play", "--resume", "--save-file", str(path)], env=ENV)
    assert r.exit_code == 2 and "over" in r.output


def test_a_failed_write_leaves_the_last_good_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "s.json"
    good = saves.SavedGame(Rules(), 5, ["You", "A", "B", "C"], journal=[["draw"], ["put", "AH"]])
    saves.write(good, path)

    def broken(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError):
        saves.write(saves.SavedGame(Rules(), 6, ["You", "A", "B", "C"]), path)
    monkeypatch.undo()
    assert saves.read(path).seed == 5
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]  # no temporary file left


def test_the_default_place_is_the_user_data_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("THIRTYONE_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", "/somewhere")
    assert saves.default_path() == Path("/somewhere/thirtyone/saved-game.json")
    monkeypatch.setenv("THIRTYONE_DATA_DIR", "/elsewhere")
    assert saves.default_path() == Path("/elsewhere/saved-game.json")


@pytest.mark.posix_only
@pytest.mark.parametrize("trial", range(4))
def test_killed_at_any_moment_loses_at_most_the_turn_in_progress(
    tmp_path: Path, trial: int
) -> None:
    path = tmp_path / "s.json"
    rnd = random.Random(trial)
    env = {**os.environ, **ENV, "THIRTYONE_DATA_DIR": str(tmp_path)}
    cmd = (
        f"{sys.executable} -m thirtyone play --no-oracle --fast --seed {20 + trial} "
        f"--save-file {path}"
    )
    child = pexpect.spawn(cmd, env=env, encoding="utf-8", timeout=120)  # a hang guard
    journal_lengths = []
    for _ in range(rnd.randint(2, 12)):
        child.expect("Your move")
        child.sendline("d")
        child.expect("Put down")
        if path.exists():
            journal_lengths.append(len(saves.read(path).journal))
        child.sendline("4")
    time.sleep(rnd.random() * 0.05)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    saved = saves.read(path)  # never half-written
    data = json.loads(path.read_text())
    assert data["format"] == "thirtyone-save"
    assert not journal_lengths or len(saved.journal) >= journal_lengths[-1]
    resumed = pexpect.spawn(
        f"{sys.executable} -m thirtyone play --no-oracle --resume --save-file {path}",
        env=env,
        encoding="utf-8",
        timeout=120,
    )
    resumed.expect("Resumed: round")
    # Killed before the put-down reached the game, the save holds the draw: the resumed turn
    # starts at the put-down, with the same card; otherwise at the next move.
    resumed.expect(["Your move", "Put down which card"])
    resumed.sendline("q")
    resumed.expect("Goodbye")
    resumed.wait()


#: Saves written by thirtyone before the game became a steppable session (commit 46fa8ea^, with
#: ``play --no-oracle``): one left after a draw, one left between two rounds.
BEFORE_SESSION = Path(__file__).parent / "data" / "saves_before_session"


@pytest.mark.parametrize("name", ["standard-mid-turn", "ride-the-bus-between-rounds"])
def test_a_save_written_before_the_session_resumes_where_it_stopped(
    tmp_path: Path, name: str
) -> None:
    path = tmp_path / "s.json"
    path.write_bytes((BEFORE_SESSION / f"{name}.json").read_bytes())
    old = saves.read(path)
    game = saves.replayed(old, str(path))
    assert [saves.entry(a) for a in game.journal] == old.journal  # every action replayed
    pending = game.pending
    if old.journal[-1] == ["draw"]:
        assert pending is not None and pending.phase == "put_down" and pending.seat == old.you
    output = run(["--resume", "--fast"], MOVES, path)
    resumed = re.search(r"Resumed: round (\d+)", output)
    head = re.search(r"Round (\d+) ·", output)
    assert resumed and head and resumed[1] == head[1], output[:600]
    new = saves.read(path)
    assert new.over and new.journal[: len(old.journal)] == old.journal


def test_a_save_left_between_two_rounds_resumes_at_the_next_round(tmp_path: Path) -> None:
    rules = Rules.standard()
    first = Session(rules, seed=21)
    for _ in first.to_move():  # every seat by the table's rule, to the end of the first round
        first.play_rule_turn(TABLE_KNOCK_AT)
        if first.pending is None and not first.washed:
            break
    assert first.round_number == 1 and not first.over
    path = tmp_path / "s.json"
    names = ["You", "Alice", "Ben", "Cara"]
    saves.write(
        saves.SavedGame(rules, 21, names, journal=[saves.entry(a) for a in first.journal]), path
    )
    output = run(["--resume"], "q\n", path)
    assert "Resumed: round 2." in output


def test_the_unfinished_games_question_names_the_round_a_resume_plays() -> None:
    """A save left between two rounds resumes with the next one dealt: the question at a new
    game names that round, as the resume then says ("Resumed: round 2"), not the round already
    played; a save left in a round under way names that round."""
    from thirtyone.game.seats import TablePolicy
    from thirtyone.terminal.play_session import resumed_text
    from thirtyone.terminal.save_start import standing

    game = Session(Rules.standard(), [TablePolicy()] * 4, seed=3)
    game.deal()
    while game.pending is not None:
        game.play_policy()
    assert game.round_number == 1 and not game.over
    assert standing(game).startswith("round 2 · ")
    assert resumed_text(game).plain.startswith("Resumed: round 2.")
    game.deal()
    assert standing(game).startswith("round 2 · ")
    assert resumed_text(game).plain.startswith("Resumed: round 2.")


# -- a damaged save names the field (QA round three) -----------------------------------------------


def _unfinished(path: Path) -> dict[str, object]:
    """A save of a real unfinished game at ``path`` (a turn played), as its JSON object."""
    run(["--seed", "3"], "d\n4\nq\n", path)
    data = json.loads(path.read_text())
    assert data["over"] is False and len(data["journal"]) > 2
    return data


def test_a_save_whose_decisions_hold_nan_is_damaged_and_left_as_it_is(tmp_path: Path) -> None:
    # (README "Nothing is lost": a save that cannot be read is reported in one line, exit
    # status 2, the file left byte for byte; Python's json reads NaN, and the next save of it
    # failed with a traceback.)
    path = tmp_path / "nanres.json"
    data = _unfinished(path)
    nan = {"round": 1, "played": "draw", "best": "draw", "cost_p_safe": float("nan")}
    path.write_text(json.dumps({**data, "decisions": [{**nan, "best_game": None}]}))
    before = path.read_bytes()
    r = CliRunner().invoke(
        main,
        ["play", "--resume", "--save-file", str(path), "--fast", "--oracle-deals", "100"],
        input="q\n",
        env=ENV,
    )
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    [line] = r.output.splitlines()
    assert line.startswith("Error: the saved game at ") and "is damaged" in line
    assert "decisions[0].cost_p_safe" in line and "NaN" in line
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("seed", "x", 'seed must be a whole number, not "x"'),
        ("seed", 1.5, "seed must be a whole number, not 1.5"),
        ("seed", True, "seed must be a whole number, not true"),
        ("seed", float("nan"), "seed must be a whole number, not NaN"),
        ("seed", -5, "seed must be a whole number from 0 to 18,446,744,073,709,551,615, not -5"),
        ("seed", 2**70, "seed must be a whole number from 0 to 18,446,744,073,709,551,615"),
        ("you", 5, "you must be your seat, from 0 to 3, not 5"),
        ("you", -1, "you must be your seat, from 0 to 3, not -1"),
        ("names", ["You", "A"], "names must be a list of 4 names (one a seat), not 2"),
        ("names", [1, 2, 3, 4], "names[0] must be text, not 1"),
        ("names", "abcd", 'names must be a list of 4 names (one a seat), not "abcd"'),
        ("rules", None, "rules must be the table's rules (an object), not null"),
        ("rules", {"seats": 12}, "rules: rule seats: must be a whole number from 2 to 9"),
        ("journal", None, "journal must be a list of actions, not null"),
        ("journal", ["draw"], 'journal[0] must be an action such as ["draw"] or ["put", "AH"], '),
        ("over", "no", 'over must be true or false, not "no"'),
        ("advice", "sometimes", 'advice must be one of always, ask, never, not "sometimes"'),
        ("opponents", "aliens", 'opponents must be one of table, expert, mixed, not "aliens"'),
        ("decisions", "x", 'decisions must be a list, not "x"'),
        ("decisions", [{"round": 0, "played": "draw"}], "decisions[0].round must be"),
        # (ruling 289: the record would keep such a decision, then skip its game)
        ("decisions", [{"round": 1, "played": ""}], "decisions[0].played must be the option "),
        ("decisions", [{"round": 1, "played": "draw", "best": "hold"}], "decisions[0].best must"),
        ("tutor", 500, "tutor must be null or points from 0.1 to 100, not 500"),
        ("oracle", {"deals": 0, "playouts": 5}, "oracle: deals must be a whole number from 1"),
        ("game_id", 7, "game_id must be a text of at most 64 characters, not 7"),
    ],
)
def test_a_damaged_save_names_the_field_and_what_is_wrong(
    short_tmp: Path, field: str, value: object, said: str
) -> None:
    # (A short folder: the message crops a path over 80 characters, which pytest's own reached
    # once its runs on a machine were counted in thousands, "pytest-1011".)
    path = short_tmp / "s.json"
    good = json.loads(saves.SavedGame(Rules(), 5, ["You", "A", "B", "C"]).to_json())
    path.write_text(json.dumps({**good, field: value}))
    before = path.read_bytes()
    with pytest.raises(saves.SaveError) as caught:
        saves.read(path)
    message = str(caught.value)
    assert f"the saved game at {path} is damaged ({said}" in message, message
    assert "\n" not in message and len(message) < 300
    assert path.read_bytes() == before
    del good["seed"]
    path.write_text(json.dumps(good))
    with pytest.raises(saves.SaveError, match=r"damaged \(the field seed is missing\)"):
        saves.read(path)


def test_a_save_whose_journal_ended_the_game_shows_its_end_and_is_recorded_once(
    tmp_path: Path,
) -> None:
    # A crash between the last turn's save and the one that marks the game over leaves a
    # journal that ends the game under "over": false. Resumed (from a copy, again and again),
    # it says the game is over and shows its end, and the record holds it once.
    from thirtyone.game.seats import TablePolicy
    from thirtyone.store.record import default_path, games

    names = ["You", "Alice", "Ben", "Cara"]
    game = Session(Rules(), [TablePolicy()] * 4, seed=3, names=names)
    game.advance()
    assert game.over and game.winner is not None
    journal = [saves.entry(a) for a in game.journal]
    copy = saves.SavedGame(Rules(), 3, names, journal=journal).to_json()
    path = tmp_path / "overfalse.json"
    for _ in range(2):
        path.write_text(copy)
        out = run(["--resume", "--fast"], "q\n", path)
        assert "had ended, in round" in out and "Resumed: round" not in out
        assert f"Game over. Winner: {names[game.winner]}" in out
        assert "Your move" not in out
        assert saves.read(path).over
    assert len(games(default_path())) == 1


@pytest.mark.parametrize(
    ("opponents", "line"),
    [
        ("table", "Thirty-One: You against Alice, Ben, Cara"),
        ("expert", "Thirty-One: You against Alice (expert), Ben (expert), Cara (expert)"),
        # Experts at the odd seats, the table's rule at the even ones (docs/cli.md).
        ("mixed", "Thirty-One: You against Alice (expert), Ben (the table's rule), Cara (expert)"),
    ],
)
def test_the_opening_line_says_who_plays_how_and_a_resumed_game_says_it_again(
    tmp_path: Path, opponents: str, line: str
) -> None:
    """A player is told which computer players are experts (the Oracle at a small budget) and
    which play the table's rule, when the game starts and again when it is resumed, with the
    table (a resumed game showed no table at all)."""
    path = tmp_path / "s.json"
    first = run(["--seed", "4", "--opponents", opponents], "q\n", path)
    again = run(["--resume"], "q\n", path)
    for out in (first, again):
        assert out.splitlines()[0] == line
        assert out.splitlines()[1].startswith("3 lives each · knock penalty 2 · seed 4")
    assert again.index(line) < again.index("Resumed: round 1.")
