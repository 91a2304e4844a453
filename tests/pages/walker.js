// The control walk's half in the page (tests/pages/walker.py says what the walk does
// and why): every page of a walked member runs this first (an init script), so the walk
// reads the page and acts on it in one call each, with no script of the page's own
// touched. Plain functions on `window.__walker`; `WATCH` counts the page's changes.
(() => {
  const CONTROLS = "a[href], button, summary, select, input, textarea, [role=button], [role=link], form";
  const SHORT_TEXT = "walk";

  // How many times the page changed (not the walk's own marks, nor a button's busy mark)
  // and when it last did: whether a step did something, and when a page is still.
  const seen = { changes: 0, last: performance.now() };
  window.__walk = seen;
  const ours = new Set(['data-walk', 'aria-busy']);
  const same = (r) => r.type === 'attributes'
    && (ours.has(r.attributeName) || r.target.getAttribute(r.attributeName) === r.oldValue);
  new MutationObserver((records) => {
    if (records.every(same)) return;  // an attribute set to what it was is no change
    seen.changes += 1;
    seen.last = performance.now();
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeOldValue: true, characterData: true });

  const snapshot = () => {
    // The page's markup as a hash, the walk's own marks and a button's busy mark aside.
    const html = document.body.innerHTML
      .replace(/ data-walk="\d+"/g, '').replace(/ aria-busy="true"/g, '');
    let hash = 0;
    for (let i = 0; i < html.length; i += 1) hash = (Math.imul(hash, 31) + html.charCodeAt(i)) | 0;
    return `${html.length}:${hash}`;
  };

  const state = () => {
    const active = document.activeElement;
    const walk = window.__walk || { changes: 0, last: 0 };
    return {
      head: document.body ? document.body.dataset.head || '' : '',
      busy: document.querySelectorAll('[aria-busy=true]').length,
      changes: walk.changes,
      still: performance.now() - walk.last,
      url: location.href,
      focus: active ? `${active.tagName}#${active.id}.${active.className}:${(active.textContent || '').slice(0, 30)}` : '',
    };
  };

  const scan = () => {
    const names = [...document.querySelectorAll('#members .name')].map((e) => e.textContent.trim())
      .filter(Boolean).sort((a, b) => b.length - a.length);
    const norm = (text) => {
      let t = (text || '').replace(/\s+/g, ' ').trim();
      for (const n of names) t = t.split(n).join('‹m›');
      return t.replace(/\d+/g, '#').slice(0, 80);
    };
    const shown = (el) => el.checkVisibility({ checkVisibilityCSS: true }) && el.getClientRects().length > 0;
    const ownId = (id) => id && !/^(f|hint|legend|whisper)-\d+$/.test(id);
    const context = (el) => {
      const parts = [];
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        // the digits go: a control repeated on each character's card, or for each member,
        // is one control (its first copy walked)
        const legend = a.tagName === 'FIELDSET' && a.querySelector(':scope > legend');
        const mark = a.dataset.key || a.dataset.draft || a.dataset.kind || (ownId(a.id) ? `#${a.id}` : '')
          || (legend ? legend.textContent.trim() : '');
        if (mark) parts.unshift(mark.replace(/\d+/g, '#'));
        // a card is the same card wherever the page puts it (the member's own, the one
        // whose turn it is, the others): its controls are named from the card down
        if (a.matches('article.card')) break;
      }
      return parts.join(' / ');
    };
    const nameOf = (el) => {
      if (el.tagName === 'FORM') {
        const box = el.closest('details');
        const summary = box && box.querySelector(':scope > summary');
        return el.getAttribute('aria-label') || (summary && summary.textContent)
          || (el.querySelector('[type=submit], button:not([type])') || {}).textContent || 'a form';
      }
      if (el.getAttribute('aria-label')) return el.getAttribute('aria-label');
      if (el.labels && el.labels.length) return el.labels[0].textContent;
      return el.textContent || el.getAttribute('title') || el.value || el.tagName;
    };
    const wordsOf = (el) => {
      // What a control says on its face names it (a button's "drop" beside every item); its
      // fuller accessible name ("drop: ration") is for the report. A card's Open or Fold goes
      // by its full name ("Open Ayla's sheet"): each card is opened, so its controls are seen.
      if (el.matches('button.fold')) return el.getAttribute('aria-label');
      const text = el.tagName === 'FORM' || el.tagName === 'SELECT' ? '' : (el.textContent || '').trim();
      return text || nameOf(el);
    };
    const besideButton = (el) => {
      // A select or field outside a form whose row holds a button: filled for that button.
      const fieldBox = el.closest('.field');
      const row = fieldBox ? fieldBox.parentElement : el.parentElement;
      return row && [...row.children].some((c) => c.tagName === 'BUTTON');
    };
    const units = [];
    const skipped = [];
    const skippedKinds = [];
    for (const el of document.querySelectorAll(CONTROLS)) {
      const visible = shown(el);
      const tag = el.tagName;
      const form = tag === 'FORM' ? null : el.closest('form');
      const type = (el.getAttribute('type') || '').toLowerCase();
      let kind = null;
      if (tag === 'FORM') {
        if (!el.querySelector('button[type=submit], button:not([type])')) continue;
        const json = [...el.querySelectorAll('textarea[aria-required=true]:not(.prose)')];
        if (json.some((area) => !area.closest('details.more') && !area.placeholder)) {
          // an import: what it needs, with no example to go by, is a file from disk (or
          // its JSON pasted)
          if (visible) skipped.push(`import form "${norm(nameOf(el))}"`);
          if (visible && el.dataset.kind) skippedKinds.push(el.dataset.kind);
          continue;
        }
        kind = 'form';
      } else if (form) {
        if (tag === 'SUMMARY') kind = 'summary';
        else if (tag === 'BUTTON' && type === 'button') kind = 'button';
        else continue;  // a field of its form, or its submit button
      } else if (tag === 'A') {
        const url = new URL(el.href, location.href);
        if (url.origin !== location.origin) {
          if (visible) skipped.push(`external link "${norm(nameOf(el))}" (${url.origin})`);
          continue;
        }
        kind = 'link';
      } else if (tag === 'SELECT') {
        if (besideButton(el)) continue;
        kind = 'select';
      } else if (tag === 'INPUT' || tag === 'TEXTAREA') {
        continue;  // a field of the button beside it
      } else {
        kind = tag === 'SUMMARY' ? 'summary' : 'button';
      }
      const usable = visible && !el.disabled && el.getAttribute('aria-disabled') !== 'true';
      units.push({ el, kind, usable, name: norm(nameOf(el)), words: norm(wordsOf(el)), where: context(el) });
    }
    // a part (data-key or data-kind) holding a single control, shown or not, names it alone
    const partOf = (el) => el.parentElement && el.parentElement.closest('[data-key], [data-kind]');
    const holders = new Map();
    for (const el of document.querySelectorAll('summary, button, select, a[href], [role=button], form')) {
      const part = partOf(el);
      if (part) holders.set(part, (holders.get(part) || 0) + 1);
    }
    for (const unit of units) unit.part = partOf(unit.el);
    const anchor = (unit) => unit.kind === 'form'
      ? unit.el.querySelector('button[type=submit], button:not([type])') : unit.el;
    const usable = units.filter((unit) => unit.usable);
    usable.sort((a, b) => (anchor(a).compareDocumentPosition(anchor(b)) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
    document.querySelectorAll('[data-walk]').forEach((el) => el.removeAttribute('data-walk'));
    const keyOf = (unit) => {
      const alone = unit.part && holders.get(unit.part) === 1 && unit.kind !== 'form';
      return `${unit.where} | ${unit.kind}${alone ? '' : ` "${unit.words}"`}`;
    };
    const ids = new Map(usable.map((unit, i) => [unit.el, i]));
    // controls in a disclosure closed again (its part was drawn anew), by the summary to open
    const closed = [];
    // (or in a folded card, by its Open button)
    const openerOf = (el) => {
      const box = el.closest('details:not([open]), .card-body[hidden]');
      if (!box) return null;
      return box.tagName === 'DETAILS' ? box.querySelector(':scope > summary') : document.querySelector(`[aria-controls="${box.id}"]`);
    };
    for (const unit of units) {
      if (unit.usable) continue;
      const summary = openerOf(unit.el);
      if (summary && ids.has(summary) && !unit.el.closest('.danger, #members .tools')) {
        closed.push([keyOf(unit), ids.get(summary)]);
      }
    }
    // controls shown but off for now, by the group they sit in (zoom out of the whole ship)
    const groupOf = (el) => {
      const group = el.closest('[role=group]');
      return group ? group.getAttribute('aria-label') || '' : '';
    };
    const off = units.filter((unit) => !unit.usable && shown(unit.el))
      .map((unit) => [keyOf(unit), groupOf(unit.el)]);
    return {
      skipped,
      skippedKinds,
      closed,
      off,
      units: usable.map((unit, i) => {
        unit.el.setAttribute('data-walk', String(i));
        // a card's Fold waits, with the GM's controls over members, until nothing else is new
        const fold = unit.el.matches('button.fold[aria-expanded=true]');
        const phase = unit.el.closest('.danger') ? 2 : unit.el.closest('#members .tools') || fold ? 1 : 0;
        const tools = unit.el.closest('[data-key^="tools-"]');
        const offer = unit.el.closest('[data-kind]');
        return {
          id: i,
          kind: unit.kind,
          phase,
          member: tools ? tools.dataset.key.slice('tools-'.length) : null,
          draft: unit.el.dataset.draft || null,
          // what changes its own page alone: a disclosure, a form's rows
          local: unit.kind === 'summary' || (unit.kind === 'button' && Boolean(unit.el.closest('form'))),
          intent: offer ? offer.dataset.kind : null,
          where: unit.where,
          group: groupOf(unit.el),
          name: `${unit.kind} "${unit.name}" in ${unit.where || 'the page'}`,
          key: keyOf(unit),
          popup: unit.el.getAttribute('target') === '_blank',
          fold,
        };
      }),
    };
  };

  const fill = (root, inForm, count, variation) => {
    // Fill the fields of a form (or of a button's row) from what they offer: each
    // pick-list's first option; a number's example, or its minimum (1 at least); where a
    // text field needs a value, its example (the first of a list) or a short text; and in
    // a set of boxes that needs some ("pick at least one") the first no other set took.
    // The rest keep what they hold, and what hides under "more options" its defaults.
    // A form the rules refused is tried again (`variation`): 1, a short text in each
    // empty field of words and for an example in words (a name another member took, or a
    // default one); 2, the numbers it can do without left empty; 3, every yes-or-no box
    // turned over, "more options" too; 4 on, one pick-list moved on a choice at a time.
    // Returns how many short texts are made up so far.
    let made = count;
    const shown = (el) => el.checkVisibility({ checkVisibilityCSS: true }) && el.getClientRects().length > 0;
    const usable = (el) => shown(el) && !el.disabled && !el.closest('details.more');
    const set = (el, value) => {
      el.value = value;
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
    };
    const needed = (el) => !inForm || el.required || el.getAttribute('aria-required') === 'true';
    const words = (text) => /^[A-Za-z ]+$/.test(text);
    const fresh = () => {
      made += 1;
      return `${SHORT_TEXT}${made}`;
    };
    // pick-lists first, each asked again after the one before (a choice of shape redraws)
    for (let i = 0; ; i += 1) {
      const selects = [...root.querySelectorAll('select')].filter(usable);
      if (i >= selects.length) break;
      const el = selects[i];
      const bump = variation >= 4 && (variation - 4) % selects.length === i;
      const want = bump ? (1 + Math.floor((variation - 4) / selects.length)) % el.options.length : 0;
      if (el.options.length && el.selectedIndex !== want) {
        el.selectedIndex = want;
        el.dispatchEvent(new Event('change', { bubbles: true }));
      }
    }
    for (const group of root.querySelectorAll('fieldset[data-least]')) {
      if (!usable(group)) continue;
      const taken = new Set([...root.querySelectorAll('span.check input:checked')].map((box) => box.value));
      let picked = group.querySelectorAll('span.check input:checked').length;
      for (const box of group.querySelectorAll('span.check input')) {
        if (picked >= Number(group.dataset.least)) break;
        if (box.checked || taken.has(box.value)) continue;
        box.click();
        picked += 1;
      }
    }
    if (variation === 3) {
      for (const box of root.querySelectorAll('.field.check input[type=checkbox]')) {
        box.checked = !box.checked;
        box.dispatchEvent(new Event('change', { bubbles: true }));
      }
    }
    for (const el of root.querySelectorAll('input, textarea')) {
      if (!usable(el)) continue;
      const type = (el.getAttribute('type') || 'text').toLowerCase();
      const hint = el.getAttribute('placeholder') || '';
      const list = hint === 'comma-separated' || hint.includes(',');
      const example = hint === 'comma-separated' ? '' : hint;  // how to write a list, no example
      if (type === 'checkbox' || type === 'radio' || type === 'file') {
        continue;
      } else if (type === 'number') {
        const min = Number(el.getAttribute('min') || 1);
        if (variation === 2 && !needed(el)) set(el, '');
        else if (el.value === '' || variation === 2) set(el, /^-?\d+$/.test(example) ? example : String(Math.max(min, 1)));
      } else if (!inForm) {
        set(el, fresh());  // a field beside its button (a member's new name): a new text
      } else if (el.tagName === 'TEXTAREA' && !el.matches('.prose')) {
        if (example && needed(el) && el.value === '') set(el, example);  // JSON: its example
      } else if (variation === 1 && !list && (el.value === '' ? !example || words(example) : false)) {
        set(el, fresh());
      } else if (variation === 1 && needed(el) && words(example) && el.value === example) {
        set(el, fresh());
      } else if (needed(el) && el.value === '') {
        set(el, example ? example.split(',')[0].trim() : fresh());
      }
    }
    return made;
  };

  const press = (el, [kind, count, variation]) => {
    // Fill what the control acts on, then click it where a finger would: scrolled into view,
    // the element at its centre must be it (or inside it). Returns the count of made-up
    // texts, or what covers the control.
    let made = count;
    let target = el;
    if (kind === 'form') {
      made = fill(el, true, made, variation);
      target = [...el.querySelectorAll('button[type=submit], button:not([type])')].pop();
    } else if (kind === 'select') {
      const other = [...el.options].find((o) => !o.selected);
      if (!other) return { covered: 'a pick-list with a single option' };
      el.value = other.value;
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
      return { made };
    } else {
      const row = el.parentElement;
      if (row && !row.closest('form') && [...row.children].some((c) => c.matches('.field'))) {
        made = fill(row, false, made, 0);
      }
    }
    const box = target.getBoundingClientRect();
    if (box.right <= 0) {
      // kept off the page until focused (a skip link): the keyboard's
      target.focus();
      return { made, keyboard: true };
    }
    target.scrollIntoView({ block: 'center', inline: 'center' });
    const r = target.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !target.contains(hit)) {
      return { covered: hit ? `${hit.tagName.toLowerCase()}.${String(hit.className.baseVal ?? hit.className)}` : 'nothing' };
    }
    if (target.click) target.click();
    else target.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, view: window }));
    return { made };
  };

  // What a page shows people must be words: no JSON, no Python value, no id of the room's
  // members, characters or NPCs, no schema value such as `basic-task` or `each_hour`. Dice
  // notation (`{2d20}kh1`), the links the page hands out (`.link`, `code`) and the example
  // in the box a saved file is pasted into are not data shown.
  const DATA = [
    [/[{[]\s*["'][^"'\n]{0,60}["']\s*[:,\]]/, 'JSON or a Python value'],
    [/\[\s*\{|\[object Object\]|\b(?:null|undefined|NaN)\b/, 'JSON or a script value'],
    [/[:=(\[,]\s*(?:None|True|False)\b/, 'a Python value'],
    [/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/, 'an id with underscores'],
  ];
  const EXEMPT = '.link, code, script, style, time, .json textarea';

  const shownText = (shown) => {
    // Every text the page shows: its visible text nodes (a pick-list's options when the
    // pick-list shows), and the names, hints and placeholders of what shows.
    const texts = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest(EXEMPT) || !node.textContent.trim()) continue;
      const holder = parent.closest('select') || parent;
      if (shown(holder)) texts.push(node.textContent.trim());
    }
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], img[alt]')) {
      if (el.closest(EXEMPT) || !shown(el)) continue;
      for (const name of ['aria-label', 'title', 'placeholder', 'alt']) if (el.getAttribute(name)) texts.push(el.getAttribute(name));
    }
    return texts;
  };

  const lint = (shown, ids, values) => {
    // Each text showing data instead of words, with what it shows.
    const found = [];
    const token = (word) => new RegExp(`(?<![\\w-])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`);
    const named = [...ids.map((id) => [token(id), 'an id']), ...values.map((v) => [token(v), 'a schema value'])];
    for (const text of shownText(shown)) {
      for (const [pattern, what] of [...DATA, ...named]) {
        const hit = text.match(pattern);
        if (hit) found.push(`${what} (${hit[0]}) in “${text.slice(0, 120)}”`);
      }
    }
    return [...new Set(found)];
  };

  const check = ([touch, phone, ids = [], values = []]) => {
    const shown = (el) => el.checkVisibility({ checkVisibilityCSS: true }) && el.getClientRects().length > 0;
    const say = (el) => ((el.getAttribute('aria-label') || (el.labels && el.labels[0] && el.labels[0].textContent)
      || el.textContent || el.getAttribute('title') || el.getAttribute('placeholder') || el.tagName)
      .replace(/\s+/g, ' ').trim().slice(0, 60));
    const errors = [];
    for (const el of document.querySelectorAll('.error, #notice, [role=alert], .bad, #status .badge')) {
      const text = (el.textContent || '').trim();
      if (!text || !shown(el)) continue;
      if (el.matches('#status .badge') && !el.matches('.bad, .warn')) continue;
      errors.push(text.slice(0, 200));
    }
    const result = { errors, wide: null, small: [], data: lint(shown, ids, values) };
    if (!phone) return result;
    const doc = document.scrollingElement;
    if (doc.scrollWidth > doc.clientWidth) {
      const widest = [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > doc.clientWidth + 1)
        .slice(0, 4).map((el) => `${el.tagName.toLowerCase()}.${String(el.className.baseVal ?? el.className).split(' ').join('.')}`);
      result.wide = `${doc.scrollWidth} px wide in ${doc.clientWidth}, by ${widest.join(', ')}`;
    }
    for (const el of document.querySelectorAll(CONTROLS)) {
      if (el.tagName === 'FORM' || !shown(el)) continue;
      const rects = [el.getBoundingClientRect()];
      if (el.labels) for (const label of el.labels) if (shown(label)) rects.push(label.getBoundingClientRect());
      const left = Math.min(...rects.map((r) => r.left));
      const right = Math.max(...rects.map((r) => r.right));
      const top = Math.min(...rects.map((r) => r.top));
      const bottom = Math.max(...rects.map((r) => r.bottom));
      if (right <= 0) continue;  // kept off the page until focused
      if (Math.min(right - left, bottom - top) < touch - 0.5) {
        result.small.push(`${el.tagName.toLowerCase()} "${say(el)}" ${Math.round(right - left)}×${Math.round(bottom - top)}`);
      }
    }
    return result;
  };

  window.__walker = { snapshot, state, scan, fill, press, check };
})();
