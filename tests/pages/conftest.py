"""Browser tests: Playwright drives Debian's Chromium (`make chromium` installs it; Playwright
cannot download its own browser here) against a room server on a free port."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.rooms.conftest import server  # noqa: F401  (the room server each test drives)

CHROMIUM = Path("/usr/bin/chromium")

expect.set_options(timeout=15_000)  # the whole suite runs beside these on two cores


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not CHROMIUM.exists():
        pytest.fail(
            "the browser tests need Chromium: run `make chromium` (apt-get install chromium)"
        )
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM)}
