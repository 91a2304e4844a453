"""Exploration and travel (article 13): the ten-minute turn and its lights, overland travel by
terrain and weather, encounter checks, hunting and foraging.

Distances are exact fractions of miles (C3-A32); nothing is rounded until it is shown.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Literal

from pydantic import Field

from tabletop.dice import DiceSource, roll
from tabletop.systems.constitution.character import Character, character_check
from tabletop.systems.constitution.check import Check
from tabletop.systems.constitution.errors import ConstitutionError
from tabletop.systems.constitution.models import DiceRecord, Event, Model
from tabletop.systems.constitution.options import DEFAULT, Options

TURN_MINUTES = 10
"""One exploration turn (§ 13.1)."""

LIGHT_TURNS: dict[str, int] = {"torch": 6, "candle": 18, "lantern": 24}
"""Turns a light burns: a torch, a small candle, a lantern on a small flask of oil (§ 13.2)."""

Terrain = Literal[
    "road", "plains", "trail", "desert", "hills", "forest", "jungle", "mountains", "swamp"
]
MILES_PER_DAY: dict[str, int] = {
    "road": 24,
    "plains": 18,
    "trail": 18,
    "desert": 12,
    "hills": 12,
    "forest": 12,
    "jungle": 8,
    "mountains": 8,
    "swamp": 8,
}
"""An unencumbered traveller's day (§ 13.4a)."""

Weather = Literal["fair", "rain", "snow", "wind", "storm"]
WEATHER_SPEED: dict[str, Fraction] = {
    "fair": Fraction(1),
    "rain": Fraction(1, 2),
    "snow": Fraction(1, 2),
    "wind": Fraction(1, 2),
    "storm": Fraction(1, 3),
}
"""How weather cuts the day's distance (§ 13.4b)."""

OVERLAND_ENCOUNTER = Fraction(1, 3)
DUNGEON_ENCOUNTER = Fraction(1, 6)
MILES_PER_ENCOUNTER_CHECK = 6
"""Overland: one check a day plus one per 6 miles; dungeons: 1 in 6 an hour or a turn (§ 13.5)."""

MAX_TRAVEL_DAYS = 3650
"""Days one route may take before it is refused: a documented bound."""

MAX_TURNS = 100_000
"""Turns one clock may be advanced by at once."""


# -- The exploration turn (§ 13.1–13.3) ----------------------------------------------------------


class Light(Model):
    kind: Literal["torch", "candle", "lantern"]
    turns_left: int = Field(ge=0)
    by: str = ""
    """Who lit it: their name, or at a table their character's id (`advance` names them)."""


class TurnClock(Model):
    """The referee's clock of exploration turns and the lights burning (§ 13.1–13.3)."""

    turns: int = Field(default=0, ge=0)
    lights: tuple[Light, ...] = ()

    @property
    def minutes(self) -> int:
        return self.turns * TURN_MINUTES

    def light(self, kind: Literal["torch", "candle", "lantern"], by: str = "") -> TurnClock:
        lit = Light(kind=kind, turns_left=LIGHT_TURNS[kind], by=by)
        return self.evolve(lights=(*self.lights, lit))

    def advance(
        self, turns: int = 1, names: Mapping[str, str] | None = None
    ) -> tuple[TurnClock, list[Event]]:
        """Let `turns` pass; lights burn down and go out, each line naming who lit it by the
        name `names` gives them now (a character renamed since)."""
        names = names or {}
        if not 1 <= turns <= MAX_TURNS:
            raise ConstitutionError(f"advance the clock by 1 to {MAX_TURNS:,} turns")
        events = []
        burning = []
        for light in self.lights:
            left = light.turns_left - turns
            if left <= 0:
                whose = f"{names.get(light.by, light.by)}'s" if light.by else "a"
                events.append(Event(kind="light_out", message=f"{whose} {light.kind} goes out"))
            else:
                burning.append(light.evolve(turns_left=left))
        return self.evolve(turns=self.turns + turns, lights=tuple(burning)), events


def turns_taken(base_turns: int, outcome: Check) -> int | None:
    """Turns a search-like task takes (§ 13.1): each extra degree saves a turn, at least one
    is always spent (C3-A40); None when the check failed."""
    if base_turns < 1:
        raise ConstitutionError("a task takes at least one turn")
    if not outcome.success:
        return None
    return max(1, base_turns - outcome.extra_degrees)


def dungeon_encounter(dice: DiceSource) -> tuple[bool, DiceRecord]:
    """A dungeon encounter check: 1 in 6 (§ 13.5)."""
    rolled = roll("1d6", dice)
    return rolled.total == 1, DiceRecord.of(rolled)


# -- Overland travel (§ 13.4–13.5) ---------------------------------------------------------------


class Leg(Model):
    """A stretch of a route over one kind of terrain."""

    terrain: Terrain
    miles: Fraction = Field(gt=0, le=100_000)


def day_rate(
    terrain: Terrain,
    weather: Weather = "fair",
    *,
    speed: Fraction = Fraction(1),
) -> Fraction:
    """Miles in a day: terrain × weather × `speed`, the product of every other factor
    (encumbrance, deprivation, trapping, hunting) (C3-A32)."""
    return MILES_PER_DAY[terrain] * WEATHER_SPEED[weather] * speed


class TravelDay(Model):
    day: int
    weather: Weather
    miles: Fraction
    terrain: tuple[Terrain, ...]
    encounter_checks: int
    encounters: int
    dice: tuple[DiceRecord, ...] = ()


class Journey(Model):
    days: tuple[TravelDay, ...]

    @property
    def miles(self) -> Fraction:
        return sum((day.miles for day in self.days), Fraction(0))

    @property
    def encounters(self) -> int:
        return sum(day.encounters for day in self.days)


def walk_day(
    number: int,
    legs: Sequence[Leg],
    today: Weather,
    dice: DiceSource,
    *,
    speed: Fraction = Fraction(1),
) -> tuple[TravelDay, tuple[Leg, ...]]:
    """One day on the road (§ 13.4–13.5): as much of `legs` as the day's rate allows (a leg's
    share of the day is its miles over its rate), then one encounter check plus one per full
    6 miles walked, each 1 in 3 (a d6 showing 1 or 2); the day and the legs still ahead."""
    if speed <= 0:
        raise ConstitutionError("the party cannot move at all at this speed")
    ahead = [(leg.terrain, leg.miles) for leg in legs]
    day_left = Fraction(1)
    walked = Fraction(0)
    crossed = []
    while ahead and day_left > 0:
        terrain, miles = ahead[0]
        rate = day_rate(terrain, today, speed=speed)
        reach = rate * day_left
        crossed.append(terrain)
        if miles <= reach:
            walked += miles
            day_left -= miles / rate
            ahead.pop(0)
        else:
            walked += reach
            ahead[0] = (terrain, miles - reach)
            day_left = Fraction(0)
    checks = 1 + math.floor(walked / MILES_PER_ENCOUNTER_CHECK)
    rolled = [roll("1d6", dice) for _ in range(checks)]
    day = TravelDay(
        day=number,
        weather=today,
        miles=walked,
        terrain=tuple(dict.fromkeys(crossed)),
        encounter_checks=checks,
        encounters=sum(1 for r in rolled if r.total <= 2),
        dice=tuple(DiceRecord.of(r) for r in rolled),
    )
    return day, tuple(Leg(terrain=terrain, miles=miles) for terrain, miles in ahead)


def travel(
    route: Sequence[Leg],
    dice: DiceSource,
    *,
    weather: Sequence[Weather] = ("fair",),
    speed: Fraction = Fraction(1),
) -> Journey:
    """Walk a route day by day (§ 13.4–13.5; `walk_day`), the last weather repeating."""
    if not route:
        raise ConstitutionError("a route needs at least one leg")
    if not weather:
        raise ConstitutionError("give the weather for at least the first day")
    if speed <= 0:
        raise ConstitutionError("the party cannot move at all at this speed")
    legs = tuple(route)
    days = []
    while legs:
        number = len(days) + 1
        if number > MAX_TRAVEL_DAYS:
            raise ConstitutionError(f"the route takes more than {MAX_TRAVEL_DAYS} days")
        today = weather[min(len(weather), number) - 1]
        day, legs = walk_day(number, legs, today, dice, speed=speed)
        days.append(day)
    return Journey(days=tuple(days))


# -- Hunting and foraging (§ 13.6–13.9) ----------------------------------------------------------

HUNTING_DC = 20
Season = Literal["spring", "summer", "autumn", "winter"]
Method = Literal["ranged", "traps", "forage"]


def hunting_dc(terrain: Terrain, season: Season, method: Method) -> int:
    """DC 20; plains −5, jungles and forests −10; +5 in winter, and in deserts always; foraging
    +5 (§ 13.7, § 13.9)."""
    dc = HUNTING_DC
    if terrain == "plains":
        dc -= 5
    if terrain in ("jungle", "forest"):
        dc -= 10
    if terrain == "desert" or season == "winter":
        dc += 5
    if method == "forage":
        dc += 5
    return dc


class Hunt(Model):
    """One hunter's day of hunting or foraging and what it brought (§ 13.8)."""

    method: Method
    check: Check
    rations: int = Field(ge=0)
    distance_lost: Fraction = Field(ge=0, le=1)
    """Share of the day's travel lost: 1 means the whole day."""
    dice: tuple[DiceRecord, ...] = ()


def hunt(
    hunter: Character,
    terrain: Terrain,
    season: Season,
    method: Method,
    dice: DiceSource,
    *,
    skill: str = "hunting",
    extra_for_rations: int | None = None,
    modifier: int = 0,
    options: Options = DEFAULT,
) -> Hunt:
    """Hunt with a ranged weapon (strength), with traps (knowledge) or forage (knowledge),
    scaled by the hunting skill (§ 13.6–13.9). A success lays down 1d4 rations; each extra
    degree buys a ration or an advantage die on the distance roll (`extra_for_rations` of
    them go to rations, by default all). Ranged hunting and foraging cost 1d4 × 25% of the
    day's travel on a success and the whole day on a failure; traps take the whole day."""
    ability = "strength" if method == "ranged" else "knowledge"
    rolled = character_check(
        hunter,
        ability,
        hunting_dc(terrain, season, method),
        dice,
        skill=skill,
        modifier=modifier,
        options=options,
    )
    if not rolled.success:
        return Hunt(method=method, check=rolled, rations=0, distance_lost=Fraction(1))
    extra = rolled.extra_degrees
    to_rations = extra if extra_for_rations is None else extra_for_rations
    if not 0 <= to_rations <= extra:
        raise ConstitutionError(
            f"{extra} extra degrees to share between rations and the distance roll, "
            f"not {to_rations}"
        )
    food = roll("1d4", dice)
    records = [DiceRecord.of(food)]
    lost = Fraction(1)
    if method != "traps":
        advantage = extra - to_rations
        expression = "1d4" if advantage == 0 else f"{1 + advantage}d4kl1"
        reduction = roll(expression, dice)
        records.append(DiceRecord.of(reduction))
        lost = Fraction(reduction.total, 4)
    return Hunt(
        method=method,
        check=rolled,
        rations=food.total + to_rations,
        distance_lost=lost,
        dice=tuple(records),
    )


def party_distance_lost(hunts: Sequence[Hunt]) -> Fraction:
    """Several hunters each roll; the worst (largest) loss of the day applies (§ 13.8; C3-A31)."""
    return max((h.distance_lost for h in hunts), default=Fraction(0))


TRAPPER_SPEED = Fraction(3, 4)
"""Setting or emptying traps as one goes costs a quarter of the day's travel (§ 10.2)."""
