"""A walker over the room page (issue 23, "every control is exercised"): it finds what a
member can activate from the page itself (buttons, forms, pick-lists, links, disclosure
summaries and the ship's places), activates each once, scanning the page again after
every step until no page shows anything new, and keeps what went wrong on the way instead
of stopping at the first problem, so one run names every offender.

When two controls are the same one: a control is named by where it sits (the `data-key`,
`data-draft`, `data-kind` and ids of the parts around it), its kind and its accessible
name with the digits and the members' names taken out, so "Remove Ada" after a rename and
the re-roll of die 2 after die 1 are not new; a part that holds a single control (the
GM's Undo, "your own link", an invite's Copy) names it by the part alone, since its words
follow the log or what it just did.

Activating: a control is scrolled to, must be the element found at its centre (nothing
covers it), and is clicked; a form is filled from what it offers itself (the first option
of a pick-list, the minimum of a number or its example, a text field's example or, where
the field needs one, a short text; boxes stay as they are) and sent with its own button;
a button beside fields outside a form (rename a member) has those filled first; a
pick-list outside a form is set to another of its options; a link opening a page waits
for it to load. Dialogs (confirm) are accepted.

Kept apart, on purpose: the GM's controls over other members (rename, role, remove) come
after every other control of every member, and removing a member last of all, since that
ends their page. Never activated: links that leave the app, and import forms (those with
a file input), whose whole point is a file from disk; both are listed as skipped, and an
import form's kind is not asked of the log."""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx
from playwright.sync_api import Browser
from playwright.sync_api import Error as PlaywrightError

from tests.pages import driver

VERBOSE = bool(os.environ.get("WALK_VERBOSE"))
"""WALK_VERBOSE=1 prints each step as it is taken, with where its time went."""
WALK_PHONE = {"width": 360, "height": 740}
TOUCH = 44
"""CSS px a touch target needs in its smaller dimension (WCAG 2.5.5's 44 × 44)."""
STILL = 100
"""Milliseconds a page must stay unchanged, nothing in flight, to count as settled."""
SHORT_TEXT = "walk"
TRIES = 4
"""How many times a form the rules refuse is sent, its choices moved on each time."""
PAGE_FAULTS = r"fill it in|not an intent|not JSON"
"""What a form's error says when the page, not the rules, is at fault."""

CONTROLS = "a[href], button, summary, select, input, textarea, [role=button], [role=link], form"

WATCH = """(() => {
  // Counts the page's changes (not the walk's own marks, nor a button's busy mark) and
  // when the last came: whether a step did something, and when a page is still.
  const seen = { changes: 0, last: performance.now() };
  window.__walk = seen;
  const ours = new Set(['data-walk', 'aria-busy']);
  new MutationObserver((records) => {
    if (records.every((r) => r.type === 'attributes' && ours.has(r.attributeName))) return;
    seen.changes += 1;
    seen.last = performance.now();
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})();"""

STATE = """() => {
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
}"""

SCAN = """() => {
  const names = [...document.querySelectorAll('#members .name')].map((e) => e.textContent.trim())
    .filter(Boolean).sort((a, b) => b.length - a.length);
  const norm = (text) => {
    let t = (text || '').replace(/\\s+/g, ' ').trim();
    for (const n of names) t = t.split(n).join('‹m›');
    return t.replace(/\\d+/g, '#').slice(0, 80);
  };
  const shown = (el) => el.checkVisibility({ checkVisibilityCSS: true }) && el.getClientRects().length > 0;
  const ownId = (id) => id && !/^(f|hint|legend|whisper)-\\d+$/.test(id);
  const context = (el) => {
    const parts = [];
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      // the digits go: a control repeated on each character's card, or for each member,
      // is one control (its first copy walked)
      const mark = a.dataset.key || a.dataset.draft || a.dataset.kind || (ownId(a.id) ? `#${a.id}` : '');
      if (mark) parts.unshift(mark.replace(/\\d+/g, '#'));
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
  const besideButton = (el) => {
    // A select or field outside a form whose row holds a button: filled for that button.
    const fieldBox = el.closest('.field');
    const row = fieldBox ? fieldBox.parentElement : el.parentElement;
    return row && [...row.children].some((c) => c.tagName === 'BUTTON');
  };
  const units = [];
  const skipped = [];
  const skippedKinds = [];
  for (const el of document.querySelectorAll(%(controls)s)) {
    const visible = shown(el);
    const tag = el.tagName;
    const form = tag === 'FORM' ? null : el.closest('form');
    const type = (el.getAttribute('type') || '').toLowerCase();
    let kind = null;
    if (tag === 'FORM') {
      if (!el.querySelector('button[type=submit], button:not([type])')) continue;
      if (el.querySelector('input[type=file]')) {
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
    units.push({ el, kind, usable, name: norm(nameOf(el)), where: context(el) });
  }
  // a part (data-key or data-kind) holding a single control, shown or not, names it alone
  const holders = new Map();
  for (const unit of units) {
    unit.part = unit.el.parentElement && unit.el.parentElement.closest('[data-key], [data-kind]');
    if (unit.part) holders.set(unit.part, (holders.get(unit.part) || 0) + 1);
  }
  const anchor = (unit) => unit.kind === 'form'
    ? unit.el.querySelector('button[type=submit], button:not([type])') : unit.el;
  const usable = units.filter((unit) => unit.usable);
  usable.sort((a, b) => (anchor(a).compareDocumentPosition(anchor(b)) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  document.querySelectorAll('[data-walk]').forEach((el) => el.removeAttribute('data-walk'));
  return {
    skipped,
    skippedKinds,
    units: usable.map((unit, i) => {
      unit.el.setAttribute('data-walk', String(i));
      const alone = unit.part && holders.get(unit.part) === 1 && unit.kind !== 'form';
      const label = alone ? '' : ` "${unit.name}"`;
      const phase = unit.el.closest('.danger') ? 2 : unit.el.closest('#members .tools') ? 1 : 0;
      const tools = unit.el.closest('[data-key^="tools-"]');
      const offer = unit.el.closest('[data-kind]');
      return {
        id: i,
        kind: unit.kind,
        phase,
        member: tools ? tools.dataset.key.slice('tools-'.length) : null,
        draft: unit.el.dataset.draft || null,
        intent: offer ? offer.dataset.kind : null,
        name: `${unit.kind} "${unit.name}" in ${unit.where || 'the page'}`,
        key: `${unit.where} | ${unit.kind}${label}`,
        popup: unit.el.getAttribute('target') === '_blank',
      };
    }),
  };
}""".replace("%(controls)s", json.dumps(CONTROLS))

FILL = """(root, inForm, count, variation) => {
  // Fill the fields of a form (or of a button's row) from what they offer: each
  // pick-list's first option (a later try moves one of them on), a number's example or
  // its minimum (1 at least), a text field's structured example (a dice expression) or
  // else a short text where it needs one, the first of a set of boxes; what hides under
  // "more options" keeps its defaults. Returns how many short texts are made up.
  let made = count;
  const shown = (el) => el.checkVisibility({ checkVisibilityCSS: true }) && el.getClientRects().length > 0;
  const usable = (el) => shown(el) && !el.disabled && !el.closest('details.more');
  const set = (el, value) => {
    el.value = value;
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  };
  const needed = (el) => !inForm || el.required || el.getAttribute('aria-required') === 'true';
  const structured = (text) => /[^A-Za-z ]/.test(text);
  // pick-lists first, each asked again after the one before (a choice of shape redraws)
  for (let i = 0; ; i += 1) {
    const selects = [...root.querySelectorAll('select')].filter(usable);
    if (i >= selects.length) break;
    const el = selects[i];
    const bump = variation > 0 && (variation - 1) % selects.length === i;
    const want = bump ? (1 + Math.floor((variation - 1) / selects.length)) % el.options.length : 0;
    if (el.options.length && el.selectedIndex !== want) {
      el.selectedIndex = want;
      el.dispatchEvent(new Event('change', { bubbles: true }));
    }
  }
  for (const el of root.querySelectorAll('input, textarea')) {
    if (!usable(el)) continue;
    const type = (el.getAttribute('type') || 'text').toLowerCase();
    const example = el.getAttribute('placeholder') || '';
    if (type === 'checkbox') {
      // one of a set (the characters on a side, whom to whisper to): the first, if none
      // is; a yes-or-no of its own keeps its default
      const group = el.closest('fieldset');
      const first = el.closest('span.check') && group && group.querySelector('span.check input');
      if (first === el && !group.querySelector('span.check input:checked')) el.click();
    } else if (type === 'radio' || type === 'file') {
      continue;
    } else if (type === 'number') {
      const min = Number(el.getAttribute('min') || 1);
      set(el, /^-?\\d+$/.test(example) ? example : String(Math.max(min, 1)));
    } else if (el.tagName === 'TEXTAREA') {
      if (example && needed(el)) set(el, example);
    } else if (needed(el) && example && structured(example)) {
      set(el, example.split(',')[0].trim());
    } else if (needed(el)) {
      made += 1;
      set(el, `%(short)s${made}`);
    }
  }
  return made;
}""".replace("%(short)s", SHORT_TEXT)

PRESS = """(el, [kind, count, variation]) => {
  // Fill what the control acts on, then click it where a finger would: scrolled into view,
  // the element at its centre must be it (or inside it). Returns the count of made-up
  // texts, or what covers the control.
  const fill = %(fill)s;
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
}""".replace("%(fill)s", FILL)

CHECK = """([touch, phone]) => {
  const shown = (el) => el.checkVisibility({ checkVisibilityCSS: true }) && el.getClientRects().length > 0;
  const say = (el) => ((el.getAttribute('aria-label') || (el.labels && el.labels[0] && el.labels[0].textContent)
    || el.textContent || el.getAttribute('title') || el.getAttribute('placeholder') || el.tagName)
    .replace(/\\s+/g, ' ').trim().slice(0, 60));
  const errors = [];
  for (const el of document.querySelectorAll('.error, #notice, [role=alert], .bad, #status .badge')) {
    const text = (el.textContent || '').trim();
    if (!text || !shown(el)) continue;
    if (el.matches('#status .badge') && !el.matches('.bad, .warn')) continue;
    errors.push(text.slice(0, 200));
  }
  const result = { errors, wide: null, small: [] };
  if (!phone) return result;
  const doc = document.scrollingElement;
  if (doc.scrollWidth > doc.clientWidth) {
    const widest = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > doc.clientWidth + 1)
      .slice(0, 4).map((el) => `${el.tagName.toLowerCase()}.${String(el.className.baseVal ?? el.className).split(' ').join('.')}`);
    result.wide = `${doc.scrollWidth} px wide in ${doc.clientWidth}, by ${widest.join(', ')}`;
  }
  for (const el of document.querySelectorAll(%(controls)s)) {
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
}""".replace("%(controls)s", json.dumps(CONTROLS))


@dataclass
class Walking:
    """One member's page under the walk."""

    who: str
    seat: driver.Seat
    phone: bool
    token: str = ""
    member: str = ""
    gone: bool = False
    """Removed from the room by the GM: the page's end is expected, not checked."""
    activated: dict[str, str] = field(default_factory=dict)
    seen: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Every control the page showed, by key."""
    skipped: set[str] = field(default_factory=set)
    skipped_kinds: set[str] = field(default_factory=set)
    """The kinds of the import forms skipped: no file, no import."""
    inflight: int = 0
    downloads: int = 0
    popups: int = 0
    legal: list[Any] = field(default_factory=list)
    scanned: tuple[int, list[dict[str, Any]]] | None = None
    """The last scan, and the page's change count it was made at."""
    checked: int = -1
    """The page's change count at its last check."""

    @property
    def page(self) -> Any:
        return self.seat.page


@dataclass
class Walk:
    """The walk of one room: its members' pages, the problems found, the steps taken."""

    url: str
    room: str = ""
    people: list[Walking] = field(default_factory=list)
    problems: dict[str, str] = field(default_factory=dict)
    """Each problem once, with the step that first showed it."""
    steps: list[str] = field(default_factory=list)
    step_now: str = "opening the room"
    made_up: int = 0
    started: float = 0.0
    walked: float = 0.0
    """Seconds spent walking (setting the table up aside)."""
    max_steps: int = 400

    # seats ------------------------------------------------------------------------------

    def add(self, browser: Browser, who: str, phone: bool = True) -> Walking:
        seat = driver.seat(browser, WALK_PHONE if phone else driver.DESKTOP)
        person = Walking(who, seat, phone)
        page, context = seat.page, seat.page.context
        context.add_init_script(WATCH)
        page.on("dialog", lambda dialog: dialog.accept())
        page.on("download", lambda _: _count(person, "downloads"))
        page.on("popup", lambda popup: self._popup(person, popup))
        page.on("console", lambda message: self._console(person, message))
        page.on("pageerror", lambda error: self.problem(person, f"uncaught script error: {error}"))
        page.on("request", lambda _: _count(person, "inflight"))
        page.on("requestfinished", lambda _: _count(person, "inflight", -1))
        page.on("requestfailed", lambda request: self._failed(person, request))
        context.on("response", lambda response: self._response(person, response))
        self.people.append(person)
        return person

    def _popup(self, person: Walking, popup: Any) -> None:
        person.popups += 1
        popup.on("console", lambda message: self._console(person, message, popup.url))
        popup.on(
            "pageerror", lambda error: self.problem(person, f"script error in {popup.url}: {error}")
        )

    def _console(self, person: Walking, message: Any, where: str = "") -> None:
        if message.type == "error":
            self.problem(person, f"console error{f' in {where}' if where else ''}: {message.text}")

    def _failed(self, person: Walking, request: Any) -> None:
        _count(person, "inflight", -1)
        if request.url.startswith("blob:"):
            return  # a download handed to the browser
        self.problem(
            person, f"request failed: {request.method} {_path(request.url)} ({request.failure})"
        )

    def _response(self, person: Walking, response: Any) -> None:
        if response.status >= 400:
            self.problem(
                person,
                f"HTTP {response.status} for {response.request.method} {_path(response.url)}",
            )
        if urlsplit(response.url).path.endswith("/legal") and response.frame.page == person.page:
            person.legal.append(response)

    def problem(self, person: Walking, text: str, after_removal: bool = False) -> None:
        if after_removal or not person.gone:
            self.problems.setdefault(f"{person.who}: {text}", self.step_now)

    # reading the room -------------------------------------------------------------------

    def live_people(self) -> list[Walking]:
        return [p for p in self.people if not p.gone]

    def identify(self) -> None:
        """Each page's token (its address's fragment) and member id, for the checks."""
        for person in self.people:
            url = urlsplit(person.page.url)
            self.room = url.path.rsplit("/", 1)[-1]
            person.token = url.fragment
            person.member = self.get(person, "/whoami")["member"]["id"]

    def get(self, person: Walking, path: str) -> Any:
        answer = httpx.get(
            f"{self.url}/rooms/{self.room}{path}",
            headers={"Authorization": f"Bearer {person.token}"},
            timeout=10,
        )
        answer.raise_for_status()
        if answer.headers["content-type"].startswith("application/x-ndjson"):
            return [json.loads(line) for line in answer.text.splitlines() if line]
        return answer.json()

    def settle(self, deadline: float = 10.0) -> None:
        """Wait until every page has drawn the same last entry, has no request in flight
        and nothing busy, and has not changed for a moment."""
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            people = self.live_people()
            states = [p.page.evaluate(STATE) for p in people]
            quiet = all(
                p.inflight <= 0 and not s["busy"] and s["still"] > STILL
                for p, s in zip(people, states, strict=True)
            )
            if quiet and len({s["head"] for s in states}) == 1:
                return
            people[0].page.wait_for_timeout(25)
        where = [(p.who, p.inflight, s) for p, s in zip(people, states, strict=True)]
        self.problem(self.people[0], f"the pages did not settle within {deadline:g} s: {where}")

    def check(self) -> None:
        """After a step, on each page that changed: no error shown; on a phone, no sideways
        scroll and no control under 44 px."""
        for person in self.live_people():
            changes = person.page.evaluate(STATE)["changes"]
            if changes == person.checked:
                continue
            person.checked = changes
            found = person.page.evaluate(CHECK, [TOUCH, person.phone])
            for text in found["errors"]:
                self.problem(person, f"error shown: {text}")
            if found["wide"]:
                self.problem(person, f"scrolls sideways: {found['wide']}")
            for small in found["small"]:
                self.problem(person, f"a touch target under {TOUCH} px: {small}")

    # walking ----------------------------------------------------------------------------

    def scan(self, person: Walking) -> list[dict[str, Any]]:
        changes = person.page.evaluate(STATE)["changes"]
        if person.scanned and person.scanned[0] == changes:
            return person.scanned[1]
        found = person.page.evaluate(SCAN)
        person.skipped.update(found["skipped"])
        person.skipped_kinds.update(found["skippedKinds"])
        for unit in found["units"]:
            person.seen.setdefault(unit["key"], unit)
        person.scanned = (changes, found["units"])
        return found["units"]

    def walk(self, budget: float = float(os.environ.get("WALK_BUDGET", 50))) -> None:
        """Activate every new control of every page, a step each in turn, until no page
        shows one; the GM's controls over other members last. `budget` bounds the seconds
        all walks of this room take together."""
        self.settle()
        self.check()
        self.started = time.monotonic()
        try:
            while len(self.steps) < self.max_steps:
                spent = self.walked + time.monotonic() - self.started
                assert spent < budget, self.report(f"the walk ran out of time ({budget:g} s)")
                if not self._round():
                    return
            raise AssertionError(self.report(f"the walk did not end in {self.max_steps} steps"))
        finally:
            self.walked += time.monotonic() - self.started

    def _round(self) -> bool:
        """Each page in turn takes its next new step; the later phases only once no page
        has an earlier one. Whether any page moved."""
        for phase in (0, 1, 2):
            moved = False
            for person in self.live_people():
                fresh = [
                    u
                    for u in self.scan(person)
                    if u["phase"] == phase and u["key"] not in person.activated
                ]
                if fresh:
                    self.activate(person, fresh[0])
                    moved = True
            if moved:
                return True
        return False

    def activate(self, person: Walking, unit: dict[str, Any]) -> None:
        """One step: press the control, wait for its first sign and for every page to
        settle, then check. A form the rules refuse is sent again with another of its
        pick-lists' options moved on (`TRIES` in all); what the last try shows is what
        counts."""
        page = person.page
        person.activated[unit["key"]] = unit["name"]
        self.step_now = f"{person.who}: {unit['name']}"
        started = time.monotonic()
        self.steps.append(f"{self.walked + started - self.started:6.1f} {self.step_now}")
        target = page.locator(f'[data-walk="{unit["id"]}"]')
        before = self.mark(person)
        if unit["phase"] == 2:
            self._removing(unit)
        for variation in range(TRIES):
            try:
                self._press(person, unit, target, variation)
            except PlaywrightError as error:
                if target.count():
                    self.problem(
                        person, f"cannot activate {unit['name']}: {str(error).splitlines()[0]}"
                    )
                return  # else the step before redrew it away: a later scan finds it again
            self._first_sign(person, before)
            self.settle()
            refused = self._refused(person, unit)
            if not refused:
                break
            self.steps.append(f"{'':6} … refused ({refused}); again with other choices")
            target = page.locator(f"form[data-draft={json.dumps(unit['draft'])}]").first
            if not target.count():
                break
        after = self.mark(person)
        if after == before:
            self.problem(person, f"nothing changed after {unit['name']}")
        elif after[1] != before[1]:
            self._address_moved(person, before[1])
        self.check()
        if VERBOSE:
            print(f"{self.steps[-1]}  [{time.monotonic() - started:.2f} s]")

    def _refused(self, person: Walking, unit: dict[str, Any]) -> str:
        """What the rules said to a form sent, when they refused it (a form the page itself
        stops, or one the schema refuses, is the page's fault: never sent again)."""
        if unit["kind"] != "form" or not unit["draft"]:
            return ""
        said = person.page.evaluate(
            "draft => [...document.querySelectorAll('form[data-draft]')]"
            ".filter((f) => f.dataset.draft === draft)"
            ".map((f) => (f.querySelector('.error') || {}).textContent || '').join(' ').trim()",
            unit["draft"],
        )
        return "" if re.search(PAGE_FAULTS, said) else said

    def mark(self, person: Walking) -> tuple[Any, ...]:
        """What a step may change: the page, its address, its focus, what it downloaded and
        the pages it opened."""
        state = person.page.evaluate(STATE)
        return (state["changes"], state["url"], state["focus"], person.downloads, person.popups)

    def _first_sign(self, person: Walking, before: tuple[Any, ...]) -> None:
        """Wait (three seconds at most) for the first sign of a step."""
        end = time.monotonic() + 3
        while time.monotonic() < end and self.mark(person) == before:
            person.page.wait_for_timeout(20)

    def _press(self, person: Walking, unit: dict[str, Any], target: Any, variation: int) -> None:
        if unit["popup"]:
            with person.page.expect_popup(timeout=5_000) as opened:
                target.click(timeout=3_000)
            opened.value.wait_for_load_state()
            opened.value.close()
            return
        done = target.evaluate(PRESS, [unit["kind"], self.made_up, variation])
        if "covered" in done:
            raise PlaywrightError(f"the element at its centre is {done['covered']}")
        self.made_up = done["made"]
        if done.get("keyboard"):
            person.page.keyboard.press("Enter")

    def _address_moved(self, person: Walking, old: str) -> None:
        """A step that changed the page's address: the member's link must stay there (a
        person reloads it, bookmarks it, shares it)."""
        self.problem(
            person, f"the address changed from the member's link to {_path(person.page.url)}"
        )
        person.page.goto(old)
        person.page.reload()

    def _removing(self, unit: dict[str, Any]) -> None:
        """The member a removal names: their page's end is expected from now on."""
        for person in self.people:
            if person.member and person.member == unit["member"]:
                person.gone = True

    # after the walk ---------------------------------------------------------------------

    def reached(self, gm: Walking) -> dict[str, set[str]]:
        """The intent kinds in the GM's full export, by the member who asked (refusals
        aside)."""
        reached: dict[str, set[str]] = {}
        for line in self.get(gm, "/export"):
            cause = (line.get("event") or {}).get("cause") or {}
            if cause.get("intent") and not cause.get("refused"):
                reached.setdefault(cause["member"]["id"], set()).add(cause["intent"]["kind"])
        return reached

    def offered_kinds(self, person: Walking) -> set[str]:
        kinds = set()
        for response in person.legal:
            try:
                kinds |= {offer["kind"] for offer in response.json()["offers"]}
            except PlaywrightError:
                continue
        return kinds

    def accounted(self, gm: Walking) -> dict[str, set[str]]:
        """Every control a page showed was activated, and every kind offered a member
        reached the log as theirs (import forms aside). One allowance, since a table moves
        on: a control that went before its turn (someone else's step closed it: another
        member stepped into the fight for a character both could) passes when its kind
        reached the log, and then so does that kind for this member. The offered kinds by
        member."""
        reached = self.reached(gm)
        anyone = set().union(*reached.values()) if reached else set()
        offered = {}
        for person in self.people:
            offered[person.who] = self.offered_kinds(person)
            shown = set() if person.gone else {u["key"] for u in self.scan(person)}
            gone_before: set[str] = set()
            for key, unit in person.seen.items():
                if key in person.activated:
                    continue
                if key in shown or unit["intent"] not in anyone:
                    self.problem(person, f"never activated: {unit['name']}", True)
                else:
                    gone_before.add(unit["intent"])
            mine = reached.get(person.member, set())
            missing = offered[person.who] - mine - person.skipped_kinds
            for kind in sorted(missing):
                if kind not in gone_before or kind not in anyone:
                    self.problem(person, f"offered {kind!r}, which never reached the log", True)
        return offered

    def secrets_kept(self, gm: Walking, player: Walking, planted: list[str]) -> None:
        """No text of an entry the GM's log holds and the player's does not (nor any value
        planted), in the player's socket frames, HTTP answers or page."""
        theirs = {}
        for frame in player.seat.frames:
            entry = json.loads(frame)
            if "seq" in entry and "event" in entry:
                theirs[entry["seq"]] = entry["event"]
        public = {e["text"] for e in theirs.values() if e["visibility"] == "public"}
        last = max(theirs, default=0)  # a removed player is sent nothing after
        hidden = set(planted)
        for line in self.get(gm, "/export"):
            if "event" not in line or line["seq"] > last:
                continue
            seen = theirs.get(line["seq"])
            text = line["event"]["text"]
            if (seen is None or seen["text"] != text) and text not in public:
                hidden.add(text)
        received = player.seat.received()
        for secret in sorted(hidden):
            if secret and secret in received:
                for frame in player.seat.frames:
                    if secret in frame:
                        print("FRAME", frame[:600])
                for body in player.seat.bodies:
                    try:
                        if secret in body.text():
                            print("BODY", body.url, body.text()[:300])
                    except Exception:
                        pass
                if secret in player.page.content():
                    print("DOM")
                self.problem(player, f"a hidden value reached the player's page: {secret!r}", True)

    def report(self, head: str = "the walk found problems") -> str:
        lines = [f"{head} ({len(self.steps)} steps):"]
        lines += [f"- {problem}  [after {step}]" for problem, step in self.problems.items()]
        lines += ["steps:", *self.steps]
        return "\n".join(lines)

    def summary(self, offered: dict[str, set[str]]) -> str:
        lines = [f"{len(self.steps)} steps in {self.walked:.1f} s"]
        for person in self.people:
            lines.append(
                f"{person.who}: {len(person.seen)} controls found, {len(person.activated)} "
                f"activated; kinds offered and reached: {', '.join(sorted(offered[person.who]))}"
            )
            lines += [f"  skipped: {s}" for s in sorted(person.skipped)]
        return "\n".join(lines)


def _count(person: Walking, name: str, by: int = 1) -> None:
    setattr(person, name, getattr(person, name) + by)


def _path(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def finish(walk: Walk, gm: Walking, player: Walking, planted: list[str]) -> str:
    """The checks after a walk: every control shown was activated, every offered kind is
    in the log, nothing hidden reached the player; then no problem at all. A summary."""
    offered = walk.accounted(gm)
    walk.secrets_kept(gm, player, planted)
    assert not walk.problems, walk.report()
    return walk.summary(offered)
