"""The roll-under GM's monsters (CR-N01, CR-N02) and secret characters (CR-S04): typed in,
since the chapter has none; each a secret character marked as an NPC, in contests and hits
like any character, its sheet the GM's until shown, and hidden again if the GM takes that
back. Each kind of line that holds a kept character's part, with fixed dice, read exactly as
the GM reads it and as a player does, with the draws a player is shown apart; and the law a
table with a hidden NPC and a secret character obeys, over hypothesis walks."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.errors import TabletopError
from tabletop.session import Member, Visibility
from tabletop.systems.rollunder import SESSION, RollUnderError, RollUnderTable
from tests.effort import tried
from tests.session_laws import NO_VALUE, Offer, Pick, Table, check_hidden_npc_laws, check_laws
from tests.systems.rollunder.test_session import (
    ASH,
    BO,
    GM,
    WATCHER,
    character,
    fill,
    play,
    received,
    seated,
)

HOUND = {
    "kind": "new-npc",
    "name": "Mire hound",
    "stats": {"abilities": {"STR": 17, "AGI": 15, "WIT": 4}, "max_health": 23},
}
PLAYERS = (ASH, BO, WATCHER)


def with_hound(hound_omens: int = 0, **ash: Any) -> RollUnderTable:
    """Ash (STR 12, health 10 of 14) and Bo at the table, and the GM's hidden Mire hound
    (STR 17, 23 health, `hound_omens` omens)."""
    hound = {**HOUND, "stats": {**HOUND["stats"], "omens": hound_omens}}
    state, _ = play(seated(**ash), hound, GM)
    return state


def lines(events, member: Member) -> list[str]:
    """Every line `member` reads of these events, in order."""
    return [shown.text for e in events if (shown := SESSION.view_event(e, member)) is not None]


def shown_apart(events, member: Member) -> list[tuple[int, int]]:
    """The draws `member` is shown apart (sides, face): their own dice in a
    resolution that keeps a part from them."""
    found = []
    for event in events:
        shown = SESSION.view_event(event, member)
        if shown is not None:
            found += [(d["sides"], d["face"]) for d in shown.data.get("draws", ())]
    return found


def everyone_else_reads(events, expected: list[str]) -> None:
    for member in PLAYERS:
        assert lines(events, member) == expected, member.id


# the monster at the table -----------------------------------------------------------------


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
    assert SESSION.kept_from_players(state) == {"n1": "Mire hound"}
    assert not any(o.kind == "new-npc" for o in SESSION.legal(state, ASH))
    reveal_character = [o for o in SESSION.legal(state, GM) if o.kind == "reveal-character"]
    assert not reveal_character  # an NPC is shown, and hidden again, with reveal-npc
    with pytest.raises(RollUnderError, match="abilities"):
        bad = {**HOUND, "name": "Wisp", "stats": {"abilities": {"STR": 3}, "max_health": 2}}
        play(state, bad, GM)


def test_cr_n02_shown_its_lines_are_everyones_and_hidden_again_the_gms():
    """CR-N02: once the GM shows the hound its contest lines reach everyone whole; hidden
    again, its sheet and its lines are the GM's once more."""
    sides = [{"name": "us", "characters": ["c1"]}, {"name": "them", "characters": ["n1"]}]
    contest = {"kind": "contest", "ability": "STR", "sides": sides, "rolls": 1}
    state, _ = play(with_hound(), {"kind": "reveal-npc", "npc": "n1", "revealed": True}, GM)
    assert SESSION.view(state, ASH)["npcs"][0]["stats"]["abilities"]["STR"] == 17
    assert SESSION.kept_from_players(state) == {}
    _, events = play(state, contest, GM, [5, 3, 6, 18])
    assert lines(events, ASH) == lines(events, GM)
    state, _ = play(state, {"kind": "reveal-npc", "npc": "n1", "revealed": False}, GM)
    assert state.characters["n1"].secret
    assert SESSION.view(state, ASH)["characters"][2]["sheet"] == {
        "hidden": "a sheet the GM keeps secret"
    }
    _, events = play(state, contest, GM, [5, 3, 6, 18])
    assert "tie-break round: us 1, them ?" in lines(events, ASH)


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
    assert events[0].text == "Mire hound: STR 17, AGI 15, WIT 4; health 23 of 23"
    recruit = {"kind": "recruit-follower", "leader": "n1", "sheet": character("Pup")}
    state, events = play(state, recruit, GM)
    assert lines(events, ASH) == ["Pup now follows Mire hound", "the GM brings Pup to the table"]
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


# a contest: everything of Ash's, the ranking, nothing of the hound's ----------------------

SIDES = [{"name": "us", "characters": ["c1"]}, {"name": "them", "characters": ["n1"]}]
CONTEST = {"kind": "contest", "ability": "STR", "sides": SIDES, "rolls": 2}


def test_cr_s04_a_contest_against_the_hidden_hound_shows_ash_all_of_his_side_and_the_ranking():
    """CR-S04, CR-N02, § Ability Contests: Ash (STR 12) rolls 5 and 19, the hound (STR 17)
    3 and 4. The GM reads every roll; the players read Ash's rolls whole, the hound's
    successes as `?` and not its rolls, and the ranking; Ash's player is shown his two d20s
    apart (the dice of the resolution's first line), the hound's never. The outcome tells
    everyone the ranking and the shown side's successes, so Ash's result panel has them."""
    state, events = play(with_hound(), CONTEST, GM, [5, 19, 3, 4])
    assert lines(events, GM) == [
        "a contest of STR, 2 rolls each: us (Ash) against them (Mire hound)",
        "Ash rolls 5 against STR 12: pass",
        "Ash rolls 19 against STR 12: fail",
        "Ash passes 1 of 2 rolls",
        "Mire hound rolls 3 against STR 17: pass",
        "Mire hound rolls 4 against STR 17: pass",
        "Mire hound passes 2 of 2 rolls",
        "ranking, best first: them; us",
        "ranking: them; us",
    ]
    everyone_else_reads(
        events,
        [
            "a contest of STR, 2 rolls each: us (Ash) against them (Mire hound)",
            "Ash rolls 5 against STR 12: pass",
            "Ash rolls 19 against STR 12: fail",
            "Ash passes 1 of 2 rolls",
            "Mire hound passes ? of 2 rolls",
            "ranking, best first: them; us",
            "ranking: them; us",
        ],
    )
    assert shown_apart(events, ASH) == [(20, 5), (20, 19)]
    assert shown_apart(events, GM) == []
    outcome = SESSION.view_event(events[-1], ASH)
    assert outcome.visibility == Visibility.PUBLIC and outcome.data == {
        "rule": "contest",
        "outcome": {
            "places": [{"sides": ["them"], "successes": None}, {"sides": ["us"], "successes": 1}],
            "successes": {"us": 1},
            "omens_spent": {"Ash": 0},
        },
    }
    assert "against STR 17" not in received(events, state, ASH)


def test_cr_s04_the_hounds_decisions_are_the_gms_and_ash_still_sees_his_dice_apart():
    """CR-S03, CR-S04: the hound rolls first and holds an omen, so each of its rolls waits
    for the GM; Ash's player reads that a decision kept from him waits, as his view says,
    and is offered nothing to answer. Each answer reaches the players as `GM answers a
    decision kept from you`: the first line of the step that rolls Ash's dice, it carries
    them apart."""
    state, events = play(with_hound(1), {**CONTEST, "sides": SIDES[::-1]}, GM, [3])
    assert lines(events, GM) == [
        "a contest of STR, 2 rolls each: them (Mire hound) against us (Ash)",
        "Mire hound's STR roll 1 of 2: 3; Mire hound chooses whether to keep it or spend an omen to"
        " re-roll it",
    ]
    everyone_else_reads(
        events,
        [
            "a contest of STR, 2 rolls each: them (Mire hound) against us (Ash)",
            "a decision kept from you waits for the GM",
        ],
    )
    assert SESSION.view(state, ASH)["pending"]["decision"] == {
        "hidden": "a decision on a roll kept from you"
    }
    assert not any(o.kind == "answer" for o in SESSION.legal(state, ASH))
    state, events = play(state, {"kind": "answer", "choice": "keep 1"}, GM, [4])
    everyone_else_reads(
        events,
        ["GM answers a decision kept from you", "a decision kept from you waits for the GM"],
    )
    state, events = play(state, {"kind": "answer", "choice": "keep 1"}, GM, [5, 19])
    assert lines(events, GM) == [
        "GM: Keep result 1",
        "Mire hound rolls 4 against STR 17: pass",
        "Mire hound passes 2 of 2 rolls",
        "Ash rolls 5 against STR 12: pass",
        "Ash rolls 19 against STR 12: fail",
        "Ash passes 1 of 2 rolls",
        "ranking, best first: them; us",
        "ranking: them; us",
    ]
    everyone_else_reads(
        events,
        [
            "GM answers a decision kept from you",
            "Mire hound passes ? of 2 rolls",
            "Ash rolls 5 against STR 12: pass",
            "Ash rolls 19 against STR 12: fail",
            "Ash passes 1 of 2 rolls",
            "ranking, best first: them; us",
            "ranking: them; us",
        ],
    )
    assert shown_apart(events, ASH) == [(20, 5), (20, 19)]
    assert state.characters["n1"].sheet.omens == 1  # kept, not spent


def test_cr_a16_a_tie_break_against_the_hound_shows_its_successes_as_a_question_mark():
    """CR-A16, CR-S04: one roll each, both pass (5 and 3); the tie-break gives Ash 6 (pass)
    and the hound 18 (fail): the players read the round with the hound's side as `?`."""
    _, events = play(with_hound(), {**CONTEST, "rolls": 1}, GM, [5, 3, 6, 18])
    assert lines(events, GM)[-4:] == [
        "Mire hound rolls 18 against STR 17: fail",
        "tie-break round: us 1, them 0",
        "ranking, best first: us; them",
        "ranking: us; them",
    ]
    assert lines(events, ASH)[-5:] == [
        "Mire hound passes ? of 1 roll",
        "Ash rolls 6 against STR 12: pass",
        "tie-break round: us 1, them ?",
        "ranking, best first: us; them",
        "ranking: us; them",
    ]
    assert shown_apart(events, ASH) == [(20, 5), (20, 6)]


# a collective roll: the group's die and verdict are everyone's ----------------------------


GROUP_STR = "the STR roll of the group (Ash, Mire hound)"


def test_cr_m02_a_group_roll_with_the_hound_hides_only_its_best_score_and_its_re_roll():
    """CR-M02, CR-A10, CR-S04: one d20 for Ash (an omen) and the hound (an omen): 19. The
    players read the group's die and the decision, but Ash's player is offered only his own
    re-roll, the decision he sees lists no re-roll of the hound's nor whether a result
    passed (against a best score that is the hound's). The GM re-rolls with the hound's
    omen (`GM: Re-roll with ?'s omen` to the players), keeps 16: the best STR 17 reads `?`;
    the group's verdict and its die are everyone's."""
    group = {"kind": "collective-roll", "characters": ["c1", "n1"], "ability": "STR"}
    state, events = play(with_hound(1, omens=1, max_omens=1), group, GM, [19])
    decided = f"{GROUP_STR}: 19; the group keeps it, or one of them may spend an omen to re-roll it"
    assert lines(events, GM) == [decided]
    everyone_else_reads(events, [decided])
    assert shown_apart(events, ASH) == [(20, 19)]
    seen = SESSION.view(state, ASH)["pending"]["decision"]
    assert seen["choices"] == ["keep 1", "reroll Ash"] and "passes" not in seen
    assert SESSION.view(state, GM)["pending"]["decision"]["choices"] == [
        "keep 1",
        "reroll Ash",
        "reroll Mire hound",
    ]
    assert [o.intents for o in SESSION.legal(state, ASH) if o.kind == "answer"] == [
        ({"kind": "answer", "choice": "reroll Ash"},)
    ]
    state, events = play(state, {"kind": "answer", "choice": "reroll Mire hound"}, GM, [16])
    again = f"{GROUP_STR}: 19, then re-rolled: 16; the group chooses which result stands"
    assert lines(events, GM) == ["GM: Re-roll with Mire hound's omen", again]
    everyone_else_reads(events, ["GM: Re-roll with ?'s omen", again])
    assert shown_apart(events, ASH) == [(20, 16)]
    state, events = play(state, {"kind": "answer", "choice": "keep 2"}, GM)
    assert lines(events, GM) == [
        "GM: Keep result 2",
        f"Mire hound spends an omen to re-roll {GROUP_STR}",
        f"the group keeps 16 of 19, 16 for {GROUP_STR}",
        "the group (Ash, Mire hound) rolls 16 against its best STR 17",
        "the group (Ash, Mire hound) passes the STR roll",
        "the roll of Ash and Mire hound passes",
    ]
    everyone_else_reads(
        events,
        [
            "GM: Keep result 2",
            f"the group keeps 16 of 19, 16 for {GROUP_STR}",
            "the group (Ash, Mire hound) rolls 16 against its best STR ?",
            "the group (Ash, Mire hound) passes the STR roll",
            "the roll of Ash and Mire hound passes",
        ],
    )
    outcome = SESSION.view_event(events[-1], ASH).data["outcome"]
    assert [sheet["name"] for sheet in outcome["characters"]] == ["Ash"]
    assert state.characters["n1"].sheet.omens == 0


# the hound's own rolls and hits: words, and nothing of how they went ----------------------


@pytest.mark.parametrize(
    ("mode", "told"),
    [
        ("public", ["Mire hound makes a STR roll"]),
        ("blind", ["GM made a blind roll for the GM"] * 2),
        ("gm", ["GM rolled for the GM"] * 2),
    ],
)
def test_cr_s06_the_hounds_own_roll_reads_like_any_characters_made_so(mode, told):
    """CR-S04, CR-S06: the GM rolls the hound's STR (16, a pass). In the open the players
    read that it rolled STR, not how it went; made blind or for the GM, exactly what the
    same roll of Ash's made so tells them."""
    roll = {"kind": "ability-roll", "character": "n1", "ability": "STR", "mode": mode}
    _, events = play(with_hound(), roll, GM, [16])
    assert lines(events, GM) == [
        "Mire hound rolls 16 against STR 17: pass",
        "Mire hound's roll passes",
    ]
    everyone_else_reads(events, told)
    if mode != "public":
        _, ashs = play(with_hound(), {**roll, "character": "c1"}, GM, [16])
        assert lines(ashs, BO) == told


def test_cr_s04_a_hit_on_the_hound_reads_as_a_hit_and_nothing_of_its_injury():
    """§ Critical damage, CR-S04: 20 damage at health 23 incapacitates the hound and rolls
    an injury (3: Disabled arm, −2 STR, health following STR). The players read only that
    it takes a hit."""
    state, events = play(
        with_hound(), {"kind": "suffer-hit", "character": "n1", "damage": "20"}, GM, [3]
    )
    assert lines(events, GM) == [
        "Mire hound's armour 0 takes off 0: 20 damage",
        "Mire hound loses 20 health (23 → 3)",
        "Mire hound is incapacitated until the next stretch (critical damage)",
        "Mire hound's injury: Disabled arm",
        "Mire hound gains the trait Disabled arm (until downtime)",
        "Mire hound loses 2 STR (17 → 15)",
        "Mire hound's health follows STR: 1 of 21 (never critical damage)",
        "Mire hound: health 1 of 21",
    ]
    everyone_else_reads(events, ["Mire hound takes a hit"])
    assert shown_apart(events, ASH) == []
    assert not re.search(r'"(max_)?health": (1|21)\b', received(events, state, ASH))


def test_cr_s04_the_hound_bites_ash_and_ash_reads_the_whole_hit():
    """§ Damage, CR-S04: the GM rolls the hound's d6 (4), which the players learn it rolled;
    the hit on Ash of that damage is Ash's, read whole by everyone."""
    state, events = play(
        with_hound(), {"kind": "roll-damage", "character": "n1", "damage": "d6"}, GM, [4]
    )
    assert lines(events, GM) == ["Mire hound rolls damage d6: 4", "Mire hound deals 4 damage"]
    everyone_else_reads(events, ["Mire hound rolls damage"])
    _, events = play(state, {"kind": "suffer-hit", "character": "c1", "damage": "4"}, GM)
    told = [
        "Ash's armour 0 takes off 0: 4 damage",
        "Ash loses 4 health (10 → 6)",
        "Ash: health 6 of 14",
    ]
    assert lines(events, GM) == told
    everyone_else_reads(events, told)


def test_cr_m19b_the_hounds_death_save_is_the_gms_and_reaches_the_players_as_an_answer():
    """§ Health loss, CR-A13, CR-M19b, CR-S04: at health 1 the hound takes 1 and is dying;
    when Ash's activation ends it faces death and the GM spends its omen to save it. The
    players read the activation's start and end, that the GM answered a decision kept from
    them (their view showed it waiting), and nothing of the hound's dying or its save."""
    state = with_hound(1)
    state, _ = play(state, {"kind": "edit-npc", "npc": "n1", "stat": "health", "value": "1"}, GM)
    state, events = play(state, {"kind": "suffer-hit", "character": "n1", "damage": "1"}, GM)
    everyone_else_reads(events, ["Mire hound takes a hit"])
    state, events = play(state, {"kind": "begin-activation", "actor": "Ash"}, GM)
    assert lines(events, GM) == [
        "Ash's activation begins",
        "Mire hound dies at the end of Ash's activation unless saved",
    ]
    everyone_else_reads(events, ["Ash's activation begins"])
    state, events = play(state, {"kind": "end-activation"}, GM)
    everyone_else_reads(
        events, ["Ash's activation ends", "a decision kept from you waits for the GM"]
    )
    assert SESSION.view(state, ASH)["pending"]["decision"] == {
        "hidden": "a decision on a roll kept from you"
    }
    state, events = play(state, {"kind": "answer", "choice": "save"}, GM)
    assert lines(events, GM) == [
        "GM: Spend omens to be saved",
        "Mire hound spends an omen to be saved from death",
        "Mire hound is saved from death: health back to 1",
        "Mire hound: health 1 of 23",
    ]
    everyone_else_reads(events, ["GM answers a decision kept from you"])


def test_cr_s04_steps_without_dice_tell_what_anyone_sees_and_nothing_of_its_sheet():
    """CR-S04, CR-S05, CR-S08: healing the hound, a roll the GM calls trivial, its death the
    GM declares: words that hide nothing reach the players as they are; of the GM's notes
    on its sheet they read only that the GM changes it."""
    state = with_hound()
    for intent, told in (
        ({"kind": "heal", "character": "n1", "amount": 2}, ["Mire hound is healed"]),
        (
            {"kind": "write-notes", "character": "n1", "notes": "lair qz"},
            ["the GM changes Mire hound"],
        ),
        (
            {"kind": "ability-roll", "character": "n1", "ability": "STR", "level": "trivial"},
            [
                "Mire hound passes the STR roll (trivial: no roll needed)",
                "Mire hound's roll passes",
            ],
        ),
        ({"kind": "die", "character": "n1", "cause": "a fall"}, ["Mire hound dies (a fall)"]),
    ):
        state, events = play(state, intent, GM)
        everyone_else_reads(events, told)
    assert lines(events, GM) == ["Mire hound dies (a fall)"]


# the law ----------------------------------------------------------------------------------

WIGHT = {
    "kind": "new-npc",
    "name": "Bog wight",
    "stats": {"abilities": {"STR": 737, "AGI": 646, "WIT": 555}, "max_health": 913, "omens": 2},
}
GRUE = character(
    "Grue",
    abilities={"STR": 828, "AGI": 717, "WIT": 606},
    max_health=909,
    health=909,
    omens=1,
    max_omens=1,
)
KEPT = (r"\b73\d\b", r"\b64\d\b", r"\b55\d\b", r"\b82\d\b", r"\b71\d\b", r"\b60\d\b")
"""The wight's and Grue's scores, a point or two either way: no rule gives anyone else such
numbers."""
HEALTH = r"\b(8[6-9]\d|9[01]\d)\b"
"""Their health, whatever hits and healing did to it on a walk."""

SIDES_WITH_KEPT = (
    [{"name": "us", "characters": ["c1"]}, {"name": "them", "characters": ["n1"]}],
    [{"name": "them", "characters": ["n1"]}, {"name": "us", "characters": ["c1", "c2"]}],
    [
        {"name": "us", "characters": ["c1", "c3"]},
        {"name": "them", "characters": ["n1"]},
        {"name": "rival", "scores": [{"name": "Rival", "score": 10, "omens": 1}]},
    ],
    [{"name": "them", "characters": ["n1"]}, {"name": "others", "characters": ["c3"]}],
)


def kept_table() -> RollUnderTable:
    """Ash and Bo (two omens each), the GM's hidden Bog wight (n1) and secret Grue (c3)."""
    state, _ = play(seated(omens=2, max_omens=2), WIGHT, GM)
    state, _ = play(state, {"kind": "import-character", "sheet": GRUE, "secret": True}, GM)
    return state


def fill_with_kept(offer: Offer, name: str, pick: Pick, marker: str) -> Any:
    """The session test's values, with the kept characters in groups and contests."""
    if name == "characters":
        return pick([["c1", "n1"], ["n1", "c3"], ["c1", "c3", "c2"], ["c1"]])
    if name == "sides":
        return pick(SIDES_WITH_KEPT)
    found = fill(offer, name, pick, marker)
    return NO_VALUE if found is NO_VALUE else found


class Offering:
    """The session, offering only the kinds of intent `offered` allows: walks of the rules
    that matter here, where every member's offers would otherwise be equally likely."""

    def __init__(self, offered: Callable[[str], bool]) -> None:
        self.offered = offered

    def __getattr__(self, name: str) -> Any:
        return getattr(SESSION, name)

    def legal(self, state: RollUnderTable, member: Member) -> list[Offer]:
        return [o for o in SESSION.legal(state, member) if self.offered(o.kind)]


SHOWING = frozenset({"reveal-character", "reveal-npc"})
"""What shows a kept sheet to everyone, which a walk that searches for its numbers leaves out
(CR-N02 tests it above)."""

SHARED = frozenset({"contest", "collective-roll", "answer"})
"""The rules a kept character shares with others, and the answers to their decisions."""

KEPT_TABLE = Table(
    Offering(lambda kind: kind not in SHOWING),  # type: ignore[arg-type]
    [GM, ASH, WATCHER],
    filler=fill_with_kept,
    start=kept_table,
)
"""The GM, Ash's player and an observer: the GM's many offers come up more often than with
a second player."""

SHARED_TABLE = Table(
    Offering(SHARED.__contains__),  # type: ignore[arg-type]
    [GM, ASH, WATCHER],
    filler=fill_with_kept,
    start=kept_table,
)
"""Walks of contests and group rolls, where kept and shown parts mix."""


@settings(max_examples=tried(12), deadline=None)
@given(data=st.data(), seed=st.integers(0, 10_000))
def test_a_table_with_a_hidden_npc_and_a_secret_character_keeps_their_numbers(data, seed):
    """CR-S04, CR-N02 (docs/rooms.md, "What a member sees of an NPC's line"): on walks of a
    table that keeps the Bog wight and Grue, no byte a player or the observer receives holds
    their scores or health, no cause that kept something reaches them, no mark reaches
    anyone; and every session law holds there too (a hint carries no facts but the draws
    shown apart)."""
    pick = lambda items: data.draw(st.sampled_from(list(items)))  # noqa: E731
    walk = check_hidden_npc_laws(KEPT_TABLE, pick, (*KEPT, HEALTH), steps=25, seed=seed)
    assert walk.steps
    check_laws(KEPT_TABLE, pick, steps=15, seed=seed)


@settings(max_examples=tried(12), deadline=None)
@given(data=st.data(), seed=st.integers(0, 10_000))
def test_contests_and_group_rolls_shared_with_kept_characters_show_the_players_all_of_theirs(
    data, seed
):
    """CR-S04, CR-N02, CR-S06: walks of contests and collective rolls among Ash, Bo, the Bog
    wight, Grue and bare scores, in every mode, every decision answered: no player receives
    the kept numbers, and every line about Ash or Bo is told as its mode tells it, a player
    who sees it reading it whole (with the draws shown apart on a resolution's first
    line)."""
    pick = lambda items: data.draw(st.sampled_from(list(items)))  # noqa: E731
    walk = check_hidden_npc_laws(SHARED_TABLE, pick, (*KEPT, HEALTH), steps=20, seed=seed)
    for event in walk.events:
        if event.data.get("character") not in ("Ash", "Bo"):
            continue
        assert event.visibility != Visibility.GM, "only a roll's mode keeps Ash's line"
        if event.visibility == Visibility.HIDDEN:
            assert event.hint.endswith("made a blind roll for the GM")
        if event.seen_by(ASH):
            shown = SESSION.view_event(event, ASH)
            assert shown.text == event.text and shown.data == {**event.data, **shown.data}
