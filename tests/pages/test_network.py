"""A GM on a server only their computer can reach is told so on their page, with what to
do; started again with `--lan`, the invites their browser kept follow the server to its
network address, QR codes too (docs/rooms.md, "Playing on your network")."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tabletop.rooms.access import Access
from tabletop.rooms.hosts import PublicAddress
from tests.pages.driver import PHONE, accessible, join, live, open_room, seat
from tests.rooms.conftest import free_port, open_test_store, serve_in_thread

LAN = "192.0.2.7"
"""The network address the second start finds (a documentation address: the browser here
reaches the server at 127.0.0.1, a name a `--lan` server answers to as well)."""

KEY = "a-server-key-for-the-club-1234"

ALONE = [
    "Only this computer can open these links. Phones and other computers cannot reach the "
    "server: it was started for this computer alone.",
    "To play with people on your network, stop the server and start it again with tabletop "
    "serve --lan. These invites and their QR codes then open on their phones.",
]


def test_a_gm_is_told_phones_cannot_reach_and_invites_follow_a_restart_with_lan(
    browser, request, tmp_path_factory
):
    store = open_test_store("sqlite", request, tmp_path_factory.mktemp("network"))
    port = free_port()
    alone = serve_in_thread(
        store, port=port, address=PublicAddress.parse(f"http://127.0.0.1:{port}")
    )
    gm = seat(browser)
    try:
        kept = open_room(gm, alone.url, "dice")
        note = gm.page.locator(".invites [role=note]")
        expect(note.locator("p")).to_have_text(ALONE)
        expect(note.locator("code")).to_have_text("tabletop serve --lan")
        accessible(gm.page)
    finally:
        alone.stop()
    room, token = kept["player"].removeprefix(f"{alone.url}/rooms/").split("#")
    on_lan = PublicAddress.on_lan(LAN, port)
    again = serve_in_thread(store, port=port, address=on_lan, access=Access("key", key=KEY))
    try:
        before = len(gm.bodies)
        gm.page.reload()
        live(gm)
        links = gm.page.locator(".invite .link")
        expect(links.first).to_have_text(f"http://{LAN}:{port}/rooms/{room}#{token}")
        qr = gm.page.locator(".invite img.qr").first
        expect(qr).to_have_attribute("src", re.compile("^blob:"))
        drawn = [r.request.post_data_json["text"] for r in gm.bodies[before:] if "/qr" in r.url]
        assert f"http://{LAN}:{port}/rooms/{room}#{token}" in drawn
        assert not any(link.startswith("http://127.0.0.1") for link in drawn)
        expect(note).to_have_count(0)
        own = gm.page.locator("[data-key=my-link] .link")
        expect(own).to_contain_text(f"http://{LAN}:{port}/rooms/{room}#")
        # the invite kept from yesterday still joins (a phone opens it at the network address)
        ada = seat(browser, PHONE)
        join(ada, kept["player"], "Ada")
        expect(gm.page.locator(".members .name", has_text="Ada")).to_be_visible()
    finally:
        again.stop()
        store.close()
    assert not (gm.errors or ada.errors)
