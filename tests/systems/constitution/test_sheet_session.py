"""The Constitution sheet at a shared table: what is carried and where, in stones
(C3-S01), a skill's rating the group settles (C3-S02), spells cast from the spell book
(C3-S03), coins, name and notes. Dice are fixed faces."""

from __future__ import annotations

from typing import Any

import pytest

from tabletop.dice import FixedDice
from tabletop.errors import TabletopError
from tabletop.session import Member
from tabletop.systems.constitution import SESSION
from tabletop.systems.constitution.errors import ConstitutionError
from tabletop.systems.constitution.levers import FIXED
from tabletop.systems.constitution.table import ConstitutionTable
from tests.systems.playing import played

GM = Member.gm()
ADA = Member.player("p1", "Ada's player")
BO = Member.player("p2", "Bo's player")

ADA_SHEET = {
    "name": "Ada",
    "character_class": "sage",
    "abilities": {"strength": 9, "wits": 12, "knowledge": 15, "will": 11, "charisma": 10},
    "initiations": ["goetia"],
    "spells": {"Sleep": {"level": 1, "rating": 60}},
    "has_spell_book": True,
    "hp": 4,
}
"""A sage with Goetia (§ 8.3), who may prepare spells, with her spell book (§ 12.7)."""


def play(state: ConstitutionTable, intent: dict[str, Any], member: Member, faces=()) -> tuple:
    return played(SESSION, state, intent, member, faces)


def seated() -> ConstitutionTable:
    state, _ = play(SESSION.new(), {"kind": "import-character", "sheet": ADA_SHEET}, ADA)
    bo = {"name": "Bo", "abilities": dict.fromkeys(ADA_SHEET["abilities"], 10)}
    state, _ = play(state, {"kind": "import-character", "sheet": bo}, BO)
    return state


def refused(state: ConstitutionTable, intent: dict[str, Any], member: Member = ADA) -> str:
    with pytest.raises(TabletopError) as refusal:
        SESSION.resolve(state, intent, member, FixedDice([]))
    return str(refusal.value)


def gear(state: ConstitutionTable, **line: Any) -> tuple:
    return play(state, {"kind": "stow-gear", "character": "c1", "gear": line}, ADA)


def carrying(state: ConstitutionTable) -> dict[str, Any]:
    return SESSION.view(state, ADA)["characters"][0]["carrying"]


def test_c3_s01_small_things_need_a_backpack_and_the_load_weighs_in_stones():
    """§ 14.5: small things go in a backpack (1 stone up to 15); § 14.4: full chain is 3
    stones; strength 9 carries 3 stones freely, 6 encumbered (§ 14.13b)."""
    state = seated()
    assert refused(state, {"kind": "stow-gear", "character": "c1", "gear": {"name": "rope"}}) == (
        "small things, rations and purses need a backpack (§ 14.5)"
    )
    state, _ = gear(state, name="backpack", size="backpack", where="back")
    state, events = gear(state, name="candle", size="small", count=4, where="backpack")
    assert events[0].text == "Ada carries 4 × candle (backpack)"
    assert carrying(state) == {
        "stones": 1,
        "level": "unencumbered",
        "free": 3,
        "encumbered_up_to": 6,
    }
    state, _ = gear(state, name="mail", size="armour", armour="full chain", where="worn")
    assert carrying(state)["stones"] == 4 and carrying(state)["level"] == "encumbered"
    second = {"name": "plate", "size": "armour", "armour": "full plate"}
    assert "one suit of armour at a time" in refused(
        state, {"kind": "stow-gear", "character": "c1", "gear": second}
    )
    # The backpack holds the candles, so it cannot be dropped before them; a move renames
    # where a line is carried.
    drops = {o.entry for o in SESSION.legal(state, ADA) if o.kind == "drop-gear"}
    assert "gear.0" not in drops and "gear.1" in drops
    state, _ = play(
        state, {"kind": "move-gear", "character": "c1", "index": 1, "where": "belt pouch"}, ADA
    )
    assert state.characters["c1"].sheet.gear[1].where == "belt pouch"


def test_c3_s01_coins_ride_in_purses_and_pouches():
    """§ 14.13a: a purse holds 50 coins, a pouch 250 (C3-A54)."""
    state = seated()
    state, _ = gear(state, name="backpack", size="backpack")
    state, _ = gear(state, name="purse", size="purse")
    state, _ = play(
        state, {"kind": "coins", "character": "c1", "amount": 50, "reason": "loot"}, ADA
    )
    assert "need purses (50 each) or pouches (250 each)" in refused(
        state, {"kind": "coins", "character": "c1", "amount": 1}
    )
    state, events = play(state, {"kind": "coins", "character": "c1", "amount": -20}, ADA)
    assert events[0].text == "Ada: -20 sp" and state.characters["c1"].sheet.coins == 30


def test_c3_s02_a_skill_is_rated_by_the_table_and_checked_from_its_line():
    """§ 4.10–4.11: a skill's rating is settled when it is first used; a check modified by
    the skill multiplies the ability by the rating (knowledge 15 × 40% = 6), and the sage
    adds her level to a knowledge check (§ 8.1)."""
    state = seated()
    with pytest.raises(ConstitutionError, match="open"):  # another's sheet: as for a hidden one
        SESSION.resolve(
            state,
            {"kind": "rate-skill", "character": "c1", "skill": "herbs", "rating": 40},
            BO,
            FixedDice([]),
        )
    state, events = play(
        state, {"kind": "rate-skill", "character": "c1", "skill": " Herbs ", "rating": 40}, ADA
    )
    assert events[0].text == "Ada: herbs 40%"
    check = next(
        o for o in SESSION.legal(state, ADA) if o.entry == "skills.herbs" and o.kind == "check"
    )
    assert check.preset == {"character": "c1", "skill": "herbs", **FIXED}  # C3-S07
    intent = {
        "kind": "check",
        "character": "c1",
        "skill": "herbs",
        "ability": "knowledge",
        "dc": 20,
    }
    state, events = play(state, intent, ADA, [14])
    assert events[0].data["score"] == 6 + 1 and events[0].data["total"] == 21


def test_c3_s03_a_spell_is_prepared_and_cast_quickly_or_as_a_ritual():
    """§ 12.2: a ritual needs knowledge and will checks scaled by the rating; § 12.3: a
    prepared spell is cast with a d100 at or under the rating, and the preparation is
    spent (C3-A39)."""
    state = seated()
    offered = {o.text for o in SESSION.legal(state, ADA) if o.entry == "spells.Sleep"}
    assert offered == {"cast as a ritual"}
    state, _ = play(state, {"kind": "prepare-spells", "character": "c1", "spells": ["Sleep"]}, ADA)
    offered = {o.text for o in SESSION.legal(state, ADA) if o.entry == "spells.Sleep"}
    assert offered == {"cast (prepared)", "cast as a ritual"}
    state, events = play(
        state, {"kind": "cast-spell", "character": "c1", "spell": "Sleep"}, ADA, [42]
    )
    assert events[0].text == "Ada casts Sleep: d100 42 against 60%, it works"
    assert state.characters["c1"].sheet.prepared == ()
    ritual = {"kind": "cast-spell", "character": "c1", "spell": "Sleep", "ritual": True}
    state, events = play(state, ritual, ADA, [15, 3])
    assert events[0].text.endswith("it fails") and "ritual (1 h)" in events[0].text


def test_c3_s01_renames_and_notes_are_the_owners_and_the_gms():
    state = seated()
    state, _ = play(state, {"kind": "rename-character", "character": "c1", "name": "Adela"}, GM)
    state, _ = play(
        state, {"kind": "write-notes", "character": "c1", "notes": "owes the guild"}, ADA
    )
    sheet = state.characters["c1"].sheet
    assert (sheet.name, sheet.notes) == ("Adela", "owes the guild")
