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
    taps.map((o) => waiting(o.text, `ask ${o.intents[0].ask}`, "Roll it", (slot, button) => ctx.send(o.intents[0], slot, button))),
  );
}

export function askPanel(ctx) {
  // The GM's: ask for a roll, and take back one still waiting.
  if (ctx.view.me.role !== "gm") return null;
  const asking = ctx.offers.find((o) => o.kind === "ask-roll");
  const drops = ctx.offers.filter((o) => o.kind === "drop-ask");
  if (!asking && !drops.length) return null;
  const shown = new Map((ctx.view.state.asks || []).map((ask) => [ask.id, ask]));
  return h(
    "section",
    { class: "panel asks", "aria-labelledby": "ask-title" },
    h("h2", { id: "ask-title", text: "Asking for rolls" }),
    asking ? ctx.offerBlock(asking) : null,
    drops.length ? h("h3", { text: "Waiting for an answer" }) : null,
    drops.map((o) => {
      const ask = shown.get(o.intents[0].ask);
      const kept = ask && ask.dc_kept ? ` (DC ${ask.dc}, which you keep)` : "";
      const text = `${ask ? ask.text : o.text}${kept}`;
      return waiting(text, `drop ${o.intents[0].ask}`, "Take it back", (slot, button) => ctx.send(o.intents[0], slot, button));
    }),
  );
}

function waiting(text, key, label, press) {
  // One roll asked for: what it is, and the one button that answers or drops it.
  const slot = h("p", { class: "error", role: "alert" });
  const said = h("p", { class: "ask-text", text });
  const button = h("button", { type: "button", class: "choice", onclick: () => press(slot, button), text: label });
  return h("div", { class: "ask", "data-key": key }, said, h("div", { class: "actions" }, button), slot);
}
