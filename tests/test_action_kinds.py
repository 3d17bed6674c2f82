"""The stub types an action's kind by the kinds the core takes (``Literal``, not ``str``): a
misspelt kind is a type error where it is written, and ``Action.kind`` can be matched
exhaustively. The kinds in the stub, the package's ``ACTION_KINDS`` and the binding's are one
list."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from thirtyone import Action
from thirtyone.errors import IllegalMoveError
from thirtyone.game.seats import ACTION_KINDS, is_action_kind

STUB = Path(__file__).resolve().parent.parent / "python" / "thirtyone" / "_core.pyi"


def stub_kinds() -> tuple[str, ...]:
    """The kinds the stub's ``_ActionKind`` lists."""
    for node in ast.parse(STUB.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.AnnAssign) and ast.unparse(node.target) == "_ActionKind":
            assert node.value is not None
            literal = ast.literal_eval(ast.unparse(node.value).removeprefix("Literal"))
            return tuple(literal)
    raise AssertionError("the stub names no _ActionKind")


def test_the_stub_the_package_and_the_core_name_the_same_kinds() -> None:
    kinds = stub_kinds()
    assert kinds == ACTION_KINDS
    for kind in kinds:
        made = Action(kind, "AH") if kind in ("put", "hide") else Action(kind)
        assert made.kind == kind
    with pytest.raises(IllegalMoveError):
        Action("drwa")  # type: ignore[arg-type]
    assert is_action_kind("look") and not is_action_kind("drwa") and not is_action_kind(None)


def test_the_stub_types_the_kind_with_the_kinds(tmp_path: Path) -> None:
    """What mypy says of code using the stub: ``kind`` is the kinds, a misspelt one is refused."""
    api = pytest.importorskip("mypy.api")
    code = 'from thirtyone import Action\nreveal_type(Action("draw").kind)\nAction("drwa")\n'
    config = tmp_path / "mypy.ini"  # (not the project's, whose files would be checked too)
    config.write_text("[mypy]\n")
    out, _, status = api.run(
        ["--config-file", str(config), "--strict", "--no-incremental", "-c", code]
    )
    assert status == 1, out
    revealed = next(line for line in out.splitlines() if "Revealed type" in line)
    assert all(f"'{kind}'" in revealed for kind in ACTION_KINDS), revealed
    assert "Literal['drwa']" in out and "arg-type" in out, out
