"""A blow as the Core Rules chain it (§ Damage, § Critical damage; CR-F01..F05): the
attacker's roll to hit where the table makes one, the attacker's damage roll, the
defender's armour, then the hit and what it does. Each rule of the chain runs as any rule
at the table does, its decisions waiting for whoever makes them; this module says what
follows each once it settles.
"""

from __future__ import annotations

from tabletop import kept
from tabletop.session import Event, note
from tabletop.systems.rollunder.abilities import AbilityOutcome, AbilityRoll
from tabletop.systems.rollunder.damage import (
    DamageDice,
    DamageOutcome,
    Hit,
    RollDamage,
    SufferHit,
)
from tabletop.systems.rollunder.resolution import Intent, Outcome
from tabletop.systems.rollunder.table import Attack, Id, RollUnderTable

Next = tuple[RollUnderTable, list[Event], Intent | None, dict[str, Id]]
"""The table after a step, its lines, and the rule to run next on whom (None: the attack
waits for the defender, or is over)."""


def first_rule(state: RollUnderTable, attack: Attack) -> tuple[Intent, dict[str, Id]]:
    """The attacker's rule at this step: the roll to hit (CR-F01) or the damage roll."""
    sheet = state.sheet(attack.attacker)
    facing = {sheet.name: attack.attacker}
    if attack.step == "to-hit":
        return AbilityRoll(character=sheet, ability=attack.ability), facing
    return RollDamage(character=sheet, dice=DamageDice.parse(attack.weapon)), facing


def followed(state: RollUnderTable, outcome: Outcome) -> Next:
    """What follows a rule of the attack under way once it settles: a miss ends it, a hit
    to be made rolls damage, damage waits for the defender's armour (or lands at once when
    direct, CR-F03), and the hit's end ends the attack (CR-F04)."""
    attack = state.attack
    assert attack is not None  # a rule of an attack runs only while it is under way
    if isinstance(outcome, AbilityOutcome):
        if not outcome.passed:
            return _over(state), [said(state, attack, "{a}'s attack misses {t}")], None, {}
        attack = attack.model_copy(update={"step": "damage"})
        rule, facing = first_rule(state, attack)
        return _with(state, attack), [], rule, facing
    if isinstance(outcome, DamageOutcome):
        attack = attack.model_copy(update={"damage": outcome.damage, "step": "armour"})
        state = _with(state, attack)
        if attack.direct:
            line = said(state, attack, "{a}'s blow reaches {t}: direct damage ignores armour")
            after, rule, facing = landed(state, 0)
            return after, [line], rule, facing
        line = said(state, attack, "{a}'s blow reaches {t}: {t}'s armour comes next")
        return state, [line], None, {}
    return _over(state), [], None, {}


def landed(state: RollUnderTable, armour: int) -> tuple[RollUnderTable, Intent, dict[str, Id]]:
    """The hit on the defender with the damage rolled and their armour (CR-F03)."""
    attack = state.attack
    assert attack is not None and attack.damage is not None
    target = state.sheet(attack.target)
    hit = Hit(amount=attack.damage, armour=armour, direct=attack.direct)
    after = _with(state, attack.model_copy(update={"step": "hit"}))
    return after, SufferHit(character=target, hit=hit), {target.name: attack.target}


def said(state: RollUnderTable, attack: Attack, text: str) -> Event:
    """A line of the attack naming its attacker (`{a}`) and target (`{t}`)."""
    line = text.format(a=name(state, attack.attacker), t=name(state, attack.target))
    return note("attack", line, attacker=attack.attacker, target=attack.target)


def opening(state: RollUnderTable, attack: Attack) -> Event:
    """The attack's first line: who attacks whom, with the attacker's weapon, which is a
    kept attacker's number (CR-S04)."""
    weapon = kept.secret(attack.attacker, attack.weapon)
    direct = " (direct damage)" if attack.direct else ""
    return said(state, attack, f"{{a}} attacks {{t}} with {weapon}{direct}")


def name(state: RollUnderTable, cid: Id) -> str:
    """A character's name, or who they were once they left the table mid-attack."""
    seat = state.characters.get(cid)
    return seat.sheet.name if seat else "someone who left the table"


def _with(state: RollUnderTable, attack: Attack) -> RollUnderTable:
    return state.model_copy(update={"attack": attack})


def _over(state: RollUnderTable) -> RollUnderTable:
    return state.model_copy(update={"attack": None})
