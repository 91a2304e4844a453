"""The sheet at a 2d6 table: what a player writes on it between rolls (name, notes, the
items in the personal space and the bag, skill points spent on scores and skills) and the
actions each entry offers (a check with this score), as intents and offers placed at their
entries (RU-S01..S03).

HP, AP, statuses and death records move only through their rules; the GM awards skill
points (the rules leave how many to the table, RU-S02).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from tabletop.offers import Choice, Offer, accepts, entry_action, entry_offer
from tabletop.session import CharacterIntent, RollMode
from tabletop.sheet_edits import (
    NAMING,
    Naming,
    edit_offer,
    naming_offers,
    taken,
    without,
    written,
)
from tabletop.systems.ap2d6.creation import MAX_BUDGET, buy_skills
from tabletop.systems.ap2d6.encumbrance import apply_encumbrance, carry
from tabletop.systems.ap2d6.errors import Ap2d6Error
from tabletop.systems.ap2d6.events import Event
from tabletop.systems.ap2d6.gear import KIND_WORDS, MAX_LINES, Bag, Carried, Item
from tabletop.systems.ap2d6.scores import MAX_SCORE, score_name, step_cost
from tabletop.systems.ap2d6.sheet import Character

Id = str


class StowItem(CharacterIntent):
    """Carry an item: in the personal space, or in the bag (RU-M49, M50)."""

    kind: Literal["stow-item"] = "stow-item"
    item: Item
    in_bag: bool = False


class DropItem(CharacterIntent):
    kind: Literal["drop-item"] = "drop-item"
    index: int = Field(ge=0, le=MAX_LINES)
    in_bag: bool = False


class MoveItem(CharacterIntent):
    """An item from the personal space into the bag, or out of it."""

    kind: Literal["move-item"] = "move-item"
    index: int = Field(ge=0, le=MAX_LINES)
    in_bag: bool = False
    """Where it is now: moved into the bag if False, out of it if True."""


class UseBag(CharacterIntent):
    """Start using a bag (one at a time, RU-M50): its threshold and maximum are the group's."""

    kind: Literal["use-bag"] = "use-bag"
    bag: Bag


class DropBag(CharacterIntent):
    """Take the bag off (2n1 in a fight): it is left behind with what is in it."""

    kind: Literal["drop-bag"] = "drop-bag"


class RaiseScore(CharacterIntent):
    """Spend skill points to raise a score by one: the new value, 1 from below 0 (RU-M07)."""

    kind: Literal["raise-score"] = "raise-score"
    score: str = Field(min_length=1, max_length=40)


class BuySkill(CharacterIntent):
    """Spend skill points on a skill at the cost the group's skill list gives (RU-G01)."""

    kind: Literal["buy-skill"] = "buy-skill"
    skill: str = Field(min_length=1, max_length=60)
    cost: int = Field(ge=0, le=MAX_BUDGET)


class AwardSp(CharacterIntent):
    """The GM gives skill points to spend (how many is the table's call, RU-S02)."""

    kind: Literal["award-sp"] = "award-sp"
    points: int = Field(ge=1, le=MAX_BUDGET)


Carrying = StowItem | DropItem | MoveItem | UseBag | DropBag
SheetEdit = Naming | Carrying | RaiseScore | BuySkill | AwardSp
INTENTS = (
    *NAMING,
    StowItem,
    DropItem,
    MoveItem,
    UseBag,
    DropBag,
    RaiseScore,
    BuySkill,
    AwardSp,
)


def edit(sheet: Character, intent: SheetEdit) -> tuple[Character, list[Event]]:
    """The sheet after one of its owner's edits (a rename is checked by the table first)."""
    name = sheet.name
    if isinstance(intent, Naming):
        changes, kind, text = written(intent, name)
        return sheet.model_copy(update=changes), [_told(kind, text)]
    if isinstance(intent, RaiseScore):
        return _raise(sheet, intent.score)
    if isinstance(intent, BuySkill):
        skill = intent.skill.strip()
        if not skill:
            raise Ap2d6Error("name the skill")
        return buy_skills(sheet, {skill: intent.cost})
    if isinstance(intent, AwardSp):
        changed = sheet.model_copy(update={"unspent_sp": sheet.unspent_sp + intent.points})
        return changed, [_told("sp", f"{name} gains {intent.points} SP to spend")]
    carried, text = _carrying(sheet.carried, intent)
    return weighed(sheet, carried, f"{name} {text}")


def weighed(sheet: Character, carried: Carried, text: str) -> tuple[Character, list[Event]]:
    """The sheet carrying `carried`, refused past any maximum (RU-M52), with [encumbered]
    given or taken away to match (RU-M51)."""
    bags = [(carried.bag, list(carried.in_bag))] if carried.bag is not None else []
    load = carry(sheet.score("STR"), carried.personal, bags)
    changed, events = apply_encumbrance(sheet.model_copy(update={"carried": carried}), load)
    spaces = ", ".join(f"{s.name} {s.encs}/{s.maximum}" for s in load.spaces)
    return changed, [_told("load", f"{text} ({spaces} encs)"), *events]


def _carrying(carried: Carried, intent: Carrying) -> tuple[Carried, str]:
    """The load after one change, and what happened, in a few words."""
    if isinstance(intent, UseBag):
        if carried.bag is not None:
            raise Ap2d6Error(f"one bag at a time: take off the {carried.bag.name} first")
        return carried.model_copy(update={"bag": intent.bag}), f"uses a {intent.bag.name}"
    if isinstance(intent, DropBag):
        if carried.bag is None:
            raise Ap2d6Error("there is no bag to take off")
        left = "".join(f", {_named(i)}" for i in carried.in_bag)
        done = carried.model_copy(update={"bag": None, "in_bag": ()})
        return done, f"takes off the {carried.bag.name}{' with' + left[1:] if left else ''}"
    if isinstance(intent, StowItem):
        if intent.in_bag and carried.bag is None:
            raise Ap2d6Error("there is no bag to stow it in")
        space = "in_bag" if intent.in_bag else "personal"
        added = carried.model_copy(update={space: (*getattr(carried, space), intent.item)})
        return added, f"carries {_named(intent.item)}{' in the bag' if intent.in_bag else ''}"
    space = "in_bag" if intent.in_bag else "personal"
    items = getattr(carried, space)
    missing = f"there is no item {intent.index + 1} {'in the bag' if intent.in_bag else 'carried'}"
    item = taken(items, intent.index, missing, Ap2d6Error)
    left = carried.model_copy(update={space: without(items, intent.index)})
    if isinstance(intent, DropItem):
        return left, f"drops {_named(item)}"
    if carried.bag is None:
        raise Ap2d6Error("there is no bag to put it in")
    other = "personal" if intent.in_bag else "in_bag"
    moved = left.model_copy(update={other: (*getattr(left, other), item)})
    return moved, f"moves {_named(item)} {'out of' if intent.in_bag else 'into'} the bag"


def _raise(sheet: Character, asked: str) -> tuple[Character, list[Event]]:
    score = score_name(asked)
    table = "special" if score in sheet.special else "scores"
    scores = dict(getattr(sheet, table))
    if score not in scores:
        raise Ap2d6Error(f"{sheet.name} has no {score} score to raise")
    now = scores[score]
    if now >= MAX_SCORE:
        raise Ap2d6Error(f"{score} is as high as a score goes")
    cost = step_cost(now)
    if sheet.unspent_sp < cost:
        raise Ap2d6Error(f"{score} {now} → {now + 1} costs {cost} SP; {sheet.unspent_sp} left")
    scores[score] = now + 1
    changed = sheet.model_copy(update={table: scores, "unspent_sp": sheet.unspent_sp - cost})
    return Character.model_validate(changed.model_dump()), [
        _told("score raised", f"{sheet.name}: {score} {now} → {now + 1} for {cost} SP")
    ]


def derived(sheet: Character) -> dict[str, Any]:
    """What the sheet's numbers add up to, for a page to show beside them: Max HP, To-Hit,
    recovery dice, spaces a move covers, and each storage space's encs (RU-M04, M05, M33,
    M49..M52)."""
    carried = sheet.carried
    bags = [(carried.bag, list(carried.in_bag))] if carried.bag is not None else []
    try:
        load = carry(sheet.score("STR"), carried.personal, bags)
        spaces = [space.model_dump(mode="json") for space in load.spaces]
    except Ap2d6Error as problem:  # STR fell below what the load needs
        spaces = [{"name": "load", "problem": str(problem)}]
    return {
        "max_hp": sheet.max_hp,
        "to_hit": sheet.to_hit,
        "max_recovery_dice": sheet.max_recovery_dice,
        "move": sheet.move_spaces(),
        "spaces": spaces,
    }


def sheet_offers(cid: Id, sheet: Character, up: bool, gm: bool, sets_dc: bool) -> list[Offer]:
    """Every offer one character's sheet places at its entries, for whoever plays them
    (`up`: able to act; `gm`: the asker is the GM; `sets_dc`: the asker sets a check's DC,
    the GM unless the table hands it over, RU-S06)."""
    found = naming_offers(cid, sheet.name, sheet.notes)
    dc = {"dc": Choice(help="the DC", example=8)} if sets_dc else {}
    found += _carrying_offers(cid, sheet)
    for table in ("scores", "special"):
        for score, value in getattr(sheet, table).items():
            entry = f"{table}.{score}"
            if up:
                found.append(
                    entry_offer(
                        "check",
                        f"check {score}",
                        entry,
                        {"character": cid, "score": score},
                        **dc,
                        mode=Choice(values=tuple(RollMode)),
                    )
                )
            if sheet.unspent_sp >= step_cost(value) and value < MAX_SCORE:
                raised = RaiseScore(character=cid, score=score)
                text = f"raise ({step_cost(value)} SP)"
                found.append(entry_action("raise-score", text, raised, entry))
    skill = Choice(help="from the group's skill list", example="STEALTH")
    cost = Choice(help="its SP cost", example=1)
    found.append(edit_offer("buy-skill", "buy a skill", "skills", cid, skill=skill, cost=cost))
    if gm:
        points = Choice(help="SP", example=1)
        found.append(edit_offer("award-sp", "award skill points", "unspent_sp", cid, points=points))
    return found


def _carrying_offers(cid: Id, sheet: Character) -> list[Offer]:
    carried = sheet.carried
    spaces = (False, True) if carried.bag is not None else (False,)
    item = Choice(help="its name, kind and count", example={"name": "rope", "kind": "small"})
    in_bag = Choice(values=spaces)
    found = [edit_offer("stow-item", "carry an item", "carried", cid, item=item, in_bag=in_bag)]
    if carried.bag is None:
        bag = Choice(
            help="its name, threshold and maximum",
            example={"name": "backpack", "threshold": 4, "maximum": 8},
        )
        found.append(edit_offer("use-bag", "use a bag", "carried.bag", cid, bag=bag))
    elif _fits(sheet, carried.model_copy(update={"bag": None, "in_bag": ()})):
        off = DropBag(character=cid)
        found.append(entry_action("drop-bag", "take it off", off, "carried.bag"))
    for in_bag, items in ((False, carried.personal), (True, carried.in_bag)):
        for index, item in enumerate(items):
            entry = f"carried.{'in_bag' if in_bag else 'personal'}.{index}"
            space = "in_bag" if in_bag else "personal"
            dropped = carried.model_copy(update={space: without(items, index)})
            if _fits(sheet, dropped):
                drop = DropItem(character=cid, index=index, in_bag=in_bag)
                found.append(entry_action("drop-item", "drop", drop, entry))
            other = "personal" if in_bag else "in_bag"
            moved = dropped.model_copy(update={other: (*getattr(dropped, other), item)})
            if carried.bag is not None and _fits(sheet, moved):
                text = "out of the bag" if in_bag else "into the bag"
                move = MoveItem(character=cid, index=index, in_bag=in_bag)
                found.append(entry_action("move-item", text, move, entry))
    return found


def _fits(sheet: Character, carried: Carried) -> bool:
    """Whether the sheet could carry `carried` (no space past its maximum)."""
    return accepts(lambda: weighed(sheet, carried, ""), Ap2d6Error)


def _named(item: Item) -> str:
    """An item as a line names it: its name, or what kind of thing it is."""
    what = item.name or KIND_WORDS[item.kind]
    if item.count > 1:
        return f"{item.count} × {what}"
    return what if item.name else ("an " if what[0] in "aeiou" else "a ") + what


def _told(kind: str, text: str) -> Event:
    return Event(kind=kind, summary=text)
