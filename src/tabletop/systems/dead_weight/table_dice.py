"""Rolls at a Dead Weight table that change no sheet (§ Dice Notation): usage dice, risk
dice and the book's random tables."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from tabletop.dice import DiceSource
from tabletop.offers import Choice, Offer, offer
from tabletop.session import MAX_NAME, Event, Frozen, Member, RollMode, in_mode, note
from tabletop.systems.dead_weight.tables import TABLES, system_table
from tabletop.systems.dead_weight.trackers import MAX_RISK_DICE, UsageDie, risk


class UseUsageDie(Frozen):
    kind: Literal["usage-die"] = "usage-die"
    size: Literal[4, 6, 8, 10, 12, 20]
    label: str = Field(default="", max_length=MAX_NAME)


class RollRisk(Frozen):
    kind: Literal["risk"] = "risk"
    count: int = Field(default=1, ge=1, le=MAX_RISK_DICE)
    label: str = Field(default="", max_length=MAX_NAME)


class RollTable(Frozen):
    kind: Literal["roll-table"] = "roll-table"
    table: str
    modifier: int = Field(default=0, ge=-100, le=100)
    mode: RollMode = RollMode.PUBLIC


def dice_offers() -> list[Offer]:
    """Anyone's: a usage die, risk dice, a roll on one of the book's tables."""
    return [
        offer("usage-die", "roll a usage die", size=Choice(values=(4, 6, 8, 10, 12, 20))),
        offer("risk", "roll risk dice", count=Choice(help="how many", example=2)),
        offer(
            "roll-table",
            "roll on one of the book's tables",
            table=Choice(values=tuple(TABLES)),
            mode=Choice(values=tuple(RollMode)),
        ),
    ]


def rolled(intent: Any, member: Member, dice: DiceSource) -> Event:
    """Usage dice, risk dice and the book's tables: rolls that change no sheet."""
    who = member.name or member.id
    if isinstance(intent, UseUsageDie):
        after, rolled = UsageDie(size=intent.size).use(dice)
        now = f"now Ud{after.size}" if after else "used up: that was the last one"
        label = f" ({intent.label})" if intent.label else ""
        return note(
            "usage die",
            f"{who} rolls Ud{intent.size}{label}: {now}",
            **rolled.to_json(),
            after=after.size if after else None,
        )
    if isinstance(intent, RollRisk):
        happens, rolled = risk(intent.count, dice)
        verdict = "it happens" if happens else "it does not happen"
        return note(
            "risk",
            f"{who} rolls {intent.count} risk {'die' if intent.count == 1 else 'dice'}: {verdict}",
            **rolled.to_json(),
            triggered=happens,
            label=intent.label,
        )
    table = system_table(intent.table)
    result = table.roll(dice, intent.modifier)
    said = f"{who} rolls on {table.title}: {result.value}, {result.entry.name}"
    event = note("table", said, **result.to_json())
    return in_mode(event, intent.mode, who)


# what each member sees ----------------------------------------------------------------
