"""Every page on a 360-px phone: no horizontal scrolling, and axe-core (bundled with
axe-playwright-python, no network) finds no violation of roles, names and labels."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from tests.pages.driver import PHONE, join, live, offer, open_room, seat, submit

WIDEST = """[...document.querySelectorAll('body *')]
  .filter(el => el.getBoundingClientRect().right > innerWidth + 1)
  .slice(0, 5)
  .map(el => el.tagName + '.' + el.className + ' ' + el.getBoundingClientRect().right)"""

AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


def fits(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate(WIDEST)
    assert width <= PHONE["width"], f"{page.url}: {width} px wide on a phone, by {wide}"


def accessible(page: Page) -> None:
    """axe-core's WCAG 2.1 A/AA and best-practice rules, open details included."""
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    found = Axe().run(page, options={"runOnly": {"type": "tag", "values": AXE_TAGS}})
    problems = [
        f"{v['id']}: {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in found.response["violations"]
    ]
    assert not problems, "\n".join(problems)


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
