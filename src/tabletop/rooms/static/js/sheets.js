// Character sheets, each laid out like its system's own (js/sheets/<system>.js), with the
// actions the session placed at each entry beside it; any other system's sheet, and a
// creation decision, as a tree of names and values.

import { h } from "./dom.js";
import { ap2d6Line, ap2d6Sheet } from "./sheets/ap2d6.js";
import { constitutionLine, constitutionSheet } from "./sheets/constitution.js";
import { deadWeightLine, deadWeightSheet } from "./sheets/dead-weight.js";
import { actions, sheetTree } from "./sheets/parts.js";
import { rollunderLine, rollunderSheet } from "./sheets/rollunder.js";

export { sheetTree };

const LAYOUTS = {
  "dead-weight": deadWeightSheet,
  rollunder: rollunderSheet,
  constitution: constitutionSheet,
  ap2d6: ap2d6Sheet,
};

const LINES = {
  "dead-weight": deadWeightLine,
  rollunder: rollunderLine,
  constitution: constitutionLine,
  ap2d6: ap2d6Line,
};

export function sheetView(system, ctx) {
  // ctx: the character as the view has it, its sheet, the offers placed on its entries,
  // the form maker, send, labelOf, and readOnly for "view as".
  const layout = LAYOUTS[system];
  if (!layout) return h("div", { class: "sheet" }, sheetTree(ctx.sheet));
  const name = ctx.sheet.name;
  return h("div", { class: `sheet sheet-${system}` }, actions(ctx, "name", name, { name }), layout(ctx));
}

export function sheetLine(system, character) {
  // What a folded card still shows of a character: their health and what ails them, as
  // the system's sheet words them (none for a sheet the member may not see).
  const read = LINES[system];
  if (character.sheet.hidden) return { health: "", conditions: [], hidden: character.sheet.hidden };
  if (!read) return { health: "", conditions: [] };
  const { health, conditions } = read(character);
  return { health, conditions: conditions.filter(Boolean) };
}

export function belongsTo(offer, id) {
  // Whether an offer acts on this character: its entry's preset names them, or every
  // intent of a closed one does.
  const named = (o) => o && (o.character === id || o.roller === id);
  if (offer.intents.length) return offer.intents.every(named);
  return named(offer.preset);
}
