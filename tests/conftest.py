"""Every test saves its games in a folder of its own, never in the user's data folder."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _own_data_folder(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("THIRTYONE_DATA_DIR", str(tmp_path_factory.mktemp("data")))
