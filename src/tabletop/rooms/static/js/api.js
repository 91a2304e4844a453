// The room protocol from a page: HTTP for reads and the GM's tools, one websocket for live
// entries and for intents, resumed from the last seq after any drop (docs/rooms.md). The
// socket also witnesses the room's dice (witness.js): its hello names the page's chain,
// and it answers each call that lists it.

import { digest } from "./canon.js";

export class RefusedError extends Error {
  // A refusal's line; `status` and `retryAfter` (seconds) when the server named them.
  constructor(message, status = 0, retryAfter = null) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

export function linkFromLocation() {
  const match = location.pathname.match(/^\/rooms\/([A-Za-z0-9_-]+)$/);
  const token = decodeURIComponent(location.hash.slice(1));
  return match && token ? { room: match[1], token } : null;
}

export function linkUrl(link, base = location.origin) {
  // A link at `base`: this page's own origin, or the server's address for others to open.
  return `${base}/rooms/${link.room}#${link.token}`;
}

export function parseLink(text) {
  const url = new URL(text, location.origin);
  const match = url.pathname.match(/\/rooms\/([A-Za-z0-9_-]+)$/);
  return { room: match[1], token: url.hash.slice(1) };
}

export async function call(method, path, { token, body, raw } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined && !raw) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers,
    cache: "no-store",
    body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
  });
  const type = mediaType(response);
  if (!response.ok) {
    const problem = type === "application/json" ? (await response.json()).error : response.statusText;
    const wait = Number.parseFloat(response.headers.get("retry-after"));
    throw new RefusedError(problem || `the server answered ${response.status}`, response.status, Number.isFinite(wait) ? wait : null);
  }
  if (type === "application/json") return response.json();
  if (type === NDJSON) return new Lines(await response.text(), linksOf(response));
  return response.text();
}

// The pages around a page of the log, from its `Link` header: `{ next, prev }` (paths).
function linksOf(response) {
  const found = {};
  for (const part of (response.headers.get("link") || "").split(",")) {
    const match = part.match(/<([^>]*)>\s*;\s*rel="(next|prev)"/);
    if (match) found[match[2]] = match[1];
  }
  return found;
}

// `before` past any head: the last page of the log, the tail.
export const TAIL = 2 ** 53;

const NDJSON = "application/x-ndjson";

function mediaType(response) {
  // The type without its parameters: only `application/json` is one JSON value; JSON
  // lines (an export, a log) are many, and are read line by line.
  return (response.headers.get("content-type") || "").split(";")[0].trim().toLowerCase();
}

export class Lines {
  // JSON lines as the server sent them (`text`, byte for byte, to download or verify; each
  // line's text in `rows`, for a witness to keep), each line read (`items`), and for a page
  // of the log the pages around it (`links`).
  constructor(text, links = {}) {
    this.text = text;
    this.rows = text.split("\n").filter(Boolean);
    this.items = this.rows.map((line) => JSON.parse(line));
    this.links = links;
  }
}

function randomHex(count) {
  const bytes = crypto.getRandomValues(new Uint8Array(count));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// 128 bits nobody can guess: once a session's seed is revealed, a hidden entry's dice stay
// secret only as long as its nonce does.
export function newNonce() {
  return randomHex(16);
}

export function newId() {
  return randomHex(8);
}

export class Room {
  // One member's link: HTTP calls carry its token; `live()` follows the socket.
  constructor(link) {
    this.link = link;
    this.base = `/rooms/${link.room}`;
  }

  get(path = "") {
    return call("GET", this.base + path, { token: this.link.token });
  }

  post(path, body = {}) {
    return call("POST", this.base + path, { token: this.link.token, body });
  }

  async lines(path) {
    return (await this.page(path)).items;
  }

  async page(path) {
    // One page of the log (`path` from the room's base, or a `Link` the server gave).
    const got = path.startsWith("/rooms/") ? await call("GET", path, { token: this.link.token }) : await this.get(path);
    if (!(got instanceof Lines)) throw new RefusedError(`${path} did not answer with JSON lines`);
    return got;
  }
}

const BACKOFF = [250, 500, 1000, 1500];

// How often one message goes again after the member allowance refused it ("slow down").
const AGAIN = 10;

export class Live {
  // The socket: every entry after the last seen, then each new one; intents sent on it are
  // kept until acknowledged and sent again (same id, nonce and digest) after a reconnect,
  // so none is lost. With a `witness`, every line and call goes through it first.
  constructor(room, handlers, witness = null) {
    this.room = room;
    this.on = handlers;
    this.witness = witness;
    this.after = 0;
    this.pending = new Map();
    this.attempt = 0;
    this.stopped = false;
    this.tries = new Map();
    this.waiting = new Set();
  }

  start() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}${this.room.base}/live`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      const hello = { type: "hello", token: this.room.link.token, after: this.after };
      if (this.witness) hello.witness = this.witness.hello();
      socket.send(JSON.stringify(hello));
    });
    socket.addEventListener("message", (message) => this.receive(JSON.parse(message.data), message.data));
    socket.addEventListener("close", () => this.dropped(socket));
  }

  receive(frame, raw) {
    if (frame.type === "call") {
      const reveal = this.witness && this.witness.answer(frame);
      if (reveal && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(reveal));
      return;
    }
    if ("seq" in frame) {
      if (frame.seq <= this.after) return;
      this.after = frame.seq;
      if (this.witness) this.witness.received(raw);
      if (frame.event) this.on.entry(frame); // a stub (a roll this page witnessed, not seen) is kept, not shown
      return;
    }
    if (frame.type === "welcome") {
      if (this.witness) this.witness.welcome(frame);
      this.attempt = 0;
      this.on.status("live", frame);
      for (const message of this.pending.values()) this.socket.send(JSON.stringify(message));
    } else if (frame.type === "ack") {
      this.pending.delete(frame.id);
      this.tries.delete(frame.id);
      this.on.ack(frame);
    } else if (frame.type === "error") {
      if (frame.status === 429 && this.again(frame)) return;
      if (frame.id) this.pending.delete(frame.id);
      this.tries.delete(frame.id);
      // 503: the room is moving to another server process; the socket closes and the
      // reconnect reaches it. 429: too many at once. Anything else stops for good.
      if (frame.status && frame.status !== 429 && frame.status !== 503) {
        this.stopped = true;
        this.on.status("refused", frame);
      } else {
        this.on.error(frame);
      }
    } else if (frame.type === "presence") {
      this.on.presence(frame.connected);
    } else if (frame.type === "notice") {
      if (this.on.notice) this.on.notice(frame.text);
    } else if (frame.type === "bye") {
      // The server is stopping, or this socket fell behind, or the link was revoked: try
      // again; a revoked link's hello is refused, which stops for good.
      this.on.status("reconnecting", frame);
    }
  }

  again(frame) {
    // An intent or a chat line the member allowance refused goes again after the wait the
    // server named, once for each message already waiting to go again (the wait is for one
    // message), a few times over: a page that pressed fast settles instead of waiting for an
    // answer that never comes. (A reveal a roll awaits is never refused.)
    const message = this.pending.get(frame.id);
    const tries = (this.tries.get(frame.id) || 0) + 1;
    if (!message || frame.retry_after === undefined || tries > AGAIN) return false;
    this.tries.set(frame.id, tries);
    this.waiting.add(frame.id);
    const socket = this.socket;
    setTimeout(() => {
      this.waiting.delete(frame.id);
      if (socket === this.socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    }, Math.max(100, frame.retry_after * 1000 * this.waiting.size));
    if (this.on.slowed) this.on.slowed(frame);
    return true;
  }

  dropped(socket) {
    if (socket !== this.socket || this.stopped) return;
    const wait = BACKOFF[Math.min(this.attempt, BACKOFF.length - 1)];
    this.attempt += 1;
    this.on.status("reconnecting", { wait });
    setTimeout(() => this.start(), wait);
  }

  send(message) {
    const id = message.id || newId();
    const full = { id, ...message }; // its id first: a refusal names it from the first bytes
    this.pending.set(id, full);
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(full));
    }
    return id;
  }

  intent(intent) {
    const message = { type: "intent", intent, id: newId(), nonce: newNonce(), digest: digest(intent) };
    if (this.on.sending) this.on.sending(message); // kept before it goes out (verify.js)
    return this.send(message);
  }

  say(text, to = []) {
    return this.send({ type: "say", text, to });
  }
}
