// Character sheets: the few numbers a table looks at most, per system, then the whole
// sheet as the rules keep it (any system's, shown as a tree).

import { h } from "./dom.js";
import { humanize } from "./forms.js";

export function sheetTree(value, depth = 0) {
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

function stats(pairs) {
  return h("dl", { class: "stats" }, pairs.filter(([, v]) => v !== null && v !== undefined && v !== "").map(([k, v]) => h("div", {}, h("dt", { text: k }), h("dd", {}, typeof v === "object" && !(v instanceof Node) ? sheetTree(v) : String(v)))));
}

function table(caption, columns, rows) {
  return h(
    "table",
    { class: "grid" },
    h("caption", { text: caption }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: caption.toLowerCase().replace(/s$/, "") }), columns.map((c) => h("th", { scope: "col", text: c })))),
    h("tbody", {}, rows.map(([name, cells]) => h("tr", {}, h("th", { scope: "row", text: name }), cells.map((c) => h("td", { text: String(c) }))))),
  );
}

function flags(object) {
  return Object.entries(object || {}).filter(([, v]) => v === true).map(([k]) => humanize(k).toLowerCase()).join(", ");
}

function counted(names) {
  const counts = new Map();
  for (const name of names) counts.set(name, (counts.get(name) || 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(", ");
}

const HEADLINES = {
  "dead-weight": (sheet) => {
    const attrs = Object.entries(sheet.attributes || {});
    const items = (sheet.inventory?.places || []).flatMap((p) => p.items).filter((i) => i.usage);
    return [
      table("Attributes", ["score", "prof.", "fatigue", "wounds"], attrs.map(([name, a]) => [name, [a.score, a.proficiency, a.fatigue, a.wounds]])),
      stats([
        ["Class", sheet.character_class],
        ["Insight", sheet.insight],
        ["Condition", flags(sheet.condition)],
        ["Quirks", (sheet.quirks || []).map((q) => q.name).join(", ")],
        ["Usage dice", counted(items.map((i) => `${i.name} d${i.usage}`))],
      ]),
    ];
  },
  ap2d6: (sheet) => [
    stats([
      ["HP", sheet.hp],
      ["Life", sheet.public_life || sheet.life],
      ["AP per round", sheet.tracker?.ap_per_round],
      ["Scores", Object.entries(sheet.scores || {}).map(([k, v]) => `${k} ${v}`).join(", ")],
      ["Statuses", Object.keys(sheet.statuses || {}).join(", ")],
      ["Dying", sheet.dying],
    ]),
  ],
  constitution: (sheet) => [
    stats([
      ["Class", sheet.character_class || "none"],
      ["Level", sheet.level],
      ["XP", sheet.xp],
      ["HP", sheet.hp],
      ["Fatigue", sheet.fatigue],
      ["Abilities", Object.entries(sheet.abilities || {}).map(([k, v]) => `${k} ${v}`).join(", ")],
      ["Wounds", (sheet.wounds || []).length || null],
      ["State", sheet.dead ? "dead" : sheet.standing ? "standing" : "down"],
    ]),
  ],
  rollunder: (sheet) => [
    stats([
      ["Health", `${sheet.health} of ${sheet.max_health}`],
      ["Omens", `${sheet.omens} of ${sheet.max_omens}`],
      ["Abilities", Object.entries(sheet.abilities || {}).map(([k, v]) => `${k} ${v}`).join(", ")],
      ["Corruption", sheet.corruption || null],
      ["Injuries", (sheet.injuries || []).map((i) => i.trait).join(", ")],
      ["Mutations", (sheet.mutations || []).join(", ")],
      ["Mutations to choose", sheet.mutations_to_choose ? `${sheet.mutations_to_choose} (the GM names them)` : null],
      ["State", sheet.death ? `dead (${sheet.death})` : sheet.health === 0 || Object.values(sheet.abilities || {}).includes(0) ? "at death's door" : sheet.incapacitated ? "incapacitated" : null],
    ]),
  ],
};

export function headline(system, sheet) {
  const pick = HEADLINES[system];
  if (pick) return pick(sheet);
  const scalars = Object.entries(sheet).filter(([, v]) => typeof v !== "object" || v === null);
  return [stats(scalars.map(([k, v]) => [humanize(k), v]))];
}
