"""The control walk (issue 23, "every control is exercised"): it finds what a member can
activate from the page itself (buttons, forms, pick-lists, links, disclosures and the
ship's places: never from a list of them), activates each once, and scans every page
again after each step until none shows anything new. What goes wrong is kept, not raised
at once, so one run names every offender; `finish` asserts there was nothing.

Which controls are the same: a control is named by where it sits (the `data-key`,
`data-draft`, `data-kind`, ids and legends of the parts around it, up to its card if it is
on one: the card whose turn it is, drawn first, is the same card), its kind and the words
on its face, digits and members' names taken out; so the re-roll of die 2 after die 1,
"Remove Ada" after a rename, "drop" beside every item and the same form on each
character's card are one control each, walked once. A part holding a single control (the
GM's Undo, "your own link", an invite's Copy) names it by the part alone, its words
following the log or what it just did.

A step: the control is scrolled to, must be what is found at its centre (nothing covers it),
and is clicked (a control kept off the page until focused, the skip link, from the
keyboard); a link opening a page waits for it; dialogs are accepted. Its first sign is
awaited, then every page settles (nothing in flight, nothing busy, unchanged for a moment,
the GM's page at the room's last entry); then the checks, among them the text lint: no page
shows JSON, a Python value, an id of the room's (`m2`, `c1`) or a schema value written as an
id (`basic-task`, `each_hour`) in its text, its options, names or placeholders. Disclosures
and a form's rows only change their own page, so a page presses all of its new ones in one
go. Each page takes a step in turn; the GM's controls over members (rename, role) come once
no page has anything else, and removing a member last of all, since it ends their page.

Forms are filled from what they offer (walker.js `fill` says exactly how): the first
option of each pick-list, a number's example or minimum, a needed text's example or a
short text, the first boxes of a set that needs some. A form the rules refuse is sent
again, its choices moved on (`TRIES`); a form the page stops or the schema refuses is the
page's fault, sent once.

A folded card's Open is pressed like any button, each card's its own (named by the card),
so every card is opened and what it holds is seen; its Fold waits, as the GM's controls
over members do, until no page has anything else (a Fold gone before then, with its card
or with the turn that opened it, is not missed). Controls a fold hid (the turn moved on and
closed the card that was acting) are reached as those of a disclosure a redraw closed: its
Open is pressed again.

A table moves on: a control can go before its turn (another member stepped into the fight
first; a choice made the others go). Such a control passes when its kind is in the log;
otherwise the walk brings it back (`RECOVERIES` at most): it opens a disclosure a redraw
closed, presses again a control of the group of one that is off (zoom in, so 'Whole
ship' is on), or sends again its member's nearest form (write down gear, sit at the
table).

Skipped and reported: links that leave the app, and import forms (their one required field
is a file from disk or its JSON pasted, with no example), whose kinds the log is then not
asked for."""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
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
STILL = 70
"""Milliseconds a page must stay unchanged, nothing in flight, to count as settled."""
HEAD_EVERY = 0.25
"""Seconds between the walk's reads of the room's head while it waits for the pages: each
read is the GM's, and costs the GM's allowance."""
TRIES = 7
"""How many times a form the rules refuse is sent, its choices moved on each time."""
EXCHANGES = ("#main / #play", "#main / #asks")
"""Where a page shows the choices of a test under way: the play panel, and what is asked
of the member now (the layout puts a re-roll exchange's choices there)."""

BUDGET = float(os.environ.get("WALK_BUDGET", 480))
"""Seconds a room's walk may take before it counts as stuck: a few times what the longest
takes beside another walk on two cores (Dead Weight's, 130 s before witnessed dice, 215 s
since each roll waits for every page's answer), so a loaded machine does not fail it
(WALK_BUDGET=… to change)."""
RECOVERIES = 16

ALTERNATIVES = {"end-attack": {"meet-blow"}}
"""Kinds the rules offer as one step's alternatives, whose entry ends the other's offer: a
roll-under attack waiting on its armour is answered (meet-blow) or called off by the GM
(end-attack), and the walk's GM answers it first; calling it off is pressed in
tests/systems/rollunder/test_fight.py. A control of one passes when the other reached the log."""
"""How many controls a walk may press again to bring back one another step took away."""
PAGE_FAULTS = r"fill it in|not an intent|cannot read this as a saved file"
"""What a form's error says when the page, not the rules, is at fault."""

SCRIPT = (Path(__file__).parent / "walker.js").read_text()
"""The walk's half in the page (`window.__walker`), run first on every page it walks."""


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
    off: list[tuple[str, str]] = field(default_factory=list)
    """Controls shown but off (disabled) now, each with the group it sits in."""
    closed: list[tuple[str, int]] = field(default_factory=list)
    """Controls inside a disclosure shown closed, each with the id of its summary."""
    scanned: tuple[int, list[dict[str, Any]]] | None = None
    """The last scan, and the page's change count it was made at."""
    checked: int = -1
    """The page's change count at its last check."""
    read: list[Any] = field(default_factory=list)
    """The page's reads of the room's views and its system's intents (`not_words`)."""
    not_words: tuple[int, set[str], set[str]] = (0, set(), set())
    """How many of those were read, and the ids and schema values found in them."""

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
    kept_until: int = 0
    """The last entry the secrets were checked at, when checked before the walk ended."""
    recovered: int = 0
    """Forms sent again to bring back what went before its turn (`_recover`)."""

    # seats ------------------------------------------------------------------------------

    def add(self, browser: Browser, who: str, phone: bool = True) -> Walking:
        seat = driver.seat(browser, WALK_PHONE if phone else driver.DESKTOP)
        person = Walking(who, seat, phone)
        page, context = seat.page, seat.page.context
        context.add_init_script(SCRIPT)
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
        path = urlsplit(response.url).path
        if path.endswith("/legal") and response.frame.page == person.page:
            person.legal.append(response)
        if (
            VIEW.fullmatch(path) or path.endswith("/intents")
        ) and not response.request.is_navigation_request():
            person.read.append(response)

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

    def send(self, method: str, person: Walking, path: str, **kwargs: Any) -> httpx.Response:
        """A request as `person`, paced as a client is: reads cost what they read, and the
        walk's own presses and checks share the member's allowance, so a 429 is waited out."""
        for _ in range(10):
            answer = httpx.request(
                method,
                f"{self.url}/rooms/{self.room}{path}",
                headers={"Authorization": f"Bearer {person.token}"},
                timeout=10,
                **kwargs,
            )
            if answer.status_code != 429:
                break
            time.sleep(float(answer.headers.get("Retry-After", 1)))
        answer.raise_for_status()
        return answer

    def get(self, person: Walking, path: str) -> Any:
        answer = self.send("GET", person, path)
        if answer.headers["content-type"].startswith("application/x-ndjson"):
            return [json.loads(line) for line in answer.text.splitlines() if line]
        return answer.json()

    def head(self, gm: Walking) -> int:
        """The room's last entry, as the server has it."""
        return self.get(gm, "")["head"]

    def settle(self, deadline: float = 10.0) -> None:
        """Wait until every page has drawn the same last entry, has no request in flight
        and nothing busy, and has not changed for a moment."""
        end = time.monotonic() + deadline
        head, read_at = None, 0.0
        while time.monotonic() < end:
            people = self.live_people()
            states = [p.page.evaluate("() => __walker.state()") for p in people]
            quiet = all(
                p.inflight <= 0 and not s["busy"] and s["still"] > STILL
                for p, s in zip(people, states, strict=True)
            )
            # a whisper or a secret reaches only some pages: the GM's, which every entry
            # reaches, must have drawn the room's head; the rest need only be still
            if quiet and time.monotonic() - read_at > HEAD_EVERY:
                # the room's head, read at most every HEAD_EVERY s: a read costs the GM's
                # allowance, which the GM's page also spends, and polling it at every
                # turn of this loop left the page's own presses a 429 on a quick machine
                head, read_at = str(self.head(people[0])), time.monotonic()
            if quiet and states[0]["head"] == head:
                return
            people[0].page.wait_for_timeout(25)
        where = [(p.who, p.inflight, s) for p, s in zip(people, states, strict=True)]
        self.problem(self.people[0], f"the pages did not settle within {deadline:g} s: {where}")

    def check(self) -> None:
        """After a step, on each page that changed: what it shows is seen (so a control
        another member's step takes away before this page's turn is missed, and brought
        back); no error shown; on a phone, no sideways scroll and no control under 44 px."""
        for person in self.live_people():
            changes = person.page.evaluate("() => __walker.state()")["changes"]
            if changes == person.checked:
                continue
            person.checked = changes
            self.scan(person)  # what every page shows now is seen, not only the one stepping
            ids, values = (sorted(words) for words in not_words(person))
            asked = [TOUCH, person.phone, ids, values]
            found = person.page.evaluate("asked => __walker.check(asked)", asked)
            for text in found["errors"]:
                self.problem(person, f"error shown: {text}")
            if found["wide"]:
                self.problem(person, f"scrolls sideways: {found['wide']}")
            for small in found["small"]:
                self.problem(person, f"a touch target under {TOUCH} px: {small}")
            for shown in found["data"]:
                self.problem(person, f"shows data, not words: {shown}")

    # walking ----------------------------------------------------------------------------

    def scan(self, person: Walking) -> list[dict[str, Any]]:
        changes = person.page.evaluate("() => __walker.state()")["changes"]
        if person.scanned and person.scanned[0] == changes:
            return person.scanned[1]
        found = person.page.evaluate("() => __walker.scan()")
        person.skipped.update(found["skipped"])
        person.skipped_kinds.update(found["skippedKinds"])
        for unit in found["units"]:
            person.seen.setdefault(unit["key"], unit)
        person.scanned = (changes, found["units"])
        person.closed = found["closed"]
        person.off = found["off"]
        return found["units"]

    def walk(self, members: bool = True) -> None:
        """Activate every new control of every page, a step each in turn, until no page
        shows one; the GM's controls over other members last, and only when `members`
        (a walk that goes on later leaves the table as it is). `BUDGET` bounds the
        seconds all walks of this room take together."""
        self.settle()
        self.check()
        self.started = time.monotonic()
        try:
            while len(self.steps) < self.max_steps:
                spent = self.walked + time.monotonic() - self.started
                assert spent < BUDGET, self.report(f"the walk ran out of time ({BUDGET:g} s)")
                if not self._round(members):
                    return
            raise AssertionError(self.report(f"the walk did not end in {self.max_steps} steps"))
        finally:
            self.walked += time.monotonic() - self.started

    def _round(self, members: bool) -> bool:
        """Each page in turn takes its next new step (or, when it has any, presses all its
        new controls that only change the page itself: disclosures, a form's rows); the
        later phases only once no page has an earlier one. Whether any page moved."""
        for phase in (0, 1, 2) if members else (0,):
            moved = False
            for person in self.live_people():
                fresh = list(
                    {
                        u["key"]: u
                        for u in reversed(self.scan(person))
                        if u["phase"] == phase and u["key"] not in person.activated
                    }.values()
                )[::-1]  # each key once, at its first place
                if not fresh and phase == 0:
                    fresh = self._reopen(person) or self._enable(person) or self._carry_on(person)
                if not fresh:
                    continue
                moved = True
                local = [u for u in fresh if u["local"]]
                for unit in local:
                    self.activate(person, unit, local=True)
                if local:
                    self.check()
                else:
                    self.activate(person, fresh[0])
            if moved:
                return True
            if phase == 0 and self._recover():
                return True
        return False

    def _recover(self) -> bool:
        """A control that went before its turn (another member's step took its thing away:
        the GM dropped the gear Ada was about to carry elsewhere; a seat left, and with it
        the game's start), its kind in no entry of the log: send again the form of its
        member's nearest to it on the page (write down gear; sit at the table; each stranded
        control with the nearest form not yet sent again for it), opening its
        disclosure first if a redraw closed it, so the thing comes back. Whether a form was
        sent; `RECOVERIES` at most."""
        if self.recovered >= RECOVERIES:
            return False
        reached: set[str] | None = None  # read from the GM's export only when needed: it
        for person in self.live_people():  # costs the GM's page its allowance
            units = self.scan(person)
            shown = {u["key"] for u in units}
            gone = [
                unit
                for key, unit in person.seen.items()
                if key not in person.activated and key not in shown and unit["intent"]
            ]
            if gone and reached is None:
                reached = set().union(*self.reached(self.people[0]).values())
            stranded = [unit for unit in gone if unit["intent"] not in (reached or set())]
            if not stranded:
                continue
            sent = [
                unit
                for key, unit in person.seen.items()
                if unit["kind"] == "form"
                and unit["phase"] == 0
                and key in person.activated
                and (key in shown or key in dict(person.closed))
            ]
            tried = " ".join(person.activated)
            pairs = [  # each stranded control with each form not yet sent again for it
                (_shared(u["where"].split(" / "), lost["where"].split(" / ")), lost, u)
                for lost in stranded
                for u in sent
                if f"{u['key']} (again, for {lost['key']})" not in tried
            ]
            if not pairs:
                continue
            _, lost, chosen = max(pairs, key=lambda pair: pair[0])  # the nearest pair first
            self.recovered += 1
            current = {u["key"]: u for u in units}
            if chosen["key"] in current:
                chosen = current[chosen["key"]]
            else:  # its disclosure, closed again: open it first
                summary = dict(person.closed)[chosen["key"]]
                opener = next(u for u in units if u["id"] == summary)
                self.activate(person, {**opener, "key": f"{opener['key']} (reopened)"}, local=True)
                chosen = next((u for u in self.scan(person) if u["key"] == chosen["key"]), None)
                if chosen is None:
                    return True
            self.activate(person, {**chosen, "key": f"{chosen['key']} (again, for {lost['key']})"})
            return True
        return False

    def _enable(self, person: Walking) -> list[dict[str, Any]]:
        """A control never activated and off now (the whole ship, once zoomed out again):
        a control of its group the walk activated before, to press again so it comes on
        (zoom in). `RECOVERIES` at most."""
        if self.recovered >= RECOVERIES:
            return []
        units = self.scan(person)
        for key, group in person.off:
            if key in person.activated or not group:
                continue
            again = [u for u in units if u["group"] == group and u["key"] in person.activated]
            if again:
                self.recovered += 1
                return [{**again[0], "key": f"{again[0]['key']} (again, for {key})"}]
        return []

    def _carry_on(self, person: Walking) -> list[dict[str, Any]]:
        """A test its dice left waiting on the table (a re-roll exchange the walk passed in
        an earlier test, so its buttons are no longer new) while a page holds controls it
        hides until then: this page's exchange button, pressed again. `RECOVERIES` at most."""
        if self.recovered >= RECOVERIES or not any(map(self._hidden_for_now, self.people)):
            return []
        for unit in self.scan(person):
            if unit["where"] in EXCHANGES and unit["key"] in person.activated:
                self.recovered += 1
                return [{**unit, "key": f"{unit['key']} (again, {self.recovered})"}]
        return []

    def _hidden_for_now(self, person: Walking) -> bool:
        """Whether the page showed a control the walk never activated, hidden now, whose
        kind reached nobody's log."""
        if person.gone:
            return False
        shown = {u["key"] for u in self.scan(person)}
        reached = set().union(*self.reached(self.people[0]).values())
        return any(
            key not in person.activated and key not in shown and unit["intent"] not in reached
            for key, unit in person.seen.items()
            if unit["intent"]
        )

    def _reopen(self, person: Walking) -> list[dict[str, Any]]:
        """A disclosure the walk opened once and a redraw closed again (a card's forms
        gone during a test and back after it) still holds controls never activated: its
        summary, to press again (as a step of its own, under its own key)."""
        units = {u["id"]: u for u in self.scan(person)}
        for key, summary in person.closed:
            if key not in person.activated and summary in units:
                again = dict(units[summary])
                again["key"] = f"{again['key']} (again, for {key})"
                return [again]
        return []

    def activate(self, person: Walking, unit: dict[str, Any], local: bool = False) -> None:
        """One step: press the control, wait for its first sign and for every page to
        settle, then check. A control that only changes its own page (`local`) has its
        first sign at once: nothing to settle, and the checks wait for the batch. A form
        the rules refuse is sent again with another of its pick-lists' options moved on
        (`TRIES` in all); what the last try shows is what counts."""
        page = person.page
        person.activated[unit["key"]] = unit["name"]
        self.step_now = f"{person.who}: {unit['name']}"
        started = time.monotonic()
        self.steps.append(f"{self.walked + started - self.started:6.1f} {self.step_now}")
        target = page.locator(f'[data-walk="{unit["id"]}"]')
        if not target.count():
            return  # the step before redrew it away: a later scan finds it again
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
                return
            pressed = time.monotonic()
            changed = self._first_sign(person, before, 1 if local else 3)
            signed = time.monotonic()
            if local:
                break
            self.settle()
            refused = self._refused(person, unit)
            if not refused:
                break
            self.steps.append(f"{'':6} … refused ({refused}); again with other choices")
            target = page.locator(f"form[data-draft={json.dumps(unit['draft'])}]").first
            if not target.count():
                break
        after = self.mark(person)
        if not changed or after[:5] == before[:5]:
            self.problem(person, f"nothing changed after {unit['name']}")
        elif after[1] != before[1]:
            self._address_moved(person, before[1])
        settled = time.monotonic()
        if not local:
            self.check()
        if VERBOSE:
            print(
                f"{self.steps[-1]}  [{time.monotonic() - started:.2f} s: press "
                f"{pressed - started:.2f} sign {signed - pressed:.2f} settle "
                f"{settled - signed:.2f} check {time.monotonic() - settled:.2f}] {unit['key']}"
            )

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
        """What a step may change: the page (its markup, as a hash: a part drawn again the
        same is no change), its address, its focus, what it downloaded and the pages it
        opened; and last, how many times the page changed so far."""
        state = person.page.evaluate("() => __walker.state()")
        page = person.page.evaluate("() => __walker.snapshot()")
        return (
            page,
            state["url"],
            state["focus"],
            person.downloads,
            person.popups,
            state["changes"],
        )

    def _first_sign(self, person: Walking, before: tuple[Any, ...], wait: float) -> bool:
        """Wait (`wait` seconds at most) for the first sign of a step; whether it came."""
        end = time.monotonic() + wait
        while True:
            state = person.page.evaluate("() => __walker.state()")
            now = (state["url"], state["focus"], person.downloads, person.popups)
            if state["changes"] != before[5] or now != before[1:5]:
                return True
            if time.monotonic() > end:
                return False
            person.page.wait_for_timeout(20)

    def _press(self, person: Walking, unit: dict[str, Any], target: Any, variation: int) -> None:
        if unit["popup"]:
            with person.page.expect_popup(timeout=5_000) as opened:
                target.click(timeout=3_000)
            opened.value.wait_for_load_state()
            opened.value.close()
            return
        done = target.evaluate(
            "(el, asked) => __walker.press(el, asked)", [unit["kind"], self.made_up, variation]
        )
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
                # what was asked (a bot's `bot-moves`), and what it settled into (`bot-act`)
                asked = {cause["intent"]["kind"], (cause.get("asked") or cause["intent"])["kind"]}
                reached.setdefault(cause["member"]["id"], set()).update(asked)
        return reached

    def offered_kinds(self, person: Walking) -> set[str]:
        kinds = set()
        for response in person.legal:
            try:
                kinds |= {offer["kind"] for offer in response.json()["offers"]}
            except PlaywrightError:
                continue
        return kinds

    def accounted(self, gm: Walking) -> dict[str, dict[str, set[str]]]:
        """Every control a page showed was activated, and every kind offered a member
        reached the log as theirs (import forms aside). One allowance, since a table moves
        on: a control that went before its turn (someone else's step closed it: another
        member stepped into the fight first for a character both could) passes when its
        kind reached the log, and then so does that kind for this member. What each member
        was offered, reached as theirs, and passed over, by name."""
        reached = self.reached(gm)
        anyone = set().union(*reached.values()) if reached else set()
        found = {}
        for person in self.people:
            offered = self.offered_kinds(person)
            shown = set() if person.gone else {u["key"] for u in self.scan(person)}
            gone_before: set[str] = set()
            for key, unit in person.seen.items():
                if key in person.activated or (unit["fold"] and key not in shown):
                    continue  # a Fold gone with its card, or with the turn that opened it
                taken = ALTERNATIVES.get(unit["intent"], set()) & anyone
                if key in shown or (unit["intent"] not in anyone and not taken):
                    self.problem(person, f"never activated: {unit['name']}", True)
                else:
                    gone_before.add(unit["intent"])
            mine = reached.get(person.member, set())
            mine |= {kind for kind, other in ALTERNATIVES.items() if other & mine}
            missing = offered - mine - person.skipped_kinds
            for kind in sorted(missing):
                if kind not in gone_before or kind not in anyone:
                    self.problem(person, f"offered {kind!r}, which never reached the log", True)
            found[person.who] = {
                "offered": offered,
                "theirs": offered & mine,
                "others'": missing & gone_before & anyone,
                "skipped": offered & person.skipped_kinds,
            }
        return found

    def secrets_kept(self, gm: Walking, player: Walking, planted: list[str]) -> None:
        """No text of an entry the GM's log holds and the player's does not (nor any value
        planted), in the player's socket frames, HTTP answers or page. Only entries up to
        `kept_until`, when set: a walk on after planting may reveal what it planted (the
        GM's 'Show' is a control too), and the check right after planting covered them."""
        theirs = player.seat.entries()
        public = {e["text"] for e in theirs.values() if e["visibility"] == "public"}
        last = max(theirs, default=0)  # a removed player is sent nothing after
        hidden = set(planted)
        for line in self.get(gm, "/export"):
            if "event" not in line or line["seq"] > min(last, self.kept_until or last):
                continue
            seen = theirs.get(line["seq"])
            text = line["event"]["text"]
            if (seen is None or seen["text"] != text) and text not in public:
                hidden.add(text)
        received = player.seat.received()
        for secret in sorted(hidden):
            if secret and secret in received:
                where = _where(player, secret)
                self.problem(
                    player, f"a hidden value reached the player ({where}): {secret!r}", True
                )

    def report(self, head: str = "the walk found problems") -> str:
        lines = [f"{head} ({len(self.steps)} steps):"]
        lines += [f"- {problem}  [after {step}]" for problem, step in self.problems.items()]
        lines += ["steps:", *self.steps]
        return "\n".join(lines)

    def summary(self, kinds: dict[str, dict[str, set[str]]]) -> str:
        """What the walk did, member by member: controls, kinds, what it skipped."""
        lines = [f"{len(self.steps)} steps in {self.walked:.1f} s"]
        for person in self.people:
            done = [key for key in person.activated if key in person.seen]
            gone = len(person.seen) - len(done)
            lines.append(
                f"{person.who}: {len(person.seen)} controls found, {len(done)} activated"
                + (f", {gone} gone before their turn" if gone else "")
            )
            for what, names in kinds[person.who].items():
                if names:
                    lines.append(f"  kinds {what}: {', '.join(sorted(names))}")
            lines += [f"  skipped: {s}" for s in sorted(person.skipped)]
        return "\n".join(lines)


VIEW = re.compile(r"/rooms/[^/]+(?:/as/[^/]+)?")
"""The paths of a member's view of the room, and of the GM's "View as"."""
ID = re.compile(r"[a-z]{1,3}\d+")
"""What the room's ids look like: m2 a member, c1 a character, n1 an NPC."""
ID_FIELDS = ("id", "owner", "actor", "member")


def not_words(person: Walking) -> tuple[set[str], set[str]]:
    """The ids in the views the page read and the schema's values written as ids
    (`basic-task`, `behind_closer`): what a page must never show people as they are."""
    done, ids, values = person.not_words
    for response in person.read[done:]:
        try:
            body = response.json()
        except Exception:  # a body the page navigated away from is gone
            continue
        if response.url.split("?")[0].endswith("/intents"):
            prose = " ".join(_strings(body.get("x-words", {})))
            values |= {v for v in _schema_values(body) if not _said(v, prose)}
        else:
            ids |= _ids(body)
    person.not_words = (len(person.read), ids, values)
    return ids, values


def _ids(value: Any) -> set[str]:
    if isinstance(value, list):
        return set().union(*map(_ids, value)) if value else set()
    if not isinstance(value, dict):
        return set()
    named = {value[key] for key in ID_FIELDS if isinstance(value.get(key), str)}
    found = {id for id in named if ID.fullmatch(id)}
    return found.union(*map(_ids, value.values()))


def _strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    return [value] if isinstance(value, str) else []


def _said(value: str, prose: str) -> bool:
    """Whether a schema value is also a word people use: the system's own words write it
    in their labels and help (the book's `half-chain`), or it is dice notation (`d4-2`)."""
    return bool(
        DICE.fullmatch(value) or re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", prose)
    )


DICE = re.compile(r"\d*d\d+(?:[-+]\d+)?")


def _schema_values(schema: Any) -> set[str]:
    """Every enum and const value and every discriminator's tag in a schema that is an id
    (a word joined to the next by - or _)."""
    if isinstance(schema, list):
        return set().union(*map(_schema_values, schema)) if schema else set()
    if not isinstance(schema, dict):
        return set()
    listed = [*schema.get("enum", []), schema.get("const")]
    listed += list((schema.get("discriminator") or {}).get("mapping", {}))
    found = {
        v for v in listed if isinstance(v, str) and re.fullmatch(r"[a-z0-9]+(?:[-_][a-z0-9]+)+", v)
    }
    return found.union(*map(_schema_values, schema.values()))


def _where(person: Walking, secret: str) -> str:
    """Where a page got a text: a socket frame, an HTTP answer, or only its page now."""
    if any(secret in frame for frame in person.seat.frames):
        return "a socket frame"
    for body in person.seat.bodies:
        try:
            if secret in body.text():
                return f"the answer to {_path(body.url)}"
        except PlaywrightError:
            continue
    return "its page"


def _shared(one: list[str], other: list[str]) -> tuple[int, int]:
    """How near two places on a page are: the leading parts they share, then the leading
    letters of the next part (the gear's entry and a gear line's)."""
    count = 0
    for a, b in zip(one, other, strict=False):
        if a != b:
            letters = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), None)
            return count, min(len(a), len(b)) if letters is None else letters
        count += 1
    return count, 0


def _count(person: Walking, name: str, by: int = 1) -> None:
    setattr(person, name, getattr(person, name) + by)


def _path(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def finish(walk: Walk, gm: Walking, player: Walking, planted: list[str]) -> str:
    """The checks after a walk: every control shown was activated, every offered kind is
    in the log, nothing hidden reached the player; then no problem at all. A summary."""
    kinds = walk.accounted(gm)
    walk.secrets_kept(gm, player, planted)
    assert not walk.problems, walk.report()
    return walk.summary(kinds)
