"""Dialects: each tool's dice notation as a small table of differences the one parser reads.

A dialect says how its tool spells each feature of the shared syntax tree and what the
tool's own limits are; `tabletop.dice.parser` reads text with one of these tables straight
into the tree, and `tabletop.dice.spelling` writes a tree back with one. Nothing here
rewrites text into another dialect's text. docs/dice-notation.md has the side-by-side
table and the sources of every reading.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Literal

from tabletop.errors import RollError

DEFAULT_DIALECT = "tabletop"
"""What the systems' own rolls, tables and rooms read; also the command line's default."""

DIALECT_VARIABLE = "TABLETOP_DICE_DIALECT"
"""The environment variable that sets a user's default dialect on the command line."""


@dataclass(frozen=True, slots=True)
class ExplodeSpelling:
    """What one explosion spelling means: follow-ups as dice of their own (`separate`) or
    added into the die that exploded; penetrating (each follow-up counts one less); `once`
    (each die may explode once and its follow-up never does)."""

    separate: bool
    penetrating: bool = False
    once: bool = False
    single: bool = False
    """Only one die of the whole pool explodes, once (d20's `ra`: Foundry's `xo1=6`)."""


@dataclass(frozen=True, slots=True, eq=False)
class Dialect:
    """How one tool spells dice notation, and its own caps."""

    name: str
    title: str
    compares: dict[str, str]
    """Spellings of a compare point after a modifier -> the tree's operator. Roll20's `>3`
    is the tree's `>=3`; a spelling missing here is refused."""
    bare_equals: bool
    """A bare number after a re-roll or explosion (`r1`, `!3`, `x6`) means "equal to"."""
    rerolls: dict[str, bool]
    """Re-roll spellings -> whether the re-roll happens once (else until it stops matching)."""
    reroll_default: int | None
    """The face re-rolled when no target is written (Foundry's `r` re-rolls 1s); None: a
    target is required."""
    reroll_union: bool
    """Several re-rolls of one kind on a pool are one re-roll of the faces matching any of
    them (Roll20's `2d8r1r3`; d20 joins consecutive ones, `rr1rr3`); else refused."""
    pool_limits: bool
    """A number before the compare point of a re-roll or explosion limits how many happen
    over the whole pool (Foundry's `20d20r1=1`, `5d6x2>=5`)."""
    reroll_sequence: bool
    """Re-rolls not joined into one apply one after another, each to the face the one before
    left (Foundry's `2d8r1r3`; d20's `rr1ro3`, re-rolls of two kinds side by side)."""
    explosions: dict[str, ExplodeSpelling]
    explosion_bound: bool
    """`!:N` bounds the follow-ups of each die (tabletop's own spelling)."""
    keeps: dict[str, str]
    """Keep/drop spellings -> the tree's mode (kh, kl, dh, dl)."""
    picks: dict[str, bool]
    """Spellings of a keep or drop by face -> whether it keeps (d20's `k3`, `p<3`)."""
    keep_count_required: bool
    """Whether `k`/`d` must be followed by a number (else they keep or drop one)."""
    counts: dict[str, str]
    """Count spellings -> what they count: "" is a bare compare point after the dice
    (`3d6>3`); "cs" successes (alone: the highest face), "cf" failures (alone: 1s), "even"
    and "odd" the dice showing one; "f" (after a count) failures taken from it."""
    deducts: dict[str, str]
    """Spellings that make failing dice worth less -> "one" (Foundry's `df`: minus one) or
    "face" (`sf`: minus the face)."""
    criticals: dict[str, str]
    """Spellings of a critical point -> "critical" or "fumble": Roll20's `cs>19` and `cf<2`
    mark the dice showing them and change no value."""
    sorts: dict[str, str]
    """Spellings of sorting -> "ascending" or "descending" (Roll20's `s`, `sa`, `sd`): the
    dice are shown in that order; no value changes."""
    margin: bool
    """Foundry's `ms>12`: the pool's total less 12 (`ms<12`: 12 less the total)."""
    division: Literal["floor", "exact"]
    """What `/` means: whole-number division rounded down, or exact fractions."""
    floor_division: bool
    """`//` is whole-number division rounded down (d20)."""
    remainder: Literal["rem", "mod"] | None
    """What `%` between two values means: the remainder signed as the dividend (`rem`,
    JavaScript's: Roll20, Foundry), signed as the divisor (`mod`, Python's: d20), or None."""
    power: bool
    """`a ** b` raises to a power (Roll20), binding tighter than `*` and from the right."""
    truncate_total: bool
    """The total is truncated toward zero at the end (d20's `RollResult.total` is an int)."""
    functions: tuple[str, ...]
    """Functions the dialect knows by name: floor(x), ceil(x), round(x), abs(x)."""
    percent: Literal["d100", "tens"]
    """`d%` is a d100, or (d20) a tens die showing 0, 10, … 90."""
    advantage: bool
    """`d20adv` / `d20dis` (tabletop's own)."""
    dead_weight: bool
    """Dead Weight's usage die `Ud8` and risk dice `2d!` (tabletop's own)."""
    names: bool
    """Bare names such as `STR` are numbers bound when rolling (tabletop's own)."""
    values: Literal["braces", "at"] | None
    """A value given when rolling, by its name: Roll20's `@{strength}` ("braces"), Foundry's
    `@str` or `@abilities.str.mod` ("at"); bound like tabletop's bare names (`--var`)."""
    comment_mark: str | None
    """The mark after a whole expression that starts its flavour text (Foundry's `#`)."""
    uppercase_d: bool
    """`3D6` reads as `3d6`."""
    zero_dice: bool
    """`0d6` is a pool of no dice, worth 0 (Roll20, d20); tabletop refuses it as a slip."""
    unary_plus: bool
    """`+1` and `-+-1` read (d20)."""
    labels: bool
    """`2d6[fire]`: words in brackets after a term are kept with it and shown."""
    bounds: dict[str, str]
    """Spellings of a per-die bound -> "minimum" or "maximum" (Foundry's `min2`, d20's `mi2`)."""
    groups: Literal["braces", "sets"] | None
    """How expressions are grouped to be judged by their totals: `{a, b}` (Roll20, Foundry,
    tabletop) or d20's sets `(a, b)` (a set needs its comma: `(a,)`)."""
    fate: str | None
    """The letter of a Fate die after `d` (Roll20's `4dF`, Foundry's `4df`); None: none."""
    trailing_text: bool
    """Words after a whole expression are a comment on the roll (Roll20's
    `1d20+5 Roll for initiative`)."""
    computed_dice: bool
    """`(1d4)d6`: a number of dice rolled first (Roll20, Foundry)."""
    written_order: bool
    """Modifiers take effect in the order written (Foundry, d20); the tree's fixed order
    (re-roll, explode, keep, count) is accepted only where the written order agrees."""
    max_dice: int | None
    """The tool's own cap on dice one roll throws, when tighter than tabletop's."""
    cap_name: str = ""
    """The tool's cap as the refusal names it."""
    sources: tuple[str, ...] = field(default=())
    coins: bool = False
    """Foundry's coins, `4dc` (heads 1, tails 0) and their call `3dcc0`."""
    comparisons: bool = False
    """Comparisons are values, 1 or 0, below `+` and `-` (d20's `1d20 >= 10`)."""


TABLETOP = Dialect(
    name="tabletop",
    title="tabletop",
    compares={"=": "=", "<": "<", "<=": "<=", ">": ">", ">=": ">="},
    bare_equals=False,
    rerolls={"r": False, "ro": True},
    reroll_default=None,
    reroll_union=True,
    pool_limits=False,
    reroll_sequence=False,
    explosions={
        "!": ExplodeSpelling(separate=False),
        "!p": ExplodeSpelling(separate=False, penetrating=True),
        "!!": ExplodeSpelling(separate=False),
    },
    explosion_bound=True,
    keeps={"kh": "kh", "kl": "kl", "dh": "dh", "dl": "dl", "k": "kh"},
    picks={},
    keep_count_required=False,
    counts={"": ""},
    deducts={},
    criticals={},
    sorts={},
    margin=False,
    division="floor",
    floor_division=False,
    remainder=None,
    power=False,
    truncate_total=False,
    functions=("floor", "ceil", "round", "abs"),
    percent="d100",
    advantage=True,
    dead_weight=True,
    names=True,
    values=None,
    comment_mark="#",
    uppercase_d=True,
    zero_dice=False,
    unary_plus=False,
    labels=True,
    trailing_text=False,
    bounds={"min": "minimum", "max": "maximum"},
    groups="braces",
    fate=None,
    computed_dice=True,
    written_order=False,
    max_dice=None,
)

ROLL20 = Dialect(
    name="roll20",
    title="Roll20",
    compares={"=": "=", "<": "<=", ">": ">="},
    bare_equals=True,
    rerolls={"r": False, "ro": True},
    reroll_default=1,
    reroll_union=True,
    pool_limits=False,
    reroll_sequence=False,
    explosions={
        "!": ExplodeSpelling(separate=True),
        "!!": ExplodeSpelling(separate=False),
        "!p": ExplodeSpelling(separate=True, penetrating=True),
    },
    explosion_bound=False,
    keeps={"kh": "kh", "kl": "kl", "dh": "dh", "dl": "dl", "k": "kh", "d": "dl"},
    picks={},
    keep_count_required=False,
    counts={"": "", "f": "f"},
    deducts={},
    criticals={"cs": "critical", "cf": "fumble"},
    sorts={"s": "ascending", "sa": "ascending", "sd": "descending"},
    margin=False,
    division="exact",
    floor_division=False,
    remainder="rem",
    power=True,
    truncate_total=False,
    functions=("floor", "ceil", "round", "abs"),
    percent="d100",
    advantage=False,
    dead_weight=False,
    names=False,
    values="braces",
    comment_mark=None,
    uppercase_d=False,
    zero_dice=True,
    unary_plus=False,
    labels=True,
    trailing_text=True,
    bounds={},
    groups="braces",
    fate="F",
    computed_dice=True,
    written_order=False,
    max_dice=None,
    sources=("Roll20 Dice Reference (wiki.roll20.net/Dice_Reference)",),
)

FOUNDRY = Dialect(
    name="foundry",
    title="Foundry VTT",
    compares={"=": "=", "<": "<", "<=": "<=", ">": ">", ">=": ">="},
    bare_equals=True,
    rerolls={"r": True, "rr": False},
    reroll_default=1,
    reroll_union=False,
    pool_limits=True,
    reroll_sequence=True,
    explosions={
        "x": ExplodeSpelling(separate=True),
        "xo": ExplodeSpelling(separate=True, once=True),
    },
    explosion_bound=False,
    keeps={"kh": "kh", "kl": "kl", "dh": "dh", "dl": "dl", "k": "kh", "d": "dl"},
    picks={},
    keep_count_required=False,
    counts={"cs": "cs", "cf": "cf", "even": "even", "odd": "odd"},
    deducts={"df": "one", "sf": "face"},
    criticals={},
    sorts={},
    margin=True,
    division="exact",
    floor_division=False,
    remainder="rem",
    power=False,
    truncate_total=False,
    functions=("floor", "ceil", "round", "abs"),
    percent="d100",
    advantage=False,
    dead_weight=False,
    names=False,
    values="at",
    comment_mark="#",
    uppercase_d=False,
    zero_dice=False,
    unary_plus=False,
    labels=True,
    trailing_text=False,
    bounds={"min": "minimum", "max": "maximum"},
    groups="braces",
    fate="f",
    computed_dice=True,
    written_order=True,
    max_dice=None,
    sources=("Foundry VTT foundry.dice.terms.Die (its MODIFIERS and their docstrings)",),
    coins=True,
)

AVRAE = Dialect(
    name="avrae",
    title="Avrae (d20)",
    compares={"<": "<", ">": ">"},
    bare_equals=True,
    rerolls={"rr": False, "ro": True},
    reroll_default=None,
    reroll_union=True,
    pool_limits=False,
    reroll_sequence=True,
    explosions={
        "e": ExplodeSpelling(separate=True),
        "ra": ExplodeSpelling(separate=True, once=True, single=True),
    },
    explosion_bound=False,
    keeps={"kh": "kh", "kl": "kl", "ph": "dh", "pl": "dl"},
    picks={"k": True, "p": False},
    keep_count_required=True,
    counts={},
    deducts={},
    criticals={},
    sorts={},
    margin=False,
    division="exact",
    floor_division=True,
    remainder="mod",
    power=False,
    truncate_total=True,
    functions=(),
    percent="tens",
    advantage=False,
    dead_weight=False,
    names=False,
    values=None,
    comment_mark=None,
    uppercase_d=False,
    zero_dice=True,
    unary_plus=True,
    labels=True,
    trailing_text=False,
    bounds={"mi": "minimum", "ma": "maximum"},
    groups="sets",
    fate=None,
    computed_dice=False,
    written_order=True,
    max_dice=1_000,
    cap_name="d20 rolls at most 1,000 dice per expression (its RollContext)",
    sources=("d20 1.1.2: grammar.lark, expression.py, dice.py, tests/",),
    comparisons=True,
)

DIALECTS: dict[str, Dialect] = {
    dialect.name: dialect for dialect in (TABLETOP, ROLL20, FOUNDRY, AVRAE)
}
"""Every shipped dialect by name; `tabletop` first."""


def dialect_named(name: str | Dialect) -> Dialect:
    """The dialect called `name` (or `name` itself), refusing an unknown name in one line."""
    if isinstance(name, Dialect):
        return name
    found = DIALECTS.get(name) if isinstance(name, str) else None
    if found is None:
        known = ", ".join(DIALECTS)
        raise RollError(f"there is no dice dialect {str(name)[:40]!r}; the dialects are {known}")
    return found


def user_dialect() -> str:
    """The command line's default: `TABLETOP_DICE_DIALECT` when set, else `tabletop`."""
    chosen = os.environ.get(DIALECT_VARIABLE, "").strip()
    if not chosen:
        return DEFAULT_DIALECT
    return dialect_named(chosen.lower()).name
