// A Dead Weight adventurer laid out like the book's sheet: who they are and their life
// path, the four attributes (score in the square, proficiency in the circle, a stroke per
// fatigue and an X per wound), condition, skills and traits, the Trappings place by place,
// spells and prayers, coins and notes.

import { h } from "../dom.js";
import { actions, block, line, meter, notesBlock, plainItems, tags, track } from "./parts.js";

const ATTRIBUTES = [["STR", "Strength"], ["DEX", "Dexterity"], ["INT", "Intelligence"], ["PRE", "Presence"]];

export function deadWeightSheet(ctx) {
  const sheet = ctx.sheet;
  const derived = ctx.character.derived || {};
  return [
    (derived.warnings || []).length ? h("ul", { class: "warnings" }, derived.warnings.map((w) => h("li", { text: w }))) : null,
    who(sheet),
    attributes(ctx, sheet, derived),
    condition(sheet),
    block("Skills and traits",
      line("Skills", tags(sheet.skills)),
      line("Traits", tags(sheet.traits)),
      line("Quirks", tags((sheet.quirks || []).map((q) => q.name))),
      sheet.maneuvers?.length ? line("Maneuvers", tags(sheet.maneuvers)) : null),
    trappings(ctx, sheet, derived),
    magic(ctx, sheet),
    block("Coins",
      line("Silver", String(sheet.silver)),
      line("Gold", String(sheet.gold)),
      actions(ctx, "coins")),
    notesBlock(ctx, sheet.notes, "Notes"),
    leftOut(ctx.character.left_out || []),
  ];
}

function leftOut(reasons) {
  // What guided creation left out and why (a background the GM's list lacks brings no gear
  // or silver), for the GM to write in on the sheet.
  if (!reasons.length) return null;
  return block("Left out at creation", h("ul", { class: "plain" }, reasons.map((why) => h("li", { text: why }))));
}

function who(sheet) {
  const path = sheet.life_path || {};
  return block("Adventurer",
    line("Class", sheet.character_class || "none"),
    sheet.background ? line("Background", sheet.background) : null,
    sheet.school ? line("School", sheet.school) : null,
    sheet.god ? line("God", sheet.god) : null,
    sheet.cleric_kit ? line("Kit", sheet.cleric_kit) : null,
    line("Insight", String(sheet.insight)),
    ["infancy", "career", "tragedy", "burden"].filter((k) => path[k]).map((k) => line(k[0].toUpperCase() + k.slice(1), path[k])));
}

function attributes(ctx, sheet, derived) {
  const available = derived.available || {};
  const rows = ATTRIBUTES.map(([key, name]) => {
    const a = (sheet.attributes || {})[key] || { score: 0, proficiency: 0, fatigue: 0, wounds: 0 };
    const dice = available[key] ?? 0;
    const marks = `${a.wounds} wound${a.wounds === 1 ? "" : "s"}, ${a.fatigue} fatigue, ${dice} of ${a.score} dice available`;
    return h("div", { class: "attribute", "data-attribute": key },
      h("span", { class: "attr-name" }, h("abbr", { title: name, text: key })),
      h("span", { class: "score", title: "score", "aria-label": `score ${a.score}`, text: String(a.score) }),
      h("span", { class: "proficiency", title: "proficiency", "aria-label": `proficiency ${a.proficiency}`, text: String(a.proficiency) }),
      track(a.score, a.fatigue, a.wounds, marks),
      h("span", { class: "dice-left", text: `${dice} ${dice === 1 ? "die" : "dice"}` }),
      actions(ctx, `attributes.${key}`, name));
  });
  return block("Attributes", h("p", { class: "legend hint", text: "square: score · circle: proficiency · / fatigue · X wound" }), rows);
}

function condition(sheet) {
  const c = sheet.condition || {};
  const tokens = sheet.tokens || {};
  return block("Condition",
    line("State", conditionOf(c)),
    c.blind_turns ? line("Blind", `${c.blind_turns} exploration turns`) : null,
    line("Afflictions", tags(sheet.afflictions)),
    line("Traumas", tags(sheet.traumas)),
    tokens.stun || tokens.shield || tokens.dodge ? line("Tokens", `stun ${tokens.stun} · shield ${tokens.shield} · dodge ${tokens.dodge}`) : null,
    (sheet.pending || []).map((p) => line("To choose", `${p.kind}: ${p.options.join(", ")}`)));
}

function conditionOf(c) {
  return c.dead ? "dead" : c.verge_of_death ? "on the verge of death" : c.mortally_wounded ? "mortally wounded" : c.fainted ? `fainted (${c.faint_turns} turns to wait)` : "able";
}

function itemText(item) {
  const bits = [];
  if (item.slots !== 1) bits.push(`${item.slots} slot${item.slots === 1 ? "" : "s"}`);
  if (item.usage) bits.push(`Ud${item.usage}`);
  if (item.weapon) bits.push(item.weapon);
  if (item.armour?.length) bits.push(`${item.armour.map((p) => `${p.points}/${p.maximum}`).join(", ")} AP`);
  if (item.awkward?.length) bits.push(item.awkward.join(", "));
  if (item.tags?.length) bits.push(item.tags.join(", "));
  if (item.note) bits.push(item.note);
  return bits.join(" · ");
}

function itemLine(ctx, item, entry) {
  return h("li", { class: "item", "data-entry": entry },
    h("span", { class: "item-name", text: item.name }),
    itemText(item) ? h("span", { class: "item-detail", text: itemText(item) }) : null,
    actions(ctx, entry, item.name));
}

function trappings(ctx, sheet, derived) {
  const inventory = sheet.inventory || { places: [], loose: [], overflow: [] };
  const places = derived.places || [];
  return block("Trappings",
    line("Carried", meter(derived.slots ?? 0, derived.capacity ?? 0, "slots carried of the carrying limit"), derived.encumbered ? h("span", { class: "badge bad", text: "encumbered" }) : null),
    inventory.places.map((place, i) => {
      const info = places[i] || { label: place.kind, used: 0, capacity: 0 };
      return h("div", { class: "place", "data-entry": `inventory.places.${i}` },
        h("h5", {}, h("span", { text: info.label }), " ", h("span", { class: "slots", text: `${info.used}/${info.capacity}` })),
        actions(ctx, `inventory.places.${i}`, info.label),
        plainItems(place.items, (item, j) => itemLine(ctx, item, `inventory.places.${i}.items.${j}`)) || h("p", { class: "quiet", text: "empty" }));
    }),
    inventory.loose.length ? h("div", { class: "place" }, h("h5", { text: "Taking no slot" }), plainItems(inventory.loose, (item, j) => itemLine(ctx, item, `inventory.loose.${j}`))) : null,
    inventory.overflow.length ? h("div", { class: "place over" }, h("h5", { text: "No room (encumbering)" }), plainItems(inventory.overflow, (item, j) => itemLine(ctx, item, `inventory.overflow.${j}`))) : null,
    actions(ctx, "inventory"));
}

function magic(ctx, sheet) {
  const m = sheet.magic || {};
  const spells = m.spells_known || [];
  const prayers = m.prayers_known || [];
  if (!spells.length && !prayers.length && !(sheet.traits || []).some((t) => t === "magic user" || t === "divine mandate")) return null;
  const spellState = (s) => (m.spells_memorised || []).includes(s) ? "memorised" : (m.spells_forgotten || []).includes(s) ? "forgotten" : "known";
  const prayerState = (p) => (m.prayers_exhausted || []).includes(p) ? "exhausted" : (m.prayers_memorised || []).includes(p) ? "memorised" : "known";
  return block("Spells and prayers",
    plainItems(spells, (s, i) => h("li", { class: "item" }, h("span", { class: "item-name", text: s }), h("span", { class: `badge ${spellState(s)}`, text: spellState(s) }), actions(ctx, `magic.spells_known.${i}`, s))),
    plainItems(prayers, (p, i) => h("li", { class: "item" }, h("span", { class: "item-name", text: p }), h("span", { class: `badge ${prayerState(p)}`, text: prayerState(p) }), actions(ctx, `magic.prayers_known.${i}`, p))),
    m.arcane_well ? line("Arcane well", "the next spell needs no test") : null,
    m.mishaps ? line("Mishaps", String(m.mishaps)) : null,
    m.god_angry ? line("God", "angry: no prayer until a sacrifice") : null,
    prayers.length ? line("Desperate plea", m.desperate_plea_used ? "spent this expedition" : "not spent") : null);
}

export function deadWeightLine(character) {
  // A folded card's line: wounds and fatigue on the four attributes, and what ails them
  // (their condition, afflictions, traumas).
  const sheet = character.sheet;
  const marks = Object.values(sheet.attributes || {});
  const wounds = marks.reduce((n, a) => n + (a.wounds || 0), 0);
  const fatigue = marks.reduce((n, a) => n + (a.fatigue || 0), 0);
  const state = conditionOf(sheet.condition || {});
  return {
    health: `${wounds} wound${wounds === 1 ? "" : "s"} · ${fatigue} fatigue`,
    conditions: [state === "able" ? null : state, ...(sheet.afflictions || []), ...(sheet.traumas || [])],
  };
}
