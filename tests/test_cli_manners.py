"""The command's general manners, as a user of any command-line tool expects them: --version, -h,
help (and status 0) when called bare, a quiet status 0 when the reader of a pipe goes away, no
padding when the output is not a terminal, help text for every option, shell completion."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest
import thirtyone
from click.testing import CliRunner, Result
from thirtyone import schemas
from thirtyone.cli.app import main

EXAMPLE_FILE = Path(__file__).parent / "data" / "example_state.json"
ENV = {"NO_COLOR": "1"}


def run(args: list[str], input: str | None = None) -> Result:
    return CliRunner(env=ENV).invoke(main, args, input=input)


def command(*args: str) -> list[str]:
    """The real command, as a subprocess (``python -m thirtyone`` is the same entry point)."""
    return [sys.executable, "-m", "thirtyone", *args]


def test_version_is_the_package_version() -> None:
    result = run(["--version"])
    assert result.exit_code == 0
    assert result.output == f"thirtyone {thirtyone.__version__}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+\S*", thirtyone.__version__)


@pytest.mark.parametrize("args", [["-h"], ["--help"], ["play", "-h"], ["oracle", "-h"]])
def test_dash_h_is_help(args: list[str]) -> None:
    result = run(args)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Usage: ")


def test_bare_thirtyone_shows_help_and_succeeds() -> None:
    result = run([])
    assert result.exit_code == 0
    assert result.output == run(["--help"]).output
    for name in ("play", "oracle", "rules", "schema", "completion"):
        assert re.search(rf"^  {name} ", result.output, flags=re.M), name


def _every_command() -> list[tuple[str, click.Command]]:
    assert isinstance(main, click.Group)
    return sorted(main.commands.items())


@pytest.mark.parametrize(("name", "cmd"), _every_command())
def test_every_option_and_command_has_help(name: str, cmd: click.Command) -> None:
    assert cmd.help and cmd.help.strip(), name
    for param in cmd.params:
        if isinstance(param, click.Option):
            assert param.help and param.help.strip(), f"{name} {param.opts}"


@pytest.mark.posix_only
@pytest.mark.parametrize(
    "args",
    [["rules"], ["play", "--autoplay", "--seed", "3"], ["oracle", str(EXAMPLE_FILE), "--json"]],
)
def test_a_reader_that_goes_away_ends_the_command_quietly(args: list[str]) -> None:
    # `thirtyone rules | true`: the reading end of the pipe is closed before the first line.
    proc = subprocess.Popen(
        command(*args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **ENV},
    )
    assert proc.stdout is not None
    proc.stdout.close()
    _, err = proc.communicate(timeout=120)
    assert (proc.returncode, err.decode()) == (0, "")


@pytest.mark.parametrize(
    ("args", "most"),
    [
        (["oracle"], "18,446,744,073,709,551,615"),
        (["study", "knock"], "18,446,744,073,709,551,615"),
    ],
)
def test_the_seeds_range_is_in_the_help_and_checked(args: list[str], most: str) -> None:
    said = " ".join(run([*args, "-h"]).output.split())
    assert f"0 to {most}." in said
    for too_far in (str(int(most.replace(",", "")) + 1), "-1"):
        result = run([*args, "--seed", too_far])
        assert result.exit_code == 2
        said = f"Invalid value for '--seed': must be a whole number from 0 to {most}, not {too_far}"
        assert said in result.output


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (a full disk)")
@pytest.mark.parametrize(
    "args",
    [
        ["rules"],
        ["oracle", str(EXAMPLE_FILE), "--deals", "200", "--playouts", "500"],
        ["oracle", str(EXAMPLE_FILE), "--deals", "200", "--playouts", "500", "--json"],
    ],
)
def test_output_that_cannot_be_written_is_one_line(args: list[str]) -> None:
    # `thirtyone rules > /dev/full`: every write fails as on a full disk.
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            command(*args),
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, **ENV},
            timeout=120,
        )
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["Error: cannot write the output: No space left on device."]


@pytest.mark.posix_only
@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash and head")
def test_head_takes_one_line_quietly() -> None:
    # `thirtyone rules | head -1`, as a shell runs it.
    for args in (["rules"], ["play", "--autoplay", "--seed", "3"]):
        shell = " ".join(command(*args)) + " | head -1"
        done = subprocess.run(
            ["bash", "-c", f"set -o pipefail; {shell}"],
            capture_output=True,
            text=True,
            env={**os.environ, **ENV},
            timeout=120,
        )
        assert done.returncode == 0, (args, done.returncode, done.stderr)
        assert done.stderr == ""
        assert len(done.stdout.splitlines()) == 1


@pytest.mark.parametrize(
    "args",
    [["rules"], ["rules", "cadillac"], ["play", "--autoplay", "--seed", "3"]],
)
def test_output_that_is_not_a_terminal_has_no_trailing_spaces(args: list[str]) -> None:
    done = subprocess.run(
        command(*args), capture_output=True, text=True, env={**os.environ, **ENV}, timeout=120
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) > 5
    padded = [i for i, line in enumerate(lines) if line != line.rstrip()]
    assert padded == [], lines[padded[0]] if padded else ""


def test_oracle_table_through_a_pipe_has_no_trailing_spaces() -> None:
    result = run(["oracle", str(EXAMPLE_FILE), "--deals", "200", "--playouts", "500"])
    assert result.exit_code == 0, result.output
    assert "Best:" in result.output
    assert all(line == line.rstrip() for line in result.output.splitlines())


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts(shell: str) -> None:
    result = run(["completion", shell])
    assert result.exit_code == 0, result.output
    assert "_THIRTYONE_COMPLETE" in result.output


def test_completion_completes_commands() -> None:
    # What the bash script asks the program for when you type `thirtyone o<TAB>`.
    assert _completions("thirtyone o") == ["plain,oracle"]


@pytest.mark.parametrize("name", ["state", "advice"])
def test_schema_prints_the_shipped_schema(name: str) -> None:
    result = run(["schema", name])
    assert result.exit_code == 0
    printed = json.loads(result.output)
    assert printed == schemas.schema(name)
    assert printed["$schema"].endswith("/2020-12/schema")


def test_schema_refuses_an_unknown_name() -> None:
    result = run(["schema", "round"])
    assert result.exit_code == 2
    assert "'round' is not one of 'state', 'advice'" in result.output


SEEDED = [
    ["play"],
    ["oracle", "STATE"],
    ["review"],
    ["tournament", "--games", "1"],
    ["calibrate", "--decisions", "1"],
    ["study", "knock", "--rounds", "1"],
]  # (the knock atlas took seeds to 2**63 - 1 only: ruling 221)


@pytest.mark.parametrize("args", SEEDED, ids=[a[0] for a in SEEDED])
def test_every_command_takes_the_same_seeds(args: list[str], tmp_path: Path) -> None:
    """A seed is a whole number from 0 to 2**64 - 1 in every command, refused outside with the
    same one line before any work (a negative seed was played and saved by one command and
    refused by another)."""
    state = tmp_path / "state.json"
    state.write_text("{}")
    args = [str(state) if a == "STATE" else a for a in args]
    env = {"XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)}
    for seed in ("-1", str(2**64)):
        result = CliRunner(env=env).invoke(main, [*args, "--seed", seed], input="")
        assert result.exit_code == 2, result.output
        shown = seed if seed == "-1" else f"{seed} (about 1.8e19)"
        command = " ".join(a for a in args if a.isalpha())
        assert result.stderr == (
            "Error: Invalid value for '--seed': must be a whole number from 0 to "
            f"18,446,744,073,709,551,615, not {shown}. See main {command} -h.\n"
        )


#: Twelve in full-width digits (U+FF11 U+FF12), as a Japanese or Chinese keyboard types it.
FULL_WIDTH_12 = "\uff11\uff12"


@pytest.mark.parametrize("args", SEEDED, ids=[a[0] for a in SEEDED])
def test_a_seed_in_other_digits_is_refused_as_the_new_game_form_refuses_it(
    args: list[str], tmp_path: Path
) -> None:
    """Ruling 354: `--seed` with 12 in full-width digits (U+FF11 U+FF12) was played as seed 12
    (click reads a number with Python's int(), which takes any script's digits), while the
    browser's new-game form refused it. Every command now refuses it before any work, in the
    form's words, naming the option and quoting what was typed."""
    from thirtyone.web.newgame import FormError, saved_game

    with pytest.raises(FormError) as form:
        saved_game({"seed": FULL_WIDTH_12})
    said = 'must be a whole number from 0 to 18,446,744,073,709,551,615, not "\uff11\uff12"'
    assert str(form.value) == f"Seed: {said}"
    state = tmp_path / "state.json"
    state.write_text("{}")
    args = [str(state) if a == "STATE" else a for a in args]
    env = {"XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)}
    result = CliRunner(env=env).invoke(main, [*args, "--seed", FULL_WIDTH_12], input="")
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith(f"Error: Invalid value for '--seed': {said}. See "), line


@pytest.mark.parametrize(
    "args",
    [
        ["play", "--seats", "\uff13"],
        ["play", "--lives", "\uff13"],
        ["play", "--oracle-deals", "\uff13\uff10\uff10"],
        ["tournament", "--games", FULL_WIDTH_12],
        ["tournament", "--deals", "\uff13\uff10\uff10"],
        ["calibrate", "--decisions", FULL_WIDTH_12],
        ["review", "--playouts", FULL_WIDTH_12],
        ["study", "knock", "--rounds", "\u0661\u0662"],  # (Arabic-Indic 12)
        ["serve", "--port", "\uff18\uff10\uff13\uff11"],
        ["tournament", "--games", "1_000"],  # (int() reads it too; the form does not)
        ["play", "--seed", "2e3"],
    ],
    ids=lambda args: " ".join(a for a in args if a.isascii()),
)
def test_a_whole_number_in_other_digits_is_refused_quoted_as_typed(args: list[str]) -> None:
    """Ruling 354: every whole number typed on the command line is read in the digits 0 to 9,
    as the form, the HTTP API and `--rule seats=…` read it; one in other digits is refused
    naming the option and quoting what was typed (it was taken as the number)."""
    *command_, option, typed = args
    result = run([*command_, option, typed], input="")
    assert result.exit_code == 2, result.output
    [line] = result.stderr.splitlines()
    # (The bounds where the option has them, as a number out of them is told.)
    bounds = {
        "--seed": " from 0 to 18,446,744,073,709,551,615",
        "--seats": " from 2 to 9",
        "--lives": " from 1 to 20",
        "--port": " from 1 to 65535",
        "--games": " from 1 to 1,000,000",
        "--decisions": " from 1 to 1,000,000",
        "--rounds": " from 1 to 100,000,000",
    }.get(option, "")
    assert line.startswith(
        f"Error: Invalid value for '{option}': must be a whole number{bounds}, not \"{typed}\". "
    ), line


@pytest.mark.parametrize("value", ["nan", "-1", "6"])
def test_a_delay_out_of_its_range_is_refused(value: str) -> None:
    # "nan" passes every comparison click's range makes: it was taken as no delay.
    result = run(["play", "--delay", value])
    assert result.exit_code == 2
    assert "Invalid value for '--delay'" in result.output and value in result.output


# -- a mistake on the command line: one line (QA round three) ----------------------------------


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["play", "--seats", "x"],
            "Error: Invalid value for '--seats': must be a whole number from 2 to 9, not \"x\".",
        ),
        (["play", "--bogus"], "Error: No such option '--bogus'."),
        (["bogus"], "Error: No such command 'bogus'."),
        (["schema"], "Error: Missing argument '{state|advice}'."),
        (["play", "--advice", "always", "--no-oracle"], "Error: --advice always and --no-oracle"),
        (["tournament", "--games", "x"], "Error: Invalid value for '--games'"),
        (["study", "knock", "--rounds", "x"], "Error: Invalid value for '--rounds'"),
    ],
)
def test_a_usage_error_is_one_line_with_status_2(args: list[str], said: str) -> None:
    # (README, "Errors": the command line prints a mistake as `Error: …` on one line; click
    # printed its usage, a hint, a blank line and the error.)
    proc = subprocess.run(command(*args), capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2
    assert proc.stdout == ""
    [line] = proc.stderr.splitlines()
    assert line.startswith(said), line
    # (Where the help is, as click's own hint had said: the command's own -h.)
    helps = {"bogus": "thirtyone", "study": "thirtyone study knock"}
    if "--no-oracle" not in args:  # (a contradiction of two options, not click's: no hint)
        # (The command as it was called: `python -m thirtyone` here.)
        where = helps.get(args[0], f"thirtyone {args[0]}")
        assert line.endswith(f"{where} -h.") and ". See " in line, line


def test_play_again_asks_again_for_anything_but_yes_or_no(tmp_path: Path) -> None:
    # (README: whatever is typed at a prompt gets one line and the question again; "maybe"
    # ended the command as a no.) The moves left over once the game is over are answers.
    args = ["play", "--seed", "4", "--seats", "2", "--lives", "1", "--fast", "--no-oracle"]
    result = run([*args, "--save-file", str(tmp_path / "s.json")], "d\n1\n" * 200)
    assert result.exit_code == 0 and "Traceback" not in result.output
    said = [ln for ln in result.output.splitlines() if "is not a choice" in ln]
    assert said and said[0].endswith(
        "'d' is not a choice: type y for a new game at the same table, or Enter (or n) to stop."
    )
    assert result.output.count("Play again?") == len(said) + 1  # (the end of input: no)


@pytest.mark.parametrize(
    ("answers", "again", "asked"),
    [
        (["y"], True, 1),
        (["yes"], True, 1),
        ([""], False, 1),
        (["n"], False, 1),
        (["no"], False, 1),
        (["q"], False, 1),
        ([None], False, 1),
        (["maybe", "y"], True, 2),
        (["maybe", "perhaps", "n"], False, 3),
    ],
)
def test_play_again_is_y_or_no(
    monkeypatch: pytest.MonkeyPatch, answers: list[str | None], again: bool, asked: int
) -> None:
    from rich.console import Console
    from thirtyone.cli import app
    from thirtyone.terminal import prompt

    given = iter(answers)
    questions: list[str] = []

    def answer(question: str) -> str | None:
        questions.append(question)
        return next(given)

    monkeypatch.setattr(prompt, "prompt_line", answer)
    console = Console(file=io.StringIO(), width=100)
    assert app._play_again(console) is again
    assert len(questions) == asked
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert out.count("is not a choice") == asked - 1


# -- small manners (QA round five) ---------------------------------------------------------------


def test_one_decision_is_one_decision_in_one_turn(tmp_path: Path) -> None:
    env = {**ENV, "THIRTYONE_DATA_DIR": str(tmp_path), "COLUMNS": "100"}
    table = ["--seats", "2", "--lives", "1", "--seed", "1", "--no-oracle", "--fast"]
    played = CliRunner(env=env).invoke(main, ["play", *table], input="k\nn\n")
    assert played.exit_code == 0, played.output
    r = CliRunner(env=env).invoke(main, ["review", "--deals", "100", "--playouts", "100"])
    assert "You: 1 decision in 1 turn (" in r.output, r.output


@pytest.mark.parametrize(
    "args",
    [["review", ""], ["play", "--save-file", ""], ["tournament", "--games", "2", "--plot", ""]],
)
def test_an_empty_path_is_named_as_empty(args: list[str]) -> None:
    # (Python reads '' as '.': "Error: . is a folder, not a thirtyone save".)
    r = run(args, input="")
    assert r.exit_code == 2
    assert "'' is an empty path, which names no file" in r.stderr and " . " not in r.stderr


def _save_text(tmp_path: Path) -> dict[str, object]:
    env = {**ENV, "THIRTYONE_DATA_DIR": str(tmp_path)}
    table = ["--seats", "2", "--lives", "1", "--seed", "1", "--no-oracle", "--fast"]
    CliRunner(env=env).invoke(main, ["play", *table], input="k\nn\n")
    data: dict[str, object] = json.loads((tmp_path / "last-game.json").read_text("utf-8"))
    return data


def test_a_save_without_its_version_says_the_field_is_missing(tmp_path: Path) -> None:
    data = _save_text(tmp_path)
    del data["version"]
    (tmp_path / "s.json").write_text(json.dumps(data), encoding="utf-8")
    r = run(["review", str(tmp_path / "s.json")])
    assert r.exit_code == 2 and "damaged (the field version is missing)" in r.stderr, r.stderr
    data["version"] = True  # (not version 1, though Python takes True for 1)
    (tmp_path / "s.json").write_text(json.dumps(data), encoding="utf-8")
    r = run(["review", str(tmp_path / "s.json")])
    assert r.exit_code == 2 and "is of version true, this thirtyone reads version 1" in r.stderr


def test_a_save_beginning_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    data = _save_text(tmp_path)
    (tmp_path / "s.json").write_bytes(b"\xef\xbb\xbf" + json.dumps(data).encode("utf-8"))
    r = run(["review", str(tmp_path / "s.json"), "--deals", "100", "--playouts", "100"])
    assert r.exit_code == 0 and "BOM" not in r.output, r.output


def test_a_preset_refused_names_the_argument_preset() -> None:
    r = run(["rules", "nope"])
    assert r.exit_code == 2 and r.stderr.startswith("Error: Invalid value for '[PRESET]': 'nope'")
    assert "rules [OPTIONS] [PRESET]\n" in run(["rules", "-h"]).output


def test_the_help_of_lives_and_knock_penalty_says_their_default_truly() -> None:
    from thirtyone.game.rules import Rules

    text = " ".join(run(["play", "-h"]).output.split())
    standard, gin = Rules.preset("standard"), Rules.preset("gin-lives")
    assert f"default: the preset's, {standard.lives} at the standard table" in text
    penalties = f"{standard.knock_penalty} at the standard table, {gin.knock_penalty} at gin-lives"
    assert f"(1 or 2; default: the preset's, {penalties})" in text


@pytest.mark.parametrize(
    ("option", "value", "bounds"),
    [
        ("--seats", "10", "2 to 9"),
        ("--seats", "9" * 40, "2 to 9"),
        ("--lives", "9" * 60, "1 to 20"),
        # Past the 4,300 digits Python reads, which gave click's "… is not a valid integer".
        ("--seats", "9" * 5000, "2 to 9"),
        ("--lives", "1" + "0" * 131_000, "1 to 20"),
    ],
)
def test_a_number_out_of_range_is_said_so_whatever_its_size(
    option: str, value: str, bounds: str
) -> None:
    r = run(["play", option, value], input="")
    assert r.exit_code == 2
    [line] = r.stderr.splitlines()
    assert f"Invalid value for '{option}': must be a whole number from {bounds}, not " in line
    assert "format" not in line and "Overflow" not in line and '…".' not in line
    if len(value) > 100:
        assert f"(a number of {len(value):,} digits)" in line


@pytest.mark.parametrize(
    ("command", "value", "said"),
    [
        ("play", "6", "must be a number of seconds from 0 to 5, not 6"),
        ("play", "5.0000001", "must be a number of seconds from 0 to 5, not 5.0000001"),
        ("play", "nan", "must be a number of seconds from 0 to 5, not nan"),
        (
            "play",
            "1e400",
            'must be a number of seconds from 0 to 5, not "1e400", too large to read',
        ),
        ("serve", "70000", "must be a whole number from 1 to 65535, not 70000"),
        ("serve", "0", "must be a whole number from 1 to 65535, not 0"),
    ],
)
def test_the_delay_and_the_port_say_their_bounds_as_every_option_does(
    command: str, value: str, said: str
) -> None:
    """`--delay` and `--port` in the words of every other number option (they said click's
    "6.0 is not in the range 0<=x<=5")."""
    option = "--delay" if command == "play" else "--port"
    r = run([command, option, value], input="")
    assert r.exit_code == 2
    [line] = r.stderr.splitlines()
    assert f"Invalid value for '{option}': {said}." in line, line


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["play", "--delay", "\uff11"], 'must be a number of seconds from 0 to 5, not "\uff11"'),
        (["play", "--delay", "0_5"], 'must be a number of seconds from 0 to 5, not "0_5"'),
        (["play", "--delay", "soon"], 'must be a number of seconds from 0 to 5, not "soon"'),
        (["oracle", "-", "--max-time", "\uff13"], 'must be a number of seconds, not "\uff13"'),
        (["oracle", "-", "--max-time", "1_0"], 'must be a number of seconds, not "1_0"'),
        (["oracle", "-", "--target-margin", "\uff10.01"], 'must be a number, not "\uff10.01"'),
        (["oracle", "-", "--target-margin", "tight"], 'must be a number, not "tight"'),
        (["play", "--seats", "many"], 'must be a whole number from 2 to 9, not "many"'),
        (["play", "--knock-penalty", "x"], 'must be 1 or 2, not "x"'),
        (["serve", "--port", "http"], 'must be a whole number from 1 to 65535, not "http"'),
    ],
)
def test_a_number_an_option_cannot_read_is_refused_with_what_it_takes(
    args: list[str], said: str
) -> None:
    """Seconds and margins written in other digits (full-width, or with ``_``, which Python's
    ``float()`` reads) are refused as the whole-number options refuse them, quoting what was
    typed (``--delay \uff11`` was a second's delay); any text an option cannot read names what
    it takes, bounds included, as a number out of them is told (ruling 355)."""
    r = run(args, input="")
    assert r.exit_code == 2, r.output
    [line] = r.stderr.splitlines()
    option = next(a for a in args if a.startswith("--"))
    assert line.startswith(f"Error: Invalid value for '{option}': {said}. See "), line


def test_study_alone_shows_its_help_and_exits_0() -> None:
    r = run(["study"])
    assert r.exit_code == 0 and "knock" in r.output


def _completions(words: str) -> list[str]:
    env = {
        **os.environ,
        "_THIRTYONE_COMPLETE": "bash_complete",
        "COMP_WORDS": words,
        "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1)),
    }
    done = subprocess.run(
        [sys.executable, "-c", "from thirtyone.cli.app import main; main(prog_name='thirtyone')"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    return done.stdout.split()


def test_completion_offers_the_rule_keys_and_their_values() -> None:
    got = _completions("thirtyone play --rule kn")
    assert sorted(got) == sorted(
        ["plain,knock_penalty=", "plain,knocker_tie=", "plain,knock_needs_one_suit="]
    )
    assert _completions("thirtyone play --rule first_turn_knock=b") == [
        "plain,first_turn_knock=blind"
    ]
    assert _completions("thirtyone oracle x.json --rule may") == ["plain,may_hide_31="]
    # In any case, as the option takes its words (ruling 361): they completed nothing.
    assert _completions("thirtyone play --rule First_T") == ["plain,first_turn_knock="]
    assert _completions("thirtyone play --rule First_Turn_Knock=B") == [
        "plain,first_turn_knock=blind"
    ]


def _bash_with_completion(tmp_path: Path) -> Any:
    """An interactive bash (``bash -i`` in a pseudo-terminal) that loaded the completion as
    docs/cli.md says (``eval "$(thirtyone completion bash)"``), with a ``thirtyone`` on its PATH
    that completes as the real one and otherwise prints the words it was given."""
    pexpect = pytest.importorskip("pexpect")
    if shutil.which("bash") is None:
        pytest.skip("no bash")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "thirtyone"
    script.write_text(
        f"#!{sys.executable}\n"
        "import json, os, sys\n"
        "if '_THIRTYONE_COMPLETE' in os.environ or sys.argv[1:2] == ['completion']:\n"
        "    from thirtyone.cli import main\n"
        "    main()\n"
        "print('ARGV=' + json.dumps(sys.argv[1:]))\n"
    )
    script.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "PS1": "$ "}
    env.update(HOME=str(tmp_path), TERM="dumb", INPUTRC=os.devnull)
    bash = pexpect.spawn(
        "bash", ["--norc", "--noprofile", "-i"], env=env, encoding="utf-8", timeout=30
    )
    bash.sendline('eval "$(thirtyone completion bash)"; echo LOADED')
    bash.expect("\r\nLOADED")
    return bash


def _typed(bash: Any, *steps: tuple[str, str]) -> list[str]:
    """Type each ``(text, seen)``: the text (with its tabs), then wait for ``seen`` on the
    screen; then `` END`` and Enter: the words the command was given."""
    for text, seen in steps:
        bash.send(text)
        bash.expect_exact(seen)
    bash.send(" END\r")
    bash.expect(r"ARGV=(\[.*\])\r\n")
    return list(json.loads(bash.match.group(1)))


@pytest.mark.posix_only
def test_bash_completes_a_rule_and_its_value_in_a_real_shell(tmp_path: Path) -> None:
    # bash breaks words at "=" (COMP_WORDBREAKS): click's script completed no value after
    # "first_turn_knock=", and a key's completion ended with a space after its "=".
    bash = _bash_with_completion(tmp_path)
    try:
        got = _typed(bash, ("thirtyone play --rule first_turn_kn\t", "knock="), ("b\t", "lind "))
        assert got == ["play", "--rule", "first_turn_knock=blind", "END"]
        got = _typed(bash, ("thirtyone play --rule=may_h\t", "ide_31="), ("f\t", "alse "))
        assert got == ["play", "--rule=may_hide_31=false", "END"]
        got = _typed(bash, ("thirtyone play --rule knock_penalty=1 --see\t", "d "), ("7", "7"))
        assert got == ["play", "--rule", "knock_penalty=1", "--seed", "7", "END"]
        bash.send("thirtyone oracle s.json --rule knock_penalty=\t\t")  # (the values listed)
        bash.expect(r"\r\n1 +2 *\r\n")
    finally:
        bash.close(force=True)


def test_study_options_are_quoted_as_click_quotes_them_and_counts_of_one_are_singular(
    tmp_path: Path,
) -> None:
    # ("Invalid value for --seats:" beside the tournament's "Invalid value for '--players':";
    # a calibration of one game said "in 1 games".)
    for command in (["study", "knock"], ["calibrate", "--out", str(tmp_path)]):
        r = run([*command, "--seats", "1"])
        assert r.exit_code == 2
        assert r.stderr.startswith("Error: Invalid value for '--seats': must be 2 to 9"), r
    pytest.importorskip("scipy")
    command = ["calibrate", "--decisions", "1", "--deals", "20", "--playouts", "20"]
    r = run([*command, "--seats", "2", "--out", str(tmp_path / "out")])
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("1 decision in 1 game (seats 2, "), r.stdout


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("Tab\tby", "a name may not hold control characters or terminal codes"),
        ("x" * 31, "a name may be at most 30 columns wide"),
        ("   ", "your name may not be empty"),
        # A zero-width space (and one with a combining mark): a name nobody sees at the table.
        ("\u200b", "a name needs a letter, digit or sign that shows"),
        ("\u200b\u0301 ", "a name needs a letter, digit or sign that shows"),
    ],
)
def test_a_refused_name_is_quoted_as_every_other_option_is(name: str, why: str) -> None:
    # ("Invalid value for --name:" beside "Invalid value for '--seats':", as ruling 204 found
    # for the studies' --seats; ruling 220.)
    r = run(["play", "--name", name, "--autoplay"])
    assert r.exit_code == 2
    assert r.stderr.startswith(f"Error: Invalid value for '--name': {why}"), r.stderr


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["review", "9" * 400], "a name in it is too long"),
        (["serve", "--no-browser", "--host", "9" * 400], "not a name of a machine"),
    ],
)
def test_a_huge_value_is_refused_in_one_short_line(args: list[str], says: str) -> None:
    """400 characters where a save's name or a host goes: one line ``Error: …`` quoting the
    value short, exit status 2. Both ended in a traceback (``Path.exists`` raises for a name too
    long; the IDNA codec refuses a label of over 63 characters), the second quoting it whole
    (ruling 293)."""
    out = subprocess.run(command(*args), capture_output=True, text=True, timeout=120)
    assert out.returncode == 2, out.stderr
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and says in lines[0], lines
    assert "9" * 60 not in lines[0] and len(lines[0]) < 200
