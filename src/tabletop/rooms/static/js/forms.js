// Forms built from what the server offers (`legal`) and the system's intent schema: an
// open offer becomes a form whose fields take the values offered now (or any value the
// schema allows), a closed offer a row of buttons. Nothing here knows a system's rules.

import { h, labelled, uid } from "./dom.js";

export function humanize(name) {
  return name.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
}

export function describeIntent(intent, labelOf) {
  // A closed offer's intent in a few words: its values, without the kind.
  const parts = [];
  const walk = (value, key) => {
    if (value === null || value === false || value === "" || value === "none") return;
    if (Array.isArray(value)) {
      if (value.length) parts.push(`${humanize(key)} ${value.map((v) => labelOf(key, v)).join(", ")}`);
    } else if (typeof value === "object") {
      for (const [k, v] of Object.entries(value)) walk(v, k);
    } else if (value === true) {
      parts.push(humanize(key).toLowerCase());
    } else if (key === "die" && typeof value === "number") {
      parts.push(`die ${value + 1}`);
    } else if (!(typeof value === "number" && value === 0 && key !== "die")) {
      parts.push(String(labelOf(key, value)).replace(/_/g, " "));
    }
  };
  for (const [key, value] of Object.entries(intent)) if (key !== "kind") walk(value, key);
  return parts.join(" · ") || humanize(intent.kind);
}

export class FormMaker {
  constructor(schema, labelOf, drafts) {
    this.schema = schema;
    this.defs = schema.$defs || {};
    this.labelOf = labelOf;
    this.drafts = drafts;
  }

  resolve(prop) {
    let found = prop || {};
    while (found.$ref) found = { ...this.defs[found.$ref.split("/").pop()], ...omit(found, "$ref") };
    if (found.anyOf) {
      const real = found.anyOf.filter((p) => p.type !== "null");
      if (real.length === 1) {
        return { ...this.resolve(real[0]), nullable: true, default: found.default, title: found.title, description: found.description };
      }
    }
    return found;
  }

  modelOf(kind) {
    if (this.schema.properties && this.schema.properties.kind) return this.schema;
    for (const model of Object.values(this.defs)) {
      if (model.properties && model.properties.kind && model.properties.kind.const === kind) return model;
    }
    return { properties: {} };
  }

  form(offer, send, presets = {}) {
    // An open offer as a form; `presets` fixes fields (a sheet's own character).
    const model = this.modelOf(offer.kind);
    const properties = model.properties || {};
    const required = new Set(model.required || []);
    const main = [];
    const more = [];
    const readers = [];
    for (const [name, prop] of Object.entries(properties)) {
      if (name === "kind") continue;
      const offered = offer.fields[name];
      if (name in presets) {
        readers.push([name, () => presets[name]]);
        continue;
      }
      const field = this.control(`${offer.kind}/${name}`, name, prop, offered, required.has(name));
      readers.push([name, field.read]);
      (offered || required.has(name) ? main : more).push(field.el);
    }
    const errorSlot = h("p", { class: "error", role: "alert" });
    const form = h(
      "form",
      { class: "offer", "data-kind": offer.kind },
      main,
      more.length ? h("details", { class: "more" }, h("summary", { text: "more options" }), more) : null,
      h("div", { class: "actions" }, h("button", { type: "submit", text: humanize(offer.kind.replace(/-/g, " ")) })),
      errorSlot,
    );
    form.addEventListener("submit", (submitted) => {
      submitted.preventDefault();
      errorSlot.textContent = "";
      try {
        const intent = { kind: offer.kind };
        for (const [name, read] of readers) {
          const value = read();
          if (value !== undefined) intent[name] = value;
        }
        send(intent, errorSlot, form);
      } catch (problem) {
        errorSlot.textContent = problem.message;
      }
    });
    return form;
  }

  control(key, name, prop, offered, required) {
    const spec = this.resolve(prop);
    const title = humanize(name);
    const help = (offered && offered.help) || spec.description || "";
    const draft = this.drafts.get(key);
    const keep = (el, read) => {
      el.addEventListener("input", () => this.drafts.set(key, read()));
      el.addEventListener("change", () => this.drafts.set(key, read()));
    };
    const values = offered && offered.values ? offered.values : spec.enum;
    if (values) {
      const el = h("select");
      if (!offered || !offered.values) el.append(h("option", { value: "__default", text: "(default)" }));
      for (const value of values) {
        el.append(h("option", { value: JSON.stringify(value), text: value === null ? "(none)" : this.labelOf(name, value) }));
      }
      if (draft !== undefined) el.value = draft;
      else if (offered && offered.values && spec.default !== undefined && values.some((v) => JSON.stringify(v) === JSON.stringify(spec.default))) el.value = JSON.stringify(spec.default);
      keep(el, () => el.value);
      return { el: labelled(title, el, help), read: () => (el.value === "__default" ? undefined : JSON.parse(el.value)) };
    }
    if (spec.type === "boolean") {
      const el = h("input", { type: "checkbox" });
      el.checked = draft !== undefined ? draft : Boolean(spec.default);
      keep(el, () => el.checked);
      const id = uid();
      el.id = id;
      return {
        el: h("div", { class: "field check" }, el, h("label", { for: id, text: title })),
        read: () => (el.checked === Boolean(spec.default) && !required ? undefined : el.checked),
      };
    }
    if (spec.type === "integer" || spec.type === "number") {
      const example = offered && offered.example !== null && offered.example !== undefined ? offered.example : spec.default;
      const el = h("input", {
        type: "number", inputmode: "numeric", min: spec.minimum, max: spec.maximum,
        step: spec.type === "integer" ? 1 : "any", placeholder: example ?? "",
      });
      if (draft !== undefined) el.value = draft;
      keep(el, () => el.value);
      return {
        el: labelled(title, el, help),
        read: () => {
          if (el.value === "") {
            if (required && example !== undefined && example !== null) return example;
            if (required) throw new Error(`${title}: fill it in`);
            return undefined;
          }
          return Number(el.value);
        },
      };
    }
    if (spec.type === "string") {
      const example = offered && offered.example ? offered.example : "";
      const el = h("input", { type: "text", maxlength: spec.maxLength, placeholder: example, autocomplete: "off" });
      if (draft !== undefined) el.value = draft;
      keep(el, () => el.value);
      return {
        el: labelled(title, el, help),
        read: () => {
          if (el.value.trim() === "") {
            if (required && example) return example;
            if (required) throw new Error(`${title}: fill it in`);
            return undefined;
          }
          return el.value;
        },
      };
    }
    if (spec.type === "object" && spec.properties) {
      const fields = Object.entries(spec.properties).map(([sub, subProp]) => [
        sub, this.control(`${key}/${sub}`, sub, subProp, null, (spec.required || []).includes(sub)),
      ]);
      const legendId = uid("legend");
      return {
        el: h("fieldset", { "aria-labelledby": legendId }, h("legend", { id: legendId, text: title }), help ? h("small", { class: "hint", text: help }) : null, fields.map(([, f]) => f.el)),
        read: () => {
          const value = {};
          for (const [sub, field] of fields) {
            const got = field.read();
            if (got !== undefined) value[sub] = got;
          }
          return Object.keys(value).length || required ? value : undefined;
        },
      };
    }
    if (spec.type === "array" && spec.items) {
      const items = this.resolve(spec.items);
      if (items.enum) {
        const boxes = items.enum.map((value) => {
          const box = h("input", { type: "checkbox", value: JSON.stringify(value), id: uid() });
          return [box, h("span", { class: "check" }, box, h("label", { for: box.id, text: this.labelOf(name, value) }))];
        });
        const legendId = uid("legend");
        return {
          el: h("fieldset", { "aria-labelledby": legendId }, h("legend", { id: legendId, text: title }), boxes.map(([, el]) => el)),
          read: () => {
            const picked = boxes.filter(([box]) => box.checked).map(([box]) => JSON.parse(box.value));
            return picked.length || required ? picked : undefined;
          },
        };
      }
      if (items.type === "string" || items.type === "integer") {
        const el = h("input", { type: "text", placeholder: offered && offered.example ? offered.example.join(", ") : "comma-separated", autocomplete: "off" });
        if (draft !== undefined) el.value = draft;
        keep(el, () => el.value);
        return {
          el: labelled(title, el, help || "separate them with commas"),
          read: () => {
            const parts = el.value.split(",").map((p) => p.trim()).filter(Boolean);
            if (!parts.length) {
              if (required && offered && offered.example) return offered.example;
              return required ? [] : undefined;
            }
            return items.type === "integer" ? parts.map(Number) : parts;
          },
        };
      }
    }
    return this.jsonControl(key, name, title, help, offered, required, draft);
  }

  jsonControl(key, name, title, help, offered, required, draft) {
    // A value too rich for plain fields (a whole sheet, a list of wound placements): JSON,
    // or for a sheet, a file saved by the command line.
    const example = offered && offered.example !== undefined && offered.example !== null ? JSON.stringify(offered.example) : "";
    const area = h("textarea", { rows: 3, placeholder: example, spellcheck: "false" });
    if (draft !== undefined) area.value = draft;
    area.addEventListener("input", () => this.drafts.set(key, area.value));
    const parts = [labelled(`${title} (JSON)`, area, help)];
    if (name === "sheet") {
      const file = h("input", { type: "file", accept: ".json,application/json" });
      file.addEventListener("change", async () => {
        if (file.files[0]) {
          area.value = await file.files[0].text();
          this.drafts.set(key, area.value);
        }
      });
      parts.unshift(labelled("Sheet file from the command line", file));
    }
    return {
      el: h("div", { class: "json" }, parts),
      read: () => {
        const text = area.value.trim() || (required ? example : "");
        if (!text) {
          if (required) throw new Error(`${title}: fill it in`);
          return undefined;
        }
        try {
          return JSON.parse(text);
        } catch {
          throw new Error(`${title}: not JSON (${text.slice(0, 40)})`);
        }
      },
    };
  }

  buttons(offer, send, extra = () => null) {
    // A closed offer: one button per intent it allows.
    const errorSlot = h("p", { class: "error", role: "alert" });
    const group = h(
      "div",
      { class: "closed", role: "group", "aria-label": offer.text },
      offer.intents.map((intent) =>
        h("button", {
          type: "button",
          class: "choice",
          onclick: (clicked) => send(intent, errorSlot, clicked.currentTarget),
        }, describeIntent(intent, this.labelOf), extra(intent)),
      ),
    );
    return h("div", { class: "offer", "data-kind": offer.kind }, group, errorSlot);
  }
}

function omit(object, key) {
  const copy = { ...object };
  delete copy[key];
  return copy;
}
