// Each system's play panel: what the table watches during play (the Dead Weight re-roll
// exchange with the advisor's odds, trackers, the 2d6 AP fight, the Constitution
// initiative order, a roll-under rule's open decision), drawn from the member's view; choices go through `send`.

import { h, percent } from "./dom.js";
import { boardPanel } from "./board.js";
import { describeIntent } from "./forms.js";

const OUTCOMES = [
  ["great_success", "great", "great success"],
  ["success", "success", "success"],
  ["failure", "fail", "failure"],
  ["critical_failure", "crit. fail", "critical failure"],
  ["fatigue", "fatigue", "costs fatigue"],
];

function exchangePanel(ctx) {
  const exchange = ctx.view.state.exchange;
  if (!exchange) return null;
  const test = exchange.opposed ? exchange.opposed.tests[exchange.opposed.current] : exchange.test;
  const roller = exchange.rollers[exchange.opposed ? exchange.opposed.current : 0];
  const who = roller ? ctx.character(roller) : test.roller?.name || "an NPC";
  const dice = h(
    "ol",
    { class: "pool", "aria-label": "the dice in the test" },
    test.dice.map((die, i) =>
      h("li", { class: "die big", "aria-label": `die ${i + 1}: ${die.faces[die.faces.length - 1]}${die.faces.length > 1 ? `, was ${die.faces.slice(0, -1).join(", ")}` : ""}` },
        die.faces.length > 1 ? h("s", { class: "was", text: die.faces.slice(0, -1).join(" ") }) : null,
        h("span", { class: "face", text: String(die.faces[die.faces.length - 1]) }),
        h("span", { class: "sides", text: `die ${i + 1}` })),
    ),
  );
  const budgets = Object.entries(test.budgets || {})
    .filter(([, v]) => typeof v === "number")
    .map(([k, v]) => `${k} ${v}`)
    .join(" · ");
  const status = exchange.finished
    ? `judged: ${test.verdict ? String(test.verdict).replace(/_/g, " ") : "done"}${test.fatigue ? ", with fatigue" : ""}`
    : `${test.turn === "gm" ? "the GM" : `${who}'s player`} chooses (${test.phase})`;
  const choices = ctx.advice ? adviceTable(ctx) : waiting(ctx, exchange);
  return h(
    "section",
    { class: "panel exchange", "aria-labelledby": "exchange-title" },
    h("h2", { id: "exchange-title", text: `${who}: ${test.setup.attribute} ${test.setup.check ? "check" : "test"}` }),
    dice,
    h("p", { class: "status-line", text: status }),
    budgets ? h("p", { class: "hint", text: `left to spend: ${budgets}` }) : null,
    choices,
  );
}

function waiting(ctx, exchange) {
  if (exchange.finished) return null;
  const kinds = new Set(["reroll", "pass", "dauntless"]);
  const mine = ctx.offers.filter((o) => kinds.has(o.kind) && o.intents.length);
  if (!mine.length) return h("p", { class: "hint", text: "waiting for the other side's choice" });
  return mine.map((o) => ctx.forms.buttons(o, ctx.send));
}

function adviceTable(ctx) {
  const advice = ctx.advice;
  const best = JSON.stringify(advice.best);
  const errorSlot = h("p", { class: "error", role: "alert" });
  const rows = advice.choices.map((choice) => {
    const picked = JSON.stringify(choice.intent) === best;
    return h(
      "tr",
      { class: picked ? "best" : "" },
      h("th", { scope: "row" },
        h("button", {
          type: "button",
          class: "choice",
          onclick: (clicked) => ctx.send(choice.intent, errorSlot, clicked.currentTarget),
        }, describeIntent(choice.intent, ctx.labelOf) || "pass"),
        picked ? h("span", { class: "badge good", text: "advisor's pick" }) : null),
      OUTCOMES.map(([key]) => h("td", { title: choice.odds.exact[key], text: percent(choice.odds[key]) })),
    );
  });
  const title = `Your choice, ${advice.side === "gm" ? "GM" : "player"}: the exact odds after each`;
  return h(
    "div",
    { class: "advice", role: "region", "aria-label": title, tabindex: "0" },
    h("p", { class: "advice-title", text: title }),
    h(
      "table",
      { class: "grid odds" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "choice" }), OUTCOMES.map(([, label, full]) => h("th", { scope: "col", title: full }, h("abbr", { title: full, text: label }))))),
      h("tbody", {}, rows),
    ),
    errorSlot,
  );
}

function trackersPanel(ctx) {
  const trackers = ctx.view.state.trackers || [];
  if (!trackers.length) return null;
  return h(
    "section",
    { class: "panel trackers", "aria-labelledby": "trackers-title" },
    h("h2", { id: "trackers-title", text: "Trackers" }),
    h("ul", { class: "plain" }, trackers.map((t) => {
      if (t.hidden) return h("li", { class: "hidden-value", text: `hidden: ${t.hidden}` });
      return h(
        "li",
        {},
        h("span", { class: "name", text: t.name }),
        h("span", { class: "badge", text: t.kind }),
        t.visible ? null : h("span", { class: "badge secret", text: "hidden from players" }),
        h("meter", { min: 0, max: t.segments, value: t.filled, "aria-label": `${t.name}: ${t.filled} of ${t.segments}` }),
        h("span", { class: "count", text: `${t.filled}/${t.segments}` }),
      );
    })),
  );
}

function apFightPanel(ctx) {
  const fight = ctx.view.state.fight;
  if (!fight) return null;
  const rows = fight.characters.map((c) => {
    const tracker = c.tracker || {};
    const tokens = tracker.tokens || [];
    const left = tokens.filter((t) => t === 0).length + (tracker.temp || 0);
    return h(
      "tr",
      { class: tracker.acted ? "acted" : "" },
      h("th", { scope: "row", text: c.name }),
      h("td", {}, h("span", { class: "ap", role: "img", "aria-label": `${left} of ${tokens.length} AP left` }, tokens.map((t) => h("span", { class: t === 0 ? "token" : "token spent", "aria-hidden": "true" })))),
      h("td", { text: String(c.hp ?? "?") }),
      h("td", { text: String(c.public_life || c.life || "") }),
      h("td", { text: tracker.waiting ? "waiting" : tracker.acted ? "acted" : "" }),
    );
  });
  return h(
    "section",
    { class: "panel fight", "aria-labelledby": "fight-title" },
    h("h2", { id: "fight-title", text: `Fight: round ${fight.round} (${fight.phase})` }),
    h("table", { class: "grid" }, h("caption", { text: "Action points" }),
      h("thead", {}, h("tr", {}, ["who", "AP", "HP", "life", ""].map((t) => h("th", { scope: "col", text: t })))),
      h("tbody", {}, rows)),
  );
}

function initiativePanel(ctx) {
  const fight = ctx.view.state.fight;
  if (!fight || !fight.combatants || !fight.combatants.length) return null;
  const order = [...fight.combatants].sort((a, b) => (b.initiative ?? -99) - (a.initiative ?? -99));
  return h(
    "section",
    { class: "panel fight", "aria-labelledby": "fight-title" },
    h("h2", { id: "fight-title", text: `Initiative: round ${fight.round} (${fight.phase})` }),
    h("table", { class: "grid" }, h("caption", { text: "In initiative order" }),
      h("thead", {}, h("tr", {}, ["who", "side", "init.", "turns", "HP", "status"].map((t) => h("th", { scope: "col", text: t })))),
      h("tbody", {}, order.map((c) => h(
        "tr",
        { class: fight.acting === c.id ? "acting" : "", "aria-current": fight.acting === c.id ? "true" : null },
        h("th", { scope: "row", text: c.name }),
        h("td", { text: c.side }),
        h("td", { text: c.initiative === null ? "—" : String(c.initiative) }),
        h("td", { text: String(c.turns_left) }),
        h("td", { text: String(c.hp) }),
        h("td", { text: c.status }),
      )))),
  );
}

function decisionPanel(ctx) {
  // The roll-under rule waiting for an answer: every result so far, who decides, and for
  // them the answers (keep a result, spend an omen on a re-roll, a death save...).
  const pending = ctx.view.state.pending;
  if (!pending) return null;
  const decision = pending.decision;
  const title = h("h2", { id: "decision-title", text: decision.hidden ? "A roll is waiting" : decision.purpose });
  if (decision.hidden) {
    return h("section", { class: "panel decision", "aria-labelledby": "decision-title" }, title, h("p", { class: "hidden-value", text: `hidden: ${decision.hidden}` }));
  }
  const answers = ctx.offers.filter((o) => o.kind === "answer" && o.intents.length);
  return h(
    "section",
    { class: "panel decision", "aria-labelledby": "decision-title" },
    title,
    decision.results.length
      ? h("ol", { class: "plain results", "aria-label": "the results so far" }, decision.results.map((r, i) => h("li", {}, `result ${i + 1}: `, h("strong", { text: String(r.total) }), ` (${r.line})`)))
      : null,
    h("p", { class: "status-line", text: `${decision.chooser} decides${pending.mode !== "public" ? ` · ${pending.mode} roll` : ""}` }),
    answers.length ? answers.map((o) => ctx.forms.buttons(o, ctx.send)) : h("p", { class: "hint", text: "waiting for their answer" }),
  );
}

const PANELS = {
  "dead-weight": [exchangePanel, trackersPanel],
  ap2d6: [apFightPanel],
  constitution: [initiativePanel],
  rollunder: [decisionPanel],
  "deadweight-board": [boardPanel],
};

export const HANDLED = {
  "dead-weight": new Set(["reroll", "pass", "dauntless"]),
  rollunder: new Set(["answer"]),
  "deadweight-board": new Set(["act", "seat-bot"]),
};
// Offer kinds a system's panel shows itself (with the advisor's odds), not the list.

export function systemPanels(ctx) {
  return (PANELS[ctx.view.system] || []).map((panel) => panel(ctx)).filter(Boolean);
}

export function hiddenPaths(full, seen, path = "") {
  // Where a player's view hides what the GM's holds: each path and the GM's value there.
  if (seen && typeof seen === "object" && !Array.isArray(seen) && Object.keys(seen).length === 1 && "hidden" in seen) {
    return [{ path, what: seen.hidden, value: full }];
  }
  if (full && typeof full === "object" && seen && typeof seen === "object") {
    return Object.keys(full).flatMap((key) => hiddenPaths(full[key], seen[key], path ? `${path}.${key}` : key));
  }
  return [];
}
