// The Deadweight board game's panel: the ship drawn as SVG from the member's view (both
// lanes, the stations, planks with their side and loot, players, lantern, Mariners, chests,
// crates, lifeboats), its legal moves as things to click on the ship and as a list, the
// dice as they are rolled, a bot's pause, the GM's bots, and a finished game stepped
// through and downloaded. The rules stay on the server: what a move does, which moves are
// legal and where each points (`targets`) all come from it.

import { download, h, labelled } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const COLOURS = ["Red", "Blue", "Green", "Yellow"];
const INK = { Red: "#b8322a", Blue: "#2a62b8", Green: "#22784a", Yellow: "#b88a0c" };
const GEMS = ["emerald", "pearl", "ruby", "diamond"];
const SHORT = { emerald: "Em", pearl: "Pe", ruby: "Ru", diamond: "Di", rope: "Rope", life_ring: "LR" };
const GEM_FILL = { emerald: "#2f9e62", pearl: "#efe9dc", ruby: "#c4283c", diamond: "#9fd3f0" };
const KIND = {
  trade: "Trade",
  rope: "Rope",
  shortcut: "Shortcut",
  switch: "Switch",
  sabotage: "Sabotage",
  life_ring: "+1 Ring",
  walk_the_plank: "Walk the Plank",
  plain: "Plain",
};
const LANE_WALLS = [[0, 1], [1, 2], [2, 3], [3, 4], [5, 6], [6, 7], [7, 8], [8, 9]];
const PLANKS = ["S1", "S2", "S3", "S4", "S5", "P5", "P4", "P3", "P2", "P1"];
const COL = 86;
const LEFT = 78;
const TOP = 30;
const LANE = 92;
const MIDDLE = 72;
const TOUCH = 80; // units a wall's target spans each way: 44 CSS px on a phone's 333 px ship
const ZOOM = { most: 4, step: 1.5 };

const replays = new Map(); // room → {steps, log, file, index}
const views = new Map(); // room → {scale, cx, cy}: how far the ship is zoomed, and where
const gestures = new Map(); // room → the fingers down on its ship, so a redraw mid-drag goes on
const botDraft = { kind: "greedy", budget: "200" };

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") el.textContent = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) if (child) el.append(child);
  return el;
}

// where things are ---------------------------------------------------------------------------

function plankBox(name) {
  // A plank's rectangle: the starboard lane on top (S1 at the bow, left), port below.
  const k = PLANKS.indexOf(name);
  const column = k < 5 ? k + 1 : 10 - k;
  return { x: LEFT + (column - 1) * COL, y: k < 5 ? TOP : TOP + LANE + MIDDLE, w: COL - 6, h: LANE };
}

function spaceBox(name) {
  if (name === "FS" || name === "start") return { x: 4, y: TOP, w: LEFT - 10, h: 2 * LANE + MIDDLE };
  if (name === "BS") return { x: LEFT + 5 * COL, y: TOP, w: LEFT - 10, h: 2 * LANE + MIDDLE };
  return plankBox(name);
}

function wallLine(index) {
  // A wall between lane neighbours (upright) or between mirrored planks (across the hold).
  const [a, b] = index < LANE_WALLS.length ? LANE_WALLS[index] : [index - LANE_WALLS.length, 9 - (index - LANE_WALLS.length)];
  const one = plankBox(PLANKS[a]);
  const two = plankBox(PLANKS[b]);
  if (one.y === two.y) {
    const x = Math.max(one.x, two.x) - 3;
    return { x1: x, y1: one.y + 6, x2: x, y2: one.y + one.h - 6 };
  }
  const x = one.x + one.w / 2;
  return { x1: x, y1: TOP + LANE + 4, x2: x, y2: TOP + LANE + MIDDLE - 4 };
}

function wallName(index) {
  const [a, b] = index < LANE_WALLS.length ? LANE_WALLS[index] : [index - LANE_WALLS.length, 9 - (index - LANE_WALLS.length)];
  return `${PLANKS[a]}|${PLANKS[b]}`;
}

// what the board shows ---------------------------------------------------------------------

function items(held) {
  if (!held || held.hidden) return held ? "hidden" : "";
  const parts = Object.entries(held).filter(([, n]) => n > 0).map(([k, n]) => `${SHORT[k]}×${n}`);
  return parts.length ? parts.join(" ") : "empty";
}

function chestLines(chest) {
  // A chest's loot, two kinds a line under its label (so no line runs into another); "?"
  // when hidden.
  if (chest.hidden) return ["?"];
  const kinds = [...GEMS, "rope", "life_ring"].filter((k) => chest[k] > 0).map((k) => `${SHORT[k]}${chest[k] > 1 ? `×${chest[k]}` : ""}`);
  const lines = [];
  for (let i = 0; i < kinds.length; i += 2) lines.push(kinds.slice(i, i + 2).join(" "));
  return lines.length ? lines : ["empty"];
}

function playersOn(game, space) {
  return game.players.filter((p) => p.position === space || (space === "FS" && p.position === "start"));
}

function describeBoard(game) {
  // The text alternative: what is where, in the order a person reads the ship.
  const lines = [];
  const where = (space) => playersOn(game, space).map((p) => p.colour).join(", ");
  for (const space of ["FS", "S1", "S2", "S3", "S4", "S5", "BS", "P5", "P4", "P3", "P2", "P1"]) {
    const spot = game.layout[space];
    const here = where(space);
    const flooded = spot && game.flooded.includes(space);
    let line = spot ? `${space}: ${KIND[spot.action]} plank, ${spot.loot}, ${flooded ? "flooded (blue side)" : "brown side"}` : `${space}: station`;
    if (game.lantern === space) line += ", the lantern";
    if (here) line += `; ${here} here`;
    lines.push(line);
  }
  game.mariners.forEach((m, i) => {
    const whose = m.owner ? `${m.owner}'s Mariner` : `neutral Mariner ${i + 1}`;
    if (m.where === "wall") lines.push(`${whose} on wall ${wallName(m.wall)}`);
    else if (m.where === "lifeboat") lines.push(`${whose} in the ${m.lifeboat} lifeboat`);
  });
  game.chests.forEach((c, i) => lines.push(`chest C${i + 1}: ${items(c)}`));
  lines.push(`crates: ${GEMS.map((g) => `${g} ${game.crates[g] ?? 0}`).join(", ")}`);
  return lines;
}

function pawn(player, index, count, box) {
  const spread = Math.min(20, (box.w - 34) / Math.max(count - 1, 1));
  const cx = box.x + (box.w - 14) / 2 + (index - (count - 1) / 2) * spread;
  const cy = box.y + box.h - 15;
  return { cx, cy };
}

export function drawShip(game, targets, choose, mirrors) {
  const width = LEFT * 2 + 5 * COL - 6;
  const height = TOP + 2 * LANE + MIDDLE + 92;
  const targetAt = new Map();
  for (const [action, target] of Object.entries(targets || {})) {
    if (!targetAt.has(target)) targetAt.set(target, []);
    targetAt.get(target).push(action);
  }
  const clickable = (target, label, shape) => {
    const actions = targetAt.get(target);
    if (!actions) return shape;
    const activate = () => choose(actions, label);
    return s("g", {
      class: "target",
      tabindex: "0",
      role: "button",
      "data-target": target,
      "aria-label": `${label}: ${actions.join(" or ")}`,
      onclick: activate,
      onkeydown: (key) => {
        if (key.key === "Enter" || key.key === " ") {
          key.preventDefault();
          activate();
        }
      },
    }, s("title", { text: `${label}: ${actions.join(" or ")}` }), shape);
  };
  const parts = [];
  parts.push(s("path", { class: "hull", d: `M 2 ${TOP - 14} H ${width - 2} Q ${width + 4} ${TOP + LANE + MIDDLE / 2} ${width - 2} ${TOP + 2 * LANE + MIDDLE + 14} H 2 Q -4 ${TOP + LANE + MIDDLE / 2} 2 ${TOP - 14} Z` }));
  parts.push(s("text", { x: 8, y: TOP - 18, class: "caption", text: "bow" }), s("text", { x: width - 8, y: TOP - 18, class: "caption end", text: "stern" }));
  for (const station of ["FS", "BS"]) {
    const box = spaceBox(station);
    // A station a move points at takes a finger: TOUCH units across, as a wall does (the
    // station itself is 38 CSS px wide on a phone).
    const hit = targetAt.has(`space:${station}`)
      ? s("rect", { class: "hit", x: box.x + box.w / 2 - TOUCH / 2, y: box.y, width: TOUCH, height: box.h })
      : null;
    parts.push(clickable(`space:${station}`, station === "FS" ? "front station" : "back station", s("g", {}, hit,
      s("rect", { class: "station", x: box.x, y: box.y, width: box.w, height: box.h, rx: 8 }),
      s("text", { x: box.x + box.w / 2, y: box.y + 22, class: "label mid", text: station }),
      s("text", { x: box.x + box.w / 2, y: box.y + 40, class: "small mid", text: "station" }))));
  }
  for (const name of PLANKS) {
    const box = plankBox(name);
    const spot = game.layout[name];
    const flooded = game.flooded.includes(name);
    const title = KIND[spot.action];
    const words = title.split(" ");
    const shape = s("g", {},
      s("rect", { class: flooded ? "plank flooded" : "plank", x: box.x, y: box.y, width: box.w, height: box.h, rx: 6 }),
      s("text", { x: box.x + 6, y: box.y + 16, class: "small", text: name }),
      s("path", { class: "gem", fill: GEM_FILL[spot.loot], d: `M ${box.x + box.w - 13} ${box.y + 4} l 8 8 l -8 8 l -8 -8 z` }),
      s("text", { x: box.x + box.w - 23, y: box.y + 16, class: "tiny end", text: SHORT[spot.loot] }),
      words.length > 2
        ? [s("text", { x: box.x + box.w / 2, y: box.y + 40, class: "label mid", text: words.slice(0, 2).join(" ") }), s("text", { x: box.x + box.w / 2, y: box.y + 55, class: "label mid", text: words.slice(2).join(" ") })]
        : s("text", { x: box.x + box.w / 2, y: box.y + 44, class: "label mid", text: title }),
      game.lantern === name ? s("g", { class: "lantern" },
        s("circle", { cx: box.x + box.w - 12, cy: box.y + box.h - 14, r: 9 }),
        s("text", { x: box.x + box.w - 12, y: box.y + box.h - 10, class: "tiny mid", text: "L" }),
        s("title", { text: "the lantern" })) : null);
    parts.push(clickable(`space:${name}`, `${name} (${title}${flooded ? ", flooded" : ""})`, shape));
  }
  // the hold between the lanes: chests, and the walls across it
  const chestWidth = (5 * COL - 6) / 5;
  game.chests.forEach((chest, i) => {
    const x = LEFT + i * chestWidth;
    parts.push(s("g", { class: "chest" },
      s("rect", { x: x + 2, y: TOP + LANE + 6, width: chestWidth - 10, height: MIDDLE - 12, rx: 4 }),
      s("text", { x: x + 8, y: TOP + LANE + 20, class: "tiny label-chest", text: `C${i + 1}` }),
      chestLines(chest).map((line, j) => s("text", { x: x + 8, y: TOP + LANE + 33 + j * 12, class: "tiny", text: line })),
      s("title", { text: `chest C${i + 1}: ${chest.hidden ? "closed, its loot hidden" : items(chest)}` })));
  });
  const wallCount = LANE_WALLS.length + (mirrors ? 5 : 0);
  for (let index = 0; index < wallCount; index++) {
    const line = wallLine(index);
    // A wall a move points at takes a finger: an invisible area TOUCH units each way.
    const hit = targetAt.has(`wall:${index}`)
      ? s("rect", { class: "hit", x: (line.x1 + line.x2) / 2 - TOUCH / 2, y: Math.min((line.y1 + line.y2) / 2 - TOUCH / 2, line.y1), width: TOUCH, height: Math.max(TOUCH, line.y2 - line.y1) })
      : null;
    parts.push(clickable(`wall:${index}`, `wall ${wallName(index)}`, s("g", {}, hit, s("line", { class: "wall", ...line }))));
  }
  game.mariners.forEach((m, i) => {
    if (m.where !== "wall") return;
    const line = wallLine(m.wall);
    const cx = (line.x1 + line.x2) / 2;
    const cy = (line.y1 + line.y2) / 2;
    parts.push(s("g", { class: "mariner" },
      s("rect", { x: cx - 9, y: cy - 9, width: 18, height: 18, rx: 3, fill: m.owner ? INK[m.owner] : "#6b6358" }),
      s("text", { x: cx, y: cy + 4, class: "tiny mid light", text: "M" }),
      s("title", { text: `${m.owner || `neutral ${i + 1}`} Mariner on wall ${wallName(m.wall)}` })));
  });
  // players on their spaces
  const spaces = ["FS", ...PLANKS, "BS"];
  for (const space of spaces) {
    const here = playersOn(game, space);
    const box = spaceBox(space);
    here.forEach((player, i) => {
      const { cx, cy } = pawn(player, i, here.length, box);
      parts.push(clickable(`player:${player.colour}`, player.colour, s("g", { class: "pawn" },
        s("circle", { cx, cy, r: 10, fill: INK[player.colour] }),
        s("text", { x: cx, y: cy + 4, class: "tiny mid light", text: player.colour[0] }))));
    });
  }
  // lifeboats and crates below the hull
  const boatY = TOP + 2 * LANE + MIDDLE + 24;
  GEMS.forEach((gem, i) => {
    const x = LEFT + i * ((5 * COL) / 4);
    const inBoat = game.mariners.filter((m) => m.where === "lifeboat" && m.lifeboat === gem);
    const boat = s("g", { class: "boat" },
      s("path", { d: `M ${x} ${boatY} h ${COL + 12} l -14 30 h ${-(COL - 16)} z`, fill: "#e8dcc4" }),
      s("path", { class: "gem", fill: GEM_FILL[gem], d: `M ${x + 14} ${boatY + 3} l 7 7 l -7 7 l -7 -7 z` }),
      s("text", { x: x + 26, y: boatY + 15, class: "small", text: `${SHORT[gem]} boat` }),
      s("text", { x: x + 26, y: boatY + 27, class: "tiny", text: `crate ${game.crates[gem] ?? 0}` }),
      inBoat.map((m, j) => s("rect", { x: x + 14 + j * 16, y: boatY + 36, width: 14, height: 14, rx: 3, fill: m.owner ? INK[m.owner] : "#6b6358" })));
    parts.push(clickable(`boat:${gem}`, `the ${gem} lifeboat`, boat));
  });
  return s("svg", {
    class: "ship",
    "data-kind": "act",
    viewBox: `-6 0 ${width + 12} ${height}`,
    role: "group",
    "aria-label": "the ship: what is where is listed below",
  }, parts);
}

// zooming and panning ------------------------------------------------------------------------

function showView(svg, base, view) {
  // The part of the ship in sight: `scale` times closer, centred on (cx, cy), kept aboard.
  const w = base.w / view.scale;
  const h = base.h / view.scale;
  view.cx = Math.min(Math.max(view.cx, base.x + w / 2), base.x + base.w - w / 2);
  view.cy = Math.min(Math.max(view.cy, base.y + h / 2), base.y + base.h - h / 2);
  svg.setAttribute("viewBox", `${view.cx - w / 2} ${view.cy - h / 2} ${w} ${h}`);
  svg.classList.toggle("zoomed", view.scale > 1);
}

function zoomable(svg, room) {
  // The ship with buttons to zoom in, out and back, a pinch to zoom and a drag to pan; the
  // view outlives the redraws each move brings. A drag is not a click on what it ends on.
  const [x, y, w, hgt] = svg.getAttribute("viewBox").split(" ").map(Number);
  const base = { x, y, w, h: hgt };
  if (!views.has(room)) views.set(room, { scale: 1, cx: x + w / 2, cy: y + hgt / 2 });
  const view = views.get(room);
  // A button with nothing to do is off: no zooming out of the whole ship, nor in past the
  // closest view (it did nothing, which reads as broken).
  const closer = h("button", { type: "button", class: "quiet", "aria-label": "zoom in", onclick: () => zoom(ZOOM.step) }, "+");
  const farther = h("button", { type: "button", class: "quiet", "aria-label": "zoom out", onclick: () => zoom(1 / ZOOM.step) }, "−");
  const whole = h("button", { type: "button", class: "quiet", "aria-label": "show the whole ship", onclick: () => zoom(0) }, "Whole ship");
  const shown = () => {
    showView(svg, base, view);
    closer.disabled = view.scale >= ZOOM.most;
    farther.disabled = whole.disabled = view.scale <= 1;
  };
  shown();
  const zoom = (factor) => {
    view.scale = Math.min(ZOOM.most, Math.max(1, view.scale * factor));
    shown();
  };
  if (!gestures.has(room)) gestures.set(room, { pointers: new Map(), start: null, moved: false });
  const gesture = gestures.get(room);
  const pointers = gesture.pointers;
  const grab = () => ({ view: { ...view }, points: [...pointers.values()].map((p) => ({ ...p })) });
  svg.addEventListener("pointerdown", (e) => {
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    gesture.start = grab();
    gesture.moved = false;
  });
  svg.addEventListener("pointermove", (e) => {
    const start = gesture.start;
    if (!pointers.has(e.pointerId) || !start) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    const now = [...pointers.values()];
    const perPixel = base.w / start.view.scale / (svg.clientWidth || base.w);
    if (now.length >= 2 && start.points.length >= 2) {
      const apart = (a, b) => Math.hypot(a.x - b.x, a.y - b.y) || 1;
      view.scale = Math.min(ZOOM.most, Math.max(1, start.view.scale * apart(now[0], now[1]) / apart(start.points[0], start.points[1])));
      gesture.moved = true;
    } else if (now.length === 1 && start.points.length === 1 && view.scale > 1) {
      const dx = now[0].x - start.points[0].x;
      const dy = now[0].y - start.points[0].y;
      if (Math.abs(dx) + Math.abs(dy) > 6) gesture.moved = true;
      view.cx = start.view.cx - dx * perPixel;
      view.cy = start.view.cy - dy * perPixel;
    }
    shown();
  });
  const lift = (e) => {
    pointers.delete(e.pointerId);
    gesture.start = pointers.size ? grab() : null;
  };
  for (const kind of ["pointerup", "pointercancel", "pointerleave"]) svg.addEventListener(kind, lift);
  svg.addEventListener("click", (e) => {
    if (!gesture.moved) return;
    gesture.moved = false;
    e.stopPropagation();
    e.preventDefault();
  }, true);
  const controls = h("div", { class: "row zoom", role: "group", "aria-label": "zoom the ship" },
    closer, farther, whole, h("span", { class: "hint", text: "pinch or drag to look closer" }));
  return [controls, svg];
}

function icon(path) {
  // A small inline SVG icon (no font has ⏮ or ⏭ everywhere), hidden from screen readers.
  return s("svg", { class: "icon", viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true", focusable: "false" }, s("path", { d: path }));
}

const ICONS = {
  first: "M2 2h2v12H2z M14 2v12L5 8z",
  prev: "M12 2v12L3 8z",
  next: "M4 2v12l9-6z",
  last: "M12 2h2v12h-2z M2 2v12l9-6z",
};

// the panel --------------------------------------------------------------------------------

function seatsOf(ctx) {
  const names = new Map(ctx.view.members.map((m) => [m.id, m.name]));
  return ctx.view.state.seats.map((seat) => ({ ...seat, who: seat.bot ? `${seat.bot} bot` : names.get(seat.member) || seat.member }));
}

function playersTable(game, seats) {
  return h("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": "the players (scrolls sideways)" }, h("table", { class: "grid players" },
    h("caption", { text: "Players: loot, ropes and life rings (the score)" }),
    h("thead", {}, h("tr", {}, [["seat", "seat"], ["on", "where they are"], ["Em", "emeralds"], ["Pe", "pearls"], ["Ru", "rubies"], ["Di", "diamonds"], ["Rope", "ropes"], ["LR", "life rings"], ["card", "trade card"]].map(([t, full]) => h("th", { scope: "col" }, h("abbr", { title: full, text: t }))))),
    h("tbody", {}, game.players.map((p, i) => h("tr", { class: game.machine.owner === i && game.machine.phase !== "over" ? "acting" : "" },
      h("th", { scope: "row" }, h("span", { class: `chip ${p.colour.toLowerCase()}`, "aria-hidden": "true" }), ` ${p.colour}`, seats[i] ? h("small", { class: "hint", text: seats[i].who }) : null),
      h("td", { text: p.position + (p.skip_turns ? " (skips)" : "") }),
      ["emerald", "pearl", "ruby", "diamond", "rope", "life_ring"].map((k) => h("td", { text: String(p.items[k]) })),
      h("td", { text: `#${p.trade_card}` }))))));
}

function latestRolls(ctx) {
  // The dice of the last move: the roll events since the last decision, newest last.
  const entries = ctx.entries || [];
  const rolls = [];
  for (let i = entries.length - 1; i >= 0; i--) {
    const event = entries[i].event;
    if (event.type === "roll" && event.data && event.data.die) rolls.unshift(event);
    else if (event.type === "act" || event.type === "setup") break;
  }
  return rolls;
}

function diceStrip(ctx) {
  const rolls = latestRolls(ctx);
  if (!rolls.length) return null;
  return h("ol", { class: "pool board-dice", "aria-label": "the dice just rolled" }, rolls.map((roll) =>
    h("li", { class: "die big", title: roll.text, "aria-label": roll.text },
      h("span", { class: "face", text: String(roll.data.die.faces[0]) }),
      h("span", { class: "sides", text: `${COLOURS[roll.data.player] || ""} ${(roll.data.purpose || "").replace(/_/g, " ")}`.trim() }))));
}

function botsWaiting(entries) {
  // The server stops moving bots at the end of a session until the next move at the table
  // (docs/rooms.md, "Bots at the table"): true when nothing was played since that end.
  for (let i = entries.length - 1; i >= 0; i--) {
    const type = entries[i].event.type;
    if (type === "room.session-ended") return true;
    if (!type.startsWith("room.")) return false;
  }
  return false;
}

function statusLine(ctx, seats) {
  const state = ctx.view.state;
  const game = state.game;
  if (!game) return h("p", { class: "status-line", text: `${seats.length} of 4 seats taken; the GM starts the game with 2 or more.` });
  if (game.machine.phase === "over") {
    const winners = game.machine.winners.map((w) => COLOURS[w]).join(" and ");
    return h("p", { class: "status-line", role: "status", text: `Game over after ${game.machine.turn} turns: ${winners || "nobody"} win${game.machine.winners.length === 1 ? "s" : ""}.` });
  }
  const seat = seats[COLOURS.indexOf(state.to_decide)];
  const phase = game.machine.phase.replace(/_/g, " ");
  if (seat && seat.bot && botsWaiting(ctx.entries || [])) {
    return h("p", { class: "status-line", role: "status", text: `The session has ended: ${state.to_decide}'s ${seat.bot} bot waits until someone asks it to move.` });
  }
  if (seat && seat.bot) {
    return h("p", { class: "status-line thinking", role: "status" }, h("span", { class: "spinner", "aria-hidden": "true" }), `${state.to_decide} (${seat.bot}) is thinking…`);
  }
  const mine = seat && seat.member === ctx.view.me.id;
  return h("p", { class: "status-line", role: "status", text: mine ? `Your move, ${state.to_decide} (${phase}): tap the ship or pick below.` : `${state.to_decide} (${seat ? seat.who : "?"}) decides: ${phase}.` });
}

function movesList(ctx) {
  const act = ctx.offers.find((o) => o.kind === "act");
  if (!act) return null;
  const targets = ctx.view.state.targets || {};
  const errorSlot = h("p", { class: "error", role: "alert", id: "board-error" });
  return h("div", { class: "moves", "data-kind": "act" },
    h("h3", { text: "Your moves" }),
    h("div", { class: "closed", role: "group", "aria-label": "your legal moves" }, act.intents.map((intent) =>
      h("button", { type: "button", class: "choice", "data-action": intent.action, onclick: (e) => ctx.send(intent, errorSlot, e.currentTarget) },
        intent.action, targets[intent.action] ? h("small", { class: "where", text: ` · ${targets[intent.action].split(":")[1]}` }) : null))),
    errorSlot,
    h("div", { id: "board-chooser", class: "chooser", role: "group", "aria-label": "moves on the place you picked" }));
}

function chooserFor(ctx) {
  // Clicking a place on the ship: one move there is sent at once; several are offered.
  return (actions, label) => {
    const slot = document.getElementById("board-error");
    const chooser = document.getElementById("board-chooser");
    if (actions.length === 1 || !chooser) {
      ctx.send({ kind: "act", action: actions[0] }, slot || h("p"), null);
      return;
    }
    chooser.replaceChildren(h("p", { class: "hint", text: `On ${label}:` }), ...actions.map((action) =>
      h("button", { type: "button", class: "choice", onclick: (e) => ctx.send({ kind: "act", action }, slot, e.currentTarget), text: action })));
    chooser.querySelector("button").focus();
  };
}

function seatBotForm(ctx) {
  const offer = ctx.offers.find((o) => o.kind === "seat-bot");
  const bots = ctx.view.state.bots;
  if (!offer || !bots) return null;
  // What the GM picked survives the redraws a bot's move brings.
  const kind = h("select", { onchange: () => { botDraft.kind = kind.value; } }, bots.kinds.map((k) => h("option", { value: k, selected: k === botDraft.kind, text: k === "mcts" ? "MCTS (search)" : k })));
  const budget = h("input", { type: "number", min: 1, max: bots.max_simulations, value: botDraft.budget, inputmode: "numeric", oninput: () => { botDraft.budget = budget.value; } });
  const seats = offer.fields.seat.values;
  const seat = h("select", {}, seats.map((v) => h("option", { value: JSON.stringify(v), text: v === null ? "the next free seat" : `${v} (replaces its player)` })));
  const error = h("p", { class: "error", role: "alert" });
  const button = h("button", { type: "submit", text: "Seat the bot" });
  const form = h("form", { class: "seat-bot", "data-key": "seat-bot", "aria-label": "seat a bot" },
    h("div", { class: "row" },
      labelled("Bot", kind),
      labelled("MCTS simulations", budget, `1 to ${bots.max_simulations}; more plays better and thinks longer`),
      labelled("Seat", seat)),
    button, error);
  form.addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    const spec = kind.value === "mcts" ? `mcts:${budget.value}` : kind.value;
    ctx.send({ kind: "seat-bot", bot: spec, seat: JSON.parse(seat.value) }, error, button);
  });
  return h("details", { class: "offer-box", "data-key": "board-seat-bot" }, h("summary", { text: "Seat a bot (random, greedy or MCTS)" }), form);
}

function replayBlock(ctx, redraw) {
  if (!ctx.view.state.record) return null;
  const room = ctx.room;
  const kept = replays.get(room.link.room);
  const error = h("p", { class: "error", role: "alert" });
  const load = async (then) => {
    try {
      const record = kept || (await room.get("/record"));
      replays.set(room.link.room, { ...record, index: kept ? kept.index : record.steps.length - 1 });
      then(replays.get(room.link.room));
    } catch (problem) {
      error.textContent = problem.message;
    }
  };
  const go = (to) => () => load((r) => {
    r.index = Math.max(0, Math.min(r.steps.length - 1, to(r)));
    redraw();
  });
  // Off where they would go nowhere: back from the first step, on from the last.
  const atFirst = kept ? kept.index <= 0 : false;
  const atLast = kept ? kept.index >= kept.steps.length - 1 : false;
  const controls = h("div", { class: "row stepper", role: "group", "aria-label": "step through the game" },
    h("button", { type: "button", class: "quiet", disabled: atFirst, onclick: go(() => 0) }, icon(ICONS.first), " First"),
    h("button", { type: "button", class: "quiet", disabled: atFirst, onclick: go((r) => r.index - 1) }, icon(ICONS.prev), " Prev"),
    h("button", { type: "button", class: "quiet", disabled: atLast, onclick: go((r) => r.index + 1) }, "Next ", icon(ICONS.next)),
    h("button", { type: "button", class: "quiet", disabled: atLast, onclick: go((r) => r.steps.length - 1) }, "Last ", icon(ICONS.last)),
    h("button", { type: "button", onclick: () => load((r) => download(r.file, r.log, "application/x-ndjson")), text: "Download the game log" }));
  const where = kept ? h("p", { class: "step-text", role: "status", text: `Step ${kept.index} of ${kept.steps.length - 1}: ${kept.steps[kept.index].text}` }) : h("p", { class: "hint", text: "The game is over: step through it, or download its log for `tabletop deadweight-board replay`." });
  return h("div", { class: "replay" }, where, controls, error);
}

export function boardPanel(ctx) {
  const state = ctx.view.state;
  const seats = seatsOf(ctx);
  const kept = state.record ? replays.get(ctx.room.link.room) : null;
  const game = kept ? kept.steps[kept.index].state : state.game;
  const choose = chooserFor(ctx);
  // The places a move points at are buttons only for whoever may make the move: the GM's
  // view has them while a bot or a player decides, and a click sent a move the table
  // refused with nowhere to say so.
  const places = ctx.offers.some((o) => o.kind === "act") ? state.targets : {};
  let panel = null;
  const redraw = () => {
    const again = boardPanel(ctx);
    panel.replaceWith(again);
  };
  panel = h("section", { class: "panel board", "aria-labelledby": "board-title" },
    h("h2", { id: "board-title", text: game ? `The ship, turn ${game.machine.turn}${game.machine.stage !== "sinking" ? ` (${game.machine.stage})` : ""}` : "The table" }),
    statusLine(ctx, seats),
    game ? null : h("ul", { class: "plain seats" }, seats.map((seat, i) => h("li", {}, h("span", { class: `chip ${COLOURS[i].toLowerCase()}`, "aria-hidden": "true" }), ` ${COLOURS[i]}: ${seat.who}`))),
    seatBotForm(ctx),
    game ? zoomable(drawShip(game, kept ? {} : places, choose, (state.options || {}).walls === "lane_and_mirrors"), ctx.room.link.room) : null,
    game && !kept ? diceStrip(ctx) : null,
    kept ? null : movesList(ctx),
    replayBlock(ctx, redraw),
    game ? playersTable(game, seats) : null,
    game ? h("details", { class: "where-list", "data-key": "board-where" }, h("summary", { text: "What is where (the ship in words)" }), h("ul", {}, describeBoard(game).map((line) => h("li", { text: line })))) : null);
  return panel;
}
