"""One of a thing is said in the singular (ruling 359): `thirtyone oracle STATE --deals 1
--playouts 1` printed "1 consistent deals · 1 playouts per option" and "played 1 more times";
the review and a resumed game said "1 deals / 1 playouts". (The pages: the browser tests.)"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from test_cli_oracle import EXAMPLE_FILE
from test_play_advice import FAST, SEED
from test_play_advice import run as play
from test_review import TABLE, review
from test_review import play as play_a_game
from thirtyone.cli.app import main

ENV = {"COLUMNS": "100", "NO_COLOR": "1"}


def oracle(*args: str) -> str:
    r = CliRunner(env=ENV).invoke(main, ["oracle", str(EXAMPLE_FILE), "--seed", "3", *args])
    assert r.exit_code == 0, r.output
    return " ".join(r.output.split())


def test_one_deal_and_one_playout_are_said_in_the_singular() -> None:
    one = oracle("--deals", "1", "--playouts", "1")
    assert one.startswith("The Oracle · 1 consistent deal · 1 playout per option ")
    # The sweep's foot: the kept choice played once more.
    assert "The kept choice was played 1 more time to confirm it:" in one
    two = oracle("--deals", "2", "--playouts", "2")
    assert two.startswith("The Oracle · 2 consistent deals · 2 playouts per option ")
    assert "The kept choice was played 2 more times to confirm it:" in two


def test_the_review_names_one_deal_and_one_playout(tmp_path: Path) -> None:
    play_a_game(tmp_path, TABLE)
    said = " ".join(review(tmp_path, "--deals", "1", "--playouts", "1").output.split())
    assert "The Oracle at 1 deal / 1 playout per decision, seed 5." in said


def test_a_resumed_game_names_one_deal_and_one_playout(tmp_path: Path) -> None:
    save = tmp_path / "saved.json"
    play(["--seed", str(SEED), *FAST, "--save-file", str(save)], "q\n")
    assert json.loads(save.read_text())["oracle"] == {"deals": 200, "playouts": 1000}
    given = ["--oracle-deals", "1", "--oracle-playouts", "1"]
    out = " ".join(play(["--resume", *given, "--save-file", str(save)], "q\n").output.split())
    assert "The Oracle at 1 deal / 1 playout, as given, in this session" in out


def test_the_count_of_things() -> None:
    from thirtyone.oracle.words import counted

    assert [counted(n, "playout") for n in (0, 1, 2, 10_000)] == [
        "0 playouts",
        "1 playout",
        "2 playouts",
        "10,000 playouts",
    ]
