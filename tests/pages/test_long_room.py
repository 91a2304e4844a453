"""A new device on a long room (issue 33): the page shows the log's tail at once and loads
earlier pages as the member asks, each within their allowance (no 429), in order."""

from __future__ import annotations

from tabletop.rooms import Hall, SqliteStore
from tests.pages.driver import PHONE, live, seat
from tests.pages.expecting import expect
from tests.rooms.conftest import fixed_seeds, serve_in_thread
from tests.rooms.conftest import seat as seat_room


def test_a_long_room_opens_at_its_tail_and_loads_earlier_entries_as_asked(browser, tmp_path):
    store = SqliteStore(tmp_path / "rooms.sqlite3")
    hall = Hall(store, seeds=fixed_seeds())
    seated = seat_room(hall, "dice")
    for number in range(450):
        hall.say(seated.room, "m1", f"line {number} qz")
    running = serve_in_thread(store)
    try:
        ada = seat(browser, PHONE)
        ada.page.goto(f"{running.url}/rooms/{seated.room}#{seated.tokens['Ada']}")
        live(ada)
        log = ada.page.locator("#log .entry")
        expect(log.filter(has_text="line 449 qz")).to_have_count(1)
        # one page of the log (its own hello then appends "Ada's device witnesses the dice")
        assert log.filter(has_text=" qz").count() <= 200
        expect(log.filter(has_text="line 0 qz")).to_have_count(0)
        earlier = ada.page.get_by_role("button", name="Show earlier entries")
        for _ in range(3):
            if earlier.is_hidden():
                break
            before = log.count()
            earlier.click()
            expect(log).not_to_have_count(before)
        expect(log.filter(has_text="line 0 qz")).to_have_count(1)
        expect(earlier).to_be_hidden()
        texts = log.all_inner_texts()
        numbers = [int(t.split("line ")[1].split()[0]) for t in texts if "line " in t]
        assert numbers == list(range(450))
        assert not [r.url for r in ada.bodies if r.status == 429]
    finally:
        running.stop()
        store.close()
