"""Every page on a 360-px phone: no horizontal scrolling, and axe-core (bundled with
axe-playwright-python, no network) finds no violation of roles, names and labels."""

from __future__ import annotations

from tests.pages.driver import PHONE, accessible, fits, join, live, offer, open_room, seat, submit
from tests.pages.expecting import expect


def test_every_page_fits_a_phone_and_passes_the_accessibility_check(browser, server):
    gm, ada = seat(browser, PHONE), seat(browser, PHONE)
    gm.page.goto(server)
    fits(gm.page)
    accessible(gm.page)
    invites = open_room(gm, server, "dead-weight")
    ada.page.goto(invites["player"])
    expect(ada.page.get_by_label("Your name")).to_be_visible()
    fits(ada.page)
    accessible(ada.page)
    join(ada, invites["player"], "Ada")
    submit(offer(ada, "make a character"), Name="Amber")
    form = offer(ada, "test or check an attribute", "article.card")
    form.locator("button[type=submit]").click()
    for person in (gm, ada):
        expect(person.page.locator(".exchange .pool .face").first).to_be_visible()
        live(person)
        fits(person.page)
        accessible(person.page)
    gm.page.goto(f"{server}/help/verify")
    fits(gm.page)
    accessible(gm.page)
    assert not (gm.errors or ada.errors)
