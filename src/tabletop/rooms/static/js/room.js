// The room page: one member's table. It reads the link from the URL (the token stays in
// the fragment), joins through an invite, then follows the live socket and redraws each
// part from the member's view, offers and advice as the server gives them.

import { Live, RefusedError, Room, TAIL, call, linkFromLocation, linkUrl, parseLink } from "./api.js";
import { ASK_KINDS, askPanel, askedOfYou } from "./asks.js";
import { Folds, WIDE, card, opens } from "./cards.js";
import { chosen, download, fill, h, labelled, select } from "./dom.js";
import { FormMaker, humanize } from "./forms.js";
import { entryItem, marked, readers, unmarked } from "./log.js";
import { NPC_KINDS, namesAnNpc, npcCard, npcPanel } from "./npcs.js";
import { FORMS_ELSEWHERE, HANDLED, ON_THE_LINE, hiddenPaths, systemPanels } from "./panels.js";
import { belongsTo, sheetLine, sheetTree, sheetView } from "./sheets.js";
import { TurnTeller, isMine, turnBar, turnOf } from "./turns.js";
import { checkRecordHere, checkRollLink, downloadRecord, keepNonce, keptNonces } from "./verify.js";
import { PageWitness } from "./witness.js";

const $ = (id) => document.getElementById(id);

const ROLES = { gm: "GM", player: "player", observer: "observer" };
// A member's role as the page says it.

const READ_ONLY = "Viewing as another member is read-only: the dice box and chat are yours again in the GM view.";

const page = {
  link: null,
  room: null,
  live: null,
  system: "",
  title: "",
  view: null,
  offers: [],
  advice: null,
  address: null,
  entries: [],
  viewingAs: null,
  viewedEntries: [],
  forms: null,
  drafts: new Map(),
  formerNames: new Map(),
  requests: new Map(),
  signatures: new Map(),
  connected: [],
  alarms: new Map(),
  turn: null,
  teller: null,
  folds: null,
  viewFolds: null,
  popped: new URLSearchParams(location.search).get("sheet"),
  // The card this window shows alone, when a sheet was popped out (`?sheet=<id>`).
};

// starting ---------------------------------------------------------------------------------

async function boot() {
  page.link = linkFromLocation();
  if (!page.link) {
    fail("This page opens a room from a link: http://host/rooms/ROOM#TOKEN. Ask your GM for one.");
    return;
  }
  page.room = new Room(page.link);
  let who;
  try {
    who = await page.room.get("/whoami");
  } catch (problem) {
    fail(problem.message);
    return;
  }
  page.system = who.system;
  page.rules = who.rules;
  page.memberId = who.member && who.member.id;
  page.name = who.name;
  const systems = await call("GET", "/systems");
  page.title = (systems.find((s) => s.name === who.system) || {}).title || who.system;
  document.title = `${who.name || who.room} · ${page.title} · tabletop`;
  fill($("room-name"), who.name || `room ${who.room}`);
  fill($("room-system"), page.title);
  if (who.invite) showJoin(who);
  else start();
}

function fail(message) {
  fill($("status"), h("span", { class: "badge bad", text: "not connected" }));
  fill($("main"), h("section", { class: "panel wide" }, h("h2", { text: "This link does not open a room" }), h("p", { role: "alert", text: message })));
}

function showJoin(who) {
  const name = h("input", { type: "text", required: true, maxlength: 60, autocomplete: "nickname" });
  const error = h("p", { class: "error", role: "alert" });
  const form = h(
    "form",
    { class: "panel join" },
    h("h2", { text: `Join ${who.name || "this room"} as ${who.invite === "observer" ? "an observer" : "a player"}` }),
    h("p", { text: `${page.title}. Pick the name the table will see.` }),
    labelled("Your name", name),
    h("button", { type: "submit", text: "Join the table" }),
    error,
  );
  form.addEventListener("submit", async (submitted) => {
    submitted.preventDefault();
    try {
      const joined = await call("POST", `/rooms/${page.link.room}/join`, { token: page.link.token, body: { name: name.value } });
      page.link = parseLink(joined.link);
      page.room = new Room(page.link);
      page.memberId = typeof joined.member === "string" ? joined.member : joined.member.id;
      history.replaceState(null, "", `/rooms/${page.link.room}#${page.link.token}`);
      start();
    } catch (problem) {
      error.textContent = problem.message;
    }
  });
  fill($("main"), form);
  name.focus();
}

async function start() {
  const schema = await call("GET", `/systems/${page.system}/intents?rules=${page.rules}`);
  await followAddress();
  page.forms = new FormMaker(schema, labelOf, page.drafts, knownValues);
  if (page.popped) {
    // A popped-out sheet seen "as" a member is the GM's read-only view of theirs (a member
    // id, nothing else: it becomes part of a path the page asks the server for).
    const as = new URLSearchParams(location.search).get("as");
    page.viewingAs = as && /^[A-Za-z0-9_-]{1,64}$/.test(as) ? as : null;
  }
  fill($("main"), ...layout());
  keepTurnHeight();
  // A card's default follows the screen: drawn again when a window crosses 900 px.
  matchMedia(WIDE).addEventListener("change", () => page.view && render());
  const sending = (message) => keepNonce(page.link.room, message);
  page.witness = new PageWitness(page.link.room, page.memberId, onAlarm);
  const handlers = { entry: onEntry, ack: onAck, error: onError, slowed: onSlowed, status: onStatus, presence: onPresence, notice: onNotice, sending };
  page.live = new Live(page.room, handlers, page.witness);
  // The tail first: a long room shows its latest entries at once; earlier pages load as the
  // log is scrolled to its top (each a read of the member's allowance, never a burst).
  try {
    const tail = await page.room.page(`/log?before=${TAIL}`);
    page.entries = seen(tail);
    page.earlier = tail.links.prev || null;
    if (tail.items.length) page.live.after = tail.items[tail.items.length - 1].seq;
  } catch (problem) {
    fill($("notice"), h("span", { text: problem.message }));
  }
  renderLog(page.entries);
  page.live.start();
}

function seen(got) {
  // A page of the log read over HTTP: every line kept by this device's witness (its hash,
  // for the heads), and the lines to show (a roll's stub, which a witness that may not see
  // the roll receives, is not shown).
  for (const row of got.rows) page.witness.received(row);
  const lines = got.items.filter((line) => line.event);
  rememberNames(lines);
  return lines;
}

async function loadEarlier() {
  // The page of the log before the earliest entry shown, put above it where it was.
  if (!page.earlier || page.loadingEarlier) return;
  page.loadingEarlier = true;
  try {
    const got = await page.room.page(page.earlier);
    page.earlier = got.links.prev || null;
    const earlier = seen(got);
    page.entries = [...earlier, ...page.entries];
    if (!page.viewingAs) {
      const scroll = $("log-scroll");
      const below = scroll.scrollHeight - scroll.scrollTop;
      $("log").prepend(...earlier.map((e) => entryItem(e, memberName, myId(), rollCheck())));
      markTakenBack();
      scroll.scrollTop = scroll.scrollHeight - below;
    }
  } catch (problem) {
    fill($("notice"), h("span", { text: problem.message }));
  } finally {
    page.loadingEarlier = false;
    showEarlier();
  }
}

function showEarlier() {
  const button = $("earlier");
  if (button) button.hidden = !page.earlier || Boolean(page.viewingAs);
}

function onNotice(text) {
  // What the server tells this member (a GM: a member met the room's text allowance).
  fill($("notice"), h("span", { text }));
}

async function followAddress() {
  // The server's address now, read again at every (re)connection: a server started again
  // at another address (tabletop serve --lan) moves the links this page shows, QR codes too.
  page.address = await call("GET", "/address");
  if (page.view) section("members", membersPanel);
}

function onAlarm(text, seq) {
  // What this device's witness found wrong with a roll: said at the top, and on its line.
  page.alarms.set(seq, text);
  const alarm = $("alarm");
  alarm.hidden = false;
  alarm.append(h("p", {}, h("strong", { text: "Your device's check of the dice: " }), text));
  markAlarms();
}

function markAlarms() {
  if (page.viewingAs) return;
  for (const [seq, text] of page.alarms) {
    const item = document.querySelector(`#log li.entry[data-seq="${seq}"]`);
    if (item && !item.classList.contains("alarm")) {
      item.classList.add("alarm");
      item.append(h("span", { class: "alarm-text", text: `Alarm: ${text}` }));
    }
  }
}

function onPresence(connected) {
  // Who has the room open, as the server tells every socket when it changes.
  page.connected = connected;
  if (page.view) section("members", membersPanel);
}

// the live socket ----------------------------------------------------------------------------

function onEntry(entry) {
  page.entries.push(entry);
  rememberNames([entry]);
  if (!page.viewingAs && !page.popped) appendLog(entry);
  scheduleRefresh();
}

function onAck(frame) {
  const request = page.requests.get(frame.id);
  page.requests.delete(frame.id);
  if (request && request.control) request.control.removeAttribute("aria-busy");
  if (request && request.slot.textContent === SENDING_AGAIN) request.slot.textContent = "";
  if (request && request.done) request.done();
}

function onError(frame) {
  const request = page.requests.get(frame.id);
  page.requests.delete(frame.id);
  if (request) {
    if (request.control) request.control.removeAttribute("aria-busy");
    request.slot.textContent = frame.error;
  } else {
    fill($("notice"), h("span", { text: frame.error }));
  }
}

const SENDING_AGAIN = "The server asked this page to slow down: sending it again in a moment…";

function onSlowed(frame) {
  // The member allowance refused this message for now; the socket sends it again.
  const request = page.requests.get(frame.id);
  if (request) request.slot.textContent = SENDING_AGAIN;
}

function onStatus(kind, frame) {
  const status = $("status");
  if (kind === "live") {
    fill(status, h("span", { class: "badge good", text: "live" }));
    page.me = frame.member;
    followAddress().catch((problem) => fill($("notice"), h("span", { "data-from": "refresh", text: `the page could not read the server's address: ${problem.message}` })));
    scheduleRefresh();
  } else if (kind === "reconnecting") {
    fill(status, h("span", { class: "badge warn", text: "reconnecting…" }));
  } else {
    fill(status, h("span", { class: "badge bad", text: "disconnected" }));
    fill($("notice"), h("span", { text: frame.reason || frame.error }));
  }
  document.body.dataset.connection = kind;
}

function send(intent, slot, control, done) {
  slot.textContent = "";
  if (page.viewingAs) {
    // "View as" is read-only: nothing is sent as the GM from another member's page.
    slot.textContent = READ_ONLY;
    return;
  }
  if (control) control.setAttribute("aria-busy", "true");
  const id = page.live.intent(intent);
  page.requests.set(id, { slot, control, done });
}

// reading the table ------------------------------------------------------------------------

let timer = null;
function scheduleRefresh() {
  clearTimeout(timer);
  timer = setTimeout(refresh, 40);
}

async function refresh() {
  try {
    if (page.viewingAs) {
      const [view, lines] = await Promise.all([page.room.get(`/as/${page.viewingAs}`), page.room.lines(`/as/${page.viewingAs}/log?before=${TAIL}`)]);
      page.view = view;
      page.offers = [];
      page.advice = null;
      page.viewedEntries = lines.filter((line) => line.event); // a witness's stubs are not shown
      renderLog(page.viewedEntries);
    } else {
      const [view, legal, advice] = await Promise.all([page.room.get(""), page.room.get("/legal"), page.room.get("/advice")]);
      page.view = view;
      page.offers = legal.offers;
      page.advice = advice.advice;
    }
  } catch (problem) {
    if (problem instanceof RefusedError && problem.status === 429 && problem.retryAfter !== null) {
      // Read too fast for the member allowance: read again when it allows, unasked.
      clearTimeout(timer);
      timer = setTimeout(refresh, Math.max(100, problem.retryAfter * 1000));
      return;
    }
    // Whatever went wrong is said, never swallowed: a page that stops updating silently
    // cannot be trusted (the next entry or reconnect tries again).
    const what = problem instanceof RefusedError ? problem.message : `the page could not read the room: ${problem.message}`;
    fill($("notice"), h("span", { "data-from": "refresh", text: what }));
    return;
  }
  if ($("notice").querySelector("[data-from=refresh]")) fill($("notice"));
  render();
  if (page.view.me.role === "gm" && !page.viewingAs && !page.popped) collectHidden();
}

function labelOf(key, value) {
  if (!page.view || typeof value !== "string") return String(value);
  const character = (page.view.state.characters || []).find((c) => c.id === value);
  if (character) return character.name || character.sheet.name || value;
  const npc = (page.view.state.npcs || []).find((n) => n.id === value);
  if (npc) return npc.name;
  const making = (page.view.state.making || []).find((m) => m.id === value);
  if (making) return making.character.name || "the new character";
  const combatant = (page.view.state.fight?.combatants || []).find((c) => c.id === value);
  if (combatant) return combatant.name;
  const member = page.view.members.find((m) => m.id === value);
  if (member || page.formerNames.has(value)) return memberName(value);
  return value;
}

const CHARACTER_NAMES = new Set(["character", "roller", "characters", "helpers", "helper_effort"]);
const COMBATANT_NAMES = new Set(["id", "attacker", "target", "other_target", "shooter", "commander", "followers"]);
const NPC_NAMES = new Set(["npc", "kept"]);

function knownValues(name, key = "") {
  // The ids a field names that the room holds now: its characters, a fight's combatants,
  // the members who may own a character (a turn order's places list whom its offer
  // names). A combatant's own id (one being added to a fight) is a new id, typed in.
  const state = page.view ? page.view.state : {};
  if (/(^|\/)combatant\/id$/.test(key)) return null;
  if (CHARACTER_NAMES.has(name) && state.characters?.length) return state.characters.map((c) => c.id);
  if (COMBATANT_NAMES.has(name) && state.fight?.combatants?.length) return state.fight.combatants.map((c) => c.id);
  if (NPC_NAMES.has(name) && state.npcs?.length) return state.npcs.map((n) => n.id);
  if (name === "owner" && page.view) return page.view.members.filter((m) => m.role !== "observer").map((m) => m.id);
  return null;
}

function myId() {
  // Whose side the log is told from: the member viewed as, or this link's member (the
  // socket's welcome names them before any entry arrives).
  return page.viewingAs || (page.me ? page.me.id : null);
}

function memberName(id) {
  // A member's name; one the GM removed is called what the log last called them.
  const member = page.view && page.view.members.find((m) => m.id === id);
  if (member) return member.name;
  return page.formerNames.get(id) || (page.view ? "a member who has left" : "a member");
}

function rememberNames(entries) {
  // The names the log gives members as they join or are renamed: what a line names a
  // member by once the GM has removed them from the room.
  for (const { event } of entries) {
    if ((event.type === "room.joined" || event.type === "room.renamed") && event.data.member) page.formerNames.set(event.data.member, event.data.name);
  }
}

function context() {
  return {
    view: page.view,
    offers: page.offers,
    advice: page.advice,
    entries: page.viewingAs ? page.viewedEntries : page.entries,
    room: page.room,
    forms: page.forms,
    labelOf,
    send,
    offerBlock,
    cardButtons,
    frame,
    onTheLine: ON_THE_LINE[page.system] || new Set(),
    sheetLine: (character) => sheetLine(page.system, character),
    character: (id) => labelOf("character", id),
    member: memberName,
  };
}

// drawing --------------------------------------------------------------------------------

function layout() {
  // Each part of the page in the order a phone shows them (app.css): the turn, the member's
  // own characters, what is asked of them, the log, then the rest; from 900 px the log
  // keeps a column of its own, always in view.
  if (page.popped) return [h("div", { id: "popped", class: "area-popped" })];
  return [
    h("div", { id: "turn", class: "area-turn" }),
    h("div", { class: "col col-main" },
      h("div", { id: "mine", class: "area-mine" }),
      h("div", { id: "asks", class: "area-asks" }),
      h("div", { id: "play", class: "area-play" }),
      h("div", { id: "acting", class: "area-acting" }),
      h("div", { id: "characters", class: "area-characters" }),
      h("div", { id: "npcs", class: "area-npcs" })),
    h("div", { class: "col col-log" },
      h("section", { class: "panel area-log", "aria-labelledby": "log-title" },
        h("h2", { id: "log-title", text: "Log" }),
        h("div", { id: "log-scroll", class: "log", role: "log", "aria-live": "polite", "aria-label": "what happened, newest last", tabindex: "0" },
          h("button", { id: "earlier", type: "button", class: "earlier", hidden: true, onclick: loadEarlier, text: "Show earlier entries" }),
          h("ol", { id: "log", class: "entries" })),
        h("p", { class: "hint viewing-note", text: READ_ONLY }),
        diceBox(),
        chatBox())),
    h("div", { class: "col col-side" },
      h("div", { id: "actions", class: "area-actions" }),
      h("div", { id: "gm", class: "area-gm" }),
      h("div", { id: "members", class: "area-members" }),
      h("div", { id: "after", class: "area-after" })),
  ];
}

function keepTurnHeight() {
  // The log's column stays in view under the turn bar, and fits under the page's header
  // before it scrolls away: app.css reads both heights here.
  const root = document.documentElement.style;
  const watch = (el, name) => new ResizeObserver(() => root.setProperty(name, `${el.offsetHeight}px`)).observe(el);
  if ($("turn")) watch($("turn"), "--turn-height");
  watch(document.querySelector("header.top"), "--header-height");
}

function render() {
  const asWho = page.viewingAs ? memberName(page.viewingAs) : null;
  fill($("me"), page.view.me.name, " ", h("span", { class: "badge", text: ROLES[page.view.me.role] }));
  fill($("viewing"), asWho ? h("p", { class: "banner", role: "status" }, `Viewing as ${asWho}: exactly what they see (read-only). `, h("button", { type: "button", onclick: () => viewAs(null), text: "Back to the GM view" })) : "");
  document.body.dataset.role = page.view.me.role;
  document.body.dataset.head = page.view.head;
  document.body.dataset.viewingAs = asWho ? "yes" : "";
  page.turn = turnOf(page.view);
  const teller = page.viewingAs || page.popped ? null : tellerOf();
  if (teller) teller.heard(page.turn, page.view, owners());
  if (page.popped) {
    section("popped", poppedCard);
    return;
  }
  const panels = systemPanels(context());
  const asking = panels.filter((panel) => panel.classList.contains("asking"));
  section("turn", () => turnBar(page.turn, page.view, owners(), teller));
  section("mine", () => cardsPanel("mine", "Your characters"));
  section("asks", () => [askedOfYou(context()), ...asking, choicesPanel()]);
  section("play", () => panels.filter((panel) => !asking.includes(panel)));
  section("acting", () => cardsPanel("acting", "Now acting"));
  section("actions", actionsPanel);
  section("characters", charactersPanel);
  section("npcs", () => npcPanel(context(), (npc) => placeOf(npc.id, null, true) === "npcs"));
  section("members", membersPanel);
  section("gm", gmArea);
  section("after", afterPanel);
  fillWhisperList();
  renameLog();
}

function tellerOf() {
  // Who tells this member when the turn becomes theirs (js/turns.js), made once.
  if (!page.teller) page.teller = new TurnTeller(page.link.room, page.view.me.id, render);
  return page.teller;
}

function renameLog() {
  // Entries drawn before the view arrived (after a reload) name members by id: draw the
  // log again once the names are known, and whenever a member is renamed.
  const names = JSON.stringify(page.view.members.map((m) => [m.id, m.name]));
  if (page.logNames === names) return;
  page.logNames = names;
  renderLog(page.viewingAs ? page.viewedEntries : page.entries);
}

function section(id, build) {
  // Redraw a part only when what it shows changed, keeping focus and open details.
  const el = $(id);
  if (!el) return; // a part the popped-out window does not have
  const built = build();
  const nodes = [built].flat().filter(Boolean);
  const probe = h("div", {}, nodes);
  const signature = probe.innerHTML;
  if (page.signatures.get(id) === signature) return;
  page.signatures.set(id, signature);
  const focused = document.activeElement && el.contains(document.activeElement) ? keyOf(document.activeElement) : null;
  const open = new Set([...el.querySelectorAll("details[open]")].map(keyOf));
  for (const details of probe.querySelectorAll("details")) if (open.has(keyOf(details))) details.open = true;
  el.replaceChildren(...probe.childNodes);
  if (focused) {
    const again = [...el.querySelectorAll("input, select, textarea, button, summary")].find((c) => keyOf(c) === focused);
    if (again) again.focus();
  }
}

function keyOf(el) {
  // A stable name for a control across redraws: the part it is in and its label.
  const part = el.closest("[data-kind], [data-key]");
  const where = part ? part.dataset.kind || part.dataset.key : "";
  if (el.getAttribute("aria-controls")) return `${where}|${el.tagName}|${el.getAttribute("aria-controls")}`; // a fold: Open or Fold
  const field = el.closest(".field");
  const summary = el.tagName === "DETAILS" ? el.querySelector("summary") : null;
  const name = summary || (field && field.querySelector("label")) || el;
  return `${where}|${el.tagName}|${name.textContent.slice(0, 60)}`;
}

function appendLog(entry) {
  const scroll = $("log-scroll");
  if (!scroll) return;
  const atBottom = scroll.scrollHeight - scroll.scrollTop - scroll.clientHeight < 60;
  $("log").append(entryItem(entry, memberName, myId(), rollCheck()));
  if (entry.event.type === "room.undo") markTakenBack();
  markAlarms();
  if (atBottom) scroll.scrollTop = scroll.scrollHeight;
}

function rollCheck() {
  // "check this roll" on the member's own log (not while the GM views as another member).
  if (page.viewingAs) return null;
  return checkRollLink(checking());
}

function checking() {
  // What verify.js checks with: this member, their link, this device's witness and book.
  return { link: page.link, room: page.room, me: () => page.view.me, names: memberName, witness: page.witness, book: () => keptNonces(page.link.room) };
}

function renderLog(entries) {
  if (!$("log")) return;
  $("log").replaceChildren(...entries.map((e) => entryItem(e, memberName, myId(), rollCheck())));
  markTakenBack();
  markAlarms();
  $("log-scroll").scrollTop = $("log-scroll").scrollHeight;
  showEarlier();
  watchTop();
}

function watchTop() {
  // Scrolling the log to its top loads the page before (as pressing the button does).
  const button = $("earlier");
  if (!button || page.watchingTop === button || !("IntersectionObserver" in window)) return;
  page.watchingTop = button;
  new IntersectionObserver((seen) => {
    const scroll = $("log-scroll");
    // only once the member scrolled up a log taller than its box (not a short one's first draw)
    if (seen.some((e) => e.isIntersecting) && scroll.scrollHeight > scroll.clientHeight) loadEarlier();
  }, { root: $("log-scroll") }).observe(button);
}

function diceBox() {
  const notation = h("input", { type: "text", required: true, maxlength: 200, placeholder: "2d6+1, 4d6kh3, d20", autocomplete: "off", spellcheck: "false" });
  const mode = select(["public", "gm", "blind", "self"], "public", (m) => ({ public: "public", gm: "GM (you and the GM)", blind: "blind (only the GM)", self: "self (you and the GM)" })[m]);
  const label = h("input", { type: "text", maxlength: 60, placeholder: "what for", autocomplete: "off" });
  const error = h("p", { class: "error", role: "alert" });
  const button = h("button", { type: "submit", text: "Roll" });
  const form = h("form", { class: "dicebox", "data-key": "dice", "aria-label": "dice box" }, labelled("Dice", notation), labelled("Roll mode", mode), labelled("For", label), button, error);
  form.addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    const intent = { kind: "roll", notation: notation.value.trim(), mode: chosen(mode) };
    if (label.value.trim()) intent.label = label.value.trim();
    send(intent, error, button, () => { notation.select(); });
  });
  return form;
}

function chatBox() {
  const text = h("input", { type: "text", required: true, maxlength: 2000, autocomplete: "off", id: "say-text" });
  const error = h("p", { class: "error", role: "alert" });
  const button = h("button", { type: "submit", text: "Say" });
  const whisper = h("fieldset", { id: "whisper", class: "whisper" }, h("legend", { text: "Whisper to (none: everyone)" }));
  const form = h("form", { class: "chat", "data-key": "chat", "aria-label": "chat" }, labelled("Message", text), whisper, button, error);
  form.addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    if (page.viewingAs) {
      error.textContent = READ_ONLY;
      return;
    }
    const to = [...whisper.querySelectorAll("input:checked")].map((box) => box.value);
    const id = page.live.say(text.value, to);
    page.requests.set(id, {
      slot: error,
      control: button,
      done: () => {
        // The next message is public again unless someone is ticked anew.
        text.value = "";
        for (const box of whisper.querySelectorAll("input:checked")) box.checked = false;
      },
    });
  });
  return form;
}

function fillWhisperList() {
  const whisper = $("whisper");
  if (!whisper) return;
  const others = page.view.members.filter((m) => m.id !== page.view.me.id).map((m) => m.name);
  const now = [...whisper.querySelectorAll("input")].map((box) => box.value);
  if (JSON.stringify(now) === JSON.stringify(others)) return;
  const checked = new Set([...whisper.querySelectorAll("input:checked")].map((box) => box.value));
  fill(whisper, h("legend", { text: "Whisper to (none: everyone)" }), others.map((name, i) => {
    const box = h("input", { type: "checkbox", value: name, id: `whisper-${i}` });
    box.checked = checked.has(name);
    return h("span", { class: "check" }, box, h("label", { for: box.id, text: name }));
  }));
}

const CHARACTER_FIELDS = ["character", "roller"];

function characterField(offer) {
  return CHARACTER_FIELDS.find((f) => offer.fields[f] && offer.fields[f].values);
}

function cardIds() {
  const state = page.view.state;
  return new Set([...(state.characters || []), ...(state.making || [])].map((c) => c.id));
}

function onCards(offer) {
  // A closed offer whose every choice is one card's character's (a basic action, a step of
  // guided creation): its buttons sit on those cards. An offer for one sheet entry sits at
  // that entry, on the sheet (sheets.js), instead.
  const ids = cardIds();
  if (offer.entry || (HANDLED[page.system] || new Set()).has(offer.kind)) return false;
  return offer.intents.length > 0 && offer.intents.every((i) => ids.has(i.character));
}

function cardButtons(id) {
  // The closed offers' choices for one card's character, without repeating its name.
  return page.offers.filter(onCards).map((o) => ({ ...o, intents: o.intents.filter((i) => i.character === id) }))
    .filter((o) => o.intents.length)
    .map((o) => h("div", { class: "closed-offer" }, h("h4", { text: o.text }), page.forms.buttons(o, send, () => null, new Set(["character"]))));
}

function loose(closed) {
  // The offers this member may use that belong to no card, entry or NPC, closed (a row of
  // buttons) or open (a form).
  if (page.viewingAs || page.view.me.role === "observer") return [];
  const handled = HANDLED[page.system] || new Set();
  return page.offers.filter((o) => o.kind !== "roll" && Boolean(o.intents.length) === closed && !handled.has(o.kind) && !NPC_KINDS.has(o.kind) && !ASK_KINDS.has(o.kind) && !namesAnNpc(o) && !characterField(o) && !o.entry && !onCards(o));
}

function offersPanel(id, title, offers, classes = "panel") {
  if (!offers.length) return null;
  return h("section", { class: classes, "aria-labelledby": id }, h("h2", { id, text: title }), offers.map((o) => offerBlock(o)));
}

function choicesPanel() {
  // The closed offers: what is asked of the member now, one press each (a Constitution
  // fight's initiative, begin, each attack).
  return offersPanel("choices-title", "Yours to choose now", loose(true), "panel asking choices");
}

function actionsPanel() {
  // The open ones: a new character, the GM's march or new NPC, a test between two sides.
  return offersPanel("actions-title", "What you can do", loose(false));
}

function offerBlock(o, presets = {}) {
  if (o.intents.length) {
    return h("div", { class: "closed-offer" }, h("h3", { text: o.text }), page.forms.buttons(o, send));
  }
  return h("details", { class: "offer-box", "data-key": `${o.kind}${JSON.stringify(presets)}` }, h("summary", { text: o.text }), page.forms.form(o, send, presets));
}

// the cards -----------------------------------------------------------------------------------

function owners() {
  // Each card's owner, for whose turn it is (an NPC's is the GM's).
  const state = page.view.state;
  return new Map([...(state.characters || []), ...(state.making || [])].map((c) => [c.id, { owner: c.owner }]));
}

function nowIds() {
  return new Set((page.turn ? page.turn.order : []).filter((one) => one.state === "now" && one.id).map((one) => one.id));
}

function placeOf(id, owner, npc = false) {
  // Where a card goes: the member's own first, then whoever's turn it is, then the rest.
  if (owner && owner === myId()) return "mine";
  if (nowIds().has(id)) return "acting";
  return npc ? "npcs" : "characters";
}

function tableCards() {
  // Every card at the table: characters, characters being made, NPCs.
  const state = page.view.state;
  return [
    ...(state.characters || []).filter((c) => !c.npc).map((c) => ({ id: c.id, owner: c.owner, build: () => characterCard(c) })),
    ...(state.making || []).map((m) => ({ id: m.id, owner: m.owner, build: () => makingCard(m) })),
    ...(Array.isArray(state.npcs) ? state.npcs : []).map((npc) => ({ id: npc.id, owner: null, npc: true, build: () => npcCard(context(), npc) })),
  ];
}

function cardsPanel(place, title) {
  // The member's own cards, the one whose turn it is first; or the cards acting now.
  const cards = tableCards().filter((c) => placeOf(c.id, c.owner, c.npc) === place).sort((a, b) => onTurn(b.id) - onTurn(a.id));
  if (!cards.length) return null;
  return h("section", { class: `panel cards ${place}`, "aria-labelledby": `${place}-title` },
    h("h2", { id: `${place}-title`, class: "cards-title", text: title }),
    cards.map((c) => c.build()));
}

function charactersPanel() {
  const state = page.view.state;
  const all = tableCards().filter((c) => !c.npc);
  const here = all.filter((c) => placeOf(c.id, c.owner) === "characters");
  if (all.length && !here.length) return null;
  return h(
    "section",
    { class: "panel cards", "aria-labelledby": "characters-title" },
    h("h2", { id: "characters-title", class: "cards-title", text: all.length > here.length ? "The other characters" : "Characters" }),
    (state.characters || []).length || (state.making || []).length ? null : h("p", { class: "hint", text: "No characters yet: each is made, or brought from a saved file, under “What you can do”." }),
    here.map((c) => c.build()),
  );
}

function frame(spec) {
  // A card as this member has it now: folded or open (their choice, or the default), marked
  // with its place in the turn, with a pop-out link; in the popped-out window, open alone.
  const entry = (page.turn ? page.turn.order : []).find((one) => one.id && one.id === spec.id) || null;
  const yours = Boolean(spec.owner) && spec.owner === myId();
  const role = page.view.me.role;
  const fallback = opens({ mine: yours, now: entry && entry.state === "now", gm: role === "gm", observer: role === "observer" });
  if (!page.folds) page.folds = new Folds(page.link.room, page.me ? page.me.id : page.view.me.id);
  const folds = page.viewingAs ? viewFolds() : page.folds;
  const open = Boolean(page.popped) || folds.isOpen(spec.id, fallback);
  const shown = open || onTurn(spec.id) || !ownTurn() || matchMedia(WIDE).matches;
  const acts = spec.acts(yours ? (shown ? "now" : "body") : "line");
  return card({
    ...spec,
    turn: entry,
    mine: Boolean(entry) && isMine(entry, page.view, owners()),
    open,
    onToggle: page.popped ? null : () => {
      folds.set(spec.id, !open);
      render();
    },
    popUrl: page.popped ? null : popUrl(spec.id),
    tools: acts.tools,
    now: acts.now,
    body: spec.body ? () => [acts.rest, spec.body()] : null,
  });
}

function onTurn(id) {
  // Whether a card's character may act in the turn now (its turn, or free to act).
  return Boolean(page.turn && page.turn.order.some((one) => one.id === id && (one.state === "now" || one.state === "ready")));
}

function ownTurn() {
  // Whether one of this member's characters has the turn: then, on a phone, only that
  // one's actions show under its line, so what is asked of them stays in the first screen.
  const mine = tableCards().filter((c) => c.owner && c.owner === myId());
  return mine.some((c) => onTurn(c.id));
}

function viewFolds() {
  // Folds while viewing as another member: theirs are in their browser, so their defaults,
  // changed here for the GM's looking only, never kept.
  if (!page.viewFolds || page.viewFolds.as !== page.viewingAs) page.viewFolds = Object.assign(new Folds(page.link.room, page.viewingAs, false), { as: page.viewingAs });
  return page.viewFolds;
}

function popUrl(id) {
  // The room page showing one card, as this member (or as the member the GM views as).
  const query = new URLSearchParams({ sheet: id });
  if (page.viewingAs) query.set("as", page.viewingAs);
  return `/rooms/${page.link.room}?${query}#${page.link.token}`;
}

function cardActs(id) {
  // A card's actions, for `frame`: the closed offers' buttons for its character and the
  // forms that name it. Under the member's own card's line, all of them (`now`: on a
  // phone, while another of theirs has the turn, folded with the sheet); on another's, its line
  // keeps those ON_THE_LINE names (what hurts it: the GM's last step of someone else's
  // turn) and the rest fold away with the sheet.
  return (place) => {
    if (page.viewingAs) return { tools: [], now: [], rest: null };
    const field = (o) => characterField(o);
    const elsewhere = FORMS_ELSEWHERE[page.system] || new Set();
    const forms = page.offers.filter((o) => !o.intents.length && !o.entry && !ASK_KINDS.has(o.kind) && !elsewhere.has(o.kind) && field(o) && o.fields[field(o)].values.includes(id));
    const quick = ON_THE_LINE[page.system] || new Set();
    const block = (list) => list.map((o) => offerBlock(o, { [field(o)]: id }));
    const acts = (nodes) => (nodes.length ? h("div", { class: "card-acts" }, nodes) : null);
    const all = () => acts([...block(forms), ...cardButtons(id)]);
    if (place === "now") return { tools: [], now: [all()].filter(Boolean), rest: null };
    if (place === "body") return { tools: [], now: [], rest: all() };
    // its one-press choices (use an item, a basic action) before the forms, whose last ones
    // end it (a character dies)
    const rest = [...cardButtons(id), ...block(forms.filter((o) => !quick.has(o.kind)))];
    return { tools: block(forms.filter((o) => quick.has(o.kind))), now: [], rest: acts(rest) };
  };
}

function characterCard(character) {
  // A sheet the server keeps from this member shows only its public name and that mark.
  const sheet = character.sheet;
  const name = character.name || sheet.name || character.id;
  const line = sheetLine(page.system, character);
  const placed = page.offers.filter((o) => o.entry && belongsTo(o, character.id));
  const ctx = { id: character.id, character, sheet, offers: placed, forms: page.forms, send, labelOf, readOnly: Boolean(page.viewingAs) };
  return frame({
    id: character.id,
    name,
    by: character.owner === myId() ? "" : `played by ${memberName(character.owner)}`,
    line,
    owner: character.owner,
    acts: sheet.hidden ? () => ({ tools: [], now: [], rest: null }) : cardActs(character.id),
    body: sheet.hidden ? null : () => [
      sheetView(page.system, ctx),
      h("div", { class: "row sheet-tools" },
        h("button", { type: "button", class: "quiet", onclick: () => printSheet(character.id), text: "Print this sheet" }),
        h("button", { type: "button", class: "quiet", onclick: () => download(`${name.replace(/[^A-Za-z0-9_-]+/g, "-")}.json`, JSON.stringify(sheet, null, 2)), text: "Save the character file (for the command line)" })),
    ],
  });
}

function makingCard(making) {
  // A character in the making: whose, the decision it waits on, and its steps.
  return frame({
    id: making.id,
    name: `${making.character.name || "a new character"} (being made)`,
    by: making.owner === myId() ? "" : `by ${memberName(making.owner)}`,
    line: { health: "", conditions: [] },
    owner: making.owner,
    acts: cardActs(making.id),
    body: () => (making.step ? creationStep(making) : making.decision ? h("div", { class: "decision-tree" }, sheetTree(making.decision)) : h("p", { class: "hint", text: "Nothing to decide yet." })),
  });
}

function creationStep(making) {
  // A guided creation's open step as the book presents it: what it asks, each choice with
  // what it gives, where its list comes from, and what was left out so far and why.
  const step = making.step;
  const left = making.left_out || [];
  return h("div", { class: "creation-step" },
    h("p", { class: "step-asks", text: step.asks }),
    step.choices.length ? h("ul", { class: "plain step-choices" }, step.choices.map((choice) => h("li", { text: choice }))) : null,
    h("p", { class: "hint step-from", text: step.from }),
    left.length ? h("div", { class: "left-out" }, h("h4", { text: "Left out so far" }), h("ul", { class: "plain" }, left.map((why) => h("li", { text: why })))) : null);
}

function poppedCard() {
  // The popped-out window: one card, open, following the room live.
  const found = tableCards().find((c) => c.id === page.popped);
  if (!found) return h("section", { class: "panel" }, h("h2", { text: "Not at the table" }), h("p", { class: "hint", text: "This card is not at the table (any more): close this window." }));
  const built = found.build();
  const name = built.querySelector(".card-line h3 .name");
  document.title = `${name ? name.textContent : "A sheet"} · ${page.title} · tabletop`;
  return built;
}

function printSheet(id) {
  // The print stylesheet shows the sheet marked here alone (app.css, @media print).
  const printed = document.querySelector(`article.card[data-card="${CSS.escape(id)}"]`);
  if (printed) printed.classList.add("printing");
  document.body.dataset.print = id;
  window.addEventListener("afterprint", () => {
    delete document.body.dataset.print;
    if (printed) printed.classList.remove("printing");
  }, { once: true });
  window.print();
}

function membersPanel() {
  if (!page.view) return null;
  const gm = page.view.me.role === "gm" && !page.viewingAs;
  const online = new Set(page.connected);
  const here = page.view.members.filter((m) => online.has(m.id)).length;
  return h(
    "section",
    { class: "panel", "aria-labelledby": "members-title" },
    h("h2", { id: "members-title", text: "Who is here" }),
    h("p", { class: "hint", text: `${here} of ${page.view.members.length} connected now` }),
    h("ul", { class: "plain members" }, page.view.members.map((m) => h(
      "li",
      { "data-key": `member-${m.id}`, "data-connected": online.has(m.id) ? "yes" : "no" },
      h("span", { class: online.has(m.id) ? "dot on" : "dot", "aria-hidden": "true" }),
      h("span", { class: "name", text: m.name }),
      h("span", { class: "badge", text: ROLES[m.role] }),
      h("span", { class: online.has(m.id) ? "presence on" : "presence", text: online.has(m.id) ? "connected" : "away" }),
      gm && m.id !== page.view.me.id ? memberTools(m) : null,
    ))),
    gm ? invitesPanel() : null,
    h("details", { "data-key": "my-link" }, h("summary", { text: "your own link (keep it to come back)" }), h("p", { class: "link", text: linkUrl(page.link, page.address.url) })),
  );
}

function memberTools(member) {
  const error = h("p", { class: "error", role: "alert" });
  const newName = h("input", { type: "text", maxlength: 60, value: member.name });
  const role = select(["player", "observer", "gm"], member.role, (r) => ROLES[r]);
  const act = (path, body) => async () => {
    error.textContent = "";
    try {
      await page.room.post(path, body());
    } catch (problem) {
      error.textContent = problem.message;
    }
  };
  return h(
    "details",
    { class: "tools", "data-key": `tools-${member.id}` },
    h("summary", { text: "manage", "aria-label": `manage ${member.name}` }),
    h("div", { class: "row" }, labelled("New name", newName), h("button", { type: "button", onclick: act("/rename", () => ({ member: member.name, name: newName.value })), text: "Rename" })),
    h("div", { class: "row" }, labelled("Role", role), h("button", { type: "button", onclick: act("/promote", () => ({ member: member.name, role: chosen(role) })), text: "Change role" })),
    h("button", { type: "button", class: "danger", onclick: act("/kick", () => ({ member: member.name })), text: `Remove ${member.name}` }),
    error,
  );
}

function storedInvites() {
  // The invites this browser kept, at the server's address now (not the one they were
  // made at): a server started again with --lan turns yesterday's invites into links
  // a phone can open.
  try {
    const kept = JSON.parse(localStorage.getItem(`tabletop:invites:${page.link.room}`) || "null");
    return kept && { player: linkUrl(parseLink(kept.player), page.address.url), observer: linkUrl(parseLink(kept.observer), page.address.url) };
  } catch {
    return null;
  }
}

function thisComputerOnly() {
  // What a GM on a server only this computer can reach needs to hear, and what to do.
  if (!page.address.this_machine_only) return null;
  return h(
    "div",
    { class: "reach", role: "note", "data-key": "reach" },
    h("p", { text: "Only this computer can open these links. Phones and other computers cannot reach the server: it was started for this computer alone." }),
    h("p", {}, "To play with people on your network, stop the server and start it again with ", h("code", { text: "tabletop serve --lan" }), ". These invites and their QR codes then open on their phones."),
  );
}

function invitesPanel() {
  const invites = storedInvites();
  const error = h("p", { class: "error", role: "alert" });
  const rotate = async () => {
    try {
      const made = await page.room.post("/invites");
      localStorage.setItem(`tabletop:invites:${page.link.room}`, JSON.stringify({ player: made.player, observer: made.observer }));
      page.signatures.delete("members");
      section("members", membersPanel);
    } catch (problem) {
      error.textContent = problem.message;
    }
  };
  return h(
    "div",
    { class: "invites", "data-key": "invites" },
    h("h3", { text: "Invite links" }),
    thisComputerOnly(),
    invites
      ? ["player", "observer"].map((role) => inviteLink(role, invites[role]))
      : h("p", { class: "hint", text: "This browser did not open the room, so it has no invite links; make new ones." }),
    h("button", { type: "button", onclick: rotate, text: invites ? "New invite links (the old ones stop working)" : "Make invite links" }),
    error,
  );
}

function inviteLink(role, link) {
  const img = h("img", { class: "qr", alt: `QR code of the ${role} invite`, width: 148, height: 148, "data-link": link });
  qrInto(img, link);
  return h(
    "figure",
    { class: "invite", "data-key": `invite-${role}` },
    img,
    h("figcaption", {}, h("strong", { text: role === "player" ? "Players" : "Observers" }), h("span", { class: "link", text: link }),
      h("button", { type: "button", class: "quiet", onclick: (e) => copy(link, e.currentTarget), text: "Copy" })),
  );
}

const qrCache = new Map();
async function qrInto(img, link) {
  if (!qrCache.has(link)) {
    const svg = await call("POST", "/qr", { body: { text: link } });
    qrCache.set(link, URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" })));
  }
  img.src = qrCache.get(link);
}

async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = "Copied";
  } catch {
    button.textContent = "Select and copy the link";
  }
}

function gmArea() {
  // The GM's side: asking for rolls (js/asks.js), then the GM screen.
  return [askPanel(context()), gmPanel()];
}

function gmPanel() {
  if (page.view.me.role !== "gm" && !page.viewingAs) return null;
  const others = page.view.members.filter((m) => m.role !== "gm");
  const chooser = select([null, ...others.map((m) => m.id)], page.viewingAs, (id) => (id ? `${memberName(id)} (${ROLES[page.view.members.find((m) => m.id === id).role]})` : "myself, the GM"));
  chooser.addEventListener("change", () => viewAs(chosen(chooser)));
  return h(
    "section",
    { class: "panel gm-screen", "aria-labelledby": "gm-title" },
    h("h2", { id: "gm-title", text: "GM screen" }),
    labelled("View as", chooser, "renders exactly what that member's page shows"),
    page.viewingAs || !page.view.text ? null : textAllowance(page.view.text),
    page.viewingAs ? null : undoBox(),
    page.viewingAs ? null : h("div", { id: "hidden-things" }, hiddenThings()),
  );
}

function textAllowance(text) {
  // What the members (not the GMs) have typed of the room's allowance, and a way to give
  // them more: the server refuses their chat and notes once it is spent, and says so here.
  const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 2 : 1)} MiB`;
  const error = h("p", { class: "error", role: "alert" });
  const raise = async () => {
    error.textContent = "";
    try {
      await page.room.post("/allowance", { text: Math.min(text.limit * 2, 2 ** 30) });
      scheduleRefresh();
    } catch (problem) {
      error.textContent = problem.message;
    }
  };
  return h("div", { class: "allowance", "data-key": "allowance" },
    h("h3", { text: "What members type" }),
    h("p", { text: `${mib(text.used)} of ${mib(text.limit)} used by chat, notes and labels (each invite's members may use ${mib(text.share)}).` }),
    text.limit < 2 ** 30 ? h("button", { type: "button", onclick: raise, text: `Allow ${mib(Math.min(text.limit * 2, 2 ** 30))}` }) : null,
    error);
}

function takenBack(entries) {
  // The seqs the GM's undos took back.
  return new Set(entries.filter((e) => e.event.type === "room.undo").flatMap((e) => e.event.data.undoes || []));
}

function lastInForce() {
  // The newest resolution not taken back: what an undo would take back now.
  const undone = takenBack(page.entries);
  return page.entries.findLast((e) => !e.event.type.startsWith("room.") && e.event.cause && !e.event.cause.refused && !undone.has(e.seq));
}

const ACTING = ["character", "roller", "attacker", "npc"];
// The fields through which an intent (or a part of it: a fight's action) names whom it is
// for, first found first.

function resolutionOf(first) {
  // The lines of the resolution that starts at `first`: it and those that follow from it.
  const at = page.entries.indexOf(first);
  const after = page.entries.slice(at + 1);
  const end = after.findIndex((e) => e.event.type.startsWith("room.") || e.event.cause);
  return [first, ...(end < 0 ? after : after.slice(0, end))];
}

function undoWords(first) {
  // What an undo takes back, as the GM knows it: the action, whom it was for (else who
  // asked), and every line it wrote, not only the first.
  const cause = first.event.cause;
  const intent = cause.intent || {};
  const action = page.forms.words.kindTitle(intent.kind || first.event.type);
  const parts = [intent, ...Object.values(intent).filter((v) => v && typeof v === "object" && !Array.isArray(v))];
  const named = parts.flatMap((part) => ACTING.map((field) => part[field])).find((value) => typeof value === "string");
  const asker = cause.member && cause.member.id ? memberName(cause.member.id) : "";
  const by = named && labelOf("character", named) !== named ? labelOf("character", named) : asker;
  return { what: `“${action}”${by ? ` by ${by}` : ""}`, lines: resolutionOf(first).map((e) => e.event.text).filter(Boolean) };
}

function undoLines(lines) {
  // A resolution's lines on the undo button: the first three, and how many more.
  const shown = lines.slice(0, 3).flatMap((line, i) => [i ? " · " : "", ...marked(line)]);
  const more = lines.length - 3;
  return more > 0 ? [...shown, ` · and ${more} more line${more === 1 ? "" : "s"}`] : shown;
}

function undoBox() {
  // The GM takes back the latest resolution still in force, after saying yes to what it is.
  const latest = lastInForce();
  const error = h("p", { class: "error", role: "alert" });
  const words = latest ? undoWords(latest) : null;
  const undo = async () => {
    error.textContent = "";
    const lines = words.lines.map((line) => `• ${unmarked(line)}`).join("\n");
    if (!confirm(`Undo ${words.what}? It takes back:\n${lines}\nThe log keeps it, marked as taken back.`)) return;
    try {
      await page.room.post("/undo");
    } catch (problem) {
      error.textContent = problem.message;
    }
  };
  return h("div", { class: "undo", "data-key": "undo" },
    h("h3", { text: "Undo" }),
    latest
      ? h("button", { type: "button", class: "quiet", onclick: undo }, `Undo ${words.what}: `, undoLines(words.lines))
      : h("p", { class: "hint", text: "Nothing to undo." }),
    error);
}

function markTakenBack() {
  // Entries an undo took back stay in the log, struck through and marked.
  if (!$("log")) return;
  const undone = takenBack(page.viewingAs ? page.viewedEntries : page.entries);
  for (const item of $("log").querySelectorAll("li.entry")) {
    const back = undone.has(Number(item.dataset.seq));
    item.classList.toggle("undone", back);
    if (back && !item.querySelector(".badge.back")) item.append(h("span", { class: "badge back", text: "taken back" }));
  }
}

function hiddenThings() {
  const secret = page.entries.filter((e) => e.event.visibility !== "public" && e.event.type !== "room.chat").slice(-12);
  const paths = page.hiddenPaths || [];
  return [
    h("h3", { text: "Hidden from the players" }),
    paths.length || secret.length ? null : h("p", { class: "hint", text: "Nothing is hidden now." }),
    h("ul", { class: "plain secrets" },
      paths.map((p) => h("li", {}, h("span", { class: "badge secret", text: "hidden" }), ` ${p.what}: `, h("strong", { text: summary(p.value) }))),
      secret.map((e) => h("li", {}, h("span", { class: "badge secret", text: readers(e.event, memberName, myId()) }), ` #${e.seq} `, marked(e.event.text)))),
  ];
}

function summary(value) {
  // A hidden value in a few words: a tracker's name and fill, a roll's total, a test's
  // faces, or any record's names and values (an NPC's numbers, a whole sheet), not JSON.
  if (value && typeof value === "object") {
    if ("segments" in value) return `${value.name}: ${value.filled}/${value.segments}${value.kind ? ` (${value.kind})` : ""}`;
    if ("total" in value) return `${value.expression || value.notation || "roll"} = ${value.total}`;
    if (Array.isArray(value.dice) && value.setup) return `${value.setup.attribute} test: ${value.dice.map((d) => d.faces[d.faces.length - 1]).join(", ")}${value.verdict ? `, ${value.verdict}` : ""}`;
  }
  return inWords(value);
}

function inWords(value) {
  // A record as names and values ("Mire hound: abilities (STR 10, AGI 10), health 9"),
  // leaving out what is empty, unset or false.
  if (Array.isArray(value)) return value.map(inWords).join(", ");
  if (!value || typeof value !== "object") return String(value);
  const empty = (v) => v === null || v === false || v === "" || (typeof v === "object" && !Object.keys(v).length);
  const { name, ...rest } = value;
  const parts = Object.entries(rest).filter(([, v]) => !empty(v)).map(([k, v]) => {
    if (v === true) return humanize(k);
    return typeof v === "object" ? `${humanize(k)} (${inWords(v)})` : `${humanize(k)} ${v}`;
  });
  const words = parts.join(", ");
  return typeof name === "string" ? `${name}${words ? `: ${words}` : ""}` : words;
}

async function collectHidden() {
  // What each player's view hides that the GM's holds, through "view as".
  if (!page.view || page.view.me.role !== "gm" || page.viewingAs) return;
  const players = page.view.members.filter((m) => m.role === "player");
  const found = [];
  for (const player of players) {
    let theirs;
    try {
      theirs = await page.room.get(`/as/${player.id}`);
    } catch {
      return; // the server is out of reach: the socket's reconnect brings the next refresh
    }
    for (const item of hiddenPaths(page.view.state, theirs.state)) {
      if (!found.some((f) => f.path === item.path)) found.push(item);
    }
  }
  page.hiddenPaths = found;
  section("gm", gmArea);
}

async function viewAs(memberId) {
  page.viewingAs = memberId;
  page.signatures.clear();
  if (!memberId) renderLog(page.entries);
  await refresh();
}

function afterPanel() {
  if (page.viewingAs) return null;
  const gm = page.view.me.role === "gm";
  const result = h("div", { id: "verified", role: "status" });
  const error = h("p", { class: "error", role: "alert" });
  const dice = page.view.dice;
  const witnessed = dice.format >= 3;
  const end = async () => {
    const asked = witnessed ? "End the session?" : "End the session? Its dice seed is revealed and a new one is committed.";
    if (!confirm(asked)) return;
    try {
      await page.room.post("/end-session");
    } catch (problem) {
      error.textContent = problem.message;
    }
  };
  const doing = (work) => async () => {
    error.textContent = "";
    try {
      await work();
    } catch (problem) {
      error.textContent = problem.message;
    }
  };
  const about = witnessed
    ? "Every die is drawn when the devices connected to the room have answered its call: each line says whose devices witnessed it. This device keeps what it saw and answered, and checks each roll as it comes."
    : ["Dice session ", String(dice.session), ", committed to ", h("code", { text: `${dice.commitment.slice(0, 16)}…` }), ". Every die comes from that seed, revealed when the GM ends the session."];
  return h(
    "section",
    { class: "panel", "aria-labelledby": "after-title" },
    h("h2", { id: "after-title", text: "Dice and the log" }),
    h("p", { class: "hint" }, about),
    h("div", { class: "row" },
      gm ? h("button", { type: "button", onclick: end, text: witnessed ? "End the session" : "End the session (reveal the seed)" }) : null,
      h("button", { type: "button", onclick: doing(() => checkRecordHere(checking(), result)), text: "Check my record here" }),
      h("button", { type: "button", onclick: doing(() => downloadRecord(checking())), text: "Download my record" })),
    result,
    error,
    h("p", {}, h("a", { href: "/help/verify", target: "_blank", rel: "noopener", text: "How anyone can check a log themselves" })),
  );
}

window.addEventListener("DOMContentLoaded", () => {
  // The skip link moves focus to the table without touching the address: its fragment is
  // the member's token, and "#main" in its place would leave a link that opens nothing.
  document.querySelector("a.skip").addEventListener("click", (clicked) => {
    clicked.preventDefault();
    $("main").focus();
  });
  boot().catch((problem) => fail(problem.message));
});
