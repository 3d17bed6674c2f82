"""The record of games: every finished game of `thirtyone play` in record.sqlite3 in the data
folder, `thirtyone stats`, and a database that a crash never corrupts.

Written from the brief of the record: one transaction per game, the schema's version in
`PRAGMA user_version`, a busy timeout, a foreign or garbled file reported in one line and left as
it is; each decision of yours with the Oracle's best option and its cost in `p_safe` (the best's
p_safe minus the chosen option's, 0 for the best) when advice was computed for it.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import stat
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from thirtyone import Action, Game, Rules, SeatView, TablePolicy
from thirtyone import statistics as stats
from thirtyone.cli.app import main
from thirtyone.store import record
from thirtyone.store.keeper import Keeper, game_record, judged, preset_name
from thirtyone.store.record import SCHEMA_VERSION, Decision, GameRecord, RecordError, add, games

ENV = {"COLUMNS": "100", "NO_COLOR": "1"}
SMALL = ["--oracle-deals", "100", "--oracle-playouts", "200", "--fast"]


def run(args: list[str], input: str | None = None) -> Result:
    return CliRunner(env=ENV).invoke(main, args, input=input)


def path() -> Path:
    return Path(os.environ["THIRTYONE_DATA_DIR"]) / "record.sqlite3"


def entry(place: int = 1, **changes: Any) -> GameRecord:
    """A finished 4-seat game in which you (seat 0) took ``place``."""
    others = [3, 2, 1]
    placing = [*others[: place - 1], 0, *others[place - 1 :]]
    fields: dict[str, Any] = {
        "finished": "2025-01-31T18:04:00+00:00",
        "preset": "standard",
        "rules": Rules.standard().to_dict(),
        "names": ["You", "Alice", "Ben", "Cara"],
        "you": 0,
        "placing": placing,
        "points": None,
        "rounds": 9,
        "opponents": "table",
        "autoplay": False,
        "seed": 1,
        "decisions": [],
    }
    fields.update(changes)
    return GameRecord(**fields)


# -- the costs of a decision ----------------------------------------------------------------------


@dataclass
class Opt:
    option: str
    p_safe: float
    p_win: float | None = None


@dataclass
class Adv:
    options: list[Opt]
    best_game: Opt | None = None

    @property
    def best(self) -> Opt:
        return self.options[0]


def test_the_cost_is_the_best_p_safe_minus_the_chosen_one() -> None:
    advice: Any = Adv([Opt("draw", 0.62), Opt("take", 0.55), Opt("knock", 0.30)])
    assert judged(advice, "take") == {
        "best": "draw",
        "cost_p_safe": pytest.approx(0.07),
        "best_game": None,
        "cost_p_win": None,
    }
    assert judged(advice, "draw")["cost_p_safe"] == 0.0
    assert judged(advice, "knock")["cost_p_safe"] == pytest.approx(0.32)
    # An option the Oracle did not weigh (a hidden 31) has no cost.
    assert judged(advice, "hide:AS") == {
        "best": "draw",
        "cost_p_safe": None,
        "best_game": None,
        "cost_p_win": None,
    }


def test_the_cost_in_p_win_is_against_the_best_for_the_game() -> None:
    knock, draw = Opt("knock", 0.70, p_win=0.40), Opt("draw", 0.60, p_win=0.48)
    advice: Any = Adv([knock, draw], best_game=draw)
    assert judged(advice, "knock") == {
        "best": "knock",
        "cost_p_safe": 0.0,
        "best_game": "draw",
        "cost_p_win": pytest.approx(0.08),
    }
    assert judged(advice, "draw")["cost_p_safe"] == pytest.approx(0.10)
    assert judged(advice, "draw")["cost_p_win"] == 0.0
    # Without best_game, the option with the highest p_win is the game's best.
    unnamed: Any = Adv([knock, draw])
    assert judged(unnamed, "knock")["cost_p_win"] == pytest.approx(0.08)


# -- decisions kept as a game goes ----------------------------------------------------------------


class Scripted:
    """Seat 0: draws and puts down its first card every turn; ``tell`` says which phases the
    advisor speaks at (``start``, ``put``), with a made-up advice naming what is best."""

    def __init__(self, keeper: Keeper, tell: tuple[str, ...]) -> None:
        self.keeper, self.tell = keeper, tell

    def decide(self, view: SeatView) -> Action:
        if view.phase == "blind":
            return Action("look")
        if view.drawn is None:
            if "start" in self.tell:
                start: Any = Adv([Opt("knock", 0.9), Opt("draw", 0.5)])
                self.keeper.on_advice(view, start)
            return Action("draw")
        card = view.hand[0]
        if "put" in self.tell:
            other = view.drawn[0]
            put: Any = Adv([Opt(f"discard:{other}", 0.8), Opt(f"discard:{card}", 0.6)])
            self.keeper.on_advice(view, put)
        return Action("put", card)


@pytest.mark.parametrize("tell", [("start", "put"), ("start",), ("put",), ()])
def test_each_decision_takes_the_advice_given_for_it(tell: tuple[str, ...]) -> None:
    keeper = Keeper(0)
    players: list[Any] = [Scripted(keeper, tell), TablePolicy(), TablePolicy()]
    game = Game(Rules.standard().replace(seats=3), players, seed=4)
    game.add_listener(keeper)
    game.play()
    mine = [e for e in game.events if e.kind == "turn" and e.data["seat"] == 0]
    decisions = keeper.decisions()
    assert len(decisions) == 2 * len(mine) > 0
    for turn, start, put in zip(mine, decisions[::2], decisions[1::2], strict=True):
        assert (start.played, start.round) == ("draw", turn.round)
        assert put.played == f"discard:{turn.data['discard']}"
        if "start" in tell:
            assert (start.best, start.cost_p_safe) == ("knock", pytest.approx(0.4))
        else:
            assert (start.best, start.cost_p_safe) == (None, None)
        if "put" in tell:
            assert put.best is not None and put.best != put.played
            assert put.cost_p_safe == pytest.approx(0.2)
        else:
            assert (put.best, put.cost_p_safe) == (None, None)


def test_the_record_of_a_game_says_who_placed_where() -> None:
    game = Game(Rules.preset("scat").replace(seats=3, placing="ranked"), seed=2)
    game.play()
    rec = game_record(game, [], opponents="mixed", autoplay=True, seed=2)
    assert rec.placing == game.placing() and rec.place == game.places[0]
    assert rec.points == {1: 3, 2: 2, 3: 1}[rec.place]
    assert (rec.preset, rec.seats, rec.rounds) == ("scat", 3, game.round_number)
    assert rec.rules == game.rules.to_dict()


def test_rules_changed_from_a_preset_are_named_after_it() -> None:
    assert preset_name(Rules.preset("cadillac").replace(seats=6)) == "cadillac"
    assert preset_name(Rules.standard().replace(lives=6)) == "standard"
    assert preset_name(Rules.preset("scat").replace(min_knock=17)) == "scat"


# -- thirtyone play writes the record --------------------------------------------------------------


def test_an_autoplayed_game_is_recorded_as_played() -> None:
    result = run(["play", "--autoplay", "--seed", "3", "--seats", "3"])
    assert result.exit_code == 0, result.output
    assert "Your record" not in result.output  # (an autoplayed game is not yours)
    [rec] = games(path())
    game = Game(Rules.standard().replace(seats=3), seed=3, names=rec.names)
    game.play()  # the same game: every seat by the table's rule
    assert rec.placing == game.placing()
    assert (rec.rounds, rec.autoplay, rec.opponents, rec.seed) == (
        game.round_number,
        True,
        "table",
        3,
    )
    assert rec.rules == game.rules.to_dict() and rec.preset == "standard"
    assert rec.names[0] == "You" and rec.you == 0
    expected: list[str] = []
    for e in game.events:
        if e.kind == "turn" and e.data["seat"] == 0:
            expected.append(e.data["action"])
            if e.data["action"] in ("draw", "take"):
                expected.append(f"discard:{e.data['discard']}")
    assert [d.played for d in rec.decisions] == expected
    assert not any(d.advised for d in rec.decisions)  # no advice was computed


def test_advice_shown_at_autoplay_goes_with_the_starts_only() -> None:
    result = run(["play", "--autoplay", "--oracle", "--seed", "5", "--seats", "2", *SMALL])
    assert result.exit_code == 0, result.output
    [rec] = games(path())
    starts = [d for d in rec.decisions if not d.played.startswith("discard:")]
    puts = [d for d in rec.decisions if d.played.startswith("discard:")]
    assert starts and all(d.advised for d in starts)
    assert puts and not any(d.advised for d in puts)
    for d in starts:
        assert d.cost_p_safe is not None and d.cost_p_safe >= 0
        assert (d.played == d.best) <= (d.cost_p_safe == 0)


def _interactive(seed: int, keys: str) -> Result:
    return run(["play", "--seed", str(seed), "--seats", "2", "--lives", "2", *SMALL], keys)


def test_a_game_played_shows_the_record_at_its_end() -> None:
    first = _interactive(6, "\n" * 400)  # Enter, Enter: the Oracle's best every time
    assert first.exit_code == 0, first.output
    assert "Your record: 1 game, " in first.output
    [rec] = games(path())
    assert not rec.autoplay and rec.decisions and all(d.advised for d in rec.decisions)
    assert all(d.played == d.best and d.cost_p_safe == 0 for d in rec.decisions)
    n = len(rec.decisions)
    assert f"the Oracle's best in {n} of {n} advised decisions (100.0%)" in first.output
    second = _interactive(7, "\n" * 400)
    won = sum(g.place == 1 for g in games(path()))
    assert f"Your record: 2 games, {won} won" in second.output
    # Its interval as every report writes one (ruling 352): Wilson's for `won` of 2, in tenths
    # of a percent, an en dash between (it was "95% CI 16%-100%").
    low, high = {0: (0.0, 65.8), 1: (9.5, 90.5), 2: (34.2, 100.0)}[won]
    assert f"95% CI {low:.1f}\u2013{high:.1f}), mean place " in second.output


def test_a_resumed_game_keeps_the_advice_of_its_first_part() -> None:
    keys = "\n\n\n\nd\n1\n" + "\n" * 400
    whole = _interactive(8, keys)
    assert whole.exit_code == 0, whole.output
    [played] = games(path())
    path().unlink()
    left = _interactive(8, keys[:8] + "q\n")
    assert "Saved." in left.output
    saved = json.loads((path().parent / "saved-game.json").read_text())
    assert [d["played"] for d in saved["decisions"]] == [d.played for d in played.decisions[:4]]
    assert all(d["best"] is not None for d in saved["decisions"])
    resumed = run(["play", "--resume", *SMALL], "\n" * 400)
    assert resumed.exit_code == 0, resumed.output
    [again] = games(path())
    assert again.decisions == played.decisions
    assert again.placing == played.placing


def test_a_saved_game_finished_by_autoplay_is_recorded_once_and_saved_as_over() -> None:
    """``--resume --autoplay`` finishes your saved game with the table's rule at your seat.
    It played the rest but left the save as it was, unfinished, and recorded the game at each
    run (three runs, three rows of one game): it is now saved as over, recorded once, and a
    second run is told the game is over (ruling 356)."""
    left = _interactive(7, "\n\nq\n")
    assert "Saved." in left.output
    save = path().parent / "saved-game.json"
    copy = save.read_text()
    first = run(["play", "--resume", "--autoplay"])
    assert first.exit_code == 0, first.output
    assert "Continue later with" not in first.output  # (it runs to its end in one go)
    [rec] = games(path())
    assert rec.autoplay and rec.seed == 7
    assert rec.placing == [rec.names.index(n) for n in _placing_names(first.output)]
    assert json.loads(save.read_text())["over"] is True
    again = run(["play", "--resume", "--autoplay"])
    assert again.exit_code == 2 and "is over" in again.output
    # Finished again from a copy of the save: the same game, not recorded a second time.
    save.write_text(copy)
    from_copy = run(["play", "--resume", "--autoplay"])
    assert from_copy.exit_code == 0, from_copy.output
    assert games(path()) == [rec]


def _placing_names(output: str) -> list[str]:
    """The names under "Placing:" at a game's end, first place first."""
    lines = output.split("Placing:")[-1].splitlines()[1:]
    return [m.group(1) for line in lines if (m := re.match(r"\s+\d+\w\w\s+(\S+)", line))]


# -- thirtyone stats ------------------------------------------------------------------------------


def test_stats_before_any_game() -> None:
    result = run(["stats"])
    assert result.exit_code == 0
    assert (
        result.output.startswith("No games recorded yet:") and len(result.output.splitlines()) == 1
    )
    data = json.loads(run(["stats", "--json"]).output)
    assert (data["games"], data["wins"], data["win_rate"], data["ci"]) == (0, 0, None, None)
    assert not path().exists()  # reading creates nothing


def _some_games() -> None:
    agree = Decision(1, "draw", "draw", 0.0)
    costly = Decision(2, "knock", "draw", 0.12, "draw", 0.05)
    unweighed = Decision(3, "discard:AS", "discard:KH", None)
    add(path(), entry(1, decisions=[agree, costly, Decision(1, "take")]))
    add(path(), entry(2, preset="scat", decisions=[unweighed]))
    add(path(), entry(4, opponents="expert"))
    add(path(), entry(1, autoplay=True, decisions=[Decision(1, "draw", "knock", 0.3)]))


def test_stats_counts_wins_places_and_decisions() -> None:
    _some_games()
    data = json.loads(run(["stats", "--json"]).output)
    assert (data["games"], data["wins"], data["win_rate"]) == (4, 2, 0.5)
    assert data["ci"] == pytest.approx([0.15004, 0.84996], abs=1e-5)  # Wilson, 2 of 4
    assert data["mean_place"] == 2.0
    by_preset = {t["preset"]: (t["games"], t["wins"], t["mean_place"]) for t in data["by_preset"]}
    assert by_preset == {"standard": (3, 2, 2.0), "scat": (1, 0, 2.0)}
    by_opp = {t["opponents"]: (t["games"], t["wins"]) for t in data["by_opponents"]}
    assert by_opp == {"table": (3, 2), "expert": (1, 0)}
    assert {t["played_by"]: t["games"] for t in data["by_played_by"]} == {"you": 3, "autoplay": 1}
    yours = data["decisions"]["you"]
    assert (yours["decisions"], yours["advised"], yours["agreed"]) == (4, 3, 1)
    assert yours["agreement"] == pytest.approx(1 / 3)
    assert yours["mean_cost_p_safe"] == pytest.approx(0.06)  # (0 + 0.12) / 2 costs known
    assert (yours["with_p_win"], yours["mean_cost_p_win"]) == (1, pytest.approx(0.05))
    assert data["decisions"]["autoplay"]["mean_cost_p_safe"] == pytest.approx(0.3)
    history = [(g["place"], g["won"], g["preset"], g["played_by"]) for g in data["history"]]
    assert history == [
        (1, True, "standard", "you"),
        (2, False, "scat", "you"),
        (4, False, "standard", "you"),
        (1, True, "standard", "autoplay"),
    ]
    text = run(["stats"]).output
    assert "preset scat" in text and "opponents expert" in text and "played by autoplay" in text
    text = " ".join(text.split())  # (the sentences are wrapped at the terminal's width)
    # Costs in percentage points, as review gives them; what a decision is, said.
    assert "its best played in 1 (33.3%), mean cost 6.0 points of p_safe" in text
    assert "5.0 points of p_win (over 1)" in text
    assert "Your decisions (a turn's start and, after a draw or take, the put-down): 4;" in text


def test_costs_in_expected_points_are_kept_apart_from_costs_in_p_win() -> None:
    # (Under ranked placing the game's figure is expected points, not a chance, docs/cli.md: a
    # cost of 0.5 points is not 50 points of p_win, and was averaged with them.)
    ranked = Rules.standard().replace(placing="ranked")
    add(path(), entry(1, decisions=[Decision(1, "knock", "draw", 0.1, "draw", 0.04)]))
    costly = [Decision(1, "draw", "knock", 0.2, "knock", 0.5)] * 2
    add(path(), entry(1, rules=ranked.to_dict(), points=3, decisions=costly))
    yours = json.loads(run(["stats", "--json"]).output)["decisions"]["you"]
    assert (yours["with_p_win"], yours["mean_cost_p_win"]) == (1, pytest.approx(0.04))
    assert (yours["with_points"], yours["mean_cost_points"]) == (2, pytest.approx(0.5))
    text = run(["stats"]).output
    # (Beside the expected points, a cost in a chance is in percentage points: ruling 358.)
    said = " ".join(text.split())
    assert (
        "mean cost 16.7 percentage points of p_safe, 4.0 percentage points of p_win (over 1), "
        "0.50 expected points under ranked placing (over 2)." in said
    ), said


@pytest.mark.parametrize("columns", [40, 80])
def test_the_sentences_of_stats_are_wrapped_between_words(columns: int) -> None:
    # (They were single lines of 200 characters and more, broken by the terminal mid-word.)
    _some_games()
    result = CliRunner(env={**ENV, "COLUMNS": str(columns)}).invoke(main, ["stats"])
    assert result.exit_code == 0, result.output
    head, table, sentences = result.output.split("\n\n")
    for line in [*head.splitlines(), *sentences.splitlines()]:
        assert len(line) <= columns or " " not in line, line  # (a long path stands whole)
    assert all(len(line) < 80 for line in table.splitlines())
    words = " ".join(sentences.split())
    assert words.startswith("Your decisions (a turn's start and, after a draw or take, the ")
    assert "its best played in 1 (33.3%), mean cost 6.0 points of p_safe, 5.0 points" in words
    assert "Decisions of your seat played by the table's rule" in words
    assert len(sentences.splitlines()) > 2  # (wrapped, not two long lines)
    assert re.search(
        r"\(\d{4}-\d\d-\d\d \d\d:\d\d to \d{4}-\d\d-\d\d \d\d:\d\d UTC\)", head.replace("\n", " ")
    )


def test_the_interval_is_wilsons_and_needs_no_scipy(monkeypatch: pytest.MonkeyPatch) -> None:
    from scipy.stats import binomtest

    for k, n in ((0, 10), (1, 3), (7, 23), (390, 1000), (10, 10)):
        ci = binomtest(k, n).proportion_ci(method="wilson")
        assert stats.wilson(k, n) == pytest.approx((ci.low, ci.high), abs=1e-12)
    monkeypatch.setitem(sys.modules, "scipy", None)
    monkeypatch.setitem(sys.modules, "scipy.stats", None)
    add(path(), entry(1))
    result = run(["stats"])
    assert result.exit_code == 0 and "100.0% (20.7\u2013100.0)" in result.output


def test_stats_writes_a_win_rate_with_its_interval_as_the_tournament_does() -> None:
    """Ruling 352: the rate and its interval in one column, `50.0% (15.0\u201385.0)`, as the
    tournament's table and the knock atlas write them (stats wrote `15.0%-85.0%` apart)."""
    _some_games()  # (2 of 4 won: Wilson's interval from 15.0% to 85.0%)
    table = run(["stats"]).output.split("\n\n")[1]
    head, *rows = table.splitlines()
    assert head.split() == ["games", "wins", "win", "rate", "(95%", "CI)", "mean", "place"]
    every = {" ".join(row.split()[:-5]): row.split()[-5:] for row in rows}
    assert every["all (you and autoplay)"] == ["4", "2", "50.0%", "(15.0\u201385.0)", "2.00"]
    assert every["played by you"][2:4] == ["33.3%", "(6.1\u201379.2)"]  # (1 of 3)
    assert every["preset scat"][2:4] == ["0.0%", "(0.0\u201379.3)"]  # (0 of 1)
    assert "%-" not in table


# -- a file that is not ours, a crash, two writers -------------------------------------------------


def _refused(result: Result, words: str) -> None:
    assert result.exit_code == 2
    assert words in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_garbage_file_is_reported_and_left_as_it_is() -> None:
    path().parent.mkdir(parents=True, exist_ok=True)
    garbage = b"these are my notes, not a database\n" * 50
    path().write_bytes(garbage)
    _refused(run(["stats"]), "not a thirtyone record of games (not an SQLite database)")
    _refused(run(["stats", "--json"]), "it was left as it is")
    played = run(["play", "--autoplay", "--seed", "3"])
    assert played.exit_code == 0
    assert "This game was not recorded: " in played.output and "Winner: " in played.output
    assert path().read_bytes() == garbage
    assert sorted(p.name for p in path().parent.iterdir()) == ["record.sqlite3"]


def test_another_programs_database_is_left_as_it_is() -> None:
    path().parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(path())
    con.execute("CREATE TABLE notes (text TEXT)")
    con.execute("INSERT INTO notes VALUES ('mine')")
    con.commit()
    con.close()
    before = path().read_bytes()
    _refused(run(["stats"]), "is another program's SQLite database")
    with pytest.raises(RecordError, match="another program's"):
        add(path(), entry())
    assert path().read_bytes() == before


def test_a_record_of_a_newer_schema_is_not_touched() -> None:
    add(path(), entry())
    con = sqlite3.connect(path())
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.close()
    _refused(run(["stats"]), f"a newer thirtyone (schema {SCHEMA_VERSION + 1}")
    with pytest.raises(RecordError, match="newer"):
        add(path(), entry())


def test_a_damaged_record_is_reported_in_one_line() -> None:
    for n in range(30):
        add(path(), entry(1 + n % 4, decisions=[Decision(1, "draw", "draw", 0.0)] * 50))
    data = bytearray(path().read_bytes())
    data[4096:8192] = b"\xff" * 4096  # the second page, garbled
    path().write_bytes(bytes(data))
    _refused(run(["stats"]), "cannot be read: database disk image is malformed")
    played = run(["play", "--autoplay", "--seed", "3"])
    assert played.exit_code == 0 and "This game was not recorded: " in played.output


def test_a_folder_at_the_path_is_reported() -> None:
    path().mkdir(parents=True)
    _refused(run(["stats"]), "is a folder, not a record of games")


def test_a_data_folder_that_is_a_file_is_named_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    # (It said "[Errno 20] Not a directory: '…'" for stats, and "games cannot be saved" for a
    # review, which saves nothing.)
    blocker = path().parent.parent / "a-file"
    blocker.write_text("mine")
    for folder in (blocker, blocker / "thirtyone"):
        monkeypatch.setenv("THIRTYONE_DATA_DIR", str(folder))
        _refused(run(["stats"]), f"cannot be read: {blocker} is a file, not a folder")
        assert "Errno" not in run(["stats"]).output
        review = run(["review"])
        _refused(review, f"last-game.json cannot be read: {blocker} is a file, not a folder")
        played = run(["play", "--autoplay", "--seed", "3", "--seats", "2", "--lives", "1"])
        [line] = [ln for ln in played.output.splitlines() if "not recorded" in ln]
        assert f"cannot be written: {blocker} is a file, not a folder" in line
    assert blocker.read_text() == "mine"


def test_a_game_is_recorded_once_by_its_key() -> None:
    # A save that ended the game but not its flag, resumed again from a copy, is the same game:
    # recorded once. Games without a key (autoplayed: no save keeps them) each count.
    first = add(path(), entry(seed=7, key="the-game"))
    assert add(path(), entry(seed=7, key="the-game")) == first
    add(path(), entry(seed=7, key="another"))
    add(path(), entry(seed=7))
    add(path(), entry(seed=7))
    assert len(games(path())) == 4


def test_a_games_key_is_its_saves_id_and_its_actions() -> None:
    def finished(game_id: str | None, seed: int = 3) -> GameRecord:
        game = Game(Rules.standard(), seed=seed)
        game.game_id = game_id
        game.play()
        return game_record(game, [], seed=seed)

    assert finished(None).key is None  # (no save keeps it)
    assert finished("a").key == finished("a").key
    assert finished("a").key != finished("b").key  # two games played alike, two saves
    assert finished("a").key != finished("a", seed=4).key
    assert finished("").key is not None  # (a save from before ids were kept)
    game = Game(Rules.standard(), seed=3)
    game.game_id = "a"
    game.play()
    # An autoplayed game that a save keeps (one resumed with --autoplay) is keyed as any game
    # it keeps (ruling 356); one of its own has no id, so no key.
    assert game_record(game, [], autoplay=True, seed=3).key == finished("a").key


def test_the_database_says_what_it_is() -> None:
    add(path(), entry())
    con = sqlite3.connect(path())
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 1
    assert con.execute("PRAGMA application_id").fetchone()[0] == 0x33315243
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()
    if os.name != "nt":
        assert stat.S_IMODE(path().stat().st_mode) == 0o600  # names played with


def test_a_busy_record_gives_up_with_a_message(monkeypatch: pytest.MonkeyPatch) -> None:
    add(path(), entry())
    monkeypatch.setattr("thirtyone.store.record.BUSY_TIMEOUT", 0.05)
    holder = sqlite3.connect(path(), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(RecordError, match="busy"):
            add(path(), entry())
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert len(games(path())) == 1


WRITER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from thirtyone.store import record
    from thirtyone.store.record import Decision, GameRecord, add
    from thirtyone.game.rules import Rules

    record.BUSY_TIMEOUT = 120.0  # a hang guard: the wait for the lock is what is tested

    where, label, wait_for = Path(sys.argv[1]), sys.argv[2], sys.argv[4]
    decisions = int(sys.argv[3])

    def inside():
        print("inside", flush=True)
        deadline = time.monotonic() + 120
        while wait_for != "-" and not Path(wait_for).exists() and time.monotonic() < deadline:
            time.sleep(0.01)

    game = GameRecord(
        "2025-01-31T18:04:00+00:00", "standard", Rules.standard().replace(seats=2).to_dict(),
        ["You", label], 0,
        [0, 1], None, 3, "table", False, 1,
        [Decision(1, "draw", "knock", 0.25) for _ in range(decisions)],
    )
    print("trying", flush=True)
    add(where, game, before_commit=inside)
    print("done", flush=True)
    """
)


def _writer(label: str, decisions: int = 1, wait_for: str = "-") -> subprocess.Popen[str]:
    args = [sys.executable, "-c", WRITER, str(path()), label, str(decisions), wait_for]
    return subprocess.Popen(args, stdout=subprocess.PIPE, text=True, env=dict(os.environ))


def _line(proc: subprocess.Popen[str]) -> str:
    assert proc.stdout is not None
    return proc.stdout.readline().strip()


@pytest.mark.posix_only
def test_a_writer_killed_mid_write_leaves_the_earlier_games_whole() -> None:
    add(path(), entry(1, decisions=[Decision(1, "draw", "draw", 0.0)]))
    add(path(), entry(3, preset="scat", decisions=[Decision(1, "knock")]))
    proc = _writer("killed", decisions=200_000, wait_for=str(path().parent / "never"))
    assert _line(proc) == "trying"
    assert _line(proc) == "inside"  # every insert done, the commit not yet
    wal = path().with_name(path().name + "-wal")
    assert wal.stat().st_size > 1_000_000  # the uncommitted game is on disk, in the log
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)
    con = sqlite3.connect(path())
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
    kept = games(path())
    assert [(g.preset, g.place) for g in kept] == [("standard", 1), ("scat", 3)]
    assert [d.played for g in kept for d in g.decisions] == ["draw", "knock"]
    add(path(), entry(2))
    assert [g.place for g in games(path())] == [1, 3, 2]
    assert run(["stats", "--json"]).exit_code == 0


def test_two_processes_writing_at_once_both_land() -> None:
    add(path(), entry())
    go = path().parent / "go"
    first = _writer("first", decisions=500, wait_for=str(go))
    assert _line(first) == "trying" and _line(first) == "inside"  # it holds the write lock
    second = _writer("second", decisions=500)
    assert _line(second) == "trying"  # it waits for the lock (the busy timeout)
    go.touch()
    assert first.wait(timeout=60) == 0 and second.wait(timeout=60) == 0
    assert _line(first) == "done" and _line(second) == "inside"
    recorded = games(path())
    assert sorted(g.names[-1] for g in recorded) == ["Cara", "first", "second"]
    assert [len(g.decisions) for g in recorded[1:]] == [500, 500]


def test_stats_says_a_best_played_is_the_star_alone() -> None:
    """The record keeps no margins: a decision within them (the review's ≈, agreeing there)
    is not counted as a best played here, and the text says so under the decisions, with one
    definition of agreeing (``record.agrees``) for both (ruling 296). It said "its best played"
    as if it were the review's agreement."""
    decisions = [Decision(1, "draw", "draw", 0.0), Decision(1, "knock", "draw", 0.0)]
    add(path(), entry(1, decisions=decisions))
    data = json.loads(run(["stats", "--json"]).output)["decisions"]["you"]
    assert (data["advised"], data["agreed"]) == (2, 1)  # (the knock, cost 0, is no ★)
    text = " ".join(run(["stats"]).output.split())
    assert (
        "(A best played is the Oracle's ★ alone: thirtyone review also counts an option within "
        "the margins of it (≈), which the record does not keep.)"
    ) in text
    assert record.agrees("knock", "draw", ["knock"]) and not record.agrees("knock", "draw")
