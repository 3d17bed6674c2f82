"""The package's house: no module imports one that imports it back (lazy and type-only imports
included), each room imports only the rooms above it (docs/architecture.md; thirtyone-core's
rooms too), a folder holds at most a dozen modules, and the library face (``import thirtyone``)
loads no terminal, command line or database module."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest
import thirtyone

PACKAGE = Path(thirtyone.__file__).parent
#: The rooms, each allowed to import only those before it (and the top-level modules).
ROOMS = ["game", "oracle", "store", "terminal", "study", "web", "cli"]
TOP = {"errors", "names", "paths", "schemas", "statistics", "_core"}


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(("thirtyone", *parts))] = path
    return found


def imports(found: dict[str, Path]) -> dict[str, set[str]]:
    """Every module each one imports from the package, wherever the import stands."""
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in found.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.level or not node.module.startswith("thirtyone"):
                    continue
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    graph[name].add(sub if sub in found or alias.name == "_core" else node.module)
            elif isinstance(node, ast.Import):
                graph[name].update(a.name for a in node.names if a.name.startswith("thirtyone"))
    # Importing a submodule runs its packages' __init__ first.
    for name, targets in graph.items():
        for target in list(targets):
            parts = target.split(".")
            for i in range(2, len(parts)):
                parent = ".".join(parts[:i])
                if parent in found and not name.startswith(parent + ".") and parent != name:
                    targets.add(parent)
    return graph


def cycles(graph: dict[str, set[str]], nodes: set[str]) -> list[list[str]]:
    """The import circles: strongly connected groups of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v] & nodes:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return found


def room(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in ROOMS) else None


def test_no_module_imports_one_that_imports_it_back() -> None:
    found = modules()
    assert cycles(imports(found), set(found)) == []


def test_the_cycle_finder_finds_a_circle() -> None:
    graph: dict[str, set[str]] = defaultdict(set, {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})
    assert cycles(graph, {"a", "b", "c", "d"}) == [["a", "b", "c"]]


def test_each_room_imports_only_the_rooms_above_it() -> None:
    found = modules()
    wrong = []
    for name, targets in imports(found).items():
        mine = room(name)
        for target in targets:
            theirs = room(target)
            if theirs is None or mine is None or theirs == mine:
                continue
            if ROOMS.index(theirs) > ROOMS.index(mine):
                wrong.append(f"{name} imports {target}")
    # The top-level modules import no room (``python -m thirtyone`` is the command itself).
    top_modules = {n for n in found if room(n) is None} - {"thirtyone", "thirtyone.__main__"}
    for name in top_modules:
        wrong += [f"{name} imports {t}" for t in imports(found)[name] if room(t) is not None]
    assert wrong == []


def test_every_module_is_in_a_room_or_one_of_the_few_at_the_top() -> None:
    found = modules()
    top = {n.split(".")[1] for n in found if n.count(".") == 1 and room(n) is None}
    assert top <= TOP | {"__main__"}
    assert {room(n) for n in found} - {None} == set(ROOMS)
    per_folder: dict[str, int] = defaultdict(int)
    for path in found.values():
        if path.name != "__init__.py":
            per_folder[str(path.parent)] += 1
    assert max(per_folder.values()) <= 12, dict(per_folder)


def test_the_library_face_loads_no_terminal_command_line_or_database() -> None:
    code = (
        "import sys, thirtyone\n"
        "s = thirtyone.Session(thirtyone.Rules.standard(), seed=1)\n"
        "s.advance()\n"
        "thirtyone.advise(s, deals=50, playouts=100, seed=1)\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = out.stdout.split()
    assert "thirtyone.game.session" in loaded and "thirtyone.oracle.query" in loaded
    heavy = [
        m
        for m in loaded
        if m.split(".")[0] in ("rich", "click", "sqlite3", "_sqlite3", "starlette", "uvicorn")
    ]
    assert heavy == []
    rooms = {room(m) for m in loaded if m.startswith("thirtyone.")}
    assert rooms <= {None, "game", "oracle"}


def test_the_command_line_loads_numpy_only_for_an_answer() -> None:
    """numpy (about 55 ms of the 140 that `import thirtyone` took) comes with the first answer,
    whose sweeps are its arrays: `thirtyone -h`, `rules`, `stats` and `schema` do not wait for
    it."""
    code = (
        "import sys, thirtyone, thirtyone.cli.app\n"
        "print('numpy' in sys.modules)\n"
        "s = thirtyone.Session(thirtyone.Rules.standard(), seed=1)\n"
        "s.advance()\n"
        "thirtyone.advise(s, deals=50, playouts=100, seed=1)\n"
        "print('numpy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]


def test_the_web_room_loads_no_terminal() -> None:
    """The browser front-end's server imports no terminal module and none of rich's rendering
    (it renders its own pages; rich's table of character widths is all the names need)."""
    web = sorted(m for m in modules() if m.startswith("thirtyone.web"))
    code = (
        "import sys, importlib\n"
        f"for name in {web!r}:\n"
        "    importlib.import_module(name)\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = out.stdout.split()
    assert any(m.startswith("thirtyone.web") for m in loaded)
    assert [m for m in loaded if m in ("rich.console", "rich.table") or room(m) == "terminal"] == []


def test_the_web_room_knows_no_terminal() -> None:
    """The browser's front-end stands beside the terminal's, never on it: no module of
    ``thirtyone.web`` imports ``thirtyone.terminal``, and importing the server loads none."""
    found = modules()
    wrong = [
        f"{name} imports {target}"
        for name, targets in imports(found).items()
        if room(name) == "web"
        for target in targets
        if room(target) == "terminal"
    ]
    assert wrong == []
    pytest.importorskip("starlette")
    code = (
        "import sys, thirtyone.web.app, thirtyone.web.server\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert [m for m in out.stdout.split() if m.startswith("thirtyone.terminal")] == []


#: thirtyone-core's rooms (docs/architecture.md), each allowed to use only those before it.
RUST_ROOMS = ["hand", "rules", "round", "game", "model", "view", "inference", "oracle"]
RUST_CORE = Path(__file__).resolve().parent.parent / "rust" / "thirtyone-core" / "src"


def rust_uses(source: str) -> set[str]:
    """The crate's top-level modules a Rust source names (``crate::x``), comments left out."""
    code = re.sub(r"//[^\n]*", "", source)
    return set(re.findall(r"\bcrate::(\w+)", code))


def test_the_rust_rule_finder_reads_uses_and_skips_comments() -> None:
    source = (
        "//! see [`crate::oracle::x`]\n"
        "use crate::hand::Score; // crate::view\n"
        "let r = crate::round::f();\n"
    )
    assert rust_uses(source) == {"hand", "round"}


def test_each_rust_room_uses_only_the_rooms_above_it() -> None:
    """thirtyone-core's rooms keep to their order (``lib.rs``), and ``game`` and ``view`` know
    nothing of each other."""
    wrong = []
    for mine in RUST_ROOMS:
        folder = RUST_CORE / mine
        assert folder.is_dir(), folder
        for path in sorted(folder.rglob("*.rs")):
            for theirs in rust_uses(path.read_text(encoding="utf-8")) & set(RUST_ROOMS):
                above = RUST_ROOMS.index(theirs) < RUST_ROOMS.index(mine)
                if theirs != mine and (not above or {mine, theirs} == {"game", "view"}):
                    wrong.append(f"{path.relative_to(RUST_CORE)} uses crate::{theirs}")
    assert wrong == []
    rooms = {p.name for p in RUST_CORE.iterdir() if p.is_dir()}
    assert rooms == set(RUST_ROOMS)


def test_the_architecture_page_names_every_module() -> None:
    """docs/architecture.md says what each module holds: every module of the package and every
    source file of the three crates is named there (tests aside)."""
    root = RUST_CORE.parent.parent.parent
    page = (root / "docs" / "architecture.md").read_text(encoding="utf-8")
    rust = [
        p
        for p in (root / "rust").rglob("*.rs")
        if "src" in p.parts
        and p.name not in ("mod.rs", "lib.rs")
        and not p.stem.endswith("tests")
        and not p.stem.startswith("test_")
    ]
    python = [p for p in PACKAGE.rglob("*.py") if not p.name.startswith("__")]
    missing = []
    for path in rust + python:
        top = path.parent == PACKAGE  # named in the package's drawing, without backticks
        named = re.search(rf"[`/]{path.stem}`", page) or (
            top and re.search(rf"\b{path.stem}\b", page)
        )
        if not named:
            missing.append(str(path.relative_to(root)))
    assert missing == []


#: A cross-reference in a docstring or a page: ``:mod:`thirtyone.x```, ``:class:`~thirtyone.x.Y```…
REFERENCE = re.compile(
    r":(mod|class|func|meth|attr|data|exc):`(?:[^`<]*<)?~?(thirtyone(?:\.\w+)+)>?`"
)


def resolves(role: str, name: str) -> bool:
    """Whether a dotted name is a module of the package or something in one (an instance
    attribute named by ``:attr:`` counts when its class sets it on ``self``)."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        rest = parts[i:]
        break
    else:
        return False
    for j, attr in enumerate(rest):
        if hasattr(found, attr):
            found = getattr(found, attr)
        elif role == "attr" and j == len(rest) - 1 and inspect.isclass(found):
            return any(f"self.{attr}" in inspect.getsource(c) for c in inspect.getmro(found)[:-1])
        else:
            return False
    return True


def test_the_reference_checker_tells_a_moved_module() -> None:
    assert resolves("mod", "thirtyone.store.saves")
    assert resolves("attr", "thirtyone.Session.journal")
    assert not resolves("mod", "thirtyone.saves")
    assert not resolves("class", "thirtyone.store.record.Nothing")


def test_every_reference_names_a_module_or_name_that_exists() -> None:
    """The docstrings and docs/ name the modules where they are now, not where they were before
    the package was divided into rooms."""
    docs = RUST_CORE.parent.parent.parent / "docs"
    sources = [*PACKAGE.rglob("*.py"), *docs.rglob("*.md")]
    stale = []
    for path in sources:
        where = str(path.relative_to(PACKAGE if path.suffix == ".py" else docs.parent))
        for m in REFERENCE.finditer(path.read_text(encoding="utf-8")):
            if not resolves(m[1], m[2]):
                stale.append(f"{where}: {m[2]}")
    assert stale == []
