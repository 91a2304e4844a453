"""A page that sends faster than its member's allowance (docs/rooms.md, "The allowances")
is told to slow down and sends the refused message again after the wait the server names:
every roll pressed lands, witnessed by the page that pressed it, and no control stays busy.
(Before, a refused roll left its button busy for good, and a refused reveal named the
GM's own device absent and raised its alarm.)"""

from __future__ import annotations

import json
import time

from tabletop.rooms import allowances
from tabletop.rooms.allowances import Rates
from tests.pages.driver import open_room, seat
from tests.pages.expecting import expect
from tests.rooms.conftest import open_test_store, serve_in_thread

PRESSES = 6
BURST = 4
"""The GM's allowance at once: fewer than the presses, so some are refused however slowly a
loaded machine presses, while the allowances' clock is held (`HeldClock`)."""


class HeldClock:
    """The allowances' clock, held still while the page presses (no refill, so a press is
    refused whatever the machine's load) and let go once one is, running on from there."""

    def __init__(self) -> None:
        self.held_at: float | None = None
        self.lag = 0.0

    def monotonic(self) -> float:
        return time.monotonic() - self.lag if self.held_at is None else self.held_at

    def hold(self) -> None:
        self.held_at = self.monotonic()

    def let_go(self) -> None:
        assert self.held_at is not None
        self.lag = time.monotonic() - self.held_at
        self.held_at = None


def refusals(frames: list[str]) -> list[dict]:
    """The frames that refused a message for the allowance, naming it."""
    parsed = [json.loads(frame) for frame in frames if frame.startswith("{")]
    return [f for f in parsed if f.get("type") == "error" and f.get("status") == 429]


def test_a_page_pressing_faster_than_allowed_settles_with_every_roll_in_the_log(
    browser, request, tmp_path_factory, monkeypatch
):
    clock = HeldClock()
    monkeypatch.setattr(allowances, "time", clock)
    store = open_test_store("sqlite", request, tmp_path_factory.mktemp("slow"))
    rates = Rates(member=3, member_burst=BURST, address=10_000, address_burst=10_000)
    running = serve_in_thread(store, rates=rates)
    gm = seat(browser)
    try:
        open_room(gm, running.url, "dice")
        box = gm.page.locator("form.dicebox")
        clock.hold()
        for n in range(PRESSES):
            box.get_by_label("Dice").fill(f"{n + 1}d6")
            box.get_by_role("button", name="Roll").click()
        deadline = time.monotonic() + 30
        while not refusals(gm.frames) and time.monotonic() < deadline:
            gm.page.wait_for_timeout(50)  # Playwright hands the test the page's frames
        clock.let_go()
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
    assert any(f.get("id") for f in refusals(gm.frames)), "no roll was refused: tried nothing"
    assert not gm.errors
