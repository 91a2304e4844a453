// Checking the log from the page (docs/rooms.md, "In the browser"): the id and nonce of every
// intent this browser sends, kept per room in localStorage before it goes out; "Download
// and verify the log" checked with them (what `tabletop room verify --mine` checks); and
// "check this roll" on an entry of the log, which verifies the member's export and looks at
// that entry closely: its hash, its dice against the revealed seed, and your nonce.

import { call } from "./api.js";
import { download, fill, h } from "./dom.js";

const MAX_KEPT = 100000;

function bookKey(room) {
  return `tabletop.nonces.${room}`;
}

export function keptNonces(room) {
  // Request id → nonce of every intent this browser sent to `room`.
  try {
    const kept = JSON.parse(localStorage.getItem(bookKey(room)) || "{}");
    return kept && typeof kept === "object" && !Array.isArray(kept) ? kept : {};
  } catch {
    return {};
  }
}

export function keepNonce(room, message) {
  // Write the intent's id and nonce down before it is sent: a lost answer still leaves it
  // on record. A full book (or storage refused) keeps what it has.
  if (!message.id || !message.nonce) return;
  const kept = keptNonces(room);
  if (Object.keys(kept).length >= MAX_KEPT) return;
  kept[message.id] = message.nonce;
  try {
    localStorage.setItem(bookKey(room), JSON.stringify(kept));
  } catch {
    // private browsing or a full storage: the check then says which entry it cannot vouch for
  }
}

async function checked(ctx, entry) {
  const { text } = await ctx.room.get("/export"); // JSON lines (api.js's Lines), kept as sent
  const body = { export: text, mine: keptNonces(ctx.link.room), member: ctx.me().id };
  if (entry !== undefined) body.entry = entry;
  return { text, answer: await call("POST", "/verify", { body }) };
}

function overall(answer) {
  if (answer.ok) {
    return h("p", { class: "good" }, h("strong", { text: "The log verifies: " }), answer.summary);
  }
  // Dice waiting for a seed the GM has not revealed yet are no failure: the log cannot
  // be checked in full before the session ends, and says so.
  if (/ is not revealed /.test(answer.error)) {
    return h("p", { class: "hint" }, h("strong", { text: "Not checkable yet: " }), `line ${answer.line} has dice from a seed the GM reveals by ending the session; download and verify again after that.`);
  }
  return h("p", { class: "bad" }, h("strong", { text: `The log fails at line ${answer.line}: ` }), answer.error);
}

export async function downloadAndVerify(ctx, result) {
  const { text, answer } = await checked(ctx);
  download(`room-${ctx.link.room}.jsonl`, text, "application/x-ndjson");
  fill(result, overall(answer));
}

export function isRoll(entry) {
  // An entry a member asked for: it carries its cause (and dice), or its asker's nonce.
  const event = entry.event || {};
  return !String(event.type || "").startsWith("room.") && (Boolean(event.cause) || entry.nonce != null);
}

export function checkRollLink(ctx) {
  // What `entryItem` appends to a roll: a button that checks that one entry.
  return (entry) => isRoll(entry)
    ? h("button", {
      type: "button",
      class: "check-roll",
      "data-check": entry.seq,
      onclick: () => checkRoll(ctx, entry.seq),
      text: "check this roll",
      "aria-label": `check entry ${entry.seq}`,
    })
    : null;
}

async function checkRoll(ctx, seq) {
  const result = document.getElementById("verified");
  if (!result) return;
  for (const item of document.querySelectorAll("li.entry.checked")) item.classList.remove("checked");
  const item = document.querySelector(`li.entry[data-seq="${seq}"]`);
  if (item) item.classList.add("checked");
  fill(result, h("p", { text: `Checking entry ${seq}…` }));
  result.scrollIntoView({ block: "nearest" });
  try {
    const { answer } = await checked(ctx, seq);
    fill(result, entryReport(answer.entry), overall(answer));
  } catch (problem) {
    fill(result, h("p", { class: "bad", text: problem.message }));
  }
}

function entryReport(entry) {
  const mark = (state) => (state === "good" ? "good" : state === "bad" ? "bad" : "");
  const dice = entry.dice || {};
  const nonce = entry.nonce || {};
  return h(
    "section",
    { class: "entry-check", "aria-label": `entry ${entry.seq} checked` },
    h("h3", { text: `Entry ${entry.seq}` }),
    entry.text ? h("p", { class: "text", text: entry.text }) : null,
    h("dl", {},
      h("dt", { text: "Hash" }),
      entry.hash
        ? h("dd", { class: "good" }, "matches what the line shows, chained to the line before: ", h("code", { text: `${entry.hash.slice(0, 16)}…` }))
        : h("dd", { class: "bad", text: entry.problem || "not found" }),
      entry.hash ? h("dt", { text: "Dice" }) : null,
      entry.hash ? h("dd", { class: `dice-check ${mark(dice.state)}` }, dice.text,
        (dice.draws || []).length
          ? h("span", { class: "draws" }, dice.draws.map((d) => h("span", { class: "draw", text: ` d${d.sides}: ${d.face} (seed ${d.seed})` })))
          : null) : null,
      entry.hash ? h("dt", { text: "Your nonce" }) : null,
      entry.hash ? h("dd", { class: `nonce-check ${mark(nonce.state)}`, text: nonce.text }) : null),
  );
}
