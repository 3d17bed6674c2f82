"""The Oracle's input (``oracle.md``): a round as one player sees it, as a dict or JSON text.

:func:`parse` hands it to the Rust core, which reads and checks it once (every key, type,
card and rule, naming the place of a problem; then the round is replayed to check that it could
have happened) and raises a :class:`~thirtyone.errors.ThirtyOneError` subclass otherwise.
The input of a running game is :meth:`thirtyone.game.session.Session.view` (the core builds it
from the round's record).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from thirtyone import _core
from thirtyone.errors import SettingsError, StateError
from thirtyone.game.rules import Rules
from thirtyone.game.seats import MODELS
from thirtyone.names import shown

#: What :func:`parse` takes: JSON text, a mapping in the ``oracle.md`` shape, or a parsed state.
StateLike = str | bytes | Mapping[str, Any] | _core.State


def parse(
    state: StateLike,
    *,
    preset: str | None = None,
    changes: Mapping[str, Any] | None = None,
    models: Sequence[str | None] | None = None,
) -> _core.State:
    """Read and check a state. ``preset`` replaces the state's rules; ``changes`` (option name to
    value) apply on top of them; ``models`` replaces the state's ``models`` (how each seat
    plays: ``table``, ``person`` or ``expert``, anything for your own seat)."""
    if isinstance(state, _core.State) and preset is None and not changes and models is None:
        return state
    if isinstance(state, _core.State):
        raise StateError("rules and models can be changed only while reading a state, not after")
    if isinstance(state, (str, bytes)) and not state.strip():
        # (The reader said "not valid JSON: EOF while parsing a value at line 1 column 0".)
        raise StateError("the state is empty: a state is a JSON object (docs/oracle.md)")
    if isinstance(state, Mapping) and isinstance(state.get("rules"), Rules):
        # (A Rules is a dataclass with class attributes, which the core's reader takes for
        # fields: it said "rules: KeyError: 'PRESET_INFO'". Its own object is what it means.)
        state = {**state, "rules": state["rules"].to_dict()}
    if models is not None:
        state = with_models(state, models)
    return _core.State.parse(state, preset, list((changes or {}).items()))


def with_models(state: str | bytes | Mapping[str, Any], models: Sequence[str | None]) -> Any:
    """``state`` with its ``models`` replaced (a state that is not a JSON object is left for the
    core to name its problem)."""
    if isinstance(state, Mapping):
        return {**state, "models": list(models)}
    try:
        doc = json.loads(state)
    except (ValueError, UnicodeDecodeError):
        return state
    if not isinstance(doc, dict):
        return state
    doc["models"] = list(models)
    return json.dumps(doc)


def check_read_as(read_as: str | None) -> None:
    """Raise :class:`~thirtyone.errors.SettingsError` unless ``read_as`` is None (each opponent
    read by their own model) or one of :data:`~thirtyone.game.seats.MODELS`: the ``read_as`` of
    an Oracle player, a tournament or a calibration (:func:`read_all_as`)."""
    if read_as is not None and read_as not in MODELS:
        raise SettingsError(f"read_as must be one of {', '.join(MODELS)}, not {shown(read_as)}")


def read_all_as(state: Mapping[str, Any], read_as: str) -> dict[str, Any]:
    """``state`` (a dict in the ``oracle.md`` shape) with every opponent read by the model
    ``read_as`` instead of their own: ``table`` drops the ``models`` (as the Oracle read every
    table before opponent models), another model is given to every seat but ``me``. What
    ``--read-as`` does: it measures what a model is worth, the same table read with another."""
    out = {key: value for key, value in state.items() if key != "models"}
    if read_as != "table":
        out["models"] = [None if i == state["me"] else read_as for i in range(state["seats"])]
    return out
