"""Browser tests: Playwright drives Debian's Chromium, its headless shell (`make chromium`
installs both; Playwright cannot download its own browser here), against a room server on a
free port."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tabletop.rooms import verify
from tabletop.rooms.client import RoomClient
from tabletop.rooms.errors import RoomError
from tabletop.rooms.nonces import read_book
from tabletop.rooms.tokens import Link
from tests.pages import driver
from tests.pages.expecting import TIMEOUT
from tests.rooms.conftest import open_test_store, serve_in_thread

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium: a headed run (`--headed`) and the screenshots (screenshots.py) use it."""
HEADLESS_SHELL = Path("/usr/lib/chromium/chromium-headless-shell")
"""Debian's chromium-headless-shell: Chromium's own headless browser, the same Blink and V8
(and what Playwright runs headless wherever it can download its browsers), without the full
browser's window machinery; the suite's browser work takes about 40% less CPU with it."""


@contextmanager
def serving_pages(request: Any, tmp_path_factory: Any, **settings: Any) -> Iterator[str]:
    """A room server on SQLite for pages (`settings` go to `serve_in_thread`), every system
    loaded once before a page waits; its address. The pages see the protocol, not the
    database, and tests/rooms already run every protocol test on PostgreSQL too."""
    store = open_test_store("sqlite", request, tmp_path_factory.mktemp("served"))
    running = serve_in_thread(store, **settings)
    try:
        httpx.get(f"{running.url}/systems", timeout=60)
        yield running.url
    finally:
        running.stop()
        store.close()


@pytest.fixture(scope="session")
def server(request, tmp_path_factory):
    """The room server for the pages of a test process. One for the whole session (it was
    one a module: a dozen starts of its shard and pool processes), as every test opens
    rooms of its own and closes its pages when it ends."""
    with serving_pages(request, tmp_path_factory) as url:
        yield url


@pytest.fixture(autouse=True)
def _seats_from_one():
    """Each test numbers its seats from 1, so its pages' nonces (and so its dice) do not
    depend on which tests ran before it; its rooms verify when it ends (as the GM, and as
    each member whose page is open, with the nonces that page kept), and its seats' pages
    are closed."""
    driver.seat_numbers = itertools.count(1)
    driver.protocol_books.clear()
    yield
    try:
        verify_every_room()
    finally:
        while driver.opened:
            driver.opened.pop().close()


KEPT = """room => {
  const kept = (key) => JSON.parse(localStorage.getItem(key) || "{}");
  const mine = (key) => key.startsWith(`tabletop.heads.${room}.`);
  const heads = Object.keys(localStorage).filter(mine);
  return {
    book: kept(`tabletop.nonces.${room}`),
    heads: Object.fromEntries(heads.map((key) => [key.split(".").pop(), kept(key)])),
  };
}"""
"""What a page's browser kept of a room: its nonce book, and the heads it kept by member."""


def verify_every_room() -> None:
    """Every honest room verifies (docs/rooms.md): each room an open page shows, once its GM
    ends the dice session, exports in full through the rules and as each member's own
    with their page's nonce book (`--mine`), joined with the book of the test's protocol
    client for that member (`driver.member_client`), and the heads their page kept as a
    witness. A link the test rotated or kicked, or an invite never used, opens nothing and
    is passed over."""
    books: dict[str, dict[str, dict[str, Any]]] = {}
    for context in driver.opened:
        for page in context.pages:
            if "/rooms/" in page.url and "#" in page.url:
                room = Link.parse(page.url).room
                books.setdefault(room, {})[page.url] = page.evaluate(KEPT, room)
    for token, (link, path) in driver.protocol_books.items():
        room = Link.parse(link).room
        pages = [url for url in books.get(room, {}) if Link.parse(url).token == token]
        sent = read_book(path, room) if path.exists() else {}
        for url in pages or [link]:
            kept = books.setdefault(room, {}).setdefault(url, {"book": {}, "heads": {}})
            kept["book"].update(sent)
    for room, kept in books.items():
        roles = {link: _role(link) for link in {*kept, *driver.gm_links.get(room, [])}}
        gm = next((link for link, role in roles.items() if role == "gm"), None)
        if gm is None:
            continue
        with RoomClient(gm) as client:
            client.end_session()
            audit = verify(client.export())
            assert audit.view == "full" and audit.ruled
        for link, page in kept.items():
            if roles[link] is not None:
                with RoomClient(link) as member:
                    me = member.view()["me"]["id"]
                    seen = page["heads"].get(me, {})
                    heads = [{"seq": int(seq), "hash": hash} for seq, hash in seen.items()]
                    verify(member.export(), page["book"], me, heads)
    driver.gm_links.clear()


def _role(link: str) -> str | None:
    """The role of the member whose own link this is; None for an invite, or a link that
    opens nothing any more."""
    with RoomClient(link) as client:
        try:
            return str(client.view()["me"]["role"])
        except RoomError:  # an invite, a link rotated or kicked, a server the test stopped
            return None


expect.set_options(timeout=TIMEOUT)  # for screenshots.py, which asks Playwright itself


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
