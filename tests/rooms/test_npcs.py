"""NPCs through the server, every RPG: the GM keeps an NPC whose numbers are unusual, it takes
part in a test, a fight or a contest with Ada's character, and every byte Ada and the
observer receive (their sockets' frames, every HTTP answer: the acts, view, legal, log and
export) is searched for those numbers; once the GM shows them, they reach Ada."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from tabletop.rooms.checking import entry_check
from tabletop.rooms.client import RoomClient
from tabletop.rooms.verify import verify
from tests.rooms.conftest import Party, Recorder, party, seat


def offers(client: RoomClient, kind: str) -> list[dict[str, Any]]:
    return [o for o in client.legal()["offers"] if o["kind"] == kind]


def dead_weight(p: Party, said: list[Any]) -> list[str]:
    """DW-N04: a wight of level 11 that dies past 19 wounds, in an opposed test with Amber
    played to its verdict, then wounded (DW-M45). Ada reads Amber's test whole and the
    wight's in words, and the test's first line brings her Amber's die apart, which "check
    this roll" checks against the open key its header shows; the wight's eleven dice never
    reach her, nor where hers fall among them (that would count them)."""
    p.gm.act({"kind": "new-npc", "name": "Wight qz", "stats": {"level": 11, "wound_limit": 19}})
    said.append(p.ada.act({"kind": "import-character", "sheet": {"name": "Amber"}}))
    first = {"character": "c1", "setup": {"attribute": "DEX"}}
    second = {"kept": "n1", "setup": {"attribute": "STR"}}
    p.gm.act({"kind": "opposed-test", "first": first, "second": second})
    lines = [json.loads(line) for line in p.ada.export()[:-1]]
    start = next(
        i for i, line in enumerate(lines) if line.get("event", {}).get("type") == "test announced"
    )
    texts = [line["event"]["text"] for line in lines[start:]]
    assert texts[0] == "Amber: DEX test, 1 die"
    assert "Wight qz: STR test" in texts and "Wight qz rolls its dice" in texts
    hers = []  # Amber's dice of each round, the wight's eleven between them kept
    for text in texts:
        if rolled := re.fullmatch(r"Amber's test: rolled \[([\d, ]+)\]( lowest counts)?", text):
            hers += [int(face) for face in rolled[1].split(", ")]
    draws = lines[start]["event"]["data"]["draws"]
    assert draws == [{"sides": 6, "face": face} for face in hers]  # no place among the wight's
    face = hers[0]
    checked = entry_check(p.ada.export(), lines[start]["seq"], None, None)
    # the header shows the open key, which drew her dice alone: she checks them (format 3)
    assert lines[start]["witnessed"]["open"], "the open key is shown beside her dice"
    assert checked["dice"]["state"] == "good", checked["dice"]
    assert [d["face"] for d in checked["dice"]["draws"]] == hers[: len(draws)]
    assert face == draws[0]["face"]
    for _ in range(400):
        open_now = [(c, o) for c in (p.ada, p.gm) for o in offers(c, "pass") if o["intents"]]
        if not open_now:
            break
        client, offer = open_now[0]
        answer = client.act(offer["intents"][0])
        if client is p.ada:
            said.append(answer)
    assert '"opposed"' in "".join(p.ada.log())
    p.gm.act({"kind": "npc-wounds", "npc": "n1", "wounds": 2})
    return [r'"level":\s*11\b', r'"wound_limit":\s*19\b', r"\b11 dice\b", r"level 11\b"]


def constitution(p: Party, said: list[Any]) -> list[str]:
    """C3-N05: a shield-bearer from the book given strength 27 and AC 33 fights Cora; whoever
    acts first attacks the other: Ada reads her own dice or her own AC, and neither its
    roll nor its AC nor which creature it is."""
    p.gm.act({"kind": "npc-from-book", "creature": "Shield-bearer", "name": "Warden qz"})
    for stat, value in (("strength", "27"), ("ac", "33")):
        p.gm.act({"kind": "edit-npc", "npc": "n1", "stat": stat, "value": value})
    said.append(p.ada.act({"kind": "new-character", "name": "Cora"}))
    said.append(p.ada.act({"kind": "join-fight", "character": "c1"}))
    p.gm.act({"kind": "npc-joins-fight", "npc": "n1"})
    said.append(
        p.ada.act({"kind": "combat", "action": {"action": "roll_initiative", "id": "Cora"}})
    )
    p.gm.act({"kind": "combat", "action": {"action": "roll_initiative", "id": "n1"}})
    p.gm.act({"kind": "combat", "action": {"action": "begin"}})
    acting = p.gm.view()["state"]["fight"]["acting"]
    attack = {"action": "attack", "attacker": acting, "target": "Cora" if acting == "n1" else "n1"}
    (p.gm if acting == "n1" else p.ada).act({"kind": "combat", "action": attack})
    blow = next(t for t in read(p.ada) if " attacks " in t)
    if acting == "n1":  # Cora's AC and whether it hit are hers; its roll is not
        assert re.fullmatch(
            r"Warden qz attacks Cora \(AC 20\): \? vs DC 20: (success|failure), \?", blow
        )
    else:  # her dice, total and degrees are hers; its AC is not
        shown = r"Cora attacks Warden qz \(AC \?\): 1d20! → \[[^\]]+\] = \d+; .* vs DC \?: \w+, \d"
        assert re.fullmatch(shown + r".*", blow), blow
    told = r"\+ 27\b" if acting == "n1" else r"\(AC 33\)"  # its attack roll, or its AC
    return [r'"ac":\s*33\b', r'"strength":\s*27\b', r"strength is now 27", told, "Shield-bearer"]


def read(client: RoomClient) -> list[str]:
    """The lines of the log as `client`'s member reads them."""
    return [json.loads(line)["event"]["text"] for line in client.log()]


def ap2d6(p: Party, said: list[Any]) -> list[str]:
    """RU-N05: the rules' kindly innkeeper (bias +2) with STR 5 and CON 4 (Health 42)
    contests Ayla's STR, fights her, and takes 5 damage (Health 37). Ada reads Ayla's roll
    and who won, the innkeeper's roll and why as `?`, and with it Ayla's two dice."""
    p.gm.act({"kind": "npc-from-book", "creature": "Kindly innkeeper", "name": "Innkeeper qz"})
    for stat, value in (("STR", "5"), ("CON", "4")):
        p.gm.act({"kind": "edit-npc", "npc": "n1", "stat": stat, "value": value})
    said.append(p.ada.act({"kind": "new-character", "name": "Ayla"}))
    contest = {"first": "c1", "second": "n1", "score": "STR", "versus": "STR"}
    p.gm.act({"kind": "contest", **contest})
    (read,) = [e for line in p.ada.log() if (e := json.loads(line)["event"])["type"] == "contest"]
    mine = re.fullmatch(
        r"Ayla \(STR\) vs Innkeeper qz \(STR\): 2d6 → \[(\d), (\d)\] = \d+ \+0 = \d+  vs  \?\n"
        r"(the first side won|the second side won|a tie) \(\?\)",
        read["text"],
    )
    assert mine, read["text"]
    assert [d["face"] for d in read["data"]["draws"]] == [int(mine[1]), int(mine[2])]
    p.gm.act({"kind": "start-fight", "characters": ["c1", "n1"]})
    p.gm.act({"kind": "next-round"})
    p.gm.act({"kind": "damage", "character": "n1", "amount": 5})
    assert "Innkeeper qz" in "".join(p.ada.log())
    return [r'"max_hp":\s*42\b', r'"hp":\s*37\b', r'"STR":\s*5\b', r'"bias":\s*2\b', r"\+5 = "]


def rollunder(p: Party, said: list[Any]) -> list[str]:
    """CR-N02, CR-S04: a bog wight typed in (STR 18, health 21) contests Ash's STR and takes
    a hit. Ada reads Ash's four rolls whole, with his d20s apart on the contest's first line,
    the wight's successes as `?`, the ranking, and that it took a hit."""
    stats = {"abilities": {"STR": 18, "AGI": 16, "WIT": 2}, "max_health": 21}
    p.gm.act({"kind": "new-npc", "name": "Bog wight qz", "stats": stats})
    ash = {"kind": "new-character", "name": "Ash", "abilities": {"STR": 12, "AGI": 10, "WIT": 9}}
    said.append(p.ada.act({**ash, "max_health": 10}))
    sides = [{"name": "us", "characters": ["c1"]}, {"name": "them", "characters": ["n1"]}]
    p.gm.act({"kind": "contest", "ability": "STR", "sides": sides})
    p.gm.act({"kind": "suffer-hit", "character": "n1", "damage": "d6"})
    read = [json.loads(line)["event"] for line in p.ada.log() if "event" in json.loads(line)]
    texts = [event["text"] for event in read]
    opening = read[
        texts.index("a contest of STR, 4 rolls each: us (Ash) against them (Bog wight qz)")
    ]
    rolls = [e for e in read if e["type"] == "ability_roll" and e["data"]["character"] == "Ash"]
    assert [d["face"] for d in opening["data"]["draws"]] == [
        e["data"]["values"]["face"] for e in rolls
    ]
    assert "Bog wight qz passes ? of 4 rolls" in texts and "Bog wight qz takes a hit" in texts
    assert any(re.fullmatch(r"ranking: (us; them|them; us|us = them)", text) for text in texts)
    return [r'"max_health":\s*21\b', r'"STR":\s*18\b', r"\bof 21\b", r"against STR 18\b"]


def constitution_nameless(p: Party, said: list[Any]) -> list[str]:
    """C3-N05: lines that hold the Brute's numbers without its name. Renamed in the fight,
    it still fights as Brute qz; it hits Shieldy (a shield-bearer the GM gives Ada), and
    Ada raises the shield: that line names Shieldy and holds the Brute's attack roll (+ 27);
    Cora's direct hit on it is answered with its injury saves, lines that name nobody
    (strength 27, will 23), each wholly its own and told under the name it fights with."""
    stats = {"strength": 27, "will": 23, "hp": 9, "ac": 5, "damage": "1d8+3"}
    p.gm.act({"kind": "new-npc", "name": "Brute qz", "stats": stats})
    said.append(p.ada.act({"kind": "new-character", "name": "Cora"}))
    said.append(p.ada.act({"kind": "join-fight", "character": "c1"}))
    shieldy = {"id": "Shieldy", "name": "Shieldy", "hp": 20, "ac": 0}
    add = {"action": "add", "combatant": {**shieldy, "can_defend_as_reaction": True}}
    p.gm.act({"kind": "combat", "action": add, "controller": p.ada.view()["me"]["id"]})
    p.gm.act({"kind": "npc-joins-fight", "npc": "n1"})
    p.gm.act({"kind": "edit-npc", "npc": "n1", "stat": "name", "value": "Grunt qz"})
    for cid, value in (("n1", 10), ("Cora", 9), ("Shieldy", 8)):
        action = {"action": "set_initiative", "id": cid, "value": value}
        p.gm.act({"kind": "combat", "action": action})
    p.gm.act({"kind": "combat", "action": {"action": "begin"}})
    blow = {"action": "attack", "attacker": "n1", "target": "Shieldy", "use_direct_hit": False}
    p.gm.act({"kind": "combat", "action": blow})
    raised = {"action": "answer_shield", "raise_shield": True}
    said.append(p.ada.act({"kind": "combat", "action": raised}))
    p.gm.act({"kind": "combat", "action": {"action": "end_turn"}})
    hit = {"action": "attack", "attacker": "Cora", "target": "n1", "modifier": 40}
    p.gm.act({"kind": "combat", "action": hit})  # the GM's bonus (C3-S07): the GM sends it
    p.gm.act({"kind": "combat", "action": {"action": "answer_direct_hit", "pay": False}})
    saves = ["Brute qz: strength save, kept secret", "Brute qz: will save, kept secret"]
    assert saves[0] in read(p.ada) and saves[1] in read(p.ada)
    landed = [r"1d8 \+ 3"] if "1d8 + 3" in "".join(p.gm.log()) else []  # unless the shield held
    return [r"Brute qz: initiative \d", r"\+ 27 = ", r"\+ 23 = ", *landed]


def ap2d6_nameless(p: Party, said: list[Any]) -> list[str]:
    """RU-N05: the innkeeper (CON 4, Health 42) rests after 5 damage, spending two recovery
    dice; each hour's line names nobody and holds its health."""
    p.gm.act({"kind": "npc-from-book", "creature": "Kindly innkeeper", "name": "Innkeeper qz"})
    p.gm.act({"kind": "edit-npc", "npc": "n1", "stat": "CON", "value": "4"})
    said.append(p.ada.act({"kind": "new-character", "name": "Ayla"}))
    p.gm.act({"kind": "damage", "character": "n1", "amount": 5})
    p.gm.act({"kind": "rest", "character": "n1", "hours": 2, "recovery_dice": 2})
    assert "recovery die" in "".join(p.ada.log())
    return [r"recovery die [^\n\"]*\(HP \d", r"\(HP (3[89]|4[0-2])\)"]


SCENES: dict[str, Callable[[Party, list[Any]], list[str]]] = {
    "dead-weight": dead_weight,
    "constitution": constitution,
    "ap2d6": ap2d6,
    "rollunder": rollunder,
}


NAMELESS: dict[str, Callable[[Party, list[Any]], list[str]]] = {
    "constitution": constitution_nameless,
    "ap2d6": ap2d6_nameless,
}
"""Scenes whose lines hold a hidden NPC's numbers without naming it as it is known now."""


def never_received(p: Party, scene: Callable[[Party, list[Any]], list[str]]) -> dict[str, Recorder]:
    """Play `scene` while Ada's and the observer's sockets record every frame, and check
    that each of its patterns is in what the GM has and in no byte they receive."""
    sockets = {"Ada": Recorder(p.links["Ada"]), "Watcher": Recorder(p.links["Watcher"])}
    said: list[Any] = []
    patterns = scene(p, said)
    everything_gm = "".join(p.gm.export()) + json.dumps(p.gm.view())
    received = {}
    for who, client in (("Ada", p.ada), ("Watcher", p.watcher)):
        sockets[who].sync()
        answers = [client.view(), client.legal(), *client.log(), *client.export()]
        mine = said if who == "Ada" else []
        received[who] = "".join(sockets[who].frames) + json.dumps([*answers, *mine])
    for pattern in patterns:
        assert re.search(pattern, everything_gm), f"the GM never had {pattern!r}"
        for who, text in received.items():
            assert not re.search(pattern, text), f"{who} received {pattern!r}"
    return sockets


@pytest.mark.parametrize("system", list(SCENES))
def test_no_byte_a_player_or_observer_receives_holds_a_hidden_npcs_numbers(server, system):
    p = party(server, system)
    sockets = never_received(p, SCENES[system])
    view = p.ada.view()["state"]
    assert view["npcs"][0]["stats"] == {
        "hidden": f"{view['npcs'][0]['name']}'s numbers, kept by the GM"
    }
    p.gm.act({"kind": "reveal-npc", "npc": "n1", "revealed": True})
    assert p.ada.view()["state"]["npcs"][0]["revealed"] is True
    assert "numbers" in "".join(p.ada.log()[-1:])
    for recorder in sockets.values():
        recorder.close()
    p.close()


@pytest.mark.parametrize("system", list(NAMELESS))
def test_a_hidden_npcs_numbers_stay_kept_in_lines_that_do_not_name_it_as_it_is_now(server, system):
    """The lines are read against the fight and the step as well as the NPC's name: a line
    naming it by the name it fights under, naming only the other side of a blow, or
    naming nobody at the start of a step taken for it reaches no player with its numbers."""
    p = party(server, system)
    sockets = never_received(p, NAMELESS[system])
    for recorder in sockets.values():
        recorder.close()
    p.close()


SCORES = {"STR": 12, "AGI": 10, "WIT": 9}

LOGGED: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "dead-weight": [
        ("GM", {"kind": "new-npc", "name": "Wight", "stats": {"wound_limit": 19, "level": 11}}),
        ("Ada", {"kind": "import-character", "sheet": {"name": "Amber"}}),
        ("GM", {"kind": "npc-wounds", "npc": "n1", "wounds": 2}),
        ("GM", {"kind": "npc-test", "kept": "n1", "setup": {"attribute": "STR"}}),
    ],
    "constitution": [
        ("GM", {"kind": "npc-from-book", "creature": "Shield-bearer", "name": "Warden"}),
        ("GM", {"kind": "new-npc", "name": "Brute", "stats": {"will": 3, "strength": 27}}),
        ("Ada", {"kind": "new-character", "name": "Cora"}),
        ("Ada", {"kind": "join-fight", "character": "c1"}),
        ("GM", {"kind": "npc-joins-fight", "npc": "n1"}),
        ("GM", {"kind": "edit-npc", "npc": "n1", "stat": "name", "value": "Ward"}),
        ("GM", {"kind": "combat", "action": {"action": "roll_initiative", "id": "n1"}}),
    ],
    "ap2d6": [
        ("GM", {"kind": "npc-from-book", "creature": "Kindly innkeeper", "name": "Inn"}),
        ("GM", {"kind": "new-npc", "name": "Tough", "stats": {"scores": {"CON": 2, "STR": 3}}}),
        ("Ada", {"kind": "new-character", "name": "Ayla"}),
        ("GM", {"kind": "contest", "first": "c1", "second": "n1", "score": "STR", "versus": "STR"}),
        ("GM", {"kind": "damage", "character": "n1", "amount": 5}),
        ("GM", {"kind": "rest", "character": "n1", "hours": 2, "recovery_dice": 2}),
    ],
    "rollunder": [
        (
            "GM",
            {
                "kind": "new-npc",
                "name": "Bog",
                "stats": {"max_health": 21, "abilities": {"WIT": 2, "STR": 18, "AGI": 16}},
            },
        ),
        ("Ada", {"kind": "new-character", "name": "Ash", "abilities": SCORES, "max_health": 10}),
        ("GM", {"kind": "suffer-hit", "character": "n1", "damage": "d6"}),
        ("GM", {"kind": "edit-npc", "npc": "n1", "stat": "name", "value": "Bog wight"}),
        ("GM", {"kind": "reveal-npc", "npc": "n1", "revealed": True}),
    ],
}
"""A few NPC steps per RPG, abilities and scores typed in an order of their own."""


@pytest.mark.parametrize("system", list(LOGGED))
def test_a_room_with_npcs_verifies_in_full_and_as_a_player_sees_it(hall, system):
    """Log format 2: `verify` re-tells every event from its recorded cause, so an NPC's
    lines must read the same from the intent as the log keeps it (its keys sorted)."""
    room = seat(hall, system)
    for number, (who, intent) in enumerate(LOGGED[system]):
        hall.act(room.room, room.member(who).id, intent, f"s{number}", nonce=f"{number:032x}")
    hall.end_session(room.room, room.member("GM").id)
    for who in ("GM", "Ada"):
        verify(hall.export(room.room, room.member(who)))
