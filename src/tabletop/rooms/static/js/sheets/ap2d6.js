// A 2d6 character laid out like the rules' sheet: Health (18 + 6 × CON) and To-Hit at the
// top with the AP tracker, then the score table, [special] scores, skills and skill
// points, statuses and injuries, what is carried in encs, and notes.

import { h } from "../dom.js";
import { actions, block, line, meter, notesBlock, plainItems, sheetTree, tags } from "./parts.js";

export function ap2d6Sheet(ctx) {
  const sheet = ctx.sheet;
  const derived = ctx.character.derived || {};
  return [
    block("Health and To-Hit",
      line("Health", meter(sheet.hp, derived.max_hp ?? sheet.hp, "health of maximum health")),
      line("To-Hit", String(derived.to_hit ?? 6)),
      line("Recovery dice", `${sheet.recovery_dice} of ${derived.max_recovery_dice ?? sheet.recovery_dice}`),
      line("Move", `${derived.move ?? sheet.speed} spaces`),
      line("State", lifeOf(sheet)),
      line("AP per round", String(sheet.tracker?.ap_per_round ?? 3))),
    scores(ctx, "Scores", "scores", sheet.scores || {}),
    Object.keys(sheet.special || {}).length ? scores(ctx, "[special] scores", "special", sheet.special) : null,
    block("Skills",
      line("Skill points", String(sheet.unspent_sp), actions(ctx, "unspent_sp")),
      plainItems(Object.entries(sheet.skills || {}), ([skill, cost]) => h("li", { class: "item" }, h("span", { class: "item-name", text: skill }), h("span", { class: "item-detail", text: `${cost} SP` }))),
      actions(ctx, "skills")),
    block("Statuses and injuries",
      line("Statuses", tags(statusNames(sheet))),
      line("Scars", String(sheet.injuries?.scars ?? 0)),
      sheet.injuries?.lame ? line("Lame", "yes") : null,
      sheet.injuries?.lost_limbs?.length ? line("Lost limbs", tags(sheet.injuries.lost_limbs)) : null),
    sheet.dying ? block("Down: death checks", sheetTree(sheet.dying)) : null,
    carried(ctx, sheet, derived),
    notesBlock(ctx, sheet.notes),
  ];
}

function lifeOf(sheet) {
  // Up, down or dead: the sheet's own word, or what a player may know of an NPC's.
  return typeof sheet.life === "string" ? sheet.life : sheet.public_life;
}

function statusNames(sheet) {
  return Object.entries(sheet.statuses || {}).map(([name, s]) => (s.state?.stacks > 1 ? `${name} ×${s.state.stacks}` : name));
}

function scores(ctx, title, table, values) {
  return block(title,
    h("p", { class: "legend hint", text: "2d6 + score against the DC" }),
    Object.entries(values).map(([score, value]) => h("div", { class: "attribute", "data-attribute": score },
      h("span", { class: "attr-name", text: score }),
      h("span", { class: "score", "aria-label": `${score} ${value}`, text: String(value) }),
      actions(ctx, `${table}.${score}`, score))));
}

function carried(ctx, sheet, derived) {
  const load = sheet.carried || { personal: [], in_bag: [], bag: null };
  const spaces = derived.spaces || [];
  const item = (space) => (it, i) => h("li", { class: "item" },
    h("span", { class: "item-name", text: it.count > 1 ? `${it.count} × ${it.name || it.kind}` : it.name || it.kind }),
    h("span", { class: "item-detail", text: it.kind === "other" ? `${it.encs} encs each` : it.kind }),
    actions(ctx, `carried.${space}.${i}`, it.name || it.kind));
  const encs = (name) => spaces.find((s) => s.name === name);
  const shown = (space) => (space ? meter(space.encs, space.maximum, `encs of the maximum${space.threshold !== null ? `, [encumbered] past ${space.threshold}` : ""}`) : null);
  return block("Encumbrance",
    spaces.filter((s) => s.problem).map((s) => h("p", { class: "error", text: s.problem })),
    h("div", { class: "place" },
      h("h5", {}, "Personal ", shown(encs("personal"))),
      plainItems(load.personal, item("personal")) || h("p", { class: "quiet", text: "nothing" })),
    h("div", { class: "place" },
      h("h5", {}, load.bag ? `${load.bag.name} ` : "No bag", load.bag ? shown(encs(load.bag.name)) : null),
      actions(ctx, "carried.bag", load.bag ? load.bag.name : "bag"),
      load.bag ? plainItems(load.in_bag, item("in_bag")) || h("p", { class: "quiet", text: "empty" }) : null),
    sheet.statuses?.encumbered ? h("span", { class: "badge bad", text: "[encumbered]" }) : null,
    actions(ctx, "carried"));
}

export function ap2d6Line(character) {
  // A folded card's line: Health of its most, and what ails them (statuses, down, dying).
  const sheet = character.sheet;
  const derived = character.derived || {};
  const life = lifeOf(sheet);
  return {
    health: `Health ${sheet.hp ?? "?"} of ${derived.max_hp ?? sheet.hp ?? "?"}`,
    conditions: [life && life !== "up" ? life : null, sheet.dying ? "making death checks" : null, ...statusNames(sheet)],
  };
}
