// The NPC panel: the NPCs and monsters the GM keeps, as this member's view holds them (a
// player sees their names and what the GM has shown, never a number the GM keeps), and for
// the GM the offers for them: bring one from the book or type one in, and on each NPC's card
// every offer that names it (show or hide its numbers, change one, a test, wounds, a fight).
// It knows no system's rules: an offer belongs to an NPC when one of its fields lists the
// NPC's id, and the intents it sends are the offers' own.

import { ASK_KINDS } from "./asks.js";
import { h } from "./dom.js";
import { sheetTree } from "./sheets.js";

export const NPC_KINDS = new Set(["new-npc", "npc-from-book", "edit-npc", "remove-npc", "reveal-npc"]);
// Offer kinds that live in this panel, not in "What you can do".

const NAMING = ["npc", "kept", "character", "roller"];
// Fields through which an offer names one NPC (a roster change, a kept NPC's test, a 2d6 or
// roll-under NPC's own actions, which are a character's).

export function namesAnNpc(offer) {
  // Whether an open offer belongs on NPC cards only: it names NPCs through `npc`.
  return Boolean(offer.fields.npc && offer.fields.npc.values);
}

function namingField(offer, id) {
  return NAMING.find((f) => offer.fields[f] && offer.fields[f].values && offer.fields[f].values.includes(id));
}

export function npcPanel(ctx, here = () => true) {
  // The panel: adding an NPC, and the cards of those `here` says belong in it (the one
  // whose turn it is leads the table instead).
  const npcs = ctx.view.state.npcs;
  if (!Array.isArray(npcs)) return null;
  const adding = ctx.offers.filter((o) => o.kind === "npc-from-book" || o.kind === "new-npc");
  const listed = npcs.filter(here);
  if (!listed.length && !adding.length) return null;
  const gm = ctx.view.me.role === "gm";
  return h(
    "section",
    { class: "panel npcs", "aria-labelledby": "npcs-title" },
    h("h2", { id: "npcs-title", text: "NPCs and monsters" }),
    gm ? null : h("p", { class: "hint", text: "The GM keeps their numbers until showing them." }),
    npcs.length ? null : h("p", { class: "hint", text: noneYet(adding) }),
    adding.map((o) => ctx.offerBlock(o)),
    listed.map((npc) => npcCard(ctx, npc)),
  );
}

function noneYet(adding) {
  // What an empty panel invites: the book's creatures only where the book lists some.
  const kinds = new Set(adding.map((o) => o.kind));
  if (kinds.has("npc-from-book") && kinds.has("new-npc")) return "None yet: bring one from the book or type one in.";
  if (kinds.has("npc-from-book")) return "None yet: bring one from the book.";
  return kinds.has("new-npc") ? "None yet: type one in." : "None yet.";
}

export function npcCard(ctx, npc) {
  // An NPC's card: its line (its health where the member may know it), and in its body
  // its numbers, show or hide them, and every offer that names it.
  const shown = npc.stats && !npc.stats.hidden;
  const reveal = ctx.offers.find((o) => o.kind === "reveal-npc")?.intents.find((i) => i.npc === npc.id);
  const own = ctx.offers
    .filter((o) => !o.intents.length && !ASK_KINDS.has(o.kind)) // asked for in the GM's panel
    .map((o) => [o, namingField(o, npc.id)])
    .filter(([, field]) => field);
  const quick = own.filter(([o]) => ctx.onTheLine.has(o.kind));
  const rest = own.filter(([o]) => !ctx.onTheLine.has(o.kind));
  const error = h("p", { class: "error", role: "alert" });
  const blocks = (list) => list.map(([o, field]) => ctx.offerBlock(o, { [field]: npc.id }));
  const buttons = ctx.cardButtons(npc.id);
  return ctx.frame({
    id: npc.id,
    name: npc.name,
    kind: "npc",
    marks: npc.revealed ? h("span", { class: "badge good", text: "shown to players" }) : h("span", { class: "badge secret", text: "numbers hidden" }),
    by: typeof npc.creature === "string" ? `from the book: ${npc.creature}` : "",
    line: npcLine(ctx, npc),
    owner: null,
    acts: () => ({ tools: blocks(quick), now: [], rest: null }),
    body: () => [
      shown ? h("div", { class: "npc-stats" }, sheetTree(npc.stats)) : h("p", { class: "hidden-value", text: "Its numbers are the GM's." }),
      reveal ? h("div", { class: "actions" }, h("button", {
        type: "button",
        class: "quiet",
        onclick: (clicked) => ctx.send(reveal, error, clicked.currentTarget),
        text: reveal.revealed ? "Show its numbers to the players" : "Hide its numbers again",
      }), error) : null,
      // its one-press choices (a 2d6 NPC's basic actions, an attack's next step) first
      buttons.length || rest.length ? h("div", { class: "card-acts" }, buttons, blocks(rest)) : null,
    ],
  });
}

function npcLine(ctx, npc) {
  // What a folded NPC card shows: its sheet's line where it is a character the GM plays
  // (2d6, roll-under), else its health from the numbers the member may see.
  const character = (ctx.view.state.characters || []).find((c) => c.id === npc.id);
  if (character && !character.sheet.hidden) return ctx.sheetLine(character);
  const stats = npc.stats && !npc.stats.hidden ? npc.stats : null;
  if (!stats) return { health: "", conditions: [] };
  if (typeof stats.health === "number") return { health: `Health ${stats.health} of ${stats.max_health ?? stats.health}`, conditions: [] };
  if (typeof stats.hp === "number") return { health: `HP ${stats.hp}${typeof stats.max_hp === "number" ? ` of ${stats.max_hp}` : ""}`, conditions: [] };
  if (typeof stats.wounds === "number") return { health: `${stats.wounds} wound${stats.wounds === 1 ? "" : "s"}, dies past ${stats.wound_limit}`, conditions: [] };
  return { health: "", conditions: [] };
}
