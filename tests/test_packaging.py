"""What ships: the version and metadata, the docs' links (all inside the repository), the README's
two commands, the pinned tools, the wheel and sdist settings and the release workflows.

Files that only a clone has (the workflows, .ci/run, rust-toolchain.toml) are skipped when the
suite runs from an sdist."""

from __future__ import annotations

import importlib.metadata
import importlib.resources
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path
from typing import Any

import pytest
import thirtyone
import yaml

ROOT = Path(__file__).parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
CARGO = tomllib.loads((ROOT / "Cargo.toml").read_text())


def clone_only(path: str) -> Path:
    p = ROOT / path
    if not p.exists():
        pytest.skip(f"{path} is in a clone, not in the sdist")
    return p


# -- version and metadata -------------------------------------------------------------------------


def test_the_version_is_one_everywhere() -> None:
    version = CARGO["workspace"]["package"]["version"]
    assert thirtyone.__version__ == importlib.metadata.version("thirtyone") == version
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert re.search(rf"^## {re.escape(version)}$", changelog, flags=re.M)


def test_metadata() -> None:
    project = PYPROJECT["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert project["authors"] == [{"name": "thirtyone developers"}]
    assert project["keywords"]
    classifiers = project["classifiers"]
    for minor in (11, 12, 13):
        assert f"Programming Language :: Python :: 3.{minor}" in classifiers
    assert not any(c.startswith("License ::") for c in classifiers)  # the SPDX expression rules
    meta = importlib.metadata.metadata("thirtyone")
    assert meta["License-Expression"] == "MIT"
    assert "thirtyone developers" in (meta["Author"] or meta["Author-email"] or "")


def test_the_test_tools_are_pinned_exactly() -> None:
    extras = PYPROJECT["project"]["optional-dependencies"]
    test = extras["test"] + extras["browser-test"]
    names = {re.split(r"[=<>!~\[ ]", r, maxsplit=1)[0] for r in test}
    assert {"pytest", "hypothesis", "pexpect", "ruff", "mypy", "jsonschema", "maturin"} <= names
    assert {"playwright", "pytest-playwright"} <= names
    for requirement in test:
        assert re.fullmatch(r"[a-z0-9-]+==[0-9][0-9a-z.]*", requirement), requirement


# -- the wheel and the sdist ----------------------------------------------------------------------


def test_one_abi3_wheel_stripped_and_a_profiling_profile() -> None:
    binding = tomllib.loads((ROOT / "rust" / "thirtyone-python" / "Cargo.toml").read_text())
    assert "abi3-py311" in binding["dependencies"]["pyo3"]["features"]
    release = CARGO["profile"]["release"]
    assert release["strip"] is True and release["debug"] is False
    profiling = CARGO["profile"]["profiling"]
    assert profiling["inherits"] == "release" and profiling["debug"] and not profiling["strip"]


def test_rust_is_pinned_and_the_workflows_use_the_pins() -> None:
    toolchain = tomllib.loads(clone_only("rust-toolchain.toml").read_text())["toolchain"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", toolchain["channel"])
    assert set(toolchain["components"]) == {"rustfmt", "clippy"}
    wheels = _workflow("wheels.yml")
    assert wheels["env"]["RUST_TOOLCHAIN"] == toolchain["channel"]
    test = PYPROJECT["project"]["optional-dependencies"]["test"]
    maturin = next(r for r in test if r.startswith("maturin=="))
    assert wheels["env"]["MATURIN_VERSION"] == maturin.split("==")[1]


@pytest.mark.skipif(
    shutil.which("maturin") is None or shutil.which("cargo") is None,
    reason="maturin sdist needs maturin and cargo",
)
def test_the_sdist_carries_licence_docs_and_tests(tmp_path: Path) -> None:
    clone_only(".git")
    made = subprocess.run(
        ["maturin", "sdist", "--out", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    # (What maturin said, when it fails: "exit status 1" alone hid a toolchain that rustup did
    # not find under another HOME.)
    assert made.returncode == 0, f"{made.stdout}\n{made.stderr}"
    (sdist,) = tmp_path.glob("*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for needed in (
        "LICENSE",
        "CHANGELOG.md",
        "README.md",
        "docs/oracle.md",
        "docs/rules.md",
        "docs/tables.md",
        "seeds/README.md",
        "seeds/003.md",
        "notes/DECISIONS.md",
        "tests/data/example_state.json",
        "tests/test_schemas.py",
        "python/thirtyone/schemas/state.json",
        "python/thirtyone/schemas/advice.json",
        "python/thirtyone/web/static/index.html",
        "python/thirtyone/web/static/table.js",
        "docs/web.md",
        "rust/thirtyone-core/src/oracle/input.rs",
    ):
        assert needed in names, needed
    assert not any("__pycache__" in n or n.startswith(("target/", ".venv/")) for n in names)
    # The suite runs from the sdist (the release workflow's sdist job): every file a test reads
    # from the source tree by a path from ROOT is in it, the clone's own files (clone_only) apart.
    for read in _files_the_tests_read():
        assert read in names or any(n.startswith(f"{read}/") for n in names), read


def _files_the_tests_read() -> set[str]:
    found = set()
    for test in sorted((ROOT / "tests").glob("*.py")):
        for chain in re.findall(r'\bROOT(?: / "[^"]+")+', test.read_text()):
            found.add("/".join(re.findall(r'"([^"]+)"', chain)))
    assert "scripts/docs_examples.py" in found
    return found


# -- the README and the docs ----------------------------------------------------------------------


def _markdown_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("**/*.md"))]
    files += sorted((ROOT / "seeds").glob("*.md"))
    files += [ROOT / "benches" / "README.md", ROOT / "notes" / "DECISIONS.md"]
    return [f for f in files if f.exists()]


def _slug(heading: str) -> str:
    """The anchor a Markdown heading gets (as GitHub makes it)."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text(), flags=re.S)
    return {_slug(h) for h in re.findall(r"^#+ (.+)$", text, flags=re.M)}


def test_every_link_leads_inside_the_repository() -> None:
    checked = 0
    for md in _markdown_files():
        text = re.sub(r"```.*?```", "", md.read_text(), flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue  # a web address, not a file
            path, _, anchor = target.partition("#")
            resolved = (md.parent / path).resolve() if path else md
            assert resolved.is_relative_to(ROOT.resolve()), f"{md.name}: {target}"
            assert resolved.exists(), f"{md.name}: {target}"
            if anchor:
                assert anchor in _anchors(resolved), f"{md.name}: {target}"
            checked += 1
    assert checked > 20


def test_nothing_points_outside_the_clone() -> None:
    outside = re.compile(r"\.\./shared|shared/(spec|seeds)")
    roots = [ROOT / "README.md", ROOT / "docs", ROOT / "seeds", ROOT / "python", ROOT / "benches"]
    roots += [ROOT / "notes"]
    for root in roots:
        for f in [root] if root.is_file() else sorted(root.glob("**/*")):
            if f.is_file() and f.suffix in {".md", ".py", ".json", ".txt"}:
                assert not outside.search(f.read_text(errors="replace")), f


def test_the_readme_speaks_to_players_not_to_the_tracker() -> None:
    readme = (ROOT / "README.md").read_text()
    assert not re.search(r"\bissues? #?\d+", readme, flags=re.I)
    for word in re.findall(r"\b[0-9a-f]{7,40}\b", readme):
        assert not (re.search(r"[a-f]", word) and re.search(r"\d", word)), word  # a commit


def test_the_two_commands_at_the_top_of_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```sh\n(.*?)\n```", readme, flags=re.S)
    assert blocks[0] == (
        "python3 -m venv .venv && . .venv/bin/activate && pip install . && thirtyone play"
    )
    assert blocks[1] == "bash scripts/test"
    assert readme.index(blocks[1]) < readme.index("## ")
    ci = clone_only(".ci/run").read_text()
    assert "bash scripts/test" in ci


# -- the workflows --------------------------------------------------------------------------------


def _workflow(name: str) -> dict[Any, Any]:
    loaded: dict[Any, Any] = yaml.safe_load(clone_only(f".github/workflows/{name}").read_text())
    return loaded


def _on(workflow: dict[Any, Any]) -> dict[str, Any]:
    # YAML 1.1 reads the key `on` as True.
    on: dict[str, Any] = workflow.get("on", workflow.get(True))
    return on


def test_ci_runs_the_readme_test_command_on_every_push() -> None:
    ci = _workflow("ci.yml")
    assert "push" in _on(ci)
    runs = [s.get("run", "") for job in ci["jobs"].values() for s in job["steps"]]
    assert "bash scripts/test" in runs
    uses = [s.get("uses", "") for job in ci["jobs"].values() for s in job["steps"]]
    assert any("actionlint" in u for u in uses)


def test_wheels_for_every_platform_tested_and_published_on_a_tag() -> None:
    wheels = _workflow("wheels.yml")
    assert _on(wheels)["push"]["tags"] == ["v*"]
    builds = {
        (m["runner"].split("-")[0], m["target"], m["manylinux"])
        for m in wheels["jobs"]["build"]["strategy"]["matrix"]["include"]
    }
    assert builds == {
        ("ubuntu", "x86_64", "2_28"),
        ("ubuntu", "aarch64", "2_28"),
        ("ubuntu", "x86_64-unknown-linux-musl", "musllinux_1_2"),
        ("ubuntu", "aarch64-unknown-linux-musl", "musllinux_1_2"),
        ("macos", "x86_64", ""),
        ("macos", "aarch64", ""),
        ("windows", "x64", ""),
    }
    assert "sdist" in wheels["jobs"]
    # Every wheel is installed and the suite run against it.
    tested = set(wheels["jobs"]["test"]["strategy"]["matrix"]["name"])
    tested |= set(wheels["jobs"]["test-musllinux"]["strategy"]["matrix"]["name"])
    built = {m["name"] for m in wheels["jobs"]["build"]["strategy"]["matrix"]["include"]}
    assert tested == built
    for job in ("test", "test-musllinux"):
        steps = " ".join(s.get("run", "") for s in wheels["jobs"][job]["steps"])
        assert "--only-binary thirtyone" in steps and "pytest" in steps
    publish = wheels["jobs"]["publish"]
    assert publish["permissions"] == {"id-token": "write"}
    assert set(publish["needs"]) == {"build", "sdist", "test", "test-musllinux"}
    assert any("pypa/gh-action-pypi-publish" in s.get("uses", "") for s in publish["steps"])
    assert "refs/tags/v" in publish["if"]


def test_python_m_thirtyone_is_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "thirtyone", "--version"], capture_output=True, text=True
    )
    assert done.returncode == 0
    assert done.stdout == f"thirtyone {thirtyone.__version__}\n"


def test_the_browsers_page_ships_in_the_package() -> None:
    """Every file the table's page loads is in the installed package (the wheel carries the
    static folder): the page, its styles and scripts, and each module a script imports."""
    static = importlib.resources.files("thirtyone.web") / "static"
    html = (static / "index.html").read_text(encoding="utf-8")
    wanted = re.findall(r'(?:src|href)="/static/([^"]+)"', html)
    assert "table.js" in wanted and "table.css" in wanted
    scripts = [name for name in wanted if name.endswith(".js")]
    while scripts:
        name = scripts.pop()
        text = (static / name).read_text(encoding="utf-8")
        for imported in re.findall(r'from "\./([^"]+)"', text):
            if imported not in wanted:
                wanted.append(imported)
                scripts.append(imported)
    for name in wanted:
        assert (static / name).is_file(), name
    assert len(wanted) >= 10
