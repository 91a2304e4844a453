// A card for each character and NPC at the table: a line that always shows (the name, who
// plays them, whose turn, health and what ails them) over a body that folds away (the
// sheet, and the actions of a character that is not the member's own). A sheet pops out
// into a window of its own: the same room page, as the same member, showing that card
// alone. Which cards a member opened or folded is kept in the browser, per room and member.

import { h } from "./dom.js";
import { turnWords } from "./turns.js";

export const WIDE = "(min-width: 900px)";
// Where the page has room for a sheet beside the log (app.css lays out columns from here).

export class Folds {
  // The cards this member opened or folded by hand, by card id; a card never touched
  // follows its default (`opens`). Kept in localStorage, per room and member, so a reload
  // or the next evening finds the table as it was left.
  constructor(room, member, keep = true) {
    this.key = `tabletop:folds:${room}:${member}`;
    this.keep = keep;
    this.chosen = {};
    if (keep) {
      try {
        this.chosen = JSON.parse(localStorage.getItem(this.key) || "{}") || {};
      } catch {
        this.chosen = {};
      }
    }
  }

  isOpen(id, fallback) {
    return typeof this.chosen[id] === "boolean" ? this.chosen[id] : fallback;
  }

  set(id, open) {
    this.chosen[id] = open;
    if (this.keep) localStorage.setItem(this.key, JSON.stringify(this.chosen));
  }
}

export function opens({ mine, now, gm, observer }) {
  // A card nobody opened or folded by hand: the member's own open where a sheet fits
  // beside the log (on a phone their line comes first and what is asked of them right
  // under it), and the card whose turn it is open for whoever acts for it or watches.
  if (mine) return matchMedia(WIDE).matches;
  return Boolean(now && (gm || observer));
}

function turnBadge(entry, mine) {
  if (!entry) return null;
  const text = turnWords(entry, mine);
  if (!text) return null;
  return h("span", { class: `badge turn turn-${entry.state}`, text });
}

export function card({ id, name, by, line, turn, mine, open, onToggle, popUrl, tools = [], now = [], body, marks = [], kind = "character" }) {
  // One card. `line`: {health, conditions, hidden}; `turn`: its entry in the turn order
  // (js/turns.js) or null; `mine`: whether it is this member's turn when it is the card's;
  // `tools`: controls on the line itself, `now`: what shows under it, folded or not;
  // `body`: what folds away (a card without one has nothing to open or pop out); `popUrl`:
  // the address of the card alone (none in the popped-out window itself).
  const titleId = `card-${id}`;
  const bodyId = `card-body-${id}`;
  const conditions = line.conditions.length ? line.conditions.join(", ") : "";
  const folds = Boolean(body);
  const what = `${name}'s ${kind === "npc" ? "card" : "sheet"}`;
  const toggle = onToggle && folds
    ? h("button", {
      type: "button",
      class: "quiet fold",
      "aria-expanded": open ? "true" : "false",
      "aria-controls": bodyId,
      "aria-label": `${open ? "Fold" : "Open"} ${what}`,
      onclick: onToggle,
      text: open ? "Fold" : "Open",
    })
    : null;
  const pop = popUrl && folds
    ? h("a", { class: "pop", href: popUrl, target: "_blank", rel: "noopener", "aria-label": `Pop out ${what} into a new window`, text: "Pop out" })
    : null;
  return h(
    "article",
    {
      class: ["card", kind === "npc" ? "npc" : "", folds ? (open ? "open" : "folded") : "", turn && turn.state === "now" ? "acting" : ""].filter(Boolean).join(" "),
      "aria-labelledby": titleId,
      "data-card": id,
      "data-key": `${kind}-${id}`,
    },
    h("header", { class: "card-line" },
      h("div", { class: "card-info" },
        h("h3", { id: titleId }, h("span", { class: "name", text: name }), marks),
        by ? h("span", { class: "by", text: by }) : null,
        turnBadge(turn, mine),
        line.health ? h("span", { class: "health", text: line.health }) : null,
        conditions ? h("span", { class: "conditions", text: conditions }) : null,
        line.hidden ? h("span", { class: "hidden-value", text: `hidden: ${line.hidden}` }) : null),
      tools.length || toggle || pop ? h("div", { class: "card-tools" }, tools, toggle, pop) : null),
    now.length ? h("div", { class: "card-now" }, now) : null,
    folds ? h("div", { id: bodyId, class: "card-body", hidden: !open }, body()) : null,
  );
}
