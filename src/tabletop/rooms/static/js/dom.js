// Building the page: every text goes in as text, never as HTML, so a name or a chat line
// holding markup or a script is shown exactly as typed.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "text") el.textContent = value;
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

let counter = 0;
export function uid(prefix = "f") {
  counter += 1;
  return `${prefix}-${counter}`;
}

export function labelled(text, control, hint = "") {
  // A form control with its visible label (and a hint the control is described by).
  if (!control.id) control.id = uid();
  const parts = [h("label", { for: control.id, text })];
  if (hint) {
    const hintId = uid("hint");
    control.setAttribute("aria-describedby", hintId);
    parts.push(control, h("small", { id: hintId, class: "hint", text: hint }));
  } else {
    parts.push(control);
  }
  return h("div", { class: "field" }, parts);
}

export function select(values, chosen, labelOf = String) {
  const el = h("select");
  for (const value of values) {
    const option = h("option", { value: JSON.stringify(value), text: labelOf(value) });
    if (JSON.stringify(value) === JSON.stringify(chosen)) option.selected = true;
    el.append(option);
  }
  return el;
}

export function chosen(selectEl) {
  return JSON.parse(selectEl.value);
}

export function download(name, text, type = "application/json") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function percent(p) {
  return `${(100 * p).toFixed(p > 0 && p < 0.01 ? 1 : 0)}%`;
}
