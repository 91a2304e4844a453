"""What the forms say is the system's words (issue 30 item 2): every label, line of help,
button and listed value of a room page's forms and of the lobby's "Rules of this table" is
what the server sent with the schema (`x-words`, tabletop/words.py), never a schema's name
with its separators replaced, wherever the system has words for it."""

from __future__ import annotations

import re

import httpx

from tabletop.words import Words, only_the_id, wanted
from tests.pages.driver import PHONE, Seat, gm_and_ada, offer, seat, submit
from tests.pages.expecting import expect

CLOSED = """() => [...document.querySelectorAll("div.offer[data-kind]")].map((offer) => ({
  kind: offer.dataset.kind,
  choices: [...offer.querySelectorAll("button")].map((el) => el.textContent),
}))"""
"""Every closed offer on the page: its kind and what each of its buttons says."""

SHOWN = """() => [...document.querySelectorAll("form.offer")].map((form) => ({
  kind: form.dataset.kind,
  labels: [...form.querySelectorAll("label, legend")]
    .filter((el) => !el.closest("span.check")).map((el) => el.textContent),
  hints: [...form.querySelectorAll(".hint")].map((el) => el.textContent),
  choices: [...form.querySelectorAll("option, span.check > label")].map((el) => el.textContent),
  button: form.querySelector("button[type=submit]").textContent,
}))"""
"""Every form on the page as a person reads it: its fields' labels and legends, hints,
listed values (a select's options, a set of boxes) and the button that sends it."""


YES_NO = """() => [...document.querySelectorAll("select")]
  .map((el) => [...el.options].map((option) => option.textContent))
  .filter((texts) => texts.length
    && texts.every((text) => /^(yes|no)( \\(default\\))?$/.test(text)))"""
"""Every pick-list that offers only yes or no: such a choice is a box to tick, whose help
reads "Ticked, …" (issue 30's new GM met "Direct damage: no" under "Ticked, armour …")."""


def open_every_offer(person: Seat) -> None:
    person.page.evaluate(
        "() => document.querySelectorAll('details').forEach((d) => (d.open = true))"
    )


def said_for(schema: dict, words: Words, kind: str) -> dict[str, list[tuple[str, str]]]:
    """The names a kind's form holds with the system's words for each, where it has some:
    its fields' and the kind's own (what labels and the button say), and its fields' listed
    values' (what choices say)."""
    said: dict[str, list[tuple[str, str]]] = {"labels": [], "choices": []}
    for _, field, value in (named for named in wanted(schema) if named[0] == kind):
        if value is not None:
            own = words.value(kind, field, value)
            if own:
                said["choices"].append((value, own))
            continue
        wording = words.field(kind, field) if field else words.kind(kind)
        if wording:
            said["labels"].append((field or kind, wording.label))
    return said


def raw_names(texts: list[str], said: list[tuple[str, str]]) -> list[str]:
    """The texts that are only a schema name with its separators replaced, where the system
    has words for that name, and none of its words say just that (a kind and a field may
    share a name: `light`, whose field is "Light")."""
    owns = {own for _, own in said}
    return sorted({t for t in texts for name, _ in said if only_the_id(t, name) and t not in owns})


def read_forms(person: Seat, schema: dict, words: Words) -> int:
    """Check every form on a page against the words; how many labels came from them."""
    from_words = 0
    open_every_offer(person)
    forms = person.page.evaluate(SHOWN)
    assert forms, "no form to read"
    assert not person.page.evaluate(YES_NO)
    assert not [hint for form in forms for hint in form["hints"] if re.search(r"[.!?];", hint)]
    for form in forms:
        kind = form["kind"]
        said = said_for(schema, words, kind)
        raw = raw_names([*form["labels"], form["button"]], said["labels"])
        raw += raw_names(form["choices"], said["choices"])
        assert not raw, (kind, raw)
        if words.kind(kind):
            assert form["button"] == words.kinds[kind].label, form
            assert words.kinds[kind].help in form["hints"], form
        fields = {
            f: words.field(kind, f) for of, f, v in wanted(schema) if of == kind and f and v is None
        }
        helps: dict[str, set[str]] = {}
        for wording in filter(None, fields.values()):
            helps.setdefault(wording.label, set()).add(wording.help)
        for label in form["labels"]:
            if label in helps:  # a field's label in words shows a help of that label's
                from_words += 1
                assert helps[label] & set(form["hints"]), (kind, label, form["hints"])
    for closed in person.page.evaluate(CLOSED):
        said = said_for(schema, words, closed["kind"])
        assert not raw_names(closed["choices"], said["choices"]), closed
    return from_words


def test_a_constitution_rooms_forms_say_the_words_the_server_sent_and_no_raw_name(browser, server):
    gm, ada = gm_and_ada(browser, server, "constitution")
    schema = httpx.get(f"{server}/systems/constitution/intents").json()
    words = Words.model_validate(schema.pop("x-words"))
    # an empty table points to where characters are made, not to "the command line"
    empty = gm.page.locator("section:has(#characters-title) > p.hint")
    expect(empty).to_have_text(
        "No characters yet: each is made, or brought from a saved file, under “What you can do”."
    )
    name = words.field("new-character", "name")
    submit(offer(ada, "roll up a character"), **{name.label if name else "Name": "Cora"})
    for person in (gm, ada):
        expect(person.page.locator("article.card h3", has_text="Cora")).to_be_visible()
    assert read_forms(gm, schema, words) >= 10
    assert read_forms(ada, schema, words) >= 3
    assert not (gm.errors or ada.errors)


def test_the_lobbys_rules_say_the_words_the_server_sent(browser, server):
    gm = seat(browser, PHONE)
    gm.page.goto(server)
    gm.page.get_by_label("Game system").select_option("constitution")
    rules = gm.page.locator("details#rules")
    rules.locator("summary").click()
    options = httpx.get(f"{server}/systems/constitution/options").json()
    said = options.pop("x-words")
    for name, spec in options["properties"].items():
        if name not in said or "label" not in said[name]:
            continue
        control = rules.get_by_label(said[name]["label"], exact=True)
        if spec.get("type") not in ("string", "integer", "number", "boolean"):
            # the command line sets it: the lobby names it in its words, and its name only
            # inside the command a GM would type
            expect(rules.locator(".not-offered")).to_contain_text(said[name]["label"])
            expect(rules.locator(".not-offered code")).to_contain_text(f"--option {name}=")
            continue
        expect(control).to_have_count(1)
        if spec.get("type") == "boolean":  # a box to tick, as "Ticked, …" says
            expect(control).to_have_attribute("type", "checkbox")
        values = said[name]["values"]
        if values:
            shown = control.locator("option").all_inner_texts()
            default = spec["default"]
            assert shown == [
                values[value] + (" (default)" if value == default else "") for value in spec["enum"]
            ], (name, shown)
    shown = rules.inner_text().lower()
    for command in rules.locator("code").all_inner_texts():  # ids only where a GM types them
        shown = shown.replace(command.lower(), "")
    labels = rules.locator("label").all_inner_texts()
    for name in said:
        assert name not in shown, name
        assert not [label for label in labels if only_the_id(label, name)], name
    assert not gm.errors
