"""``thirtyone review``: a finished game is kept, replayed, and each decision of the person's seat
is set against the Oracle from that seat's own view: the mapping of the actions played to the
Oracle's options, what each cost, the summary, the JSON, the same review for the same seed, and
one-line errors."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from thirtyone import Action, Game, SeatView, TablePolicy
from thirtyone.cli.app import main
from thirtyone.errors import SettingsError, StateError
from thirtyone.game.rules import Rules
from thirtyone.oracle import query as oracle
from thirtyone.oracle.answer import Advice
from thirtyone.store import saves
from thirtyone.store.keeper import Keeper
from thirtyone.study import review as review_module
from thirtyone.study import review_view

ENV = {"COLUMNS": "120", "NO_COLOR": "1"}
# Draw from the stock and put the drawn card down (the 4th card), every turn.
ALWAYS_DRAWS = "d\n4\n" * 400
TINY = ["--deals", "200", "--playouts", "500"]
TABLE = ["--seats", "2", "--lives", "1", "--seed", "5"]
#: The keys of a decision in the JSON.
DECISION_KEYS = {
    "index", "round", "turn", "step", "hand", "top", "drew", "choice", "took", "put_down",
    "best", "best_game", "agreed", "cost_p_safe", "cost_p_win", "cost_points", "label", "label_by",
    "option_labels", "chosen", "note", "advice", "state", "players", "standing",
}  # fmt: skip


def play(data: Path, args: list[str], moves: str = ALWAYS_DRAWS) -> Result:
    r = CliRunner().invoke(
        main,
        ["play", "--no-oracle", "--fast", *args],
        input=moves,
        env={**ENV, "THIRTYONE_DATA_DIR": str(data)},
    )
    assert r.exit_code == 0, r.output
    return r


def review(data: Path, *args: str) -> Result:
    r = CliRunner().invoke(main, ["review", *args], env={**ENV, "THIRTYONE_DATA_DIR": str(data)})
    assert "Traceback" not in r.output
    return r


def header(text: str) -> str:
    """The review table's header, its rows on one line (the cost in p_win is ``win`` over
    ``cost``)."""
    return " ".join(text.split("\n─")[0].splitlines())


def review_json(data: Path, *args: str) -> dict[str, Any]:
    r = review(data, "--json", *TINY, *args)
    assert r.exit_code == 0, r.output
    out: dict[str, Any] = json.loads(r.stdout)
    return out


def your_turns(saved: saves.SavedGame) -> list[dict[str, Any]]:
    """The person's turns in the game, as the game's record tells them."""
    game = saves.replayed(saved, "test")
    return [e.data for e in game.events if e.kind == "turn" and e.data["seat"] == saved.you]


def check_costs(decisions: list[dict[str, Any]]) -> None:
    """Every cost is the best's p_safe minus the chosen's, never below 0 (an option tied with
    the best may be a little safer than it: the best is chosen among them by lives lost, then
    p_win), and 0 when the best was played."""
    for d in decisions:
        options = {o["option"]: o for o in d["advice"]["options"]}
        best, chosen = options[d["best"]], options[d["choice"]]
        assert d["chosen"]["p_safe"] == chosen["p_safe"]
        gap = best["p_safe"] - chosen["p_safe"]
        assert d["cost_p_safe"] == pytest.approx(max(0.0, gap), abs=2e-4)
        if gap < 0:  # only an option tied with the best is safer than it
            assert d["choice"] in d["advice"]["tied"]
        if d["choice"] == d["best"]:
            assert d["cost_p_safe"] == 0 and d["agreed"] is True
        tied = d["choice"] == d["best"] or d["choice"] in d["advice"]["tied"]
        assert d["agreed"] is tied
        assert d["cost_p_win"] is None or d["cost_p_win"] >= 0


# -- the game kept -------------------------------------------------------------------------------


def test_a_finished_game_is_kept_when_the_next_one_replaces_the_save(tmp_path: Path) -> None:
    play(tmp_path, TABLE)
    kept = saves.read(tmp_path / "last-game.json")
    assert kept.over and kept.seed == 5
    assert kept.journal == saves.read(tmp_path / "saved-game.json").journal
    play(tmp_path, ["--seed", "6"], "q\n")  # a new game takes the save's place, and is left
    assert not saves.read(tmp_path / "saved-game.json").over
    assert saves.read(tmp_path / "last-game.json").journal == kept.journal
    assert not list(tmp_path.glob(".saved-game-*.tmp"))


def test_a_game_left_unfinished_is_not_kept(tmp_path: Path) -> None:
    play(tmp_path, TABLE, "d\n4\nq\n")
    assert not (tmp_path / "last-game.json").exists()
    r = review(tmp_path)
    assert r.exit_code == 2 and "no finished game to review" in r.output


def test_a_copy_that_cannot_be_written_is_told_and_the_game_ends_well(tmp_path: Path) -> None:
    (tmp_path / "last-game.json").mkdir()  # a folder where the copy goes
    r = play(tmp_path, TABLE)
    assert "could not be kept" in r.output and "Winner" in r.output
    assert saves.read(tmp_path / "saved-game.json").over


# -- the review of a seat that always draws ------------------------------------------------------


def test_a_seat_that_always_draws_is_reviewed_decision_by_decision(tmp_path: Path) -> None:
    play(tmp_path, TABLE)
    turns = your_turns(saves.read(tmp_path / "last-game.json"))
    assert turns and all(t["action"] == "draw" and t["discard"] == t["drew"] for t in turns)
    out = review_json(tmp_path)
    decisions = out["decisions"]
    assert len(decisions) == 2 * len(turns)  # each turn: the draw, then the put-down
    for n, turn in enumerate(turns):
        start, put = decisions[2 * n], decisions[2 * n + 1]
        assert (start["step"], start["choice"], start["drew"]) == ("start", "draw", None)
        assert (put["step"], put["choice"]) == ("put-down", f"discard:{turn['drew']}")
        assert put["drew"] == turn["drew"] and put["hand"] == start["hand"]
        assert (put["round"], put["turn"]) == (start["round"], start["turn"])
        assert {o["option"] for o in put["advice"]["options"]} == {
            f"discard:{c}" for c in [*put["hand"], turn["drew"]]
        }
        assert "draw" in {o["option"] for o in start["advice"]["options"]}
    for d in decisions:
        assert set(d) == DECISION_KEYS
        assert d["index"] == decisions.index(d) + 1
        assert d["chosen"]["option"] == d["choice"] and d["note"] is None
        # Only the seat's own view: its hand, its own draws, the table's visible play.
        state = d["state"]
        assert state["hand"] == d["hand"] and state["lives"] == [1, 1]
        assert all("drew" not in t for t in state["turns"] if t["seat"] != state["me"])
        assert ("pending" in state) == (d["step"] == "put-down")
    check_costs(decisions)
    assert any(d["agreed"] for d in decisions) and any(not d["agreed"] for d in decisions)


def test_the_summary_adds_up(tmp_path: Path) -> None:
    play(tmp_path, TABLE)
    out = review_json(tmp_path)
    decisions, summary = out["decisions"], out["summary"]
    assert set(out) == {"game", "settings", "labels", "decisions", "summary"}
    assert out["settings"] == {"deals": 200, "playouts": 500, "seed": 5}  # the game's seed
    assert out["game"]["player"] == "You" and out["game"]["over"] is True
    assert out["game"]["winner"] in ("You", "Alice") and out["game"]["place"] in (1, 2)
    assert summary["decisions"] == summary["reviewed"] == len(decisions)
    agreed = sum(d["agreed"] for d in decisions)
    assert summary["agreed"] == agreed
    assert summary["agreement"] == pytest.approx(agreed / len(decisions), abs=1e-4)
    costs = [d["cost_p_safe"] for d in decisions]
    assert summary["cost_p_safe"] == pytest.approx(sum(costs), abs=1e-3)
    # The costliest: those that cost most in p_safe, leaving out the round's best and those
    # within its margins (ruling 363: ≈ counts as agreeing).
    costliest = [decisions[i - 1]["cost_p_safe"] for i in summary["costliest"]]
    against = [d["cost_p_safe"] for d in decisions if not d["agreed"] and d["cost_p_safe"] > 0]
    assert len(costliest) == min(3, len(against))
    assert costliest == sorted(against, reverse=True)[: len(costliest)]
    p_wins = [d["chosen"]["p_win"] for d in decisions]
    assert (summary["cost_p_win"] is None) == any(p is None for p in p_wins)


def test_the_table_in_the_terminal(tmp_path: Path) -> None:
    play(tmp_path, TABLE)
    r = review(tmp_path, *TINY)
    assert r.exit_code == 0, r.output
    head = header(r.output)
    for column in ("#", "round", "turn", "hand", "top", "choice", "best", "cost"):
        assert column in head
    assert "Agreement:" in r.output and "Total cost:" in r.output
    assert "Costliest decisions:" in r.output
    n = len(review_json(tmp_path)["decisions"])
    assert f"You: {n} decisions" in r.output


def test_at_80_columns_every_label_and_figure_is_whole(tmp_path: Path) -> None:
    """The table fits 80 columns with each row's label whole (it was cut to ``inaccur…``) and
    on the row's first line with its figures; only a long option breaks, between words."""
    play(tmp_path, ["--seats", "3", "--lives", "2", "--seed", "5"])
    env = {**ENV, "COLUMNS": "80", "THIRTYONE_DATA_DIR": str(tmp_path)}
    r = CliRunner().invoke(main, ["review", *TINY], env=env)
    assert r.exit_code == 0, r.output
    decisions = review_json(tmp_path)["decisions"]
    table = r.output.split("\n─")[1].split("\n\n")[0].splitlines()[1:]
    assert all(len(line) <= 80 for line in table) and "…" not in r.output
    rows = [line.split() for line in table if re.match(r" ?\d+ ", line)]
    assert [row[0] for row in rows] == [str(i) for i in range(1, len(decisions) + 1)]
    for row, d in zip(rows, decisions, strict=True):
        assert row[-1] == d["label"]
        # (the JSON's fractions are rounded to four places: a tenth of a point may differ)
        assert abs(float(row[-3]) - 100 * d["cost_p_safe"]) < 0.06, row
        assert abs(float(row[-2]) - 100 * d["cost_p_win"]) < 0.06, row
    assert {d["label"] for d in decisions} >= {"best", "inaccuracy"}  # (the longest label too)


def test_at_80_columns_the_costliest_decisions_hang_under_their_numbers(tmp_path: Path) -> None:
    """Each of the costliest decisions wraps under its own first word, not back to the first
    column, and says its figures whole."""
    play(tmp_path, ["--seats", "3", "--lives", "2", "--seed", "5"])
    env = {**ENV, "COLUMNS": "80", "THIRTYONE_DATA_DIR": str(tmp_path)}
    r = CliRunner().invoke(main, ["review", *TINY], env=env)
    assert r.exit_code == 0, r.output
    listed = r.output.split("Costliest decisions:\n")[1].splitlines()
    entry = re.compile(r"  \d\. round ")
    assert listed and entry.match(listed[0]), r.output
    # The entries and their later lines, to the first line that is neither.
    block = []
    for line in listed:
        if not (entry.match(line) or line.startswith(" " * 5)):
            break
        block.append(line)
    entries = [line for line in block if entry.match(line)]
    # A line after an entry's first is under its first word (it was at the first column).
    assert len(block) > len(entries), r.output  # (some entry is longer than a line)
    assert all(len(line) <= 80 for line in block)
    assert "\n".join(listed[len(block) :]).count(" against ") == 0
    joined = " ".join(line.strip() for line in block)
    figures = re.findall(r"safe \d+\.\d% against \d+\.\d%, cost \d+\.\d points", joined)
    assert len(figures) == len(entries)


def test_a_decisions_cost_is_one_figure_in_the_table_and_the_costliest_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The costliest decisions say the cost their row says: the cost, rounded (the list had
    given the difference of the two figures as shown: 53.0% against 1.5% said "cost 51.5"
    beside a row's 51.6, the cost being 51.555 points)."""
    play(tmp_path, ["--seats", "3", "--lives", "2", "--seed", "5"])
    monkeypatch.setenv("THIRTYONE_DATA_DIR", str(tmp_path))
    replay = review_module.decisions(*review_module.load(None))
    reviewed = review_module.review(replay, review_module.Settings(deals=200, playouts=500))
    r = next(r for r in reviewed.reviewed if r.best is not None and r.chosen is not None)
    best = dataclasses.replace(r.best, p_safe=0.53044)
    chosen = dataclasses.replace(r.chosen, p_safe=0.01494)
    odd = types.SimpleNamespace(
        decision=r.decision,
        best=best,
        chosen=chosen,
        cost_safe=0.51555,
        cost_win=None,
        cost_points=None,
    )
    line = review_view._costly_text(odd)  # type: ignore[arg-type]
    assert "safe 53.0% against 1.5%, cost 51.6 points" in line, line
    assert review_view.points(0.51555) == "51.6"


def test_the_same_seed_gives_the_same_review(tmp_path: Path) -> None:
    play(tmp_path, TABLE)
    first = review_json(tmp_path, "--seed", "9")
    assert review_json(tmp_path, "--seed", "9") == first
    other = review_json(tmp_path, "--seed", "10")
    assert other["settings"]["seed"] == 10
    figures = [[o["p_safe"] for o in d["advice"]["options"]] for d in first["decisions"]]
    assert figures != [[o["p_safe"] for o in d["advice"]["options"]] for d in other["decisions"]]


def test_a_save_with_a_name_of_millions_of_characters_is_reviewed_with_it_cropped(
    tmp_path: Path,
) -> None:
    """A 15 MB save (just under the largest read) whose name has 15 million characters: the
    review answers, the name cropped to 30 columns (29 characters and …) before anything lays it
    out.
    A process of its own, with a generous hang guard (it took minutes when the name was not
    cropped)."""
    play(tmp_path, TABLE)
    data = json.loads((tmp_path / "last-game.json").read_text())
    data["names"][0] = "N" * 15_000_000
    huge = tmp_path / "huge.json"
    huge.write_text(json.dumps(data))
    assert huge.stat().st_size < saves.MAX_BYTES
    env = {**os.environ, **ENV, "THIRTYONE_DATA_DIR": str(tmp_path)}

    def review_huge(*extra: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "thirtyone", "review", str(huge), *TINY, *extra],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr[-500:]
        assert "N" * 30 not in done.stdout
        return done.stdout

    cropped = "N" * 29 + "…"
    assert f"{cropped}: " in review_huge()  # the summary's line
    game = json.loads(review_huge("--json"))["game"]
    assert game["player"] == cropped and game["names"][0] == cropped


def test_an_unfinished_save_is_reviewed_up_to_where_it_stands(tmp_path: Path) -> None:
    play(tmp_path, TABLE, "d\n4\nd\nq\n")  # two draws, the second left at the put-down
    out = review_json(tmp_path, str(tmp_path / "saved-game.json"))
    assert [d["choice"][:8] for d in out["decisions"]] == ["draw", "discard:", "draw"]
    assert out["game"]["over"] is False and out["game"]["winner"] is None
    text = review(tmp_path, *TINY, str(tmp_path / "saved-game.json")).output
    assert "unfinished, reviewed up to round 1" in text


def test_a_bare_save_name_is_found_in_the_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`thirtyone review saved-game.json` from another folder reviews the save of that name in
    the data folder (where play keeps it and its numbered backups), as docs/cli.md shows; a
    file of that name in the current folder comes first; a path with a folder is as given."""
    data = tmp_path / "data"
    play(data, TABLE, "d\n4\nq\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    out = review_json(data, "saved-game.json")
    assert [d["choice"][:8] for d in out["decisions"]] == ["draw", "discard:"]
    (elsewhere / "saved-game.json").write_text("hello")
    assert "not a thirtyone save" in one_error(review(data, "saved-game.json"))
    assert "no saved game at" in one_error(review(data, "./nothing/saved-game.json"))


# -- takes, knocks and other put-downs -----------------------------------------------------------


class Mixed:
    """Turn by turn: take and put down the first card held; draw and put down the drawn card;
    knock when it may (else draw and put the first card down). Notes what it played."""

    def __init__(self) -> None:
        self.n = 0
        self.played: list[tuple[str, str | None, str | None]] = []
        self._kind = ""
        self._first = ""

    def decide(self, view: SeatView) -> Action:
        if view.drawn is not None:  # the put-down of the turn started below
            new = view.drawn[0]
            if view.drawn[1] == "pile":
                self.played.append(("take", new, self._first))
                return Action("put", self._first)
            put = new if self._kind == "draw" else self._first
            self.played.append(("draw", new, put))
            return Action("put", put)
        legal = {a.kind for a in view.pending.legal}
        kind = ("take", "draw", "knock")[self.n % 3]
        self.n += 1
        self._kind, self._first = kind, view.hand[0]
        if kind == "knock" and "knock" in legal:
            self.played.append(("knock", None, None))
            return Action("knock")
        if kind == "take" and "take" in legal:
            return Action("take")
        return Action("draw")


def test_takes_knocks_and_put_downs_map_to_the_oracles_options(tmp_path: Path) -> None:
    seat = Mixed()
    names = ["You", "Alice", "Ben"]
    rules = Rules.from_spec({"preset": "standard", "seats": 3, "lives": 2})
    game = Game(rules, [seat, TablePolicy(), TablePolicy()], seed=21, names=names)
    game.play()
    journal = [saves.entry(a) for a in game.journal]
    saved = saves.SavedGame(rules, 21, names, journal=journal, over=True)
    path = tmp_path / "mixed.json"
    saves.write(saved, path)
    out = review_json(tmp_path, str(path))
    expected: list[tuple[str, str | None, str | None, str | None]] = []
    for kind, card, put in seat.played:
        if kind == "knock":
            expected.append(("knock", None, None, None))
        elif kind == "take":  # the take, then the put-down after it: two decisions, as the
            # record of games counts them
            expected += [("take", card, put, None), (f"discard:{put}", card, put, None)]
        else:
            expected += [("draw", None, None, None), (f"discard:{put}", None, put, card)]
    got = [(d["choice"], d["took"], d["put_down"], d["drew"]) for d in out["decisions"]]
    assert got == expected
    assert {"take", "knock", "draw"} <= {d["choice"] for d in out["decisions"]}
    for d in out["decisions"]:
        if d["choice"] == "take":  # the take, at its figures; the card put down is said
            take = next(o for o in d["advice"]["options"] if o["option"] == "take")
            assert d["chosen"]["p_safe"] == take["p_safe"] and take["card"] == d["took"]
            assert d["chosen"]["discard"] == take["discard"]
        if d["step"] == "put-down" and d["took"] is not None:  # the card taken may not go back
            options = {o["option"] for o in d["advice"]["options"]}
            assert options == {f"discard:{c}" for c in d["hand"]}
            assert d["state"]["pending"] == {"draw": "pile"}
    check_costs(out["decisions"])


# -- errors --------------------------------------------------------------------------------------


def one_error(r: Result) -> str:
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.output
    return lines[0]


def test_errors_are_one_line(tmp_path: Path) -> None:
    assert "thirtyone review SAVE" in one_error(review(tmp_path))
    assert "no saved game at" in one_error(review(tmp_path, str(tmp_path / "none.json")))
    assert "is a folder" in one_error(review(tmp_path, str(tmp_path)))
    (tmp_path / "notes.txt").write_text("hello")
    assert "not a thirtyone save" in one_error(review(tmp_path, str(tmp_path / "notes.txt")))
    (tmp_path / "other.json").write_text('{"format": "something else"}')
    assert "not a thirtyone save" in one_error(review(tmp_path, str(tmp_path / "other.json")))
    (tmp_path / "cut.json").write_text('{"format": "thirtyone-save", "version": 1, "rul')
    assert "damaged" in one_error(review(tmp_path, str(tmp_path / "cut.json")))
    bad = saves.SavedGame(Rules(), 5, ["You", "A", "B", "C"], journal=[["put", "AH"]])
    saves.write(bad, tmp_path / "bad.json")
    assert "cannot be replayed" in one_error(review(tmp_path, str(tmp_path / "bad.json")))
    assert "deals" in one_error(review(tmp_path, "--deals", "0"))
    assert "playouts" in one_error(review(tmp_path, "--playouts", "100000000"))


def test_a_game_without_decisions_of_the_seat_is_refused(tmp_path: Path) -> None:
    # Saved before anybody played: the journal is empty.
    saves.write(saves.SavedGame(Rules(), 5, ["You", "A", "B", "C"]), tmp_path / "new.json")
    line = one_error(review(tmp_path, str(tmp_path / "new.json")))
    assert "no decisions of You" in line


# -- the game-level figures, and a position without advice ---------------------------------------


def test_the_cost_in_p_win_is_against_best_game(tmp_path: Path) -> None:
    """A game's views carry every seat's lives, so each answer has p_win: the cost in p_win is
    best_game's minus the choice's, never below 0 (best_game has the highest)."""
    play(tmp_path, TABLE)
    out = review_json(tmp_path)
    total = 0.0
    for d in out["decisions"]:
        wins = {o["option"]: o["p_win"] for o in d["advice"]["options"]}
        assert d["best_game"] == max(wins, key=lambda k: wins[k])
        expected = wins[d["best_game"]] - wins[d["choice"]]
        assert d["cost_p_win"] == pytest.approx(expected, abs=2e-4) and d["cost_p_win"] >= 0
        assert d["chosen"]["p_win"] == pytest.approx(wins[d["choice"]], abs=1e-4)
        total += d["cost_p_win"]
    assert out["summary"]["cost_p_win"] == pytest.approx(total, abs=1e-3)
    text = review(tmp_path, *TINY).output
    win, costs = text.split("\n─")[0].splitlines()  # ("win" over the second "cost")
    assert win.rstrip().endswith("win") and "cost" in costs[len(win.rstrip()) - 4 :]
    assert "of p_win: not given" not in text


def test_a_position_the_oracle_refuses_is_said_and_not_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    play(tmp_path, TABLE)
    calls: list[int] = []

    def refuses_the_first(*args: Any, **kw: Any) -> Advice:
        calls.append(1)
        if len(calls) == 1:
            raise StateError("a made-up refusal")
        return oracle.advise(*args, **kw)

    monkeypatch.setattr(review_module, "advise", refuses_the_first)
    out = review_json(tmp_path)
    first = out["decisions"][0]
    assert first["note"] == "the Oracle has no advice here: a made-up refusal"
    assert first["advice"] is None and first["cost_p_safe"] is None and first["agreed"] is None
    assert out["summary"]["reviewed"] == out["summary"]["decisions"] - 1
    calls.clear()
    text = review(tmp_path, *TINY).output
    assert "made-up refusal" in text and "Traceback" not in text


# -- the labels (docs/review.md) ------------------------------------------------------------------

#: The labels by the cost in points of p_win, as docs/review.md gives them.
LABELS = [("good", 0.0), ("inaccuracy", 0.02), ("mistake", 0.05), ("blunder", 0.10)]


def expected_label(cost: float, within: bool) -> str:
    if within:
        return "best"
    return [name for name, least in LABELS if cost >= least][-1]


def near_an_edge(cost: float, margins: float) -> bool:
    """Figures are rounded to 4 decimals in JSON: a cost this close to a threshold or to the
    margins could fall either side of it."""
    return any(abs(cost - edge) < 3e-4 for edge in (margins, 0.02, 0.05, 0.10))


def test_each_decision_is_labelled_by_its_cost_in_p_win(tmp_path: Path) -> None:
    play(tmp_path, TABLE)
    out = review_json(tmp_path)
    assert out["labels"] == [
        {"label": "best", "from": None},
        *({"label": name, "from": least} for name, least in LABELS),
    ]
    checked = 0
    for d in out["decisions"]:
        options = {o["option"]: o for o in d["advice"]["options"]}
        top = options[d["best_game"]]
        assert set(d["option_labels"]) == set(options) and d["label_by"] == "p_win"
        for name, o in options.items():
            cost = top["p_win"] - o["p_win"]
            margins = top["p_win_margin"] + o["p_win_margin"]
            if near_an_edge(cost, margins):
                continue
            within = name == d["best_game"] or cost <= margins
            assert d["option_labels"][name] == expected_label(cost, within), (d["index"], name)
            checked += 1
        assert d["label"] == d["option_labels"][d["choice"]]
    assert checked >= len(out["decisions"])
    labels = [d["label"] for d in out["decisions"]]
    assert out["summary"]["labels"] == {
        name: labels.count(name) for name in ("best", "good", "inaccuracy", "mistake", "blunder")
    }
    text = review(tmp_path, *TINY).output
    assert "label" in header(text)
    said = ", ".join(
        f"{labels.count(n)} {n if labels.count(n) == 1 else plural}"
        for n, plural in (
            ("best", "best"),
            ("good", "good"),
            ("inaccuracy", "inaccuracies"),
            ("mistake", "mistakes"),
            ("blunder", "blunders"),
        )
    )
    assert f"Labels: {said} (by the cost in p_win" in " ".join(text.split())


def test_the_agreement_and_the_labels_say_which_best_each_counts(tmp_path: Path) -> None:
    """The agreement counts the round's best (the ★ of a turn in play) and the options tied
    with it; the label ``best`` the game's best or one within the margins of it: two counts,
    each line saying which best it counts (both said "the Oracle's best", 26 and 28 of 30)."""
    play(tmp_path, TABLE)
    out = review_json(tmp_path)
    decisions, summary = out["decisions"], out["summary"]
    assert {d["label_by"] for d in decisions} == {"p_win"}
    tied = [d["advice"]["tied"] for d in decisions]
    round_best = sum(d["choice"] in (d["best"], *t) for d, t in zip(decisions, tied, strict=True))
    game_best = sum(d["label"] == "best" for d in decisions)
    assert round_best != game_best  # (the game where the two differ, as the player saw)
    text = " ".join(review(tmp_path, *TINY).output.split())
    n = len(decisions)
    assert f"Agreement: {round_best} of {n} (" in text
    agreement = text.split("Agreement: ")[1].split(". ")[0]
    assert "were the round's best (★: " in agreement and "game" not in agreement
    labels = text.split("Labels: ")[1].split(". ")[0]
    assert labels.startswith(f"{game_best} best, ")
    assert "best is the game's best or within the margins" in labels
    assert summary["agreed"] == round_best and summary["labels"]["best"] == game_best


def test_a_seed_out_of_the_engines_bounds_is_refused_before_any_decision() -> None:
    """Each decision's seed is derived from the review's: a seed no command takes (-1, or one
    past 2**64 - 1) was reviewed without a word."""
    for seed in (-1, 2**64):
        with pytest.raises(SettingsError, match=r"seed must be a whole number from 0 to 18,"):
            review_module.Settings(200, 500, seed).check()
    review_module.Settings(200, 500, 2**64 - 1).check()


def test_without_the_chance_of_winning_a_label_measures_p_safe() -> None:
    """A state without lives has no game-level figures: the best and the options tied with it
    are ``best``, the others are labelled by the cost in p_safe."""
    state = json.loads((Path(__file__).parent / "data" / "example_state.json").read_text())
    del state["lives"]
    advice = oracle.advise(state, deals=300, playouts=1000, seed=2, max_time=None)
    assert review_module.measure(advice) == "p_safe"
    tied = {o.option for o in advice.tied} | {advice.best.option}
    for o in advice.options:
        cost = advice.best.p_safe - o.p_safe
        assert review_module.label_of(advice, o) == expected_label(cost, o.option in tied)


@pytest.mark.parametrize(
    ("cost", "label"),
    [(0.0, "good"), (0.0199, "good"), (0.02, "inaccuracy"), (0.0499, "inaccuracy"),
     (0.05, "mistake"), (0.0999, "mistake"), (0.10, "blunder"), (0.8, "blunder")],
)  # fmt: skip
def test_the_thresholds(cost: float, label: str) -> None:
    assert review_module.label(cost, tied=False) == label
    assert review_module.label(cost, tied=True) == "best"


# -- a 31 kept hidden ----------------------------------------------------------------------------


class Hider(TablePolicy):
    """The table's rule, but a 31 made is kept hidden wherever the table allows it."""

    def decide(self, view: SeatView) -> Action:
        action = super().decide(view)
        if action.kind == "put" and Action("hide", action.card) in view.pending.legal:
            return Action("hide", action.card)
        return action


def test_a_31_kept_hidden_is_reviewed_as_hidden_not_as_the_oracles_show(tmp_path: Path) -> None:
    # (docs/cli.md: the record keeps `hide:XX` for a 31 kept hidden, and the review counts the
    # same decisions with the same choices. The Oracle weighs showing a 31, not hiding it: the
    # review said "put down 8D … best", cost 0, agreed.)
    rules = Rules.preset("scat").replace(seats=2)
    keeper = Keeper(0)
    game = Game(rules, [Hider(), TablePolicy()], seed=36, names=["You", "Ann"])
    game.add_listener(keeper)
    game.play()
    hidden = [a.card for a in game.journal if a.kind == "hide"]
    assert hidden, "the seed makes a 31 to hide"
    saved = saves.SavedGame(
        rules, 36, ["You", "Ann"], journal=[saves.entry(a) for a in game.journal], over=True
    )
    saves.write(saved, tmp_path / "hid.json")
    out = review_json(tmp_path, str(tmp_path / "hid.json"))
    assert [d["choice"] for d in out["decisions"]] == [d.played for d in keeper.decisions()]
    hid = [d for d in out["decisions"] if d["choice"].startswith("hide:")]
    assert [d["choice"] for d in hid] == [f"hide:{card}" for card in hidden]
    for d in hid:
        assert d["best"] != d["choice"] and d["agreed"] is False
        assert (d["chosen"], d["cost_p_safe"], d["cost_p_win"], d["label"]) == (None,) * 4
        assert "no figures for keeping a 31 hidden" in d["note"]
    summary = out["summary"]
    assert summary["advised"] == summary["reviewed"] + len(hid)
    assert summary["agreement"] == pytest.approx(summary["agreed"] / summary["advised"], abs=1e-4)
    text = review(tmp_path, str(tmp_path / "hid.json"), *TINY).output
    row = next(line for line in text.splitlines() if f"hide 31, put down {hidden[0]}" in line)
    assert not row.rstrip().endswith("best")  # (no label: no figures)
    assert "no figures for keeping a 31 hidden" in text


# -- ranked placing ------------------------------------------------------------------------------


def test_under_ranked_placing_the_game_cost_is_in_expected_points(tmp_path: Path) -> None:
    # (docs/review.md: under ranked placing the game-level figure is expected points, not a
    # chance. The review called them p_win and showed 0.0247 points as "2.5" of p_win.)
    play(tmp_path, [*TABLE, "--rule", "placing=ranked"])
    out = review_json(tmp_path)
    counted = [d for d in out["decisions"] if d["chosen"] is not None]
    assert counted
    for d in counted:
        options = {o["option"]: o for o in d["advice"]["options"]}
        chosen, top = options[d["choice"]], options[d["best_game"]]
        assert "points" in chosen and "p_win" not in chosen  # (the Oracle's own words)
        assert d["chosen"]["p_win"] is None and d["chosen"]["points"] == chosen["points"]
        assert d["cost_p_win"] is None
        assert d["cost_points"] == pytest.approx(
            max(0.0, top["points"] - chosen["points"]), abs=2e-4
        )
    assert out["summary"]["cost_p_win"] is None
    total = sum(d["cost_points"] for d in counted)
    assert out["summary"]["cost_points"] == pytest.approx(total, abs=1e-3)
    text = review(tmp_path, *TINY).output
    assert header(text).split()[0] == "points" and "win" not in header(text)  # (over "cost")
    assert "p_win" not in text.replace("by the cost in p_safe", "")
    assert f"in expected points (ranked placing): {out['summary']['cost_points']:.2f}." in (
        " ".join(text.split())
    )


# -- narrow terminals ----------------------------------------------------------------------------


@pytest.mark.parametrize("columns", [40, 50, 60])
def test_a_narrow_terminal_keeps_the_choice_the_best_and_the_label(
    tmp_path: Path, columns: int
) -> None:
    # (At 40 columns the hand, the choice and the best were left out, keeping the round and the
    # turn, and labels were cut to "inaccurac" with no mark; at 60 the label column went.)
    play(tmp_path, ["--seats", "3", "--lives", "2", "--seed", "5"])
    env = {**ENV, "COLUMNS": str(columns), "THIRTYONE_DATA_DIR": str(tmp_path)}
    r = CliRunner().invoke(main, ["review", *TINY], env=env)
    assert r.exit_code == 0, r.output
    assert all(len(line) <= columns for line in r.output.splitlines())
    heads = header(r.output).split()
    assert {"choice", "best", "cost", "label"} <= set(heads), heads
    decisions = review_json(tmp_path)["decisions"]
    table = r.output.split("\n─")[1].split("\n\n")[0].splitlines()[1:]
    rows = [line.split() for line in table if re.match(r" ?\d+ ", line)]
    assert len(rows) == len(decisions)
    for row, d in zip(rows, decisions, strict=True):
        shown = row[-1]  # the label, whole or cut with a mark
        assert shown == d["label"] or (shown.endswith("…") and d["label"].startswith(shown[:-1]))
    assert {d["label"] for d in decisions} >= {"inaccuracy"}
    if columns >= 50:  # (room for every label whole)
        assert "…" not in r.output


def test_each_seats_lives_are_in_the_tables_words(tmp_path: Path) -> None:
    """Ruling 288: a decision's ``standing`` gives each seat's lives as the table says them, by
    the state's seat: under Gin lives the letters taken (G, I, N; ``no letters`` for none), at the
    ride-the-bus table the stops of the bus (back, middle, front, on the stairs). The review
    page showed the count of lives left ("Alice 1" for a player who had taken G and I)."""
    letters = {3: "no letters", 2: "G", 1: "G I"}
    play(tmp_path, ["--rules", "gin-lives", "--seats", "2", "--seed", "3"])
    decisions = review_json(tmp_path)["decisions"]
    assert {d["round"] for d in decisions} != {1}  # letters were lost on the way
    for d in decisions:
        assert d["standing"] == [letters[n] for n in d["state"]["lives"]]
    assert any(s != "no letters" for d in decisions for s in d["standing"])
    bus = ["on the stairs", "front of the bus", "middle of the bus", "back of the bus"]
    play(tmp_path, ["--rules", "ride-the-bus", "--seats", "3", "--seed", "21"])
    decisions = review_json(tmp_path)["decisions"]
    for d in decisions:
        assert d["standing"] == [bus[n] for n in d["state"]["lives"]]
    assert decisions[0]["standing"] == ["back of the bus"] * 3


def test_the_agreement_says_that_stats_counts_the_star_alone(tmp_path: Path) -> None:
    """The review counts an option within the margins of the best (≈) as agreeing, which
    ``thirtyone stats`` cannot (the record keeps no margins): the agreement line says so
    (ruling 296)."""
    play(tmp_path, TABLE)
    text = " ".join(review(tmp_path, *TINY).output.split())
    assert "thirtyone stats counts the ★ alone: the record keeps no margins." in text


# -- the costliest decisions, the terminal's and the page's --------------------------------------


def page_costliest(decisions: list[dict[str, Any]]) -> list[int]:
    """The review page's costliest decisions as docs/review.md gives them: the five that cost
    most in the measure of their label, the best ones left out (the first played first among
    equal costs), by their indexes."""

    def cost(d: dict[str, Any]) -> float:
        return float(d["cost_p_win"] if d["label_by"] == "p_win" else d["cost_p_safe"])

    costly = [d for d in decisions if d["label"] not in (None, "best") and cost(d) > 0]
    return [d["index"] for d in sorted(costly, key=lambda d: (-cost(d), d["index"]))][:5]


def test_the_terminal_and_the_page_list_the_same_costliest_decisions(tmp_path: Path) -> None:
    """Ruling 356, the reviewer's game: Scat, three seats, one life, ranked placing, seed 11,
    every decision the Oracle's best (Enter). Under ranked placing a label measures p_safe, so
    the terminal's three costliest by p_safe (the JSON's ``costliest``) are the first three of
    the page's five; a decision within the margins of the round's best (≈, labelled best,
    counted as agreeing) is in neither list. The terminal listed "knock, the best was draw …
    cost 0.4 points" where the page said "None: every decision was the Oracle's best or within
    its margins"."""
    args = ["--seats", "3", "--lives", "1", "--seed", "11", "--rules", "scat"]
    args += ["--rule", "placing=ranked", "--oracle-deals", "2000", "--oracle-playouts", "5000"]
    env = {**ENV, "THIRTYONE_DATA_DIR": str(tmp_path)}
    r = CliRunner().invoke(main, ["play", "--fast", *args], input="\n" * 400, env=env)
    assert r.exit_code == 0 and "played the Oracle's best in" in r.output, r.output
    out = review_json(tmp_path)
    decisions = out["decisions"]
    counted = [d for d in decisions if d["chosen"] is not None]
    assert {d["label_by"] for d in counted} == {"p_safe"}  # (ranked: no chance of winning)
    within = [d for d in counted if d["agreed"] and d["cost_p_safe"] > 0]
    assert within, "(a game without a decision tied with the best at a cost tests nothing)"
    assert all(d["label"] == "best" for d in within)
    page = page_costliest(decisions)
    assert out["summary"]["costliest"] == page[:3]
    assert not set(out["summary"]["costliest"]) & {d["index"] for d in within}
    text = " ".join(review(tmp_path, *TINY).output.split())
    listed = re.findall(r"\d\. round (\d+), turn (\d+): ", text.split("Costliest decisions:")[1])
    where = [(d["round"], d["turn"]) for d in decisions]
    assert [(int(a), int(b)) for a, b in listed] == [where[i - 1] for i in page[:3]]
    if not page:  # (the reviewer's game: every decision best or within the margins)
        # The total still counts the decisions tied with the best (their costs are above 0,
        # asserted above), and the line says what it is made of (ruling 365).
        assert (
            "Costliest decisions: none: every decision the Oracle gave figures for was the "
            "round's best or within its margins, so the total cost above is made of "
            "differences within them." in text
        )
        assert "Total cost: 0.0 " not in text


# -- a review without the Oracle's figures --------------------------------------------------------


def test_a_review_whose_only_decision_was_the_blind_call(tmp_path: Path) -> None:
    """Ruling 357: two seats, the blind showdown allowed, seed 5; you call it at the first
    prompt (before anybody looks: you were dealt QC TC JS) and stop. The Oracle gave no figures
    for any decision, and the summary says so in one sentence: no total cost of "0.0 points of
    p_safe", no p_win "not given by this Oracle" (it gives p_win at two seats), no labels line
    of zeros "by the cost in p_win". The row's hand is unseen, not the cards dealt."""
    play(tmp_path, ["--seats", "2", "--rule", "first_turn_knock=blind", "--seed", "5"], "b\n")
    out = review_json(tmp_path, "saved-game.json")
    (d,) = out["decisions"]
    assert d["choice"] == "blind" and d["advice"] is None and d["label"] is None
    summary = out["summary"]
    assert summary["reviewed"] == summary["advised"] == 0 and summary["costliest"] == []
    assert summary["cost_p_safe"] is None and summary["cost_p_win"] is None
    r = review(tmp_path, "saved-game.json", *TINY)
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    assert "No cost and no labels: the Oracle gave no figures for any of your decisions." in text
    for unsaid in ("Total cost", "p_win", "p_safe", "Labels:", "Agreement:", "Costliest"):
        assert unsaid not in text, unsaid
    (row,) = [line for line in r.output.splitlines() if line.split()[:1] == ["1"]]
    assert row.split()[:7] == ["1", "1", "1", "unseen", d["top"], "blind", "showdown"], row
    assert not any(card in r.output for card in d["hand"])  # (the cards nobody had seen)
    assert "Round 1, turn 1: the Oracle does not answer the blind showdown." in text
