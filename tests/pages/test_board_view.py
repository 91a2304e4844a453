"""The board game's ship on a phone (issue 23): zoomed with buttons or a pinch and panned by
a drag, the view kept while bots move; a wall a move points at takes a finger (44 CSS px);
a chest's label and its loot never overlap; the replay's icons are drawn, not a font's;
and the GM's Undo works in the board room too."""

from __future__ import annotations

import re

from playwright.sync_api import Page

from tabletop.rooms.client import RoomClient
from tests.pages.driver import PHONE, board_room, join, live, offer, seat, step, submit
from tests.pages.expecting import expect

PINCH = """svg => {
  // Two fingers 40 px apart spread to 120 px: three times closer.
  const r = svg.getBoundingClientRect();
  const y = r.y + r.height / 2;
  const x = r.x + r.width / 2;
  const at = (type, id, dx) => svg.dispatchEvent(new PointerEvent(type,
    { pointerId: id, pointerType: "touch", clientX: x + dx, clientY: y, bubbles: true }));
  at("pointerdown", 11, -20); at("pointerdown", 12, 20);
  at("pointermove", 11, -60); at("pointermove", 12, 60);
  at("pointerup", 11, -60); at("pointerup", 12, 60);
  return svg.getAttribute("viewBox");  // read at once: a bot's move may redraw the ship
}"""

DRAG_ACROSS_A_REDRAW = """async svg => {
  // A finger goes down on the ship, a bot's move redraws it, and the finger moves on the
  // new drawing: the drag goes on (the view before and after the move, or null if no move).
  const r = svg.getBoundingClientRect();
  const x = r.x + r.width / 2, y = r.y + r.height / 2;
  const at = (target, type, dx) => target.dispatchEvent(new PointerEvent(type,
    { pointerId: 21, pointerType: "touch", clientX: x + dx, clientY: y, bubbles: true }));
  at(svg, "pointerdown", 0);
  const deadline = Date.now() + 60000;
  while (document.querySelector(".ship") === svg) {
    if (Date.now() > deadline) return null;
    await new Promise((wake) => setTimeout(wake, 20));
  }
  const redrawn = document.querySelector(".ship");
  const before = redrawn.getAttribute("viewBox");
  at(redrawn, "pointermove", -60);
  at(redrawn, "pointerup", -60);
  return [before, redrawn.getAttribute("viewBox")];
}"""

BOX = """s => {
  // The ship in the middle of the screen (on a phone it is most of a screen tall), and where.
  s.scrollIntoView({ block: "center" });
  const r = s.getBoundingClientRect();
  return { x: r.x, y: r.y, width: r.width, height: r.height };
}"""

WALL_TARGETS = """async game => {
  // The ship drawn with a move pointing at every lane wall, where the board is drawn.
  const board = await import("/static/js/board.js");
  const targets = {};
  for (let i = 0; i < 8; i++) targets[`deploy ${i}`] = `wall:${i}`;
  const svg = board.drawShip(game, targets, () => {}, false);
  document.querySelector(".panel.board").append(svg);
  const sizes = [...svg.querySelectorAll(".target")].map((t) => {
    const r = t.getBoundingClientRect();
    return [Math.round(r.width), Math.round(r.height)];
  });
  svg.remove();
  return sizes;
}"""

CHEST_OVERLAPS = """() => [...document.querySelectorAll(".ship .chest")].flatMap((chest, i) => {
  const box = chest.querySelector("rect").getBBox();
  const texts = [...chest.querySelectorAll("text")].map((t) => [t.textContent, t.getBBox()]);
  const inside = (b) => b.x >= box.x && b.y >= box.y && b.x + b.width <= box.x + box.width
    && b.y + b.height <= box.y + box.height + 1;
  const meet = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width
    && a.y < b.y + b.height - 1 && b.y < a.y + a.height - 1;
  const problems = texts.filter(([, b]) => !inside(b)).map(([t]) => `C${i + 1}: ${t} spills out`);
  texts.forEach(([t, a], j) => texts.slice(j + 1).forEach(([u, b]) => {
    if (meet(a, b)) problems.push(`C${i + 1}: ${t} overlaps ${u}`);
  }));
  return problems;
})"""


SMALL_TEXT = """() => {
  // Every piece of text the board panel shows (its folded parts opened), at the size it is
  // drawn: an SVG text's font size times how much its drawing is scaled down on the page.
  document.querySelectorAll(".panel.board details").forEach((d) => { d.open = true; });
  const board = document.querySelector(".panel.board");
  const walk = document.createTreeWalker(board, NodeFilter.SHOW_TEXT);
  const found = { measured: 0, drawn: 0, small: [] };
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || el.closest("title, option")) continue;
    if (!el.getClientRects().length) continue; // not shown
    const drawn = el instanceof SVGElement;
    const size = parseFloat(getComputedStyle(el).fontSize) * (drawn ? el.getScreenCTM().a : 1);
    found.measured += 1;
    found.drawn += drawn ? 1 : 0;
    const words = node.textContent.trim().slice(0, 40);
    if (size < 12) found.small.push(`${words}: ${size.toFixed(1)} px`);
  }
  return found;
}"""


def small_text(page: Page) -> list[str]:
    """The board's words drawn smaller than 12 CSS px, having measured them all (the ship's
    and every line of the panel; see SMALL_TEXT)."""
    found = page.evaluate(SMALL_TEXT)
    assert found["drawn"] >= 40 and found["measured"] >= found["drawn"] + 40, found
    return found["small"]


KEY = [
    "A brown plank is dry",
    "A blue plank is flooded",
    "FS and BS: the front and back stations",
    "Em emerald (green), Pe pearl (white), Ru ruby (red), Di diamond (blue)",
    "A circle with a letter is a player",
    "L is the lantern",
    "is a wall, where a Mariner can stand",
    "M on a wall is a player's Mariner, in its owner's colour",
    "C1 to C5 are the chests below deck",
    "A lifeboat takes one kind of loot",
    "Coloured squares under a lifeboat are Mariners that reached it",
    "A glowing yellow edge is a place one of your moves goes",
]
"""What each line of the key to the ship begins by naming, in order."""

PLANK_ACTIONS = [
    ("Trade", "swap 2 loot for 2 of other kinds", "swap a life ring for any loot, or a loot for a"
     " life ring"),
    ("Rope", "take a rope", "take a rope from a player"),
    ("Shortcut", "go to the plank across the hold", "go to any other plank (nothing happens where"
     " you land)"),
    ("Switch", "swap places with a player", "swap any two players"),
    ("Sabotage", "try to steal from any player", "make a player skip their next turn"),
    ("+1 Ring", "gain a life ring", "take a life ring from a player"),
    ("Walk the Plank", "roll 1 or 4 to lift the centre chest's loot", "roll 1, 3 or 4 to lift it"),
    ("Plain", "loot only", "loot only"),
]  # fmt: skip
"""The rules' plank actions, brown side then flooded (seed §4 Tile Actions; the plain tenth
plank is AMB-03, Walk the Plank's rolls AMB-38)."""

RAW = re.compile(r"\w_\w|[{}\[\]]|\b(null|None|undefined|NaN|true|false)\b|mcts:|\[object")
"""What a program's value looks like on a page: a snake_case name, JSON's brackets, a null,
a bot's spec."""


def unreadable(page: Page) -> list[str]:
    """Lines of the board panel that show a program's value rather than words."""
    lines = page.locator(".panel.board").inner_text().splitlines()
    return [line for line in lines if RAW.search(line)]


def width_of(view_box: str | None) -> float:
    assert view_box
    return float(view_box.split()[2])


def test_the_ship_zooms_pans_takes_a_finger_and_the_gm_may_undo(browser, server):
    links = board_room(server)
    gm, wes = seat(browser), seat(browser, PHONE)
    gm.page.goto(links["gm"])
    live(gm)
    join(wes, links["observer"], "Wes")

    # Undo in the board room: a bot seated by mistake is taken back (the log keeps it).
    seats = gm.page.locator(".board .seats")
    form = offer(gm, "Seat a bot")
    form.get_by_label("Bot").select_option("random")
    step(gm, form.get_by_role("button", name="Seat the bot").click)
    expect(seats).to_contain_text("Red: random bot")
    gm.page.once("dialog", lambda dialog: dialog.accept())
    step(gm, gm.page.locator(".undo button").click)
    expect(seats).not_to_contain_text("Red: random bot")

    for kind in ("greedy", "random"):
        form = offer(gm, "Seat a bot")
        form.get_by_label("Bot").select_option(kind)
        step(gm, form.get_by_role("button", name="Seat the bot").click)
    submit(offer(gm, "set the ship up and start"))
    ship = wes.page.locator(".ship")
    expect(ship).to_be_visible()
    whole = width_of(ship.get_attribute("viewBox"))

    # On the phone the ship stands upright and every word of the board is 12 px or more as
    # the page opens; the laptop's lies on its side. The key and the rules read in words.
    expect(ship).to_have_attribute("data-shape", "tall")
    expect(gm.page.locator(".ship")).to_have_attribute("data-shape", "wide")
    wes.page.get_by_text("Key to the ship: what each mark means").click()
    expect(wes.page.locator(".ship-key li")).to_contain_text(KEY)
    wes.page.get_by_text("The rules in short").click()
    rows = wes.page.locator(".plank-actions tbody tr")
    cells = "found => found.map(row => [...row.cells].map(cell => cell.innerText))"
    assert [tuple(row) for row in rows.evaluate_all(cells)] == PLANK_ACTIONS
    assert small_text(wes.page) == []
    assert unreadable(wes.page) == []

    # The buttons zoom in and back; the view stays while the bots move and redraw it.
    wes.page.get_by_role("button", name="zoom in").click()
    assert width_of(ship.get_attribute("viewBox")) < whole
    title = wes.page.locator(".board h2").first
    turn = title.inner_text()
    expect(title).not_to_have_text(turn, timeout=60_000)
    zoomed = ship.get_attribute("viewBox")
    assert width_of(zoomed) < whole
    # A drag pans the zoomed ship. (Where the ship is is read in one step, but a bot's move
    # may still shift the page between that read and the press, which then misses the ship:
    # seen once in a loaded make test. A drag that misses is tried again, at most twice.)
    for _ in range(3):
        box = ship.evaluate(BOX)
        middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        wes.page.mouse.move(*middle)
        wes.page.mouse.down()
        wes.page.mouse.move(middle[0] - 60, middle[1], steps=4)
        wes.page.mouse.up()
        if ship.get_attribute("viewBox") != zoomed:
            break
    assert ship.get_attribute("viewBox") != zoomed
    # A drag a bot's move interrupts goes on on the redrawn ship.
    before, after = ship.evaluate(DRAG_ACROSS_A_REDRAW)
    assert after != before
    wes.page.get_by_role("button", name="show the whole ship").click()
    assert width_of(ship.get_attribute("viewBox")) == whole
    # Two fingers spreading zoom in three times.
    assert abs(width_of(ship.evaluate(PINCH)) - whole / 3) < 1
    wes.page.get_by_role("button", name="show the whole ship").click()
    buttons = wes.page.locator(".zoom button").evaluate_all(
        "found => found.map(b => b.getBoundingClientRect()).map(r => [r.width, r.height])"
    )
    assert len(buttons) == 3 and all(w >= 44 and h >= 44 for w, h in buttons), buttons

    # A wall a move points at is a finger's size on the phone (WCAG 2.5.5, 44 CSS px).
    game = RoomClient(links["gm"]).view()["state"]["game"]
    sizes = wes.page.evaluate(WALL_TARGETS, game)
    assert len(sizes) == 8 and all(w >= 44 and h >= 44 for w, h in sizes), sizes
    # The GM sees the chests' loot: each chest's label and lines stay apart, inside it.
    assert gm.page.evaluate(CHEST_OVERLAPS) == []
    assert not (gm.errors or wes.errors)
