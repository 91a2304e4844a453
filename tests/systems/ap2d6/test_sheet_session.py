"""The 2d6 sheet at a shared table: what is carried in the personal space and the bag, with
[encumbered] following the load (RU-S01); skill points the GM awards and the player spends
(RU-S02); names kept unique and fixed while a fight knows them (RU-S03); checks from a
score's row. Dice are fixed faces."""

from __future__ import annotations

from typing import Any

import pytest

from tabletop.dice import FixedDice
from tabletop.errors import PermissionDenied, TabletopError
from tabletop.session import Member
from tabletop.systems.ap2d6 import SESSION, Ap2d6Table
from tests.systems.playing import played

GM = Member.gm()
AYLA = Member.player("p1", "Ayla's player")
BRAN = Member.player("p2", "Bran's player")


def play(state: Ap2d6Table, intent: dict[str, Any], member: Member, faces=()) -> tuple:
    return played(SESSION, state, intent, member, faces)


def seated() -> Ap2d6Table:
    """Ayla (AGI 2, 6 SP left of 9) played by p1; Bran by p2."""
    state, _ = play(
        SESSION.new(), {"kind": "new-character", "name": "Ayla", "scores": {"AGI": 2}}, AYLA
    )
    state, _ = play(state, {"kind": "new-character", "name": "Bran"}, BRAN)
    return state


def ayla(state: Ap2d6Table):
    return state.characters["c1"].sheet


def refused(state: Ap2d6Table, intent: dict[str, Any], member: Member = AYLA) -> str:
    with pytest.raises(TabletopError) as refusal:
        SESSION.resolve(state, intent, member, FixedDice([]))
    return str(refusal.value)


def carry(state: Ap2d6Table, item: dict[str, Any], in_bag: bool = False) -> tuple:
    return play(
        state, {"kind": "stow-item", "character": "c1", "item": item, "in_bag": in_bag}, AYLA
    )


def test_ru_s01_the_load_lives_on_the_sheet_and_encumbered_follows_it():
    """RU-M49..M52: personal space [encumbered] past 3 + STR, at most 6 + STR (STR 0); a
    bag's own threshold; moving the load into the bag lifts [encumbered]."""
    state = seated()
    for _ in range(2):
        state, _ = carry(state, {"name": "greataxe", "kind": "heavy-weapon"})
    assert ayla(state).has("encumbered")  # 4 encs past the personal threshold of 3
    anvil = {"name": "anvil", "kind": "other", "encs": 3}
    assert "personal holds 7 encs, more than its maximum of 6" in refused(
        state, {"kind": "stow-item", "character": "c1", "item": anvil}
    )
    state, _ = play(
        state,
        {
            "kind": "use-bag",
            "character": "c1",
            "bag": {"name": "pack", "threshold": 4, "maximum": 8},
        },
        AYLA,
    )
    move = next(
        o
        for o in SESSION.legal(state, AYLA)
        if o.entry == "carried.personal.0" and o.kind == "move-item"
    )
    state, events = play(state, move.intents[0], AYLA)
    assert events[0].text == "Ayla moves greataxe into the bag (personal 2/6, pack 2/8 encs)"
    assert [e.type for e in events][1:] == ["unencumbered"] and not ayla(state).has("encumbered")
    view = SESSION.view(state, BRAN)["characters"][0]
    assert [s["encs"] for s in view["derived"]["spaces"]] == [2, 2]
    assert view["sheet"]["carried"]["bag"]["name"] == "pack"


def test_ru_s02_skill_points_come_from_the_gm_and_go_on_scores_and_skills():
    """RU-M07: raising AGI 2 to 3 costs 3; the GM awards the points (the table's call)."""
    state = seated()
    assert ayla(state).unspent_sp == 6
    with pytest.raises(PermissionDenied):
        SESSION.resolve(
            state, {"kind": "award-sp", "character": "c1", "points": 5}, AYLA, FixedDice([])
        )
    raise_agi = next(
        o for o in SESSION.legal(state, AYLA) if o.entry == "scores.AGI" and o.kind == "raise-score"
    )
    assert raise_agi.text == "raise (3 SP)"
    state, events = play(state, raise_agi.intents[0], AYLA)
    assert events[0].text == "Ayla: AGI 2 → 3 for 3 SP" and ayla(state).unspent_sp == 3
    state, _ = play(
        state, {"kind": "buy-skill", "character": "c1", "skill": "STEALTH", "cost": 3}, AYLA
    )
    assert ayla(state).skills == {"STEALTH": 3} and ayla(state).unspent_sp == 0
    assert "costs 4 SP; 0 left" in refused(
        state, {"kind": "raise-score", "character": "c1", "score": "AGI"}
    )
    state, _ = play(state, {"kind": "award-sp", "character": "c1", "points": 4}, GM)
    assert ayla(state).unspent_sp == 4


def test_ru_s03_a_name_stays_unique_and_waits_for_the_end_of_a_fight():
    state = seated()
    assert "already a character called Bran" in refused(
        state, {"kind": "rename-character", "character": "c1", "name": "Bran"}
    )
    state, _ = play(state, {"kind": "start-fight", "characters": ["c1", "c2"]}, GM)
    assert "rename them after it" in refused(
        state, {"kind": "rename-character", "character": "c1", "name": "Aylin"}
    )
    state, _ = play(state, {"kind": "next-round"}, GM, [3, 3, 4, 4])
    state, _ = play(state, {"kind": "end-fight"}, GM)
    state, _ = play(state, {"kind": "rename-character", "character": "c1", "name": "Aylin"}, AYLA)
    assert ayla(state).name == "Aylin"


def test_each_score_row_checks_that_score():
    state = seated()
    agi = next(
        o for o in SESSION.legal(state, AYLA) if o.entry == "scores.AGI" and o.kind == "check"
    )
    assert agi.preset == {"character": "c1", "score": "AGI"}
    state, events = play(state, {"kind": "check", "character": "c1", "score": "AGI"}, AYLA, [3, 4])
    assert events[0].text == "Ayla (AGI): 2d6 → [3, 4] = 7 +2 = 9, for the GM to judge"
