// The pieces every system's sheet is laid out from: blocks with a heading, lines of a name
// and a value, and beside each entry the actions the session placed there. An offer names
// its entry (`offer.entry`, a path into the sheet) and what the entry fixes
// (`offer.preset`); nothing here knows a rule: a closed offer is a button per intent, an
// open one a form from js/forms.js.

import { h } from "../dom.js";
import { describeIntent, humanize } from "../forms.js";

export function block(title, ...content) {
  // One part of the sheet, as the book's sheet has it: Attributes, Trappings, Notes…
  const shown = content.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false && c !== "");
  return h("section", { class: "sheet-block" }, h("h4", { text: title }), shown);
}

export function line(label, value, acts = null) {
  // A name, its value, and the entry's actions.
  return h("div", { class: "sheet-line" }, h("span", { class: "k", text: label }), h("span", { class: "v" }, value ?? "—"), acts);
}

export function tags(words, empty = "none") {
  // A list as the book writes it on the sheet: names after each other, with commas.
  const listed = (words || []).filter(Boolean);
  if (!listed.length) return h("span", { class: "quiet", text: empty });
  return h("span", { class: "listed", text: listed.join(", ") });
}

export function actions(ctx, entry, what = "", initial = {}) {
  // The session's offers at this entry of this character's sheet.
  const found = ctx.offers.filter((o) => o.entry === entry);
  if (!found.length || ctx.readOnly) return null;
  return h("div", { class: "entry-actions" }, found.map((o) => act(ctx, o, what, initial)));
}

function act(ctx, offer, what, initial) {
  const named = what ? `${offer.text}: ${what}` : offer.text;
  if (offer.intents.length) {
    const slot = h("p", { class: "error", role: "alert" });
    const buttons = offer.intents.map((intent) =>
      h("button", {
        type: "button",
        class: "act",
        "aria-label": offer.intents.length > 1 ? `${named} (${describeIntent(intent, ctx.labelOf)})` : named,
        onclick: (clicked) => ctx.send(intent, slot, clicked.currentTarget),
        text: offer.intents.length > 1 ? `${offer.text} · ${describeIntent(intent, ctx.labelOf)}` : offer.text,
      }));
    return h("div", { class: "entry-act", "data-kind": offer.kind }, buttons, slot);
  }
  const key = `${ctx.id}:${offer.entry}:${offer.kind}:${offer.text}`;
  const start = { ...numbers(offer), ...initial };
  return h(
    "details",
    { class: "entry-form", "data-key": key },
    h("summary", { text: offer.text, "aria-label": named }),
    ctx.forms.form(offer, ctx.send, {}, { initial: start, label: offer.text }),
  );
}

function numbers(offer) {
  // An entry's form starts from the numbers the session gives as examples (a check's DC,
  // a skill's rating as it stands), so the usual case is one press.
  const found = {};
  for (const [name, choice] of Object.entries(offer.fields)) if (typeof choice.example === "number") found[name] = choice.example;
  return found;
}

export function track(score, fatigue, wounds, label) {
  // The book's marks on an attribute: an X a wound, a stroke a fatigue point, an empty box
  // an available die.
  const boxes = [];
  for (let i = 0; i < score; i += 1) {
    const kind = i < wounds ? "wound" : i < wounds + fatigue ? "fatigue" : "free";
    boxes.push(h("span", { class: `mark-box ${kind}`, "aria-hidden": "true", text: { wound: "X", fatigue: "/", free: "" }[kind] }));
  }
  return h("span", { class: "track", role: "img", "aria-label": label }, boxes);
}

export function meter(used, most, label) {
  return h("span", { class: used > most ? "load over" : "load", text: `${used} / ${most}`, title: label });
}

export function notesBlock(ctx, notes, title = "Notes") {
  return block(
    title,
    notes ? h("p", { class: "notes", text: notes }) : h("p", { class: "quiet", text: "nothing written yet" }),
    actions(ctx, "notes", "", { notes }),
  );
}

export function plainItems(items, render) {
  if (!items.length) return null;
  return h("ul", { class: "sheet-items" }, items.map(render));
}

export function sheetTree(value, depth = 0) {
  // Any record as names and values (a creation decision, a death record, a system with no
  // sheet of its own); a value the member may not see shows as hidden.
  if (value === null || value === undefined || value === "") return null;
  if (Array.isArray(value)) {
    if (!value.length) return null;
    if (value.every((v) => typeof v !== "object" || v === null)) return value.join(", ");
    return h("ol", { class: "tree" }, value.map((v) => h("li", {}, sheetTree(v, depth + 1))));
  }
  if (typeof value === "object") {
    if ("hidden" in value && Object.keys(value).length === 1) return h("em", { class: "hidden-value", text: `hidden: ${value.hidden}` });
    const rows = Object.entries(value)
      .map(([k, v]) => [k, sheetTree(v, depth + 1)])
      .filter(([, shown]) => shown !== null && shown !== "");
    if (!rows.length) return null;
    return h("dl", { class: "tree" }, rows.map(([k, shown]) => [h("dt", { text: humanize(k) }), h("dd", {}, shown)]));
  }
  if (typeof value === "boolean") return value ? "yes" : null;
  return String(value);
}
