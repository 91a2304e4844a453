// The page as a witness of its room's dice (docs/rooms.md, "Dice anyone can audit"): it
// names the head of a hash chain on its socket's hello, answers every call that lists it
// with the next value down that chain (naming the calls of the values it passes over),
// keeps the hash of every line it receives and every value it revealed, and raises an
// alarm when a roll appended while it was connected does not list it or did not use its
// value for the call it was revealed for. rooms/witnessing.py is the terminal's.
//
// Kept in localStorage, per room and member: the chain (`tabletop.witness.*`), the heads
// (`tabletop.heads.*`, seq → hash) and the reveals (`tabletop.reveals.*`), each written
// before what it records goes out. The pages of one browser share them.

import { parseExact } from "./canon.js";
import { callOf, plain } from "./check.js";
import { sha256hex, toHex } from "./sha256.js";

const CHAIN = 1024; // values in a chain: rooms/fairdice.py's CHAIN
const SAVE_HEADS = 1000; // ms between writes of the kept heads

function read(key, otherwise) {
  try {
    const kept = JSON.parse(localStorage.getItem(key) || "null");
    return kept === null ? otherwise : kept;
  } catch {
    return otherwise;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // private browsing or a full storage: the page still witnesses, and its check says
    // what it could not keep
  }
}

function newSecret() {
  return toHex(crypto.getRandomValues(new Uint8Array(32)));
}

function chainOf(secret) {
  // [v_0, v_1, …, v_1024]: the head is the last; values are revealed from the end.
  const values = [secret];
  for (let i = 0; i < CHAIN; i += 1) values.push(sha256hex(fromHexBytes(values[i])));
  return values;
}

function fromHexBytes(text) {
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

export class PageWitness {
  constructor(room, member, onAlarm) {
    this.room = room;
    this.member = member;
    this.onAlarm = onAlarm;
    this.keys = {
      chain: `tabletop.witness.${room}.${member}`,
      heads: `tabletop.heads.${room}.${member}`,
      reveals: `tabletop.reveals.${room}.${member}`,
    };
    this.hashes = read(this.keys.heads, {});
    this.lines = new Map(); // seq → the line as received, for "check this roll"
    this.since = Infinity;
    this.answered = new Map(); // this connection's reveals: seq → {call, value, passed}
    this.active = true; // whether this device's chain was its member's at the latest call
    this.saving = null;
    this.values = null;
    this.secret = null;
    this.chain(true); // made (and kept) before the first hello names its head
    window.addEventListener("pagehide", () => this.saveHeads());
  }

  chain(renew = false) {
    // The chain as kept now (another page of this browser may have revealed since); a
    // fresh one when none is kept, or (`renew`, at a hello) when the kept one is spent.
    let kept = read(this.keys.chain, null);
    if (!kept || typeof kept.secret !== "string" || (renew && kept.used >= CHAIN)) {
      kept = { secret: newSecret(), used: 0, pending: [] };
      write(this.keys.chain, kept);
    }
    if (kept.secret !== this.secret) {
      this.secret = kept.secret;
      this.values = chainOf(kept.secret);
    }
    return kept;
  }

  get head() {
    return this.values[CHAIN];
  }

  hello() {
    // The head a socket's hello names: a spent chain's successor, made and kept first.
    this.chain(true);
    return this.head;
  }

  reveals() {
    return read(this.keys.reveals, []);
  }

  welcome(frame) {
    // A new connection: rolls after the head it was welcomed at must list this device.
    this.since = frame.head;
    this.answered = new Map();
  }

  answer(frame) {
    // The reveal to send for a call that lists this device, written down first; the same
    // value again if another page of this browser answered this very call.
    if (!frame.witnesses.includes(this.member)) return null;
    // Its member witnesses with one device at a time, the one that said hello last: another
    // device of theirs (a phone, the terminal) answers while it is the one named.
    this.active = !frame.heads || frame.heads[this.member] === undefined || frame.heads[this.member] === this.head;
    if (!this.active) return null;
    const before = this.answered.get(frame.seq);
    if (before && before.call !== frame.call) {
      this.alarm("A roll your device witnessed was dropped after your device answered it, and called again: whoever runs the server could have chosen between two outcomes.", frame.seq);
    }
    const reveals = this.reveals();
    const known = reveals.find((kept) => kept.call === frame.call);
    let value;
    let passed;
    if (known) {
      ({ value, passed } = known);
    } else {
      const kept = this.chain();
      if (kept.used >= CHAIN) return null; // spent: silent until a fresh chain's hello
      passed = kept.pending.map(([call]) => call);
      kept.used += 1;
      value = this.values[CHAIN - kept.used];
      kept.pending.push([frame.call, value]);
      write(this.keys.chain, kept);
      reveals.push({ seq: frame.seq, call: frame.call, value, passed });
      write(this.keys.reveals, reveals);
    }
    this.answered.set(frame.seq, { call: frame.call, value, passed });
    return { type: "reveal", call: frame.call, value, passed };
  }

  received(raw) {
    // A line as it arrived: its hash kept; a roll's header checked against this device.
    const body = parseExact(raw);
    const seq = plain(body.seq);
    this.lines.set(seq, raw);
    this.hashes[seq] = body.hash;
    this.scheduleSave();
    const header = body.witnessed;
    if (!header) return;
    const used = header.reveals[this.member];
    if (used !== undefined) this.settle(used);
    if (seq > this.since) this.check(seq, body, header, used);
  }

  settle(value) {
    // A roll used `value`: it and every value this device revealed before it are settled.
    const kept = this.chain();
    const at = kept.pending.findIndex(([, pending]) => pending === value);
    if (at >= 0) {
      kept.pending = kept.pending.slice(at + 1);
      write(this.keys.chain, kept);
    }
  }

  check(seq, body, header, used) {
    const mine = this.answered.get(seq);
    this.answered.delete(seq);
    if (!header.witnesses.includes(this.member)) {
      this.alarm("A roll was made while your device was connected, and it does not list your device as a witness.", seq);
    } else if (!mine && this.active) {
      this.alarm("A roll lists your device as a witness, but no call for it reached your device.", seq);
    } else if (!mine) {
      // another device of this member witnesses now
    } else if (callOf(body) !== mine.call) {
      this.alarm("A roll your device witnessed was replaced by another call after your device answered it.", seq);
    } else if (used !== mine.value) {
      this.alarm("A roll does not hold the value your device revealed for it in time.", seq);
    } else if (JSON.stringify((header.skipped || {})[this.member] || []) !== JSON.stringify(mine.passed)) {
      this.alarm("A roll misnames the values of your device's it passed over.", seq);
    }
  }

  alarm(text, seq) {
    this.onAlarm(text, seq);
  }

  scheduleSave() {
    if (this.saving) return;
    this.saving = setTimeout(() => this.saveHeads(), SAVE_HEADS);
  }

  saveHeads() {
    clearTimeout(this.saving);
    this.saving = null;
    write(this.keys.heads, this.hashes);
  }
}

export function witnessWords(entry, names, me) {
  // Who witnessed a roll, in words for its line: every member by name ("you" for this
  // one), who was absent, whose earlier value a dropped call passed over; "unwitnessed"
  // when no device was connected or none answered.
  const header = entry.witnessed;
  if (!header) return null;
  const who = (id) => (id === me ? "you" : names(id));
  const list = (ids) => (ids.length <= 1 ? ids.join("") : `${ids.slice(0, -1).join(", ")} and ${ids[ids.length - 1]}`);
  const revealed = header.witnesses.filter((id) => header.reveals[id] !== undefined).map(who);
  const absent = (header.absent || []).map(who);
  const parts = [];
  if (!header.witnesses.length) parts.push("unwitnessed: no device was connected to witness it");
  else if (!revealed.length) parts.push(`unwitnessed: ${list(absent)} did not answer`);
  else {
    parts.push(`witnessed by ${list(revealed)}`);
    if (absent.length) parts.push(`${list(absent)} did not answer`);
  }
  const skipped = Object.entries(header.skipped || {});
  for (const [id, calls] of skipped) {
    const whose = id === me ? "your device's" : `${names(id)}'s device's`;
    parts.push(`${calls.length === 1 ? "a value" : `${calls.length} values`} of ${whose} passed over, revealed for a roll called and dropped before this one`);
  }
  return parts.join(" · ");
}
