"""JSON Schemas of the Oracle's input (``state``) and answer (``advice``), shipped with the package
(``thirtyone schema state|advice`` prints them; docs/oracle.md explains every field).

The schemas describe the shape: keys, types, card text, ranges. What a schema cannot say (a seat
within the state's ``seats``, the turn order, a card seen twice, whether the table's rules could
have played the round) the reader checks and names when it refuses a state.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from thirtyone.errors import ThirtyOneError

#: The schemas there are, by name.
NAMES = ("state", "advice")


def schema_text(name: str) -> str:
    """The schema called ``name`` (``state`` or ``advice``) as JSON text."""
    if name not in NAMES:
        raise ThirtyOneError(f"no schema called {name!r}: choose one of {', '.join(NAMES)}")
    return resources.files(__name__).joinpath(f"{name}.json").read_text(encoding="utf-8")


def schema(name: str) -> dict[str, Any]:
    """The schema called ``name`` (``state`` or ``advice``) as a dict."""
    loaded: dict[str, Any] = json.loads(schema_text(name))
    return loaded
