"""Docs that cannot drift (issue 27, item 9): every example of the README and docs/ marked
``<!-- example: NAME -->`` is what the product prints from its seed, and every figure the prose
quotes is the product's (``scripts/docs_examples.py`` writes the examples; the figures quoted in
prose are written by hand and checked here)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "docs_examples", ROOT / "scripts/docs_examples.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_docs_examples_are_what_the_product_prints() -> None:
    found = _script().differences(write=False)
    assert found == [], "\n".join([*found, "(python scripts/docs_examples.py --write)"])


def test_the_examples_the_issue_names_are_all_checked() -> None:
    script = _script()
    marked = {name: file for name, (file, _) in script.EXAMPLES.items()}
    assert marked == {
        "turn-seed-5": "README.md",  # the turn box
        "oracle-report": "docs/oracle.md",  # the Oracle's table
        "oracle-json": "docs/oracle.md",  # the JSON answer
        "oracle-game-reason": "docs/oracle.md",
    }
    readme = (ROOT / "README.md").read_text()
    turn = readme[readme.index("<!-- example: turn-seed-5 -->") :]
    assert "win game" in turn.split("```")[1] and "your turn" in turn.split("```")[1]


def test_cli_docs_say_what_calibrate_needs() -> None:
    cli = (ROOT / "docs" / "cli.md").read_text()
    section = cli[cli.index("## `thirtyone calibrate`") :].split("\n## ")[0]
    assert "pip install 'thirtyone[calibrate]'" in section


def test_the_readme_says_the_first_command_compiles_rust() -> None:
    readme = (ROOT / "README.md").read_text()
    before = readme[: readme.index("python3 -m venv .venv")]
    assert "compiles the Rust core" in before
