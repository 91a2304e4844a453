"""Every control is exercised (issue 23): for each room system and plain dice, a GM, a
player and an observer, each on a 360 × 740 phone, walk the room page, activating every
button, form, pick-list, disclosure, link and place on the ship the page offers them,
found from the page itself and found again after each step until nothing new appears
(tests/pages/walker.py says how, and how it fills a form from what the form offers).

After every step: no error shown on any page, no console error, no failed request (HTTP 400
or more, or a request that failed), the step changed something (its page, its address, its
focus, a download or a page it opened), no page scrolls sideways and every visible control
is at least 44 CSS px across its smaller side, and no page (the GM's viewing as a member
too) shows data for words: JSON, Python values, the room's ids or the schema's values
written as ids (walker.py, the text lint; dice notation is words). At the end: every control
a page showed was activated (or went before its turn, its kind in the log), every intent
kind the server offered a member (`GET /rooms/{room}/legal`, what the page draws its offers
from) reached the log as that member's (or anyone's, where their control for it went before
its turn), and nothing hidden reached the player: no text of an entry the GM's log holds and
the player's does not, no planted value (the GM's blind roll's label; a hidden tracker's
name; a secret character's silver; the board's chests), in any frame of the player's socket,
any HTTP answer or the page.

Skipped, and why: the import forms, whose one required field is a whole sheet as JSON
from a file on disk (or pasted), with no example to fill it from: "bring a saved sheet" in
every RPG, and roll-under's "take on a follower" and "bring a new character in place of a
dead one"; their kinds are not asked of the log, and each walk names what it skipped.
Links that leave the app would be skipped too (the room page has none). Each walk prints
what it found, activated and skipped, the kinds offered and reached, and its time
(`pytest -s`; `WALK_VERBOSE=1` prints every step as it goes)."""

from __future__ import annotations

import secrets
import time
from typing import Any

import pytest
from playwright.sync_api import Browser

from tests.pages import driver
from tests.pages.conftest import serving_pages
from tests.pages.walker import Walk, Walking, finish

pytestmark = pytest.mark.walk
"""About three minutes on two cores: `make walk` runs them, and CI after `make test`."""

BOT_PAUSE = 3600.0
"""Seconds a bot's seat waits before moving by itself: longer than any walk, so a bot
moves only when a member asks it to ('decides', a control any member has while a bot is
to move), and the walk does not race the bots' timers: it is the same on every run."""

BLIND = "zq blind walk roll"
"""The label of the GM's blind roll: no player's page may receive it."""
TRACKER = "zq the hidden doom"
"""A Dead Weight doom tracker the GM keeps hidden (DW-X21)."""
SECRET = 913577
"""The silver on a secret roll-under character's sheet: the players see the character's
name, never the sheet."""


WALK_RATE = 60.0
"""Messages a second a member may send in the walks (a table's pages have 20): the walk
presses a control as soon as every page has settled, several a second on a quiet machine,
and the GM's page answers every roll's witness call beside its own presses and the walk's
reads of the room, so the GM's allowance runs out: the page sends a refused message again
after its wait (tests/pages/test_slow_down.py), which would make the walks wait, not test
more. tests/rooms tries the allowance itself; a person does not press that fast."""


@pytest.fixture(scope="module")
def server(request, tmp_path_factory):
    """tests/pages/conftest.py's server, its bots waiting `BOT_PAUSE` before each move, its
    members allowed `WALK_RATE` messages a second."""
    with serving_pages(request, tmp_path_factory, rate=WALK_RATE, bot_pause=BOT_PAUSE) as url:
        yield url


def table(browser: Browser, url: str, system: str) -> tuple[Walk, Walking, Walking, Walking]:
    """A room of `system` a GM opened from the lobby, Ada and Wes joined from its invites,
    all three on phones; the GM's blind roll made through the dice box."""
    walk = Walk(url)
    gm, ada, wes = walk.add(browser, "GM"), walk.add(browser, "Ada"), walk.add(browser, "Wes")
    invites = driver.open_room(gm.seat, url, system)
    driver.join(ada.seat, invites["player"], "Ada")
    driver.join(wes.seat, invites["observer"], "Wes")
    return blind(walk, gm, ada, wes)


def blind(
    walk: Walk, gm: Walking, ada: Walking, wes: Walking
) -> tuple[Walk, Walking, Walking, Walking]:
    """Each page's member known; the GM's blind roll made through the dice box."""
    walk.identify()
    driver.step(gm.seat, lambda: driver.roll(gm.seat, "1d6", "blind", BLIND))
    gm.page.locator("form.dicebox").get_by_label("For").fill("")  # the walk's rolls are its own
    return walk, gm, ada, wes


KEEP_NONCE = """([room, id, nonce]) => {
  const key = `tabletop.nonces.${room}`;
  const book = JSON.parse(localStorage.getItem(key) || "{}");
  localStorage.setItem(key, JSON.stringify({ ...book, [id]: nonce }));
}"""


def plant(walk: Walk, gm: Walking, intent: dict[str, Any]) -> None:
    """The GM asks for `intent` as any client would, then every page has drawn it. Its id
    and nonce go into the GM page's nonce book first, as the page keeps what it sends: the
    room's end-of-test check holds the GM to every nonce in their entries."""
    sent = {"id": f"plant-{intent['kind']}", "nonce": secrets.token_hex(16)}
    gm.page.evaluate(KEEP_NONCE, [walk.room, sent["id"], sent["nonce"]])
    walk.send("POST", gm, "/intents", json={"intent": intent, **sent})
    walk.settle()


def planted_then_walked(walk: Walk, gm: Walking, ada: Walking, intent: dict[str, Any]) -> None:
    """Walk the table, plant a hidden thing once the walk would show it no more (a walk
    past it would reveal it: 'Show' is a control too), check the player never got it,
    then walk on: what the planting brought, and the GM's controls over members."""
    walk.walk(members=False)
    plant(walk, gm, intent)
    walk.secrets_kept(gm, ada, [TRACKER, str(SECRET)])
    walk.kept_until = walk.head(gm)
    walk.walk()


@pytest.mark.parametrize("system", ["dice", "constitution", "ap2d6"])
def test_walk_a_room_whose_only_secret_is_the_blind_roll(browser, server, system):
    walk, gm, ada, _ = table(browser, server, system)
    walk.walk()
    print(finish(walk, gm, ada, [BLIND]))


def test_walk_dead_weight(browser, server):
    walk, gm, ada, _ = table(browser, server, "dead-weight")
    hidden = {"kind": "new-tracker", "name": TRACKER, "tracker_kind": "doom", "segments": 4}
    planted_then_walked(walk, gm, ada, {**hidden, "visible": False})
    print(finish(walk, gm, ada, [BLIND]))


def test_walk_rollunder(browser, server):
    walk, gm, ada, _ = table(browser, server, "rollunder")
    scores = {"STR": 10, "AGI": 10, "WIT": 10}
    secret = {"kind": "new-character", "name": "Zq", "abilities": scores, "max_health": 8}
    planted_then_walked(walk, gm, ada, {**secret, "money": SECRET, "secret": True})
    print(finish(walk, gm, ada, [BLIND]))


def test_walk_the_board_game(browser, server):
    """The board game under hidden chests and a short turn cap: the walk seats whoever its
    forms seat, starts the game, plays every new move it is offered and asks each bot to
    move ('decides'); then the game is played out (the first move each time, the GM asking
    the bots) and the walk goes on, through the replay of the finished game to the GM's
    controls over members."""
    links = driver.board_room(server)
    walk = Walk(server)
    gm, ada, wes = walk.add(browser, "GM"), walk.add(browser, "Ada"), walk.add(browser, "Wes")
    gm.page.goto(links["gm"])
    driver.live(gm.seat)
    driver.join(ada.seat, links["player"], "Ada")
    driver.join(wes.seat, links["observer"], "Wes")
    blind(walk, gm, ada, wes)
    walk.walk(members=False)
    play_out(walk, gm, ada)
    walk.walk()
    for person in (ada, wes):  # what observe.py keeps from them: the closed chests
        for view in views(person):
            game = view["state"].get("game")
            if game and game["machine"]["phase"] != "over":
                assert all("hidden" in chest for chest in game["chests"]), person.who
    print(finish(walk, gm, ada, [BLIND]))


def play_out(walk: Walk, *people: Walking) -> None:
    """Each seated member makes the first move they are offered, and the GM asks each bot
    to move, until the game is over."""
    deadline = time.monotonic() + 120
    gm = people[0]
    status = gm.page.locator(".board .status-line")
    while "Game over" not in status.inner_text():
        assert time.monotonic() < deadline, f"the game did not end: {status.inner_text()}"
        for person in people:
            if person.page.locator(".moves button.choice").count():
                driver.step(person.seat, person.page.locator(".moves button.choice").first.click)
        if gm.page.locator("details.offer-box", has_text="decides").count():
            driver.step(gm.seat, lambda: driver.submit(driver.offer(gm.seat, "decides")))
    walk.settle()


def views(person: Walking) -> list[dict[str, Any]]:
    """Every view of the room the page fetched."""
    found = []
    for body in person.seat.bodies:
        if body.url.split("?")[0].rstrip("/").count("/") == 4 and "/rooms/" in body.url:
            try:
                view = body.json()
            except Exception:  # a page, not a view
                continue
            if isinstance(view, dict) and "state" in view:
                found.append(view)
    return found
