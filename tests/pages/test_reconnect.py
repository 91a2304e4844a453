"""The server restarts mid-scene: each page shows that it is reconnecting, resumes from the
last entry it saw without reloading, keeps what was typed, and sends an intent made while
the server was down once it is back."""

from __future__ import annotations

from tabletop.rooms.client import RoomClient
from tests.pages.driver import join, live, log_texts, open_room, roll, seat, wait_for_log
from tests.pages.expecting import expect
from tests.rooms.conftest import free_port, serve_at, stop_process


def test_the_pages_catch_up_after_the_server_restarts(browser, tmp_path):
    port = free_port()
    data = str(tmp_path / "data")
    process, url = serve_at(port, "--data", data)
    try:
        gm, ada = seat(browser), seat(browser)
        invites = open_room(gm, url, "dice")
        join(ada, invites["player"], "Ada")
        roll(ada, "1d20", label="before the storm")
        wait_for_log(gm, "before the storm")
        for person in (gm, ada):
            person.page.evaluate("window.stillTheSamePage = true")
        ada.page.get_by_label("Message").fill("half a sentence I was typing")

        stop_process(process)
        for person in (gm, ada):
            expect(person.page.locator("#status")).to_have_text("reconnecting…")
        roll(ada, "2d6", label="rolled while the server was down")

        process, url = serve_at(port, "--data", data)
        gm_link = gm.page.evaluate("location.href")
        with RoomClient(gm_link) as client:
            client.act({"kind": "roll", "notation": "1d8", "label": "while the pages were away"})
        for person in (gm, ada):
            live(person)
            wait_for_log(person, "while the pages were away")
            wait_for_log(person, "rolled while the server was down")
            assert person.page.evaluate("window.stillTheSamePage") is True
            texts = log_texts(person)
            assert len(texts) == len(set(texts)), "no entry is shown twice"
        expect(ada.page.get_by_label("Message")).to_have_value("half a sentence I was typing")
        assert not (gm.errors or ada.errors)
    finally:
        stop_process(process)
