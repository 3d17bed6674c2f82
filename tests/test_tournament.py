"""``thirtyone tournament``: seats rotated over the games, the same results for the same seed
whatever the worker processes, the counts, the JSON, every number the user types bounded, and
``--read-as`` (every Oracle player reads every opponent by one model)."""

from __future__ import annotations

import io
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from thirtyone import OraclePlayer, TablePolicy
from thirtyone import statistics as stats
from thirtyone.cli.app import main
from thirtyone.errors import SettingsError
from thirtyone.oracle import player as oracle_player
from thirtyone.study import tournament, tournament_report
from thirtyone.study.backend.progress import Progress
from thirtyone.study.tournament import Settings, parse_kind, parse_players, seat_of

TINY = ["--deals", "50", "--playouts", "200"]
#: The committed 20,000-game run (docs/cluster.md), whose JSON a rerun must give byte for byte.
RUN_20K = Path(__file__).parents[1] / "docs" / "tournament-20k.json"


def invoke(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, ["tournament", *args])
    assert "Traceback" not in r.output
    return r.exit_code, r.stdout, r.stderr


def test_seats_rotate_over_the_games() -> None:
    # Game g: player i at seat (i + g) mod n; over n games each player sits at every seat once.
    assert [seat_of(0, g, 4) for g in range(5)] == [0, 1, 2, 3, 0]
    assert [seat_of(i, 1, 3) for i in range(3)] == [1, 2, 0]
    settings = Settings(players=("oracle", "table:20", "table"), games=3, deals=50, playouts=200)
    for g in range(3):
        seen: list[object] = []
        for i in range(3):
            seen.append(settings.player(i, g))
        assert isinstance(seen[0], OraclePlayer)
        assert isinstance(seen[1], TablePolicy) and seen[1].knock_at == 20
        assert isinstance(seen[2], TablePolicy) and seen[2].knock_at == 27


def test_the_rotation_is_played(monkeypatch: pytest.MonkeyPatch) -> None:
    seats: list[list[str]] = []
    real = tournament.Game

    def spy(rules: object, players: list[object], **kw: object) -> object:
        seats.append(list(kw["names"]))  # type: ignore[call-overload]
        knocks = [getattr(p, "knock_at", None) for p in players]
        assert knocks == [{"table:20": 20, "table": 27, "table:25": 25}[n[:-3]] for n in seats[-1]]
        return real(rules, players, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(tournament, "Game", spy)
    tournament.run(Settings(players=("table:20", "table", "table:25"), games=3))
    assert seats == [
        ["table:20 #1", "table #2", "table:25 #3"],
        ["table:25 #3", "table:20 #1", "table #2"],
        ["table #2", "table:25 #3", "table:20 #1"],
    ]


def test_counts_add_up() -> None:
    settings = Settings(players=("oracle", "table", "table"), games=6, deals=50, playouts=200)
    tallies = tournament.run(settings)
    assert [t.games for t in tallies] == [6, 6, 6]
    assert sum(t.wins for t in tallies) == 6  # one winner a game
    assert sum(t.places for t in tallies) == 6 * (1 + 2 + 3)
    for t in tallies:
        assert 0 <= t.caught <= t.knocks and t.rounds > 0
        assert t.lives_per_round is not None and 0 <= t.lives_per_round <= 2


def test_same_seed_same_results_with_one_or_two_jobs() -> None:
    args = ["--games", "8", "--players", "oracle,table,expert", *TINY, "--seed", "5", "--json"]
    code1, out1, err1 = invoke(*args, "--jobs", "1")
    code2, out2, _ = invoke(*args, "--jobs", "2")
    assert code1 == code2 == 0
    one, two = json.loads(out1), json.loads(out2)
    assert one["players"] == two["players"]
    assert one["settings"]["jobs"] == 1 and two["settings"]["jobs"] == 2
    assert "games 8/8" in err1  # the progress line, on stderr
    _, other, _ = invoke(*args[:-3], "--seed", "6", "--json", "--jobs", "1")
    assert json.loads(other)["players"] != one["players"]


def test_json_shape_and_strictness() -> None:
    code, out, _ = invoke("--games", "4", "--players", "table,table:31", "--json", "--jobs", "1")
    assert code == 0

    def refuse(name: str) -> None:
        raise AssertionError(f"not strict JSON: {name}")

    data = json.loads(out, parse_constant=refuse)
    assert set(data) == {"players", "settings"}
    assert data["settings"]["players"] == ["table", "table:31"]
    assert data["settings"]["games"] == 4
    rows = data["players"]
    assert [r["player"] for r in rows] == ["table", "table:31"]
    for r in rows:
        assert r["games"] == 4 and 0 <= r["wins"] <= 4
        assert r["win_rate"] == r["wins"] / 4
        lo, hi = r["ci"]
        assert 0 <= lo <= r["win_rate"] <= hi <= 1
        assert 1 <= r["mean_place"] <= 2
    # table:31 never knocks (no hand beats 31): no knocks, so no caught rate (null, not NaN).
    assert rows[1]["knocks"] == 0 and rows[1]["caught_rate"] is None


def test_the_table() -> None:
    code, out, _ = invoke("--games", "2", "--players", "table,table:20", "--jobs", "1")
    assert code == 0
    assert "95% CI" in out and "table:20 #2" in out and " place " in out


def head_of(report: str) -> str:
    """The settings a report opens with, its lines (wrapped at 80 columns) joined again."""
    return " ".join(report.split("\n\n")[0].splitlines())


def test_the_table_fits_80_columns() -> None:
    """The table was 89 columns wide whatever the players, and its header 89 with one budget:
    at 80 columns every line wrapped in two. Each line now fits, with the figures whole."""
    players = "oracle-game@expert,expert@table,expert,noisy"
    args = ("--games", "2", "--players", players, "--deals", "20", "--playouts", "40")
    code, out, _ = invoke(*args, "--read-as", "person", "--jobs", "1")
    assert code == 0, out
    lines = out.splitlines()
    assert max(map(len, lines)) <= 80, [len(line) for line in lines]
    head = head_of(out)
    assert "oracle at 20 deals / 40 playouts; expert at 300 deals / 1,000 playouts; " in head
    assert head.endswith("opponents read as person by those without @; seed 1"), head
    table = out.split("\n\n")[1].splitlines()
    assert table[0].split() == [
        *("player", "wins", "win", "rate", "(95%", "CI)"),
        *("place", "lives/round", "knocks", "caught"),
    ]
    assert [row.split()[0] for row in table[1:]] == players.split(",")
    for row in table[1:]:
        wins, rate, ci = row.split()[2:5]
        assert 0 <= int(wins) <= 2 and rate == f"{int(wins) / 2:.1%}"
        low, high = (float(x) for x in ci.strip("()").split("\u2013"))
        assert low <= 100 * int(wins) / 2 <= high


@pytest.mark.parametrize(
    ("players", "said"),
    [
        ("table,table:20,noisy", []),
        ("table,table,expert@table", ["expert at 300 deals / 1,000 playouts"]),
        ("oracle-game@person,table", ["oracle at 50 deals / 200 playouts"]),
        (
            "oracle,expert",
            ["oracle at 50 deals / 200 playouts", "expert at 300 deals / 1,000 playouts"],
        ),
    ],
)
def test_the_header_gives_a_budget_only_for_players_who_ask_the_oracle(
    players: str, said: list[str]
) -> None:
    settings = Settings(players=parse_players(players), games=1, deals=50, playouts=200)
    head = head_of(tournament_report.report(settings, []))
    assert tournament_report.budgets(settings) == said
    assert [part for part in head.split("; ") if " deals / " in part] == said
    assert ("deals" in head) == bool(said)


def test_a_table_without_oracle_players_says_no_budget() -> None:
    code, out, _ = invoke("--games", "1", "--players", "table,table:20", "--jobs", "1")
    assert code == 0 and "deals" not in out.splitlines()[0]


def test_wilson_interval_bounds() -> None:
    assert stats.wilson(0, 10)[0] == 0 and 0.25 < stats.wilson(0, 10)[1] < 0.35
    assert stats.wilson(10, 10)[1] == pytest.approx(1.0) and stats.wilson(10, 10)[0] > 0.65
    lo, hi = stats.wilson(390, 1000)
    assert lo < 0.39 < hi and math.isclose(hi - lo, 0.0604, abs_tol=0.002)


@pytest.mark.parametrize(("k", "n"), [(0, 1), (1, 1), (3, 7), (390, 1000), (2423, 2423), (1, 5000)])
def test_wilson_closed_form_is_scipys(k: int, n: int) -> None:
    scipy_stats = pytest.importorskip("scipy.stats")
    ci = scipy_stats.binomtest(k, n).proportion_ci(method="wilson")
    assert stats.wilson(k, n) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_the_tournament_needs_no_scipy() -> None:
    """A plain install has no scipy: the tournament still runs (the interval is closed form)."""
    code = (
        "import sys; sys.modules['scipy'] = None; sys.modules['scipy.stats'] = None;"
        "from click.testing import CliRunner; from thirtyone.cli.app import main;"
        "r = CliRunner().invoke(main, ['tournament', '--games', '2', '--players', 'table,table',"
        " '--jobs', '1', '--json']); print(r.exit_code); print(r.output[-200:])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("0\n"), out.stdout


def test_player_kinds() -> None:
    assert parse_kind("table") == ("table", 27.0)
    assert parse_kind("table:25.5") == ("table", 25.5)
    assert parse_kind(" Oracle ") == ("oracle", None)
    assert parse_kind("expert") == ("expert", None)
    assert parse_kind("oracle-game") == ("oracle-game", None)
    for bad in ("tabel", "table:", "table:32", "table:-1", "table:nan", "oracle-games", ""):
        with pytest.raises(ValueError):
            parse_kind(bad)
    assert parse_players("oracle, table") == ("oracle", "table")
    # A kind is shown in every row of the table: written the short way, the same number.
    long_zero = "table:" + "0" * 100_000
    assert parse_players(f"table:027.50,{long_zero},TABLE:25.500") == (
        "table:27.5",
        "table:0",
        "table:25.5",
    )
    # A score is in whole or half points (25.123456789 was taken here, then refused by the core
    # when the games began, as "rule knock_at").
    with pytest.raises(ValueError, match="whole or half points"):
        parse_players("table:25.123456789,table")
    with pytest.raises(ValueError, match="2 to 9"):
        parse_players("oracle")
    with pytest.raises(ValueError, match="2 to 9"):
        parse_players(",".join(["table"] * 10))


def test_every_seed_a_command_takes_is_taken() -> None:
    # (Seeds from 2**63 were refused as "at most 63 bits", after --seed had taken them.)
    for seed in (2**63, 2**64 - 1):
        code, out, err = invoke("--games", "2", "--players", "table,table", "--seed", str(seed))
        assert code == 0, err
        assert f"seed {seed}" in out
    with pytest.raises(SettingsError, match="seed must be a whole number from 0 to"):
        tournament.Settings(players=("table", "table"), games=2, seed=-1).check()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--players", "oracle,wizard"], "wizard"),
        (["--players", "oracle-gaem,table"], "oracle-gaem"),
        (["--players", "table:99,table"], "0 to 31"),
        (["--players", "table"], "2 to 9"),
        (["--games", "0"], "games"),
        (["--games", "1000001"], "games"),
        (["--jobs", "0"], "jobs"),
        (["--jobs", "65"], "jobs"),
        (["--deals", "0"], "deals"),
        (["--playouts", "99999999999"], "playouts"),
        (["--seed", str(2**70)], "seed"),
        (["--rules", "bogus"], "bogus"),
        (["--read-as", "robot"], "robot"),
        (["--read-as", ""], "--read-as"),
    ],
)
def test_bad_input_is_refused_with_exit_2(args: list[str], words: str) -> None:
    code, _, err = invoke(*args)
    assert code == 2, err
    assert words in err and "Traceback" not in err
    assert len(err.strip().splitlines()) <= 4  # one line (click's usage lines at most)


def asked(monkeypatch: pytest.MonkeyPatch, *args: str) -> list[dict[str, Any]]:
    """The states the Oracle players of a tiny one-process run sent to the Oracle (``deals``
    added to each: who asked)."""
    states: list[dict[str, Any]] = []
    real = oracle_player.advise

    def spy(state: dict[str, Any], **kw: Any) -> Any:
        states.append({**state, "deals": kw["deals"]})
        return real(state, **kw)

    monkeypatch.setattr(oracle_player, "advise", spy)
    tiny = ["--games", "1", "--deals", "20", "--playouts", "60", "--jobs", "1", "--json"]
    code, _, err = invoke(*tiny, *args)
    assert code == 0, err
    assert states  # (the Oracle player was asked)
    return states


def opponents(state: dict[str, Any]) -> list[str | None]:
    """How the Oracle is told to read each opponent (None: no models, read as the table)."""
    models = state.get("models")
    return [
        None if models is None else models[i] for i in range(state["seats"]) if i != state["me"]
    ]


def test_read_as_reads_every_opponent_by_one_model(monkeypatch: pytest.MonkeyPatch) -> None:
    # Without --read-as, each opponent by its own model: the noisy player as a person, the
    # table's rule as the table.
    own = asked(monkeypatch, "--players", "oracle-game,noisy,table")
    full = [s for s in own if s["seats"] == 3]  # (before a player is out of the game)
    assert full and all(sorted(map(str, opponents(s))) == ["person", "table"] for s in full)
    # With --read-as table: no models at all, as before there were models.
    table = asked(monkeypatch, "--players", "oracle-game,noisy,table", "--read-as", "table")
    assert all("models" not in s for s in table)
    # Another model: every opponent, and both Oracle players (expert too), read by it.
    person = asked(monkeypatch, "--players", "oracle,expert,table", "--read-as", "person")
    assert all(opponents(s) == ["person"] * (s["seats"] - 1) for s in person)
    assert {s["deals"] for s in person} == {20, oracle_player.EXPERT_DEALS}
    assert all(s["models"][s["me"]] is None for s in person)
    assert Settings(players=("oracle", "noisy"), read_as="expert").player(0, 0).read_as == "expert"
    with pytest.raises(SettingsError, match="read_as must be one of"):
        Settings(players=("oracle", "noisy"), read_as="robot").check()
    with pytest.raises(SettingsError, match="read_as must be one of"):
        OraclePlayer(read_as="robot")


def test_one_oracle_player_may_read_by_a_model_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    # The expert@table reads without models (as before there were models); the oracle-game,
    # without an @, reads each opponent by its own model: the expert as an expert.
    states = asked(monkeypatch, "--players", "oracle-game,expert@table,table")
    full = [s for s in states if s["seats"] == 3]
    by_expert = [s for s in full if s["deals"] == oracle_player.EXPERT_DEALS]
    by_oracle = [s for s in full if s["deals"] == 20]
    assert by_expert and all("models" not in s for s in by_expert)
    assert by_oracle and all(
        sorted(map(str, opponents(s))) == ["expert", "table"] for s in by_oracle
    )
    # Its own model wins over --read-as; the others read by --read-as.
    states = asked(monkeypatch, "--players", "oracle,expert@expert,table", "--read-as", "person")
    full = [s for s in states if s["seats"] == 3]
    assert {tuple(opponents(s)) for s in full if s["deals"] == 20} == {("person", "person")}
    assert {tuple(opponents(s)) for s in full if s["deals"] != 20} == {("expert", "expert")}
    assert parse_players("Oracle-Game , EXPERT@Table") == ("oracle-game", "expert@table")


@pytest.mark.parametrize(
    ("players", "words"),
    [
        ("oracle,table@table", "only an Oracle player"),
        ("oracle,noisy@person", "only an Oracle player"),
        ("oracle,expert@robot", "one of table, person, expert"),
        ("oracle,expert@", "one of table, person, expert"),
        ("oracle,expert@table@table", "one of table, person, expert"),
    ],
)
def test_a_bad_model_after_a_player_is_refused(players: str, words: str) -> None:
    code, _, err = invoke("--games", "1", "--players", players)
    assert code == 2 and words in err and "Traceback" not in err, err


def test_spaces_around_the_at_are_spaces_as_around_a_comma() -> None:
    """``--players "oracle, table"`` takes the space after a comma; so ``expert @ table`` is
    ``expert@table`` (it was refused as if expert were not an Oracle player)."""
    assert parse_players("expert @table, oracle-game@ person,table") == (
        "expert@table",
        "oracle-game@person",
        "table",
    )
    code, _, err = invoke("--games", "1", "--players", "expert @robot,table")
    assert code == 2 and "one of table, person, expert" in err and "only an" not in err, err


def test_the_header_says_who_reads_by_read_as() -> None:
    """A player with @ reads by its own model "over --read-as" (docs/cli.md): the header said
    "opponents read as person" of a table where expert@table read every opponent as table."""

    def head(players: tuple[str, ...]) -> str:
        return head_of(tournament_report.report(Settings(players=players, read_as="person"), []))

    assert "opponents read as person; " in head(("expert", "table"))
    both = head(("expert@table", "expert", "table"))
    assert "opponents read as person by those without @; " in both
    assert "opponents read as each @ says; " in head(("expert@table", "oracle@expert", "table"))


def test_the_settings_record_read_as_only_when_given() -> None:
    base = ["--games", "1", "--players", "table,table:25", "--jobs", "1", "--json"]
    code, out, _ = invoke(*base)
    assert code == 0 and "read_as" not in json.loads(out)["settings"]
    code, out, _ = invoke(*base, "--read-as", "person")
    assert code == 0 and json.loads(out)["settings"]["read_as"] == "person"
    code, out, _ = invoke(*base[:-1], "--read-as", "person")
    assert code == 0 and "opponents read as person" in out
    # The committed run's settings are written as they were, to the byte.
    doc = json.loads(RUN_20K.read_text(encoding="utf-8"))
    settings = Settings(**{**doc["settings"], "players": tuple(doc["settings"]["players"])})
    written = tournament.to_json(settings, [])["settings"]
    assert json.dumps(written, indent=1) == json.dumps(doc["settings"], indent=1)


def test_a_checkpoint_resumes_only_with_the_same_read_as(tmp_path: Path) -> None:
    keep = str(tmp_path / "run.checkpoint")
    base = ["--games", "2", "--players", "table,table:25", "--jobs", "1", "--checkpoint", keep]
    code, first, err = invoke(*base, "--read-as", "table", "--json")
    assert code == 0, err
    for other in (["--read-as", "person"], []):
        code, out, err = invoke(*base, *other, "--json")
        assert code == 2 and out == "" and "another study or other settings" in err
        assert len(err.strip().splitlines()) == 1
    code, again, err = invoke(*base, "--read-as", "table", "--json")
    assert code == 0 and again == first, err
    # A checkpoint written without --read-as is refused with one.
    plain = str(tmp_path / "plain.checkpoint")
    code, _, err = invoke(*base[:-1], plain)
    assert code == 0, err
    code, _, err = invoke(*base[:-1], plain, "--read-as", "table")
    assert code == 2 and "another study or other settings" in err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_written_over_itself_only_on_a_terminal() -> None:
    """On a terminal the progress line is written over itself and ended at the end; in a log
    or a pipe (no terminal) every line is a whole line, none begun with a carriage return, and
    not more often than every ten seconds (the first and the last always)."""
    log = io.StringIO()
    progress = Progress(log)
    for done in range(1, 201):
        progress(done, 200)
    lines = log.getvalue().split("\n")
    assert "\r" not in log.getvalue()
    assert lines[0].startswith("games 1/200 (0%)") and lines[1].startswith("games 200/200 (100%)")
    assert lines[2:] == [""]
    shown = _Terminal()
    progress = Progress(shown, every=0.0)
    for done in range(1, 4):
        progress(done, 3)
    assert shown.getvalue().startswith("\rgames 1/3 (33%)")
    assert shown.getvalue().count("\r") == 3 and shown.getvalue().endswith(" s\n")
    assert shown.getvalue().count("\n") == 1
