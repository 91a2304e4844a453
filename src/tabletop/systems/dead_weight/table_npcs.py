"""The enemies a Dead Weight GM keeps at the table: typed in (the core book's monsters are
in its Bestiary, another book: DW-N01), tested with their level (DW-M50), wounded until
they die (DW-M45), and their numbers kept from the players until the GM shows them.

A test's dice give away the level it tests with (one die per level), so every event of a
hidden enemy's test reaches the players as a hint naming it, and their view of the test
holds none of its dice (DW-N04); the opposed test's verdict stays public.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import Field

from tabletop.npcs import Kept, NpcId, Roster, kept_secret, numbers_kept
from tabletop.session import Event, Frozen
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.events import Event as RulesEvent
from tabletop.systems.dead_weight.npc import Npc, NpcStats, wound_npc

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
    """The enemy after the wounds, told with no number while it is hidden."""
    kept = ROSTER.kept(npcs, intent.npc)
    npc, events = wound_npc(tester(npcs, intent.npc), intent.wounds)
    stats = kept.stats.model_copy(update={"wounds": npc.wounds})
    told = [e if kept.revealed else numbers_kept(e, [kept.name]) for e in told_of(events)]
    return {**npcs, intent.npc: kept.model_copy(update={"stats": stats})}, told


def hide_sides(
    npcs: Mapping[NpcId, KeptNpc],
    sides: Sequence[NpcId | None],
    raw: list[RulesEvent],
    opposed: bool,
) -> list[Event]:
    """The events of a test or an opposed test, each side's kept hidden when a hidden
    enemy rolled it (DW-N04); a single test is side 0 throughout."""
    told = []
    for rules_event, event in zip(raw, told_of(raw), strict=True):
        side = rules_event.side if opposed else 0
        nid = sides[side] if side is not None and side < len(sides) else None
        kept = npcs.get(nid) if nid is not None else None
        told.append(event if kept is None or kept.revealed else kept_secret(event, kept.name))
    return told


def told_of(events: list[RulesEvent]) -> list[Event]:
    """The rules' events in the protocol's one shape (all public until a session hides one)."""
    return [Event(type=e.kind, text=e.text, data=e.data) for e in events]
