"""``thirtyone play --opponents``: the computer players by the table's rule, the Oracle at a small
budget (expert), or the two alternating; the choice is kept in the save."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from thirtyone import Action, OraclePlayer, SeatView, TablePolicy
from thirtyone.cli.app import main
from thirtyone.oracle.player import opponent
from thirtyone.store import saves

ENV = {"COLUMNS": "100", "NO_COLOR": "1"}


def run(args: list[str], text: str, path: Path) -> str:
    result = CliRunner().invoke(
        main, ["play", "--no-oracle", "--save-file", str(path), *args], input=text, env=ENV
    )
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.output


@pytest.fixture
def expert_turns(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the seats the expert players play, as they decide."""
    seen: list[str] = []
    real = OraclePlayer.decide

    def decide(self: OraclePlayer, view: SeatView) -> Action:
        seen.append(view.names[view.pending.round_seat])
        return real(self, view)

    monkeypatch.setattr(OraclePlayer, "decide", decide)
    return seen


def test_expert_opponents_play_and_are_kept_on_resume(
    tmp_path: Path, expert_turns: list[str]
) -> None:
    path = tmp_path / "s.json"
    run(["--seed", "5", "--opponents", "expert"], "d\n4\n" * 3 + "q\n", path)
    assert saves.read(path).opponents == "expert"
    assert set(expert_turns) == {"Alice", "Ben", "Cara"}
    expert_turns.clear()
    out = run(["--resume"], "d\n4\n" * 3 + "q\n", path)
    assert "Resumed: round" in out
    assert set(expert_turns) == {"Alice", "Ben", "Cara"}  # not the table's rule after resuming
    assert saves.read(path).opponents == "expert"


def test_table_is_the_default(tmp_path: Path, expert_turns: list[str]) -> None:
    path = tmp_path / "s.json"
    run(["--seed", "5"], "d\n4\n" * 3 + "q\n", path)
    assert saves.read(path).opponents == "table" and expert_turns == []


def test_a_resumed_game_keeps_its_opponents(tmp_path: Path) -> None:
    """--opponents with --resume is not applied (the game keeps its table) and one line says
    so; the save's opponents stay the table's."""
    path = tmp_path / "s.json"
    run(["--seed", "5"], "q\n", path)
    r = CliRunner().invoke(
        main,
        ["play", "--resume", "--opponents", "expert", "--save-file", str(path)],
        input="q\n",
        env=ENV,
    )
    assert r.exit_code == 0, r.output
    assert "--opponents" in r.output and "not applied" in r.output
    assert saves.read(path).opponents == "table"


def test_bad_opponents_refused(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["play", "--opponents", "grandmaster"], env=ENV)
    assert r.exit_code == 2 and "grandmaster" in r.output


def test_old_saves_load_with_table_opponents(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    run(["--seed", "5"], "q\n", path)
    data = json.loads(path.read_text())
    del data["opponents"]
    path.write_text(json.dumps(data))
    assert saves.read(path).opponents == "table"
    data["opponents"] = "wizards"
    path.write_text(json.dumps(data))
    with pytest.raises(saves.SaveError, match="damaged"):
        saves.read(path)


def test_mixed_alternates() -> None:
    kinds = [type(opponent("mixed", s, 7)) for s in range(1, 6)]
    assert kinds == [OraclePlayer, TablePolicy, OraclePlayer, TablePolicy, OraclePlayer]
    assert isinstance(opponent("table", 1, 7), TablePolicy)
    a, b = opponent("expert", 1, 7), opponent("expert", 2, 7)
    assert isinstance(a, OraclePlayer) and isinstance(b, OraclePlayer)
    assert a.seed != b.seed and a.seed == opponent("expert", 1, 7).seed
    with pytest.raises(ValueError, match="opponents must be one of table, expert, mixed"):
        opponent("wizards", 1, 7)
