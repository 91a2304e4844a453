"""A GM on a server only their computer can reach is told so on their page, with what to
do; started again with `--lan`, the invites their browser kept follow the server to its
network address, QR codes too (docs/rooms.md, "Playing on your network")."""

from __future__ import annotations

from tabletop.rooms.access import Access
from tabletop.rooms.hosts import PublicAddress
from tests.pages.driver import PHONE, join, live, open_room, seat
from tests.pages.expecting import expect
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
    at_home = PublicAddress.parse(f"http://127.0.0.1:{port}")  # as a plain `tabletop serve`
    alone = serve_in_thread(store, port=port, address=at_home)
    gm = seat(browser)
    try:
        kept = open_room(gm, alone.url, "dice")
        note = gm.page.locator(".invites [role=note]")
        expect(note.locator("p")).to_have_text(ALONE)
        expect(note.locator("code")).to_have_text("tabletop serve --lan")
        # its roles and contrast: test_reach.py checks the GM's page on a loopback server
        expect(gm.page.locator(".invite img.qr[src^=blob]")).to_have_count(2)
    finally:
        alone.stop()
    room, token = kept["player"].removeprefix(f"{alone.url}/rooms/").split("#")
    moved = f"http://{LAN}:{port}/rooms/{room}#{token}"
    on_lan = PublicAddress.on_lan(LAN, port)
    again = serve_in_thread(store, port=port, address=on_lan, access=Access("key", key=KEY))
    links = gm.page.locator(".invite .link")
    try:
        before = len(gm.bodies)
        live(gm)  # the page open all along reconnects, and follows the server's new address
        expect(links.first).to_have_text(moved)
        expect(note).to_have_count(0)
        expect(gm.page.locator(f'.invite img.qr[data-link="{moved}"][src^=blob]')).to_have_count(1)
        drawn = [r.request.post_data_json["text"] for r in gm.bodies[before:] if "/qr" in r.url]
        assert moved in drawn and not any(link.startswith(alone.url) for link in drawn)
        expect(gm.page.locator("[data-key=my-link] .link")).to_contain_text(f"http://{LAN}:{port}/")
        gm.page.reload()  # the next evening: the invites this browser kept, at the new address
        live(gm)
        expect(links.first).to_have_text(moved)
        ada = seat(browser, PHONE)  # yesterday's invite still joins (a phone opens `moved`)
        join(ada, kept["player"], "Ada")
        expect(gm.page.locator(".members .name", has_text="Ada")).to_be_visible()
    finally:
        again.stop()
        store.close()
    assert not (gm.errors or ada.errors)
