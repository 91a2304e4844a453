"""The attribute test (and check) as a state machine: announce, roll, re-roll, judge.

`start_test` takes the roller, what was announced and a dice source, pays any extra
effort, rolls the pool and returns the open test. The player and the GM then take turns,
starting with the player: on its turn a side re-rolls one die with one of its re-rolls, or
passes; a side with nothing it may re-roll passes by itself. When both have passed in a
row the faces are judged (DW-M31), a Dauntless roller may add two dice, and fatigue is
placed. `AttributeTest.choices()` lists the legal choices; `choose` applies one.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from tabletop.dice import DiceSource
from tabletop.errors import LimitError
from tabletop.systems.dead_weight.attributes import Attribute
from tabletop.systems.dead_weight.body import receive_fatigue
from tabletop.systems.dead_weight.burden import use_burden
from tabletop.systems.dead_weight.catalogue import (
    SITUATION_ADVANTAGE,
    SITUATION_PROFICIENCY,
    Affliction,
    Situation,
    Trait,
    Trauma,
)
from tabletop.systems.dead_weight.character import Character
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.evaluation import HelperThrow, Outcome, Throw, Verdict, judge
from tabletop.systems.dead_weight.events import Event, event
from tabletop.systems.dead_weight.npc import Npc
from tabletop.systems.dead_weight.options import DEFAULT, Options
from tabletop.words import counted

MAX_POOL = 20
"""Dice one side of a test may throw (a zero-dice roll of -18 throws 20)."""

MAX_ANNOUNCED_REROLLS = 12
"""Advantages or disadvantages one test may be announced with."""


class Side(StrEnum):
    PLAYER = "player"
    GM = "gm"

    @property
    def other(self) -> Side:
        return Side.GM if self == Side.PLAYER else Side.PLAYER


class Resource(StrEnum):
    """What pays for a re-roll."""

    PROFICIENCY = "proficiency"
    ADVANTAGE = "advantage"
    HELPER_PROFICIENCY = "helper proficiency"
    DISADVANTAGE = "disadvantage"

    @property
    def side(self) -> Side:
        return Side.GM if self == Resource.DISADVANTAGE else Side.PLAYER


class TestSetup(BaseModel):
    """What is announced before the dice are thrown."""

    __test__ = False  # not a pytest test class

    model_config = ConfigDict(frozen=True, extra="forbid")

    attribute: Attribute = Attribute.STR
    check: bool = False
    """A check (initiative, say): 1s and 4s cause no fatigue (DW-M38)."""
    keep_it_safe: bool = False
    extra_effort: bool = False
    advantage: int = Field(default=0, ge=0, le=MAX_ANNOUNCED_REROLLS)
    disadvantage: int = Field(default=0, ge=0, le=MAX_ANNOUNCED_REROLLS)
    dice: int | None = Field(default=None, ge=0, le=MAX_POOL)
    """Roll fewer dice than the pool; 0 is not rolling at all, a failure (DW-A39)."""
    in_combat: bool = False
    burden: bool = False
    """Using the burden: disadvantage and no proficiency, for an insight point (DW-M09)."""
    situations: tuple[Situation, ...] = ()
    """What the test is about, for skills that give advantage or proficiency on it."""
    helpers_allowed: int = Field(default=1, ge=0, le=3)
    """One helper, unless the GM allows more (DW-M35)."""


GM_ANNOUNCES = {"advantage": 0, "disadvantage": 0, "check": False, "helpers_allowed": 1}
"""The parts of a test's announcement the book gives the GM (DW-T01), as they stand when the
GM announces none: § Advantage and Disadvantage, § Checks or Tests, § Receiving Help."""

_LEVER_WORDS = {
    "advantage": "advantage",
    "disadvantage": "disadvantage",
    "check": "whether it is a check",
    "helpers_allowed": "how many may help",
}


def gm_levers(setup: TestSetup) -> list[str]:
    """What `setup` announces of the GM's part, in words (DW-T01)."""
    return [
        _LEVER_WORDS[name] for name, none in GM_ANNOUNCES.items() if getattr(setup, name) != none
    ]


class Help(BaseModel):
    """A character helping with the test, and whether they go for extra effort."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    helper: Character
    extra_effort: bool = False


class TestDie(BaseModel):
    """One die of the test: every face it has shown (the last one stands) and what paid
    for each re-roll. `owner` 0 is the roller, n the n-th helper."""

    __test__ = False  # not a pytest test class

    model_config = ConfigDict(frozen=True, extra="forbid")

    owner: int = Field(default=0, ge=0)
    faces: tuple[int, ...] = Field(min_length=1)
    rerolls: tuple[Resource, ...] = ()

    @property
    def face(self) -> int:
        return self.faces[-1]

    @property
    def proficiency_used(self) -> bool:
        return any(r in (Resource.PROFICIENCY, Resource.HELPER_PROFICIENCY) for r in self.rerolls)


class Budgets(BaseModel):
    """Re-rolls each side has left."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    proficiency: int = Field(default=0, ge=0)
    advantage: int = Field(default=0, ge=0)
    disadvantage: int = Field(default=0, ge=0)
    helpers: tuple[int, ...] = ()


class Reroll(BaseModel):
    """Re-roll die number `die` (0-based, in `AttributeTest.dice`) paid by `resource`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["reroll"] = "reroll"
    resource: Resource
    die: int = Field(ge=0)
    helper: int = Field(default=0, ge=0)
    """For a helper's proficiency: which helper (1 for the first)."""


class Pass(BaseModel):
    """Stop re-rolling for now (the test ends when both sides pass in a row)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["pass"] = "pass"


class DauntlessRoll(BaseModel):
    """After a success, a Dauntless roller adds two dice, or not (DW-M52, DW-A36)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["dauntless"] = "dauntless"
    roll: bool


Choice = Annotated[Reroll | Pass | DauntlessRoll, Field(discriminator="kind")]


class Automatic(StrEnum):
    DECLINED = "declined to roll"
    GM_AUTO_FAIL = "GM's automatic failure"


class AttributeTest(BaseModel):
    """An open or finished test; every field round-trips through JSON."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    setup: TestSetup
    options: Options = DEFAULT
    roller: Annotated[Character | Npc, Field(discriminator="kind")]
    helpers: tuple[Help, ...] = ()
    pool: int
    """The roller's own pool after every modifier; 0 or less means a zero-dice roll."""
    thrown: int = Field(default=0, ge=0)
    """The roller's own dice thrown (fewer than the pool if chosen, 2 + |pool| if <= 0)."""
    take_lowest: bool = False
    automatic: Automatic | None = None
    terrified: bool = False
    hopeless: bool = False
    dauntless: bool = False
    dice: tuple[TestDie, ...] = ()
    budgets: Budgets = Budgets()
    turn: Side = Side.PLAYER
    passes: int = Field(default=0, ge=0, le=2)
    phase: Literal["announced", "rerolling", "dauntless", "finished"] = "rerolling"
    dauntless_faces: tuple[int, ...] = ()
    verdict: Outcome | None = None
    fatigue: bool = False
    helper_fatigue: tuple[bool, ...] = ()

    # reading the test -------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.phase == "finished"

    @property
    def deciding(self) -> Side:
        """Who makes the next choice (the player chooses Dauntless dice)."""
        return self.turn if self.phase == "rerolling" else Side.PLAYER

    def faces(self, owner: int | None = None) -> tuple[int, ...]:
        return tuple(d.face for d in self.dice if owner is None or d.owner == owner)

    def throw(self) -> Throw:
        """The dice as the judgement sees them."""
        return Throw(
            own=self.faces(0),
            take_lowest=self.take_lowest,
            count_all_thrown=self.options.take_lowest_eval == "all",
            helpers=tuple(
                HelperThrow(
                    faces=self.faces(i),
                    hopeless=help.helper.has(Affliction.HOPELESS),
                    fatigue_counts=not (self.setup.check or help.extra_effort),
                )
                for i, help in enumerate(self.helpers, start=1)
            ),
            dauntless=self.dauntless_faces,
            terrified=self.terrified,
            hopeless=self.hopeless,
            fatigue_counts=not (self.setup.check or self.setup.extra_effort)
            and isinstance(self.roller, Character),
            keep_safe=self.setup.keep_it_safe,
        )

    def judged(self) -> Verdict:
        if self.automatic is not None:
            return Verdict(Outcome.FAILURE, False, tuple(False for _ in self.helpers))
        return judge(self.throw())

    def choices(self) -> list[Reroll | Pass | DauntlessRoll]:
        """Every legal choice of the side to decide (none once finished)."""
        if self.phase == "dauntless":
            return [DauntlessRoll(roll=True), DauntlessRoll(roll=False)]
        if self.phase in ("announced", "finished"):
            return []
        return [Pass(), *self.rerolls(self.turn)]

    def rerolls(self, side: Side) -> list[Reroll]:
        """The re-rolls `side` may make now."""
        found: list[Reroll] = []
        distinct = self.options.proficiency_distinct_dice
        open_help = self.options.main_may_modify_help_die
        for index, die in enumerate(self.dice):
            if side == Side.GM:
                if self.budgets.disadvantage:
                    found.append(Reroll(resource=Resource.DISADVANTAGE, die=index))
                continue
            roller_may = die.owner == 0 or open_help
            if roller_may and self.budgets.proficiency and not (distinct and die.proficiency_used):
                found.append(Reroll(resource=Resource.PROFICIENCY, die=index))
            if roller_may and self.budgets.advantage:
                found.append(Reroll(resource=Resource.ADVANTAGE, die=index))
            if (
                die.owner
                and self.budgets.helpers[die.owner - 1]
                and not (distinct and die.proficiency_used)
            ):
                found.append(
                    Reroll(resource=Resource.HELPER_PROFICIENCY, die=index, helper=die.owner)
                )
        return found

    def choose(
        self, choice: Reroll | Pass | DauntlessRoll, dice: DiceSource
    ) -> tuple[AttributeTest, list[Event]]:
        """Apply one legal choice; `DeadWeightError` (and no change) for any other."""
        if choice not in self.choices():
            raise DeadWeightError(f"not a legal choice now: {_describe(choice, self)}")
        if isinstance(choice, DauntlessRoll):
            return _dauntless(self, choice.roll, dice)
        if isinstance(choice, Pass):
            passed = self.model_copy(update={"passes": self.passes + 1, "turn": self.turn.other})
            return _settle(passed, [event("pass", f"{self.turn} passes", side=self.turn)], dice)
        return _settle(*_reroll(self, choice, dice), dice)


def _describe(choice: Reroll | Pass | DauntlessRoll, test: AttributeTest) -> str:
    if isinstance(choice, Reroll):
        return f"re-roll die {choice.die + 1} with {choice.resource} ({test.turn}'s turn)"
    if isinstance(choice, Pass):
        return "pass"
    return "roll the Dauntless dice" if choice.roll else "decline the Dauntless dice"


# starting a test ---------------------------------------------------------------------


def start_test(
    roller: Character | Npc,
    setup: TestSetup,
    dice: DiceSource,
    helpers: tuple[Help, ...] | list[Help] = (),
    options: Options = DEFAULT,
) -> tuple[AttributeTest, list[Event]]:
    """Announce and throw a test (or check); the returned test waits for the first choice."""
    announced, events = announce_test(roller, setup, helpers, options)
    thrown, more = throw_test(announced, dice)
    return thrown, events + more


def announce_test(
    roller: Character | Npc,
    setup: TestSetup,
    helpers: tuple[Help, ...] | list[Help] = (),
    options: Options = DEFAULT,
) -> tuple[AttributeTest, list[Event]]:
    """Everything before the dice: check the announcement, pay extra effort, work out the
    pool and the re-rolls. The test is in its "announced" phase (its odds can be asked)."""
    helpers = tuple(helpers)
    events: list[Event] = []
    if isinstance(roller, Npc):
        _refuse_for_npc(setup, helpers)
        own_pool, proficiency, terrified, hopeless, dauntless = roller.level, 0, False, False, False
    else:
        roller, own_pool, proficiency, events = _announce(roller, setup, helpers, options)
        terrified = roller.has(Affliction.TERRIFIED)
        hopeless = roller.has(Affliction.HOPELESS)
        dauntless = roller.has(Trait.DAUNTLESS)
    helpers, helper_events = _pay_helpers(helpers, setup)
    events += helper_events
    advantage, disadvantage = _net_rerolls(roller, setup)
    automatic, thrown, take_lowest = _dice_to_throw(own_pool, setup, options)
    test = AttributeTest(
        setup=setup,
        options=options,
        roller=roller,
        helpers=helpers,
        pool=own_pool,
        thrown=thrown,
        take_lowest=take_lowest,
        automatic=automatic,
        terrified=terrified,
        hopeless=hopeless,
        dauntless=dauntless,
        budgets=Budgets(
            proficiency=proficiency,
            advantage=advantage,
            disadvantage=disadvantage,
            helpers=tuple(_helper_proficiency(h, setup.attribute) for h in helpers),
        ),
        phase="announced",
    )
    events.append(
        event(
            "test announced",
            _announcement(test),
            attribute=setup.attribute,
            check=setup.check,
            pool=own_pool,
            take_lowest=take_lowest,
            proficiency=proficiency,
            advantage=advantage,
            disadvantage=disadvantage,
        )
    )
    return test, events


def throw_test(test: AttributeTest, dice: DiceSource) -> tuple[AttributeTest, list[Event]]:
    """Throw the announced test's dice (the roller's, then each helper's)."""
    if test.phase != "announced":
        raise DeadWeightError("this test's dice are already thrown")
    test = test.model_copy(update={"phase": "rerolling"})
    if test.automatic is not None:
        return _finish(test, [])
    rolled = [TestDie(owner=0, faces=(dice.roll(6),)) for _ in range(test.thrown)]
    for owner, help in enumerate(test.helpers, start=1):
        count = 2 if help.extra_effort else 1
        rolled += [TestDie(owner=owner, faces=(dice.roll(6),)) for _ in range(count)]
    test = test.model_copy(update={"dice": tuple(rolled)})
    events = [
        event(
            "dice rolled",
            f"rolled {_faces_text(test)}",
            faces=[d.face for d in rolled],
            owners=[d.owner for d in rolled],
        )
    ]
    return _settle(test, events, dice)


def _refuse_for_npc(setup: TestSetup, helpers: tuple[Help, ...]) -> None:
    if setup.extra_effort or setup.keep_it_safe or setup.burden or helpers:
        raise DeadWeightError(
            "extra effort, keeping it safe, burdens and help are for adventurers, not NPCs"
        )


def _announce(
    roller: Character, setup: TestSetup, helpers: tuple[Help, ...], options: Options
) -> tuple[Character, int, int, list[Event]]:
    """Check what the player announced, pay for it, and work out the pool (DW-M28)."""
    require_able(roller)
    attribute = setup.attribute
    state = roller.attribute(attribute)
    events: list[Event] = []
    if helpers and roller.has(Trauma.PARANOID):
        raise DeadWeightError(f"{roller.label} is paranoid and cannot be helped")
    if len(helpers) > setup.helpers_allowed:
        raise DeadWeightError(
            f"only {counted(setup.helpers_allowed, 'helper')} allowed on this test"
        )
    berserk = attribute == Attribute.STR and setup.in_combat and roller.has(Trait.BERSERKER)
    available = state.score if berserk else state.available
    if setup.extra_effort:
        _may_spend_fatigue(roller, attribute)
        if setup.keep_it_safe:
            raise DeadWeightError("no extra effort while keeping it safe")
    if setup.burden:
        roller, used = use_burden(roller, f"this {attribute} test")
        events += used
    pool = available
    if setup.extra_effort:
        roller, paid = receive_fatigue(roller, attribute)
        events += [event("extra effort", "extra effort: one fatigue paid before rolling"), *paid]
        after = (
            roller.attribute(attribute).score if berserk else roller.attribute(attribute).available
        )
        pool = (available if options.extra_effort_pool == "available_before_paying" else after) + 1
    if setup.keep_it_safe:
        pool -= 2
    proficiency = state.proficiency + sum(
        1
        for situation in setup.situations
        if any(roller.has(skill) for skill in SITUATION_PROFICIENCY.get(situation, ()))
    )
    if roller.has(Affliction.ANGRY) or setup.burden:
        proficiency = 0
    return roller, pool, proficiency, events


def require_able(character: Character) -> None:
    """A fainted, mortally wounded or dead character takes no action (§ Fainting)."""
    if not character.condition.can_act:
        raise DeadWeightError(f"{character.label} cannot act (fainted, mortally wounded or dead)")


def may_spend_fatigue(character: Character, attribute: Attribute) -> bool:
    """Whether extra effort can be made now (DW-A12)."""
    try:
        _may_spend_fatigue(character, attribute)
    except DeadWeightError:
        return False
    return True


def _may_spend_fatigue(character: Character, attribute: Attribute) -> None:
    """Extra effort is refused when Sleepy, or when its fatigue would become a wound (no
    available dice left, or Plagued): DW-A12."""
    if character.has(Affliction.SLEEPY):
        raise DeadWeightError(f"{character.label} is sleepy: no extra effort")
    if character.has(Affliction.PLAGUED):
        raise DeadWeightError(
            f"{character.label} is plagued: the fatigue of extra effort would be a wound"
        )
    if character.attribute(attribute).available == 0:
        raise DeadWeightError(
            f"{character.label} has no {attribute} dice left: "
            "the fatigue of extra effort would be a wound"
        )


def _pay_helpers(
    helpers: tuple[Help, ...], setup: TestSetup
) -> tuple[tuple[Help, ...], list[Event]]:
    paid: list[Help] = []
    events: list[Event] = []
    for help in helpers:
        helper = help.helper
        if not helper.condition.can_act:
            raise DeadWeightError(f"{helper.label} cannot act, so cannot help")
        if helper.has(Affliction.SLEEPY):
            raise DeadWeightError(f"{helper.label} is sleepy and cannot help")
        if help.extra_effort:
            _may_spend_fatigue(helper, setup.attribute)
            helper, more = receive_fatigue(helper, setup.attribute)
            events += more
        paid.append(Help(helper=helper, extra_effort=help.extra_effort))
    return tuple(paid), events


def _helper_proficiency(help: Help, attribute: Attribute) -> int:
    if help.helper.has(Affliction.ANGRY):
        return 0
    return help.helper.attribute(attribute).proficiency


def _net_rerolls(roller: Character | Npc, setup: TestSetup) -> tuple[int, int]:
    """Advantage and disadvantage cancel one for one (DW-A25)."""
    advantage = setup.advantage
    if isinstance(roller, Character):
        advantage += sum(
            1
            for situation in setup.situations
            if any(roller.has(thing) for thing in SITUATION_ADVANTAGE.get(situation, ()))
        )
    disadvantage = setup.disadvantage + int(setup.burden)
    net = advantage - disadvantage
    return max(net, 0), max(-net, 0)


def _dice_to_throw(
    pool: int, setup: TestSetup, options: Options
) -> tuple[Automatic | None, int, bool]:
    """(automatic failure, own dice thrown, whether only the lowest counts)."""
    if setup.dice == 0:
        return Automatic.DECLINED, 0, False
    if pool <= 0:
        if setup.dice is not None:
            raise DeadWeightError(
                f"a pool of {pool} rolls by the zero-dice rule; the only other choice is 0 dice"
            )
        if options.gm_auto_fail_at_minus_two and pool <= -2:
            return Automatic.GM_AUTO_FAIL, 0, False
        thrown = 2 - pool
        if thrown > MAX_POOL:
            raise LimitError(f"a pool of {pool} would throw {thrown} dice (at most {MAX_POOL})")
        return None, thrown, True
    if setup.dice is not None and setup.dice > pool:
        raise DeadWeightError(f"the pool is {pool} dice; you may roll fewer, not {setup.dice}")
    thrown = pool if setup.dice is None else setup.dice
    if thrown > MAX_POOL:
        raise LimitError(f"a test throws at most {MAX_POOL} dice, not {thrown}")
    return None, thrown, False


def _announcement(test: AttributeTest) -> str:
    kind = "check" if test.setup.check else "test"
    who = test.roller.label
    dice = "die" if test.pool == 1 else "dice"
    pool = f"{test.pool} {dice}" + (" (zero-dice rule)" if test.take_lowest else "")
    extras = [
        f"{count} {name}"
        for count, name in (
            (test.budgets.proficiency, "proficiency"),
            (test.budgets.advantage, "advantage"),
            (test.budgets.disadvantage, "disadvantage"),
        )
        if count
    ]
    tail = f"; {', '.join(extras)}" if extras else ""
    return f"{who}: {test.setup.attribute} {kind}, {pool}{tail}"


def _faces_text(test: AttributeTest) -> str:
    own = ", ".join(str(f) for f in test.faces(0))
    parts = [f"[{own}]" + (" lowest counts" if test.take_lowest else "")]
    for owner, help in enumerate(test.helpers, start=1):
        parts.append(f"{help.helper.label}: [{', '.join(str(f) for f in test.faces(owner))}]")
    return " + ".join(parts)


# the exchange ------------------------------------------------------------------------


def _reroll(
    test: AttributeTest, choice: Reroll, dice: DiceSource
) -> tuple[AttributeTest, list[Event]]:
    die = test.dice[choice.die]
    new = dice.roll(6)
    updated = die.model_copy(
        update={"faces": (*die.faces, new), "rerolls": (*die.rerolls, choice.resource)}
    )
    budgets = test.budgets
    if choice.resource == Resource.PROFICIENCY:
        budgets = budgets.model_copy(update={"proficiency": budgets.proficiency - 1})
    elif choice.resource == Resource.ADVANTAGE:
        budgets = budgets.model_copy(update={"advantage": budgets.advantage - 1})
    elif choice.resource == Resource.DISADVANTAGE:
        budgets = budgets.model_copy(update={"disadvantage": budgets.disadvantage - 1})
    else:
        helpers = list(budgets.helpers)
        helpers[choice.helper - 1] -= 1
        budgets = budgets.model_copy(update={"helpers": tuple(helpers)})
    dice_now = list(test.dice)
    dice_now[choice.die] = updated
    moved = test.model_copy(
        update={"dice": tuple(dice_now), "budgets": budgets, "passes": 0, "turn": test.turn.other}
    )
    text = f"{test.turn} re-rolls die {choice.die + 1} ({die.face} → {new}) with {choice.resource}"
    return moved, [
        event(
            "reroll",
            text,
            side=test.turn,
            resource=choice.resource,
            die=choice.die,
            old=die.face,
            new=new,
        )
    ]


def _settle(
    test: AttributeTest, events: list[Event], dice: DiceSource
) -> tuple[AttributeTest, list[Event]]:
    """Pass for any side with nothing to re-roll; judge once both have passed in a row."""
    while test.phase == "rerolling" and test.passes < 2 and not test.rerolls(test.turn):
        events.append(
            event("pass", f"{test.turn} has nothing to re-roll", side=test.turn, forced=True)
        )
        test = test.model_copy(update={"passes": test.passes + 1, "turn": test.turn.other})
    if test.phase == "rerolling" and test.passes >= 2:
        verdict = test.judged()
        if test.dauntless and verdict.outcome.succeeded:
            events.append(event("dauntless", "a success: the Dauntless dice may be added"))
            return test.model_copy(update={"phase": "dauntless"}), events
        return _finish(test, events)
    return test, events


def _dauntless(
    test: AttributeTest, rolls: bool, dice: DiceSource
) -> tuple[AttributeTest, list[Event]]:
    if not rolls:
        return _finish(test, [event("dauntless", "the Dauntless dice are not added")])
    faces = (dice.roll(6), dice.roll(6))
    added = test.model_copy(update={"dauntless_faces": faces})
    return _finish(
        added, [event("dauntless", f"Dauntless dice added: {list(faces)}", faces=list(faces))]
    )


def bad_omens(character: Character, outcome: Outcome) -> list[Event]:
    """A critical failure of a character with Bad omens advances the omens tracker (DW-M52)."""
    if outcome == Outcome.CRITICAL_FAILURE and character.has(Trait.BAD_OMENS):
        return [event("omens", "bad omens: advance the omens tracker", tracker="omens")]
    return []


def _finish(test: AttributeTest, events: list[Event]) -> tuple[AttributeTest, list[Event]]:
    """Judge the faces, then put the fatigue on the roller and on each helper."""
    verdict = test.judged()
    events.append(
        event(
            "test judged",
            f"{verdict.outcome}" + (", fatigue" if verdict.fatigue else ""),
            **verdict.to_json(),
            faces=list(test.faces()),
        )
    )
    roller = test.roller
    if isinstance(roller, Character):
        if verdict.fatigue:
            roller, more = receive_fatigue(roller, test.setup.attribute)
            events += more
        events += bad_omens(roller, verdict.outcome)
    helpers = []
    for help, tired in zip(test.helpers, verdict.helper_fatigue, strict=True):
        helper = help.helper
        if tired:
            helper, more = receive_fatigue(helper, test.setup.attribute)
            events += more
        helpers.append(help.model_copy(update={"helper": helper}))
    finished = test.model_copy(
        update={
            "phase": "finished",
            "roller": roller,
            "helpers": tuple(helpers),
            "verdict": verdict.outcome,
            "fatigue": verdict.fatigue,
            "helper_fatigue": verdict.helper_fatigue,
        }
    )
    return finished, events
