// Each system's play panel: what the table watches during play (the Dead Weight re-roll
// exchange with the advisor's odds, trackers, the 2d6 AP fight, the Constitution
// initiative order and days on the road, a roll-under rule's open decision and its last
// result), drawn from the member's view and the log entries it received; choices go
// through `send`.

import { h, percent } from "./dom.js";
import { boardPanel } from "./board.js";
import { describeIntent, humanize } from "./forms.js";
import { MODES, diceIn, dieChip } from "./log.js";

// Where a fight or a test stands, as a player says it (the rules' own names are ids).
const PHASES = {
  setup: "before the first round",
  round: "in the round",
  between_rounds: "between rounds",
  over: "over",
  "not-started": "not started",
  "beginning-moves": "the beginning moves",
  main: "the Main Phase",
  announced: "announced",
  rerolling: "re-rolling",
  dauntless: "a dauntless re-roll",
  finished: "finished",
};

function phaseWords(phase) {
  return PHASES[phase] || humanize(String(phase));
}

const OUTCOMES = [
  ["great_success", "great", "great success"],
  ["success", "success", "success"],
  ["failure", "fail", "failure"],
  ["critical_failure", "crit. fail", "critical failure"],
  ["fatigue", "fatigue", "costs fatigue"],
];

function exchangePanel(ctx) {
  // The test under way, or both sides of an opposed test, die by die.
  const exchange = ctx.view.state.exchange;
  if (!exchange) return null;
  const opposed = exchange.opposed;
  const tests = opposed ? opposed.tests : [exchange.test];
  const current = opposed ? opposed.current : 0;
  const kept = exchange.kept || [];
  const names = tests.map((test, i) => (exchange.rollers[i] ? ctx.character(exchange.rollers[i]) : kept[i] ? ctx.labelOf("npc", kept[i]) : test.roller?.name || "an NPC"));
  const test = tests[current];
  if (test.hidden && !opposed) {
    // A hidden NPC's test: its name and that the GM keeps its dice (DW-N04).
    return h("section", { class: "panel exchange", "aria-labelledby": "exchange-title" },
      h("h2", { id: "exchange-title", text: `${names[0]}: a test the GM keeps` }),
      h("p", { class: "hidden-value", text: `hidden: ${test.hidden}` }));
  }
  const status = exchange.finished
    ? opposed
      ? `judged: ${opposed.winner === null || opposed.winner === undefined ? "a draw" : opposed.winner.hidden ? "who won is the GM's" : `${names[opposed.winner]} wins`} after ${opposed.round} round${opposed.round > 1 ? "s" : ""}`
      : `judged: ${test.verdict ? String(test.verdict).replace(/_/g, " ") : "done"}${test.fatigue ? ", with fatigue" : ""}`
    : test.hidden ? `the GM chooses for ${names[current]}` : `${test.turn === "gm" ? "the GM" : `${names[current]}'s player`} chooses (${phaseWords(test.phase)})`;
  const budgets = Object.entries(test.budgets || {})
    .filter(([, v]) => typeof v === "number")
    .map(([k, v]) => `${k} ${v}`)
    .join(" · ");
  const chooser = test.turn === "gm" ? "the GM" : `${names[current]}'s player`;
  const choices = ctx.advice ? adviceTable(ctx, chooser) : waiting(ctx, exchange, chooser);
  const title = opposed ? `Opposed test: ${names[0]} against ${names[1]}, round ${opposed.round}` : `${names[0]}: ${testName(test)}`;
  const asking = !exchange.finished && (Boolean(ctx.advice) || Array.isArray(choices));
  return h(
    "section",
    { class: asking ? "panel exchange asking" : "panel exchange", "aria-labelledby": "exchange-title" },
    h("h2", { id: "exchange-title", text: title }),
    opposed
      ? tests.map((t, i) => h("div", { class: i === current && !exchange.finished ? "side choosing" : "side" }, h("h3", { text: `${names[i]}: ${testName(t)}${t.verdict ? ` · ${String(t.verdict).replace(/_/g, " ")}` : ""}` }), t.hidden ? h("p", { class: "hidden-value", text: `hidden: ${t.hidden}` }) : pool(t, names[i])))
      : pool(test, names[0]),
    h("p", { class: "status-line", text: status }),
    budgets && !exchange.finished ? h("p", { class: "hint", text: `left to spend: ${budgets}` }) : null,
    choices,
  );
}

function testName(test) {
  if (test.hidden) return "its dice kept by the GM";
  return `${test.setup.attribute} ${test.setup.check ? "check" : "test"}`;
}

function shownNumber(value) {
  // A number from the view, or "?" where the GM keeps it (a hidden NPC's).
  return value && typeof value === "object" ? "?" : String(value ?? "?");
}

function pool(test, name) {
  return h(
    "ol",
    { class: "pool", "aria-label": `${name}'s dice` },
    test.dice.map((die, i) =>
      h("li", { class: "die big", "aria-label": `die ${i + 1}: ${die.faces[die.faces.length - 1]}${die.faces.length > 1 ? `, was ${die.faces.slice(0, -1).join(", ")}` : ""}` },
        die.faces.length > 1 ? h("s", { class: "was", text: die.faces.slice(0, -1).join(" ") }) : null,
        h("span", { class: "face", text: String(die.faces[die.faces.length - 1]) }),
        h("span", { class: "sides", text: `die ${i + 1}` })),
    ),
  );
}

function waiting(ctx, exchange, chooser) {
  if (exchange.finished) return null;
  const kinds = new Set(["reroll", "pass", "dauntless"]);
  const mine = ctx.offers.filter((o) => kinds.has(o.kind) && o.intents.length);
  if (!mine.length) return h("p", { class: "hint", text: `waiting for ${chooser} to choose` });
  return mine.map((o) => ctx.forms.buttons(o, ctx.send));
}

function adviceTable(ctx, chooser) {
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
          "data-kind": choice.intent.kind,
          onclick: (clicked) => ctx.send(choice.intent, errorSlot, clicked.currentTarget),
        }, describeIntent(choice.intent, ctx.labelOf) || "pass"),
        picked ? h("span", { class: "badge good", text: "advisor's pick" }) : null),
      OUTCOMES.map(([key]) => h("td", { title: choice.odds.exact[key], text: percent(choice.odds[key]) })),
    );
  });
  // Whose choice it is, as this member reads it: the GM may also choose for a player.
  const mine = advice.side === "gm" ? ctx.view.me.role === "gm" : ctx.view.me.role !== "gm";
  const whose = mine ? `Your choice${advice.side === "gm" ? ", GM" : ""}` : `${chooser[0].toUpperCase()}${chooser.slice(1)}'s choice (you may make it for them)`;
  const title = `${whose}: the exact odds after each`;
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

function offered(ctx, kind, field, value) {
  // Whether the member may send `kind` for this value of `field` now.
  return ctx.offers.some((o) => o.kind === kind && o.fields[field] && (!o.fields[field].values || o.fields[field].values.includes(value)));
}

function trackerTools(ctx, t) {
  // The GM's controls on the tracker itself: a segment less or more, shown or hidden.
  const slot = h("p", { class: "error", role: "alert" });
  const tool = (text, label, intent) => h("button", {
    type: "button",
    class: "tool",
    "aria-label": label,
    onclick: (clicked) => ctx.send(intent, slot, clicked.currentTarget),
  }, text);
  const tools = [];
  if (offered(ctx, "advance-tracker", "name", t.name)) {
    tools.push(tool("−", `${t.name}: one segment less`, { kind: "advance-tracker", name: t.name, points: -1 }));
    tools.push(tool("+", `${t.name}: one segment more`, { kind: "advance-tracker", name: t.name, points: 1 }));
  }
  if (offered(ctx, "show-tracker", "name", t.name)) {
    const show = !t.visible;
    tools.push(tool(show ? "Show" : "Hide", `${show ? "show" : "hide"} ${t.name} ${show ? "to" : "from"} the players`, { kind: "show-tracker", name: t.name, visible: show }));
  }
  return tools.length ? h("span", { class: "tools", role: "group", "aria-label": `${t.name}: controls` }, tools, slot) : null;
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
        { "data-key": `tracker-${t.name}` },
        h("span", { class: "name", text: t.name }),
        h("span", { class: "badge", text: t.kind }),
        t.visible ? null : h("span", { class: "badge secret", text: "hidden from players" }),
        h("meter", { min: 0, max: t.segments, value: t.filled, "aria-label": `${t.name}: ${t.filled} of ${t.segments}` }),
        h("span", { class: "count", text: `${t.filled}/${t.segments}` }),
        trackerTools(ctx, t),
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
      !c.tracker || tracker.hidden
        ? h("td", { class: "hidden-value", text: "?" })
        : h("td", {}, h("span", { class: "ap", role: "img", "aria-label": `${left} of ${tokens.length} AP left` }, tokens.map((t) => h("span", { class: t === 0 ? "token" : "token spent", "aria-hidden": "true" })))),
      h("td", { text: shownNumber(c.hp) }),
      h("td", { text: String(c.public_life || c.life || "") }),
      h("td", { text: tracker.waiting ? "waiting" : tracker.acted ? "acted" : "" }),
    );
  });
  return h(
    "section",
    { class: "panel fight", "aria-labelledby": "fight-title" },
    h("h2", { id: "fight-title", text: `Fight: round ${fight.round} (${phaseWords(fight.phase)})` }),
    h("table", { class: "grid" }, h("caption", { text: "Action points" }),
      h("thead", {}, h("tr", {}, ["who", "AP", "HP", "life", ""].map((t) => h("th", { scope: "col", text: t })))),
      h("tbody", {}, rows)),
  );
}

function initiativePanel(ctx) {
  const fight = ctx.view.state.fight;
  if (!fight || !fight.combatants || !fight.combatants.length) return null;
  const place = new Map((fight.order || []).map((id, i) => [id, i]));
  const order = fight.order
    ? [...fight.combatants].sort((a, b) => (place.get(a.id) ?? 999) - (place.get(b.id) ?? 999))
    : [...fight.combatants].sort((a, b) => (b.initiative ?? -99) - (a.initiative ?? -99));
  return h(
    "section",
    { class: "panel fight", "aria-labelledby": "fight-title" },
    h("h2", { id: "fight-title", text: `Initiative: round ${fight.round} (${phaseWords(fight.phase)})` }),
    // six columns outgrow a phone with names and states in them: the table scrolls, not the page
    h("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": "the initiative order (scrolls sideways)" }, h("table", { class: "grid" }, h("caption", { text: "In initiative order" }),
      h("thead", {}, h("tr", {}, ["who", "side", "init.", "turns", "HP", "status"].map((t) => h("th", { scope: "col", text: t })))),
      h("tbody", {}, order.map((c) => h(
        "tr",
        { class: fight.acting === c.id ? "acting" : "", "aria-current": fight.acting === c.id ? "true" : null },
        h("th", { scope: "row", text: c.name }),
        h("td", { text: c.side }),
        h("td", { text: c.initiative === null ? "—" : shownNumber(c.initiative) }),
        h("td", { text: String(c.turns_left) }),
        h("td", { text: shownNumber(c.hp) }),
        h("td", { text: c.status }),
      ))))),
  );
}

function roadPanel(ctx) {
  // The Constitution party's days on the road: the day, the miles, the lights, and each
  // character's rations and penalty; the time of day is the GM's (C3-A61).
  const clock = ctx.view.state.clock;
  if (!clock) return null;
  const characters = ctx.view.state.characters || [];
  const turns = clock.turns.turns;
  const time = turns && typeof turns === "object" ? h("span", { class: "hidden-value", text: `hidden: ${turns.hidden}` }) : `${turns} turns explored today`;
  const lights = clock.turns.lights.map((l) => `${l.kind} (${l.turns_left} turns left)`).join(", ");
  return h(
    "section",
    { class: "panel road", "aria-labelledby": "road-title" },
    h("h2", { id: "road-title", text: `On the road: day ${clock.day}` }),
    h("p", { class: "status-line" }, `${clock.miles} miles marched · ${clock.marched ? "marched today" : "not marched yet today"} · `, time),
    lights ? h("p", { class: "hint", text: `burning: ${lights}` }) : null,
    characters.length
      ? h("table", { class: "grid" }, h("caption", { text: "Rations and deprivation" }),
        h("thead", {}, h("tr", {}, ["who", "food", "water", "penalty"].map((t) => h("th", { scope: "col", text: t })))),
        h("tbody", {}, characters.map((c) => h(
          "tr",
          {},
          h("th", { scope: "row", text: c.sheet.name }),
          h("td", { text: String(c.supplies.food) }),
          h("td", { text: String(c.supplies.water) }),
          h("td", { text: c.penalty ? String(c.penalty) : "—" }),
        ))))
      : null,
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
    { class: answers.length ? "panel decision asking" : "panel decision", "aria-labelledby": "decision-title" },
    title,
    decision.results.length
      ? h("ol", { class: "plain results", "aria-label": "the results so far" }, decision.results.map((r, i) => h("li", {}, `result ${i + 1}: `, h("strong", { text: String(r.total) }), passMark(decision.passes, i), ` (${r.line})`)))
      : null,
    h("p", { class: "status-line", text: `${decision.chooser} decides${MODES[pending.mode] ? ` · a ${MODES[pending.mode]}` : ""}` }),
    answers.length ? answers.map((o) => ctx.forms.buttons(o, ctx.send)) : h("p", { class: "hint", text: "waiting for their answer" }),
  );
}

function passMark(passes, i) {
  // Whether a roll-under result passed its score, said in words (not only a colour).
  if (!passes || passes.length <= i) return null;
  return h("span", { class: passes[i] ? "mark pass" : "mark fail", text: passes[i] ? " ✓ passes" : " ✗ fails" });
}

function isOutcome(event) {
  return event.type === "outcome" && Boolean(event.data && event.data.rule);
}

function lastRule(entries) {
  // The newest settled roll-under rule this page was told of: its outcome and its steps
  // back to the entry whose cause is the rule's own intent (or, where a cause is not shown,
  // to the rule before). Answers to its decisions, chat and room events in between are
  // passed over, not taken for its start; a secret rule reaches a player as hints without
  // the rule, and is skipped.
  const end = entries.findLastIndex((e) => isOutcome(e.event));
  if (end < 0) return null;
  let start = end;
  for (let i = end; i >= 0; i -= 1) {
    const event = entries[i].event;
    if (i < end && isOutcome(event)) break;
    start = i;
    const kind = event.cause && event.cause.intent && event.cause.intent.kind;
    if (kind && kind !== "answer") break;
  }
  const steps = entries.slice(start, end).map((e) => e.event).filter(isRuleStep);
  return { outcome: entries[end].event, steps };
}

function isRuleStep(event) {
  return event.type === "decision" || Boolean(event.data && typeof event.data === "object" && "values" in event.data);
}

const STEP_KINDS = [
  [/mutation/, "mutation"],
  [/injury|disabled|ability_lost/, "injury"],
  [/incapacitated|dying|death|dies|dead/, "critical"],
  [/corruption/, "corruption"],
  [/armour/, "armour"],
  [/damage|health/, "damage"],
];

function stepKind(type) {
  const found = STEP_KINDS.find(([pattern]) => pattern.test(type));
  return found ? found[1] : "";
}

function resultTitle(rule, outcome, steps) {
  const who = outcome.character?.name || steps.find((s) => s.data?.character)?.data.character || "";
  if (rule === "contest") return `Contest of ${steps.find((s) => s.type === "ability_roll")?.data.values.ability || "an ability"}`;
  if (rule === "suffer_hit") return `A hit on ${who}`;
  if (rule === "suffer_corruption") return `Corruption: ${who}`;
  return `${humanize(rule)}${who ? `: ${who}` : ""}`;
}

function contestTable(steps, outcome) {
  // Each contestant's rolls, pass or fail (then any tie-break rolls), the successes, and
  // the places the sides took.
  const rows = new Map();
  const breaks = [];
  let rolled = [];
  for (const step of steps) {
    const values = step.data?.values || {};
    if (step.type === "ability_roll") rolled.push(step);
    if (step.type === "contest_rolls") {
      rows.set(step.data.character, { name: step.data.character, side: values.side, marks: rolled.map((r) => r.data.values), again: [], successes: values.successes, rolls: values.rolls });
      rolled = [];
    }
    if (step.type === "tie_break") {
      for (const r of rolled) rows.get(r.data.character)?.again.push(r.data.values);
      breaks.push(step.text);
      rolled = [];
    }
  }
  const placeOf = new Map();
  (outcome.places || []).forEach((place, i) => place.sides.forEach((side) => placeOf.set(side, i + 1)));
  const mark = (m) => h("span", { class: m.passed ? "mark pass" : "mark fail", title: `${m.face} against ${m.score}`, text: `${m.passed ? "✓" : "✗"}${m.face}` });
  const ordered = [...rows.values()].sort((a, b) => (placeOf.get(a.side) ?? 99) - (placeOf.get(b.side) ?? 99));
  return [
    h(
      "table",
      { class: "grid contest" },
      h("caption", { text: "Each roll (✓ passed, ✗ failed), best place first" }),
      h("thead", {}, h("tr", {}, ["#", "who (side)", "rolls", "passed"].map((t) => h("th", { scope: "col", text: t })))),
      h("tbody", {}, ordered.map((row) => h(
        "tr",
        { class: placeOf.get(row.side) === 1 ? "best" : "" },
        h("td", { text: String(placeOf.get(row.side) ?? "") }),
        h("th", { scope: "row" }, row.name, h("span", { class: "hint", text: ` (${row.side})` })),
        h("td", {}, row.marks.map(mark), row.again.length ? [h("span", { class: "hint", text: "tie-break: " }), row.again.map(mark)] : null),
        h("td", { text: `${row.successes} of ${row.rolls}` }),
      ))),
    ),
    breaks.length ? h("ul", { class: "plain hint" }, breaks.map((text) => h("li", { text }))) : null,
  ];
}

function resultPanel(ctx) {
  // The last roll-under rule settled, step by step: a contest's table, or a hit's damage,
  // armour, health, criticals, injuries, corruption and mutation, each marked.
  const last = lastRule(ctx.entries || []);
  if (!last) return null;
  const { rule, outcome } = last.outcome.data;
  return h(
    "section",
    { class: "panel result", "aria-labelledby": "result-title" },
    h("h2", { id: "result-title", text: `Last result · ${resultTitle(rule, outcome, last.steps)}` }),
    rule === "contest"
      ? contestTable(last.steps, outcome)
      : h("ol", { class: "plain steps" }, last.steps.filter((s) => s.type !== "decision").map((step) => {
        const kind = stepKind(step.type);
        return h("li", { class: kind ? `step ${kind}` : "step" },
          kind ? h("span", { class: `badge ${kind}`, text: kind }) : null,
          h("span", { class: "text", text: step.text }),
          diceIn(step.data?.dice).map(dieChip));
      })),
    h("p", { class: "status-line", text: last.outcome.text }),
  );
}

function listsPanel(ctx) {
  // The lists the GM keeps for the table where the book leaves them to the group (Dead
  // Weight's backgrounds, spells and gods; 2d6's weapons, skills and armour; Constitution's
  // skills and spells), where they
  // come from, and what an empty one waits for.
  const lists = ctx.view.state.lists;
  if (!lists) return null;
  return h("section", { class: "panel lists", "aria-labelledby": "lists-title" },
    h("h2", { id: "lists-title", text: "The table's lists" }),
    h("p", { class: "hint", text: `From ${lists.from}.` }),
    lists.empty ? h("p", { text: lists.empty }) : null,
    lists.parts.filter((part) => part.rows.length).map((part) => [h("h3", { text: part.title }), h("ul", { class: "plain" }, part.rows.map((row) => h("li", { text: row })))]));
}

const PANELS = {
  "dead-weight": [exchangePanel, trackersPanel, listsPanel],
  ap2d6: [apFightPanel, listsPanel],
  constitution: [initiativePanel, roadPanel, listsPanel],
  rollunder: [decisionPanel, resultPanel],
  "deadweight-board": [boardPanel],
};

export const ON_THE_LINE = {
  ap2d6: new Set(["damage"]),
  constitution: new Set(["damage"]),
  rollunder: new Set(["suffer-hit"]),
  "dead-weight": new Set(["wounds", "npc-wounds"]),
};
// Offer kinds a card keeps on its line when folded: what hurts its character, which the
// GM reaches for at the end of someone else's turn (harm, a hit, wounds), so a folded card
// costs no press more than an open one (issue 31).

export const HANDLED = {
  "dead-weight": new Set(["reroll", "pass", "dauntless"]),
  rollunder: new Set(["answer"]),
  "deadweight-board": new Set(["act", "seat-bot"]),
};
// Offer kinds a system's panel shows itself (with the advisor's odds), not the list.

export const FORMS_ELSEWHERE = {
  "dead-weight": new Set(["creation-choice"]),
};
// Open offers a system's page leaves out because plainer forms ask the same (guided
// creation's names ticked from a list and dice ticked by place, not a decision typed in).

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
