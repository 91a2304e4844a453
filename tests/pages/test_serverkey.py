"""A lobby on a server that opens rooms for holders of its key (`tabletop serve --key-file`):
it asks for the key, refuses without it in one line, and keeps it in the tab once the server
took it (docs/rooms.md, "Who may open rooms")."""

from __future__ import annotations

import pytest

from tabletop.rooms.access import Access
from tests.pages.driver import accessible, live, seat
from tests.pages.expecting import expect
from tests.rooms.conftest import open_test_store, serve_in_thread

KEY = "a-server-key-for-the-club-1234"


@pytest.fixture(scope="module")
def keyed(request, tmp_path_factory):
    store = open_test_store("sqlite", request, tmp_path_factory.mktemp("keyed"))
    running = serve_in_thread(store, access=Access("key", key=KEY))
    yield running.url
    running.stop()
    store.close()


def test_the_lobby_asks_for_the_server_key_once_per_tab(browser, keyed):
    gm = seat(browser)
    gm.page.goto(keyed)
    field = gm.page.get_by_label("Server key")
    expect(field).to_be_visible()
    accessible(gm.page)
    gm.page.get_by_role("button", name="Open the room").click()
    expect(gm.page.locator("#error")).to_contain_text("holders of its key only")
    field.fill("not the key at all")
    gm.page.get_by_role("button", name="Open the room").click()
    expect(gm.page.locator("#error")).to_contain_text("holders of its key only")
    field.fill(KEY)
    gm.page.get_by_role("button", name="Open the room").click()
    live(gm)
    assert gm.page.evaluate("sessionStorage.getItem('tabletop.server-key')") == KEY
    assert gm.page.evaluate("localStorage.getItem('tabletop.server-key')") is None
    gm.page.goto(keyed)
    expect(gm.page.get_by_label("Server key")).to_have_value(KEY)
    assert not gm.errors


def test_a_lobby_on_an_open_server_asks_for_no_key(browser, server):
    gm = seat(browser)
    gm.page.goto(server)
    expect(gm.page.get_by_role("button", name="Open the room")).to_be_visible()
    expect(gm.page.get_by_label("Room name")).to_be_visible()
    assert gm.page.get_by_label("Server key").count() == 0
