"""An attack on someone as the book chains it (RU-A49..RU-A53): pay the weapon's speed,
roll to hit the target's To-Hit, roll damage, the GM deals it. Each step is its own entry,
offered only to whoever the rules ask, kept in the state across a reload; a hidden NPC's
numbers stay its own. Fixed dice, against the book's sneering guard (STR 3, hidden)."""

from __future__ import annotations

import pytest

from tabletop.dice import FixedDice
from tabletop.errors import TabletopError
from tabletop.systems.ap2d6 import SESSION, Ap2d6Table
from tests.systems.ap2d6.test_npcs import guarded, told
from tests.systems.ap2d6.test_session import AYLA, BRAN, GM, WATCHER, play, received

LONGSWORD = {
    "name": "longsword",
    "speed": "(1n1)->(2n1)",
    "to_hit": "DEX",
    "damage": "1d8+STR",
    "damage_type": "S",
}
"""§ Attacking using AP's longsword: (1n1)->(2n1), a d8 slash (its to-hit is the group's)."""

CLUB = {"name": "club", "speed": "(1n1)", "to_hit": "STR", "damage": "1d6+STR", "damage_type": "B"}
DAGGER = {**LONGSWORD, "name": "dagger", "damage": "1d4", "requirements": {"STR": 2}}


def strike(attacker: str, target: str, weapon: str = "longsword") -> dict:
    return {"kind": "strike", "character": attacker, "target": target, "weapon": weapon}


STEPS = ("roll-to-hit", "roll-damage", "deal-damage", "drop-strike")


def in_the_fight() -> Ap2d6Table:
    """Ayla (AGI 2, DEX 0) and the hidden guard in initiative, round 1's Main Phase; the GM
    keeps the group's longsword, club and dagger (RU-S09)."""
    state = guarded()
    for weapon in (LONGSWORD, CLUB, DAGGER):
        state, _ = play(state, {"kind": "keep-weapon", **weapon}, GM)
    state, _ = play(state, {"kind": "start-fight", "characters": ["c1", "n1"]}, GM)
    state, _ = play(state, {"kind": "next-round"}, GM)
    return state


def steps_for(state: Ap2d6Table, member) -> list[str]:
    return [o.text for o in SESSION.legal(state, member) if o.kind in STEPS]


def refused(state: Ap2d6Table, intent: dict, member) -> None:
    """`member` may not send `intent` now, and nothing happens."""
    with pytest.raises(TabletopError):
        SESSION.resolve(state, intent, member, FixedDice([6, 6, 6]))


def test_rua49_ayla_attacks_the_hidden_guard_step_by_step():
    """RU-A49, RU-M19, RU-M28, RU-A01: Ayla pays (1n1), the first cost of the longsword's
    speed; 2d6 [4, 3] + DEX 0 = 7 beats the guard's To-Hit 6; 1d8 [5] + STR 0 = 5
    slashing; the GM deals it: Guard takes 5 (HP 18 → 13). The players read the guard's
    To-Hit as `?` and its HP not at all; each step is offered to Ayla's player (the rolls)
    or the GM (the harm) and to nobody else."""
    state = in_the_fight()
    state, events = play(state, strike("c1", "n1"), AYLA)
    assert told(events, GM) == [
        "Ayla: attack #1 this round: spent (1n1)",
        "Ayla attacks Guard with longsword",
    ]
    assert steps_for(state, AYLA) == ["Ayla's attack on Guard: roll to hit"]
    assert steps_for(state, BRAN) == steps_for(state, WATCHER) == []
    refused(state, {"kind": "roll-to-hit", "character": "c1"}, BRAN)
    refused(state, {"kind": "roll-damage", "character": "c1"}, AYLA)
    refused(state, {"kind": "deal-damage", "character": "c1"}, GM)
    refused(state, {"kind": "drop-strike", "character": "c1"}, AYLA)
    refused(state, strike("c1", "n1"), AYLA)

    state = SESSION.load(state.model_dump(mode="json"))  # a reload keeps the step
    state, events = play(state, {"kind": "roll-to-hit", "character": "c1"}, AYLA, [4, 3])
    assert told(events, GM) == [
        "Ayla rolls to hit Guard (DEX): 2d6 → [4, 3] = 7 +0 = 7 must beat To-Hit 6: a hit"
    ]
    assert (
        told(events, AYLA)
        == told(events, BRAN)
        == ["Ayla rolls to hit Guard (DEX): 2d6 → [4, 3] = 7 +0 = 7 must beat To-Hit ?: a hit"]
    )
    assert steps_for(state, AYLA) == ["Ayla's attack on Guard: roll damage"]
    refused(state, {"kind": "roll-damage", "character": "c1"}, BRAN)
    refused(state, {"kind": "deal-damage", "character": "c1"}, AYLA)

    state, events = play(state, {"kind": "roll-damage", "character": "c1"}, AYLA, [5])
    assert told(events, AYLA) == ["Ayla's damage to Guard: 1d8 → [5] = 5 (S)"]
    assert steps_for(state, AYLA) == []
    assert steps_for(state, GM) == [
        "Ayla's attack on Guard: deal the damage",
        "call off Ayla's attack on Guard",
    ]
    refused(state, {"kind": "deal-damage", "character": "c1"}, AYLA)
    refused(state, {"kind": "deal-damage", "character": "c1"}, BRAN)

    state, events = play(state, {"kind": "deal-damage", "character": "c1"}, GM)
    assert told(events, GM) == ["Guard takes 5 damage (HP 13)"]
    assert told(events, AYLA) == ["Guard takes 5 damage"]
    assert state.characters["n1"].sheet.hp == 13 and state.strikes == {}
    assert "13" not in received(events, state, AYLA)


def test_rua50_the_hidden_guards_attack_keeps_its_roll_and_its_damage_dice():
    """RU-A50, RU-N05: the guard clubs Ayla: 2d6 [2, 2] + STR 3 = 7 beats her To-Hit 6;
    1d6 [4] + 3 = 7 bludgeoning; her armour takes 2 (the group's rule, the GM's call), so
    she takes 5 (HP 18 → 13). The players read that it hit and what she took, never its
    roll or its STR."""
    state = in_the_fight()
    state, begun = play(state, strike("n1", "c1", "club"), GM)
    assert told(begun, GM)[-1] == "Guard attacks Ayla with club"
    assert told(begun, AYLA) == ["Guard: attack", "Guard attacks Ayla"]
    seen = received(begun, state, AYLA)  # the list is everyone's; which one it uses is not
    assert '"weapon": "club"' not in seen and "with club" not in seen
    assert SESSION.view(state, AYLA)["attacks"] == [
        {"character": "n1", "target": "c1", "waits": "roll to hit"}
    ]
    assert steps_for(state, AYLA) == []
    refused(state, {"kind": "roll-to-hit", "character": "n1"}, AYLA)
    state, hit = play(state, {"kind": "roll-to-hit", "character": "n1"}, GM, [2, 2])
    state, damage = play(state, {"kind": "roll-damage", "character": "n1"}, GM, [4])
    state, harm = play(state, {"kind": "deal-damage", "character": "n1", "less": 2}, GM)
    events = hit + damage + harm
    assert told(events, GM) == [
        "Guard rolls to hit Ayla (STR): 2d6 → [2, 2] = 4 +3 = 7 must beat To-Hit 6: a hit",
        "Guard's damage to Ayla: 1d6 → [4] = 4 +3 = 7 (B)",
        "Ayla's armour takes 2 of Guard's 7 damage",
        "Ayla takes 5 damage (HP 13)",
    ]
    assert told(events, AYLA) == [
        "Guard rolls to hit Ayla (STR): ? must beat To-Hit 6: a hit",
        "Guard's damage to Ayla: ? (B)",
        "Ayla's armour takes 2 of Guard's 7 damage",
        "Ayla takes 5 damage (HP 13)",
    ]
    seen = received(events, state, AYLA)
    assert "+3" not in seen and "[2, 2]" not in seen and "[4]" not in seen


def test_rua51_a_miss_ends_the_attack_and_double_sixes_double_the_dice():
    """RU-A51, RU-A13: [3, 3] + 0 = 6 does not beat To-Hit 6 (the defender wins ties): a
    miss, and the attack is over. The second attack pays the longsword's second cost
    (2n1); [6, 6] hits, gives Ayla a temp AP, and rolls two d8 ([3, 4] = 7)."""
    state = in_the_fight()
    state, _ = play(state, strike("c1", "n1"), AYLA)
    state, events = play(state, {"kind": "roll-to-hit", "character": "c1"}, AYLA, [3, 3])
    assert told(events, AYLA)[0].endswith("must beat To-Hit ?: a miss")
    assert state.strikes == {}
    state, events = play(state, strike("c1", "n1"), AYLA)
    assert told(events, AYLA)[0] == "Ayla: attack #2 this round: spent (2n1)"
    state, events = play(state, {"kind": "roll-to-hit", "character": "c1"}, AYLA, [6, 6])
    assert told(events, AYLA)[0].endswith("a hit (double 6s)")
    assert state.fight.character("Ayla").tracker.temp == 1
    state, events = play(state, {"kind": "roll-damage", "character": "c1"}, AYLA, [3, 4])
    assert told(events, AYLA) == [
        "Ayla's damage to Guard: 2d8 → [3, 4] = 7 (S) (double 6s: twice the dice)"
    ]


def test_rua52_the_gm_calls_an_attack_off_and_the_ap_stays_paid():
    """RU-A52: the GM calls off Ayla's attack before its roll; the (1n1) stays spent, and
    ending the fight drops any attack still under way."""
    state = in_the_fight()
    state, _ = play(state, strike("c1", "n1"), AYLA)
    state, events = play(state, {"kind": "drop-strike", "character": "c1"}, GM)
    assert told(events, AYLA) == ["the GM calls off Ayla's attack on Guard"]
    assert state.strikes == {} and state.fight.character("Ayla").tracker.spendable == 2
    state, _ = play(state, strike("c1", "n1"), AYLA)
    state, _ = play(state, {"kind": "end-fight"}, GM)
    assert state.strikes == {}


def test_rua53_an_attack_that_cannot_be_made_is_refused_before_any_ap_is_paid():
    """RU-A53: not on oneself, not on someone out of the fight, not with a weapon the
    rules refuse (a d4 dagger 2 below its STR 2: its damage falls below a d4, RU-M30)."""
    state = in_the_fight()
    state, _ = play(state, {"kind": "new-character", "name": "Cora"}, BRAN)
    for target in ("c1", "c3"):
        refused(state, strike("c1", target), AYLA)
    with pytest.raises(TabletopError, match="below a d4"):
        SESSION.resolve(state, strike("c1", "n1", "dagger"), AYLA, FixedDice([]))


def test_rus06_dealing_the_damage_is_the_players_when_the_table_hands_it_over():
    """RU-S06: with `players_set_difficulty` on, Ayla's player deals her own attack's
    damage."""
    state = in_the_fight()
    state = state.model_copy(
        update={"options": state.options.model_copy(update={"players_set_difficulty": True})}
    )
    state, _ = play(state, strike("c1", "n1"), AYLA)
    state, _ = play(state, {"kind": "roll-to-hit", "character": "c1"}, AYLA, [5, 5])
    state, _ = play(state, {"kind": "roll-damage", "character": "c1"}, AYLA, [2])
    refused(state, {"kind": "deal-damage", "character": "c1"}, BRAN)  # not his attack
    state, events = play(state, {"kind": "deal-damage", "character": "c1"}, AYLA)
    assert told(events, GM) == ["Guard takes 2 damage (HP 16)"]


def test_rus09_the_gm_keeps_the_tables_weapons_and_an_attack_picks_one():
    """RU-S09, RU-G02: the book gives no weapon list, so the GM writes the group's weapons on
    the table's list once (a player may not); an attack picks one by name, and with none on
    the list no attack on someone is offered."""
    state = guarded()
    state, _ = play(state, {"kind": "start-fight", "characters": ["c1", "n1"]}, GM)
    state, _ = play(state, {"kind": "next-round"}, GM)
    assert not [o for o in SESSION.legal(state, AYLA) if o.kind == "strike"]
    keep = {"kind": "keep-weapon", **LONGSWORD}
    refused(state, keep, AYLA)
    state, events = play(state, keep, GM)
    assert told(events, AYLA) == [
        "the GM writes longsword, (1n1)->(2n1), DEX to hit, 1d8+STR (S) on the weapon list"
    ]
    assert SESSION.view(state, AYLA)["weapons"] == [
        {"name": "longsword", "text": "longsword, (1n1)->(2n1), DEX to hit, 1d8+STR (S)"}
    ]
    (offered,) = [o for o in SESSION.legal(state, AYLA) if o.kind == "strike"]
    assert offered.fields["weapon"].values == ("longsword",)
    refused(state, strike("c1", "n1", "axe"), AYLA)
    state, events = play(state, strike("c1", "n1"), AYLA)
    assert told(events, AYLA)[0] == "Ayla: attack #1 this round: spent (1n1)"
    (dropping,) = [o for o in SESSION.legal(state, GM) if o.kind == "drop-weapon"]
    # a standing pick among "What you can do" (was: closed, shown as "Yours to choose now")
    assert not dropping.closed and dropping.fields["name"].values == ("longsword",)
    state, events = play(state, {"kind": "drop-weapon", "name": "longsword"}, GM)
    assert state.weapons == {} and "longsword" in told(events, AYLA)[0]
    assert "longsword" in state.strikes["c1"].weapon.name  # the attack under way keeps it
