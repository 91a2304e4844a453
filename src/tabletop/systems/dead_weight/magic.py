"""Spells and prayers: memorising, casting with its INT test and mishaps, praying with its
PRE test, miracles, exhaustion, the angry god and the desperate plea (§ Spells, § Prayers).

Casting and praying wrap an attribute test: `choices()` and `choose()` pass through to the
test, and when it is judged the spell or prayer resolves. What each spell does is another
book's (DW-G02): a spell is a name here, and its effect is the caller's.
"""

from __future__ import annotations

from typing import Any, Self

from pydantic import BaseModel, ConfigDict

from tabletop.dice import DiceSource, roll
from tabletop.systems.dead_weight.afflictions import gain_affliction, remove_affliction
from tabletop.systems.dead_weight.attribute_test import (
    AttributeTest,
    DauntlessRoll,
    Pass,
    Reroll,
    TestSetup,
    bad_omens,
    require_able,
    start_test,
)
from tabletop.systems.dead_weight.attributes import Attribute
from tabletop.systems.dead_weight.body import heal_wounds, receive_fatigue, wound_attribute
from tabletop.systems.dead_weight.catalogue import Affliction, Trait, Trauma
from tabletop.systems.dead_weight.character import Character, revise
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.evaluation import Outcome
from tabletop.systems.dead_weight.events import Event, event
from tabletop.systems.dead_weight.inventory import (
    BODY,
    Inventory,
    Item,
    ItemTag,
    Place,
    stow,
)
from tabletop.systems.dead_weight.options import DEFAULT, Options
from tabletop.systems.dead_weight.tables import system_table
from tabletop.words import counted, said, said_plus

Change = tuple[Character, list[Event]]
Choice = Reroll | Pass | DauntlessRoll


# memorising -----------------------------------------------------------------------------


def begin_expedition(
    character: Character,
    spells: list[str] | tuple[str, ...] = (),
    prayers: list[str] | tuple[str, ...] = (),
) -> Change:
    """Start an expedition: choose the spells (one per INT point) and prayers (one per PRE
    point: scores, not available dice, DW-A23) to memorise, and reset what counts per
    expedition (mishaps, mortal wounds, the desperate plea, coffee)."""
    magic = character.magic
    unusable = [s for s in spells if s in magic.spells_forgotten]
    if unusable:
        raise DeadWeightError(f"forgotten spells must be studied back first: {', '.join(unusable)}")
    updated = revise(
        character,
        magic=magic.model_copy(
            update={
                "spells_memorised": tuple(spells),
                "prayers_memorised": tuple(prayers),
                "prayers_exhausted": (),
                "mishaps": 0,
                "desperate_plea_used": False,
            }
        ),
        expedition=character.expedition.model_copy(
            update={"mortal_wounds": 0, "had_coffee": False}
        ),
    )
    return updated, [
        event(
            "expedition",
            f"{character.label} sets out with {counted(len(spells), 'spell')} and "
            f"{counted(len(prayers), 'prayer')}",
            spells=list(spells),
            prayers=list(prayers),
        )
    ]


def study(character: Character, spell: str) -> Change:
    """Study a forgotten spell back from the grimoire, in the interlude or camp (DW-M17)."""
    magic = character.magic
    if spell not in magic.spells_forgotten:
        raise DeadWeightError(f"{spell!r} is not forgotten")
    if not character.has_grimoire:
        raise DeadWeightError(f"{character.label} has no grimoire to study from")
    forgotten = tuple(s for s in magic.spells_forgotten if s != spell)
    memorised = magic.spells_memorised
    if len(memorised) < character.attribute(Attribute.INT).score:
        memorised = (*memorised, spell)
    updated = revise(
        character,
        magic=magic.model_copy(
            update={"spells_forgotten": forgotten, "spells_memorised": memorised}
        ),
    )
    return updated, [event("study", f"{character.label} studies {spell} back")]


def see_spell_cast(character: Character) -> Change:
    """Someone nearby casts a spell: the Visions trauma gives a stun token."""
    if not character.has(Trauma.VISIONS):
        return character, []
    tokens = character.tokens.model_copy(update={"stun": character.tokens.stun + 1})
    return character.model_copy(update={"tokens": tokens}), [
        event("stun", f"{character.label} sees visions: a stun token")
    ]


# a test that resolves something ------------------------------------------------------


class _Tested(BaseModel):
    """An action settled by an attribute test: choices pass through to the test."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    caster: Character
    test: AttributeTest | None = None
    result: Outcome | None = None

    @property
    def finished(self) -> bool:
        return self.result is not None

    def choices(self) -> list[Choice]:
        return [] if self.finished or self.test is None else self.test.choices()

    def choose(self, choice: Choice, dice: DiceSource) -> tuple[Self, list[Event]]:
        """Pass a choice to the test; once it is judged, resolve what it was for."""
        if self.finished or self.test is None:
            raise DeadWeightError("this is already resolved")
        test, events = self.test.choose(choice, dice)
        updated = self.model_copy(update={"test": test, "caster": test.roller})
        if test.finished:
            return updated._resolve(dice, events)
        return updated, events

    def _resolve(self, dice: DiceSource, events: list[Event]) -> tuple[Self, list[Event]]:
        raise NotImplementedError


class SpellCasting(_Tested):
    """A spell being cast: it works; then the INT test decides what it costs (DW-M18)."""

    spell: str
    conductor: bool = True
    automatic: bool = False
    """Cast from an arcane well: no test at all (DW-A20)."""
    options: Options = DEFAULT

    def _resolve(self, dice: DiceSource, events: list[Event]) -> tuple[SpellCasting, list[Event]]:
        return _resolve_spell(self, dice, events)


def cast_spell(
    character: Character, spell: str, dice: DiceSource, options: Options = DEFAULT
) -> tuple[SpellCasting, list[Event]]:
    """Cast a memorised spell and throw its INT test (unless an arcane well makes it
    automatic). The spell always works; its effect is the caller's to apply."""
    require_able(character)
    if not character.has(Trait.MAGIC_USER):
        raise DeadWeightError(f"{character.label} is not a magic user")
    if spell not in character.magic.spells_memorised:
        raise DeadWeightError(f"{spell!r} is not memorised")
    cast = [event("spell", f"{character.label} casts {spell}", spell=spell)]
    if character.magic.arcane_well:
        magic = character.magic.model_copy(update={"arcane_well": False})
        caster = character.model_copy(update={"magic": magic})
        done = SpellCasting(
            caster=caster, spell=spell, automatic=True, result=Outcome.SUCCESS, options=options
        )
        told = f"{character.label}'s arcane well makes {spell} an automatic success"
        return done, [*cast, event("arcane well", told)]
    test, events = start_test(character, TestSetup(attribute=Attribute.INT), dice, options=options)
    casting = SpellCasting(
        caster=test.roller,
        test=test,
        spell=spell,
        conductor=character.has_conductor,
        options=options,
    )
    if test.finished:
        return _resolve_spell(casting, dice, cast + events)
    return casting, cast + events


def _resolve_spell(
    casting: SpellCasting, dice: DiceSource, events: list[Event]
) -> tuple[SpellCasting, list[Event]]:
    assert casting.test is not None and casting.test.verdict is not None
    caster = casting.caster
    outcome = casting.test.verdict
    if outcome == Outcome.FAILURE and not casting.conductor:
        outcome = Outcome.CRITICAL_FAILURE
        told = f"{caster.label} has no conductor: the failure is critical"
        events.append(event("no conductor", told))
        events += bad_omens(caster, outcome)  # it counts as a critical failure (DW-X18)
    magic = caster.magic
    if outcome == Outcome.GREAT_SUCCESS:
        magic = magic.model_copy(update={"arcane_well": True})
        told = f"an arcane well: {caster.label}'s next spell is automatic"
        events.append(event("arcane well", told))
    forgets = outcome == Outcome.FAILURE or (
        outcome == Outcome.CRITICAL_FAILURE and casting.options.spell_critical_forgets
    )
    if forgets:
        magic = magic.model_copy(
            update={
                "spells_memorised": tuple(s for s in magic.spells_memorised if s != casting.spell),
                "spells_forgotten": (*magic.spells_forgotten, casting.spell),
            }
        )
        events.append(event("forgotten", f"{caster.label} forgets {casting.spell}"))
    caster = caster.model_copy(update={"magic": magic})
    if outcome == Outcome.CRITICAL_FAILURE:
        caster, more = mishap(caster, dice)
        events += more
    return casting.model_copy(update={"caster": caster, "result": outcome}), events


def mishap(caster: Character, dice: DiceSource) -> Change:
    """Roll a spell mishap: 3d6 plus this expedition's earlier mishaps (DW-A18), apply what
    falls on the caster, and report what falls on others or on the trackers."""
    earlier = caster.magic.mishaps
    result = system_table("mishaps").roll(dice, modifier=earlier)
    events = [
        event(
            "mishap",
            f"{caster.label}'s mishap, {said_plus(result.roll, earlier, result.value)}: "
            f"{result.entry.name}",
            **result.to_json(),
        )
    ]
    magic = caster.magic.model_copy(update={"mishaps": earlier + 1})
    caster = caster.model_copy(update={"magic": magic})
    for effect in result.entry.effects:
        caster, more = _mishap_effect(caster, effect.kind, effect.fields, dice)
        events += more
    return caster, events


def _mishap_effect(
    caster: Character, kind: str, fields: dict[str, Any], dice: DiceSource
) -> Change:
    if kind == "fatigue":
        return receive_fatigue(caster, Attribute(fields["attribute"]), fields["points"])
    if kind == "affliction":
        affliction = Affliction.named(fields["name"])
        if fields["who"] == "self":
            return gain_affliction(caster, affliction, dice)
        return caster, [
            event(
                "afflict others",
                f"{caster.label}'s mishap: everyone {fields['who']} becomes {affliction}",
                **fields,
            )
        ]
    if kind == "wound_each_attribute":
        events: list[Event] = []
        for attribute in Attribute:
            caster, more = wound_attribute(caster, attribute, fields["points"], "a mishap")
            events += more
        return caster, events
    if kind == "blind":
        condition = caster.condition.model_copy(update={"blind_turns": fields["exploration_turns"]})
        return caster.model_copy(update={"condition": condition}), [
            event("blind", f"{caster.label} is blind for {fields['exploration_turns']} turns")
        ]
    if kind == "destroy_conductor":
        return _lose_items(caster, lambda item: item.has(ItemTag.CONDUCTOR), "the conductor")
    if kind == "lose_all_items":
        return _lose_items(caster, lambda item: True, "every item")
    if kind == "advance_tracker":
        return caster, [
            event(
                "advance tracker",
                f"{caster.label}'s mishap: advance the {fields['tracker']} tracker",
                **fields,
            )
        ]
    if kind == "summon":
        text = f"{caster.label}'s mishap: a {fields['creature']} appears {fields['range']}"
        return caster, [event("summon", text, **fields)]
    raise DeadWeightError(f"unknown mishap effect {kind!r}")


def _lose_items(caster: Character, lost: Any, what: str) -> Change:
    """Remove items (containers go too when everything is lost: mishap 17 keeps the coins)."""
    inventory = caster.inventory
    if what == "every item":
        gone = [item.name for item in inventory.items()]
        inventory = Inventory(places=tuple(Place(kind=kind) for kind in BODY))
    else:
        gone = [item.name for item in inventory.items() if lost(item)]
        inventory = inventory.model_copy(
            update={
                "places": tuple(
                    place.model_copy(update={"items": tuple(i for i in place.items if not lost(i))})
                    for place in inventory.places
                ),
                "loose": tuple(i for i in inventory.loose if not lost(i)),
                "overflow": tuple(i for i in inventory.overflow if not lost(i)),
            }
        )
    caster = caster.model_copy(update={"inventory": inventory})
    told = f"{caster.label} loses {', '.join(gone) or 'nothing'}"
    return caster, [event("items lost", told, items=gone)]


# prayers ---------------------------------------------------------------------------------


class Praying(_Tested):
    """A prayer being prayed: the PRE test decides whether the god answers (DW-M22)."""

    prayer: str
    desperate_plea: bool = False

    def _resolve(self, dice: DiceSource, events: list[Event]) -> tuple[Praying, list[Event]]:
        return _resolve_prayer(self, dice, events)


def pray(
    character: Character,
    prayer: str,
    dice: DiceSource,
    *,
    desperate_plea: bool = False,
    options: Options = DEFAULT,
) -> tuple[Praying, list[Event]]:
    """Pray a memorised prayer with a holy symbol and throw the PRE test. An exhausted
    prayer can only be prayed as the expedition's one desperate plea (DW-M21)."""
    magic = character.magic
    require_able(character)
    if not character.has(Trait.DIVINE_MANDATE):
        raise DeadWeightError(f"{character.label} has no divine mandate")
    if not character.has_holy_symbol:
        raise DeadWeightError("without a holy symbol a prayer does not work")
    if magic.god_angry:
        raise DeadWeightError("the god is angry and answers nothing until a sacrifice is made")
    if prayer not in magic.prayers_memorised:
        raise DeadWeightError(f"{prayer!r} is not memorised")
    exhausted = prayer in magic.prayers_exhausted
    if desperate_plea:
        if magic.desperate_plea_used:
            raise DeadWeightError("the desperate plea is spent for this expedition")
        if not exhausted:
            raise DeadWeightError(f"{prayer!r} is not exhausted: pray it normally")
        character = character.model_copy(
            update={"magic": magic.model_copy(update={"desperate_plea_used": True})}
        )
    elif exhausted:
        raise DeadWeightError(f"{prayer!r} is exhausted until a rest at camp (or a desperate plea)")
    events = [event("prayer", f"{character.label} prays {prayer}", prayer=prayer)]
    if desperate_plea and not options.desperate_plea_needs_test:
        praying = Praying(caster=character, prayer=prayer, desperate_plea=True)
        return _answer(praying, Outcome.SUCCESS, dice, events)
    test, more = start_test(character, TestSetup(attribute=Attribute.PRE), dice, options=options)
    praying = Praying(caster=test.roller, test=test, prayer=prayer, desperate_plea=desperate_plea)
    if test.finished:
        return _resolve_prayer(praying, dice, events + more)
    return praying, events + more


def _resolve_prayer(
    praying: Praying, dice: DiceSource, events: list[Event]
) -> tuple[Praying, list[Event]]:
    assert praying.test is not None and praying.test.verdict is not None
    outcome = praying.test.verdict
    if outcome.succeeded:
        return _answer(praying, outcome, dice, events)
    caster = praying.caster
    told = f"{caster.label}'s prayer {praying.prayer} is ignored (not exhausted)"
    events.append(event("prayer ignored", told))
    if outcome == Outcome.CRITICAL_FAILURE:
        magic = caster.magic.model_copy(update={"god_angry": True})
        caster = caster.model_copy(update={"magic": magic})
        angry = f"{caster.label}'s god is angered: no prayers until a sacrifice"
        events.append(event("angry god", angry))
    return praying.model_copy(update={"caster": caster, "result": outcome}), events


def _answer(
    praying: Praying, outcome: Outcome, dice: DiceSource, events: list[Event]
) -> tuple[Praying, list[Event]]:
    """An answered prayer is exhausted first, then any miracle resolves (DW-A21)."""
    caster = praying.caster
    magic = caster.magic
    if praying.prayer not in magic.prayers_exhausted:
        magic = magic.model_copy(
            update={"prayers_exhausted": (*magic.prayers_exhausted, praying.prayer)}
        )
    caster = caster.model_copy(update={"magic": magic})
    told = f"{caster.label}'s prayer {praying.prayer} is answered"
    events.append(event("prayer answered", told, prayer=praying.prayer))
    if outcome == Outcome.GREAT_SUCCESS:
        caster, more = miracle(caster, dice)
        events += more
    return praying.model_copy(update={"caster": caster, "result": outcome}), events


OWN_LINES = ("unexhaust_prayers", "heal_wounds")
"""The miracle effects with a line of their own: prayers made ready, wounds rolled to heal."""


def miracle(caster: Character, dice: DiceSource) -> Change:
    """Roll on the miracle table (DW-M23). Un-exhausting prayers applies to the caster;
    healing and cures name a target the players choose, so they are reported (with any
    dice already rolled) for `heal_wounds` and `remove_affliction` to apply; what the rest
    does is told once, in the book's words."""
    result = system_table("miracles").roll(dice)
    told = f"{caster.label}'s miracle, {said(result.roll)}: {result.entry.name}"
    events = [event("miracle", told, **result.to_json())]
    for effect in result.entry.effects:
        if effect.kind == "unexhaust_prayers":
            magic = caster.magic.model_copy(update={"prayers_exhausted": ()})
            caster = caster.model_copy(update={"magic": magic})
            events.append(
                event("prayers ready", f"every prayer of {caster.label}'s is ready again")
            )
        elif effect.kind == "heal_wounds":
            healed = roll(effect.fields["dice"], dice)
            events.append(
                event(
                    "miracle healing",
                    f"{counted(healed.total, 'wound')} to heal, on {caster.label} or someone "
                    "nearby",
                    amount=healed.total,
                    roll=healed.to_json(),
                )
            )
    if any(effect.kind not in OWN_LINES for effect in result.entry.effects):
        effects = [effect.model_dump() for effect in result.entry.effects]
        told = f"{caster.label}'s miracle, {result.entry.name}: {result.entry.text}"
        events.append(event("miracle effect", told, effects=effects))
    return caster, events


def make_sacrifice(character: Character) -> Change:
    """A sacrifice calms the angry god (what a sacrifice takes is another book's, DW-G03)."""
    if not character.magic.god_angry:
        raise DeadWeightError("the god is not angry")
    magic = character.magic.model_copy(update={"god_angry": False})
    return character.model_copy(update={"magic": magic}), [
        event("sacrifice", f"{character.label}'s god is appeased")
    ]


# the three basic prayers -----------------------------------------------------------------


def cure_light_wounds(target: Character, attributes: list[Attribute]) -> Change:
    """Heal two wounds of a nearby target, on the attributes the players pick, and stop
    Bleeding (a basic prayer, DW-M24)."""
    if len(attributes) > 2:
        raise DeadWeightError("cure light wounds heals two wounds")
    events: list[Event] = []
    for attribute in attributes:
        target, more = heal_wounds(target, attribute, 1)
        events += more
    if target.has(Affliction.BLEEDING):
        target, more = remove_affliction(target, Affliction.BLEEDING)
        events += more
    return target, events


def create_food_and_water(caster: Character) -> Change:
    """A ration and a water appear (a basic prayer): stowed where they fit."""
    inventory = stow(caster.inventory, Item(name="ration", tags=(ItemTag.FOOD,)))
    inventory = stow(inventory, Item(name="water", liquid=True, tags=(ItemTag.WATER,)))
    return caster.model_copy(update={"inventory": inventory}), [
        event("food and water", f"a ration and a water appear in {caster.label}'s pack")
    ]


BASIC_PRAYERS = ("Cure Light Wounds", "Light", "Create food and water")
"""The three prayers any cleric may choose (the rest are the gods', in another book)."""
