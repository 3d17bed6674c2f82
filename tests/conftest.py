"""Every test saves its games in a folder of its own, never in the user's data folder. Tests
marked ``posix_terminal`` (a pseudo-terminal, a shell pipe, kill -9, file modes) are skipped on
Windows, which has none of them; the rest of the suite runs there against the installed wheel."""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.name != "nt":
        return
    skip = pytest.mark.skip(reason="needs a POSIX terminal, shell or signals")
    for item in items:
        if item.get_closest_marker("posix_terminal"):
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _own_data_folder(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("THIRTYONE_DATA_DIR", str(tmp_path_factory.mktemp("data")))
