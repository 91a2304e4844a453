"""The character sheet: scores, health, To-Hit, statuses, injuries and the AP tracker.

Players and NPCs use the same sheet (§ Characters and Scores). Scores on the sheet are the
base values; `score()` adds what statuses such as [weak] do to them, and everything derived
from CON (Max HP, recovery dice) follows the effective value (RU-A26).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from tabletop.data import read_data_file, require_blocks
from tabletop.systems.ap2d6.death import DeathRecord, PlayerDeathView, player_view
from tabletop.systems.ap2d6.errors import Ap2d6DataError, validated
from tabletop.systems.ap2d6.events import Role
from tabletop.systems.ap2d6.gear import Carried
from tabletop.systems.ap2d6.options import DEFAULTS, Options
from tabletop.systems.ap2d6.scores import (
    BASE_TO_HIT,
    STANDARD_SCORES,
    Score,
    check_score,
    in_sheet_order,
    named_scores,
    score_name,
)
from tabletop.systems.ap2d6.statuses import Status, StatusSpec, named_statuses, status_name
from tabletop.systems.ap2d6.tracker import APTracker

BASE_HEALTH = 18
HEALTH_PER_CON = 6
"""Max HP is 18 + 6 × CON (RU-M04)."""

HP_PER_RECOVERY_DIE = 6
"""One recovery d6 for every 6 Max HP (RU-M33)."""

DEFAULT_SPEED = 4
"""Spaces per move action, "typically" 4 (RU-M17, RU-G06)."""

MAX_HP_LIMIT = 100_000

Life = Literal["up", "dying", "unconscious", "dead"]
"""Up and acting; down and making death checks; down but stable, resting to 6 HP; dead."""

ScoreTable = dict[str, Annotated[int, Field(ge=-1000, le=1000)]]


class ActiveStatus(BaseModel):
    """A status on a character: what it does (carried along, so the sheet stands alone)
    and its stacks and remaining rounds."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    spec: StatusSpec
    state: Status = Status()


class Injuries(BaseModel):
    """Lasting harm from death checks (RU-M41, RU-A28): permanent unless healed elsewhere."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    scars: Annotated[int, Field(ge=0)] = 0
    lame: bool = False
    lost_limbs: tuple[str, ...] = ()


class Character(BaseModel):
    """One character, player or NPC. Every change makes a new sheet (see `health`, `rounds`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Annotated[str, Field(min_length=1, max_length=80)]
    scores: ScoreTable = Field(default_factory=dict, validate_default=True)
    """Non-[special] scores; the standard six are always present (0 unless set)."""
    special: ScoreTable = {}
    """[special] scores the character has; any other [special] score is missing (RU-M02)."""
    skills: dict[str, Annotated[int, Field(ge=0, le=1000)]] = {}
    """Skills bought, with the SP each cost (the skill list is the group's, RU-G01)."""
    unspent_sp: int = 0
    to_hit_adjustments: dict[str, Annotated[int, Field(ge=-100, le=100)]] = {}
    """Named changes to To-Hit, e.g. {"bulky armour": -1} (RU-M05; amounts are the group's)."""
    speed: Annotated[int, Field(ge=0, le=100)] = DEFAULT_SPEED
    hp: Annotated[int, Field(ge=-MAX_HP_LIMIT, le=MAX_HP_LIMIT)] | None = None
    """Current health; left out, it starts full."""
    recovery_dice: Annotated[int, Field(ge=0)] | None = None
    """Recovery dice left; left out, all of them."""
    life: Life = "up"
    dying: DeathRecord | None = None
    """The record of the current time down, kept until the character is up again."""
    statuses: dict[str, ActiveStatus] = {}
    injuries: Injuries = Injuries()
    tracker: APTracker = APTracker()
    carried: Carried = Carried()
    """What the character carries, in the personal space and the bag (§ Encumbrance)."""
    notes: Annotated[str, Field(max_length=4_000)] = ""

    @field_validator("scores", mode="before")
    @classmethod
    def _standard_first(cls, value: Any) -> Any:
        """Every standard score, in sheet order, then any others by name."""
        if not isinstance(value, dict):
            return value
        named = named_scores(value)
        assert isinstance(named, dict)
        return {name: named.get(name, 0) for name in in_sheet_order({*STANDARD_SCORES, *named})}

    _special_names = field_validator("special", mode="before")(named_scores)

    _status_names = field_validator("statuses", mode="before")(named_statuses)

    @model_validator(mode="after")
    def _complete(self) -> Character:
        overlap = set(self.scores) & set(self.special)
        if overlap:
            raise ValueError(f"{', '.join(sorted(overlap))} cannot be both [special] and not")
        if (self.life == "dying") != (self.dying is not None and self.dying.rolling):
            raise ValueError("a dying character needs a death record that is still rolling")
        if self.life == "unconscious" and self.dying is None:
            raise ValueError("an unconscious character needs the record of going down")
        # Defaults that depend on other fields; the model is frozen, so set them directly.
        if self.hp is None:
            object.__setattr__(self, "hp", self.max_hp)
        if self.recovery_dice is None:
            object.__setattr__(self, "recovery_dice", self.max_recovery_dice)
        return self

    # -- scores -----------------------------------------------------------------------------

    def score(self, name: str) -> int:
        """A non-[special] score with what statuses do to it; 0 if not on the sheet."""
        key = score_name(name)
        return self.scores.get(key, self.special.get(key, 0)) + self._score_modifier(key)

    def special_score(self, name: str) -> Score:
        """A [special] score, or None if the character does not have it (RU-M02)."""
        key = score_name(name)
        if key not in self.special:
            return None
        return self.special[key] + self._score_modifier(key)

    def _score_modifier(self, key: str) -> int:
        """What statuses such as [weak] do to the score `key` (RU-A26)."""
        return sum(s.spec.score_modifiers.get(key, 0) for s in self.statuses.values())

    def check_modifier(self, name: str) -> int:
        """What statuses add to checks with this score, e.g. [encumbered] on AGI (RU-M51)."""
        key = score_name(name)
        return sum(s.spec.check_modifiers.get(key, 0) for s in self.statuses.values())

    def has(self, status: str) -> bool:
        return status_name(status) in self.statuses

    def stacks(self, status: str) -> int:
        active = self.statuses.get(status_name(status))
        return active.state.stacks if active else 0

    # -- derived qualities ------------------------------------------------------------------

    @property
    def max_hp(self) -> int:
        """18 + 6 × CON, following CON as statuses change it (RU-M04, RU-A26)."""
        return BASE_HEALTH + HEALTH_PER_CON * self.score("CON")

    @property
    def max_recovery_dice(self) -> int:
        """One d6 per full 6 Max HP (RU-M33, RU-A18)."""
        return max(self.max_hp, 0) // HP_PER_RECOVERY_DIE

    @property
    def current_hp(self) -> int:
        return self.max_hp if self.hp is None else self.hp

    @property
    def to_hit(self) -> int:
        """The DC enemy attacks must beat: 6, adjusted by gear, actions and statuses (RU-M05)."""
        adjustments = sum(self.to_hit_adjustments.values())
        return BASE_TO_HIT + adjustments + sum(s.spec.to_hit for s in self.statuses.values())

    def move_spaces(self, move_number: int = 1, options: Options = DEFAULTS) -> int:
        """Spaces the `move_number`-th move action of a round covers: speed, statuses such as
        [encumbered] (RU-A30), and Lame after the first move (RU-M41, RU-A27)."""
        spaces = self.speed + sum(s.spec.speed for s in self.statuses.values())
        if self.injuries.lame and move_number > 1:
            spaces -= 1 if options.lame_penalty == "flat" else move_number - 1
        return max(spaces, 0)

    @property
    def down(self) -> bool:
        return self.life in ("dying", "unconscious")

    @property
    def secretly_dead(self) -> bool:
        """Dead from death checks before anyone has checked on them: to everyone else they
        are still down, and every rule treats them as it would a stable character, so that
        nothing a player sees gives the outcome away (RU-M38)."""
        return self.life == "dead" and self.dying is not None and not self.dying.revealed

    @property
    def public_life(self) -> Literal["up", "down", "dead"]:
        """What everyone at the table knows: up, down, or dead."""
        if self.life == "up":
            return "up"
        if self.life == "dead" and not self.secretly_dead:
            return "dead"
        return "down"

    def with_status(
        self, name: str, spec: StatusSpec, stacks: int = 1, rounds: int | None = None
    ) -> Character:
        """This sheet with `stacks` more of a status (and a duration, if it runs out)."""
        key = status_name(name)
        current = self.statuses.get(key)
        total = stacks + (current.state.stacks if current else 0)
        state = Status(stacks=total, rounds_left=rounds)
        return self.model_copy(
            update={"statuses": {**self.statuses, key: ActiveStatus(spec=spec, state=state)}}
        )

    # -- what each role sees ----------------------------------------------------------------

    def view(self, role: Role) -> dict[str, Any]:
        """The sheet as JSON for `role`. A player sees their own sheet, but the death record
        only through `death.player_view`, and "down" instead of an outcome nobody has
        found out yet (RU-M38)."""
        data = self.model_dump(mode="json", exclude={"dying"})
        if role == "gm" or self.dying is None:
            data["dying"] = None if self.dying is None else self.dying.model_dump(mode="json")
            return data
        shown: PlayerDeathView = player_view(self.dying)
        data["dying"] = shown.model_dump(mode="json")
        data["life"] = self.public_life
        return data


def standard_sheet(name: str, **scores: int) -> Character:
    """A sheet with the standard scores, zero unless given: `standard_sheet("Ayla", AGI=2)`."""
    for key, value in scores.items():
        check_score(value, key)
    return validated(Character, {"name": name, "scores": scores}, "character")


def read_sheet(path: str | Path) -> Character:
    """A character sheet from a JSON file (as `character new --json` prints it), checked."""
    data = read_data_file(path, Ap2d6DataError)
    require_blocks(data, ("name", "scores"), f"sheet {path}", Ap2d6DataError)
    return validated(Character, data, f"sheet {path}")
