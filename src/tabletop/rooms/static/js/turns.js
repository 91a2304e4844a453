// The turn now, read from the member's view in one shape for every system, and the bar at
// the top of the room page that shows it: the round, whose turn it is, and everyone in
// the order with where they stand. The cards (js/cards.js) read the same shape for their
// "acting now" marks and to open the current turn's card.
//
// The shape (`Turn`):
//   { title: "Round 2 · Voss's turn",          what the bar says first
//     note: "act when you like",               a line on how this turn goes, or ""
//     order: [{ id, name, state, note, gm }] } everyone in the turn order, first to last
// `id` is the card's (a character's or an NPC's id in the view), null for someone with no
// card; `state` is "now" (their turn: the one whose turn it is), "ready" (free to act now,
// where the rules let several act as they like: 2d6's Main Phase), "next" (still to
// come), "done" (acted this round), "waiting" (held back) or "out" (down, fled); `note` a
// few words on them ("2 of 3 AP", "initiative 14"); `gm` is true when the GM makes this
// one's choices (an NPC, a choice the rules give the GM) rather than the character's
// player.
//
// The shared turn order (`turn` in the view: tabletop.turns, the same at every RPG table)
// is read first, while the GM keeps it; where the rules keep the order (a Constitution
// fight's initiative) the system's own reader below (SYSTEMS) says more of it (initiative,
// AP left), and the shared one serves where a system has no reader.

import { h } from "./dom.js";

export function turnOf(view) {
  const state = view.state || {};
  const shared = state.turn;
  if (shared && shared.by !== "the rules") return sharedTurn(shared);
  const read = SYSTEMS[view.system];
  return (read && read(state)) || (shared ? sharedTurn(shared) : null);
}

function sharedTurn(turn) {
  // `{order: [{id, name, player}], current, round, by}`: each one's id is its card's.
  const at = turn.order.findIndex((one) => one.id === turn.current);
  const order = turn.order.map((one, i) => ({
    id: one.id,
    name: one.name,
    state: i === at ? "now" : at >= 0 && i < at ? "done" : "next",
    note: "",
    gm: !one.player,
  }));
  const now = order[at];
  const title = `Round ${turn.round}${now ? ` · ${now.name}'s turn` : ""}`;
  return { title, note: turn.by === "the rules" ? "the rules move the turn on" : "", order };
}

function isNpc(state, id) {
  return (state.npcs || []).some((npc) => npc.id === id);
}

function cardId(state, id, name) {
  // The card a turn order's entry is: an NPC's id, or the character the fight knows by its
  // name (Constitution's and 2d6's fights and roll-under's activations name characters).
  if (isNpc(state, id)) return id;
  const found = (state.characters || []).find((c) => (c.name || c.sheet?.name) === name);
  return found ? found.id : null;
}

// Constitution (§ 5): initiative order, one combatant acting at a time.
function constitution(state) {
  const fight = state.fight;
  if (!fight || !fight.combatants?.length || fight.phase === "over") return null;
  const byId = new Map(fight.combatants.map((c) => [c.id, c]));
  const ids = fight.order?.length ? fight.order : fight.combatants.map((c) => c.id);
  const acting = ids.indexOf(fight.acting);
  const order = ids.map((id, i) => {
    const c = byId.get(id) || { name: id };
    const standing = c.status === undefined || c.status === "fighting";
    let where = "next";
    if (!standing) where = "out";
    else if (i === acting) where = "now";
    else if (acting >= 0 && i < acting) where = "done";
    const initiative = typeof c.initiative === "number" ? `initiative ${c.initiative}` : "";
    return { id: cardId(state, id, c.name), name: c.name, state: where, note: standing ? initiative : c.status, gm: isNpc(state, id) };
  });
  const now = order.find((one) => one.state === "now");
  const title = {
    setup: "Before the fight: initiative",
    between_rounds: `Round ${fight.round} is over`,
  }[fight.phase] || `Round ${fight.round}${now ? ` · ${now.name}'s turn` : ""}`;
  return { title, note: fight.phase === "setup" ? "each side rolls initiative, then the GM begins" : "", order };
}

// 2d6 (Initiative Rules B): rounds in phases; in the Main Phase anyone with AP acts when
// they like, simultaneous actions in AGI order (RU-M25, RU-M26).
function ap2d6(state) {
  const fight = state.fight;
  if (!fight || !fight.characters?.length) return null;
  const main = fight.phase === "main";
  const agility = (c) => (typeof c.scores?.AGI === "number" ? c.scores.AGI : -99);
  const fighters = [...fight.characters].sort((a, b) => agility(b) - agility(a));
  const order = fighters.map((c) => {
    const tracker = c.tracker || {};
    const tokens = tracker.tokens || [];
    const left = tokens.filter((t) => t === 0).length + (tracker.temp || 0);
    const life = c.public_life || c.life;
    let where = "next";
    if (life && life !== "up") where = "out";
    else if (tracker.waiting) where = "waiting";
    else if (main && c.tracker && !tracker.hidden) where = left > 0 ? "ready" : "done";
    else if (main) where = "ready";
    const note = where === "out" ? String(life) : c.tracker && !tracker.hidden ? `${left} of ${tokens.length} AP` : "";
    const id = cardId(state, null, c.name);
    return { id, name: c.name, state: where, note, gm: isNpcCharacter(state, id) };
  });
  const phase = { "not-started": "not started", "beginning-moves": "the Beginning Phase", main: "the Main Phase" }[fight.phase] || "";
  const title = fight.round ? `Round ${fight.round} · ${phase}` : "A fight, not started";
  const note = main ? "anyone with AP left acts when they like; at the same moment, higher AGI first" : fight.round ? "" : "the GM starts the first round";
  return { title, note, order };
}

function isNpcCharacter(state, id) {
  return Boolean((state.characters || []).find((c) => c.id === id)?.npc);
}

// Dead Weight: no turn order in the book; the test under way is the turn, and whoever
// chooses next in it (the roller's player, or the GM for a kept NPC's test or the GM's
// own budget) is whose turn it is.
function deadWeight(state) {
  const exchange = state.exchange;
  if (!exchange || exchange.finished) return null;
  const opposed = exchange.opposed;
  const tests = opposed ? opposed.tests : [exchange.test];
  const current = opposed ? opposed.current : 0;
  const kept = exchange.kept || [];
  const order = tests.map((test, i) => {
    const character = exchange.rollers?.[i];
    const npc = kept[i];
    const id = character || npc || null;
    const name = character ? nameOf(state, character) : npc ? nameOf(state, npc) : test.roller?.name || "an NPC";
    const gm = Boolean(npc) || !character || test.turn === "gm";
    const whose = test.turn === "gm" ? "the GM chooses" : "";
    return { id, name, state: i === current ? "now" : i < current ? "done" : "next", note: [test.hidden ? "" : testName(test), i === current ? whose : ""].filter(Boolean).join(", "), gm };
  });
  const title = opposed ? `Opposed test, round ${opposed.round}` : `${order[0].name}'s ${testName(tests[0])}`;
  return { title, note: "", order };
}

function testName(test) {
  if (!test || test.hidden || !test.setup) return "a test the GM keeps";
  return `${test.setup.attribute} ${test.setup.check ? "check" : "test"}`;
}

function nameOf(state, id) {
  const found = [...(state.characters || []), ...(state.npcs || [])].find((c) => c.id === id);
  return found ? found.name || found.sheet?.name || "someone" : "someone";
}

// Roll-under: the book leaves turn order to the table (CR-G04); the GM begins each
// activation, and a rule waiting for an answer is put to one chooser.
function rollunder(state) {
  const actor = state.activation;
  const pending = state.pending;
  if (!actor && !pending) return null;
  const decision = pending?.decision;
  const order = [];
  if (actor) order.push({ id: cardId(state, null, actor), name: actor, state: "now", note: "activation", gm: false });
  if (decision && !decision.hidden && decision.chooser !== actor) {
    const gm = decision.chooser === "GM";
    order.push({ id: gm ? null : cardId(state, null, decision.chooser), name: gm ? "the GM" : decision.chooser, state: "now", note: "decides", gm });
  }
  for (const one of order) one.gm = one.gm || Boolean(one.id && isNpcCharacter(state, one.id));
  const parts = [actor ? `${actor}'s activation` : ""];
  if (decision) parts.push(decision.hidden ? "a roll is waiting" : `${decision.chooser} decides: ${decision.purpose}`);
  return { title: parts.filter(Boolean).join(" · "), note: "", order };
}

const SYSTEMS = { constitution, ap2d6, "dead-weight": deadWeight, rollunder };

// the bar -----------------------------------------------------------------------------------

export const TURN_WORDS = { now: "their turn", done: "acted", waiting: "waiting" };
// How an entry's state reads beside its name; "ready", "next" and "out" say it in their note.

export function turnWords(one, mine) {
  // An entry's state in a few words: "your turn" where it is this member's.
  const word = mine ? "your turn" : TURN_WORDS[one.state];
  return [word, one.note].filter(Boolean).join(" · ");
}

export function isMine(one, view, cards) {
  // Whether this member makes the choice of an entry whose turn it is: the GM for an NPC or
  // a choice the rules give the GM, a character's owner for their character.
  if (one.state !== "now" && one.state !== "ready") return false;
  if (one.gm) return view.me.role === "gm";
  const card = cards.get(one.id);
  return Boolean(card && card.owner === view.me.id);
}

export function turnBar(turn, view, cards, teller = null) {
  // What the table reads first: the turn, and for the member whose turn it is, that it is
  // (and a notice a screen reader says aloud); while it is another's, a player's toggle to
  // be told when it is theirs, kept off their own turn's first screen.
  if (!turn) return null;
  const mine = turn.order.filter((one) => isMine(one, view, cards));
  const player = view.me.role === "player";
  return h(
    "section",
    { class: mine.length ? "turn-bar mine" : "turn-bar", "aria-label": "the turn now" },
    h("p", { class: "turn-title" },
      mine.length ? h("strong", { class: "your-turn", text: view.me.role === "gm" ? "Your turn, GM" : "Your turn" }) : null,
      h("span", { text: turn.title }),
      turn.note ? h("span", { class: "hint", text: turn.note }) : null,
      teller && player && !mine.length ? teller.toggle() : null),
    // said aloud to a screen reader; the badge above shows it
    teller && player && mine.length ? h("p", { class: "turn-notice visually-hidden", role: "status", text: `It is your turn: ${mine.map((one) => one.name).join(", ")}.` }) : null,
    turn.order.length
      ? h("ol", { class: "turn-order", "aria-label": "the turn order", tabindex: "0" }, turn.order.map((one) => h(
        "li",
        { class: `turn-${one.state}`, "aria-current": one.state === "now" ? "true" : null },
        h("span", { class: "who", text: one.name }),
        h("span", { class: "turn-state", text: turnWords(one, one.state === "now" && isMine(one, view, cards)) }),
      )))
      : null,
  );
}

// telling a member it is their turn ----------------------------------------------------------

export class TurnTeller {
  // Tells a player when the turn becomes one they play: the browser's notification, where
  // they asked for it with the toggle (permission is asked from that click, never on load)
  // and the page is out of sight; the bar's notice says it on the page itself. Whether they
  // asked is kept in this browser, per room and member.
  constructor(room, member, redraw) {
    this.key = `tabletop:tell-my-turn:${room}:${member}`;
    this.redraw = redraw;
    this.was = null;
  }

  get wanted() {
    return localStorage.getItem(this.key) === "yes" && "Notification" in window && Notification.permission === "granted";
  }

  toggle() {
    // The control beside the turn, where the browser can notify at all.
    if (!("Notification" in window)) return null;
    const on = this.wanted;
    const blocked = Notification.permission === "denied";
    return h("button", {
      type: "button",
      class: "quiet tell-me",
      "aria-pressed": on ? "true" : "false",
      disabled: blocked && !on,
      title: blocked ? "this browser blocks this room's notifications; allow them in its site settings" : null,
      onclick: () => this.press(),
      text: on ? "Telling you when it is your turn" : "Tell me when it is my turn",
    });
  }

  async press() {
    if (this.wanted) {
      localStorage.setItem(this.key, "no");
    } else {
      const answer = await Notification.requestPermission();
      localStorage.setItem(this.key, answer === "granted" ? "yes" : "no");
    }
    this.redraw();
  }

  heard(turn, view, cards) {
    // The turn as drawn now: notify once when it has just become this member's.
    const mine = turn ? turn.order.filter((one) => one.state === "now" && isMine(one, view, cards)) : [];
    const now = mine.length ? `${turn.title}|${mine.map((one) => one.id).join()}` : null;
    const fresh = now !== null && now !== this.was;
    this.was = now;
    if (fresh && this.wanted && document.visibilityState !== "visible") {
      new Notification("Your turn", { body: `${mine.map((one) => one.name).join(", ")}: ${turn.title}`, tag: this.key });
    }
  }
}
