"""The board game's ship on a phone (issue 23): zoomed with buttons or a pinch and panned by
a drag, the view kept while bots move; a wall a move points at takes a finger (44 CSS px);
a chest's label and its loot never overlap; the replay's icons are drawn, not a font's;
and the GM's Undo works in the board room too."""

from __future__ import annotations

from playwright.sync_api import expect

from tabletop.rooms.client import RoomClient
from tests.pages.driver import PHONE, board_room, join, live, offer, seat, step, submit

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

    # The buttons zoom in and back; the view stays while the bots move and redraw it.
    wes.page.get_by_role("button", name="zoom in").click()
    assert width_of(ship.get_attribute("viewBox")) < whole
    title = wes.page.locator(".board h2").first
    turn = title.inner_text()
    expect(title).not_to_have_text(turn, timeout=60_000)
    zoomed = ship.get_attribute("viewBox")
    assert width_of(zoomed) < whole
    # A drag pans the zoomed ship.
    # (read in one step: a bot's move may redraw the ship between two reads)
    box = ship.evaluate(BOX)
    wes.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    wes.page.mouse.down()
    wes.page.mouse.move(box["x"] + box["width"] / 2 - 60, box["y"] + box["height"] / 2, steps=4)
    wes.page.mouse.up()
    assert ship.get_attribute("viewBox") != zoomed
    # A drag a bot's move interrupts goes on on the redrawn ship.
    before, after = ship.evaluate(DRAG_ACROSS_A_REDRAW)
    assert after != before
    wes.page.get_by_role("button", name="show the whole ship").click()
    assert width_of(ship.get_attribute("viewBox")) == whole
    # Two fingers spreading zoom in three times.
    ship.evaluate(PINCH)
    assert abs(width_of(ship.get_attribute("viewBox")) - whole / 3) < 1
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
