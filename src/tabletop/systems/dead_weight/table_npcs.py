"""The enemies a Dead Weight GM keeps at the table: typed in (the core book's monsters are
in its Bestiary, another book: DW-N01), tested with their level (DW-M50), wounded until
they die (DW-M45), and their numbers kept from the players until the GM shows them.

A test's dice give away the level it tests with (one die per level), so each line of a
hidden enemy's own test reaches the players in words that name it and what it did (it
tests STR, rolls its dice, a die is re-rolled, its test is judged), and their view of the
test holds none of its dice; in an opposed test its verdict is its part of the contest's
lines, and who won is everyone's unless both sides are hidden enemies (DW-N04). Its wounds
and death read in words (DW-N05).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import Field

from tabletop.kept import SHOWN, secret
from tabletop.npcs import Kept, NpcId, Roster
from tabletop.offers import Choice, Offer, offer
from tabletop.session import Event, Frozen
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.events import Event as RulesEvent
from tabletop.systems.dead_weight.npc import Npc, NpcStats, wound_npc
from tabletop.systems.dead_weight.owners import Whose

KeptNpc = Kept[NpcStats]

ROSTER = Roster(NpcStats, DeadWeightError, NpcStats.describe)

EXAMPLE = {"level": 2, "wound_limit": 3}
"""A typed-in enemy in the GM's form: level 2, dies at its fourth wound."""


class NpcWounds(Frozen):
    """A kept enemy takes wounds, after armour or any resistance (DW-N03): no attribute to
    place them on, it dies past the wounds its sheet lists (DW-M45)."""

    kind: Literal["npc-wounds"] = "npc-wounds"
    npc: NpcId = Field(min_length=1, max_length=64)
    wounds: int = Field(default=1, ge=1, le=20)


def living(npcs: Mapping[NpcId, KeptNpc]) -> tuple[NpcId, ...]:
    """The kept enemies that can still test and take wounds."""
    return tuple(nid for nid, npc in npcs.items() if not npc.stats.npc(npc.name).dead)


def wound_offers(able: tuple[NpcId, ...]) -> list[Offer]:
    """The GM's: wound a kept enemy still alive."""
    if not able:
        return []
    return [
        offer(
            "npc-wounds",
            "wound an NPC",
            npc=Choice(values=able),
            wounds=Choice(help="wounds after armour", example=1),
        )
    ]


def tester(npcs: Mapping[NpcId, KeptNpc], nid: NpcId) -> Npc:
    """A kept enemy as the rules test it, refused once it is dead."""
    kept = ROSTER.kept(npcs, nid)
    npc = kept.stats.npc(kept.name)
    if npc.dead:
        raise DeadWeightError(f"{kept.name} is dead")
    return npc


def wounded(
    npcs: Mapping[NpcId, KeptNpc], intent: NpcWounds
) -> tuple[dict[NpcId, KeptNpc], list[Event]]:
    """The enemy after the wounds, told in words while it is hidden (DW-N05)."""
    kept = ROSTER.kept(npcs, intent.npc)
    npc, events = wound_npc(tester(npcs, intent.npc), intent.wounds)
    stats = kept.stats.model_copy(update={"wounds": npc.wounds})
    owner = None if kept.revealed else intent.npc
    told = [told_as(e, owner, kept.name) for e in events]
    return {**npcs, intent.npc: kept.model_copy(update={"stats": stats})}, told


def told_sides(
    events: list[RulesEvent], whose: Whose, names: Mapping[NpcId, str], opposed: bool
) -> list[Event]:
    """The events of a test or an opposed test, each line of a hidden enemy's own test
    told as its own (a single test is side 0 throughout); the contest's lines mark its
    part themselves (`opposed`, DW-N04)."""
    told = []
    for e in events:
        side = e.side if opposed else 0
        owner = whose.kept_id(side) if side is not None else None
        told.append(told_as(e, owner, names.get(owner or "", "")))
    return told


def told_as(event: RulesEvent, owner: NpcId | None, name: str) -> Event:
    """A rules event in the protocol's shape: public, or, when it is the hidden enemy
    `owner`'s own line, wholly its part with what the players read in its place."""
    if owner is None:
        return Event(type=event.kind, text=event.text, data=event.data)
    return Event(
        type=event.kind,
        text=secret(owner, event.text),
        data=event.data,
        hint=_words(event, name),
    )


_TOLD_AS = {
    "test announced": "{name}: {attribute} {test}",
    "dice rolled": "{name} rolls its dice",
    "reroll": "{name}'s test: a die is re-rolled",
    "pass": "{name}'s test: no re-roll this turn",
    "test judged": "{name}'s test is judged",
    "npc wounded": f"{{name}} takes {SHOWN} wounds",
    "npc died": "{name} dies",
}
"""What the players read of a hidden enemy's own line: what it did, and none of its level
(its pool, its dice), its re-rolls, its verdict or its wounds (DW-N04, DW-N05)."""


def _words(event: RulesEvent, name: str) -> str:
    """The words for the players; none for a kind this table does not know (they read that
    it was kept, and whose it was)."""
    words = _TOLD_AS.get(event.kind, "")
    test = "check" if event.data.get("check") else "test"
    return words.format_map({"name": name, "attribute": event.data.get("attribute"), "test": test})


def told_of(events: list[RulesEvent]) -> list[Event]:
    """The rules' events in the protocol's one shape (all public until a session hides one)."""
    return [told_as(e, None, "") for e in events]
