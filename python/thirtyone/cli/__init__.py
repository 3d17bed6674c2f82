"""The ``thirtyone`` command: one module per group of commands, and the manners they share."""

from thirtyone.cli.app import main

__all__ = ["main"]
