// The roll log: each entry one line of what happened, with every die drawn (kept, dropped,
// re-rolled, exploded) and a mark on anything not everyone saw.

import { h } from "./dom.js";
import { witnessWords } from "./witness.js";

const MARKED = /(\*\*[^*\n]+\*\*|~~[^~\n]+~~)/;

export function marked(text) {
  // A line as the rules write it, `**kept**` in bold and `~~dropped~~` struck, each part
  // put in the page as text (never as HTML).
  return String(text).split(MARKED).filter(Boolean).map((part) => {
    if (part.length > 4 && part.startsWith("**") && part.endsWith("**")) return h("strong", { text: part.slice(2, -2) });
    if (part.length > 4 && part.startsWith("~~") && part.endsWith("~~")) return h("s", { text: part.slice(2, -2) });
    return part;
  });
}

export function unmarked(text) {
  // A line as plain text, where no mark can show (a question the browser asks).
  return String(text).replace(/\*\*([^*\n]+)\*\*/g, "$1").replace(/~~([^~\n]+)~~/g, "$1 (dropped)");
}

function rollMode(event) {
  // The roll mode of a roll entry: from its data, or from how a hint reached this page
  // (a blind roll's hint is hidden; a GM roll's names the roller). None for other entries.
  if (event.data && typeof event.data.mode === "string") return event.data.mode;
  if (event.type !== "roll" || !event.hint) return event.type === "roll" ? "public" : null;
  return event.visibility === "hidden" ? "blind" : "gm";
}

export const MODES = { gm: "GM roll", blind: "blind roll", self: "self roll" };
// A roll's mode as its badge names it (a public roll's says only who sees it).

export function readers(event, names, me, hint = false) {
  // Who can read this line as it stands, from this member's side: a hint (what the others
  // are told of a secret) is everyone's to read, though the whole line is not.
  if (event.visibility === "public" || hint) return "everyone";
  const who = [...(event.visibility === "actor" && event.actor ? [event.actor] : []), ...(event.audience || [])];
  const named = [...new Set(who)].map((id) => (id === me ? "you" : names(id)));
  return named.length ? `${named.join(", ")} and the GM` : "GM only";
}

export function diceIn(data, found = []) {
  // Every die object (`sides` and `faces`) anywhere in an event's data, in order.
  if (Array.isArray(data)) {
    for (const item of data) diceIn(item, found);
  } else if (data && typeof data === "object") {
    if (typeof data.sides === "number" && Array.isArray(data.faces)) found.push(data);
    else for (const value of Object.values(data)) diceIn(value, found);
  }
  return found;
}

export function dieChip(die) {
  const faces = die.faces;
  const last = faces[faces.length - 1];
  const marks = [];
  if (die.kept === false) marks.push("dropped");
  if (die.rerolled && die.rerolled.length) marks.push(`re-rolled from ${die.rerolled.join(", ")}`);
  if (die.exploded) marks.push(`exploded: ${faces.join(" + ")}`);
  if (die.success === true) marks.push("a success");
  const name = `d${die.sides} showing ${die.exploded ? die.value : last}` +
    (marks.length ? `, ${marks.join(", ")}` : "");
  const classes = ["die"];
  if (die.kept === false) classes.push("dropped");
  if (die.exploded) classes.push("exploded");
  if (die.rerolled && die.rerolled.length) classes.push("rerolled");
  return h(
    "span",
    { class: classes.join(" "), role: "img", "aria-label": name, title: name },
    die.rerolled && die.rerolled.length ? h("s", { class: "was", text: die.rerolled.join(" ") }) : null,
    h("span", { class: "face", text: die.exploded ? faces.join("+") : String(last) }),
    h("span", { class: "sides", text: `d${die.sides}` }),
  );
}

export function facesChips(faces, label) {
  // Plain faces a system reports as numbers (a Dead Weight pool: `rolled [1, 4, 6]`).
  return h(
    "span",
    { class: "dice", role: "group", "aria-label": label },
    faces.map((face) => h("span", { class: "die", text: String(face) })),
  );
}

export function entryItem(entry, names, me = null, extra = null) {
  // `me`: whose side the badges tell who saw it from; `extra(entry)`: what else the line
  // carries (verify.js's "check this roll").
  const event = entry.event;
  const chat = event.type === "room.chat";
  const isRoom = event.type.startsWith("room.");
  const follows = !isRoom && !event.cause && event.actor;
  const hint = event.hint && event.text === event.hint && event.visibility !== "public";
  const classes = ["entry", chat ? "chat" : isRoom ? "room" : "rules"];
  if (follows) classes.push("follows");
  if (event.visibility !== "public") classes.push("secret");
  const who = event.actor ? names(event.actor) : "";
  const dice = diceIn(event.data);
  const badges = [];
  const mode = rollMode(event);
  if (chat && event.data && event.data.to && event.data.to.length) {
    badges.push(h("span", { class: "badge whisper", text: `whisper to ${event.data.to.map(names).join(", ")}` }));
  } else if (mode) {
    const seen = readers(event, names, me, hint);
    badges.push(h("span", { class: "badge seen", text: MODES[mode] ? `${MODES[mode]} · ${seen}` : seen }));
  } else if (event.visibility !== "public") {
    badges.push(h("span", { class: "badge seen", text: readers(event, names, me, hint) }));
  }
  const plainFaces = !dice.length && event.data && Array.isArray(event.data.faces) ? event.data.faces : null;
  const witnessed = witnessWords(entry, names, me);
  const time = new Date(entry.time);
  return h(
    "li",
    { class: classes.join(" "), "data-seq": entry.seq, "data-type": event.type },
    h("time", { datetime: time.toISOString(), text: time.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) }),
    who && !chat && !follows ? h("span", { class: "who", text: who }) : null,
    h("span", { class: "text" }, marked(event.text || event.type)),
    badges,
    dice.length ? h("span", { class: "dice", role: "group", "aria-label": "dice" }, dice.map(dieChip)) : null,
    plainFaces ? facesChips(plainFaces, "dice") : null,
    total(event.data),
    witnessed ? h("span", { class: `witnesses${entry.witnessed.reveals && Object.keys(entry.witnessed.reveals).length ? "" : " unwitnessed"}`, text: witnessed }) : null,
    extra ? extra(entry) : null,
  );
}

function total(data) {
  if (!data || typeof data.total !== "number") return null;
  return h("strong", { class: "total", text: `= ${data.total}` });
}
