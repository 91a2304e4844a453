"""What a member may ask for at a roll-under table: the session's intents.

Intents name characters by their id at the table (`c1`, `c2`, …); the session builds the
rules' own intents (`AbilityRoll`, `SufferHit`, …) from the sheets the table holds. Every
intent that rolls dice takes a `mode` (public, for the GM, blind, or for oneself).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from tabletop.session import MAX_NAME, MAX_TEXT, CharacterIntent, Frozen, RollMode
from tabletop.systems.rollunder.abilities import MAX_GROUP, ChallengeLevel, Roller
from tabletop.systems.rollunder.carrying import MAX_CARRY_LIMIT, Item, Place
from tabletop.systems.rollunder.character import (
    MAX_CORRUPTION,
    MAX_HEALTH,
    MAX_MONEY,
    MAX_OMENS,
    MAX_SCORE,
)
from tabletop.systems.rollunder.contests import (
    MAX_CONTEST_ROLLS,
    MAX_SIDES,
    MAX_TEAM,
    USUAL_ROLLS,
)
from tabletop.systems.rollunder.damage import MAX_ARMOUR
from tabletop.systems.rollunder.damage import MAX_TEXT as MAX_DAMAGE_TEXT

Id = str
"""A character's id at the table."""


# characters -------------------------------------------------------------------------------


class NewCharacter(Frozen):
    """A character from the numbers the rest of the game gives (CR-G01…G05): the chapter has
    no creation rules, so making one is writing down its scores. Equip it afterwards with
    `set-carry-limit` and `take-item`."""

    kind: Literal["new-character"] = "new-character"
    name: str = Field(min_length=1, max_length=MAX_NAME)
    abilities: dict[str, int]
    max_health: int = Field(ge=0, le=MAX_HEALTH)
    health: int | None = Field(default=None, ge=0, le=MAX_HEALTH)
    """None: at full health."""
    omens: int = Field(default=0, ge=0, le=MAX_OMENS)
    max_omens: int | None = Field(default=None, ge=0, le=MAX_OMENS)
    """None: as many as `omens`."""
    money: int = Field(default=0, ge=0, le=MAX_MONEY)
    owner: str | None = None
    """Who plays them: the asker by default; the GM may name any member."""
    secret: bool = False
    """The GM's own character (a monster, an NPC) whose sheet the players do not see."""


class ImportCharacter(Frozen):
    """Bring a sheet saved as JSON (`--character`, `read_sheet`) to the table."""

    kind: Literal["import-character"] = "import-character"
    sheet: dict[str, Any]
    owner: str | None = None
    secret: bool = False


class RevealCharacter(CharacterIntent):
    """The GM shows a secret character's sheet to everyone from now on."""

    kind: Literal["reveal-character"] = "reveal-character"


# rolls ------------------------------------------------------------------------------------


class AbilityRollIntent(CharacterIntent):
    """A character's ability roll at a challenge level (CR-M01, CR-M05, CR-M06)."""

    kind: Literal["ability-roll"] = "ability-roll"
    ability: str = Field(min_length=1, max_length=8)
    level: ChallengeLevel = "challenging"
    mode: RollMode = RollMode.PUBLIC


class CollectiveRollIntent(Frozen):
    """One d20 for several characters (CR-M02)."""

    kind: Literal["collective-roll"] = "collective-roll"
    characters: tuple[Id, ...] = Field(min_length=1, max_length=MAX_GROUP)
    ability: str = Field(min_length=1, max_length=8)
    level: ChallengeLevel = "challenging"
    mode: RollMode = RollMode.PUBLIC


class ScoreRollIntent(Frozen):
    """An ability roll against bare scores, no sheet: one roller or a collective roll."""

    kind: Literal["score-roll"] = "score-roll"
    rollers: tuple[Roller, ...] = Field(min_length=1, max_length=MAX_GROUP)
    ability: str = Field(default="score", min_length=1, max_length=20)
    level: ChallengeLevel = "challenging"
    mode: RollMode = RollMode.PUBLIC


class ContestSide(Frozen):
    """One side of a contest: characters at the table and contestants given by bare scores."""

    name: str = Field(min_length=1, max_length=MAX_NAME)
    characters: tuple[Id, ...] = Field(default=(), max_length=MAX_TEAM)
    scores: tuple[Roller, ...] = Field(default=(), max_length=MAX_TEAM)


class ContestIntent(Frozen):
    """An ability contest of `rolls` rolls each (CR-M03, CR-M04, CR-A16)."""

    kind: Literal["contest"] = "contest"
    ability: str = Field(min_length=1, max_length=8)
    sides: tuple[ContestSide, ...] = Field(min_length=2, max_length=MAX_SIDES)
    rolls: int = Field(default=USUAL_ROLLS, ge=1, le=MAX_CONTEST_ROLLS)
    mode: RollMode = RollMode.PUBLIC


class SufferHitIntent(CharacterIntent):
    """A character takes a hit: damage dice (`d8`, `2d6+1`) or a fixed amount (`3`)."""

    kind: Literal["suffer-hit"] = "suffer-hit"
    damage: str = Field(min_length=1, max_length=MAX_DAMAGE_TEXT)
    armour: int = Field(default=0, ge=0, le=MAX_ARMOUR)
    direct: bool = False
    mode: RollMode = RollMode.PUBLIC


class RollDamageIntent(CharacterIntent):
    """A character rolls the damage they deal (an omen may re-roll it)."""

    kind: Literal["roll-damage"] = "roll-damage"
    damage: str = Field(min_length=1, max_length=MAX_DAMAGE_TEXT)
    mode: RollMode = RollMode.PUBLIC


class SufferCorruptionIntent(CharacterIntent):
    """A character suffers corruption (CR-M18), rolling on the table's mutation table."""

    kind: Literal["suffer-corruption"] = "suffer-corruption"
    gain: int = Field(default=1, ge=1, le=MAX_CORRUPTION)
    mode: RollMode = RollMode.PUBLIC


class ChanceRollIntent(CharacterIntent):
    """Any other roll that directly affects the character, which an omen may re-roll."""

    kind: Literal["chance-roll"] = "chance-roll"
    expression: str = Field(min_length=1, max_length=200)
    purpose: str = Field(default="a chance roll", min_length=1, max_length=200)
    mode: RollMode = RollMode.PUBLIC


class LoyaltyRollIntent(Frozen):
    """The WIT roll that convinces a follower or keeps their loyalty (CR-M10, CR-A23)."""

    kind: Literal["loyalty-roll"] = "loyalty-roll"
    follower: Id
    level: ChallengeLevel = "challenging"
    mode: RollMode = RollMode.PUBLIC


class Answer(Frozen):
    """An answer to the open decision: `keep N`, `reroll NAME`, `save`, `die`, or an item."""

    kind: Literal["answer"] = "answer"
    choice: str = Field(min_length=1, max_length=200)


# health, abilities and omens --------------------------------------------------------------


class LoseAbilityIntent(CharacterIntent):
    """A character loses ability points (CR-M12, CR-A22: at 0 they face death)."""

    kind: Literal["lose-ability"] = "lose-ability"
    ability: str = Field(min_length=1, max_length=8)
    amount: int = Field(default=1, ge=1, le=MAX_SCORE)


class GainAbility(CharacterIntent):
    kind: Literal["gain-ability"] = "gain-ability"
    ability: str = Field(min_length=1, max_length=8)
    amount: int = Field(default=1, ge=1, le=MAX_SCORE)


class Heal(CharacterIntent):
    """Healing from whatever the rest of the game provides (CR-G10)."""

    kind: Literal["heal"] = "heal"
    amount: int = Field(default=1, ge=1, le=MAX_HEALTH)


class SaveFromDeath(CharacterIntent):
    """Spend an omen so what is at 0 goes back to 1 (CR-M19b, CR-A18)."""

    kind: Literal["save-from-death"] = "save-from-death"


class CastSpell(CharacterIntent):
    """Spend an omen to cast a sacred spell (CR-G09: the spell itself is another chapter's)."""

    kind: Literal["cast-spell"] = "cast-spell"
    spell: str = Field(min_length=1, max_length=MAX_NAME)


class Die(CharacterIntent):
    """The GM's call that a character dies (outside activation-based time, CR-A13)."""

    kind: Literal["die"] = "die"
    cause: str = Field(default="the GM's call", min_length=1, max_length=MAX_TEXT)


class ChooseMutation(CharacterIntent):
    """The GM names a mutation that corruption's critical damage caused (CR-G07)."""

    kind: Literal["choose-mutation"] = "choose-mutation"
    mutation: str = Field(min_length=1, max_length=MAX_NAME)


class SetMutationTable(Frozen):
    """The table's mutation table (another chapter's, supplied by the group), or None."""

    kind: Literal["set-mutation-table"] = "set-mutation-table"
    table: dict[str, Any] | None = None


# time -------------------------------------------------------------------------------------


class BeginActivation(Frozen):
    """Someone's activation begins: the deadline of whoever is dying is set (CR-A13)."""

    kind: Literal["begin-activation"] = "begin-activation"
    actor: str = Field(min_length=1, max_length=MAX_NAME)


class EndActivation(Frozen):
    """The activation under way ends: whoever's deadline it was faces death."""

    kind: Literal["end-activation"] = "end-activation"


class Stretch(Frozen):
    """The next stretch begins for the whole company: incapacitation ends."""

    kind: Literal["stretch"] = "stretch"


class Downtime(Frozen):
    """Downtime for the whole company: temporary injuries heal, omens come back."""

    kind: Literal["downtime"] = "downtime"


# carrying ---------------------------------------------------------------------------------


class SetCarryLimit(CharacterIntent):
    """The character's carry limit (CR-G02: the rest of the game gives the formula)."""

    kind: Literal["set-carry-limit"] = "set-carry-limit"
    carry_limit: int = Field(ge=0, le=MAX_CARRY_LIMIT)


class TakeItem(CharacterIntent):
    kind: Literal["take-item"] = "take-item"
    item: Item
    where: Place = "held"


class DropItem(CharacterIntent):
    kind: Literal["drop-item"] = "drop-item"
    item: str = Field(min_length=1, max_length=80)
    where: Place | None = None
    """Worn, held or stored; None: the first item of that name, wherever it is."""


class UseItem(CharacterIntent):
    """Use a held item: one needing both hands needs the other hand empty (CR-M08)."""

    kind: Literal["use-item"] = "use-item"
    item: str = Field(min_length=1, max_length=80)


# the company ------------------------------------------------------------------------------


class RecruitFollower(Frozen):
    """A follower joins a player character (at most two, CR-M10); the leader's player
    plays them."""

    kind: Literal["recruit-follower"] = "recruit-follower"
    leader: Id
    sheet: dict[str, Any]


class DismissFollower(Frozen):
    kind: Literal["dismiss-follower"] = "dismiss-follower"
    follower: Id


class Bury(Frozen):
    """The companions settle a dead player character's burial (CR-M21, CR-A19): each pays
    the coins in `payment` (by character id), or, with no payment, each loses an omen for
    good."""

    kind: Literal["bury"] = "bury"
    dead: Id
    remains_retrieved: bool = True
    payment: dict[Id, int] | None = None


class ReplaceCharacter(Frozen):
    """The dead player character's player brings their replacement (CR-M20, CR-A24)."""

    kind: Literal["replace-character"] = "replace-character"
    dead: Id
    sheet: dict[str, Any]


CharacterIntent = NewCharacter | ImportCharacter
RuleIntent = (
    AbilityRollIntent
    | CollectiveRollIntent
    | ScoreRollIntent
    | ContestIntent
    | SufferHitIntent
    | RollDamageIntent
    | SufferCorruptionIntent
    | ChanceRollIntent
    | LoyaltyRollIntent
    | LoseAbilityIntent
)
"""Intents that run a rule that may stop for a decision."""

INTENTS = (
    NewCharacter,
    ImportCharacter,
    RevealCharacter,
    AbilityRollIntent,
    CollectiveRollIntent,
    ScoreRollIntent,
    ContestIntent,
    SufferHitIntent,
    RollDamageIntent,
    SufferCorruptionIntent,
    ChanceRollIntent,
    LoyaltyRollIntent,
    Answer,
    LoseAbilityIntent,
    GainAbility,
    Heal,
    SaveFromDeath,
    CastSpell,
    Die,
    ChooseMutation,
    SetMutationTable,
    BeginActivation,
    EndActivation,
    Stretch,
    Downtime,
    SetCarryLimit,
    TakeItem,
    DropItem,
    UseItem,
    RecruitFollower,
    DismissFollower,
    Bury,
    ReplaceCharacter,
)
