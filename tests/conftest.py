"""Every test saves its games in a folder of its own, never in the user's data folder.

Tests marked ``posix_only`` (a pseudo-terminal, a shell, kill -9, file modes, a closed pipe's
EPIPE) are skipped on Windows, which has none of them; the rest of the suite runs there against
the installed wheel."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# No test may depend on how fast the machine is: Hypothesis's deadline for an example and its
# health check "data generation is too slow" both do, so neither applies to any test.
settings.register_profile("thirtyone", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("thirtyone")


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


@pytest.fixture
def short_tmp() -> Iterator[Path]:
    """A folder of its own with a short path (``/tmp/t31-…``): for the tests that read a path
    back whole from a message or a screen line, which crop a long path or break it where the
    terminal ends. ``tmp_path`` is longer under pytest-xdist's workers and in a deep TMPDIR."""
    folder = Path(tempfile.mkdtemp(prefix="t31-", dir="/tmp" if os.name != "nt" else None))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


# -- the web tests: a save of their own, the app on it, and the table served for a browser -------


@pytest.fixture
def save(tmp_path: Path) -> Path:
    """The save a web test's table plays (the server's ``--save-file``)."""
    return tmp_path / "saved-game.json"


@pytest.fixture
def app(save: Path) -> Any:
    """The table's app on ``save``, for Starlette's test client."""
    from web_helpers import make_app

    return make_app(save)


@pytest.fixture
def server() -> Iterator[str]:
    """The table served with a small Oracle (one query a decision), for a browser."""
    from browser_helpers import serving

    with serving(300, 1000) as url:
        yield url


# -- the browser tests (pytest-playwright's fixtures, for every module that uses them) ---------

try:
    from playwright.sync_api import expect as _expect
except ImportError:  # (without Playwright the browser tests say they are skipped)
    pass
else:
    # Every assertion waits up to 30 s for what it asserts, in every module however it is run
    # (Playwright's own 5 s was a speed the tests then depended on: a refusal sent back by the
    # server while it computed the Oracle's advice took longer on a machine busy with three
    # other programs, and a test failed; set in one module, it held only where that module was
    # imported).
    _expect.set_options(timeout=30_000)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Debian's Chromium, without the sandbox a container lacks (``playwright install`` cannot
    download here)."""
    from browser_helpers import CHROMIUM

    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": ["--no-sandbox"]}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_context_args,
        "viewport": {"width": 1280, "height": 800},
        "reduced_motion": "reduce",
    }
