"""Every preset and every rule option says which rule document it comes from.

``seeds/README.md`` holds a row for each, naming the documents and the passage. The lists are the
product's own (what ``thirtyone rules`` shows: ``Rules.PRESET_INFO``, the core's presets and
``Rules.options()``), never written out here, so a new preset or option fails this test until
its row is written, and the row must name the same documents as ``thirtyone rules`` does.
"""

from __future__ import annotations

import re
from pathlib import Path

from thirtyone import Rules, _core

ROOT = Path(__file__).parent.parent
SEEDS = ROOT / "seeds"
README = SEEDS / "README.md"
ROW = re.compile(r"\| `([a-z0-9_-]+)` \| ([^|]+) \| (.+) \|")


def _rows(heading: str) -> dict[str, tuple[set[str], str]]:
    """The rows under ``### heading`` of the table section: name -> (documents, passage)."""
    text = README.read_text()
    assert f"\n### {heading}\n" in text, heading
    section = text.split(f"\n### {heading}\n", 1)[1].split("\n#", 1)[0]
    rows: dict[str, tuple[set[str], str]] = {}
    for line in section.splitlines():
        match = ROW.fullmatch(line)
        if match:
            assert match[1] not in rows, f"two rows for {match[1]}"
            rows[match[1]] = (_documents(match[2]), match[3])
    return rows


def _documents(text: str) -> set[str]:
    return set(re.findall(r"\b\d{3}\b", text))


def test_every_preset_has_a_row_naming_its_document() -> None:
    presets = set(_core.presets())
    assert presets == set(Rules.PRESET_INFO)
    rows = _rows("Presets")
    assert set(rows) == presets, "seeds/README.md: rows for exactly the presets"
    for name, info in Rules.PRESET_INFO.items():
        documents, passage = rows[name]
        assert documents, name
        assert documents == _documents(info.document), name
        assert len(passage) > 40, name  # the passage is described, not just named


def test_every_option_has_a_row_naming_its_documents() -> None:
    options = Rules.options()
    assert [o.name for o in options] == Rules.option_names()
    rows = _rows("Rule options")
    assert set(rows) == set(Rules.option_names()), "seeds/README.md: rows for exactly the options"
    for option in options:
        documents, passage = rows[option.name]
        assert documents, option.name
        assert documents == _documents(option.seed), option.name
        assert len(passage) > 40, option.name


def test_every_named_value_of_an_option_is_traced() -> None:
    # An option with a list of named values (not yes/no, not a range) says where each comes from.
    rows = _rows("Rule options")
    traced = 0
    for option in Rules.options():
        values = option.values.split(", ")
        if values == ["true", "false"] or not all(re.fullmatch(r"[a-z0-9_.]+", v) for v in values):
            continue
        passage = rows[option.name][1]
        for value in values:
            assert f"`{value}`" in passage, f"{option.name}: {value}"
            traced += 1
    assert traced >= 15


def test_each_document_has_its_page_and_the_readme_links_it() -> None:
    readme = README.read_text()
    named = set().union(*(_documents(p.document) for p in Rules.PRESET_INFO.values()))
    for option in Rules.options():
        named |= _documents(option.seed)
    assert named == {"000", "001", "002", "003"}
    for document in sorted(named):
        page = SEEDS / f"{document}.md"
        assert page.read_text().startswith(f"# Seed {document}"), page
        assert f"]({document}.md)" in readme, document


def test_the_rulings_cited_exist() -> None:
    decisions = (ROOT / "notes" / "DECISIONS.md").read_text()
    numbered = {int(n) for n in re.findall(r"^(\d+)\. ", decisions, flags=re.M)}
    cited: set[int] = set()
    for page in sorted(SEEDS.glob("*.md")):
        for group in re.findall(r"\brulings? ([\d, ]+\d)", page.read_text()):
            cited |= {int(n) for n in re.findall(r"\d+", group)}
    assert cited and cited <= numbered, sorted(cited - numbered)


def test_the_account_lives_in_one_place() -> None:
    old = "docs/" + "seeds"  # spelt in two parts so that this file does not name it
    assert not [f for f in (ROOT / old).glob("**/*") if f.is_file()], "a second copy"
    roots = [ROOT / "README.md", ROOT / "pyproject.toml", *(ROOT / d for d in ("docs", "seeds"))]
    roots += [ROOT / "python", ROOT / "tests", ROOT / "benches", ROOT / "notes"]
    for root in roots:
        for f in [root] if root.is_file() else sorted(root.glob("**/*")):
            if f.is_file() and f.suffix in {".md", ".py", ".toml", ".json", ".txt"}:
                assert old not in f.read_text(errors="replace"), f
