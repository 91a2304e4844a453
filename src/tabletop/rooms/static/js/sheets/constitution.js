// A 3d6 Constitution character laid out as the articles fill a sheet: class, level, XP and
// initiations; the five abilities; hit points, fatigue, penance and wounds (with the major
// wound marks of § 6.11); skills by rating; the spell book; what is carried and where, in
// stones (§ 14.1); rations, coins and notes.

import { h } from "../dom.js";
import { actions, block, line, meter, notesBlock, plainItems, tags } from "./parts.js";

const ABILITIES = ["strength", "wits", "knowledge", "will", "charisma"];
const LEVELS = { unencumbered: "unencumbered", encumbered: "encumbered", heavily_encumbered: "heavily encumbered", overloaded: "overloaded" };

export function constitutionSheet(ctx) {
  const sheet = ctx.sheet;
  const character = ctx.character;
  return [
    block("Character",
      line("Class", sheet.character_class || "none"),
      line("Level", String(sheet.level)),
      line("XP", String(sheet.xp)),
      line("Initiations", tags(sheet.initiations)),
      sheet.character_class === "adventurer" ? line("Re-rolls used", String(sheet.rerolls_used)) : null),
    block("Abilities",
      h("p", { class: "legend hint", text: "d20 + score against the DC" }),
      ABILITIES.map((ability) => h("div", { class: "attribute", "data-attribute": ability },
        h("span", { class: "attr-name", text: ability }),
        h("span", { class: "score", "aria-label": `${ability} ${sheet.abilities[ability]}`, text: String(sheet.abilities[ability]) }),
        actions(ctx, `abilities.${ability}`, ability)))),
    block("Health",
      line("HP", String(sheet.hp)),
      line("Fatigue", String(sheet.fatigue)),
      sheet.penance ? line("Penance", String(sheet.penance)) : null,
      line("Major wound marks", `${sheet.major_wound_marks} of ${sheet.level}`),
      line("State", sheet.dead ? "dead" : sheet.standing ? "standing" : "down"),
      plainItems(sheet.wounds || [], (w) => h("li", { class: "item" }, h("span", { class: "item-name", text: `${w.severity}: ${w.description}` }), h("span", { class: "item-detail", text: woundDetail(w) }))),
      character.penalty ? line("Deprivation", `${character.penalty} on every check`) : null),
    block("Skills",
      plainItems(Object.entries(sheet.skills || {}), ([skill, rating]) => h("li", { class: "item" },
        h("span", { class: "item-name", text: skill }), h("span", { class: "item-detail", text: `${rating}%` }),
        actions(ctx, `skills.${skill}`, skill))) || h("p", { class: "quiet", text: "none rated yet: a skill is rated when first used" }),
      actions(ctx, "skills")),
    spells(ctx, sheet),
    gear(ctx, sheet, character.carrying || {}),
    block("Rations and coins",
      line("Food", String(character.supplies?.food ?? 0)),
      line("Water", String(character.supplies?.water ?? 0)),
      line("Coins", `${sheet.coins} sp`),
      actions(ctx, "coins")),
    notesBlock(ctx, sheet.notes),
  ];
}

function woundDetail(w) {
  // A shallow cut's −2 to heavy tasks (§ 6.9); a major wound's penalty is the referee's words.
  return [w.penalty ? `${w.penalty} to ${w.applies_to}` : null, `until ${w.until}`].filter(Boolean).join(", ");
}

function spells(ctx, sheet) {
  const known = Object.entries(sheet.spells || {});
  if (!known.length && !sheet.has_spell_book) return null;
  const prepared = sheet.prepared || [];
  return block("Spell book",
    line("Spell book", sheet.has_spell_book ? "at hand" : "not at hand"),
    sheet.research_owed ? line("Research owed", String(sheet.research_owed)) : null,
    plainItems(known, ([name, spell]) => h("li", { class: "item" },
      h("span", { class: "item-name", text: name }),
      h("span", { class: "item-detail", text: `level ${spell.level} · ${spell.rating}%${spell.school ? ` · ${spell.school}` : ""}` }),
      prepared.includes(name) ? h("span", { class: "badge memorised", text: `prepared${count(prepared, name)}` }) : null,
      actions(ctx, `spells.${name}`, name))),
    actions(ctx, "spells"));
}

function count(list, name) {
  const n = list.filter((x) => x === name).length;
  return n > 1 ? ` ×${n}` : "";
}

function gear(ctx, sheet, carrying) {
  return block("Equipment",
    line("Load", meter(carrying.stones ?? 0, carrying.free ?? 0, "stones carried of those carried freely"),
      h("span", { class: carrying.level === "unencumbered" ? "badge" : "badge bad", text: LEVELS[carrying.level] || "" })),
    plainItems(sheet.gear || [], (g, i) => h("li", { class: "item" },
      h("span", { class: "item-name", text: g.count > 1 ? `${g.count} × ${g.name}` : g.name }),
      h("span", { class: "item-detail", text: [g.armour || g.size, g.where].filter(Boolean).join(" · ") }),
      actions(ctx, `gear.${i}`, g.name))) || h("p", { class: "quiet", text: "nothing written down" }),
    actions(ctx, "gear"));
}
