"""The examples of the README and docs/, produced by the product from fixed seeds, so that they
cannot drift from it (``tests/test_docs_examples.py`` checks them):

    python scripts/docs_examples.py           # which examples differ from the product
    python scripts/docs_examples.py --write   # write the product's output into the docs

An example is the fenced block right after a line ``<!-- example: NAME -->``; ``--write``
replaces the block's body. A figure quoted in the prose is a *claim*: the text the docs must
hold, checked but written by hand.

Every answer is computed without a time limit (the figures are the whole of the work, so the
same on every machine) in a data folder of its own.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_STATE = ROOT / "tests" / "data" / "example_state.json"
#: A marked example: its name, its opening fence, its body (each line ending in a line break)
#: and its closing fence, alone on its line.
MARK = re.compile(r"<!-- example: ([\w-]+) -->\n(```\w*\n)(.*?)(^```$)", re.S | re.M)
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@contextmanager
def _whole_answers() -> Iterator[Path]:
    """Every answer without its time limit, and a data folder of its own."""
    import thirtyone.oracle.query as query

    real = query.advise

    def whole(*args: Any, **kwargs: Any) -> Any:
        return real(*args, **{**kwargs, "max_time": None})

    with tempfile.TemporaryDirectory() as data, mock.patch.object(query, "advise", whole):
        yield Path(data)


def _run(args: list[str], *, columns: int, lines: int = 24, terminal: bool = False) -> str:
    """The command's output, as plain text (no styles, no trailing spaces)."""
    from click.testing import CliRunner
    from thirtyone.cli.app import main

    with _whole_answers() as data:
        env = {
            "COLUMNS": str(columns),
            "LINES": str(lines),
            "NO_COLOR": "1",
            "THIRTYONE_DATA_DIR": str(data),
            # As on a terminal (the screen's rows are counted), but without the spinner.
            "TTY_COMPATIBLE": "1" if terminal else "0",
            "TTY_INTERACTIVE": "0",
        }
        result = CliRunner(env=env).invoke(main, args, input="q\n")
    out = ANSI.sub("", result.output)
    return "\n".join(line.rstrip() for line in out.splitlines())


def turn_seed_5() -> str:
    """``thirtyone play --seed 5`` on a terminal of 80 columns and 24 rows: the first turn, from
    the round's head to the prompt."""
    out = _run(["play", "--seed", "5"], columns=80, terminal=True)
    start = out.index("Round 1 · dealer")
    prompt = out.index("Your move (", start)
    end = out.index(": ", out.index(")", prompt)) + 1
    return out[start:end]


def oracle_report() -> str:
    """``thirtyone oracle tests/data/example_state.json --seed 1`` at 80 columns."""
    return _run(["oracle", str(EXAMPLE_STATE), "--seed", "1"], columns=80)


def _example_answer(**changes: Any) -> Any:
    import thirtyone

    state = dict(json.loads(EXAMPLE_STATE.read_text()), **changes)
    with _whole_answers():
        return thirtyone.advise(state, seed=1, max_time=None)


def oracle_json() -> str:
    """``thirtyone oracle tests/data/example_state.json --json --seed 1``, an option a line."""
    answer = _example_answer().to_dict()
    lines = ["{"]
    items = list(answer.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if key == "options":
            lines.append('  "options": [')
            for j, option in enumerate(value):
                end = "," if j < len(value) - 1 else ""
                lines.append(f"    {json.dumps(option, ensure_ascii=False)}{end}")
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines)


def game_reason_quote() -> str:
    """The game's part of the example's reason, as the docs quote it."""
    reason: str = _example_answer().reason
    return textwrap.fill(reason[reason.index("For the game") :], width=96)


#: Each example: the file it is in, and how the product makes it.
EXAMPLES: dict[str, tuple[str, Callable[[], str]]] = {
    "turn-seed-5": ("README.md", turn_seed_5),
    "oracle-report": ("docs/oracle.md", oracle_report),
    "oracle-json": ("docs/oracle.md", oracle_json),
    "oracle-game-reason": ("docs/oracle.md", game_reason_quote),
}


def _pct(p: float | None) -> str:
    return f"{100 * (p or 0.0):.1f}%"


def _doc_state(after: str) -> dict[str, Any]:
    """The first JSON state of docs/oracle.md after the words ``after``."""
    text = (ROOT / "docs" / "oracle.md").read_text()
    block = re.search(r"```json\n(.*?)\n```", text[text.index(after) :], re.S)
    assert block is not None, after
    state: dict[str, Any] = json.loads(block.group(1))
    return state


def _two_seats() -> dict[str, Any]:
    """The two-seat position of ``tests/test_game_value.py`` the docs quote."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("game_value", ROOT / "tests/test_game_value.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    state: dict[str, Any] = module.KNOCK_OR_DRAW
    return state


def claims() -> list[tuple[str, str]]:
    """The figures the prose quotes: (file, the text it must hold, spaces and line breaks
    counting as one space)."""
    import thirtyone
    from thirtyone.oracle.words import FIRST_PLAN, later_plan

    docs = "docs/oracle.md"
    answer = _example_answer()
    best, draw = answer.best, answer.option("draw")
    pending = _example_answer(pending={"draw": "stock", "drew": "9C"})
    put, second = pending.options[0], pending.options[1]
    then = "knocking at your next turn" if later_plan(put) == FIRST_PLAN else later_plan(put)
    out = [
        (docs, f"# '{best.option}', '{answer.reason[:23]} ...'"),
        (docs, f'advice.option("draw").knock_at # {draw.knock_at}'),
        (
            docs,
            f"the `{put.discard}` ({_pct(put.p_safe)} safe, {then}) over the "
            f"`{second.discard}` ({_pct(second.p_safe)})",
        ),
    ]
    with _whole_answers():
        scat = thirtyone.advise(_doc_state("A second example"), seed=1, max_time=None)
        two = thirtyone.advise(_two_seats(), seed=1, max_time=None, names=["Ben", "you"])
        tied = thirtyone.advise(_two_seats(), deals=2_000, playouts=10_000, seed=1, max_time=None)
    out.append((docs, f"safe in {_pct(scat.option('draw').p_safe)} of the rounds if you draw"))
    knock, drawing = two.option("knock"), two.option("draw")
    assert two.best is knock and two.best_game is drawing and not two.tied
    out.append(
        (
            docs,
            f"{_pct(knock.p_safe)} safe against {_pct(drawing.p_safe)} for drawing, beyond the "
            f"margin of ±{100 * knock.margin:.1f}",
        )
    )
    out.append(
        (
            docs,
            f"{_pct(drawing.p_win)} (±{100 * (drawing.p_win_margin or 0):.1f}) against "
            f"{_pct(knock.p_win)} (±{100 * (knock.p_win_margin or 0):.1f})",
        )
    )
    # The README quotes the same answer's game sentence, the other seat named Ben.
    game = two.reason[two.reason.index("For the game") :]
    out.append(("README.md", game[: game.index("It loses fewer lives on average") + 31]))
    knock, drawing = tied.option("knock"), tied.option("draw")
    assert tied.best is drawing and tied.tied == [knock]
    out.append(
        (
            docs,
            f"({_pct(knock.p_safe)} and {_pct(drawing.p_safe)}, within ±{100 * knock.margin:.1f} "
            f"points), and drawing, which loses fewer lives ({drawing.lives_lost:.2f} against "
            f"{knock.lives_lost:.2f}), is the best",
        )
    )
    return out


def _blocks(text: str) -> dict[str, tuple[int, int, str]]:
    """Each example's body in ``text``: its name, start, end and text (without the last line
    break)."""
    return {m.group(1): (m.start(3), m.end(3), m.group(3)[:-1]) for m in MARK.finditer(text)}


def differences(write: bool = False) -> list[str]:
    """What differs between the docs and the product (each in a line), after writing the
    product's examples into the docs when ``write``."""
    found: list[str] = []
    by_file: dict[str, dict[str, str]] = {}
    for name, (file, make) in EXAMPLES.items():
        by_file.setdefault(file, {})[name] = make()
    for file, made in by_file.items():
        path = ROOT / file
        text = path.read_text()
        blocks = _blocks(text)
        for name in made:
            if name not in blocks:
                found.append(f"{file}: no example named {name}")
        for name, (start, end, body) in sorted(blocks.items(), key=lambda b: -b[1][0]):
            if name in made and body != made[name]:
                found.append(f"{file}: the example {name} is not what the product prints")
                text = text[:start] + made[name] + "\n" + text[end:]
        if write:
            path.write_text(text)
    for file, claim in claims():
        if claim not in " ".join((ROOT / file).read_text().split()):
            found.append(f"{file}: should say {claim!r}")
    return found


def main() -> None:
    sys.path.insert(0, str(ROOT / "python"))
    write = "--write" in sys.argv[1:]
    found = differences(write=write)
    for line in found:
        print(("written: " if write and "example" in line else "") + line)
    if found and not write:
        print("Run `python scripts/docs_examples.py --write` to write the examples.")
    sys.exit(1 if found and not write else 0)


if __name__ == "__main__":
    main()
