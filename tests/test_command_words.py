"""Words the command line takes from a list are taken in any case (ruling 361): `--models`,
`--opponents`, `--rules`, `--read-as`, a preset's name and a rule's listed value, as
`tournament --players oracle@Table` already was. A word that is none of them is refused
quoting it as typed; a value of one's own (`life_names=`) keeps its case. The JSON state stays
exact: its schema lists the words."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result
from thirtyone.cli.app import main
from thirtyone.cli.manners import rule_assignments

DATA = Path(__file__).parent / "data"
ENV = {"COLUMNS": "100", "NO_COLOR": "1"}
ORACLE = ["oracle", str(DATA / "example_state.json"), "--json", "--seed", "1"]
ORACLE += ["--deals", "200", "--playouts", "400", "--max-time", "0"]


def run(*args: str, stdin: str | None = None) -> Result:
    r = CliRunner().invoke(main, list(args), input=stdin, env=ENV)
    assert "Traceback" not in r.output, r.output
    return r


def test_models_in_any_case_are_the_models() -> None:
    lower = run(*ORACLE, "--models", "-,expert,person,table")
    mixed = run(*ORACLE, "--models", "-,Expert,PERSON,Table")
    assert lower.exit_code == 0 and mixed.exit_code == 0, mixed.output
    assert json.loads(mixed.stdout) == json.loads(lower.stdout)  # (the same seed, same read)


def test_a_model_that_is_none_is_quoted_as_typed() -> None:
    r = run(*ORACLE, "--models", "-,Expertt,person,table")
    assert r.exit_code == 2
    assert r.output.strip() == (
        'Error: models[1] must be one of table, person, expert, not "Expertt"'
    )


def test_the_options_words_in_any_case(tmp_path: Path) -> None:
    r = run("rules", "Four-Corners")
    assert r.exit_code == 0 and r.stdout == run("rules", "four-corners").stdout
    save = str(tmp_path / "game.json")
    r = run(
        "play", "--seats", "2", "--opponents", "Expert", "--rules", "SCAT", "--no-oracle",
        "--seed", "3", "--save-file", save, stdin="q\n",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "You against Alice (expert)" in r.output and "scat table" in r.output


def test_a_rules_listed_value_in_any_case_and_names_as_typed() -> None:
    changes = rule_assignments(
        None,  # type: ignore[arg-type]
        None,  # type: ignore[arg-type]
        ("First_Turn_Knock=Blind", "County=TRUE", "lives=2", "life_names=Ann,Bob,Cy"),
    )
    assert changes["first_turn_knock"] == "blind" and changes["county"] is True
    assert changes["life_names"] == ("Ann", "Bob", "Cy")


def test_a_tournament_of_one_game_says_one_game() -> None:
    """The header said "1 games, 2 seats" (QA round: terminal)."""
    r = run("tournament", "--games", "1", "--players", "table,table", "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("1 game, 2 seats (standard)"), r.stdout


def test_a_rule_key_that_is_none_is_quoted_as_typed_and_names_keep_their_case() -> None:
    """A mistyped key was refused lower-cased (`unknown rule option "first_turn_knockk"` for
    `First_Turn_Knockk`), against ruling 361's "quoted as typed"; and a name that read like the
    names' own description (`Comma-separated names`) was taken for a word of a list and
    lower-cased (from the review)."""
    r = run(*ORACLE, "--rule", "First_Turn_Knockk=Blind")
    assert r.exit_code == 2
    assert 'unknown rule option "First_Turn_Knockk"' in r.output, r.output
    r = run("tournament", "--players", "Expertt,Table", "--games", "1", "--jobs", "1")
    assert r.exit_code == 2
    assert 'unknown player kind "Expertt"' in r.output, r.output
    r = run(
        "tournament", "--players", "ORACLE@Table,Table:25,Noisy", "--games", "1", "--jobs", "1",
        "--deals", "20", "--playouts", "40",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    assert [row.split()[0] for row in r.stdout.split("\n\n")[1].splitlines()[1:]] == [
        "oracle@table", "table:25", "noisy",
    ]  # fmt: skip
    changes = rule_assignments(
        None,  # type: ignore[arg-type]
        None,  # type: ignore[arg-type]
        ("lives=2", "life_names=Comma-separated names,Out"),
    )
    assert changes["life_names"] == ("Comma-separated names", "Out")
