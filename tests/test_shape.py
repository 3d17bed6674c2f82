"""The shape limits of docs/architecture.md: no Python function above 80 lines, no Rust function
above 120, no source file above 600 lines (Python, Rust, and the pages' JavaScript, CSS and
HTML; tests aside)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / "python" / "thirtyone"
RUST = ROOT / "rust"
MAX_FILE, MAX_PY_FUNCTION, MAX_RUST_FUNCTION = 600, 80, 120

#: A Rust item that opens a function: ``fn``, with its visibility and qualifiers.
FN = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?((const|async|unsafe|extern\s+\"C\")\s+)*fn\s+(\w+)")
#: What is not code for counting braces: line comments, strings and character literals.
NOT_CODE = re.compile(r"//.*$|\"(\\.|[^\"\\])*\"|'(\\.|[^'\\])'")


def python_files() -> list[Path]:
    return sorted(PYTHON.rglob("*.py"))


def rust_files() -> list[Path]:
    return sorted(p for p in RUST.rglob("*.rs") if "target" not in p.parts)


def is_test(path: Path) -> bool:
    """Test files are exempt from the file limit (a suite of cases reads better whole)."""
    name = path.stem
    return name.endswith("_tests") or name == "tests" or "tests" in path.parts


def rust_functions(text: str) -> list[tuple[str, int, int]]:
    """(name, first line, lines) of every Rust function with a body, by brace matching."""
    lines = text.splitlines()
    found = []
    for i, line in enumerate(lines):
        match = FN.match(line)
        if not match:
            continue
        depth, opened = 0, False
        for j in range(i, len(lines)):
            code = NOT_CODE.sub("", lines[j])
            if not opened and ";" in code and "{" not in code:
                break  # a declaration without a body (a trait's)
            depth += code.count("{") - code.count("}")
            opened = opened or "{" in code
            if opened and depth <= 0:
                found.append((match.group(5), i + 1, j - i + 1))
                break
    return found


def test_the_brace_counter_measures_a_function() -> None:
    text = 'pub(crate) fn f(x: u8) -> u8 {\n    let s = "}{";\n    // }\n    x\n}\nfn g();\n'
    assert rust_functions(text) == [("f", 1, 5)]


@pytest.mark.parametrize("path", python_files(), ids=lambda p: str(p.relative_to(PYTHON)))
def test_python_files_and_functions_keep_their_size(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= MAX_FILE, f"{path.name}: over {MAX_FILE} lines"
    long = [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > MAX_PY_FUNCTION
    ]
    assert not long, f"{path.name}: functions over {MAX_PY_FUNCTION} lines: {long}"


@pytest.mark.parametrize("path", rust_files(), ids=lambda p: str(p.relative_to(RUST)))
def test_rust_files_and_functions_keep_their_size(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    if not is_test(path):
        assert len(text.splitlines()) <= MAX_FILE, f"{path.name}: over {MAX_FILE} lines"
    long = [
        f"{name} (line {at}, {size} lines)"
        for name, at, size in rust_functions(text)
        if size > MAX_RUST_FUNCTION
    ]
    assert not long, f"{path.name}: functions over {MAX_RUST_FUNCTION} lines: {long}"


def page_files() -> list[Path]:
    """The browser's code and style: what a page loads, kept to the same size as the rest."""
    static = PYTHON / "web" / "static"
    return sorted(p for p in static.rglob("*") if p.suffix in (".js", ".css", ".html"))


@pytest.mark.parametrize("path", page_files(), ids=lambda p: str(p.relative_to(PYTHON)))
def test_page_files_keep_their_size(path: Path) -> None:
    """The page's files too: the review page's script had grown to 614 lines unseen."""
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_FILE, f"{path.name}: {lines} lines, over {MAX_FILE}"
