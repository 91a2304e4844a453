// The lobby: a GM opens a room for a system, under the rule readings chosen in "Rules of this
// table", and lands on its page with the invites ready.

import { call, linkUrl, parseLink } from "./api.js";
import { fill, h } from "./dom.js";
import { FormMaker, Words } from "./forms.js";
import { serverKeyField } from "./serverkey.js";

const SCALARS = new Set(["string", "integer", "number", "boolean"]);

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function spoken(value) {
  return value === null ? "none" : typeof value === "boolean" ? (value ? "yes" : "no") : String(value).replace(/_/g, " ");
}

function typed(spec) {
  // What a typed field takes when the schema says no more: its default and its bounds.
  const low = spec.minimum ?? null;
  const high = spec.maximum ?? null;
  const bounds = low !== null && high !== null ? ` (${low} to ${high})` : low !== null ? ` (at least ${low})` : high !== null ? ` (at most ${high})` : "";
  return `Default: ${spoken(spec.default)}${bounds}.`;
}

function optionWords(said, properties, resolve) {
  // The system's words for its rule options (the server's `x-words`), as a form's: each
  // option's label and help (a typed one's default and bounds after it), and its values'
  // words, the default's marked.
  const fields = {};
  const values = {};
  for (const [name, words] of Object.entries(said || {})) {
    const spec = resolve(properties[name] || {});
    const more = spec.enum || spec.type === undefined ? "" : typed(spec);
    if (words.label) fields[name] = { label: words.label, help: [words.help, more].filter(Boolean).join(" ") };
    values[name] = Object.fromEntries(Object.entries(words.values || {}).map(([value, text]) => [value, text + (value === String(spec.default) ? " (default)" : "")]));
  }
  return new Words({ fields, values });
}

function notOffered(system, names, words) {
  // The options a field cannot hold (a list, a table), by their words; the command that
  // sets them names them as it takes them, as code (what a GM types, not what they read).
  if (!names.length) return null;
  const listed = names.map((name) => words.fieldTitle("rules", name)).join("; ");
  const command = `tabletop room new --system ${system} ${names.map((name) => `--option ${name}=…`).join(" ")}`;
  return h("p", { class: "hint not-offered" },
    `Not offered here, as each takes a list or a table: ${listed}. To change them, open the room from the command line: `,
    h("code", { text: command }));
}

async function rulesOf(system, box) {
  // One field per option of `system` that one field can hold, its default chosen; returns
  // a reader of the options changed from their defaults.
  const schema = await call("GET", `/systems/${encodeURIComponent(system)}/options`);
  const properties = schema.properties || {};
  const defaults = {};
  const unsaid = (name, value) => spoken(value) + (same(value, defaults[name]) ? " (default)" : "");
  const maker = new FormMaker(schema, unsaid, new Map(), () => null, new Words());
  const words = optionWords(schema["x-words"], properties, (prop) => maker.resolve(prop));
  maker.words = words;
  const fields = [];
  const readers = [];
  const skipped = [];
  for (const [name, prop] of Object.entries(properties)) {
    const spec = maker.resolve(prop);
    if (!SCALARS.has(spec.type)) {
      skipped.push(name);
      continue;
    }
    defaults[name] = spec.default;
    const hint = spec.description || (spec.enum ? "" : typed(spec));
    const field = maker.control(`rules/${name}`, name, prop, { help: hint }, false, spec.default);
    fields.push(field.el);
    readers.push([name, field.read]);
  }
  const intro = fields.length
    ? `Readings of unclear rules; docs/rules/${system}.md explains each. Only the ones you change are sent.`
    : "This system has no rule options.";
  fill(box, h("summary", { text: "Rules of this table" }), h("p", { class: "hint", text: intro }), notOffered(system, skipped, words), fields);
  return () => {
    const changed = {};
    for (const [name, read] of readers) {
      const value = read();
      if (value !== undefined && !same(value, defaults[name])) changed[name] = value;
    }
    return changed;
  };
}

async function boot() {
  const systemSelect = document.getElementById("system");
  const error = document.getElementById("error");
  const systems = await call("GET", "/systems");
  // The list has come: "loading…" goes; the form opens once its handler is in place.
  systemSelect.replaceChildren();
  systemSelect.removeAttribute("aria-busy");
  for (const system of systems) {
    const label = system.unavailable ? `${system.title} (not in this installation yet)` : system.title;
    systemSelect.append(h("option", { value: system.name, disabled: Boolean(system.unavailable), text: label }));
  }
  const first = systems.find((s) => !s.unavailable && s.name !== "dice");
  if (first) systemSelect.value = first.name;
  let changedRules = () => ({});
  let asked = 0;
  const showRules = async () => {
    // Only the last system picked draws its rules, however the answers arrive.
    const mine = ++asked;
    changedRules = () => ({});
    const box = h("details", { id: "rules", class: "rules" });
    const reader = await rulesOf(systemSelect.value, box);
    if (mine !== asked) return;
    const old = document.getElementById("rules");
    box.open = old.open;
    old.replaceWith(box);
    changedRules = reader;
  };
  systemSelect.addEventListener("change", () => {
    error.textContent = "";
    showRules().catch((problem) => (error.textContent = problem.message));
  });
  await showRules();
  const openButton = document.querySelector("#new-room button[type=submit]");
  const serverKey = await serverKeyField(openButton);
  document.getElementById("new-room").addEventListener("submit", async (submitted) => {
    submitted.preventDefault();
    error.textContent = "";
    try {
      const made = await call("POST", "/rooms", {
        token: serverKey.value(),
        body: {
          system: systemSelect.value,
          name: document.getElementById("name").value,
          gm: document.getElementById("gm").value || "GM",
          options: changedRules(),
        },
      });
      serverKey.keep();
      localStorage.setItem(`tabletop:invites:${made.room}`, JSON.stringify({ player: made.player, observer: made.observer }));
      // Stay at this page's own address: the invites kept above are this origin's.
      location.assign(linkUrl(parseLink(made.gm)));
    } catch (problem) {
      error.textContent = problem.message;
    }
  });
  // Enabled only now: a click before the handler above would send the form as a page load.
  openButton.disabled = false;
}

window.addEventListener("DOMContentLoaded", () => {
  boot().catch((problem) => {
    document.getElementById("error").textContent = problem.message;
  });
});
