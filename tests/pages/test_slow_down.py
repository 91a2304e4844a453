"""A page that sends faster than its member's allowance (docs/rooms.md, "The allowances")
is told to slow down and sends the refused message again after the wait the server names:
every roll pressed lands, witnessed by the page that pressed it, and no control stays busy.
(Before, a refused roll left its button busy for good, and a refused reveal named the
GM's own device absent and raised its alarm.)"""

from __future__ import annotations

import json

from tests.pages.driver import open_room, seat
from tests.pages.expecting import expect
from tests.rooms.conftest import open_test_store, serve_in_thread

PRESSES = 6


def test_a_page_pressing_faster_than_allowed_settles_with_every_roll_in_the_log(
    browser, request, tmp_path_factory
):
    store = open_test_store("sqlite", request, tmp_path_factory.mktemp("slow"))
    running = serve_in_thread(store, rate=3)  # bursts of 6: six rolls at once are too many
    gm = seat(browser)
    try:
        open_room(gm, running.url, "dice")
        box = gm.page.locator("form.dicebox")
        for n in range(PRESSES):
            box.get_by_label("Dice").fill(f"{n + 1}d6")
            box.get_by_role("button", name="Roll").click()
        rolls = gm.page.locator("#log .entry", has_text="rolls")
        expect(rolls).to_have_count(PRESSES, timeout=30_000)
        expect(gm.page.locator("[aria-busy=true]")).to_have_count(0)
        expect(gm.page.locator("#notice")).not_to_contain_text("slow down")
        expect(box).not_to_contain_text("slow down")
        expect(rolls.filter(has_text="witnessed by you")).to_have_count(PRESSES)
        expect(gm.page.locator("#alarm")).to_be_hidden()
    finally:
        running.stop()
        store.close()
    frames = [json.loads(frame) for frame in gm.frames if frame.startswith("{")]
    refused = [f for f in frames if f.get("type") == "error" and f.get("status") == 429]
    assert any(f.get("id") for f in refused), "no roll was refused: the test tried nothing"
    assert not gm.errors
