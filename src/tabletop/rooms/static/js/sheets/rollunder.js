// A roll-under character laid out like the chapter's sheet: the ability scores to roll
// under, health and omens, corruption and what it left, what is worn, held and stored
// against the carry limit, sacred spells, coins and notes.

import { h } from "../dom.js";
import { actions, block, line, meter, notesBlock, plainItems, tags } from "./parts.js";


export function rollunderSheet(ctx) {
  const sheet = ctx.sheet;
  const derived = ctx.character.derived || {};
  return [
    abilities(ctx, sheet),
    block("Health and omens",
      line("Health", `${sheet.health} of ${sheet.max_health}`),
      line("Omens", `${sheet.omens} of ${sheet.max_omens}`),
      line("State", state(sheet)),
      sheet.leader ? line("Follows", sheet.leader) : null),
    block("Corruption",
      line("Corruption", String(sheet.corruption)),
      line("Mutations", tags(sheet.mutations)),
      sheet.mutations_to_choose ? line("Mutations to choose", `${sheet.mutations_to_choose} (the GM names them)`) : null,
      line("Injuries", tags((sheet.injuries || []).map((i) => `${i.trait}${i.ability ? ` (−${i.lost} ${i.ability})` : ""}${i.permanent ? ", permanent" : ""}`)))),
    load(ctx, sheet, derived),
    block("Sacred spells",
      plainItems(sheet.spells || [], (spell, i) => h("li", { class: "item" }, h("span", { class: "item-name", text: spell }), actions(ctx, `spells.${i}`, spell))) || h("p", { class: "quiet", text: "none written down" }),
      actions(ctx, "spells")),
    block("Coins", line("Coins", String(sheet.money)), actions(ctx, "money")),
    notesBlock(ctx, sheet.notes),
  ];
}

function state(sheet) {
  if (sheet.death) return `dead (${sheet.death})`;
  if (sheet.health === 0 || Object.values(sheet.abilities || {}).includes(0)) return "at death's door";
  if (sheet.incapacitated) return "incapacitated";
  return "able";
}

function abilities(ctx, sheet) {
  return block("Abilities",
    h("p", { class: "legend hint", text: "roll a d20 at or under the score" }),
    Object.entries(sheet.abilities || {}).map(([name, score]) =>
      h("div", { class: "attribute", "data-attribute": name },
        h("span", { class: "attr-name", text: name }),
        h("span", { class: "score", "aria-label": `score ${score}`, text: String(score) }),
        actions(ctx, `abilities.${name}`, name))));
}

function load(ctx, sheet, derived) {
  const carried = sheet.load;
  if (!carried) return block("Carrying", h("p", { class: "quiet", text: "no carry limit yet" }));
  const place = (where, title) => h("div", { class: "place" },
    h("h5", { text: title }),
    plainItems(carried[where], (item, i) => h("li", { class: "item" },
      h("span", { class: "item-name", text: item.name }),
      h("span", { class: "item-detail", text: `bulk ${item.bulk}${item.kind !== "item" ? ` · ${item.kind}` : ""}` }),
      actions(ctx, `load.${where}.${i}`, item.name))) || h("p", { class: "quiet", text: "nothing" }));
  return block("Carrying",
    line("Bulk", meter(derived.bulk ?? 0, carried.carry_limit, "bulk carried of the carry limit"), derived.encumbered ? h("span", { class: "badge bad", text: "encumbered" }) : null),
    place("worn", "Worn"), place("held", "Held"), place("stored", "Stored"),
    actions(ctx, "load"));
}

export function rollunderLine(character) {
  // A folded card's line: health and omens, and what ails them (dying, incapacitated,
  // injuries).
  const sheet = character.sheet;
  const shown = state(sheet);
  return {
    health: `Health ${sheet.health} of ${sheet.max_health} · omens ${sheet.omens} of ${sheet.max_omens}`,
    conditions: [shown === "able" ? null : shown, ...(sheet.injuries || []).map((i) => i.trait)],
  };
}
