// The one JSON spelling hashes are taken over, exactly as the server writes it
// (`tabletop.data.canonical`: Python's json.dumps with keys sorted, no spaces, text as
// UTF-8): so the page recomputes a line's hash, a call and an intent's digest itself.
//
// JSON.parse loses what a hash needs: `2.0` and `2` become one number, and a whole number
// past 2**53 another. `parseExact` keeps each number as written (a `Num`), and `canonical`
// writes it as Python does: a whole number as its digits, any other as Python's repr of
// that float (`1e-07`, `1e+16`, `0.5`). A number the page made itself is read as the JSON
// it sends (`JSON.stringify`), which is what the server parses.

import { sha256hex } from "./sha256.js";

export class Num {
  constructor(raw) {
    this.raw = raw;
  }

  valueOf() {
    return Number(this.raw);
  }
}

export function parseExact(text) {
  // A JSON text read with every number kept as written; anything else as JSON.parse reads it.
  let at = 0;
  const fail = () => {
    throw new SyntaxError(`not JSON at character ${at}`);
  };
  const space = () => {
    while (at < text.length && " \t\n\r".includes(text[at])) at += 1;
  };
  const value = () => {
    space();
    const char = text[at];
    if (char === "{") {
      at += 1;
      const object = {};
      space();
      if (text[at] === "}") {
        at += 1;
        return object;
      }
      for (;;) {
        space();
        if (text[at] !== '"') fail();
        const key = string();
        space();
        if (text[at] !== ":") fail();
        at += 1;
        object[key] = value();
        space();
        if (text[at] === ",") at += 1;
        else if (text[at] === "}") {
          at += 1;
          return object;
        } else fail();
      }
    }
    if (char === "[") {
      at += 1;
      const array = [];
      space();
      if (text[at] === "]") {
        at += 1;
        return array;
      }
      for (;;) {
        array.push(value());
        space();
        if (text[at] === ",") at += 1;
        else if (text[at] === "]") {
          at += 1;
          return array;
        } else fail();
      }
    }
    if (char === '"') return string();
    for (const [word, meant] of [["true", true], ["false", false], ["null", null]]) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return meant;
      }
    }
    const number = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(at, at + 400));
    if (!number) fail();
    at += number[0].length;
    return new Num(number[0]);
  };
  const string = () => {
    const start = at;
    at += 1;
    while (text[at] !== '"') {
      if (at >= text.length) fail();
      at += text[at] === "\\" ? 2 : 1;
    }
    at += 1;
    return JSON.parse(text.slice(start, at));
  };
  const result = value();
  space();
  if (at !== text.length) fail();
  return result;
}

const ESCAPES = { '"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function quoted(text) {
  return `"${text.replace(/["\\\u0000-\u001f]/g, (c) => ESCAPES[c] || `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}"`;
}

function pythonFloat(x) {
  // Python's repr of a float: the shortest digits that read back as `x`, in plain notation
  // from 1e-4 up to 1e16 (at least one digit after the point), else `d.ddde±XX`.
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "Infinity" : "-Infinity";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const [mantissa, power] = Math.abs(x).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const exponent = Number(power);
  if (exponent < -4 || exponent >= 16) {
    const shown = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const size = String(Math.abs(exponent)).padStart(2, "0");
    return `${sign}${shown}e${exponent < 0 ? "-" : "+"}${size}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
  const fraction = digits.slice(exponent + 1) || "0";
  return `${sign}${whole}.${fraction}`;
}

function number(raw, value) {
  // A number as written in JSON (`raw`), as Python reads and then writes it.
  if (/[.eE]/.test(raw)) return pythonFloat(value);
  return raw === "-0" ? "0" : raw;
}

function byCodePoint(a, b) {
  // Python orders keys by code point; JavaScript's own sort by UTF-16 unit.
  const left = Array.from(a);
  const right = Array.from(b);
  for (let i = 0; i < Math.min(left.length, right.length); i += 1) {
    const diff = left[i].codePointAt(0) - right[i].codePointAt(0);
    if (diff) return diff;
  }
  return left.length - right.length;
}

export function canonical(value) {
  if (value === null || value === undefined) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (value instanceof Num) return number(value.raw, Number(value.raw));
  if (typeof value === "number") return number(JSON.stringify(value), value);
  if (typeof value === "string") return quoted(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const keys = Object.keys(value).filter((key) => value[key] !== undefined).sort(byCodePoint);
  return `{${keys.map((key) => `${quoted(key)}:${canonical(value[key])}`).join(",")}}`;
}

export function digest(value) {
  // The SHA-256 of a value's canonical JSON, in hex: how a room hashes a part or a call.
  return sha256hex(canonical(value));
}
