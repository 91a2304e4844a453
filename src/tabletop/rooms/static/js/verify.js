// Checking the log from the page, on the member's own machine (docs/rooms.md, "In the
// browser"): the id, nonce and intent digest of every intent this browser sends, kept per
// room in localStorage before it goes out; "check this roll", which looks at one line as
// it arrived here, with nothing fetched; "Check my record here", which fetches the
// member's export once and checks it against what this device kept (check.js); and
// "Download my record", the export, nonce book and kept heads as the one file
// `tabletop room verify` checks offline, rules and all. Nothing is asked of the server
// being checked but the export.

import { download, fill, h } from "./dom.js";
import { bundle, checkRecord, diceCheck, lineHash, nonceCheck, parseExact, plain, seedsOf, witnessCheck } from "./check.js";
import { witnessWords } from "./witness.js";

const MAX_KEPT = 100000;

function bookKey(room) {
  return `tabletop.nonces.${room}`;
}

export function keptNonces(room) {
  // Request id → {nonce, intent} (its digest) of every intent this browser sent to `room`
  // (a nonce alone for those kept before intents were).
  try {
    const kept = JSON.parse(localStorage.getItem(bookKey(room)) || "{}");
    return kept && typeof kept === "object" && !Array.isArray(kept) ? kept : {};
  } catch {
    return {};
  }
}

export function keepNonce(room, message) {
  // Write the intent's id, nonce and digest down before it is sent: a lost answer still
  // leaves it on record. A full book (or storage refused) keeps what it has.
  if (!message.id || !message.nonce) return;
  const kept = keptNonces(room);
  if (Object.keys(kept).length >= MAX_KEPT) return;
  kept[message.id] = { nonce: message.nonce, intent: message.digest };
  try {
    localStorage.setItem(bookKey(room), JSON.stringify(kept));
  } catch {
    // private browsing or a full storage: the check then says which entry it cannot vouch for
  }
}

const RULES = "Whether the rules give what each line says is checked by tabletop room verify on your downloaded record (Download my record).";

export function isRoll(entry) {
  // A line with dice to check: its cause drew some, it shows some (those shown apart from
  // a secret), or devices witnessed its draw. A line that drew none has no roll to check.
  const event = entry.event || {};
  if (String(event.type || "").startsWith("room.")) return false;
  const shown = event.data && Array.isArray(event.data.draws) && event.data.draws.length;
  return Boolean(entry.witnessed) || Boolean(event.cause && event.cause.draws && event.cause.draws.length) || Boolean(shown);
}

export function checkRollLink(ctx) {
  // What `entryItem` appends to a roll: a button that checks that one entry here.
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

function checkRoll(ctx, seq) {
  const result = document.getElementById("verified");
  if (!result) return;
  for (const item of document.querySelectorAll("li.entry.checked")) item.classList.remove("checked");
  const item = document.querySelector(`li.entry[data-seq="${seq}"]`);
  if (item) item.classList.add("checked");
  try {
    fill(result, rollReport(ctx, seq));
  } catch (problem) {
    fill(result, h("p", { class: "bad", text: `entry ${seq} cannot be checked here: ${problem.message}` }));
  }
  result.scrollIntoView({ block: "nearest" });
}

function rollReport(ctx, seq) {
  // One line as it arrived on this page: its hash, its link to the line before as this
  // device kept it, its dice, this device's part as a witness, and your nonce.
  const witness = ctx.witness;
  const raw = witness.lines.get(seq);
  if (!raw) throw new Error("this page did not receive it");
  const body = parseExact(raw);
  const me = ctx.me().id;
  const hash = lineHash(body);
  const kept = witness.hashes[seq];
  const before = witness.hashes[seq - 1];
  const rows = [];
  const row = (title, state, text) => rows.push(h("dt", { text: title }), h("dd", { class: state === "good" ? "good" : state === "bad" ? "bad" : "", text }));
  if (hash !== body.hash) row("Hash", "bad", "what the line shows does not match its hash");
  else if (kept && kept !== hash) row("Hash", "bad", `your device kept this entry as ${kept.slice(0, 16)}…, and it now reads ${hash.slice(0, 16)}…`);
  else row("Hash", "good", `matches what the line shows (${hash.slice(0, 16)}…) and what your device kept`);
  if (before === undefined) row("Chain", "", "your device did not see the entry before it (the whole chain: Check my record here)");
  else row("Chain", before === body.prev ? "good" : "bad", before === body.prev ? "follows the entry before, as your device kept it" : "does not follow the entry before as your device kept it");
  const dice = diceCheck(body, seedsOf([...witness.lines.values()].map(parseExact))(seq));
  const faces = (dice.draws || []).map((d) => `d${d.sides}: ${d.face} (${d.face === d.expected ? "matches" : `the keys give ${d.expected}`})`);
  row("Dice", dice.state, [dice.text, ...faces].join("; "));
  const header = body.witnessed ? plain(body.witnessed) : null;
  if (header) {
    const words = witnessWords({ witnessed: header }, ctx.names, me);
    const fair = Object.keys(header.reveals).length
      ? "its keys were fixed, by their hashes, in the call those devices answered, so nobody could know a die before the last answer came"
      : "no device answered its call, so its dice are only as fair as the server";
    row("Witnesses", Object.keys(header.reveals).length ? "good" : "bad", `${words}: ${fair}`);
  }
  const witnessed = witnessCheck(body, me, witness.reveals());
  if (witnessed) row("Your device as a witness", witnessed.state, witnessed.text);
  const nonce = nonceCheck(body, ctx.book(), me);
  row("Your nonce", nonce.state, nonce.text);
  const event = plain(body.event || {});
  return h(
    "section",
    { class: "entry-check", "aria-label": `entry ${seq} checked` },
    h("h3", { text: `Entry ${seq}` }),
    event.text ? h("p", { class: "text", text: event.text }) : null,
    h("dl", {}, rows),
    h("p", { class: "hint", text: RULES }),
  );
}

async function exportText(ctx) {
  const { text } = await ctx.room.get("/export"); // JSON lines (api.js's Lines), kept as sent
  return text;
}

export async function checkRecordHere(ctx, result) {
  // The member's whole export checked here against what this device kept.
  fill(result, h("p", { text: "Checking your record…" }));
  ctx.witness.saveHeads();
  const text = await exportText(ctx);
  const found = checkRecord(text, { book: ctx.book(), hashes: ctx.witness.hashes, reveals: ctx.witness.reveals(), me: ctx.me().id });
  fill(result, recordReport(found));
}

function recordReport(found) {
  if (found.problems.length) {
    const first = found.problems[0];
    return h("div", {},
      h("p", { class: "bad" }, h("strong", { text: `Your record fails at line ${first.line}: ` }), first.text),
      found.problems.length > 1 ? h("p", { class: "bad", text: `and ${found.problems.length - 1} more problem(s).` }) : null,
      h("p", { class: "hint", text: RULES }));
  }
  const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  const parts = [
    `${count(found.entries, "entry", "entries")} chained to ${found.head.slice(0, 16)}…`,
    `${count(found.heads, "entry", "entries")} as your device kept them`,
    `${count(found.reveals, "answer", "answers")} of your device as a witness on the rolls they were for`,
    `${found.mine} of your entries carry the nonce and the intent this browser sent`,
    `${count(found.dice, "die matches its key", "dice match their keys")}`,
    `${count(found.witnessed, "roll", "rolls")} witnessed, ${found.unwitnessed} unwitnessed`,
  ];
  if (found.unknown) parts.push(`${found.unknown} of yours were sent from another device`);
  if (found.pending) parts.push(`${count(found.pending, "roll waits", "rolls wait")} for the GM to end the session before its dice can be checked`);
  return h("div", {},
    h("p", { class: "good" }, h("strong", { text: "Your record checks here: " }), `${parts.join(", ")}.`),
    h("p", { class: "hint", text: RULES }));
}

export async function downloadRecord(ctx) {
  // The export, this browser's nonce book and this device's kept heads, as one file.
  ctx.witness.saveHeads();
  const text = await exportText(ctx);
  const file = bundle({ room: ctx.link.room, me: ctx.me().id, exportText: text, book: ctx.book(), hashes: ctx.witness.hashes, reveals: ctx.witness.reveals() });
  download(`record-${ctx.link.room}.json`, file, "application/json");
}
