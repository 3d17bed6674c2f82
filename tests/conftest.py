"""Every test saves its games in a folder of its own, never in the user's data folder.

Tests marked ``posix_only`` (a pseudo-terminal, a shell, kill -9, file modes, a closed pipe's
EPIPE) are skipped on Windows, which has none of them; the rest of the suite runs there against
the installed wheel."""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.name != "nt":
        return
    skip = pytest.mark.skip(reason="needs POSIX: a pseudo-terminal, a shell, signals or pipes")
    for item in items:
        if item.get_closest_marker("posix_only"):
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _own_data_folder(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("THIRTYONE_DATA_DIR", str(tmp_path_factory.mktemp("data")))
