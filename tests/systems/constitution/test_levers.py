"""The referee's levers at a Constitution table (docs/rules/constitution.md C3-S07;
tabletop.asks.gm_lever): a player's own check is against DC 20 with nothing they add, their
blow carries no bonus or advantage die they set, and the server's offers say so, unless the
table's option `players_set_difficulty` hands those over; the GM sets them always. Rooms
logged under rules version 2, when players set their own DCs, are read by those rules."""

from __future__ import annotations

import re

import pytest

from tabletop.dice import FixedDice
from tabletop.errors import PermissionDenied, TabletopError
from tabletop.rooms.readings import session_at
from tabletop.session import Member
from tabletop.systems.constitution import SESSION
from tests.systems.constitution.test_npcs import combat, fighting
from tests.systems.constitution.test_session import ADA, ADA_DICE, GM, play, seated


def refused(what: str) -> str:
    """The refusal's words, as a pattern."""
    return re.escape(
        f"the GM sets {what} at this table (a table option can hand it to the players)"
    )


def check(**fields) -> dict:
    return {"kind": "check", "character": "c1", "ability": "wits", **fields}


@pytest.mark.parametrize(
    ("fields", "what"),
    [
        ({"dc": 12}, "the DC"),
        ({"modifier": 5}, "a bonus or penalty"),
        ({"advantage": 1}, "advantage dice"),
        ({"disadvantage": 2}, "disadvantage dice"),
    ],
)
def test_a_player_sets_no_dc_bonus_or_die_of_their_own_check(fields, what):
    with pytest.raises(TabletopError, match=refused(what)):
        SESSION.resolve(seated(), check(**fields), ADA, FixedDice([10]))


def test_a_players_own_check_is_against_dc_20_and_their_offers_fix_it():
    """§ 3.6: 20 is normal. Ada's offers fix the DC and what is added; the GM's do not."""
    state = seated()
    mine = [o for o in SESSION.legal(state, ADA) if o.kind == "check"]
    assert mine and all(o.preset["dc"] == 20 and "dc" not in o.fields for o in mine)
    assert all(not {"dc", "modifier"} & o.preset.keys() for o in SESSION.legal(state, GM))
    _, events = play(state, check(), ADA, [10])
    assert events[0].text == "Ada checks wits: 1d20! → [10] = 10; 10 + 15 = 25 vs DC 20: " + (
        "success, 2 degrees"
    )
    _, events = play(state, check(dc=12, modifier=1, advantage=1), GM, [10, 3])
    assert "vs DC 12" in events[0].text


def test_a_players_blow_carries_no_bonus_they_set_and_the_gm_may():
    state, _ = fighting()
    blow = combat({"action": "attack", "attacker": "Ada", "target": "n1", "modifier": 60})
    with pytest.raises(PermissionDenied, match=refused("a bonus or penalty")):
        SESSION.resolve(state, blow, ADA, FixedDice([10, 3]))
    unaware = combat({"action": "attack", "attacker": "Ada", "target": "n1", "target_unaware": 1})
    with pytest.raises(PermissionDenied, match=refused("the target's state")):
        SESSION.resolve(state, unaware, ADA, FixedDice([10, 3]))
    SESSION.resolve(state, blow, GM, FixedDice([10, 3]))


def test_the_table_option_hands_the_levers_to_the_players():
    state = seated().model_copy(
        update={"options": SESSION.new({"players_set_difficulty": True}).options}
    )
    mine = [o for o in SESSION.legal(state, ADA) if o.kind == "check"]
    assert mine and all("dc" not in o.preset for o in mine)
    _, events = play(state, check(dc=12, modifier=1), ADA, [10])
    assert "10 + 16 = 26 vs DC 12" in events[0].text


def test_c3s09_a_players_initiative_is_rolled_never_typed_in_and_the_gm_may_type_one():
    """§ 5.1, C3-S09 (rules version 5): Ada's fighter's initiative is the table's 1d20 + wits;
    one she types in is refused, even at a table that hands the players the GM's levers, and
    her form never offers it; the GM types one in (0 for the flat-footed, § 5.10)."""
    state, _ = play(seated(), {"kind": "join-fight", "character": "c1"}, ADA)
    trusting = state.model_copy(
        update={"options": SESSION.new({"players_set_difficulty": True}).options}
    )
    typed = combat({"action": "set_initiative", "id": "Ada", "value": 30})
    with pytest.raises(TabletopError, match="not open now"):
        SESSION.resolve(state, typed, ADA, FixedDice(()))
    said = re.escape("a player's initiative is rolled by the table, 1d20 + wits (§ 5.1)")
    with pytest.raises(PermissionDenied, match=said):
        SESSION.resolve(trusting, typed, ADA, FixedDice(()))
    for table in (state, trusting):
        forms = [o for o in SESSION.legal(table, ADA) if o.kind == "combat" and not o.closed]
        assert all("set_initiative" not in (o.fields["action"].shapes or ()) for o in forms)
    _, (line,) = play(state, combat({"action": "set_initiative", "id": "Ada", "value": 0}), GM)
    assert line.text == "Ada: initiative 0"
    _, (line,) = play(state, combat({"action": "roll_initiative", "id": "Ada"}), ADA, [10])
    assert line.text.startswith("Ada: initiative 26 (1d20")


def test_a_room_of_rules_version_2_is_read_by_those_rules_where_players_set_their_dc():
    """A check Ada made against her own DC 12 under version 2 is what its cause gives when
    read again there; today's rules refuse it."""
    earlier = session_at("constitution", 2)
    ada = Member.player("p1", "Ada's player")
    state = earlier.new()
    new = {"kind": "new-character", "name": "Ada", "character_class": "fighter"}
    for event in earlier.resolve(state, new, ada, FixedDice(ADA_DICE)):
        state = earlier.fold(state, event)
    (told,) = earlier.resolve(state, check(dc=12), ada, FixedDice([10]))
    assert told.text.endswith("25 vs DC 12: success, 3 degrees")
    assert earlier.resolve_again(state, told.cause) == [told]
    assert SESSION.version == 5
