"""What the articles give the referee, kept from a player's own intents unless the table
hands it over (`players_set_difficulty`; docs/rules/constitution.md C3-S07): the DC of a
check (§ 3.6-3.7), a bonus or penalty, advantage and disadvantage dice (§ 3.8), the state of
an attack's target that lowers its AC (§ 5.15) and surprise at the start of a fight
(§ 5.10). Harm and XP are the GM's already; rest follows the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tabletop.asks import gm_lever
from tabletop.errors import PermissionDenied
from tabletop.session import Member
from tabletop.systems.constitution.check import NORMAL_DC
from tabletop.systems.constitution.options import Options

LEVERS: tuple[tuple[str, str, Any], ...] = (
    ("dc", "the DC", NORMAL_DC),
    ("modifier", "a bonus or penalty", 0),
    ("bonus", "a bonus or penalty", 0),
    ("advantage", "advantage dice", 0),
    ("disadvantage", "disadvantage dice", 0),
    ("target_blind", "the target's state", False),
    ("target_constrained", "the target's state", False),
    ("target_unaware", "the target's state", False),
    ("surprise", "surprise", "none"),
)
"""Each field of a check or a choice of the fight that sets what is the referee's, what it
sets, and the value that leaves it to the rules."""

FIXED = {"dc": NORMAL_DC, "modifier": 0, "advantage": 0, "disadvantage": 0}
"""What a player's own check offer fixes while the levers are the GM's: DC 20, nothing
added (the deprivation penalty still counts, C3-A62)."""


def set_by(intent: Mapping[str, Any]) -> list[str]:
    """What of the referee's an intent (in JSON form) sets: a check's, or a fight choice's."""
    if intent.get("kind") == "check":
        fields = intent
    elif intent.get("kind") == "combat" and isinstance(intent.get("action"), Mapping):
        fields = intent["action"]
    else:
        return []
    found = [what for field, what, left in LEVERS if fields.get(field, left) != left]
    return list(dict.fromkeys(found))


def held_back(intent: Mapping[str, Any], member: Member, options: Options) -> str | None:
    """Why `member` may not send this intent for what it sets of the referee's, or None."""
    for what in set_by(intent):
        try:
            gm_lever(member, options.players_set_difficulty, what)
        except PermissionDenied as refused:
            return str(refused)
    return None


def levers_for(member: Member, options: Options) -> dict[str, Any]:
    """What a check offered to `member` fixes: nothing for the GM or where the table hands
    the levers over, else `FIXED`."""
    return {} if member.is_gm or options.players_set_difficulty else dict(FIXED)
