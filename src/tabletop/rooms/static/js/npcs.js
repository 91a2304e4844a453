// The NPC panel: the NPCs and monsters the GM keeps, as this member's view holds them (a
// player sees their names and what the GM has shown, never a number the GM keeps), and for
// the GM the offers for them: bring one from the book or type one in, and on each NPC's card
// every offer that names it (show or hide its numbers, change one, a test, wounds, a fight).
// It knows no system's rules: an offer belongs to an NPC when one of its fields lists the
// NPC's id, and the intents it sends are the offers' own.

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

export function npcPanel(ctx) {
  const npcs = ctx.view.state.npcs;
  if (!Array.isArray(npcs)) return null;
  const adding = ctx.offers.filter((o) => o.kind === "npc-from-book" || o.kind === "new-npc");
  if (!npcs.length && !adding.length) return null;
  const gm = ctx.view.me.role === "gm";
  return h(
    "section",
    { class: "panel npcs", "aria-labelledby": "npcs-title" },
    h("h2", { id: "npcs-title", text: "NPCs and monsters" }),
    gm ? null : h("p", { class: "hint", text: "The GM keeps their numbers until showing them." }),
    npcs.length ? null : h("p", { class: "hint", text: "None yet: bring one from the book or type one in." }),
    adding.map((o) => ctx.offerBlock(o)),
    npcs.map((npc) => npcCard(ctx, npc)),
  );
}

function npcCard(ctx, npc) {
  const titleId = `npc-${npc.id}`;
  const shown = npc.stats && !npc.stats.hidden;
  const reveal = ctx.offers.find((o) => o.kind === "reveal-npc")?.intents.find((i) => i.npc === npc.id);
  const own = ctx.offers
    .filter((o) => !o.intents.length)
    .map((o) => [o, namingField(o, npc.id)])
    .filter(([, field]) => field);
  const error = h("p", { class: "error", role: "alert" });
  return h(
    "article",
    { class: "card npc", "aria-labelledby": titleId, "data-key": titleId },
    h("h3", { id: titleId }, h("span", { text: npc.name }),
      npc.revealed ? h("span", { class: "badge good", text: "shown to players" }) : h("span", { class: "badge secret", text: "numbers hidden" })),
    typeof npc.creature === "string" ? h("p", { class: "hint", text: `from the book: ${npc.creature}` }) : null,
    shown ? h("div", { class: "npc-stats" }, sheetTree(npc.stats)) : h("p", { class: "hidden-value", text: "Its numbers are the GM's." }),
    reveal ? h("div", { class: "actions" }, h("button", {
      type: "button",
      class: "quiet",
      onclick: (clicked) => ctx.send(reveal, error, clicked.currentTarget),
      text: reveal.revealed ? "Show its numbers to the players" : "Hide its numbers again",
    }), error) : null,
    own.length ? h("div", { class: "sheet-actions" }, own.map(([o, field]) => ctx.offerBlock(o, { [field]: npc.id }))) : null,
  );
}
