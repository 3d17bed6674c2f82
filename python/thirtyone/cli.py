"""The ``thirtyone`` command."""

from __future__ import annotations

import click


@click.group()
def main() -> None:
    """Thirty-One against computer players, with the Oracle's advice."""
