// The Deadweight board game's panel: the ship drawn as SVG from the member's view (both
// lanes, the stations, planks with their side and loot, players, lantern, Mariners, chests,
// crates, lifeboats), its legal moves as things to click on the ship and as a list, the
// dice as they are rolled, a bot's pause, the GM's bots, a key to the ship and the rules in
// short, and a finished game replayed by step, turn or player and downloaded. The rules stay
// on the server: what a move does, which moves are legal and where each points (`targets`)
// all come from it.

import { download, h, labelled } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const COLOURS = ["Red", "Blue", "Green", "Yellow"];
const INK = { Red: "#b8322a", Blue: "#2a62b8", Green: "#22784a", Yellow: "#b88a0c" };
const GEMS = ["emerald", "pearl", "ruby", "diamond"];
const SHORT = { emerald: "Em", pearl: "Pe", ruby: "Ru", diamond: "Di", rope: "Rope", life_ring: "LR" };
const GEM_FILL = { emerald: "#2f9e62", pearl: "#efe9dc", ruby: "#c4283c", diamond: "#9fd3f0" };
const NEUTRAL = "#6b6358"; // a neutral Mariner, which no player owns (AMB-59)
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
const ZOOM = { most: 4, step: 1.5 };
const TALL_BELOW = 520; // a board panel narrower than this (CSS px) draws the ship upright

const replays = new Map(); // room → {steps, log, file, index, player}
const views = new Map(); // room → {scale, cx, cy, tall}: how far the ship is zoomed, and where
const gestures = new Map(); // room → the fingers down on its ship, so a redraw mid-drag goes on
const opened = new Map(); // "room|part" → whether the key or the rules are open
const botDraft = { kind: "greedy", budget: "200" };
let redrawBoard = null; // draws the board panel again (the ship turned when the panel resized)

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
// Two drawings of one ship. WIDE lies on its side, bow on the left, starboard lane on top:
// the room's laptop view. TALL stands upright, bow at the top, starboard lane on the right,
// for a phone: about as wide as the phone, so its words are read near their own size (13 units
// on a ship drawn 330 px wide are 12.7 CSS px) without zooming.

function column(name) {
  const k = PLANKS.indexOf(name);
  return { column: k < 5 ? k + 1 : 10 - k, starboard: k < 5 };
}

function inLine(box, index, count, most) {
  // Where the index-th of `count` pawns stands along a space's foot, the lantern's corner
  // left free, at most `most` units apart.
  const spread = Math.min(most, (box.w - 34) / Math.max(count - 1, 1));
  return { cx: box.x + (box.w - 14) / 2 + (index - (count - 1) / 2) * spread, cy: box.y + box.h - 15 };
}

function wallEnds(index) {
  // The two planks a wall stands between: lane neighbours, then (with mirrored walls) the
  // planks facing each other across the hold.
  if (index < LANE_WALLS.length) return LANE_WALLS[index];
  const c = index - LANE_WALLS.length;
  return [c, 9 - c];
}

function wallName(index) {
  const [a, b] = wallEnds(index);
  return `${PLANKS[a]}|${PLANKS[b]}`;
}

const WIDE = (() => {
  const COL = 86, LEFT = 78, TOP = 30, LANE = 92, MIDDLE = 78;
  const width = LEFT * 2 + 5 * COL - 6;
  const deck = 2 * LANE + MIDDLE;
  return {
    tall: false,
    viewBox: [-6, 0, width + 12, TOP + deck + 92],
    touch: 80, // units a wall's target spans each way (44 CSS px on a 333 px ship)
    titles: [44, 40, 55], // where a plank's title goes: on one line, or on two
    hull: `M 2 ${TOP - 14} H ${width - 2} Q ${width + 4} ${TOP + deck / 2} ${width - 2} ${TOP + deck + 14} H 2 Q -4 ${TOP + deck / 2} 2 ${TOP - 14} Z`,
    captions: [{ x: 8, y: TOP - 18, text: "bow" }, { x: width - 8, y: TOP - 18, text: "stern", anchor: "end" }],
    plank(name) {
      const { column: c, starboard } = column(name);
      return { x: LEFT + (c - 1) * COL, y: starboard ? TOP : TOP + LANE + MIDDLE, w: COL - 6, h: LANE };
    },
    station(name) {
      return { x: name === "BS" ? LEFT + 5 * COL : 4, y: TOP, w: LEFT - 10, h: deck };
    },
    stationWords(box, name) {
      return [
        s("text", { x: box.x + box.w / 2, y: box.y + 22, class: "label mid", text: name }),
        s("text", { x: box.x + box.w / 2, y: box.y + 40, class: "small mid", text: "station" }),
      ];
    },
    chest(i) {
      return { x: LEFT + i * COL + 2, y: TOP + LANE + 6, w: COL - 10, h: MIDDLE - 12 };
    },
    wall(one, two) {
      if (one.y === two.y) { // lane neighbours: an upright line between them
        const x = Math.max(one.x, two.x) - 3;
        return { x1: x, y1: one.y + 6, x2: x, y2: one.y + one.h - 6 };
      }
      const x = one.x + one.w / 2; // facing planks: a line across the hold
      return { x1: x, y1: TOP + LANE + 4, x2: x, y2: TOP + LANE + MIDDLE - 4 };
    },
    pawn(box, index, count) {
      return inLine(box, index, count, 20);
    },
    post(line) {
      return { cx: (line.x1 + line.x2) / 2, cy: (line.y1 + line.y2) / 2 };
    },
    boat(i) {
      return { x: LEFT + i * ((5 * COL) / 4), y: TOP + deck + 24, w: COL + 12 };
    },
  };
})();

const TALL = (() => {
  const W = 336, SIDE = 8, LANE = 108, TOP = 72, PITCH = 86, GAP = 8, STATION = 40;
  const hold = { x: SIDE + LANE + 4, w: W - 2 * (SIDE + LANE + 4) };
  const bottom = TOP + 5 * PITCH;
  const keel = bottom + STATION + 8;
  return {
    tall: true,
    viewBox: [0, 0, W, keel + 78],
    touch: 48, // 44 CSS px and more on a 330 px ship
    titles: [38, 34, 49],
    hull: `M 2 56 Q 4 8 ${W / 2} 4 Q ${W - 4} 8 ${W - 2} 56 V ${keel - 10} Q ${W - 2} ${keel} ${W - 12} ${keel} H 12 Q 2 ${keel} 2 ${keel - 10} Z`,
    captions: [],
    plank(name) {
      const { column: c, starboard } = column(name);
      return { x: starboard ? W - SIDE - LANE : SIDE, y: TOP + (c - 1) * PITCH, w: LANE, h: PITCH - GAP };
    },
    station(name) {
      return name === "FS"
        ? { x: 26, y: TOP - STATION - 6, w: W - 52, h: STATION }
        : { x: SIDE, y: bottom, w: W - 2 * SIDE, h: STATION };
    },
    stationWords(box, name) {
      const where = name === "FS" ? "front station, bow" : "back station, stern";
      return [
        s("text", { x: box.x + 10, y: box.y + 26, class: "label", text: name }),
        s("text", { x: box.x + 40, y: box.y + 26, class: "small", text: where }),
      ];
    },
    chest(i) {
      return { x: hold.x, y: TOP + i * PITCH, w: hold.w, h: PITCH - GAP };
    },
    wall(one, two) {
      if (one.x === two.x) { // lane neighbours: a line across the lane between them
        const y = Math.max(one.y, two.y) - GAP / 2;
        return { x1: one.x + 6, y1: y, x2: one.x + one.w - 6, y2: y };
      }
      const y = one.y + one.h / 2; // facing planks: a line across the hold
      return { x1: hold.x - 2, y1: y, x2: hold.x + hold.w + 2, y2: y };
    },
    pawn(box, index, count) {
      if (box.h === STATION) return { cx: box.x + box.w - 18 - (count - 1 - index) * 24, cy: box.y + box.h / 2 };
      return inLine(box, index, count, 22);
    },
    post(line) {
      // A Mariner on a lane wall stands at its end by the hold, clear of the pawns.
      if (line.x1 === hold.x - 2) return { cx: W / 2, cy: line.y1 }; // across the hold
      return { cx: line.x1 < W / 2 ? line.x2 + 8 : line.x1 - 8, cy: line.y1 };
    },
    boat(i) {
      return { x: SIDE + i * 81, y: keel + 10, w: 78 };
    },
  };
})();

function spaceBox(shape, name) {
  return name === "FS" || name === "BS" || name === "start" ? shape.station(name === "start" ? "FS" : name) : shape.plank(name);
}

function wallLine(shape, index) {
  const [a, b] = wallEnds(index);
  return shape.wall(shape.plank(PLANKS[a]), shape.plank(PLANKS[b]));
}

// what the board shows ---------------------------------------------------------------------

const ITEM_WORDS = { emerald: ["emerald", "emeralds"], pearl: ["pearl", "pearls"], ruby: ["ruby", "rubies"], diamond: ["diamond", "diamonds"], rope: ["rope", "ropes"], life_ring: ["life ring", "life rings"] };

function items(held) {
  // Loot in words ("1 emerald, 2 life rings"), for the list of what is where.
  if (!held || held.hidden) return held ? "closed, its loot hidden" : "";
  const parts = Object.entries(held).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${ITEM_WORDS[k][n === 1 ? 0 : 1]}`);
  return parts.length ? parts.join(", ") : "empty";
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

function lanternOn(game) {
  // The lantern's plank, or null before the first player places it (the saved state names
  // a plank even then).
  return game.machine.phase === "setup_lantern" ? null : game.lantern;
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
    let line = spot ? `${space}: ${KIND[spot.action]} plank, ${spot.loot}, ${flooded ? "flooded (blue side)" : "brown side"}` : `${space}: ${space === "FS" ? "front" : "back"} station`;
    if (lanternOn(game) === space) line += ", the lantern";
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

function gemMark(gem, x, y, size) {
  // The loot's diamond-shaped mark, its top corner at (x, y).
  return s("path", { class: "gem", fill: GEM_FILL[gem], d: `M ${x} ${y} l ${size} ${size} l ${-size} ${size} l ${-size} ${-size} z` });
}

function marinerMark(owner, x, y, size) {
  return s("rect", { class: "mariner-mark", x, y, width: size, height: size, rx: 3, fill: owner ? INK[owner] : NEUTRAL });
}

function boatShape(x, y, w, depth = 32) {
  return s("path", { class: "hull-boat", d: `M ${x} ${y} h ${w} l -7 ${depth} h ${-(w - 14)} z` });
}

export function drawShip(game, targets, choose, mirrors, tall = shipStandsUp()) {
  const shape = tall ? TALL : WIDE;
  const targetAt = new Map();
  for (const [action, target] of Object.entries(targets || {})) {
    if (!targetAt.has(target)) targetAt.set(target, []);
    targetAt.get(target).push(action);
  }
  const clickable = (target, label, drawn) => {
    const actions = targetAt.get(target);
    if (!actions) return drawn;
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
    }, s("title", { text: `${label}: ${actions.join(" or ")}` }), drawn);
  };
  const touchable = (line) => {
    // An invisible area a finger can hit around a line (a wall) or a station.
    const w = Math.max(shape.touch, Math.abs(line.x2 - line.x1));
    const hgt = Math.max(shape.touch, Math.abs(line.y2 - line.y1));
    return s("rect", { class: "hit", x: (line.x1 + line.x2 - w) / 2, y: (line.y1 + line.y2 - hgt) / 2, width: w, height: hgt });
  };
  const parts = [s("path", { class: "hull", d: shape.hull })];
  for (const caption of shape.captions) parts.push(s("text", { x: caption.x, y: caption.y, class: `caption ${caption.anchor || ""}`, text: caption.text }));
  for (const station of ["FS", "BS"]) {
    const box = shape.station(station);
    const [cx, cy] = [box.x + box.w / 2, box.y + box.h / 2];
    const along = box.w > box.h // the station's long side: a finger-high band along it
      ? { x1: box.x, y1: cy, x2: box.x + box.w, y2: cy }
      : { x1: cx, y1: box.y, x2: cx, y2: box.y + box.h };
    const hit = targetAt.has(`space:${station}`) ? touchable(along) : null;
    parts.push(clickable(`space:${station}`, station === "FS" ? "front station" : "back station", s("g", {}, hit,
      s("rect", { class: "station", x: box.x, y: box.y, width: box.w, height: box.h, rx: 8 }),
      shape.stationWords(box, station))));
  }
  for (const name of PLANKS) {
    const box = shape.plank(name);
    const spot = game.layout[name];
    const flooded = game.flooded.includes(name);
    const title = KIND[spot.action];
    const words = title.split(" ");
    const drawn = s("g", {},
      s("rect", { class: flooded ? "plank flooded" : "plank", x: box.x, y: box.y, width: box.w, height: box.h, rx: 6 }),
      s("text", { x: box.x + 6, y: box.y + 17, class: "small", text: name }),
      gemMark(spot.loot, box.x + box.w - 13, box.y + 4, 8),
      s("text", { x: box.x + box.w - 24, y: box.y + 17, class: "small end", text: SHORT[spot.loot] }),
      words.length > 2
        ? [s("text", { x: box.x + box.w / 2, y: box.y + shape.titles[1], class: "label mid", text: words.slice(0, 2).join(" ") }), s("text", { x: box.x + box.w / 2, y: box.y + shape.titles[2], class: "label mid", text: words.slice(2).join(" ") })]
        : s("text", { x: box.x + box.w / 2, y: box.y + shape.titles[0], class: "label mid", text: title }),
      lanternOn(game) === name ? s("g", { class: "lantern" },
        s("circle", { cx: box.x + box.w - 12, cy: box.y + box.h - 14, r: 10 }),
        s("text", { x: box.x + box.w - 12, y: box.y + box.h - 9.5, class: "small mid", text: "L" }),
        s("title", { text: "the lantern" })) : null);
    parts.push(clickable(`space:${name}`, `${name} (${title}${flooded ? ", flooded" : ""})`, drawn));
  }
  // the hold between the lanes: chests, and the walls
  game.chests.forEach((chest, i) => {
    const box = shape.chest(i);
    parts.push(s("g", { class: "chest" },
      s("rect", { x: box.x, y: box.y, width: box.w, height: box.h, rx: 4 }),
      s("text", { x: box.x + 6, y: box.y + 16, class: "small label-chest", text: `C${i + 1}` }),
      chestLines(chest).map((line, j) => s("text", { x: box.x + 6, y: box.y + 31 + j * 14, class: "small", text: line })),
      s("title", { text: `chest C${i + 1}: ${items(chest)}` })));
  });
  const wallCount = LANE_WALLS.length + (mirrors ? 5 : 0);
  for (let index = 0; index < wallCount; index++) {
    const line = wallLine(shape, index);
    const hit = targetAt.has(`wall:${index}`) ? touchable(line) : null;
    parts.push(clickable(`wall:${index}`, `wall ${wallName(index)}`, s("g", {}, hit, s("line", { class: "wall", ...line }))));
  }
  game.mariners.forEach((m, i) => {
    if (m.where !== "wall") return;
    const { cx, cy } = shape.post(wallLine(shape, m.wall));
    parts.push(s("g", { class: "mariner" },
      marinerMark(m.owner, cx - 10, cy - 10, 20),
      s("text", { x: cx, y: cy + 4.5, class: "small mid light", text: "M" }),
      s("title", { text: `${m.owner ? `${m.owner}'s` : `neutral ${i + 1}`} Mariner on wall ${wallName(m.wall)}` })));
  });
  // players on their spaces
  for (const space of ["FS", ...PLANKS, "BS"]) {
    const here = playersOn(game, space);
    const box = spaceBox(shape, space);
    here.forEach((player, i) => {
      const { cx, cy } = shape.pawn(box, i, here.length);
      parts.push(clickable(`player:${player.colour}`, player.colour, s("g", { class: "pawn" },
        s("circle", { cx, cy, r: 10.5, fill: INK[player.colour] }),
        s("text", { x: cx, y: cy + 4.5, class: "small mid light", text: player.colour[0] }))));
    });
  }
  // lifeboats and their crates below the hull; the Mariners already in a lifeboat under it
  GEMS.forEach((gem, i) => {
    const { x, y, w } = shape.boat(i);
    const inBoat = game.mariners.filter((m) => m.where === "lifeboat" && m.lifeboat === gem);
    const boat = s("g", { class: "boat" },
      boatShape(x, y, w),
      gemMark(gem, x + 12, y + 4, 6),
      s("text", { x: x + 22, y: y + 15, class: "small", text: `${SHORT[gem]} boat` }),
      s("text", { x: x + 12, y: y + 29, class: "small", text: `crate ${game.crates[gem] ?? 0}` }),
      inBoat.map((m) => s("title", { text: `${m.owner ? `${m.owner}'s` : "a neutral"} Mariner is in the ${gem} lifeboat` })),
      inBoat.map((m, j) => marinerMark(m.owner, x + 8 + j * 18, y + 37, 16)));
    parts.push(clickable(`boat:${gem}`, `the ${gem} lifeboat`, boat));
  });
  return s("svg", {
    class: "ship",
    "data-kind": "act",
    "data-shape": shape.tall ? "tall" : "wide",
    viewBox: shape.viewBox.join(" "),
    role: "group",
    "aria-label": "the ship: what is where is listed below",
  }, parts);
}

function shipStandsUp() {
  // Upright on a narrow board panel (a phone): the panel drawn last, or where it goes.
  const panel = document.querySelector(".panel.board") || document.getElementById("play");
  const width = panel ? panel.clientWidth : 0;
  return (width || window.innerWidth) < TALL_BELOW;
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
  const tall = svg.dataset.shape === "tall";
  if (!views.has(room) || views.get(room).tall !== tall) views.set(room, { scale: 1, cx: x + w / 2, cy: y + hgt / 2, tall });
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

const PHASES = {
  setup_lantern: "where the lantern starts",
  move: "how to move",
  plank: "what to do on the plank",
  station: "what to do at the station",
  take_item: "which item to take",
  wtp_keep: "what to keep of the chest's loot",
  wtp_give: "who gets the rest of the chest's loot",
  wtp_drop: "which gem drops into the hole",
  flip: "which plank to flip",
  flip_keep: "what to keep from the flipped plank's chest",
  flip_pick: "what to pick from the flipped plank's chest",
  lantern: "where the lantern goes",
  limit: "which loot to give back (over 10)",
  evacuate: "which Mariner goes to which lifeboat",
  forced_deploy: "which wall the Mariner takes",
};
const STAGES = { evacuation: "the evacuation", final: "the final round", ended: "the end" };

function botWords(spec) {
  // "mcts:30" as a person says it: "MCTS bot, 30 simulations".
  const [kind, budget] = spec.split(":");
  if (kind !== "mcts") return `${kind} bot`;
  return budget ? `MCTS bot, ${budget} simulations` : "MCTS bot";
}

function seatsOf(ctx) {
  // Who holds each seat, in words: a bot by its kind, a member by name (one the GM removed
  // by the name the log last gave them).
  return ctx.view.state.seats.map((seat) => ({ ...seat, who: seat.bot ? botWords(seat.bot) : ctx.member(seat.member) }));
}

function turnWords(turn) {
  return turn > 0 ? `turn ${turn}` : "the setup";
}

function shipTitle(game) {
  if (!game) return "The table";
  const stage = STAGES[game.machine.stage];
  return `The ship, ${turnWords(game.machine.turn)}${stage ? ` (${stage})` : ""}`;
}

function playersTable(game, seats) {
  // Its title stays above the part that scrolls sideways, so a phone shows it whole.
  const heads = [["seat", "seat"], ["on", "where they are"], ["Em", "emeralds"], ["Pe", "pearls"], ["Ru", "rubies"], ["Di", "diamonds"], ["Rope", "ropes"], ["LR", "life rings"], ["card", "trade card"]];
  const rows = game.players.map((p, i) => h("tr", { class: game.machine.owner === i && game.machine.phase !== "over" ? "acting" : "" },
    h("th", { scope: "row" }, h("span", { class: `chip ${p.colour.toLowerCase()}`, "aria-hidden": "true" }), ` ${p.colour}`, seats[i] ? h("small", { class: "hint", text: seats[i].who }) : null),
    h("td", { text: p.position + (p.skip_turns ? " (skips a turn)" : "") }),
    ["emerald", "pearl", "ruby", "diamond", "rope", "life_ring"].map((k) => h("td", { text: String(p.items[k]) })),
    h("td", { text: `#${p.trade_card + 1}` })));
  return [
    h("h3", { id: "board-players", class: "players-title", text: "Players: loot, ropes and life rings (the score)" }),
    h("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": "the players (scrolls sideways)" },
      h("table", { class: "grid players", "aria-labelledby": "board-players" },
        h("thead", {}, h("tr", {}, heads.map(([t, full]) => h("th", { scope: "col" }, h("abbr", { title: full, text: t }))))),
        h("tbody", {}, rows))),
  ];
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
  const what = PHASES[game.machine.phase] || "what to do";
  if (seat && seat.bot && botsWaiting(ctx.entries || [])) {
    return h("p", { class: "status-line", role: "status", text: `The session has ended: ${state.to_decide}'s ${seat.who} waits until someone asks it to move.` });
  }
  if (seat && seat.bot) {
    return h("p", { class: "status-line thinking", role: "status" }, h("span", { class: "spinner", "aria-hidden": "true" }), `${state.to_decide} (${seat.who}) is thinking…`);
  }
  const mine = seat && seat.member === ctx.view.me.id;
  return h("p", { class: "status-line", role: "status", text: mine ? `Your move, ${state.to_decide}: choose ${what}. Tap the ship or pick below.` : `${state.to_decide} (${seat ? seat.who : "nobody"}) decides ${what}.` });
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

// the finished game, replayed -------------------------------------------------------------

function firstOfTurn(steps, turn) {
  // The first step taken in `turn` or, if nobody moved in it (a skipped turn), after it.
  const found = steps.findIndex((step) => step.turn >= turn);
  return found < 0 ? steps.length - 1 : found;
}

function moveOf(steps, from, colour, direction) {
  // The step of `colour`'s next (direction 1) or previous (-1) decision from `from`, or -1.
  for (let i = from + direction; i >= 0 && i < steps.length; i += direction) if (steps[i].by === colour) return i;
  return -1;
}

function turnStep(steps, from, direction) {
  // Where the next turn starts, or the turn before this one; -1 past either end.
  const turn = steps[from].turn;
  if (direction > 0) {
    const found = steps.findIndex((step) => step.turn > turn);
    return found;
  }
  const start = firstOfTurn(steps, turn);
  return start > 0 ? firstOfTurn(steps, steps[start - 1].turn) : -1;
}

function stepWords(steps, index) {
  const step = steps[index];
  const of = `Step ${index} of ${steps.length - 1}`;
  return step.by ? `${of}, ${turnWords(step.turn)}: ${step.by}'s move` : `${of}: the ship as it was set up`;
}

function replayControls(r, go, players) {
  // The slider over every step, steps one by one, turn by turn and one player's moves, and
  // what the step shown did, in words. `go(index)` shows a step and calls `refresh`.
  const last = r.steps.length - 1;
  const lastTurn = r.steps[last].turn;
  const slider = h("input", { type: "range", min: 0, max: last, step: 1, value: r.index, oninput: () => go(Number(slider.value)) });
  const button = (text, to, mark, after) => h("button", { type: "button", class: "quiet", onclick: () => go(to()) },
    mark && !after ? [icon(mark), " "] : null, text, mark && after ? [" ", icon(mark)] : null);
  const first = button("First", () => 0, ICONS.first);
  const back = button("Back", () => r.index - 1, ICONS.prev);
  const on = button("Next", () => r.index + 1, ICONS.next, true);
  const end = button("Last", () => last, ICONS.last, true);
  const turnBack = button("Previous turn", () => turnStep(r.steps, r.index, -1));
  const turnOn = button("Next turn", () => turnStep(r.steps, r.index, 1));
  const turn = h("input", { type: "number", min: 0, max: lastTurn, inputmode: "numeric" });
  const turnForm = h("form", { class: "row go-turn", "data-key": "replay-turn", "aria-label": "go to a turn" },
    labelled(`Turn (0 to ${lastTurn})`, turn), h("button", { type: "submit", class: "quiet", text: "Go to turn" }));
  turnForm.addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    const wanted = Math.round(Number(turn.value));
    if (turn.value !== "" && Number.isFinite(wanted)) go(firstOfTurn(r.steps, Math.max(0, Math.min(lastTurn, wanted))));
  });
  const player = h("select", { onchange: () => { r.player = player.value; refresh(); } },
    players.map((colour) => h("option", { value: colour, selected: colour === r.player, text: colour })));
  const moveBack = h("button", { type: "button", class: "quiet", onclick: () => go(moveOf(r.steps, r.index, r.player, -1)) }, icon(ICONS.prev), " Previous move");
  const moveOn = h("button", { type: "button", class: "quiet", onclick: () => go(moveOf(r.steps, r.index, r.player, 1)) }, "Next move ", icon(ICONS.next));
  const moves = h("div", { class: "row by-player", role: "group" }, labelled("Player", player), moveBack, moveOn);
  const place = h("p", { class: "step-text", role: "status" });
  const happened = h("ol", { class: "step-events", "aria-label": "what this step did" });
  const refresh = () => {
    const step = r.steps[r.index];
    slider.value = String(r.index);
    slider.setAttribute("aria-valuetext", stepWords(r.steps, r.index));
    place.textContent = stepWords(r.steps, r.index);
    const lines = step.events && step.events.length ? step.events : [step.text];
    happened.replaceChildren(...lines.map((line) => h("li", { text: line })));
    first.disabled = back.disabled = r.index <= 0;
    on.disabled = end.disabled = r.index >= last;
    turnBack.disabled = turnStep(r.steps, r.index, -1) < 0;
    turnOn.disabled = turnStep(r.steps, r.index, 1) < 0;
    moves.setAttribute("aria-label", `${r.player}'s moves`);
    moveBack.disabled = moveOf(r.steps, r.index, r.player, -1) < 0;
    moveOn.disabled = moveOf(r.steps, r.index, r.player, 1) < 0;
  };
  refresh();
  const element = h("div", { class: "replay-controls", "data-key": "replay" },
    labelled("Step of the game", slider, "drag, or use the arrow keys"),
    h("div", { class: "row stepper", role: "group", "aria-label": "step by step" }, first, back, on, end),
    h("div", { class: "row by-turn", role: "group", "aria-label": "turn by turn" }, turnBack, turnOn, turnForm),
    moves,
    place,
    happened);
  return { element, refresh };
}

function replayBlock(ctx, kept, go, redraw) {
  // A finished game: load its record to replay it on the ship, or download its log.
  if (!ctx.view.state.record) return null;
  const room = ctx.room;
  const error = h("p", { class: "error", role: "alert" });
  const record = async () => {
    if (!replays.has(room.link.room)) {
      const loaded = await room.get("/record");
      const last = loaded.steps.length - 1;
      const mine = ctx.view.state.seats.findIndex((seat) => seat.member === ctx.view.me.id);
      const player = mine >= 0 ? COLOURS[mine] : loaded.steps[last].by || COLOURS[0];
      replays.set(room.link.room, { ...loaded, index: last, player });
    }
    return replays.get(room.link.room);
  };
  const attempt = (then) => async () => {
    try {
      then(await record());
    } catch (problem) {
      error.textContent = problem.message;
    }
  };
  const save = h("button", { type: "button", class: "quiet", onclick: attempt((r) => download(r.file, r.log, "application/x-ndjson")), text: "Download the game log" });
  if (!kept) {
    return { element: h("div", { class: "replay" },
      h("p", { class: "hint", text: "The game is over. Replay it on the ship, step by step, turn by turn or one player's moves, or download its log to check it with the command “tabletop deadweight-board replay”." }),
      h("div", { class: "row" }, h("button", { type: "button", onclick: attempt(redraw), text: "Replay the game" }), save),
      error) };
  }
  const players = kept.steps[0].state.players.map((p) => p.colour);
  const controls = replayControls(kept, go, players);
  return { element: h("section", { class: "replay", "aria-labelledby": "replay-title" },
    h("h3", { id: "replay-title", text: "Replay of the game" }), controls.element, h("div", { class: "row" }, save), error),
  refresh: controls.refresh };
}

// the key to the ship and the rules in short ------------------------------------------------

function swatch(...parts) {
  // A mark of the ship drawn small, beside the words that explain it.
  return s("svg", { class: "swatch", viewBox: "0 0 40 28", width: 40, height: 28, "aria-hidden": "true", focusable: "false" }, parts);
}

const KEY = [
  [() => swatch(s("rect", { class: "plank", x: 3, y: 3, width: 34, height: 22, rx: 4 })),
    "A brown plank is dry: its printed action is the one in play."],
  [() => swatch(s("rect", { class: "plank flooded", x: 3, y: 3, width: 34, height: 22, rx: 4 })),
    "A blue plank is flooded, turned over after a diamond was paid: it does its flooded action (see the rules below)."],
  [() => swatch(s("rect", { class: "station", x: 3, y: 3, width: 34, height: 22, rx: 5 }), s("text", { x: 20, y: 19, class: "small mid", text: "FS" })),
    "FS and BS: the front and back stations. Trade there for life rings, send your Mariner out, or roll the fate die; you turn onto the other lane at each."],
  [() => swatch(GEMS.map((gem, i) => gemMark(gem, 5 + i * 10, 7, 5))),
    "The gem in a plank's corner is the loot it gives: Em emerald (green), Pe pearl (white), Ru ruby (red), Di diamond (blue)."],
  [() => swatch(s("circle", { cx: 12, cy: 14, r: 10, fill: INK.Red, class: "pawn-mark" }), s("text", { x: 12, y: 18.5, class: "small mid light", text: "R" }), s("circle", { cx: 28, cy: 14, r: 10, fill: INK.Blue, class: "pawn-mark" }), s("text", { x: 28, y: 18.5, class: "small mid light", text: "B" })),
    "A circle with a letter is a player: Red, Blue, Green or Yellow."],
  [() => swatch(s("g", { class: "lantern" }, s("circle", { cx: 20, cy: 14, r: 10 }), s("text", { x: 20, y: 18.5, class: "small mid", text: "L" }))),
    "L is the lantern: land on its plank to take its loot and do its action too."],
  [() => swatch(s("line", { class: "wall", x1: 20, y1: 3, x2: 20, y2: 25 })),
    "A dark line between two planks is a wall, where a Mariner can stand."],
  [() => swatch(s("line", { class: "wall", x1: 20, y1: 1, x2: 20, y2: 27 }), marinerMark("Green", 10, 4, 20), s("text", { x: 20, y: 18.5, class: "small mid light", text: "M" })),
    "M on a wall is a player's Mariner, in its owner's colour. It rolls against anyone who steps past it and guards its owner on the planks either side."],
  [() => swatch(s("g", { class: "chest" }, s("rect", { x: 3, y: 3, width: 34, height: 22, rx: 3 }), s("text", { x: 20, y: 19, class: "small mid", text: "C1" }))),
    "C1 to C5 are the chests below deck, with the loot in them (? when the table keeps it hidden)."],
  [() => swatch(boatShape(2, 2, 36, 24)),
    "A lifeboat takes one kind of loot; \u201ccrate 3\u201d counts the gems in its crate. A full crate is tipped into the boat and pays a life ring to whoever filled it."],
  [() => swatch(marinerMark("Red", 1, 6, 16), marinerMark(null, 22, 6, 16)),
    "Coloured squares under a lifeboat are Mariners that reached it, in their owner's colour (grey: a Mariner no player owns). When all four are in, everyone has one last turn."],
  [() => swatch(s("g", { class: "target" }, s("rect", { class: "plank", x: 4, y: 4, width: 32, height: 20, rx: 4 }))),
    "A glowing yellow edge is a place one of your moves goes: tap it to make that move."],
];

const ACTIONS = [ // each kind of plank (KIND): its brown side, its flooded side
  ["trade", "swap 2 loot for 2 of other kinds", "swap a life ring for any loot, or a loot for a life ring"],
  ["rope", "take a rope", "take a rope from a player"],
  ["shortcut", "go to the plank across the hold", "go to any other plank (nothing happens where you land)"],
  ["switch", "swap places with a player", "swap any two players"],
  ["sabotage", "try to steal from any player", "make a player skip their next turn"],
  ["life_ring", "gain a life ring", "take a life ring from a player"],
  ["walk_the_plank", "roll 1 or 4 to lift the centre chest's loot", "roll 1, 3 or 4 to lift it"],
  ["plain", "loot only", "loot only"],
];

const TURN = [
  "Move 1 or 2 spaces along your lane, or spend a rope to go further: anywhere ahead up to the next station, or from a station onto any plank of the next lane or to the other station. You go round the ship, out along one lane and back along the other.",
  "Step past another player's Mariner and its owner rolls the fate die against you first: if the Mariner rolls higher it takes an item from you, if lower it goes home, a tie changes nothing. A rope goes past it safely.",
  "On a plank, take one of its loot or do its action; with the lantern there, both. With another player on it you may try to steal from them instead (with the lantern, as well); with two or more you must.",
  "At a station, pay the loot your trade card asks for life rings (each trade once, then draw a new card), and you may stand your Mariner on a wall, paying one gem of each kind the planks either side give (only one Mariner is out at a time; roll to knock one off). Or roll the fate die instead for one item: 1 pearl, 2 emerald, 3 ruby, 4 diamond, 5 rope, 6 life ring.",
  "End your turn by moving the lantern 1 or 2 planks behind you.",
];

const MORE = [
  "Stealing: the thief rolls the fate die, then the defender. Higher takes any one item (loot, a rope or a life ring); if the defender rolls higher the steal is blocked; on a tie the defender takes an item from the thief instead.",
  "Paid loot goes into the crates above the lifeboats. A diamond paid in a trade floods a plank at the end of the turn (one a turn, from the back of the ship): its chest is shared out, 2 items to the player who flipped it, then one each round the table. A Mariner beside a flooded plank goes home.",
  "Walk the Plank: on a good roll take the centre chest's loot, keeping up to 4 (half if there are more than 8) and handing the rest out as you like; on a miss drop one of your gems into the hole.",
  "You hold at most 10 loot and 2 ropes.",
  "The end: once every plank is flooded, a diamond paid at the front station sends a Mariner to a lifeboat. When all four are in, everyone takes one last turn to move and trade. Most life rings wins; a tie goes to the loot in hand (emerald 1, pearl 2, ruby 3, diamond 4).",
];

function folding(room, part, summary, ...body) {
  // A part that stays open or closed as the member left it, across redraws.
  const key = `${room}|${part}`;
  const details = h("details", { class: "ship-help", "data-key": `board-${part}`, open: opened.get(key) || false }, h("summary", { text: summary }), body);
  details.addEventListener("toggle", () => opened.set(key, details.open));
  return details;
}

function shipHelp(ctx) {
  const room = ctx.room.link.room;
  const changed = Object.keys(ctx.view.state.options || {}).length > 0;
  return h("div", { class: "ship-help-parts" },
    folding(room, "key", "Key to the ship: what each mark means",
      h("ul", { class: "plain ship-key" }, KEY.map(([mark, words]) => h("li", {}, mark(), h("span", { text: words }))))),
    folding(room, "rules", "The rules in short",
      h("p", { text: "Scavenge loot on the sinking Blackwake and trade it for life rings: when the last Mariner reaches a lifeboat, whoever holds the most life rings survives." }),
      h("h4", { text: "Your turn" }),
      h("ol", { class: "rules-turn" }, TURN.map((line) => h("li", { text: line }))),
      h("ul", { class: "rules-more" }, MORE.map((line) => h("li", { text: line }))),
      h("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": "the plank actions (scrolls sideways)" },
        h("table", { class: "grid plank-actions" },
          h("caption", { text: "Plank actions" }),
          h("thead", {}, h("tr", {}, ["Plank", "Brown side", "Flooded side"].map((words) => h("th", { scope: "col", text: words })))),
          h("tbody", {}, ACTIONS.map(([kind, dry, wet]) => h("tr", {}, h("th", { scope: "row", text: KIND[kind] }), h("td", { text: dry }), h("td", { text: wet })))))),
      h("p", { class: "hint", text: `Where the rule book is unclear the table follows the readings written in docs/rules/deadweight-board.md${changed ? "; this room was opened with some of them changed" : ""}. A game that runs to the table's turn limit ends there and is scored the same way.` })));
}

// the panel --------------------------------------------------------------------------------

export function boardPanel(ctx) {
  const state = ctx.view.state;
  const seats = seatsOf(ctx);
  const room = ctx.room.link.room;
  const kept = state.record ? replays.get(room) : null;
  const game = kept ? kept.steps[kept.index].state : state.game;
  const choose = chooserFor(ctx);
  const mirrors = (state.options || {}).walls === "lane_and_mirrors";
  // The places a move points at are buttons only for whoever may make the move: the GM's
  // view has them while a bot or a player decides, and a click sent a move the table
  // refused with nowhere to say so.
  const places = !kept && ctx.offers.some((o) => o.kind === "act") ? state.targets : {};
  const title = h("h2", { id: "board-title", text: shipTitle(game) });
  const ship = h("div", { class: "ship-view" });
  const players = h("div", { class: "players-view" });
  const where = h("ul", {});
  const shown = (board) => {
    title.textContent = shipTitle(board);
    ship.replaceChildren(...zoomable(drawShip(board, places, choose, mirrors), room));
    players.replaceChildren(...playersTable(board, seats));
    where.replaceChildren(...describeBoard(board).map((line) => h("li", { text: line })));
  };
  let panel = null;
  const redraw = () => panel.replaceWith(boardPanel(ctx));
  const replay = replayBlock(ctx, kept, (index) => {
    kept.index = Math.max(0, Math.min(kept.steps.length - 1, index));
    shown(kept.steps[kept.index].state);
    replay.refresh();
  }, redraw);
  if (game) shown(game);
  redrawBoard = () => {
    const drawn = ship.querySelector(".ship");
    if (panel.isConnected && drawn && (drawn.dataset.shape === "tall") !== shipStandsUp()) redraw();
  };
  panel = h("section", { class: "panel board", "aria-labelledby": "board-title" },
    title,
    statusLine(ctx, seats),
    game ? null : h("ul", { class: "plain seats" }, seats.map((seat, i) => h("li", {}, h("span", { class: `chip ${COLOURS[i].toLowerCase()}`, "aria-hidden": "true" }), ` ${COLOURS[i]}: ${seat.who}`))),
    seatBotForm(ctx),
    game ? ship : null,
    game && !kept ? diceStrip(ctx) : null,
    kept ? null : movesList(ctx),
    replay ? replay.element : null,
    game ? shipHelp(ctx) : null,
    game ? players : null,
    game ? h("details", { class: "where-list", "data-key": "board-where" }, h("summary", { text: "What is where (the ship in words)" }), where) : null);
  return panel;
}

window.addEventListener("resize", () => {
  // A phone turned sideways, or a window widened: the ship lies down or stands up to fit.
  if (redrawBoard) redrawBoard();
});
