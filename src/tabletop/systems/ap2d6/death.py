"""Death checks against a DC the GM keeps secret, and what the player is allowed to see.

When a character goes down the GM rolls 2d6 for a hidden death DC (RU-M37). Each turn the
player rolls 2d6 and says the total; meeting the DC is a success, falling short is a failure
whose margin (DC - roll) picks a consequence (RU-M38, RU-M40). Three of either ends it, and a
hit while down adds a failure (RU-M39). Consequences are rolled only if the character lives,
and nobody learns the outcome until someone checks on the body.

The record holds the secret; `player_view` is the only shape a player is ever shown. It has
no field that could carry the DC, a margin, a success or the outcome before the reveal.
"""

from __future__ import annotations

from functools import cache
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from tabletop.dice import DiceSource
from tabletop.errors import TabletopError
from tabletop.systems.ap2d6.errors import Ap2d6DataError, Ap2d6Error
from tabletop.systems.ap2d6.events import Event, Role
from tabletop.systems.ap2d6.options import DEFAULTS, Options
from tabletop.systems.ap2d6.records import DiceRecord, TwoDice, roll_2d6
from tabletop.tables import Table, find_table

CHECKS_TO_END = 3
"""Successes that stabilise, or failures that kill (RU-M38)."""

End = Literal["stabilised", "dead", "healed", "killed-outright"]
"""How the checks stopped: three successes, three failures, healed above 0 HP (RU-A20), or
reduced to -(Max HP / 2) while down (RU-M34)."""
ENDS: dict[str, str] = {end: end.replace("-", " ") for end in get_args(End)}
"""How each end of dying reads in a line."""


class DeathCheck(BaseModel):
    """One mark on the record: a rolled check, or a failure added by a hit while down."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    roll: TwoDice | None = None
    """The player's 2d6; None for a failure added by a hit."""
    modifier: int = 0
    damage: int | None = Field(None, ge=0)
    """The hit's damage, for a failure added by a hit."""
    success: bool
    margin: int | None = None
    """DC minus the check's total, for a rolled failure (the consequence row, RU-A24)."""


class Consequence(BaseModel):
    """One failure's consequence, resolved when the character survives (RU-M40, RU-M41)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    margin: int
    name: str
    scars: bool = False
    status: str | None = None
    hours: int | None = None
    lame: bool = False
    lowered_score: str | None = None
    lost_limb: str | None = None
    dice: tuple[DiceRecord, ...] = ()
    """The d4 rolls on the Lower a Stat and Lose a Limb tables."""

    def describe(self) -> str:
        """The consequence in a phrase, without the margin that would hint at the DC."""
        parts = []
        if self.scars:
            parts.append("scars")
        if self.status:
            parts.append(f"[{self.status}] for {hours_words(self.hours or 0)}")
        if self.lowered_score:
            parts.append(f"{self.lowered_score} lowered by 1")
        if self.lame:
            parts.append("lame")
        if self.lost_limb:
            parts.append(f"lost {_article(self.lost_limb)}")
        return ", ".join(parts) or "no lasting harm"


def hours_words(hours: int) -> str:
    """A stretch of time as a line says it: 8 hours, 2 days."""
    if hours % 24 == 0:
        days = hours // 24
        return f"{days} day" + ("s" if days != 1 else "")
    return f"{hours} hour" + ("s" if hours != 1 else "")


def _article(limb: str) -> str:
    return ("an " if limb[0] in "aeiou" else "a ") + limb


class DeathRecord(BaseModel):
    """Everything about one time down: the secret DC, each check, how it ended, what it cost."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dc_roll: TwoDice
    """The GM's secret 2d6; the DC is its total."""
    checks: tuple[DeathCheck, ...] = ()
    end: End | None = None
    revealed: bool = False
    consequences: tuple[Consequence, ...] = ()

    @property
    def dc(self) -> int:
        return self.dc_roll.total

    @property
    def successes(self) -> int:
        return sum(check.success for check in self.checks)

    @property
    def failures(self) -> int:
        return sum(not check.success for check in self.checks)

    @property
    def rolling(self) -> bool:
        """True while the player must keep rolling a death check each turn."""
        return self.end is None

    @property
    def survived(self) -> bool | None:
        """None while undecided."""
        if self.end is None:
            return None
        return self.end in ("stabilised", "healed")


def start(dice: DiceSource, name: str) -> tuple[DeathRecord, Event]:
    """The GM rolls `name`'s secret death DC: 2d6, no modifiers (RU-M37)."""
    dc_roll = roll_2d6(dice)
    return DeathRecord(dc_roll=dc_roll), Event(
        kind="death-dc",
        summary=f"the GM's secret death DC for {name}: {dc_roll}",
        dice=(dc_roll,),
        gm_only=True,
    )


def roll_check(
    record: DeathRecord,
    dice: DiceSource,
    name: str,
    *,
    modifier: int = 0,
    options: Options = DEFAULTS,
) -> tuple[DeathRecord, list[Event]]:
    """The player's death check: 2d6 (+ any outside modifier, RU-A21); meeting the DC succeeds.

    A double 1 that meets the DC still succeeds unless the table says otherwise (RU-A12)."""
    if not record.rolling:
        raise Ap2d6Error("the GM has said to stop rolling death checks")
    rolled = roll_2d6(dice)
    total = rolled.total + modifier
    success = check_succeeds(rolled, modifier, record.dc, options)
    margin = None if success else max(record.dc - total, 1)
    check = DeathCheck(roll=rolled, modifier=modifier, success=success, margin=margin)
    after = _ended(record.model_copy(update={"checks": (*record.checks, check)}))
    shown = f"{rolled}" + (f" {modifier:+d} = {total}" if modifier else "")
    events = [Event(kind="death-check", summary=f"{name}'s death check: {shown}", dice=(rolled,))]
    verdict = "success" if success else f"failure by {margin}"
    events.append(
        Event(
            kind="death-check-result",
            summary=f"{name}'s death check against DC {record.dc}: {verdict}",
            gm_only=True,
        )
    )
    events.extend(_stop_events(record, after, name))
    return after, events


def check_succeeds(rolled: TwoDice, modifier: int, dc: int, options: Options = DEFAULTS) -> bool:
    """Whether a death check showing `rolled` meets `dc` (RU-M38, RU-A12)."""
    if rolled.double_one and options.double_one_fails_death_check:
        return False
    return rolled.total + modifier >= dc


def hit(record: DeathRecord, damage: int, name: str) -> tuple[DeathRecord, list[Event]]:
    """A hit while down adds a failed death check with no consequence row (RU-M39, RU-A23);
    a third failure kills even a character already stabilised (RU-A39)."""
    check = DeathCheck(damage=damage, success=False)
    after = record.model_copy(update={"checks": (*record.checks, check)})
    if after.failures >= CHECKS_TO_END and after.survived is not False:
        after = after.model_copy(update={"end": "dead"})
    told = f"{name} is hit while down for {damage}: a failed death check"
    return after, [Event(kind="hit-while-down", summary=told), *_stop_events(record, after, name)]


def end_by(record: DeathRecord, end: End | None, name: str) -> tuple[DeathRecord, list[Event]]:
    """Change how the checks stand for a reason outside them: healed above 0 HP, killed
    outright, or (None) hurt back to 0 or below after healing, so the checks resume."""
    after = record.model_copy(update={"end": end})
    return after, _stop_events(record, after, name)


def check_on(record: DeathRecord, dice: DiceSource, name: str) -> tuple[DeathRecord, list[Event]]:
    """Someone checks on the character: consequences are rolled if they lived, and the
    outcome becomes known to everyone (RU-M38)."""
    if record.rolling:
        raise Ap2d6Error("still making death checks: there is nothing to find out yet")
    if record.revealed:
        return record, []
    after = resolve_consequences(record, dice).model_copy(update={"revealed": True})
    found = "alive" if after.survived else "dead"
    events = [Event(kind="checked-on", summary=f"someone checks on {name}: {found}")]
    events.extend(
        Event(
            kind="consequence", summary=f"{name}: {consequence.describe()}", dice=consequence.dice
        )
        for consequence in after.consequences
    )
    return after, events


def _ended(record: DeathRecord) -> DeathRecord:
    if record.successes >= CHECKS_TO_END:
        return record.model_copy(update={"end": "stabilised"})
    if record.failures >= CHECKS_TO_END:
        return record.model_copy(update={"end": "dead"})
    return record


def _stop_events(before: DeathRecord, after: DeathRecord, name: str) -> list[Event]:
    events = []
    if before.rolling and not after.rolling:
        events.append(
            Event(kind="stop-rolling", summary=f"the GM says: {name} stops rolling death checks")
        )
    elif after.rolling and not before.rolling:
        events.append(Event(kind="keep-rolling", summary=f"{name}'s death checks start again"))
    if after.end != before.end and after.end is not None:
        told = f"{name}, secretly: {ENDS[after.end]}"
        events.append(Event(kind="death-outcome", summary=told, gm_only=True))
    return events


# -- consequences ---------------------------------------------------------------------------


@cache
def consequence_tables() -> dict[str, Table]:
    """The consequence table and the two d4 tables it sends you to (data/tables/)."""
    try:
        return {
            name: find_table(f"ap2d6/{name}")
            for name in ("death-consequences", "lower-a-stat", "lose-a-limb")
        }
    except TabletopError as error:
        raise Ap2d6DataError(f"the shipped death tables are broken: {error}") from None


def resolve_consequences(record: DeathRecord, dice: DiceSource) -> DeathRecord:
    """Roll and record one consequence per rolled failure (RU-A22), once, if the character
    lived. Failures added by hits have no margin and no consequence (RU-A23)."""
    if record.consequences or not record.survived:
        return record
    tables = consequence_tables()
    resolved = [
        _consequence(check.margin, tables, dice)
        for check in record.checks
        if check.margin is not None
    ]
    return record.model_copy(update={"consequences": tuple(resolved)})


def _consequence(margin: int, tables: dict[str, Table], dice: DiceSource) -> Consequence:
    entry = tables["death-consequences"].lookup(margin)
    fields: dict[str, object] = {"margin": margin, "name": entry.name}
    rolled: list[DiceRecord] = []
    for effect in entry.effects:
        if effect.kind == "roll":
            result = tables[effect.fields["table"]].roll(dice)
            rolled.append(DiceRecord.of(result.roll))
            for inner in result.entry.effects:
                if inner.kind == "lower-score":
                    fields["lowered_score"] = inner.fields["score"]
                elif inner.kind == "lose-limb":
                    fields["lost_limb"] = inner.fields["limb"]
        elif effect.kind == "status":
            fields["status"] = effect.fields["status"]
            fields["hours"] = effect.fields["hours"]
        elif effect.kind in ("scars", "lame"):
            fields[effect.kind] = True
    return Consequence(**fields, dice=tuple(rolled))


# -- what each role sees --------------------------------------------------------------------


class PlayerMark(BaseModel):
    """A line of the record as the player knows it: their own roll, or a hit they took."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    roll: DiceRecord | None = None
    modifier: int = 0
    damage: int | None = None


class PlayerDeathView(BaseModel):
    """The record as a player sees it: their rolls, whether to keep rolling, and, once someone
    has checked on them, whether they live and what it cost. Never the DC or any margin."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    role: Literal["player"] = "player"
    marks: tuple[PlayerMark, ...]
    keep_rolling: bool
    checked_on: bool
    alive: bool | None = None
    consequences: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        """The view as text, one line per fact."""
        lines = []
        for number, mark in enumerate(self.marks, 1):
            if mark.roll is None:
                lines.append(f"{number}. hit while down for {mark.damage}")
            else:
                extra = f" {mark.modifier:+d}" if mark.modifier else ""
                lines.append(f"{number}. death check: {mark.roll}{extra}")
        lines.append("keep rolling" if self.keep_rolling else "stop rolling")
        if not self.checked_on:
            if not self.keep_rolling:
                lines.append("nobody has checked on you yet")
        elif self.alive:
            lines.append("you are alive")
            lines.extend(f"consequence: {text}" for text in self.consequences)
        else:
            lines.append("you are dead")
        return lines


class GMDeathView(BaseModel):
    """The whole record with its tallies, for the GM."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    role: Literal["gm"] = "gm"
    record: DeathRecord
    dc: int
    successes: int
    failures: int

    def lines(self) -> list[str]:
        record = self.record
        lines = [f"secret death DC: {record.dc_roll}"]
        for number, check in enumerate(record.checks, 1):
            if check.roll is None:
                lines.append(f"{number}. hit while down for {check.damage}: failure")
                continue
            verdict = "success" if check.success else f"failure by {check.margin}"
            extra = f" {check.modifier:+d}" if check.modifier else ""
            lines.append(f"{number}. {check.roll}{extra}: {verdict}")
        lines.append(f"{self.successes} successes, {self.failures} failures")
        if record.end is not None:
            lines.append(f"ended: {record.end}" + (" (revealed)" if record.revealed else ""))
        lines.extend(
            f"consequence (margin {c.margin}): {c.describe()}" for c in record.consequences
        )
        return lines


def player_view(record: DeathRecord) -> PlayerDeathView:
    """What the player may know (RU-M38): built only from their rolls, hits, the GM's "stop",
    and after the reveal the outcome and consequences."""
    marks = tuple(
        PlayerMark(roll=check.roll, modifier=check.modifier, damage=check.damage)
        for check in record.checks
    )
    if not record.revealed:
        return PlayerDeathView(marks=marks, keep_rolling=record.rolling, checked_on=False)
    return PlayerDeathView(
        marks=marks,
        keep_rolling=False,
        checked_on=True,
        alive=bool(record.survived),
        consequences=tuple(consequence.describe() for consequence in record.consequences),
    )


def gm_view(record: DeathRecord) -> GMDeathView:
    return GMDeathView(
        record=record, dc=record.dc, successes=record.successes, failures=record.failures
    )


def view(record: DeathRecord, role: Role) -> PlayerDeathView | GMDeathView:
    """The record as `role` may see it."""
    return gm_view(record) if role == "gm" else player_view(record)
