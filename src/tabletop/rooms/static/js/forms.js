// Forms built from what the server offers (`legal`) and the system's intent schema: an
// open offer becomes a form whose fields take the values offered now (or any value the
// schema allows), a closed offer a row of buttons. Lists of things (wound placements, the
// sides of a contest) become rows to add and remove, maps (scores by name) a field per
// name, a choice between shapes (a fight's actions) a picker and that shape's fields; only
// free-form data (a whole sheet, a table file) stays JSON. Nothing here knows a system's
// rules: `known(name)` gives the values the room holds for a field (its characters), and
// every label, help line and listed value's words come from the system's words (`Words`).

import { h, labelled, uid } from "./dom.js";

export function humanize(name) {
  return name.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase()).replace(/\b(npc|hp|ac|xp|ap|dc)\b/gi, (short) => short.toUpperCase());
}

const VARIES = "…";
// In a value's key, the part that varies; in its words, where it goes (tabletop/words.py).

export class Words {
  // What a system calls its ids for people (the server's `x-words`, tabletop/words.py): an
  // intent kind's label and help, a field's (that kind's own first, then any kind's), a
  // listed value's words; null where the system has none yet, and the caller humanizes.
  constructor(words = {}) {
    this.kinds = words.kinds || {};
    this.fields = words.fields || {};
    this.values = words.values || {};
  }

  kind(kind) {
    return own(this.kinds, kind);
  }

  field(kind, name) {
    return own(this.fields, `${kind}.${name}`) || own(this.fields, name);
  }

  value(kind, name, value) {
    // A value's words: its own, else those of a value written with "…" standing for a
    // part that varies ("reroll …" = "Re-roll with …'s omen" says "reroll Ash"); "" for
    // a value a button need not say (what its action's words say already).
    const text = String(value);
    for (const key of [`${kind}.${name}`, name]) {
      const named = own(this.values, key) || {};
      const said = own(named, text);
      if (said !== null) return said;
      for (const [shape, words] of Object.entries(named)) {
        const [before, after] = shape.split(VARIES);
        if (after === undefined || text.length <= before.length + after.length) continue;
        if (text.startsWith(before) && text.endsWith(after)) return words.replace(VARIES, text.slice(before.length, text.length - after.length));
      }
    }
    return null;
  }

  fieldTitle(kind, name) {
    return this.field(kind, name)?.label || humanize(name);
  }

  kindTitle(kind) {
    return this.kind(kind)?.label || humanize(kind.replace(/-/g, " "));
  }
}

let tableWords = new Words();
// The words of the table this page shows (set by its form maker), for the lines outside a
// form that name an intent's values (a closed offer's buttons, an exchange's choices).

export function describeIntent(intent, labelOf, omit = new Set(), words = tableWords) {
  // A closed offer's intent in a few words: its values, without the kind (nor the fields
  // in `omit`, such as the character of the card the button sits on).
  const parts = [];
  const said = (key, value) => words.value(intent.kind, key, value) ?? asWords(labelOf(key, value), value);
  const walk = (value, key) => {
    if (value === null || value === false || value === "" || value === "none") return;
    if (Array.isArray(value)) {
      if (value.length) parts.push(`${words.fieldTitle(intent.kind, key)} ${value.map((v) => said(key, v)).join(", ")}`);
    } else if (typeof value === "object") {
      // a shape's tag says nothing its other values do not ("attribute · STR: strength")
      const shown = Object.entries(value).filter(([k, v]) => k !== "kind" && v !== null && v !== false && v !== "");
      for (const [k, v] of Object.entries(value)) if (k !== "kind" || !shown.length) walk(v, k);
    } else if (value === true) {
      parts.push(words.fieldTitle(intent.kind, key).toLowerCase());
    } else if (key === "die" && typeof value === "number") {
      parts.push(`die ${value + 1}`);
    } else if (!(typeof value === "number" && value === 0 && key !== "die")) {
      const text = said(key, value);
      if (text) parts.push(text);
    }
  };
  for (const [key, value] of Object.entries(intent)) if (key !== "kind" && !omit.has(key)) walk(value, key);
  return parts.join(" · ") || words.kindTitle(intent.kind);
}

export class FormMaker {
  constructor(schema, labelOf, drafts, known = () => null, words = null) {
    // `words`: the system's words for the schema's ids, those it sent with it by default.
    this.schema = schema;
    this.defs = schema.$defs || {};
    this.labelOf = labelOf;
    this.drafts = drafts;
    this.known = known;
    this.words = words || new Words(schema["x-words"]);
    if (!words) tableWords = this.words;
  }

  title(key, name) {
    // A field's label: the system's words for it on this kind's form, else its name.
    return this.words.fieldTitle(kindOf(key), name);
  }

  help(key, name, offered, spec) {
    // A field's line of help: the system's, else what the offer or the schema says.
    return this.words.field(kindOf(key), name)?.help || (offered && offered.help) || spec.description || "";
  }

  valueText(key, name, value) {
    // A listed value in words: the system's, else what the room calls it (a character's
    // name for its id), else the value as words.
    return this.words.value(kindOf(key), name, value) ?? asWords(this.labelOf(name, value), value);
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

  form(offer, send, given = {}, options = {}) {
    // An open offer as a form. What the offer's sheet entry fixes (`offer.preset`) and what
    // the page fixes (`given`: a card's own character) are filled in, nested fields too;
    // `options.initial` starts fields from what the entry holds now (an edit in place), and
    // what is typed is kept per offer and presets, so one card's draft stays off another's.
    const presets = merged(offer.preset || {}, given);
    const initial = options.initial || {};
    const model = this.modelOf(offer.kind);
    const properties = model.properties || {};
    const required = new Set(model.required || []);
    const main = [];
    const more = [];
    const readers = [];
    const base = Object.keys(presets).length ? `${offer.kind}@${JSON.stringify(presets)}` : offer.kind;
    // the form's fields so far, for a pick that follows one of them (`followingControl`)
    this.leaders = new Map();
    for (const [name, prop] of Object.entries(properties)) {
      if (name === "kind") continue;
      const offered = offer.fields[name];
      const spec = this.resolve(prop);
      const nested = name in presets && isPlain(presets[name]) && spec.type === "object" && spec.properties;
      if (name in presets && !nested) {
        readers.push([name, () => presets[name]]);
        this.leaders.set(name, { el: null, read: () => presets[name] });
        continue;
      }
      const field = nested
        ? this.objectControl(`${base}/${name}`, this.title(base, name), this.help(base, name, offered, spec), spec, required.has(name), initial[name], offered && offered.example, presets[name], offered?.within)
        : this.control(`${base}/${name}`, name, prop, offered, required.has(name), initial[name]);
      readers.push([name, field.read]);
      this.leaders.set(name, field);
      if (field.el) (offered || required.has(name) || name in initial ? main : more).push(field.el);
    }
    const errorSlot = h("p", { class: "error", role: "alert" });
    const about = this.words.kind(offer.kind)?.help;
    const form = h(
      "form",
      { class: "offer", "data-kind": offer.kind, "data-draft": base },
      about ? h("p", { class: "hint about", text: about }) : null,
      main,
      more.length ? h("details", { class: "more" }, h("summary", { text: "more options" }), more) : null,
      h("div", { class: "actions" }, h("button", { type: "submit", text: this.words.kind(offer.kind)?.label || options.label || this.words.kindTitle(offer.kind) })),
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
        send(intent, errorSlot, form, () => this.startOver(offer, send, given, base, options));
      } catch (problem) {
        errorSlot.textContent = problem.message;
      }
    });
    return form;
  }

  startOver(offer, send, presets, base, options) {
    // Once the table took a form's intent, the form starts empty (its drafts go too), so
    // the next tracker or hit does not inherit the last one's values, and the box it opened
    // from closes: what it did is in the log. A refusal never gets here: the form stays
    // open with its error.
    for (const key of [...this.drafts.keys()]) if (key.startsWith(`${base}/`)) this.drafts.delete(key);
    for (const old of document.querySelectorAll("form.offer")) {
      if (old.dataset.draft !== base) continue;
      const box = old.parentElement && old.parentElement.closest("details.offer-box, details.entry-form");
      if (box) box.open = false;
      old.replaceWith(this.form(offer, send, presets, options));
    }
  }

  control(key, name, prop, offered, required, initial) {
    // One field's control and how to read its value; `initial` fills a row made from an example.
    const spec = this.resolve(prop);
    const title = spec["x-label"] || this.title(key, name);
    const help = spec["x-label"] ? "" : this.help(key, name, offered, spec);
    const draft = this.drafts.get(key);
    const keep = (el, read) => {
      el.addEventListener("input", () => this.drafts.set(key, read()));
      el.addEventListener("change", () => this.drafts.set(key, read()));
    };
    if (spec.const !== undefined) return { el: null, read: () => spec.const };
    if (offered?.follows) return this.followingControl(key, name, title, help, offered, draft, keep);
    // a value the offer fixes that matters to the sender (the level a player rolls at) is
    // a line to read, saying who sets it (tabletop/offers.py, `Choice.fixed`)
    if (offered?.values?.length === 1 && offered.fixed) return this.fixedLine(key, name, title, offered);
    const yesNo = spec.type === "boolean" && offered && offered.values;
    // a yes or no the offer leaves open is a box to tick (as its help says: "Ticked, …");
    // one it fixes (a player's "GM's secret character": no) is no choice to show
    if (yesNo && offered.values.length === 1) return { el: null, read: () => offered.values[0] };
    if (yesNo) offered = { ...offered, values: null };
    // so is any other the offer fixes at its default (a player's "Your group's additions")
    if (offered?.values?.length === 1 && !required && JSON.stringify(offered.values[0]) === JSON.stringify(spec.default)) return { el: null, read: () => undefined };
    const known = !(offered && offered.values) && spec.type === "string" && !spec.enum ? this.known(name, key) : null;
    const values = offered && offered.values ? offered.values : spec.enum || (known && (spec.nullable || !required ? [null, ...known] : known));
    if (values) {
      const el = h("select");
      const defaulted = values.some((v) => JSON.stringify(v) === JSON.stringify(spec.default));
      if (!required && !offered?.values && !known && !defaulted) el.append(h("option", { value: "__default", text: "(default)" }));
      for (const value of values) {
        el.append(h("option", { value: JSON.stringify(value), text: optionText(value, () => this.valueText(key, name, value), this.words.value(kindOf(key), name, value)) }));
      }
      // an offer's example among its values is where the pick starts (an attack's target:
      // someone other than the attacker it starts on)
      const listed = (v) => v !== undefined && v !== null && values.some((w) => JSON.stringify(w) === JSON.stringify(v));
      const start = initial !== undefined ? initial : listed(offered?.example) ? offered.example : spec.default;
      if (draft !== undefined) el.value = draft;
      else if (start !== undefined && values.some((v) => JSON.stringify(v) === JSON.stringify(start))) el.value = JSON.stringify(start);
      keep(el, () => el.value);
      return { el: labelled(title, el, help), read: () => (el.value === "__default" ? undefined : JSON.parse(el.value)) };
    }
    if (spec.type === "boolean") {
      // Ticked as an attribute too: the part's redraw compares markup, and a box ticked
      // only as a property would keep an old form when only what is ticked changed.
      const on = draft !== undefined ? draft : initial !== undefined ? Boolean(initial) : Boolean(spec.default);
      const el = h("input", { type: "checkbox", checked: on });
      keep(el, () => el.checked);
      const id = uid();
      el.id = id;
      const box = h("div", { class: "field check" }, el, h("label", { for: id, text: title }));
      // its help under the box and its label, not squeezed beside them
      const hintId = help ? uid("hint") : null;
      if (hintId) el.setAttribute("aria-describedby", hintId);
      return {
        el: help ? h("div", { class: "field" }, box, h("small", { id: hintId, class: "hint", text: help })) : box,
        read: () => (el.checked === Boolean(spec.default) && !required ? undefined : el.checked),
      };
    }
    if (spec.type === "integer" || spec.type === "number") {
      const example = offered && offered.example !== null && offered.example !== undefined ? offered.example : spec.default;
      const el = h("input", {
        type: "number", inputmode: "numeric", min: spec.minimum, max: spec.maximum,
        step: spec.type === "integer" ? 1 : "any", placeholder: example ?? "", "aria-required": required ? "true" : null,
      });
      if (draft !== undefined) el.value = draft;
      else if (typeof initial === "number") el.value = initial;
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
    if (spec.type === "string" && offered?.names?.length) return this.namedControl(title, help, offered.names, draft, keep);
    if (spec.type === "string") {
      const example = offered && offered.example ? offered.example : "";
      const needs = required ? "true" : null;
      const el = spec.maxLength > LONG_TEXT
        ? h("textarea", { rows: 4, maxlength: spec.maxLength, placeholder: example, class: "prose", "aria-required": needs })
        : h("input", { type: "text", maxlength: spec.maxLength, placeholder: example, autocomplete: "off", "aria-required": needs });
      if (draft !== undefined) el.value = draft;
      else if (typeof initial === "string") el.value = initial;
      keep(el, () => el.value);
      return {
        el: name === "file" ? withFilePicker(labelled(title, el, help), el, title, this.drafts, `${key}#refused`) : labelled(title, el, help),
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
    if (spec.oneOf && spec.discriminator) return this.unionControl(key, name, title, help, spec, offered, initial);
    if (spec.type === "object" && spec.properties) return this.objectControl(key, title, help, spec, required, initial, offered && offered.example, {}, offered?.within);
    if (spec.type === "object" && !spec.properties && typeof spec.additionalProperties === "object") {
      const example = initial !== undefined ? initial : offered && offered.example;
      return this.mapControl(key, title, help, this.resolve(spec.additionalProperties), example, required);
    }
    if (spec.type === "array" && spec.items) {
      const items = this.resolve(spec.items);
      const choices = offered?.items || items.enum || (items.type === "string" ? this.known(name, key) : null);
      // ticked as the offer's example has them (the living characters of a group roll)
      const ticked = initial !== undefined ? initial : offered?.example;
      // an order (a turn order, where the rolls go) is picked place by place, by name,
      // starting as the offer's example has it; any other list ticked
      if (choices && offered?.ordered) return this.orderControl(key, name, title, help, choices, Array.isArray(ticked) ? ticked : choices, required);
      if (choices) return this.checkboxes(key, name, title, help, choices, required, ticked, spec.minItems || 0);
      if (items.type === "string" || items.type === "integer") {
        const el = h("input", { type: "text", placeholder: offered && offered.example ? offered.example.join(", ") : "comma-separated", autocomplete: "off", "aria-required": required ? "true" : null });
        if (draft !== undefined) el.value = draft;
        else if (Array.isArray(initial)) el.value = initial.join(", ");
        keep(el, () => el.value);
        return {
          el: labelled(title, el, help || "separate them with commas"),
          read: () => {
            const parts = el.value.split(",").map((p) => p.trim()).filter(Boolean);
            if (!parts.length) {
              if (required && offered && offered.example) return offered.example;
              return required ? [] : undefined;
            }
            if (items.type !== "integer") return parts;
            // said here, not as the schema's "armour.0: Input should be a valid integer"
            if (parts.some((p) => !/^-?\d+$/.test(p))) throw new Error(`${title}: whole numbers, separated by commas`);
            return parts.map(Number);
          },
        };
      }
      if (items.type === "object" && items.properties) {
        const example = initial !== undefined ? initial : offered && offered.example;
        return this.listControl(key, name, title, help, spec, items, required, example);
      }
    }
    return this.jsonControl(key, title, help, offered, required, draft);
  }

  fixedLine(key, name, title, offered) {
    // The one value offered, read where a control would be and sent as it is: "Challenge
    // level", "Challenging: an ability roll decides", "Set by the GM."
    const [value] = offered.values;
    const said = optionText(value, () => this.valueText(key, name, value), this.words.value(kindOf(key), name, value));
    const why = `${offered.fixed[0].toUpperCase()}${offered.fixed.slice(1)}.`;
    const el = h("div", { class: "field fixed" }, h("span", { class: "fixed-name", text: title }), h("span", { class: "fixed-value", text: said }), h("small", { class: "hint", text: why }));
    return { el, read: () => value };
  }

  group(title, help, ...content) {
    // A fieldset named by its legend, with the hint under it.
    const legendId = uid("legend");
    return h("fieldset", { "aria-labelledby": legendId }, h("legend", { id: legendId, text: title }), help ? h("small", { class: "hint", text: help }) : null, content);
  }

  objectControl(key, title, help, spec, required, initial, example, fixed = {}, within = {}) {
    // A fixed set of named fields (an NPC's name and level, a test's setup); a map among
    // them takes its names from the offer's example (an NPC's ability scores), one the
    // offer lists values for (`within`: the skills a check may name) is picked from them,
    // and those in `fixed` (a sheet entry's attribute) are filled in and not shown.
    const given = initial && typeof initial === "object" ? initial : {};
    const named = (sub, subProp) => {
      if (within && within[sub]) return within[sub];
      const subSpec = this.resolve(subProp);
      const isMap = subSpec.type === "object" && !subSpec.properties;
      return isMap && example && example[sub] ? { example: example[sub] } : null;
    };
    const fields = Object.entries(spec.properties).map(([sub, subProp]) => [
      sub, sub in fixed
        ? { el: null, read: () => fixed[sub] }
        : this.control(`${key}/${sub}`, sub, subProp, named(sub, subProp), (spec.required || []).includes(sub), given[sub]),
    ]);
    const shown = fields.map(([, f]) => f.el).filter(Boolean);
    return {
      el: this.group(title, help, shown.length ? h("div", { class: "fields" }, shown) : h("p", { class: "hint", text: "nothing more to fill in" })),
      read: () => {
        const value = {};
        let filled = false;
        for (const [sub, field] of fields) {
          const got = field.read();
          if (got === undefined) continue;
          value[sub] = got;
          if (!this.resolve(spec.properties[sub]).const && !(sub in fixed)) filled = true;
        }
        return filled || required || Object.keys(fixed).length ? value : undefined;
      },
    };
  }

  checkboxes(key, name, title, help, choices, required, initial, least = 0) {
    // Several of a known set (situations, the characters on a side); `least` of them at
    // the least, said under the legend and checked before sending.
    const draft = this.drafts.get(key);
    const on = new Set((draft || (Array.isArray(initial) ? initial : [])).map((v) => JSON.stringify(v)));
    const boxes = choices.map((value) => {
      // ticked as an attribute (see above): a new example's ticks redraw the form
      const box = h("input", { type: "checkbox", value: JSON.stringify(value), id: uid(), checked: on.has(JSON.stringify(value)) });
      return [box, h("span", { class: "check" }, box, h("label", { for: box.id, text: this.valueText(key, name, value) }))];
    });
    const read = () => boxes.filter(([box]) => box.checked).map(([box]) => JSON.parse(box.value));
    for (const [box] of boxes) box.addEventListener("change", () => this.drafts.set(key, read()));
    const atLeast = least > 0 ? `pick at least ${least === 1 ? "one" : least}` : "";
    const el = this.group(title, sentences(help, atLeast), boxes.map(([, span]) => span));
    if (least > 0) el.dataset.least = String(least);
    return {
      el,
      read: () => {
        const picked = read();
        if (picked.length < least) throw new Error(`${title}: ${atLeast}`);
        return picked.length || required ? picked : undefined;
      },
    };
  }

  orderControl(key, name, title, help, choices, start, required) {
    // An order of what the offer lists (who takes turns, the scores the rolls go to),
    // never typed in: a pick-list per place, each offering what no place before it holds,
    // starting as `start` has it; a place left empty is said in the system's words for
    // none ("nobody" where it has none), listed first where the order starts empty (as a
    // pick-list starting on nothing does), else last. What a place takes from a later one,
    // that one takes in exchange.
    const draft = this.drafts.get(key);
    const none = this.words.value(kindOf(key), name, null) ?? "nobody";
    const listed = (open) => (start.some((value) => value !== null) ? [...open, null] : [null, ...open]);
    const places = choices.map(() => h("select"));
    const picked = () => places.map((el) => (el.value ? JSON.parse(el.value) : null));
    let shown = [];
    const arrange = (wanted) => {
      const taken = new Set();
      places.forEach((el, i) => {
        const open = choices.filter((value) => !taken.has(value));
        const want = wanted[i] ?? null;
        const value = want === null || open.includes(want) ? want : open[0] ?? null;
        el.replaceChildren(...listed(open).map((v) => h("option", { value: JSON.stringify(v), text: v === null ? none : this.valueText(key, name, v) })));
        el.value = JSON.stringify(value);
        if (value !== null) taken.add(value);
      });
      shown = picked();
    };
    const read = () => picked().filter((value) => value !== null);
    arrange(Array.isArray(draft) ? draft : start);
    places.forEach((el, i) => {
      el.addEventListener("change", () => {
        const wanted = picked();
        const held = shown.findIndex((value, j) => j > i && value !== null && value === wanted[i]);
        if (held >= 0) wanted[held] = shown[i];
        arrange(wanted);
        this.drafts.set(key, picked());
      });
    });
    const rows = places.map((el, i) => h("li", {}, labelled(ordinal(i + 1), el)));
    return {
      el: this.group(title, help, h("ol", { class: "rows order" }, rows)),
      read: () => {
        const listed = read();
        return listed.length || required ? listed : undefined;
      },
    };
  }

  followingControl(key, name, title, help, offered, draft, keep) {
    // A pick whose list follows another field of the form (the skills of the character a
    // check is asked of): refilled when that field changes, keeping the pick where it can.
    const leader = this.leaders && this.leaders.get(offered.follows);
    const el = h("select");
    const fill = () => {
      const was = el.value || draft;
      const values = offered.each[String(leader ? leader.read() : "")] || [null];
      el.replaceChildren(...values.map((value) => h("option", {
        value: JSON.stringify(value),
        text: optionText(value, () => this.valueText(key, name, value), this.words.value(kindOf(key), name, value)),
      })));
      if (was !== undefined && values.some((v) => JSON.stringify(v) === was)) el.value = was;
    };
    fill();
    if (leader && leader.el) leader.el.addEventListener("change", fill);
    keep(el, () => el.value);
    return { el: labelled(title, el, help), read: () => JSON.parse(el.value) };
  }

  namedControl(title, help, names, draft, keep) {
    // A name picked from who is there (the offer's `names`: an activation's actor), or
    // typed in for anyone else (a creature with no sheet at the table).
    const el = h("select");
    for (const name of names) el.append(h("option", { value: name, text: name }));
    el.append(h("option", { value: SOMEONE_ELSE, text: "someone else" }));
    const other = h("input", { type: "text", autocomplete: "off", placeholder: "their name", "aria-label": `${title}: someone else's name` });
    const read = () => (el.value === SOMEONE_ELSE ? other.value.trim() : el.value);
    if (draft !== undefined) {
      el.value = names.includes(draft) ? draft : SOMEONE_ELSE;
      if (el.value === SOMEONE_ELSE) other.value = draft;
    }
    other.hidden = el.value !== SOMEONE_ELSE;
    el.addEventListener("change", () => {
      other.hidden = el.value !== SOMEONE_ELSE;
      if (!other.hidden) other.focus();
    });
    keep(el, read);
    keep(other, read);
    const field = labelled(title, el, help);
    el.after(other); // under the pick, above its help
    return {
      el: field,
      read: () => {
        if (!read()) throw new Error(`${title}: type someone else's name`);
        return read();
      },
    };
  }

  mapControl(key, title, help, values, example, required) {
    // Numbers by name: a field per name the offer's example gives (ability scores), else
    // rows of a name and its number.
    const names = example && typeof example === "object" ? Object.keys(example) : [];
    if (names.length) {
      const fields = names.map((sub) => [sub, this.control(`${key}/${sub}`, sub, values, { example: example[sub] }, required)]);
      for (const [sub, field] of fields) field.el.querySelector("label").textContent = sub;
      return {
        el: this.group(title, help, h("div", { class: "fields" }, fields.map(([, f]) => f.el))),
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
    const pair = { type: "object", required: ["name", "value"], properties: { name: { type: "string", "x-label": "Name" }, value: { ...values, "x-label": "Value" } } };
    const rows = this.listControl(key, "entry", title, help || "one row per name", { minItems: 0 }, pair, false, []);
    return {
      el: rows.el,
      read: () => {
        const listed = rows.read() || [];
        return listed.length || required ? Object.fromEntries(listed.map((p) => [p.name, p.value])) : undefined;
      },
    };
  }

  listControl(key, name, title, help, spec, items, required, example) {
    // A list of things, each a row of fields, with buttons to add one and take one out.
    const starting = Array.isArray(example) ? example : [];
    const least = spec.minItems || (required ? 1 : 0);
    const most = spec.maxItems || 50;
    const thing = humanize(name.replace(/(ies|s)$/, (end) => (end === "ies" ? "y" : ""))).toLowerCase();
    let count = this.drafts.get(`${key}#rows`) ?? Math.max(starting.length, least);
    const list = h("ol", { class: "rows" });
    const rows = [];
    const add = h("button", { type: "button", class: "quiet", text: `Add ${/^[aeiou]/.test(thing) ? "an" : "a"} ${thing}` });
    const draw = () => {
      rows.length = 0;
      list.replaceChildren();
      for (let i = 0; i < count; i += 1) {
        const row = this.objectControl(`${key}/${i}`, `${humanize(thing)} ${i + 1}`, "", items, true, starting[i]);
        const drop = h("button", { type: "button", class: "quiet", text: `Remove ${thing} ${i + 1}` });
        drop.disabled = count <= least;
        drop.addEventListener("click", () => {
          this.shiftDrafts(key, i, count);
          count -= 1;
          this.drafts.set(`${key}#rows`, count);
          draw();
        });
        row.el.append(drop);
        rows.push(row);
        list.append(h("li", {}, row.el));
      }
      add.disabled = count >= most;
    };
    add.addEventListener("click", () => {
      count += 1;
      this.drafts.set(`${key}#rows`, count);
      draw();
      list.lastElementChild?.querySelector("input, select")?.focus();
    });
    draw();
    return {
      el: this.group(title, help, list, add),
      read: () => {
        const listed = rows.map((row) => row.read());
        return listed.length || required ? listed : undefined;
      },
    };
  }

  shiftDrafts(key, removed, count) {
    // Taking row `removed` out moves what was typed in the rows after it up one.
    for (let i = removed; i < count; i += 1) {
      for (const [draftKey, value] of [...this.drafts]) {
        if (draftKey.startsWith(`${key}/${i}/`)) this.drafts.delete(draftKey);
        if (draftKey.startsWith(`${key}/${i + 1}/`)) this.drafts.set(`${key}/${i}/${draftKey.slice(`${key}/${i + 1}/`.length)}`, value);
      }
    }
  }

  unionControl(key, name, title, help, spec, offered, initial) {
    // One of several shapes told apart by a field (a fight's action): pick it, then its fields.
    const tag = spec.discriminator.propertyName;
    const open = offered && offered.shapes ? new Set(offered.shapes) : null;
    const shapes = Object.entries(spec.discriminator.mapping)
      .filter(([value]) => !open || open.has(value))
      .map(([value, ref]) => [value, this.resolve({ $ref: ref })]);
    if (!shapes.length) return { el: this.group(title, help, h("p", { class: "hint", text: "nothing is open now" })), read: () => undefined };
    const example = initial || (offered && offered.example) || {};
    const picker = h("select");
    const shapeTitle = (value) => this.words.value(kindOf(key), tag, value) || humanize(value);
    for (const [value, shape] of shapes) picker.append(h("option", { value, text: shapeTitle(value), title: shape.description || "" }));
    const wanted = [this.drafts.get(`${key}#shape`), example[tag]].find((v) => shapes.some(([value]) => value === v));
    picker.value = wanted || shapes[0][0];
    const slot = h("div", { class: "shape" });
    let current = null;
    const draw = () => {
      const shape = shapes.find(([value]) => value === picker.value)[1];
      current = this.objectControl(`${key}/${picker.value}`, shapeTitle(picker.value), shape.description || "", shape, true, example[tag] === picker.value ? example : undefined);
      slot.replaceChildren(current.el);
    };
    picker.addEventListener("change", () => {
      this.drafts.set(`${key}#shape`, picker.value);
      draw();
    });
    draw();
    // The picker takes the field's words ("Which" where the system has none): a legend
    // above it saying the same would be read twice; the shape's own fields are a group.
    const named = this.words.field(kindOf(key), name) ? title : "Which";
    return { el: h("div", { class: "union" }, labelled(named, picker, help), slot), read: () => current.read() };
  }

  jsonControl(key, title, help, offered, required, draft) {
    // Free-form data (a whole sheet, a table file): a file the command line wrote, chosen
    // or pasted in (the page reads it as JSON; its words never say so).
    const example = offered && offered.example !== undefined && offered.example !== null ? JSON.stringify(offered.example) : "";
    const area = h("textarea", { rows: 3, placeholder: example, spellcheck: "false", "aria-required": required ? "true" : null });
    if (draft !== undefined) area.value = draft;
    area.addEventListener("input", () => this.drafts.set(key, area.value));
    const file = h("input", { type: "file", accept: ".json,application/json" });
    file.addEventListener("change", async () => {
      if (file.files[0]) {
        area.value = await file.files[0].text();
        this.drafts.set(key, area.value);
      }
    });
    const parts = [labelled(title, file), labelled(`Or paste the ${title.toLowerCase()} here`, area, help)];
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
          throw new Error(`${title}: the page cannot read this as a saved file (it begins “${text.slice(0, 40)}”)`);
        }
      },
    };
  }

  buttons(offer, send, extra = () => null, omit = new Set()) {
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
        }, describeIntent(intent, this.labelOf, omit), extra(intent)),
      ),
    );
    return h("div", { class: "offer", "data-kind": offer.kind }, group, errorSlot);
  }
}

const LONG_TEXT = 200;
const SOMEONE_ELSE = "__someone_else";

function withFilePicker(field, box, title, drafts, noteKey) {
  // A field that holds a file's text (a group's supplement file) opens the file too: its
  // text fills the box, where it can be read before sending. A file refused here stays
  // said when the form is drawn again (another member's move redraws it), as a draft does.
  const picker = h("input", { type: "file", accept: ".toml,.json,text/plain,application/json", "aria-label": `Open a file for ${title}` });
  const said = h("p", { class: "error", role: "status", text: drafts.get(noteKey) || "" });
  box.addEventListener("input", () => { said.textContent = ""; drafts.delete(noteKey); });
  picker.addEventListener("change", async () => {
    const file = picker.files && picker.files[0];
    if (!file) return;
    const text = await file.text();
    if (box.maxLength > 0 && text.length > box.maxLength) {
      // Refused here, in words, rather than sent and refused as a malformed request.
      said.textContent = `${file.name} has ${text.length.toLocaleString("en")} characters: the table takes a file of at most ${box.maxLength.toLocaleString("en")}. Split it, or leave out what this table does not use.`;
      drafts.set(noteKey, said.textContent);
      return;
    }
    box.value = text;
    box.dispatchEvent(new Event("input"));
  });
  return h("div", { class: "file-field" }, field, picker, said);
}
// A free text allowed more characters than this (a sheet's notes) gets a box of several lines.

function asWords(named, value) {
  // What the room calls a value, or, where neither the system nor the room names it, the
  // value as words: "draw-weapon" as "draw weapon", "behind_closer" as "behind closer".
  const text = String(named);
  return text === String(value) ? text.replace(/_/g, " ").replace(/(?<=[a-z])-(?=[a-z])/g, " ") : text;
}

function sentences(help, more) {
  // A help line and one more clause: after a full stop as its own sentence, else after a
  // semicolon ("… holds. Pick at least one", not "… holds.; pick at least one").
  if (!help || !more) return help || more;
  return /[.!?]$/.test(help) ? `${help} ${more[0].toUpperCase()}${more.slice(1)}.` : `${help}; ${more}`;
}

function ordinal(n) {
  // 1st, 2nd, 3rd, 4th… 11th, 12th, 13th, 21st.
  const teen = n % 100 >= 11 && n % 100 <= 13;
  return `${n}${teen ? "th" : ["th", "st", "nd", "rd"][n % 10] || "th"}`;
}

function kindOf(key) {
  // The intent kind a field's key belongs to: keys start with the kind (and its presets).
  return key.split("/")[0].split("@")[0];
}

function own(object, key) {
  return Object.hasOwn(object, key) ? object[key] : null;
}

function isPlain(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function merged(base, over) {
  // The offer's presets with the page's written over them, nested objects key by key.
  const out = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = isPlain(value) && isPlain(out[key]) ? merged(out[key], value) : value;
  return out;
}

function optionText(value, label, said = null) {
  // `said`: the system's words for this very value ("Played by": null is "You")
  if (value === null) return said || "(none)";
  if (typeof value === "boolean") return value ? "yes" : "no";
  return label();
}

function omit(object, key) {
  const copy = { ...object };
  delete copy[key];
  return copy;
}
