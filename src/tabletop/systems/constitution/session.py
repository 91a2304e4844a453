"""3d6 Constitution at a shared table: characters, checks with degrees, harm and rest, XP,
the initiative tracker of article 5, and the party's days on the road (articles 13 and 15)
as intents, events and views.

The fight is the combat machine itself: each combatant belongs to a member (the GM's unless
the GM gives it to a player), and that member, or the GM, makes its choices. The articles
hide little from the players; checks may be rolled in any roll mode. What the referee keeps
to themselves is the time of day and the encounter checks (§ 13.3, § 13.5; C3-A61).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from tabletop.dice import DiceSource
from tabletop.errors import PermissionDenied
from tabletop.session import (
    MAX_NAME,
    Choice,
    Event,
    Frozen,
    Member,
    Offer,
    RollMode,
    Session,
    Visibility,
    closed_offer,
    controls,
    hidden,
    in_mode,
    note,
    offer,
    owner_for,
)
from tabletop.systems.constitution.character import (
    ABILITIES,
    Character,
    award_xp,
    character_check,
)
from tabletop.systems.constitution.combat import (
    Action,
    Add,
    AnswerDirectHit,
    AnswerShield,
    Combat,
    Combatant,
    EndTurn,
    ExtraAction,
    apply,
    legal_actions,
)
from tabletop.systems.constitution.creation import new_character
from tabletop.systems.constitution.errors import ConstitutionError
from tabletop.systems.constitution.expedition import (
    MAX_RATIONS,
    Clock,
    Pace,
    Supplies,
    end_of_day,
    march_speed,
)
from tabletop.systems.constitution.health import good_night, short_rest, take_damage
from tabletop.systems.constitution.initiations import catalogue
from tabletop.systems.constitution.models import Event as RulesEvent
from tabletop.systems.constitution.models import build
from tabletop.systems.constitution.options import DEFAULT, Options
from tabletop.systems.constitution.survival import Deprivation, Sleep, effects, total_penalty
from tabletop.systems.constitution.travel import (
    LIGHT_TURNS,
    MAX_TURNS,
    MILES_PER_DAY,
    Leg,
    Method,
    Season,
    Terrain,
    Weather,
    dungeon_encounter,
    hunt,
    walk_day,
)

MAX_CHARACTERS = 100

GM_ACTIONS = ("begin", "next_round", "force_bout", "end_combat", "add")
"""Choices that move the whole fight along, or bring someone into it: the GM's."""


class Seat(Frozen):
    """A character at the table and the member who plays them."""

    owner: str
    sheet: Character
    supplies: Supplies = Supplies()
    deprivation: Deprivation = Deprivation()
    """Hunger, thirst and sleeplessness: penalties on every check the character makes."""

    def penalty(self, options: Options) -> int:
        """The deprivation penalty on all this character's checks (§ 15.2–15.6; C3-A51)."""
        return total_penalty(self.deprivation, self.sheet.abilities.strength, options)


class ConstitutionTable(Frozen):
    options: Options = DEFAULT
    characters: dict[str, Seat] = Field(default_factory=dict)
    fight: Combat = Combat()
    """The initiative tracker; a fight with nobody in it is waiting to be set up."""
    controllers: dict[str, str] = Field(default_factory=dict)
    """Which member plays each combatant (by combatant id); the rest are the GM's."""
    next_id: int = Field(default=1, ge=1)
    clock: Clock = Clock()
    """The party's days, turns and lights: the referee's clock (§ 13.3)."""


# intents ----------------------------------------------------------------------------------

Id = str


class NewCharacter(Frozen):
    """A level-1 character: 3d6 in order for each ability, then hit points (§ 4)."""

    kind: Literal["new-character"] = "new-character"
    name: str = Field(default="Nameless", min_length=1, max_length=MAX_NAME)
    character_class: Literal["fighter", "sage", "adventurer"] | None = None
    initiation: str | None = Field(default=None, max_length=60)
    owner: str | None = None


class ImportCharacter(Frozen):
    kind: Literal["import-character"] = "import-character"
    sheet: dict[str, Any]
    owner: str | None = None


class CheckIntent(Frozen):
    """A check of an ability (skill-scaled if named) with every bonus that applies (§ 3)."""

    kind: Literal["check"] = "check"
    character: Id
    ability: Literal["strength", "wits", "knowledge", "will", "charisma"]
    dc: int = Field(default=20, ge=-1000, le=1000)
    skill: str | None = Field(default=None, max_length=60)
    modifier: int = Field(default=0, ge=-1000, le=1000)
    advantage: int = Field(default=0, ge=0, le=20)
    disadvantage: int = Field(default=0, ge=0, le=20)
    mode: RollMode = RollMode.PUBLIC


class Damage(Frozen):
    """Damage off HP; past 0 the overflow raises the injury DC (§ 5.18, § 6.6)."""

    kind: Literal["damage"] = "damage"
    character: Id
    amount: int = Field(ge=0, le=10_000)


class Rest(Frozen):
    """A short rest (HP re-rolled, a point of fatigue) or a good night's sleep (§ 6.4–6.5)."""

    kind: Literal["rest"] = "rest"
    character: Id
    night: bool = False


class AwardXp(Frozen):
    kind: Literal["award-xp"] = "award-xp"
    character: Id
    amount: int = Field(ge=0, le=10_000_000)
    reason: str = Field(default="the session", max_length=MAX_NAME)


class JoinFight(Frozen):
    """A seated character steps into the fight being set up, played by their owner."""

    kind: Literal["join-fight"] = "join-fight"
    character: Id
    side: str = Field(default="party", min_length=1, max_length=30)
    ac: int = Field(default=20, ge=0, le=60)


class CombatIntent(Frozen):
    """One choice of the initiative tracker; `controller` gives a combatant brought in with
    `add` to a player."""

    kind: Literal["combat"] = "combat"
    action: Action
    controller: str | None = None


class March(Frozen):
    """The party's day on the road (§ 13.4–13.5): as far as terrain, weather and pace allow,
    or `miles` if the goal is nearer; the referee's encounter checks on the way."""

    kind: Literal["march"] = "march"
    terrain: Terrain = "road"
    weather: Weather = "fair"
    pace: Pace = "unencumbered"
    """The slowest traveller's encumbrance (§ 14.13)."""
    miles: int | None = Field(default=None, ge=1, le=1_000)
    """Where the day's goal is nearer than a full day's march."""
    trapping: bool = False
    """A patient trapper sets traps on the way: −25% (§ 10.2)."""


class HuntIntent(Frozen):
    """A character hunts or forages before the day's march (§ 13.6–13.9): rations on a
    success, part of the day's march lost."""

    kind: Literal["hunt"] = "hunt"
    character: Id
    method: Method = "ranged"
    terrain: Terrain = "plains"
    season: Season = "summer"
    skill: str = Field(default="hunting", min_length=1, max_length=60)
    rating: int | None = Field(default=None, ge=0, le=100)
    """The skill's rating, when the group sets it the first time it is used (§ 4.11)."""
    mode: RollMode = RollMode.PUBLIC


class Rations(Frozen):
    """Rations of food and water a character takes on or hands over (§ 15.1)."""

    kind: Literal["rations"] = "rations"
    character: Id
    food: int = Field(default=0, ge=-MAX_RATIONS, le=MAX_RATIONS)
    water: int = Field(default=0, ge=-MAX_RATIONS, le=MAX_RATIONS)


class Camp(Frozen):
    """The day ends for the whole party: supper from their rations, the night's sleep, a
    fresh hit-point roll after a good one (§ 6.5, § 15; C3-A58…A60)."""

    kind: Literal["camp"] = "camp"
    sleep: Sleep = "well"
    water_found: bool = True
    """Water came to hand today, so no carried ration is drunk (§ 13.10)."""


class Explore(Frozen):
    """Exploration turns pass (§ 13.1–13.2): lights burn down; the referee's encounter
    checks, 1 in 6 each turn or each hour, if the place calls for them (§ 13.5)."""

    kind: Literal["explore"] = "explore"
    turns: int = Field(default=1, ge=1, le=MAX_TURNS)
    encounters: Literal["none", "each_turn", "each_hour"] = "none"


class LightIntent(Frozen):
    """A character lights a torch, a candle or a lantern (§ 13.2)."""

    kind: Literal["light"] = "light"
    character: Id
    light: Literal["torch", "candle", "lantern"] = "torch"


TURNS_PER_HOUR = 6
"""Exploration turns in an hour (§ 13.1), for dungeon encounter checks once an hour."""


class ConstitutionSession(Session[ConstitutionTable]):
    name = "constitution"
    state = ConstitutionTable
    error = ConstitutionError
    intents = (
        NewCharacter,
        ImportCharacter,
        CheckIntent,
        Damage,
        Rest,
        AwardXp,
        JoinFight,
        CombatIntent,
        March,
        HuntIntent,
        Rations,
        Camp,
        Explore,
        LightIntent,
    )

    # offers -------------------------------------------------------------------------------

    def offers(self, state: ConstitutionTable, member: Member) -> list[Offer]:
        found: list[Offer] = []
        if len(state.characters) < MAX_CHARACTERS:
            found += [
                offer(
                    "new-character",
                    "roll up a character",
                    name=Choice(help="the character's name", example="Ada"),
                    character_class=Choice(values=(None, "fighter", "sage", "adventurer")),
                ),
                offer("import-character", "bring a saved sheet", sheet=Choice(help="the sheet")),
            ]
        mine = tuple(c for c, seat in state.characters.items() if controls(member, seat.owner))
        if mine:
            found += [
                offer(
                    "check",
                    "check an ability",
                    character=Choice(values=mine),
                    ability=Choice(values=ABILITIES),
                    dc=Choice(help="the DC; 20 is normal", example=20),
                    mode=Choice(values=tuple(RollMode)),
                ),
                offer(
                    "rest",
                    "rest",
                    character=Choice(values=mine),
                    night=Choice(values=(False, True)),
                ),
            ]
        found += self._road_offers(state, member, mine)
        if mine and state.fight.phase in ("setup", "between_rounds"):
            found.append(
                offer(
                    "join-fight",
                    "step into the fight",
                    character=Choice(values=mine),
                    side=Choice(values=("party", "foes")),
                )
            )
        if member.is_gm and state.characters:
            everyone = tuple(state.characters)
            found += [
                offer(
                    "damage",
                    "harm a character",
                    character=Choice(values=everyone),
                    amount=Choice(help="damage", example=4),
                ),
                offer(
                    "award-xp",
                    "award XP",
                    character=Choice(values=everyone),
                    amount=Choice(help="XP", example=100),
                ),
            ]
        return found + self._fight_offers(state, member)

    def _road_offers(
        self, state: ConstitutionTable, member: Member, mine: tuple[str, ...]
    ) -> list[Offer]:
        """The day on the road: the characters' own (hunting, rations, lights) and the
        referee's (the march, the camp, time passing)."""
        clock = state.clock
        living = tuple(c for c in mine if not state.characters[c].sheet.dead)
        hunters = tuple(c for c in living if c not in clock.hunted)
        found = []
        if hunters and not clock.marched:
            found.append(
                offer(
                    "hunt",
                    "hunt or forage before the march",
                    character=Choice(values=hunters),
                    method=Choice(values=("ranged", "traps", "forage")),
                    terrain=Choice(values=tuple(MILES_PER_DAY)),
                    season=Choice(values=("spring", "summer", "autumn", "winter")),
                    rating=Choice(help="the skill's rating, set the first time it is used"),
                    mode=Choice(values=tuple(RollMode)),
                )
            )
        if living:
            found += [
                offer(
                    "rations",
                    "take on or hand over rations",
                    character=Choice(values=living),
                    food=Choice(help="rations of food, + taken on, − handed over", example=3),
                    water=Choice(help="rations of water, + taken on, − handed over", example=2),
                ),
                offer(
                    "light",
                    "light a torch, candle or lantern",
                    character=Choice(values=living),
                    light=Choice(values=tuple(LIGHT_TURNS)),
                ),
            ]
        if not member.is_gm:
            return found
        if not clock.marched and clock.day_lost < 1:
            found.append(
                offer(
                    "march",
                    "march for the day",
                    terrain=Choice(values=tuple(MILES_PER_DAY)),
                    weather=Choice(values=("fair", "rain", "snow", "wind", "storm")),
                    pace=Choice(values=("unencumbered", "encumbered", "heavily_encumbered")),
                    miles=Choice(help="stop sooner: the goal's distance in miles", example=None),
                )
            )
        if any(not seat.sheet.dead for seat in state.characters.values()):
            found.append(
                offer(
                    "camp",
                    "make camp: supper, the night, the morning's HP",
                    sleep=Choice(values=("well", "badly", "none")),
                    water_found=Choice(values=(True, False)),
                )
            )
        found.append(
            offer(
                "explore",
                "let exploration turns pass",
                turns=Choice(help="ten-minute turns", example=3),
                encounters=Choice(values=("none", "each_turn", "each_hour")),
            )
        )
        return found

    def _fight_offers(self, state: ConstitutionTable, member: Member) -> list[Offer]:
        if state.fight.phase == "over":
            return []
        legal = [
            a for a in legal_actions(state.fight, state.options) if self._may(state, member, a)
        ]
        wrapped = [CombatIntent(action=a) for a in legal]
        found = [o for o in [closed_offer("combat", "a choice of the fight", wrapped)] if o]
        if member.is_gm or any(
            controller == member.id and state.fight.get(cid).fighting
            for cid, controller in state.controllers.items()
        ):
            found.append(
                offer(
                    "combat",
                    "a choice of the fight with its details (an attack's modifiers, a cost)",
                    action=Choice(help="the action", example={"action": "begin"}),
                )
            )
        return found

    def why_not(self, state: ConstitutionTable, intent: Any, member: Member) -> str:
        clock = state.clock
        kind = intent["kind"]
        if kind == "march" and clock.marched:
            return "the party has marched today: make camp first"
        if kind == "march" and clock.day_lost >= 1:
            return "hunting has taken the whole day: make camp"
        if kind == "hunt" and clock.marched:
            return "the party has marched today: hunt tomorrow, before the march"
        if kind == "hunt":
            return "that character has hunted today already, or is not yours"
        return f"no {kind} is open now"

    def _may(self, state: ConstitutionTable, member: Member, action: Any) -> bool:
        """Whether `member` makes this choice: the GM any, a player those of their own."""
        if member.is_gm:
            return True
        actor = _actor(state.fight, action)
        return actor is not None and state.controllers.get(actor) == member.id

    # the rules ----------------------------------------------------------------------------

    def apply(
        self, state: ConstitutionTable, intent: Any, member: Member, dice: DiceSource
    ) -> tuple[ConstitutionTable, list[Event]]:
        options = state.options
        if isinstance(intent, NewCharacter | ImportCharacter):
            return self._seat(state, intent, member, dice)
        if isinstance(intent, CombatIntent):
            return self._combat(state, intent, member, dice)
        if isinstance(intent, JoinFight):
            return self._join(state, intent, member, dice)
        if isinstance(intent, March):
            return _march(state, intent, dice)
        if isinstance(intent, Camp):
            return _camp(state, intent, dice)
        if isinstance(intent, Explore):
            return _explore(state, intent, dice)
        seat = state.characters.get(intent.character)
        if seat is None:
            raise ConstitutionError(f"no character {intent.character!r} at this table")
        sheet = seat.sheet
        if isinstance(intent, HuntIntent | Rations | LightIntent):
            return _on_the_road(state, intent, member, dice)
        if isinstance(intent, CheckIntent):
            result = character_check(
                sheet,
                intent.ability,
                intent.dc,
                dice,
                skill=intent.skill,
                modifier=intent.modifier + seat.penalty(options),
                advantage=intent.advantage,
                disadvantage=intent.disadvantage,
                options=options,
            )
            text = f"{sheet.name} checks {intent.ability}: {result.describe()}"
            told = note("check", text, **result.model_dump(mode="json"), success=result.success)
            return state, [in_mode(told, intent.mode, member.name or member.id)]
        if isinstance(intent, Damage):
            sheet, _, events = take_damage(sheet, intent.amount, dice, options=options)
        elif isinstance(intent, Rest):
            if intent.night:
                sheet, events = good_night(sheet, dice)
            else:
                sheet, events = short_rest(sheet, dice, options=options)
        else:
            sheet, events = award_xp(sheet, intent.amount, intent.reason, options)
        seats = {**state.characters, intent.character: seat.model_copy(update={"sheet": sheet})}
        return state.model_copy(update={"characters": seats}), _told(events)

    def _seat(
        self,
        state: ConstitutionTable,
        intent: NewCharacter | ImportCharacter,
        member: Member,
        dice: DiceSource,
    ) -> tuple[ConstitutionTable, list[Event]]:
        owner = owner_for(intent.owner, member)
        if isinstance(intent, ImportCharacter):
            sheet, events = build(Character, intent.sheet), []
        else:
            if intent.initiation is not None and intent.initiation not in catalogue():
                known = ", ".join(sorted(catalogue()))
                raise ConstitutionError(f"unknown initiation {intent.initiation!r}; known: {known}")
            sheet, events = new_character(
                intent.name, dice, intent.character_class, intent.initiation
            )
        cid = f"c{state.next_id}"
        seats = {**state.characters, cid: Seat(owner=owner, sheet=sheet)}
        joined = note("character", f"{sheet.name} joins the table", character=cid, owner=owner)
        after = state.model_copy(update={"characters": seats, "next_id": state.next_id + 1})
        return after, [*_told(events), joined]

    def _combat(
        self, state: ConstitutionTable, intent: CombatIntent, member: Member, dice: DiceSource
    ) -> tuple[ConstitutionTable, list[Event]]:
        action = intent.action
        if not self._may(state, member, action):
            raise PermissionDenied(f"{action.action}: not {member.name or member.id}'s choice")
        if intent.controller is not None and not isinstance(action, Add):
            raise ConstitutionError("only a combatant being added is given to a player")
        fight, events = apply(state.fight, action, dice, state.options)
        controllers = dict(state.controllers)
        if isinstance(action, Add) and intent.controller is not None:
            controllers[action.combatant.id] = intent.controller
        after = state.model_copy(update={"fight": fight, "controllers": controllers})
        return after, _told(events)

    def _join(
        self, state: ConstitutionTable, intent: JoinFight, member: Member, dice: DiceSource
    ) -> tuple[ConstitutionTable, list[Event]]:
        seat = state.characters.get(intent.character)
        if seat is None:
            raise ConstitutionError(f"no character {intent.character!r} at this table")
        if not controls(member, seat.owner):
            raise PermissionDenied(f"{seat.sheet.name} is not {member.name or member.id}'s")
        fighter = Combatant.of(seat.sheet, side=intent.side, ac=intent.ac)
        fight, events = apply(state.fight, Add(combatant=fighter), dice, state.options)
        controllers = {**state.controllers, fighter.id: seat.owner}
        after = state.model_copy(update={"fight": fight, "controllers": controllers})
        return after, _told(events)

    # views --------------------------------------------------------------------------------

    def view(self, state: ConstitutionTable, member: Member) -> dict[str, Any]:
        return {
            "system": self.name,
            "options": state.options.model_dump(mode="json"),
            "characters": [
                {
                    "id": cid,
                    "owner": seat.owner,
                    "sheet": seat.sheet.model_dump(mode="json"),
                    "supplies": seat.supplies.model_dump(mode="json"),
                    "deprivation": seat.deprivation.model_dump(mode="json"),
                    "penalty": seat.penalty(state.options),
                }
                for cid, seat in state.characters.items()
            ],
            "fight": state.fight.model_dump(mode="json"),
            "controllers": state.controllers,
            "clock": _clock_view(state.clock, member),
        }


# the day on the road ------------------------------------------------------------------------

ENCOUNTER_HINT = "the GM rolls for encounters"
FURTHER_THAN_A_DAY = 1_000
"""Miles of a march with no nearer goal: more than any day covers (24 at best, § 13.4)."""
TIME_HINT = "time passes"


def _march(
    state: ConstitutionTable, intent: March, dice: DiceSource
) -> tuple[ConstitutionTable, list[Event]]:
    """The party's day's march, and the referee's encounter checks kept from the players
    (§ 13.5; C3-A61)."""
    clock = state.clock
    if clock.marched:
        raise ConstitutionError("the party has marched today: make camp first")
    if clock.day_lost >= 1:
        raise ConstitutionError("hunting has taken the whole day: make camp")
    travellers = [seat for seat in state.characters.values() if not seat.sheet.dead]
    deprived = any(
        effects(seat.deprivation, seat.sheet.abilities.strength, state.options)["half_speed"]
        for seat in travellers
    )
    speed = march_speed(
        intent.pace, deprived=deprived, trapping=intent.trapping, day_lost=clock.day_lost
    )
    leg = Leg(terrain=intent.terrain, miles=intent.miles or FURTHER_THAN_A_DAY)
    day, _ = walk_day(clock.day, [leg], intent.weather, dice, speed=speed)
    walked = day.miles
    shown = f"{float(walked):.3g}"
    marched = note(
        "march",
        f"day {clock.day}: the party marches {shown} miles over {intent.terrain} "
        f"({intent.weather}, {intent.pace.replace('_', ' ')})",
        day=clock.day,
        miles=str(walked),
        terrain=intent.terrain,
        weather=intent.weather,
        speed=str(speed),
        encounter_checks=day.encounter_checks,
    )
    found = "no encounter" if not day.encounters else f"{day.encounters} encounter(s)"
    checks = note(
        "encounter-check",
        f"encounter checks on day {clock.day}: {found} in {day.encounter_checks} (1 in 3 each)",
        encounters=day.encounters,
        dice=[record.model_dump(mode="json") for record in day.dice],
    ).model_copy(update={"visibility": Visibility.HIDDEN, "hint": ENCOUNTER_HINT})
    after = clock.evolve(marched=True, miles=clock.miles + walked)
    return state.model_copy(update={"clock": after}), [marched, checks]


def _camp(
    state: ConstitutionTable, intent: Camp, dice: DiceSource
) -> tuple[ConstitutionTable, list[Event]]:
    """The day's end for every living character in turn, then a new day on the clock."""
    clock = state.clock
    seats = dict(state.characters)
    events = [note("camp", f"day {clock.day} ends: the party makes camp", day=clock.day)]
    for cid, seat in state.characters.items():
        if seat.sheet.dead:
            continue
        sheet, deprivation, supplies, told = end_of_day(
            seat.sheet,
            seat.deprivation,
            seat.supplies,
            dice,
            marched=clock.marched,
            water_found=intent.water_found,
            sleep=intent.sleep,
            options=state.options,
        )
        seats[cid] = seat.model_copy(
            update={"sheet": sheet, "deprivation": deprivation, "supplies": supplies}
        )
        events += _told(told)
    if len(events) == 1:
        raise ConstitutionError("nobody alive to make camp")
    morning = Clock(day=clock.day + 1, turns=clock.turns.evolve(turns=0), miles=clock.miles)
    after = state.model_copy(update={"characters": seats, "clock": morning})
    return after, events


def _explore(
    state: ConstitutionTable, intent: Explore, dice: DiceSource
) -> tuple[ConstitutionTable, list[Event]]:
    """Turns pass on the referee's clock, which the players do not see (§ 13.3), while
    lights going out are plain to all; dungeon encounter checks stay with the referee."""
    before = state.clock.turns
    turns, out = before.advance(intent.turns)
    passed = note(
        "explore",
        f"{intent.turns} exploration turn(s) pass: {turns.minutes} minutes today",
        turns=intent.turns,
        today=turns.turns,
    ).model_copy(update={"visibility": Visibility.HIDDEN, "hint": TIME_HINT})
    events = [passed, *_told(out)]
    if intent.encounters == "each_turn":
        checks = intent.turns
    elif intent.encounters == "each_hour":
        checks = turns.turns // TURNS_PER_HOUR - before.turns // TURNS_PER_HOUR
    else:
        checks = 0
    rolled = [dungeon_encounter(dice) for _ in range(checks)]
    if rolled:
        met = sum(1 for hit, _ in rolled if hit)
        found = "no encounter" if not met else f"{met} encounter(s)"
        events.append(
            note(
                "encounter-check",
                f"dungeon encounter checks: {found} in {checks} (1 in 6 each)",
                encounters=met,
                dice=[record.model_dump(mode="json") for _, record in rolled],
            ).model_copy(update={"visibility": Visibility.HIDDEN, "hint": ENCOUNTER_HINT})
        )
    after = state.clock.evolve(turns=turns)
    return state.model_copy(update={"clock": after}), events


def _on_the_road(
    state: ConstitutionTable,
    intent: HuntIntent | Rations | LightIntent,
    member: Member,
    dice: DiceSource,
) -> tuple[ConstitutionTable, list[Event]]:
    """A character's own part of the day: a hunt, rations taken on or handed over, a light."""
    seat = state.characters[intent.character]
    if seat.sheet.dead:
        raise ConstitutionError(f"{seat.sheet.name} is dead")
    clock = state.clock
    if isinstance(intent, LightIntent):
        lit = clock.evolve(turns=clock.turns.light(intent.light))
        told = note(
            "light",
            f"{seat.sheet.name} lights a {intent.light} ({LIGHT_TURNS[intent.light]} turns)",
            light=intent.light,
        )
        return state.model_copy(update={"clock": lit}), [told]
    if isinstance(intent, Rations):
        return _rations(state, intent)
    return _hunt(state, intent, member, dice)


def _rations(state: ConstitutionTable, intent: Rations) -> tuple[ConstitutionTable, list[Event]]:
    seat = state.characters[intent.character]
    food, water = seat.supplies.food + intent.food, seat.supplies.water + intent.water
    if food < 0 or water < 0:
        raise ConstitutionError(
            f"{seat.sheet.name} carries {seat.supplies.food} food and {seat.supplies.water} "
            "water rations: not that many to hand over"
        )
    supplies = seat.supplies.evolve(food=food, water=water)
    seats = {**state.characters, intent.character: seat.model_copy(update={"supplies": supplies})}
    told = note(
        "rations",
        f"{seat.sheet.name} now carries {food} food and {water} water rations",
        character=intent.character,
        food=food,
        water=water,
    )
    return state.model_copy(update={"characters": seats}), [told]


def _hunt(
    state: ConstitutionTable, intent: HuntIntent, member: Member, dice: DiceSource
) -> tuple[ConstitutionTable, list[Event]]:
    """A hunt before the march: rations to the hunter, the worst loss of the day kept."""
    clock = state.clock
    seat = state.characters[intent.character]
    if clock.marched:
        raise ConstitutionError("the party has marched today: hunt tomorrow, before the march")
    if intent.character in clock.hunted:
        raise ConstitutionError(f"{seat.sheet.name} has hunted today already")
    sheet = seat.sheet
    if intent.rating is not None:
        if intent.skill in sheet.skills:
            raise ConstitutionError(
                f"{sheet.name} already has {intent.skill} {sheet.skills[intent.skill]}%"
            )
        sheet = sheet.evolve(skills={**sheet.skills, intent.skill: intent.rating})
    got = hunt(
        sheet,
        intent.terrain,
        intent.season,
        intent.method,
        dice,
        skill=intent.skill,
        modifier=seat.penalty(state.options),
        options=state.options,
    )
    supplies = seat.supplies.evolve(food=min(MAX_RATIONS, seat.supplies.food + got.rations))
    lost = f"{float(got.distance_lost):.0%} of the day's march"
    text = (
        f"{sheet.name} {'forages' if intent.method == 'forage' else 'hunts'} "
        f"({intent.method}): {got.check.describe()}; {got.rations} ration(s), {lost}"
    )
    told = note(
        "hunt",
        text,
        character=intent.character,
        rations=got.rations,
        distance_lost=str(got.distance_lost),
        success=got.check.success,
        check=got.check.model_dump(mode="json"),
        dice=[record.model_dump(mode="json") for record in got.dice],
    )
    day = clock.evolve(
        day_lost=max(clock.day_lost, got.distance_lost),
        hunted=(*clock.hunted, intent.character),
    )
    seated = seat.model_copy(update={"sheet": sheet, "supplies": supplies})
    seats = {**state.characters, intent.character: seated}
    after = state.model_copy(update={"characters": seats, "clock": day})
    return after, [in_mode(told, intent.mode, member.name or member.id)]


# helpers ----------------------------------------------------------------------------------


def _actor(fight: Combat, action: Any) -> str | None:
    """The combatant whose choice `action` is; None for the GM's own (the fight's pace)."""
    if action.action in GM_ACTIONS:
        return None
    if isinstance(action, EndTurn | ExtraAction):
        return fight.acting
    if isinstance(action, AnswerDirectHit):
        return fight.pending_direct_hit.target if fight.pending_direct_hit else None
    if isinstance(action, AnswerShield):
        return fight.pending_shield.target if fight.pending_shield else None
    for field in ("id", "attacker", "shooter", "commander"):
        if hasattr(action, field):
            return str(getattr(action, field))
    return None


def _clock_view(clock: Clock, member: Member) -> dict[str, Any]:
    """The clock as `member` sees it: the time of day is the referee's (§ 13.3; C3-A61)."""
    shown = clock.model_dump(mode="json")
    shown["miles"] = float(clock.miles)
    shown["day_lost"] = float(clock.day_lost)
    if not member.is_gm:
        shown["turns"] = {**shown["turns"], "turns": hidden("the time of day")}
    return shown


def _told(events: list[RulesEvent]) -> list[Event]:
    """The rules' events in the protocol's shape (nothing in the articles is secret)."""
    return [
        Event(
            type=e.kind,
            text=e.message,
            data={"dice": [d.model_dump(mode="json") for d in e.dice]},
        )
        for e in events
    ]


SESSION = ConstitutionSession()
