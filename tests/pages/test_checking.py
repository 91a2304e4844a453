"""The pages as witnesses, and checking the log on the member's own machine (docs/rooms.md,
"Dice anyone can audit" and "In the browser"): every page answers each roll's call, keeps
the heads it received and the values it revealed, says on each roll's line whose devices
witnessed it, and raises an alarm when a roll passed it over; "check this roll" and "Check
my record here" check what the page holds without asking the server being checked, and
"Download my record" is the one file `tabletop room verify` checks offline. Its SHA-256,
HMAC, canonical JSON and dice are Python's to the byte."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import re

from tabletop.data import canonical
from tabletop.rooms import verify
from tabletop.rooms.bundles import read_bundle
from tabletop.rooms.fairdice import FairDice
from tests.pages.driver import PHONE, accessible, fits, join, live, open_room, roll, seat, step
from tests.pages.expecting import expect


def entry(person, text: str):
    return person.page.locator("#log .entry", has_text=text).first


def dishonest_to_watcher(person) -> None:
    """The server, to the observer's page only: each roll's line with the observer's value
    taken out of what its witnesses revealed, as if the roll had not used it."""

    def route(socket) -> None:
        server = socket.connect_to_server()

        def forward(message: str) -> None:
            frame = json.loads(message)
            header = frame.get("witnessed")
            if "seq" in frame and "type" not in frame and header and "m3" in header["reveals"]:
                del header["reveals"]["m3"]
                header["absent"] = [*header["absent"], "m3"]
                message = json.dumps(frame)
            socket.send(message)

        server.on_message(forward)
        socket.on_message(server.send)

    person.page.route_web_socket(re.compile(r"/live$"), route)


def test_every_page_witnesses_each_roll_and_checks_it_on_its_own_machine(browser, server):
    gm, ada, watcher = seat(browser), seat(browser, PHONE), seat(browser, PHONE)
    invites = open_room(gm, server, "dice")
    join(ada, invites["player"], "Ada")
    dishonest_to_watcher(watcher)
    join(watcher, invites["observer"], "Watcher")
    room = ada.page.url.split("/rooms/")[1].split("#")[0]
    step(ada, lambda: roll(ada, "3d6", label="luck qz"))
    step(ada, lambda: roll(ada, "1d20", "blind", "a blind qz"))
    step(gm, lambda: roll(gm, "1d8", label="the gm's qz"))

    # Every roll's line says, in words, whose devices witnessed it: all three pages'.
    for person, me in ((gm, "GM"), (ada, "Ada"), (watcher, "Watcher")):
        words = entry(person, "luck qz").locator(".witnesses")
        others = [name for name in ("GM", "Ada", "Watcher") if name != me]
        expect(words).to_have_text(re.compile(rf"^witnessed by (you|{'|'.join(others)})"))
        text = words.inner_text()
        assert "you" in text and all(name in text for name in others), text
        assert not re.search(r"\bm\d\b", text)

    # The observer's page, fed lines without its value, says so at the top and on the line;
    # the others raise nothing.
    alarm = watcher.page.locator("#alarm")
    expect(alarm).to_contain_text("does not hold the value your device revealed for it")
    expect(entry(watcher, "luck qz")).to_have_class(re.compile(r"\balarm\b"))
    expect(entry(watcher, "luck qz").locator(".alarm-text")).to_be_visible()
    for person in (gm, ada):
        expect(person.page.locator("#alarm")).to_be_hidden()

    # Ada checks her roll on her phone: its hash, its place in the chain, every die against
    # the roll's keys, her device's value, her nonce and intent; nothing is fetched.
    line = entry(ada, "luck qz")
    asked = []
    ada.page.on("request", lambda request: asked.append(request.url))
    line.locator(".check-roll").click()
    report = ada.page.locator("#verified .entry-check")
    expect(report).to_contain_text("every die is what its keys and witnesses give")
    expect(report).to_contain_text(re.compile(r"witnessed by .*nobody could know a die before"))
    expect(report).to_contain_text("it holds the value your device revealed for its call")
    expect(report).to_contain_text("it carries the nonce this browser sent and the intent")
    expect(report).to_contain_text("tabletop room verify")
    expect(report.locator("dd.bad")).to_have_count(0)
    assert not asked, asked
    expect(line).to_have_class(re.compile(r"\bchecked\b"))
    blind = ada.page.locator("#log .entry").filter(has=ada.page.locator(".check-roll")).nth(1)
    blind.locator(".check-roll").click()  # Ada's blind roll: its nonce is hers, its dice not
    expect(report).to_contain_text("its dice are kept from you")
    expect(report).to_contain_text("it carries the nonce this browser sent")

    # Her whole record, checked here, then downloaded: the file `room verify` checks offline.
    ada.page.get_by_role("button", name="Check my record here").click()
    expect(ada.page.locator("#verified")).to_contain_text("Your record checks here")
    expect(ada.page.locator("#verified")).to_contain_text("2 of your entries carry the nonce")
    with ada.page.expect_download() as got:
        ada.page.get_by_role("button", name="Download my record").click()
    bundle = read_bundle(got.value.path().read_text())
    assert bundle is not None and bundle.room == room and bundle.member == "m2"
    audit = verify(bundle.export, mine=bundle.nonces, member="m2", heads=bundle.heads)
    assert audit.mine == 2 and audit.witnessed == 3 and audit.heads >= audit.entries + 3
    fits(ada.page)
    accessible(ada.page)

    # Reloaded, her page keeps its heads and its chain: no new "device witnesses" line.
    ada.page.reload()
    live(ada)
    heads = ada.page.evaluate(f"JSON.parse(localStorage.getItem('tabletop.heads.{room}.m2'))")
    assert len(heads) == audit.entries
    step(ada, lambda: roll(ada, "1d4", label="after reload qz"))
    expect(entry(gm, "after reload qz").locator(".witnesses")).to_contain_text("Ada")
    assert len(ada.page.locator("#log .entry", has_text="Ada's device witnesses").all()) == 1
    live(watcher)
    assert not (gm.errors or ada.errors or watcher.errors)


CHECKED = """async ({texts, keys, canon, dice}) => {
  const sha = await import("/static/js/sha256.js");
  const canonJs = await import("/static/js/canon.js");
  const check = await import("/static/js/check.js");
  const bytes = (hex) => sha.fromHex(hex);
  return {
    sha: texts.map((hex) => sha.toHex(sha.sha256(bytes(hex)))),
    hmac: keys.map(([key, message]) => sha.toHex(sha.hmac(bytes(key), bytes(message)))),
    canon: canon.map((text) => canonJs.canonical(canonJs.parseExact(text))),
    dice: dice.map(([key, position, sides]) => check.facesOf(bytes(key), position, sides)),
  };
}"""


def test_the_pages_hashes_json_and_dice_are_pythons_to_the_byte(browser, server):
    """SHA-256 over every length around its block boundaries, HMAC with keys shorter and
    longer than a block, canonical JSON of the spellings Python and JavaScript write
    differently (floats, escapes, keys past the BMP, numbers past 2**53), and dice."""
    person = seat(browser)
    person.page.goto(server)
    draw = random.Random(32)
    texts = [bytes(draw.randrange(256) for _ in range(n)) for n in [*range(0, 130), 1000]]
    keys = [
        (bytes(draw.randrange(256) for _ in range(k)), bytes(draw.randrange(256) for _ in range(m)))
        for k in (0, 1, 32, 63, 64, 65, 200)
        for m in (0, 5, 64, 300)
    ]
    canon = [
        '{"b":1,"a":[1.0,2,-0,-0.0,1e-7,1e16,1.5e300,0.0001,0.00001,123456789.125,1e22]}',
        '{"n":12345678901234567890123,"m":-1.5,"k":2.5e-10,"j":5e-324,"i":1.7976931348623157e308}',
        '{"é":"\\u0000\\n\\t\\"\\\\ \\u007f \\u2028 🎲","\\ud83c\\udfb2":1,"\\uffff":2,"z":null}',
        '[{"nested":{"k":[true,false,{"a":0.1,"b":100.0,"c":1e15,"d":1e16}]}},"",[]]',
    ]
    key = lambda: bytes(draw.randrange(256) for _ in range(32))  # noqa: E731
    dice = [(key(), f"{sides}:pos", sides) for sides in (1, 2, 6, 20, 3)]
    dice.append((bytes(32), "7:" + "ab" * 32, 2**40 + 1))
    got = person.page.evaluate(
        CHECKED,
        {
            "texts": [t.hex() for t in texts],
            "keys": [[k.hex(), m.hex()] for k, m in keys],
            "canon": canon,
            "dice": [[k.hex(), p, s] for k, p, s in dice],
        },
    )
    assert got["sha"] == [hashlib.sha256(t).hexdigest() for t in texts]
    assert got["hmac"] == [hmac.new(k, m, "sha256").hexdigest() for k, m in keys]
    assert got["canon"] == [canonical(json.loads(text)) for text in canon]
    streams = [(FairDice(k, p), s) for k, p, s in dice]
    assert got["dice"] == [[stream.roll(s) for _ in range(12)] for stream, s in streams]
    assert not person.errors
