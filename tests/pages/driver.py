"""What a person does on the pages, as steps the browser tests (and the screenshots) share:
open a room from the lobby, join from an invite, fill an offer's form, roll, choose."""

from __future__ import annotations

import itertools
import json
import re
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Locator, Page

from tabletop.rooms.client import RoomClient, create_room
from tabletop.rooms.tokens import Link
from tests.pages.expecting import expect

PHONE = {"width": 360, "height": 780}
PASTE_SAVED = "Or paste the saved character file here"
"""The field of "bring a saved sheet" that takes a character file's text."""
DESKTOP = {"width": 1280, "height": 900}


@dataclass
class Seat:
    """One person's page, with every websocket frame and JSON body it received."""

    page: Page
    frames: list[str] = field(default_factory=list)
    bodies: list[Any] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    """Uncaught script errors: every test ends by checking there were none."""

    def entries(self) -> dict[int, dict[str, Any]]:
        """Every log entry this page was given, by seq: live on its socket, or a page of
        the log it read over HTTP (the tail at start, earlier pages as it scrolls)."""
        lines = [json.loads(frame) for frame in self.frames]
        for body in self.bodies:
            if urlsplit(body.url).path.endswith("/log") and body.ok and _readable(body):
                lines += [json.loads(text) for text in body.text().splitlines() if text]
        return {line["seq"]: line["event"] for line in lines if "seq" in line and "event" in line}

    def received(self) -> str:
        """Everything that reached this page: its frames, HTTP answers and its DOM now."""
        texts = [body.text() for body in self.bodies if _readable(body)]
        return "\n".join([*self.frames, *texts, self.page.content()])


def _readable(response: Any) -> bool:
    try:
        response.body()
    except Exception:  # a body the page navigated away from is gone
        return False
    return True


FIXED_NONCES = (Path(__file__).parent / "fixed_nonces.js").read_text()
"""The init script every seat's pages run: fixed ids and nonces (see the file)."""

seat_numbers = itertools.count(1)
"""Seats made in the current test; tests/pages/conftest.py starts it again for each test."""

gm_links: dict[str, list[str]] = {}
"""The GM links of the rooms the current test made through the protocol, by room: its
rooms verify when it ends (tests/pages/conftest.py), which needs a GM to end the session."""

protocol_books: dict[str, tuple[str, Path]] = {}
"""The nonce books of the members the current test acts for through the protocol
(`member_client`), by their link's token: with their link. Their rooms verify with these
and the books their pages kept (tests/pages/conftest.py), as a member who plays from both the
command line and the browser checks their entries with both."""

opened: list[BrowserContext] = []
"""The browser contexts of the current test's seats: tests/pages/conftest.py closes them when
the test ends, so no page of a finished test stays open in the session's browser (where it
would keep its socket and, once its server stopped, try to reconnect every 1.5 s)."""


def member_client(link: str) -> RoomClient:
    """A member's protocol client that writes its nonces in the book the room verifies with."""
    token = Link.parse(link).token
    if token not in protocol_books:
        protocol_books[token] = (link, Path(tempfile.mkdtemp(prefix="nonces-")) / "book.jsonl")
    return RoomClient(link, nonces=protocol_books[token][1])


def seat(browser: Browser, viewport: dict[str, int] = DESKTOP) -> Seat:
    context = browser.new_context(viewport=viewport)
    opened.append(context)
    context.add_init_script(FIXED_NONCES.replace("__SEAT__", str(next(seat_numbers))))
    page = context.new_page()
    page.set_default_timeout(10_000)
    made = Seat(page)

    def watch(socket: Any) -> None:
        socket.on("framereceived", lambda payload: made.frames.append(str(payload)))

    page.on("websocket", watch)
    page.on("response", lambda response: made.bodies.append(response))
    page.on("pageerror", lambda error: made.errors.append(str(error)))
    return made


def open_room(
    gm: Seat, url: str, system: str, name: str = "the crypt", **rules: Any
) -> dict[str, str]:
    """The GM opens a room from the lobby, choosing `rules` (by label) in "Rules of this
    table"; its invite links as the GM's page shows them."""
    gm.page.goto(url)
    gm.page.get_by_label("Game system").select_option(system)
    gm.page.get_by_label("Room name").fill(name)
    choose_rules(gm, **rules)
    gm.page.get_by_role("button", name="Open the room").click()
    live(gm)
    links = gm.page.locator(".invite .link")
    expect(links).to_have_count(2)
    return {"player": links.nth(0).inner_text(), "observer": links.nth(1).inner_text()}


def choose_rules(gm: Seat, **rules: Any) -> None:
    """Set options in the lobby's "Rules of this table" by label: a select takes the value
    as JSON, any other field its text."""
    if not rules:
        return
    box = gm.page.locator("details#rules")
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    for label, value in rules.items():
        control = box.get_by_label(label, exact=True)
        if control.evaluate("el => el.tagName") == "SELECT":
            control.select_option(json.dumps(value))
        else:
            control.fill(str(value))


def join(player: Seat, invite: str, name: str) -> None:
    player.page.goto(invite)
    player.page.get_by_label("Your name").fill(name)
    player.page.get_by_role("button", name="Join the table").click()
    live(player)


def gm_and_ada(browser: Browser, url: str, system: str) -> tuple[Seat, Seat]:
    """A GM on a laptop who opened a room of `system` from the lobby, and Ada, a player who
    joined from its invite on a phone."""
    gm, ada = seat(browser), seat(browser, PHONE)
    invites = open_room(gm, url, system)
    join(ada, invites["player"], "Ada")
    return gm, ada


def write_down_ash(gm: Seat, player: Seat, strength: int, omens: int) -> None:
    """The player writes down Ash's scores in a roll-under room (max health 10), and the
    GM's and the player's pages both show her card (a step after this one then waits for
    its own entry, not for this one arriving late)."""
    form = offer(player, "write down a character's scores")
    form.locator("details.more summary").click()
    submit(form, Name="Ash", STR=str(strength), **{"Maximum health": "10", "Omens": str(omens)})
    for person in (gm, player):
        expect(person.page.locator("article.card h3", has_text="Ash")).to_be_visible()


def live(person: Seat) -> None:
    expect(person.page.locator("#status")).to_have_text("live")


def offer(person: Seat, text: str, within: str = "body") -> Any:
    """Open the form of the offer called `text` (in a part of the page: a card named there
    is opened first, if folded) and return it."""
    if within != "body":
        unfold(person, within)
    box = person.page.locator(within).locator("details.offer-box", has_text=text).first
    settled(box)
    if box.get_attribute("open") is None:
        box.locator("summary").first.click()
    return box.locator("form")


def settled(box: Locator) -> None:
    """Wait until the form in `box` is answered: a form the table took closes its box
    then, so whether the box is open is known only after its answer."""
    expect(box.locator("form[aria-busy=true]")).to_have_count(0)


def unfold(person: Seat, within: str | Locator) -> None:
    """Open every folded card that `within` names or holds, as a person presses its Open."""
    page = person.page
    scope = page.locator(within) if isinstance(within, str) else within
    scope.first.wait_for()
    folded = [
        *scope.and_(page.locator("article.card.folded")).all(),
        *scope.locator("article.card.folded").all(),
    ]
    for card_id in [card.get_attribute("data-card") for card in folded]:
        card = page.locator(f'article.card[data-card="{card_id}"]')
        card.locator(".card-line button.fold").click()
        expect(card).to_have_class(re.compile(r"\bopen\b"))


def submit(form: Any, **fields: Any) -> None:
    """Fill a form's fields by label (select, check or type) and send it."""
    for label, value in fields.items():
        control = form.get_by_label(label, exact=True).first
        tag = control.evaluate("el => el.tagName + ':' + (el.type || '')")
        if tag.startswith("SELECT"):
            control.select_option(json.dumps(value))
        elif tag == "INPUT:checkbox":
            control.set_checked(bool(value))
        else:
            control.fill(value if isinstance(value, str) else json.dumps(value))
    form.locator("button[type=submit]").click()


def roll(person: Seat, notation: str, mode: str = "public", label: str = "") -> None:
    box = person.page.locator("form.dicebox")
    box.get_by_label("Dice").fill(notation)
    box.get_by_label("Roll mode").select_option(json.dumps(mode))
    box.get_by_label("For").fill(label)
    box.get_by_role("button", name="Roll").click()


def log_texts(person: Seat) -> list[str]:
    return person.page.locator("#log .entry .text").all_inner_texts()


def wait_for_log(person: Seat, text: str) -> None:
    expect(person.page.locator("#log .entry", has_text=text).first).to_be_visible()


def synced(*people: Seat) -> None:
    """Wait until every page has drawn the room as of the same last entry, so what one
    shows can be compared with another (any page may be the one still catching up)."""
    deadline = time.monotonic() + 15
    while True:
        heads = [person.page.locator("body").get_attribute("data-head") for person in people]
        if len(set(heads)) == 1:
            return
        assert time.monotonic() < deadline, f"the pages stay at different entries: {heads}"
        people[0].page.wait_for_timeout(100)


def step(person: Seat, click: Any) -> None:
    """Click something that appends to the log, and wait until this page has drawn it."""
    before = int(person.page.locator("body").get_attribute("data-head") or 0)
    click()
    expect(person.page.locator("body")).not_to_have_attribute("data-head", str(before))


def open_file(person: Seat, offer_text: str, label: str, name: str, text: str) -> None:
    """Open `text` as the file `name` in the file field `label` of the offer `offer_text`
    (a group's list file), see it fill the box to read before sending, and send it."""
    form = offer(person, offer_text)
    opened = {"name": name, "mimeType": "text/plain", "buffer": text.encode()}
    form.get_by_label(f"Open a file for {label}").set_input_files(opened)
    expect(form.get_by_label(label, exact=True)).to_have_value(text)
    step(person, lambda: form.locator("button[type=submit]").click())


WIDEST = """[...document.querySelectorAll('body *')]
  .filter(el => el.getBoundingClientRect().right > innerWidth + 1)
  .slice(0, 5)
  .map(el => el.tagName + '.' + el.className + ' ' + el.getBoundingClientRect().right)"""

AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


UNEVEN_LABELS = """scope => {
  // Labels of fields side by side (their boxes share a line) whose tops differ.
  const fields = [...scope.querySelectorAll('.fields > .field')].filter(f => f.checkVisibility());
  const uneven = [];
  for (const [i, one] of fields.entries()) {
    for (const other of fields.slice(i + 1)) {
      const a = one.getBoundingClientRect(), b = other.getBoundingClientRect();
      if (a.top >= b.bottom || b.top >= a.bottom) continue;
      const top = (f) => (f.querySelector('label, .fixed-name') || f).getBoundingClientRect().top;
      const names = [one, other].map((f) => f.textContent.slice(0, 20));
      if (Math.abs(top(one) - top(other)) > 1) uneven.push(names.join(' / '));
    }
  }
  return uneven;
}"""


def labels_level(scope: Locator) -> None:
    """Fields side by side in `scope` have their labels level at the top, whatever the
    length of each one's help (issue 30)."""
    assert scope.evaluate(UNEVEN_LABELS) == []


def fits(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate(WIDEST)
    assert width <= PHONE["width"], f"{page.url}: {width} px wide on a phone, by {wide}"


AXE_SCRIPT = Axe().axe_script
"""axe-core as axe-playwright-python bundles it (no network)."""

AXE_OPTIONS = {"runOnly": {"type": "tag", "values": AXE_TAGS}, "resultTypes": ["violations"]}
"""Every rule of those tags runs and each violation keeps all its nodes; `resultTypes` only
spares axe from building a selector for every node that passed, which the check never reads
(the whole results, passes included, cost a second a page: with it, under half)."""


def accessible(page: Page) -> None:
    """axe-core's WCAG 2.1 A/AA and best-practice rules, open details included."""
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT)
    violations = page.evaluate(
        "options => axe.run(document, options).then(found => found.violations)", AXE_OPTIONS
    )
    problems = [
        f"{v['id']}: {v['help']} at {[n['target'] for n in v['nodes']][:3]}" for v in violations
    ]
    assert not problems, "\n".join(problems)


SHORT_GAME = {"turn_cap": 8, "chest_visibility": "hidden"}
"""A board game that ends in well under a minute (AMB-63 turn cap), under hidden chests so
that there is something to keep from players and observers (AMB-16)."""


def board_room(url: str) -> dict[str, str]:
    """A board room made through the protocol with the short game's options (test_lobby.py
    opens one from the lobby's "Rules of this table")."""
    made = create_room(url, "deadweight-board", "the sinking ship", SHORT_GAME)
    gm_links.setdefault(made["room"], []).append(made["gm"])
    return made


def board_table(browser: Browser, url: str) -> tuple[Seat, Seat, Seat]:
    """A board room before its start: the GM, Ann sitting as Red, a greedy bot (Blue) and
    an MCTS bot of 30 simulations (Green) the GM seated, and Wes watching on a phone."""
    links = board_room(url)
    gm, ann, wes = seat(browser), seat(browser), seat(browser, PHONE)
    gm.page.goto(links["gm"])
    live(gm)
    join(ann, links["player"], "Ann")
    join(wes, links["observer"], "Wes")
    submit(offer(ann, "sit as Red"))
    seats = gm.page.locator(".board .seats")
    expect(seats).to_contain_text("Red: Ann")
    mcts = "Green: MCTS bot, 30 simulations"
    for kind, budget, seated in (("greedy", "200", "Blue: greedy bot"), ("mcts", "30", mcts)):
        form = offer(gm, "Seat a bot")
        form.get_by_label("Bot").select_option(kind)
        form.get_by_label("MCTS simulations").fill(budget)
        form.get_by_role("button", name="Seat the bot").click()
        expect(seats).to_contain_text(seated)
    return gm, ann, wes


def my_move(person: Seat) -> str:
    """One move of the deciding seat's holder: a place on the ship when any move points at
    one (and the first move offered there), else the first in the list; which it was."""
    page = person.page
    targets = page.locator(".ship .target")
    if not targets.count():
        step(person, page.locator(".moves button.choice").first.click)
        return "list"

    def on_the_ship() -> None:
        targets.first.click()
        chooser = page.locator("#board-chooser button")
        if chooser.count():
            chooser.first.click()

    step(person, on_the_ship)
    return "board"
