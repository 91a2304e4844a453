"""An attack at a Dead Weight table as the book chains it (DW-T02): the attacker tests (a
character the attribute on their weapon, an enemy its level: § Special Tests), a hit deals
the blow's wounds (the GM's to give: weapons' and monsters' damage are other books'), a
character struck rolls armour (§ Armor), may test Hardened (DW-A35) and places what gets
through (§ Placing wounds); an enemy takes the wounds the GM gives after its armour (DW-N03).

The attack waits in the table's state (`Attack`), one step at a time, each step an intent
of its own and a line that names who does what, offered to whoever the rules ask: the
test's choices as any test's, the blow's wounds to the GM, armour, Hardened and placing to
the defender's player (and the GM, who may act for any character). The GM may drop it at
any step. A hidden enemy's test and wounds reach the players as any of its lines do
(DW-N04, DW-N05); whether its blow lands is everyone's (DW-T03).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tabletop.asks import gm_lever
from tabletop.dice import DiceSource
from tabletop.errors import PermissionDenied
from tabletop.offers import Choice, Offer
from tabletop.session import Event, Frozen, Member, controls, note
from tabletop.systems.dead_weight.armour import defend, wounds_after_hardened
from tabletop.systems.dead_weight.attribute_test import GM_ANNOUNCES, TestSetup
from tabletop.systems.dead_weight.attributes import Attribute
from tabletop.systems.dead_weight.body import WoundPlacement, can_hold_a_wound, receive_wounds
from tabletop.systems.dead_weight.catalogue import Trait
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.events import event
from tabletop.systems.dead_weight.inventory import PlaceKind
from tabletop.systems.dead_weight.sheet_edits import setup_choice
from tabletop.systems.dead_weight.table import Attack, AttackStep, DeadWeightTable, Id
from tabletop.systems.dead_weight.table_npcs import NpcWounds, living, told_as, told_of, wounded
from tabletop.systems.dead_weight.table_tests import NpcTest, Test, announces, begin_test
from tabletop.words import counted

DEFENDERS_STEPS: tuple[AttackStep, ...] = ("armour", "hardened", "place")
"""The steps the struck character's player takes (DW-T02)."""


class AttackIntent(Frozen):
    """One attack on a target: the attacker's test, and what a hit does, step by step."""

    kind: Literal["attack"] = "attack"
    attacker: Id
    target: Id
    setup: TestSetup = TestSetup()
    """The attack test's announcement: the attribute on the weapon (an enemy tests its
    level whatever it names), and the attacker's own part (extra effort, …)."""


class Blow(Frozen):
    """The GM gives the wounds of a blow that hit: before armour on a character, after its
    armour on an enemy (DW-N03)."""

    kind: Literal["blow"] = "blow"
    wounds: int = Field(ge=0, le=20)


class Defend(Frozen):
    """The struck character rolls one part of one worn piece of armour (§ Armor)."""

    kind: Literal["defend"] = "defend"
    armour: str = Field(min_length=1, max_length=200)
    part: int = Field(default=0, ge=0, le=10)
    dice: int = Field(default=1, ge=1, le=20)


class NoArmour(Frozen):
    """The struck character rolls no armour: "Players may always choose to roll fewer or
    zero armor dice" (§ Armor)."""

    kind: Literal["no-armour"] = "no-armour"


class Harden(Frozen):
    """The struck character tests STR to resist wounds with Hardened, or not (DW-A35)."""

    kind: Literal["hardened"] = "hardened"
    answer: Literal["test", "decline"]


class PlaceWounds(Frozen):
    """The struck character places the wounds that got through (§ Placing wounds)."""

    kind: Literal["place-wounds"] = "place-wounds"
    placements: tuple[WoundPlacement, ...] = Field(default=(), max_length=20)


class DropAttack(Frozen):
    """The GM drops the attack under way: nothing more of it happens."""

    kind: Literal["drop-attack"] = "drop-attack"


FIGHT_INTENTS = (AttackIntent, Blow, Defend, NoArmour, Harden, PlaceWounds, DropAttack)
FightIntent = AttackIntent | Blow | Defend | NoArmour | Harden | PlaceWounds | DropAttack
FIGHT_KINDS = frozenset(intent.model_fields["kind"].default for intent in FIGHT_INTENTS)


def why_not_in_fight(state: DeadWeightTable, kind: str) -> str:
    """Why a step of an attack is not open now: none under way, or another step (or
    another's) is next."""
    attack = state.attack
    if attack is None:
        return "no attack is under way"
    if kind == "attack":
        return "an attack is under way: finish it, or the GM drops it"
    if attack.step in ("test", "hardened-test"):
        return "the attack waits for its test"
    return f"the attack waits for {_whose_step(state, attack)}"


def _whose_step(state: DeadWeightTable, attack: Attack) -> str:
    """Who takes the attack's next step, in words."""
    if attack.step == "damage":
        return "the GM to give the blow's wounds"
    return f"{state.label(attack.target)}'s player"


# offers -----------------------------------------------------------------------------------


def fight_offers(state: DeadWeightTable, member: Member, mine: tuple[Id, ...]) -> list[Offer]:
    """An attack when none is under way; else its next step, to whoever takes it."""
    attack = state.attack
    if attack is None:
        return _attack_offers(state, member, mine)
    found = []
    if attack.step == "damage" and _deals(state, member, attack):
        found.append(
            Offer(
                kind="blow",
                text=f"the wounds of {state.label(attack.attacker)}'s blow",
                fields={"wounds": Choice(help=_blow_help(state, attack), example=1)},
            )
        )
    if attack.step in DEFENDERS_STEPS and _defends(state, member, attack):
        found += _defenders_offers(state, attack)
    if member.is_gm:
        dropped = {"kind": "drop-attack"}
        text = f"drop {state.label(attack.attacker)}'s attack"
        found.append(Offer(kind="drop-attack", text=text, intents=(dropped,)))
    return found


def _attack_offers(state: DeadWeightTable, member: Member, mine: tuple[Id, ...]) -> list[Offer]:
    """Attack with a character the member plays who can act, or (the GM) a kept enemy."""
    if state.testing:
        return []
    attackers = [c for c in mine if state.characters[c].sheet.condition.can_act]
    if member.is_gm:
        attackers += living(state.npcs)
    alive = [c for c, seat in state.characters.items() if not seat.sheet.condition.dead]
    targets = [*living(state.npcs), *alive]
    if not attackers or len(set(targets) | set(attackers)) < 2:
        return []
    if targets[0] == attackers[0]:  # the form's first target is never its first attacker
        targets.append(targets.pop(0))
    levers = announces(state, member)
    return [
        Offer(
            kind="attack",
            text="attack",
            fields={
                "attacker": Choice(values=tuple(attackers)),
                "target": Choice(values=tuple(targets)),
                "setup": setup_choice(levers),
            },
            preset={} if levers else {"setup": GM_ANNOUNCES},
        )
    ]


def _defenders_offers(state: DeadWeightTable, attack: Attack) -> list[Offer]:
    """The struck character's step: armour to roll, Hardened to test, wounds to place."""
    name = state.label(attack.target)
    if attack.step == "armour":
        rolls = tuple(
            {"kind": "defend", "armour": piece, "part": part, "dice": k}
            for piece, part, points in _armour_parts(state, attack.target)
            for k in range(1, points + 1)
        )
        text = f"{name}'s armour against {counted(attack.wounds, 'wound')}"
        bare = ({"kind": "no-armour"},)
        return [
            Offer(kind="defend", text=text, intents=rolls),
            Offer(kind="no-armour", text=f"{name} rolls no armour", intents=bare),
        ]
    if attack.step == "hardened":
        tested = tuple({"kind": "hardened", "answer": said} for said in ("test", "decline"))
        return [Offer(kind="hardened", text=f"{name}: test Hardened", intents=tested)]
    sheet = state.characters[attack.target].sheet
    if not can_hold_a_wound(sheet):
        fall = ({"kind": "place-wounds", "placements": []},)
        return [Offer(kind="place-wounds", text=f"{name} can hold no more wounds", intents=fall)]
    where = Choice(help=f"where each of {counted(attack.wounds, 'wound')} goes", example=[])
    return [
        Offer(kind="place-wounds", text=f"{name}: place the wounds", fields={"placements": where})
    ]


def _armour_parts(state: DeadWeightTable, cid: Id) -> list[tuple[str, int, int]]:
    """Each part of each piece of armour worn on the torso, with armour points left."""
    torso = state.characters[cid].sheet.inventory.place(PlaceKind.TORSO)
    return [
        (item.name, index, part.points)
        for item in torso.items
        for index, part in enumerate(item.armour)
        if part.points
    ]


def _blow_help(state: DeadWeightTable, attack: Attack) -> str:
    if attack.target in state.characters:
        return f"wounds of the blow on {state.label(attack.target)}, before armour"
    return f"wounds that get through {state.label(attack.target)}'s armour"


def _deals(state: DeadWeightTable, member: Member, attack: Attack) -> bool:
    """Whether `member` gives the blow's wounds: the GM, or the attacker's player where the
    table hands harm over (DW-T01)."""
    if member.is_gm:
        return True
    seat = state.characters.get(attack.attacker)
    handed = state.options.players_set_difficulty
    return handed and seat is not None and controls(member, seat.owner)


def _defends(state: DeadWeightTable, member: Member, attack: Attack) -> bool:
    """Whether `member` takes the struck character's steps: their player, or the GM."""
    return controls(member, state.characters[attack.target].owner)


# the rules --------------------------------------------------------------------------------


def fight_step(
    state: DeadWeightTable, intent: FightIntent, member: Member, dice: DiceSource
) -> tuple[DeadWeightTable, list[Event]]:
    """One step of an attack: begun, its blow given, armour rolled, Hardened tested or not,
    wounds placed, or dropped by the GM."""
    if isinstance(intent, AttackIntent):
        return _begun(state, intent, member, dice)
    attack = state.attack
    if attack is None:
        raise DeadWeightError("no attack is under way")
    if isinstance(intent, DropAttack):
        if not member.is_gm:
            raise PermissionDenied("only the GM drops an attack")
        said = (
            f"the GM drops {state.label(attack.attacker)}'s attack on {state.label(attack.target)}"
        )
        return state.model_copy(update={"attack": None}), [note("attack dropped", said)]
    if isinstance(intent, Blow):
        _at(attack, "damage")
        if not _deals(state, member, attack):
            gm_lever(member, state.options.players_set_difficulty, "the blow's wounds")
        return _struck(state, attack, intent.wounds)
    _at(attack, *DEFENDERS_STEPS)
    if not _defends(state, member, attack):
        raise PermissionDenied(f"{state.label(attack.target)}'s player takes this step")
    if isinstance(intent, Defend | NoArmour):
        _at(attack, "armour")
        return _armoured(state, attack, intent, dice)
    if isinstance(intent, Harden):
        _at(attack, "hardened")
        return _hardened(state, attack, intent.answer == "test", member, dice)
    _at(attack, "place")
    return _placed(state, attack, intent, dice)


def _at(attack: Attack, *steps: AttackStep) -> None:
    if attack.step not in steps:
        raise DeadWeightError(f"the attack waits for another step ({attack.step})")


def _begun(
    state: DeadWeightTable, intent: AttackIntent, member: Member, dice: DiceSource
) -> tuple[DeadWeightTable, list[Event]]:
    """The attack announced and its test thrown: a character tests the weapon's attribute
    (DW-M49), an enemy its level (DW-M50); in combat, as Berserker reads it."""
    if state.attack is not None:
        raise DeadWeightError("an attack is under way: finish it, or the GM drops it")
    if state.testing:
        raise DeadWeightError("a test is under way; finish it first")
    if intent.attacker == intent.target:
        raise DeadWeightError("an attacker attacks someone else")
    _check_target(state, intent.target)
    setup = intent.setup.model_copy(update={"in_combat": True})
    if intent.attacker in state.characters:
        if not controls(member, state.characters[intent.attacker].owner):
            raise PermissionDenied(f"{state.label(intent.attacker)} is another player's")
        test: Test | NpcTest = Test(roller=intent.attacker, setup=setup)
    elif intent.attacker in state.npcs:
        if not member.is_gm:
            raise PermissionDenied("only the GM attacks with an enemy")
        test = NpcTest(kept=intent.attacker, setup=setup)
    else:
        raise DeadWeightError(f"nobody at this table is {intent.attacker!r}")
    attack = Attack(attacker=intent.attacker, target=intent.target, attribute=setup.attribute)
    said = f"{state.label(attack.attacker)} attacks {state.label(attack.target)}"
    line = note("attack", said, attacker=attack.attacker, target=attack.target)
    tested, events = begin_test(state.model_copy(update={"attack": attack}), test, member, dice)
    after, more = follow(tested)
    return after, [line, *events, *more]


def _check_target(state: DeadWeightTable, target: Id) -> None:
    if target in state.characters:
        if state.characters[target].sheet.condition.dead:
            raise DeadWeightError(f"{state.label(target)} is dead")
    elif target not in living(state.npcs):
        raise DeadWeightError(f"nobody living at this table is {target!r}")


def follow(state: DeadWeightTable) -> tuple[DeadWeightTable, list[Event]]:
    """The attack's next step once its test is judged: a miss ends it, a hit waits for the
    blow's wounds; a Hardened test judged leaves the wounds it did not resist to place."""
    attack, exchange = state.attack, state.exchange
    if attack is None or attack.step not in ("test", "hardened-test"):
        return state, []
    if exchange is None or not exchange.finished or exchange.test is None:
        return state, []
    verdict = exchange.test.verdict
    assert verdict is not None
    attacker, target = state.label(attack.attacker), state.label(attack.target)
    if attack.step == "hardened-test":
        left = wounds_after_hardened(attack.wounds, exchange.test)
        said = (
            f"{target} resists {counted(attack.wounds - left, 'wound')} with Hardened; {left} left"
        )
        placing = attack.model_copy(update={"step": "place"})
        return _to_place(state, placing, left, [note("hardened", said, wounds=left)])
    if not verdict.succeeded:
        missed = note("miss", f"{attacker} misses {target}")
        return state.model_copy(update={"attack": None}), [missed]
    hit = note("hit", f"{attacker} hits {target}")
    waiting = attack.model_copy(update={"step": "damage"})
    return state.model_copy(update={"attack": waiting}), [hit]


def _struck(
    state: DeadWeightTable, attack: Attack, wounds: int
) -> tuple[DeadWeightTable, list[Event]]:
    """The blow's wounds: an enemy takes them at once (they are after its armour, DW-N03);
    a character's armour comes first."""
    if attack.target in state.npcs:
        done = state.model_copy(update={"attack": None})
        if wounds == 0:
            return done, [_unhurt(state, attack.target)]
        npcs, told = wounded(state.npcs, NpcWounds(npc=attack.target, wounds=wounds))
        return done.model_copy(update={"npcs": npcs}), told
    said = f"{state.label(attack.attacker)}'s blow deals {counted(wounds, 'wound')} to "
    line = note("blow", said + state.label(attack.target), wounds=wounds)
    if wounds == 0:
        return state.model_copy(update={"attack": None}), [line]
    armoured = bool(_armour_parts(state, attack.target))
    step: AttackStep = "armour" if armoured else "hardened"
    return _next(state, attack.model_copy(update={"step": step, "wounds": wounds}), [line])


def _unhurt(state: DeadWeightTable, nid: Id) -> Event:
    """An enemy the blow does not hurt, told as its wounds are while it is hidden (DW-N05)."""
    name = state.label(nid)
    words = event("npc wounded", f"{name} takes 0 wounds", wounds=0)
    return told_as(words, nid if state.hides(nid) else None, name)


def _armoured(
    state: DeadWeightTable, attack: Attack, intent: Defend | NoArmour, dice: DiceSource
) -> tuple[DeadWeightTable, list[Event]]:
    """The armour roll (DW-M40, M41): one part of one piece, as many dice as chosen."""
    name = state.label(attack.target)
    seat = state.characters[attack.target]
    if isinstance(intent, NoArmour):
        line = note("armour roll", f"{name} rolls no armour", wounds=attack.wounds)
        return _next(state, attack.model_copy(update={"step": "hardened"}), [line])
    sheet, left, events = defend(
        seat.sheet, attack.wounds, intent.armour, dice, part=intent.part, count=intent.dice
    )
    told = [e.model_copy(update={"text": f"{name}'s {e.text}"}) for e in told_of(events)]
    seated = {**state.characters, attack.target: seat.model_copy(update={"sheet": sheet})}
    state = state.model_copy(update={"characters": seated})
    return _to_place(state, attack.model_copy(update={"step": "hardened"}), left, told)


def _hardened(
    state: DeadWeightTable, attack: Attack, resist: bool, member: Member, dice: DiceSource
) -> tuple[DeadWeightTable, list[Event]]:
    """Hardened's STR test against the wounds left (DW-A35), or the wounds placed as they are."""
    name = state.label(attack.target)
    if not resist:
        line = note("hardened", f"{name} does not test Hardened", wounds=attack.wounds)
        placing = attack.model_copy(update={"step": "place"})
        return _to_place(state, placing, attack.wounds, [line])
    if state.testing:
        raise DeadWeightError("a test is under way; finish it first")
    testing = attack.model_copy(update={"step": "hardened-test"})
    state = state.model_copy(update={"attack": testing})
    setup = TestSetup(attribute=Attribute.STR, in_combat=True)
    tested, events = begin_test(state, Test(roller=attack.target, setup=setup), member, dice)
    after, more = follow(tested)
    return after, [*events, *more]


def _to_place(
    state: DeadWeightTable, attack: Attack, wounds: int, told: list[Event]
) -> tuple[DeadWeightTable, list[Event]]:
    """The wounds left after armour or Hardened: none ends the attack."""
    if wounds == 0:
        line = note("blow", f"no wound gets through to {state.label(attack.target)}")
        return state.model_copy(update={"attack": None}), [*told, line]
    return _next(state, attack.model_copy(update={"wounds": wounds}), told)


def _next(
    state: DeadWeightTable, attack: Attack, told: list[Event]
) -> tuple[DeadWeightTable, list[Event]]:
    """The attack at its step, past a Hardened step the struck character cannot take."""
    if attack.step == "hardened" and not state.characters[attack.target].sheet.has(Trait.HARDENED):
        attack = attack.model_copy(update={"step": "place"})
    return state.model_copy(update={"attack": attack}), told


def _placed(
    state: DeadWeightTable, attack: Attack, intent: PlaceWounds, dice: DiceSource
) -> tuple[DeadWeightTable, list[Event]]:
    """The wounds placed as the player chose, in combat (DW-M42..M44, DW-X16); none left
    to place ends the attack."""
    seat = state.characters[attack.target]
    sheet, events = receive_wounds(
        seat.sheet,
        attack.wounds,
        list(intent.placements),
        dice,
        in_combat=True,
        options=state.options,
    )
    seated = {**state.characters, attack.target: seat.model_copy(update={"sheet": sheet})}
    said = f"{sheet.label} places {counted(attack.wounds, 'wound')}"
    line = note("wounds placed", said, wounds=attack.wounds)
    done = state.model_copy(update={"characters": seated, "attack": None})
    return done, [line, *told_of(events)]


# views ------------------------------------------------------------------------------------


def attack_view(state: DeadWeightTable) -> dict[str, object] | None:
    """The attack under way: who attacks whom, its next step, and the wounds coming at a
    character (an enemy's are given and taken at once, so none is ever kept here)."""
    attack = state.attack
    if attack is None:
        return None
    return {
        "attacker": attack.attacker,
        "target": attack.target,
        "attacker_name": state.label(attack.attacker),
        "target_name": state.label(attack.target),
        "step": attack.step,
        "wounds": attack.wounds,
    }
