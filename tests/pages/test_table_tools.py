"""The table's shared tools in the browser (issue 23): who is here for everyone, live; each
roll's mode and who saw it; the rules' marks in the log as text; whispers that end after
sending and keep their names after a reload; the GM's View as, Undo, and a log that
downloads and verifies on every page."""

from __future__ import annotations

import re

from tabletop.rooms import verify
from tabletop.rooms.bundles import read_bundle
from tests.pages.driver import (
    PHONE,
    Seat,
    accessible,
    fits,
    join,
    live,
    open_room,
    roll,
    seat,
    step,
    synced,
    wait_for_log,
)
from tests.pages.expecting import expect


def entry(person: Seat, text: str):
    return person.page.locator("#log .entry", has_text=text).last


def seen(person: Seat, text: str):
    """The badge saying an entry's roll mode and who saw it."""
    return entry(person, text).locator(".badge.seen")


def presence(person: Seat, name: str):
    return person.page.locator("#members li", has=person.page.locator(".name", has_text=name))


def test_everyone_sees_who_is_here_and_each_rolls_mode_and_audience(browser, server):
    gm, ada, bo = seat(browser), seat(browser), seat(browser, PHONE)
    invites = open_room(gm, server, "dice")
    join(ada, invites["player"], "Ada")

    # Who is here, on a player's page too, and live: Bo arriving and leaving shows at once.
    expect(presence(ada, "GM")).to_have_attribute("data-connected", "yes")
    expect(presence(ada, "Ada")).to_contain_text("connected")
    join(bo, invites["player"], "Bo")
    expect(presence(ada, "Bo")).to_have_attribute("data-connected", "yes")
    expect(ada.page.locator("#members .hint")).to_have_text("3 of 3 connected now")

    # Each roll says its mode and who saw it, from each member's side.
    expect(ada.page.get_by_label("Roll mode").locator("option")).to_contain_text(
        ["public", "GM (you and the GM)", "blind (only the GM)", "self (you and the GM)"]
    )
    step(ada, lambda: roll(ada, "4d6dl1", label="open qz"))
    step(ada, lambda: roll(ada, "1d20", "gm", "for the gm qz"))
    step(ada, lambda: roll(ada, "1d8", "self", "to myself qz"))
    step(ada, lambda: roll(ada, "1d6", "blind", "blind qz"))
    synced(ada, gm, bo)
    # A badge says who can read the line as it stands (issue 30): the line a blind roll
    # leaves the others is theirs to read, never "GM only".
    expect(seen(ada, "open qz")).to_have_text("everyone")
    expect(seen(ada, "for the gm qz")).to_have_text("GM roll · you and the GM")
    expect(seen(gm, "for the gm qz")).to_have_text("GM roll · Ada and the GM")
    expect(seen(bo, "Ada rolled for the GM")).to_have_text("GM roll · everyone")
    expect(seen(ada, "to myself qz")).to_have_text("self roll · you and the GM")
    expect(seen(gm, "to myself qz")).to_have_text("self roll · Ada and the GM")
    expect(seen(ada, "Ada made a blind roll")).to_have_text("blind roll · everyone")
    expect(seen(bo, "Ada made a blind roll")).to_have_text("blind roll · everyone")
    expect(seen(gm, "blind qz")).to_have_text("blind roll · GM only")

    # The rules' marks show as marks, never as asterisks or tildes: the dropped die struck.
    for person in (gm, ada, bo):
        text = entry(person, "open qz").locator(".text")
        expect(text.locator("s")).to_have_count(1)
        expect(text).not_to_contain_text("~~")

    # Bo leaves: the others see him away without reloading.
    fits(bo.page)
    bo.page.close()
    expect(presence(ada, "Bo")).to_have_attribute("data-connected", "no")
    expect(presence(gm, "Bo")).to_contain_text("away")
    assert not (gm.errors or ada.errors or bo.errors)


def test_a_whisper_ends_when_sent_and_keeps_names_after_a_reload(browser, server):
    gm, ada, bo = seat(browser), seat(browser), seat(browser)
    invites = open_room(gm, server, "dice")
    join(ada, invites["player"], "Ada")
    join(bo, invites["player"], "Bo")
    say = ada.page.get_by_label("Message")
    say.fill("psst qz")
    to_gm = ada.page.locator("#whisper").get_by_label("GM")
    to_gm.check()
    step(ada, ada.page.get_by_role("button", name="Say").click)
    expect(to_gm).not_to_be_checked()
    say.fill("hello all qz")
    step(ada, ada.page.get_by_role("button", name="Say").click)
    wait_for_log(bo, "hello all qz")
    assert "psst qz" not in bo.received()
    gm.page.reload()
    live(gm)
    expect(entry(gm, "psst qz").locator(".badge.whisper")).to_have_text("whisper to GM")
    assert not (gm.errors or ada.errors or bo.errors)


def test_the_gm_views_as_a_player_undoes_and_everyone_verifies_the_log(browser, server):
    gm, ada, bo = seat(browser), seat(browser, PHONE), seat(browser)
    invites = open_room(gm, server, "dice")
    join(ada, invites["player"], "Ada")
    join(bo, invites["player"], "Bo")
    step(ada, lambda: roll(ada, "1d8", "self", "mine alone qz"))
    step(bo, lambda: roll(bo, "2d6", label="in the open qz"))

    # View as Ada: the banner says so and the log is hers, still live while the GM looks.
    gm.page.get_by_label("View as").select_option(label="Ada (player)")
    expect(gm.page.locator("#viewing .banner")).to_contain_text("Viewing as Ada")
    wait_for_log(gm, "mine alone qz")
    expect(seen(gm, "mine alone qz")).to_have_text("self roll · you and the GM")
    step(bo, lambda: roll(bo, "1d4", label="while viewing qz"))
    wait_for_log(gm, "while viewing qz")
    expect(gm.page.locator("#notice")).to_be_empty()
    # ... and read-only as it says (issue 30): no dice box, no chat, no form to post as the
    # GM from Ada's page, and the log panel says why.
    expect(gm.page.locator(".viewing-note")).to_contain_text("read-only")
    for part in ("form.dicebox", "form.chat", "#main form"):
        expect(gm.page.locator(part).filter(visible=True)).to_have_count(0)
    gm.page.get_by_role("button", name="Back to the GM view").click()
    expect(gm.page.locator("#viewing .banner")).to_have_count(0)
    expect(seen(gm, "mine alone qz")).to_have_text("self roll · Ada and the GM")
    expect(gm.page.locator("form.dicebox")).to_be_visible()

    # Undo: the GM says yes to what it takes back; the log keeps it, marked.
    asked: list[str] = []

    def answer(dialog) -> None:
        asked.append(dialog.message)
        dialog.accept()

    gm.page.once("dialog", answer)
    undo = gm.page.locator(".undo button")
    expect(undo).to_have_text(re.compile(r"^Undo “Roll dice” by Bo: .*while viewing qz"))
    step(gm, undo.click)
    assert asked and "while viewing qz" in asked[0] and "by Bo" in asked[0], asked
    synced(gm, ada, bo)
    for person in (gm, ada, bo):
        taken = entry(person, "while viewing qz")
        expect(taken).to_have_class(re.compile(r"\bundone\b"))
        expect(taken.locator(".badge.back")).to_have_text("taken back")
    expect(undo).to_contain_text("in the open qz")
    gm.page.once("dialog", lambda dialog: dialog.dismiss())
    undo.click()
    expect(entry(gm, "in the open qz")).not_to_have_class(re.compile(r"\bundone\b"))

    # Once the GM has ended the session, the GM's record and a player's own check on their
    # own machines, and each downloads as the one file `room verify` checks.
    gm.page.once("dialog", lambda dialog: dialog.accept())
    step(gm, gm.page.get_by_role("button", name="End the session", exact=True).click)
    synced(gm, ada)
    for person in (gm, ada):
        person.page.get_by_role("button", name="Check my record here").click()
        expect(person.page.locator("#verified")).to_contain_text("Your record checks here")
        with person.page.expect_download() as got:
            person.page.get_by_role("button", name="Download my record").click()
        bundle = read_bundle(got.value.path().read_text())
        assert bundle is not None
        verify(bundle.export, mine=bundle.nonces, member=bundle.member, heads=bundle.heads)
    fits(ada.page)
    typed_at_16_px(ada)
    accessible(gm.page)
    assert not (gm.errors or ada.errors or bo.errors)


def typed_at_16_px(person: Seat) -> None:
    """On a phone every field's text is 16 px or more, so none zooms the page as it takes
    focus, and a whisper's box is a finger's target (issue 30)."""
    small = person.page.evaluate(
        """() => [...document.querySelectorAll('input, select, textarea')]
          .filter((el) => el.checkVisibility() && el.type !== 'checkbox')
          .map((el) => [el.labels?.[0]?.textContent, getComputedStyle(el).fontSize])
          .filter(([, size]) => parseFloat(size) < 16)"""
    )
    assert not small, small
    box = person.page.locator("#whisper input").first.bounding_box()
    assert box and box["width"] >= 24 and box["height"] >= 24, box
