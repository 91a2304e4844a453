"""What every RPG's NPCs share (tabletop.npcs): the book's creatures checked once, one
number changed in one line or not at all, ids never reused."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, Field

from tabletop.data import validated
from tabletop.errors import DataError, RulesError
from tabletop.npcs import (
    MAX_NPCS,
    Bestiary,
    EditNpc,
    Kept,
    Roster,
    edited,
    next_id,
)


class Stats(BaseModel):
    level: int = Field(default=1, ge=0, le=20)
    note: str | None = None


ROSTER = Roster(Stats, RulesError, lambda stats: f"level {stats.level}")


def test_one_number_changes_as_the_model_reads_it_or_not_at_all():
    stats = Stats(level=3)
    assert edited(stats, "level", " 5 ", RulesError).level == 5
    assert edited(stats, "note", "none", RulesError).note is None
    with pytest.raises(
        RulesError, match="the NPC: level: Input should be less than or equal to 20"
    ):
        edited(stats, "level", "21", RulesError)
    with pytest.raises(RulesError, match="no 'armour'; it has name, level, note"):
        edited(stats, "armour", "2", RulesError)
    assert stats.level == 3


def test_ids_are_never_reused_and_names_are_unique_and_the_roster_is_bounded():
    assert next_id(["n1", "n2"], 1) == ("n3", 4)
    npcs, counter, events = ROSTER.add({}, 1, Kept[Stats](name="Rat", stats=Stats()), ["Ada"])
    assert (
        list(npcs) == ["n1"] and counter == 2 and events[1].text == "the GM brings Rat to the table"
    )
    npcs, _ = ROSTER.change(npcs, EditNpc(npc="n1", stat="name", value="Big rat"), ["Ada", "Rat"])
    assert npcs["n1"].name == "Big rat"
    with pytest.raises(RulesError, match="already someone called Ada"):
        ROSTER.add(npcs, counter, Kept[Stats](name="Ada", stats=Stats()), ["Ada"])
    full = {f"n{i}": npcs["n1"] for i in range(MAX_NPCS)}
    with pytest.raises(RulesError, match=f"at most {MAX_NPCS} NPCs"):
        ROSTER.add(full, counter, npcs["n1"], [])


def test_a_bestiary_names_its_source_and_each_creature_once():
    creature = {"name": "Rat", "source": "§ 1", "reading": "X-N01", "stats": {"level": 1}}
    book = validated(Bestiary[Stats], {"credit": "a book", "creatures": [creature]}, "b.toml")
    assert book.names == ("Rat",)
    with pytest.raises(RulesError, match="the book has no creature 'Bat'; it has Rat"):
        book.creature("Bat", RulesError)
    for bad, problem in (
        ({"credit": "a book", "creatures": [creature, creature]}, "a creature is named twice"),
        ({"credit": "a book", "creatures": [{**creature, "stats": {"level": 99}}]}, "level"),
        ({"creatures": [creature]}, "credit"),
    ):
        with pytest.raises(DataError, match=f"b.toml: .*{problem}"):
            validated(Bestiary[Stats], bad, "b.toml")
