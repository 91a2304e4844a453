"""Browser tests: Playwright drives Debian's Chromium (`make chromium` installs it; Playwright
cannot download its own browser here) against a room server on a free port."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.pages import driver
from tests.rooms.conftest import open_test_store, serve_in_thread

CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture(scope="module")
def server(request, tmp_path_factory):
    """A room server on SQLite for a module's pages: the pages see the protocol, not the
    database, and tests/rooms already run every protocol test on PostgreSQL too."""
    store = open_test_store("sqlite", request, tmp_path_factory.mktemp("served"))
    running = serve_in_thread(store)
    yield running.url
    running.stop()
    store.close()


@pytest.fixture(autouse=True)
def _seats_from_one():
    """Each test numbers its seats from 1, so its pages' nonces (and so its dice) do not
    depend on which tests ran before it; its seats' pages are closed when it ends."""
    driver.seat_numbers = itertools.count(1)
    yield
    while driver.opened:
        driver.opened.pop().close()


expect.set_options(timeout=15_000)  # the whole suite runs beside these on two cores


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not CHROMIUM.exists():
        pytest.fail(
            "the browser tests need Chromium: run `make chromium` (apt-get install chromium)"
        )
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM)}
