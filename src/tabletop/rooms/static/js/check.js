// What the page checks of a room's log on the member's own machine (docs/rooms.md, "In the
// browser"): each line's hash from what it shows, the chain, the heads this device kept, the
// values it revealed as a witness, its nonces and the digests of its intents, and every die
// it may see against the keys that drew it. Whether the rules give what each line says is
// for `tabletop room verify` to check, from the member's downloaded record.

import { Num, canonical, digest, parseExact } from "./canon.js";
import { fromHex, hmac, sha256hex } from "./sha256.js";

const PARTS = ["told", "why", "asked"];
const GENESIS = "0".repeat(64);
const SPAN = 1n << 64n;

function plain(value) {
  // A value read with `parseExact` as a plain one (numbers as numbers), to read, not to hash.
  if (value instanceof Num) return Number(value.raw);
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

function partOf(part, body, salt) {
  // A part of an entry as its hash covers it (rooms/log.py's told_part, why_part, asked_part).
  const event = body.event || {};
  if (part === "told") {
    const told = { ...event };
    delete told.cause;
    return { event: told, salt };
  }
  if (part === "why") {
    const why = { cause: event.cause === undefined ? null : event.cause, salt };
    return body.secret === undefined ? why : { ...why, secret: body.secret };
  }
  const asked = { client: body.client ?? null, nonce: body.nonce ?? null, salt };
  return "member" in body ? { ...asked, intent: body.intent ?? null, member: body.member } : asked;
}

export function seals(body) {
  // Each part's hash: from its content where the line opens it, else as the line gives it.
  const salt = body.salt || {};
  const sealed = body.sealed || {};
  const found = {};
  for (const part of PARTS) {
    if (typeof salt[part] === "string") found[part] = digest(partOf(part, body, salt[part]));
    else if (typeof sealed[part] === "string") found[part] = sealed[part];
    else throw new Error(`it holds neither its ${part} part nor that part's hash`);
  }
  return found;
}

export function lineHash(body) {
  // An entry's hash from what its line shows (rooms/log.py's header_hash).
  const header = { seq: body.seq, time: body.time, prev: body.prev, public: body.public ?? null, ...seals(body) };
  if (body.witnessed !== undefined && body.witnessed !== null) header.witnessed = body.witnessed;
  return digest(header);
}

export function callOf(body) {
  // The call a witnessed line's roll was resolved for, rebuilt from what the line shows.
  const header = body.witnessed;
  return digest({
    seq: body.seq,
    prev: body.prev,
    commitment: header.commitment,
    asked: seals(body).asked,
    witnesses: header.witnesses,
  });
}

class FairDice {
  // rooms/fairdice.py's FairDice: HMAC-SHA256(key, "<position>:<k>"), four big-endian 64-bit
  // numbers a block; a die of s faces takes the next number under 2**64 - 2**64 mod s.
  constructor(key, position) {
    this.key = key;
    this.prefix = `${position}:`;
    this.counter = 0;
    this.buffer = [];
  }

  next() {
    if (!this.buffer.length) {
      const block = hmac(this.key, this.prefix + this.counter);
      this.counter += 1;
      const view = new DataView(block.buffer);
      this.buffer = [24, 16, 8, 0].map((at) => view.getBigUint64(at));
    }
    return this.buffer.pop();
  }

  roll(sides) {
    const faces = BigInt(sides);
    const limit = SPAN - (SPAN % faces);
    for (;;) {
      const number = this.next();
      if (number < limit) return Number(number % faces) + 1;
    }
  }
}

export function facesOf(key, position, sides, count = 12) {
  // `count` dice of `sides` from a key's stream at a position (tests/pages/test_checking.py
  // compares them with rooms/fairdice.py's).
  const dice = new FairDice(key, position);
  return Array.from({ length: count }, () => dice.roll(sides));
}

function keyOf(hex, committed, what) {
  const key = fromHex(String(hex));
  if (sha256hex(key) !== committed) throw new Error(`its ${what} key is not the one its call committed to`);
  return key;
}

function position(body) {
  return `${plain(body.seq)}:${digest(body.witnessed.reveals)}`;
}

function against(draws, roll, source) {
  // Each die shown beside what `roll` gives for its sides.
  const shown = draws.map((draw) => ({ sides: plain(draw.sides), face: plain(draw.face) }));
  for (const draw of shown) draw.expected = roll(draw.sides);
  const good = shown.every((draw) => draw.face === draw.expected);
  return { state: good ? "good" : "bad", text: good ? `every die is what ${source} give` : `a die is not what ${source} give`, draws: shown };
}

export function diceCheck(body, seeds = {}) {
  // The dice a line shows its reader against what drew them: a witnessed roll's keys (the
  // cause's, or the open key its header shows beside the dice shown apart), or a format-2
  // room's revealed seed (`seeds`: session → seed, for the session the entry was drawn in).
  const event = body.event || {};
  const cause = event.cause;
  const header = body.witnessed;
  try {
    if (!cause) {
      const shown = event.data && event.data.draws;
      if (!Array.isArray(shown) || !shown.length) return { state: "sealed", text: "its dice are kept from you" };
      if (!header || !header.open) {
        const named = shown.map((d) => `a d${plain(d.sides)} showing ${plain(d.face)}`).join(", ");
        return { state: "shown", text: `your dice here are ${named}; the line also holds dice kept from you, so the GM's record checks them all (tabletop room verify)` };
      }
      const opened = keyOf(header.open, header.commitment.open, "open");
      const dice = new FairDice(opened, position(body));
      return against(shown, (sides) => dice.roll(sides), "its open key and witnesses");
    }
    const draws = cause.draws || [];
    if (!draws.length) return { state: "none", text: "no dice were drawn" };
    if (header) {
      const keys = body.secret || {};
      const where = position(body);
      const kept = new FairDice(keyOf(keys.kept, header.commitment.kept, "kept"), where);
      const opened = new FairDice(keyOf(keys.open, header.commitment.open, "open"), where);
      const openAt = new Set((keys.open_at || []).map(plain));
      let at = 0;
      const roll = (sides) => ((openAt.has(at++) ? opened : kept).roll(sides));
      return against(draws, roll, "its keys and witnesses");
    }
    const seed = seeds.seed;
    if (!seed) return { state: "pending", text: "dice are checkable once the GM ends the session" };
    const dice = new FairDice(fromHex(seed), `${cause.member.id}:${body.nonce}`);
    return against(draws, (sides) => dice.roll(sides), "the seed");
  } catch (problem) {
    return { state: "bad", text: `its dice cannot be checked: ${problem.message}` };
  }
}

export function askerOf(body) {
  // Who asked for the entry's resolution, when the line says.
  if (typeof body.member === "string") return body.member;
  const event = body.event || {};
  if (event.cause && event.cause.member) return event.cause.member.id;
  return typeof event.actor === "string" ? event.actor : null;
}

export function nonceCheck(body, book, me) {
  // Whether an entry this member asked for carries the nonce, and the digest of the intent,
  // this browser wrote down when it sent it.
  const salt = body.salt || {};
  if (typeof salt.asked !== "string" || body.nonce === null || body.nonce === undefined) {
    return { state: "none", text: "no nonce of yours: you did not ask for this entry" };
  }
  if (askerOf(body) !== me) return { state: "others", text: "another member's request" };
  const kept = book[body.client];
  if (kept === undefined) return { state: "unknown", text: "sent from another device or before this browser kept nonces" };
  const nonce = typeof kept === "string" ? kept : kept.nonce;
  if (nonce !== body.nonce) return { state: "bad", text: "it carries a nonce this browser did not send" };
  if (kept.intent && "intent" in body && digest(body.intent) !== kept.intent) {
    return { state: "bad", text: "it carries another intent than the one this browser sent with that nonce" };
  }
  return { state: "good", text: `it carries the nonce this browser sent${kept.intent ? " and the intent it sent with it" : ""}` };
}

export function witnessCheck(body, me, reveals) {
  // What a witnessed roll did with this device: listed, its value used for the call it was
  // revealed for, or named absent; a roll no device witnessed says so.
  const header = body.witnessed;
  if (!header) return null;
  const seq = plain(body.seq);
  const mine = reveals.find((kept) => kept.seq === seq && kept.value === header.reveals[me]);
  if (!header.witnesses.includes(me)) return { state: "none", text: "your device did not witness it (it was not connected)" };
  if (header.reveals[me] === undefined) return { state: "warn", text: "your device was named absent: it did not answer in time" };
  if (!mine) return { state: "unknown", text: "your device's value is on it; this browser did not keep that answer" };
  if (mine.call !== callOf(body)) return { state: "bad", text: "it holds your device's value, revealed for another call" };
  return { state: "good", text: "it holds the value your device revealed for its call" };
}

export function seedsOf(bodies) {
  // A format-2 log's revealed seeds, by the seq of each entry drawn in that session.
  let session = 0;
  const sessionAt = new Map();
  const revealed = new Map();
  for (const body of bodies) {
    const event = body.event || {};
    if (event.type === "room.dice-committed") session = plain(event.data.session);
    if (event.type === "room.session-ended" && event.data && event.data.seed) revealed.set(plain(event.data.session), event.data.seed);
    sessionAt.set(plain(body.seq), session);
  }
  return (seq) => ({ seed: revealed.get(sessionAt.get(seq)) });
}

export function checkRecord(text, { book, hashes, reveals, me }) {
  // A member's whole export, checked here: every problem found and how much held.
  const rows = text.split("\n").filter((line) => line.trim());
  const found = { problems: [], entries: 0, heads: 0, reveals: 0, mine: 0, unknown: 0, dice: 0, witnessed: 0, unwitnessed: 0, pending: 0 };
  const fail = (line, what) => found.problems.push({ line, text: what });
  if (!rows.length) {
    fail(1, "the record holds no log");
    return found;
  }
  const bodies = [];
  let prev = GENESIS;
  for (const [index, row] of rows.slice(0, -1).entries()) {
    const number = index + 1;
    let body;
    try {
      body = parseExact(row);
      if (plain(body.seq) !== number) throw new Error(`expected entry ${number} here`);
      if (body.prev !== prev) throw new Error("it does not follow the line before (its prev hash differs)");
      if (lineHash(body) !== body.hash) throw new Error("what it shows does not match its hash (edited?)");
    } catch (problem) {
      fail(number, problem.message);
      return found;
    }
    prev = body.hash;
    bodies.push(body);
  }
  found.entries = bodies.length;
  found.head = prev;
  let trailer;
  try {
    trailer = plain(parseExact(rows[rows.length - 1])).export;
  } catch {
    trailer = null;
  }
  if (!trailer || trailer.count !== bodies.length || trailer.head !== prev) fail(rows.length, "its last line does not name the log's end");
  const bySeq = new Map(bodies.map((body) => [plain(body.seq), body]));
  for (const [seq, hash] of Object.entries(hashes)) {
    const body = bySeq.get(Number(seq));
    if (!body) fail(rows.length, `your device saw entry ${seq}; this record ends at entry ${bodies.length} (cut short)`);
    else if (body.hash !== hash) fail(Number(seq), `your device saw entry ${seq} as ${hash.slice(0, 12)}…; this record has ${body.hash.slice(0, 12)}… (rewritten or forked)`);
    else found.heads += 1;
  }
  const named = new Set(bodies.flatMap((body) => ((body.witnessed || {}).skipped || {})[me] || []));
  for (const kept of reveals) {
    const body = bySeq.get(kept.seq);
    if (named.has(kept.call)) found.reveals += 1;
    else if (!body || !body.witnessed) fail(kept.seq, `your device witnessed a roll at entry ${kept.seq}; the record holds no roll there`);
    else if (callOf(body) !== kept.call) fail(kept.seq, `your device witnessed another call at entry ${kept.seq} (the roll was replaced)`);
    else if (body.witnessed.reveals[me] !== kept.value) fail(kept.seq, `the roll at entry ${kept.seq} does not hold the value your device revealed for it`);
    else found.reveals += 1;
  }
  const seeds = seedsOf(bodies);
  for (const body of bodies) {
    const seq = plain(body.seq);
    const nonce = nonceCheck(body, book, me);
    if (nonce.state === "bad") fail(seq, nonce.text);
    if (nonce.state === "good") found.mine += 1;
    if (nonce.state === "unknown") found.unknown += 1;
    const dice = diceCheck(body, seeds(seq));
    if (dice.state === "bad") fail(seq, dice.text);
    if (dice.state === "good") found.dice += dice.draws.length;
    if (dice.state === "pending") found.pending += 1;
    if (body.witnessed) {
      if (Object.keys(body.witnessed.reveals).length) found.witnessed += 1;
      else found.unwitnessed += 1;
    }
  }
  return found;
}

export function bundle({ room, me, exportText, book, hashes, reveals }) {
  // The member's record as one file (rooms/bundles.py): `tabletop room verify FILE`.
  const heads = [
    ...Object.entries(hashes).map(([seq, hash]) => ({ seq: Number(seq), hash })),
    ...reveals.map(({ seq, call, value }) => ({ seq, call, value })),
  ];
  return JSON.stringify({ bundle: 1, room, member: me, export: exportText, nonces: book, heads });
}

export { canonical, parseExact, plain };
