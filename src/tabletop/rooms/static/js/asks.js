// The GM asks a player for a roll (tabletop.asks, the same at every RPG table): the GM's
// form (which character, what to roll from the system's own list, the DC, whether the
// player sees it, why) with the rolls still waiting, and each player's "what is asked of
// you", one button per roll. What is asked reads as the server words it (`asks` in the
// view, the offers' text): the DC of one the GM keeps never reaches a player's page.

import { h } from "./dom.js";

export const ASK_KINDS = new Set(["ask-roll", "answer-ask", "drop-ask"]);
// The kinds these panels show, so no card or list shows them again.

export function askedOfYou(ctx) {
  // A player's rolls asked for: what each is, and one button that rolls it.
  if (ctx.view.me.role !== "player") return null;
  const taps = ctx.offers.filter((o) => o.kind === "answer-ask");
  if (!taps.length) return null;
  return h(
    "section",
    { class: "panel asking asked", "aria-labelledby": "asked-title" },
    h("h2", { id: "asked-title", text: "What is asked of you" }),
    taps.map((o) => waiting(o.text, `ask ${o.intents[0].ask}`, [["Roll it", o.intents[0]]], ctx.send)),
  );
}

export function askPanel(ctx) {
  // The GM's: ask for a roll; each one still waiting, to take back or to roll for a player
  // who is away.
  if (ctx.view.me.role !== "gm") return null;
  const asking = ctx.offers.find((o) => o.kind === "ask-roll");
  const open = (kind, id) => ctx.offers.find((o) => o.kind === kind && o.intents[0].ask === id);
  const asks = ctx.view.state.asks || [];
  if (!asking && !asks.length) return null;
  return h(
    "section",
    { class: "panel asks", "aria-labelledby": "ask-title" },
    h("h2", { id: "ask-title", text: "Asking for rolls" }),
    asking ? ctx.offerBlock(asking) : null,
    asks.length ? h("h3", { text: "Waiting for an answer" }) : null,
    asks.map((ask) => {
      const kept = ask.dc_kept ? ` (DC ${ask.dc}, which you keep)` : "";
      const presses = [["Take it back", open("drop-ask", ask.id)], ["Roll it for them", open("answer-ask", ask.id)]];
      return waiting(`${ask.text}${kept}`, `ask ${ask.id}`, presses.filter(([, o]) => o).map(([label, o]) => [label, o.intents[0]]), ctx.send);
    }),
  );
}

function waiting(text, key, presses, send) {
  // One roll asked for: what it is, and a button for each way to answer it (`presses`:
  // each button's words and the intent it sends).
  const slot = h("p", { class: "error", role: "alert" });
  const buttons = presses.map(([label, intent]) => {
    const button = h("button", { type: "button", class: "choice", "data-kind": intent.kind, onclick: () => send(intent, slot, button), text: label });
    return button;
  });
  return h("div", { class: "ask", "data-key": key }, h("p", { class: "ask-text", text }), h("div", { class: "actions" }, buttons), slot);
}
