"""Browser tests: Playwright drives Debian's Chromium, its headless shell (`make chromium`
installs both; Playwright cannot download its own browser here), against a room server on a
free port."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

from tests.pages import driver
from tests.rooms.conftest import open_test_store, serve_in_thread

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium: a headed run (`--headed`) and the screenshots (screenshots.py) use it."""
HEADLESS_SHELL = Path("/usr/lib/chromium/chromium-headless-shell")
"""Debian's chromium-headless-shell: Chromium's own headless browser, the same Blink and V8
(and what Playwright runs headless wherever it can download its browsers), without the full
browser's window machinery; the suite's browser work takes about 40% less CPU with it."""


@pytest.fixture(scope="session")
def server(request, tmp_path_factory):
    """A room server on SQLite for the pages of a test process: the pages see the protocol,
    not the database, and tests/rooms already run every protocol test on PostgreSQL too.
    One for the whole session (it was one a module: a dozen starts of its shard and pool
    processes), as every test opens rooms of its own and closes its pages when it ends."""
    store = open_test_store("sqlite", request, tmp_path_factory.mktemp("served"))
    running = serve_in_thread(store)
    httpx.get(f"{running.url}/systems", timeout=60)  # every system loaded once, before a page waits
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
    full = browser_type_launch_args.get("headless") is False or os.environ.get(
        "TABLETOP_FULL_CHROMIUM"
    )  # headed, or the control walks (`make walk`): every control as the full browser has it
    chromium = CHROMIUM if full else HEADLESS_SHELL
    if not chromium.exists():
        pytest.fail(
            f"the browser tests need {chromium}: run `make chromium`"
            " (apt-get install chromium chromium-headless-shell)"
        )
    return {**browser_type_launch_args, "executable_path": str(chromium)}
