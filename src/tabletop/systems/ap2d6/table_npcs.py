"""The NPCs a 2d6 GM keeps. NPCs use the player characters' sheet and rules (§ Characters
and Scores), so each sits at the table as a character the GM plays, with a mark that makes
it an NPC: whether its numbers are shown, the book's NPC it was made from, and its bias,
the attitude it starts from (§ Communicative Skills, Bias, and Reputation). It joins
checks, contests, damage and fights by its id like any character (RU-N04).

Until the GM shows them, its sheet is the GM's: a player's view holds its name and what the
table sees of it (up, down or dead). Of a line that is its own the players read what it
did in words, or nothing where the line is the GM's bookkeeping of its sheet; of a line
that also tells of a character of theirs, everything but its part (RU-N05).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from pydantic import Field

from tabletop import kept
from tabletop.npcs import (
    NAMES_NOT_NUMBERS,
    Bestiary,
    EditNpc,
    NpcId,
    load_bestiary,
    npc_view,
)
from tabletop.session import Frozen, Member
from tabletop.systems.ap2d6.costs import action_words, basic_actions
from tabletop.systems.ap2d6.errors import Ap2d6Error, validated
from tabletop.systems.ap2d6.events import Event
from tabletop.systems.ap2d6.scores import STANDARD_SCORES
from tabletop.systems.ap2d6.sheet import Character, ScoreTable
from tabletop.systems.ap2d6.tracker import ATTACK

BIAS_RANGE = 6
"""Bias runs the reputation scale, −6 to +6 (RU-M43)."""


class NpcStats(Frozen):
    """What the GM types in (or the book gives) for an NPC: its scores (any left out are
    0, as a statblock leaves them off) and its bias."""

    scores: ScoreTable = Field(default_factory=dict)
    bias: int = Field(default=0, ge=-BIAS_RANGE, le=BIAS_RANGE)


class NpcMark(Frozen):
    """What makes a seat an NPC's."""

    revealed: bool = False
    creature: str | None = None
    bias: int = Field(default=0, ge=-BIAS_RANGE, le=BIAS_RANGE)


EXAMPLE = {"scores": {"STR": 1, "AGI": 1, "CON": 1}, "bias": -1}
"""A typed-in NPC in the GM's form: a tough, wary one (Health 24)."""

STATS = (*NAMES_NOT_NUMBERS, "bias", "hp", *STANDARD_SCORES)
"""What `edit-npc` changes: the name, the bias, current health and the standard scores."""


@cache
def bestiary() -> Bestiary[NpcStats]:
    """The rules' own NPCs, validated once."""
    return load_bestiary(__package__ or "", NpcStats)


def npc_sheet(name: str, stats: NpcStats) -> Character:
    """The NPC's sheet: the player characters' sheet with these scores, full health."""
    return validated(Character, {"name": name, "scores": stats.scores}, "the NPC's sheet")


def edited(sheet: Character, mark: NpcMark, intent: EditNpc) -> tuple[Character, NpcMark]:
    """The sheet and mark with one number (or the name) changed, or `Ap2d6Error`."""
    value = intent.value.strip()
    if intent.stat == "bias":
        return sheet, validated(NpcMark, {**mark.model_dump(), "bias": value}, "the NPC")
    data = sheet.model_dump(mode="json")
    if intent.stat == "name":
        data["name"] = value
    elif intent.stat == "hp":
        data["hp"] = value
    elif intent.stat in STANDARD_SCORES:
        data["scores"] = {**data["scores"], intent.stat: value}
        if sheet.hp == sheet.max_hp:  # at full health it stays full as CON changes
            data["hp"] = None
    else:
        raise Ap2d6Error(f"an NPC here has no {intent.stat!r}; it has {', '.join(STATS)}")
    return validated(Character, data, "the NPC"), mark


def stats_view(sheet: Character, mark: NpcMark) -> dict[str, Any]:
    """What the NPC panel shows the GM: the numbers a table looks at, and the bias."""
    return {
        "bias": mark.bias,
        "hp": sheet.hp,
        "max_hp": sheet.max_hp,
        "to_hit": sheet.to_hit,
        "scores": dict(sheet.scores),
        "special": dict(sheet.special),
    }


def card_words(sheet: Character, mark: NpcMark) -> str:
    """The NPC's numbers in a line, as a statblock writes them: "bias -2; Health 18 of 18,
    To-Hit 6; STR 1, AGI 0, …"."""
    scores = [f"{key} {value}" for key, value in sheet.scores.items()]
    scores += [f"{key} {value} [special]" for key, value in sheet.special.items()]
    health = f"Health {sheet.current_hp} of {sheet.max_hp}, To-Hit {sheet.to_hit}"
    return f"bias {mark.bias:+d}; {health}; {', '.join(scores)}"


def roster_view(
    npcs: Iterable[tuple[NpcId, Character, NpcMark]], member: Member
) -> list[dict[str, Any]]:
    return [
        npc_view(nid, sheet.name, mark.revealed, mark.creature, stats_view(sheet, mark), member)
        for nid, sheet, mark in npcs
    ]


KEPT_IN_FIGHT = ("name", "public_life")
"""What a player sees of a hidden NPC in the fight: its name and whether it is up."""


def fighter_view(sheet: dict[str, Any]) -> dict[str, Any]:
    """A hidden NPC's sheet in the fight: its name and whether it is up, its numbers left
    out (its card in the NPC list marks them hidden)."""
    return {key: value for key, value in sheet.items() if key in KEPT_IN_FIGHT}


# its lines --------------------------------------------------------------------------------

OPEN_KINDS = frozenset(
    {
        "round",
        "main-phase",
        "shift",
        "wait",
        "free",
        "interrupt",
        "downed",
        "killed",
        "wake",
        "checked-on",
        "too-late",
        "fight-over",
    }
)
"""A hidden NPC's lines that hold none of its numbers or verdicts, read as they are: its
tokens sliding toward 0 as everyone's do, its waiting, going down, dying outright, waking,
and what someone who goes to it finds (RU-N05)."""

GM_KINDS = frozenset(
    {
        "gain",
        "lose",
        "temp",
        "temp-expired",
        "lost-returned",
        "ignored",
        "status-effect",
        "status-ended",
        "load",
        "encumbered",
        "unencumbered",
        "consequence",
    }
)
"""A hidden NPC's lines that are the GM's bookkeeping of its sheet, of which the players hear
nothing: the AP the GM gives or takes and its double 6s' temp AP, its AP coming back, its
statuses and load, and what dying cost it (RU-N05)."""

_TOLD_AS = {
    "damage": "{name} takes {amount} damage",
    "heal": "{name} regains health",
    "spend": "{name} acts",
    "death-check": "{name} makes a death check",
    "hit-while-down": "{name} is hit while down: a failed death check",
    "stop-rolling": "{name} makes no more death checks",
    "keep-rolling": "{name}'s death checks start again",
    "initiative-roll": "{name} rolls for initiative",
    "recovery-die": "{name} rolls a recovery die",
    "long-rest": "{name} ends a long rest",
    "rest": "{name} rests",
}
"""What the players read of a hidden NPC's own line: what it did, none of its numbers."""


def npc_line(event: Event, name: str, owner: str) -> tuple[str, str, bool]:
    """The hidden NPC `name`'s (id `owner`) own line as the table tells it: its text, the
    words the players read in its place, and whether it is the GM's alone (RU-N05)."""
    if event.gm_only or event.kind in GM_KINDS:
        return event.summary, "", True
    if event.kind in OPEN_KINDS:
        return event.summary, "", False
    return kept.secret(owner, event.summary), _told_as(event, name), False


def _told_as(event: Event, name: str) -> str:
    """The words for the players; none of a kind this table does not know (they read that
    it was kept, and whose it was)."""
    if event.kind == "pay":
        action = str(event.data.get("action", ""))
        known = action in (*basic_actions(), ATTACK)
        return f"{name}: {action_words(action)}" if known else f"{name} acts"
    told = _TOLD_AS.get(event.kind, "")
    return told.format_map({**event.data, "name": name})
