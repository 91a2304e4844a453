"""The roll-under GM's monsters (CR-N01, CR-N02): typed in, since the chapter has none; each
a secret character marked as an NPC, in contests and hits like any character, its sheet
the GM's until shown, and hidden again if the GM takes that back."""

from __future__ import annotations

import pytest

from tabletop.errors import TabletopError
from tabletop.session import Visibility
from tabletop.systems.rollunder import SESSION, RollUnderError
from tests.systems.rollunder.test_session import ASH, GM, character, play, received, seated

HOUND = {
    "kind": "new-npc",
    "name": "Mire hound",
    "stats": {"abilities": {"STR": 17, "AGI": 15, "WIT": 4}, "max_health": 23},
}


def test_a_typed_in_monster_is_a_secret_character_the_gm_plays():
    """CR-N01, CR-N02: no bestiary; the hound sits at the table at full health, secret,
    marked as an NPC; the players hear its name."""
    state, events = play(seated(), HOUND, GM)
    seat = state.characters["n1"]
    assert seat.npc and seat.secret and seat.owner == GM.id
    assert (seat.sheet.health, seat.sheet.max_health) == (23, 23)
    assert [e.visibility for e in events] == [Visibility.GM, Visibility.PUBLIC]
    told = received(events, state, ASH)
    assert "the GM brings Mire hound to the table" in told and '"STR": 17' not in told
    assert not any(o.kind == "new-npc" for o in SESSION.legal(state, ASH))
    reveal_character = [o for o in SESSION.legal(state, GM) if o.kind == "reveal-character"]
    assert not reveal_character  # an NPC is shown, and hidden again, with reveal-npc
    with pytest.raises(RollUnderError, match="abilities"):
        bad = {**HOUND, "name": "Wisp", "stats": {"abilities": {"STR": 3}, "max_health": 2}}
        play(state, bad, GM)


def test_the_monster_contests_ash_and_its_rolls_reach_the_players_as_hints():
    """CR-S04 for an NPC: Ash's STR rolls are everyone's, the hound's (against STR 17) the
    GM's; once shown its sheet reaches everyone, and hidden again it does not."""
    state, _ = play(seated(), HOUND, GM)
    sides = [{"name": "us", "characters": ["c1"]}, {"name": "them", "characters": ["n1"]}]
    contest = {"kind": "contest", "ability": "STR", "sides": sides, "rolls": 1}
    state, events = play(state, contest, GM, [5, 19])
    hound = [e for e in events if e.visibility == Visibility.HIDDEN]
    assert hound and all(e.hint.startswith(("Mire hound: ", "the GM: ")) for e in hound)
    assert "against STR 17" not in received(events, state, ASH)
    state, _ = play(state, {"kind": "reveal-npc", "npc": "n1", "revealed": True}, GM)
    assert SESSION.view(state, ASH)["npcs"][0]["stats"]["abilities"]["STR"] == 17
    state, _ = play(state, {"kind": "reveal-npc", "npc": "n1", "revealed": False}, GM)
    assert state.characters["n1"].secret
    assert SESSION.view(state, ASH)["characters"][2]["sheet"] == {
        "hidden": "a sheet the GM keeps secret"
    }


def test_the_gm_changes_a_monsters_numbers_in_one_line_or_not_at_all():
    state, _ = play(seated(), HOUND, GM)
    state, _ = play(
        state, {"kind": "edit-npc", "npc": "n1", "stat": "max_health", "value": "30"}, GM
    )
    assert (state.characters["n1"].sheet.health, state.characters["n1"].sheet.max_health) == (
        30,
        30,
    )
    with pytest.raises(TabletopError, match="the NPC: STR must be from 0 to 1000, not -1"):
        play(state, {"kind": "edit-npc", "npc": "n1", "stat": "STR", "value": "-1"}, GM)
    state, events = play(state, {"kind": "remove-npc", "npc": "n1"}, GM)
    assert "n1" not in state.characters and events[0].text == "the GM takes Mire hound away"


def test_a_monster_renamed_keeps_its_followers_and_its_abilities_in_the_tables_order():
    """CR-N02 with CR-S08: renamed by `edit-npc`, the hound's follower follows the new name,
    as a rename-character's would (else the company no longer holds together and the table
    can take no step); a name the company has already is refused. Typed in any order, its
    abilities are the table's order, as the line a log's sorted intent re-tells lists them."""
    shuffled = {**HOUND, "stats": {**HOUND["stats"], "abilities": {"WIT": 4, "STR": 17, "AGI": 15}}}
    state, events = play(seated(), shuffled, GM)
    assert list(state.characters["n1"].sheet.abilities) == ["STR", "AGI", "WIT"]
    assert "'STR': 17, 'AGI': 15, 'WIT': 4" in events[0].text
    recruit = {"kind": "recruit-follower", "leader": "n1", "sheet": character("Pup")}
    state, _ = play(state, recruit, GM)
    rename = {"kind": "edit-npc", "npc": "n1", "stat": "name", "value": "Bog hound"}
    state, events = play(state, rename, GM)
    assert state.characters["n1"].sheet.name == "Bog hound"
    assert [f.name for f in state.company.followers_of("Bog hound")] == ["Pup"]
    assert [e.text for e in events] == [
        "Mire hound: name is now Bog hound",
        "Mire hound is now called Bog hound",
    ]
    with pytest.raises(TabletopError, match="already someone called Pup"):
        play(state, {**rename, "value": "Pup"}, GM)
