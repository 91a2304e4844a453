"""Attacks at a roll-under table as the chapter chains a blow (issue 31; CR-F01..F05): one
action with a target, each step its own entry naming attacker and target, the next step
kept in the table's state and offered only to whoever the rules ask, a kept monster's
numbers kept from the players, on fixed dice that cite § Damage and § Critical damage."""

from __future__ import annotations

import re

import pytest

from tabletop.dice import FixedDice
from tabletop.errors import PermissionDenied, TabletopError
from tabletop.systems.rollunder import SESSION, RollUnderError
from tests.systems.rollunder.test_npcs import PLAYERS, lines, with_hound
from tests.systems.rollunder.test_session import ASH, BO, GM, WATCHER, play, received

ASH_STRIKES = {"kind": "attack", "attacker": "c1", "target": "n1", "weapon": "d8"}
HOUND_BITES = {"kind": "attack", "attacker": "n1", "target": "c1", "weapon": "d6"}


def offered(state, member) -> set[str]:
    return {o.kind for o in SESSION.legal(state, member)}


def test_cr_f_ash_strikes_the_hidden_hound_damage_then_its_armour_then_the_hit():
    """CR-F01 (no roll to hit by default), CR-F02, CR-F03: Ash's d8 shows 5 (§ Damage: no
    explosion); the chain waits for the hound's armour, which only the GM (its player) is
    offered; armour 1 takes off 1 and the hound loses 4 of its 23 health, no critical
    damage (2 × 4 is not over 23, CR-A05). The players read that it took a hit, never its
    armour or health."""
    state, events = play(with_hound(), ASH_STRIKES, ASH, [5])
    assert lines(events, GM) == [
        "Ash attacks Mire hound with d8",
        "Ash rolls damage d8: 5",
        "Ash deals 5 damage",
        "Ash's blow reaches Mire hound: Mire hound's armour comes next",
    ]
    everyone_reads = lines(events, GM)
    for member in PLAYERS:
        assert lines(events, member) == everyone_reads, member.id  # Ash's own roll, whole
    assert (state.attack.step, state.attack.damage, state.pending) == ("armour", 5, None)
    assert "meet-blow" in offered(state, GM)
    for member in (ASH, BO, WATCHER):
        assert "meet-blow" not in offered(state, member) and "attack" not in offered(state, member)

    state, events = play(state, {"kind": "meet-blow", "armour": 1}, GM)
    assert lines(events, GM) == [
        "Mire hound meets Ash's blow",
        "Mire hound's armour 1 takes off 1: 4 damage",
        "Mire hound loses 4 health (23 → 19)",
        "Mire hound: health 19 of 23",
    ]
    for member in PLAYERS:
        assert lines(events, member) == ["Mire hound meets Ash's blow", "Mire hound takes a hit"]
        seen = received(events, state, member)
        for kept in (r"armour 1\b", r"\b19\b", r"\b23\b"):
            assert not re.search(kept, seen), (member.id, kept)
    assert state.attack is None and state.characters["n1"].sheet.health == 19
    assert "attack" in offered(state, ASH)


def test_cr_f_the_hound_bites_ash_whose_player_alone_says_her_armour():
    """CR-F03, CR-M13, CR-M16, CR-M17: the hidden hound's d6 explodes (6, then 3: 6 + 2 =
    8), its weapon and roll kept from the players; Ash's player alone (and the GM) is asked
    for her armour. None: 8 at health 10 of 14 incapacitates her (16 > 10) and rolls an
    injury (16 > 14): the d8 shows 4, Disabled leg, −2 AGI."""
    state, events = play(with_hound(), HOUND_BITES, GM, [6, 3])
    assert lines(events, GM)[0] == "Mire hound attacks Ash with d6"
    for member in PLAYERS:
        assert lines(events, member) == [
            "Mire hound attacks Ash with ?",
            "Mire hound rolls damage",
            "Mire hound's blow reaches Ash: Ash's armour comes next",
        ]
        assert SESSION.view(state, member)["attack"] == {
            "attacker": "n1",
            "target": "c1",
            "step": "armour",
            "text": "Mire hound attacks Ash",
        }
    assert SESSION.view(state, GM)["attack"]["damage"] == 8
    assert "meet-blow" in offered(state, ASH) and "meet-blow" not in offered(state, BO)
    for member in (BO, WATCHER):
        with pytest.raises(PermissionDenied):
            SESSION.resolve(state, {"kind": "meet-blow", "armour": 3}, member, FixedDice([]))
    with pytest.raises(PermissionDenied, match="Ash's player to say"):
        SESSION.apply(state, SESSION.parse_intent({"kind": "meet-blow"}), BO, FixedDice([]))

    state, events = play(state, {"kind": "meet-blow", "armour": 0}, ASH, [4])
    assert lines(events, BO)[0] == "Ash meets Mire hound's blow"
    assert "Ash's injury: Disabled leg" in lines(events, BO)
    ash = state.characters["c1"].sheet
    assert (ash.health, ash.incapacitated, ash.abilities["AGI"], state.attack) == (
        2,
        True,
        8,
        None,
    )
    assert "attack" not in offered(state, ASH)  # incapacitated: she cannot act (CR-F02)


def test_cr_f01_a_table_that_rolls_to_hit_a_miss_ends_the_attack_a_pass_rolls_damage():
    """CR-F01, option `attack_roll = "attacker"`: Ash (STR 12) rolls 15 and misses; then
    3, a pass, and her damage is rolled in the same entry (d8: 2)."""
    state = with_hound().model_copy(
        update={"options": with_hound().options.model_copy(update={"attack_roll": "attacker"})}
    )
    missed, events = play(state, ASH_STRIKES, ASH, [15])
    assert lines(events, BO)[-1] == "Ash's attack misses Mire hound" and missed.attack is None
    hit, events = play(state, ASH_STRIKES, ASH, [3, 2])
    assert lines(events, BO)[-2:] == [
        "Ash deals 2 damage",
        "Ash's blow reaches Mire hound: Mire hound's armour comes next",
    ]
    assert (hit.attack.step, hit.attack.damage) == ("armour", 2)


def test_cr_f03_direct_damage_lands_at_once_without_asking_for_armour():
    """§ Damage: direct damage ignores armour, so the chain does not wait for it."""
    state, events = play(with_hound(), ASH_STRIKES | {"direct": True}, ASH, [4])
    assert lines(events, GM)[-4:-1] == [
        "Ash's blow reaches Mire hound: direct damage ignores armour",
        "direct damage to Mire hound ignores armour: 4",
        "Mire hound loses 4 health (23 → 19)",
    ]
    assert state.attack is None and state.characters["n1"].sheet.health == 19


def test_cr_f02_an_omen_re_roll_of_the_damage_waits_for_ash_then_the_chain_goes_on():
    """CR-A10, CR-S03: Ash (one omen) rolls 1 on her d8; the re-roll is hers to decide;
    she re-rolls (7) and keeps it, and the answer's entry carries the attack on to the
    hound's armour."""
    state, _ = play(with_hound(omens=1, max_omens=1), ASH_STRIKES, ASH, [1])
    assert state.pending is not None and state.attack.step == "damage"
    with pytest.raises(PermissionDenied):
        SESSION.resolve(state, {"kind": "answer", "choice": "reroll Ash"}, BO, FixedDice([7]))
    state, _ = play(state, {"kind": "answer", "choice": "reroll Ash"}, ASH, [7])
    state, events = play(state, {"kind": "answer", "choice": "keep 2"}, ASH)
    assert lines(events, BO)[-1] == "Ash's blow reaches Mire hound: Mire hound's armour comes next"
    assert (state.attack.damage, state.characters["c1"].sheet.omens) == (7, 0)


def test_cr_f05_an_attack_waiting_survives_a_reload_and_the_gm_may_end_it():
    """The next step is the table's state: saved and loaded it waits the same; a second
    attack waits its turn; only the GM ends one."""
    state, _ = play(with_hound(), ASH_STRIKES, ASH, [5])
    state = SESSION.load(state.model_dump(mode="json"))
    assert state.attack.step == "armour" and "meet-blow" in offered(state, GM)
    with pytest.raises(RollUnderError, match="Ash's attack on Mire hound comes first"):
        SESSION.apply(state, SESSION.parse_intent(HOUND_BITES), GM, FixedDice([3]))
    with pytest.raises(PermissionDenied):
        SESSION.resolve(state, {"kind": "end-attack"}, ASH, FixedDice([]))
    state, events = play(state, {"kind": "end-attack"}, GM)
    assert lines(events, ASH) == ["the GM ends Ash's attack on Mire hound"]
    assert state.attack is None and state.characters["n1"].sheet.health == 23


def test_cr_f_an_attack_is_made_with_a_character_one_plays_on_someone_else():
    """CR-S02: Bo's player may not strike with Ash; nobody strikes themselves; the weapon
    is damage dice, refused in one line otherwise."""
    state = with_hound()
    with pytest.raises(RollUnderError, match=r"Attack: Attacker must be Bo$"):
        SESSION.resolve(state, ASH_STRIKES, BO, FixedDice([5]))
    with pytest.raises(PermissionDenied, match="not yours to attack with"):
        SESSION.apply(state, SESSION.parse_intent(ASH_STRIKES), BO, FixedDice([5]))
    with pytest.raises(RollUnderError, match="does not attack themselves"):
        SESSION.resolve(state, ASH_STRIKES | {"target": "c1"}, ASH, FixedDice([5]))
    with pytest.raises(TabletopError, match="damage dice look like d8"):
        SESSION.resolve(state, ASH_STRIKES | {"weapon": "sword"}, ASH, FixedDice([5]))


def field(state, member, kind: str, name: str):
    """What `member`'s offer of `kind` says of its field `name`."""
    return next(o for o in SESSION.legal(state, member) if o.kind == kind).fields[name]


def test_cr_f_an_attack_form_starts_on_someone_other_than_the_attacker():
    """Issue 30: the attack form started with the target set to the attacker, which the
    rules refuse. The offer's target starts on the first one alive who is not the first
    attacker: Bo for the GM (whose first attacker is Ash), Bo again for Ash's player."""
    state = with_hound()
    for member in (GM, ASH):
        attacker = field(state, member, "attack", "attacker").values[0]
        target = field(state, member, "attack", "target")
        assert (attacker, target.example) == ("c1", "c2")
        assert target.example in target.values
    assert field(state, BO, "attack", "target").example == "c1"


def test_cr_a13_an_activation_begins_with_whoever_is_at_the_table_to_pick():
    """Issue 30: "Who acts" was a bare text box. The GM picks from the characters and NPCs
    alive at the table, by name (the hidden hound too: the offer is the GM's alone), and
    may still name a creature with no sheet there (CR-A13, the orc of test_session)."""
    state = with_hound()
    assert field(state, GM, "begin-activation", "actor").names == ("Ash", "Bo", "Mire hound")
    assert "begin-activation" not in offered(state, ASH)
    state, _ = play(state, {"kind": "die", "character": "c2", "cause": "a fall"}, GM)
    assert field(state, GM, "begin-activation", "actor").names == ("Ash", "Mire hound")
    state, events = play(state, {"kind": "begin-activation", "actor": "the orc"}, GM)
    assert lines(events, GM) == ["the orc's activation begins"]
