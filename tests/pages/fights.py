"""A fight at each RPG's table, set up through the protocol (as the command line would, in a
second rather than a minute of clicks) for the layout tests and the screenshots: four
characters of two players, Ada and Bo, and three of the GM's NPCs, with the fight (or its
system's nearest thing: a test under way, an activation) begun."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tabletop.rooms.client import RoomClient, create_room
from tests.pages.driver import gm_links, member_client

AMBER = {"name": "Amber", "attributes": {"DEX": {"score": 3, "proficiency": 1}}}


@dataclass
class Fight:
    """A table in a fight: its links (the GM's, Ada's and Bo's own, the observer invite),
    each member's client, and who holds which character."""

    system: str
    links: dict[str, str]
    clients: dict[str, RoomClient] = field(default_factory=dict)
    characters: dict[str, list[str]] = field(default_factory=dict)
    npcs: list[str] = field(default_factory=list)

    def act(self, who: str, intent: dict[str, Any]) -> dict[str, Any]:
        answer = self.clients[who].act(intent)
        assert answer.get("type") == "ack", answer
        return answer

    def offered(self, who: str, kind: str) -> list[dict[str, Any]]:
        """The closed choices of `kind` offered to `who` now."""
        return [
            intent
            for offer in self.clients[who].legal()["offers"]
            if offer["kind"] == kind
            for intent in offer["intents"]
        ]

    def close(self) -> None:
        for client in self.clients.values():
            client.close()


def table(url: str, system: str, names: dict[str, list[str]]) -> Fight:
    """A room of `system` with Ada and Bo joined; `names`: each player's characters."""
    links = create_room(url, system, "The long night")
    gm_links.setdefault(links["room"], []).append(links["gm"])
    fight = Fight(system, {"gm": links["gm"], "observer": links["observer"]})
    fight.clients["GM"] = member_client(links["gm"])
    for player in names:
        with RoomClient(links["player"]) as invite:
            fight.links[player] = invite.join(player)
        fight.clients[player] = member_client(fight.links[player])
    fight.characters = names
    return fight


TWO_EACH = {"Ada": ["Ayla", "Arn"], "Bo": ["Bren", "Brisk"]}


LONGSWORD = {
    "name": "longsword",
    "speed": "(1n1)->(2n1)",
    "to_hit": "DEX",
    "damage": "1d8+STR",
    "damage_type": "S",
}
CLUB = {"name": "club", "speed": "(1n1)", "to_hit": "STR", "damage": "1d6+STR", "damage_type": "B"}


def ap2d6(url: str) -> Fight:
    """Four fighters and three sneering guards in the Main Phase of round 1, and the GM's
    longsword and club on the table's weapon list."""
    fight = table(url, "ap2d6", TWO_EACH)
    for player, names in TWO_EACH.items():
        for name in names:
            fight.act(player, {"kind": "new-character", "name": name})
    fight.npcs = ["Gate guard", "Wall guard", "Yard guard"]
    for name in fight.npcs:
        fight.act("GM", {"kind": "npc-from-book", "creature": "Sneering guard", "name": name})
    for weapon in (LONGSWORD, CLUB):  # the group's weapons on the table's list (RU-S09)
        fight.act("GM", {"kind": "keep-weapon", **weapon})
    ids = [c["id"] for c in fight.clients["GM"].view()["state"]["characters"]]
    fight.act("GM", {"kind": "start-fight", "characters": ids})
    fight.act("GM", {"kind": "next-round"})
    return fight


def constitution(url: str) -> Fight:
    """Four characters and three of the book's humans in round 1, initiative rolled."""
    names = {"Ada": ["Cora", "Cid"], "Bo": ["Bram", "Bryn"]}
    fight = table(url, "constitution", names)
    for player, theirs in names.items():
        for name in theirs:
            fight.act(player, {"kind": "new-character", "name": name})
            cid = fight.clients[player].view()["state"]["characters"][-1]["id"]
            fight.act(player, {"kind": "join-fight", "character": cid, "side": "party"})
    npcs = (("Pike", "Henchman"), ("Voss", "Human in heavy armour"), ("Wren", "Shield-bearer"))
    for name, creature in npcs:
        answer = fight.act("GM", {"kind": "npc-from-book", "creature": creature, "name": name})
        npc = answer["entries"][0]["event"]["data"]["npc"]
        fight.act("GM", {"kind": "npc-joins-fight", "npc": npc, "side": "foes"})
    fight.npcs = [name for name, _ in npcs]
    for step in ("roll_initiative", "begin"):
        for intent in fight.offered("GM", "combat"):
            if intent["action"]["action"] == step:
                fight.act("GM", intent)
    while acting_npc(fight):  # the NPCs before the first character pass their turns
        ends = [i for i in fight.offered("GM", "combat") if i["action"]["action"] == "end_turn"]
        fight.act("GM", ends[0])
    return fight


def acting_npc(fight: Fight) -> bool:
    state = fight.clients["GM"].view()["state"]
    return state["fight"]["acting"] in {npc["id"] for npc in state["npcs"]}


def dead_weight(url: str, opposed: bool = True) -> Fight:
    """Four adventurers and three kept NPCs; Amber's DEX against a ghoul's STR under way
    (unless not `opposed`)."""
    names = {"Ada": ["Amber", "Alma"], "Bo": ["Brom", "Bex"]}
    fight = table(url, "dead-weight", names)
    for player, theirs in names.items():
        for name in theirs:
            sheet = {**AMBER, "name": name}
            fight.act(player, {"kind": "import-character", "sheet": sheet})
    fight.npcs = ["Ghoul", "Ghast", "Wight"]
    for name in fight.npcs:
        stats = {"level": 3, "wound_limit": 4}
        fight.act("GM", {"kind": "new-npc", "name": name, "stats": stats})
    if not opposed:
        return fight
    state = fight.clients["GM"].view()["state"]
    amber = state["characters"][0]["id"]
    ghoul = state["npcs"][0]["id"]
    fight.act(
        "GM",
        {
            "kind": "opposed-test",
            "first": {"character": amber, "setup": {"attribute": "DEX"}},
            "second": {"kept": ghoul, "setup": {"attribute": "STR"}},
        },
    )
    return fight


def rollunder(url: str, rolled: bool = True) -> Fight:
    """Four characters and three monsters; Ash's activation, and (if `rolled`) her AGI roll
    waiting on her answer (keep it, or spend her omen on a re-roll)."""
    names = {"Ada": ["Ash", "Aven"], "Bo": ["Birch", "Bram"]}
    fight = table(url, "rollunder", names)
    scores = {"STR": 10, "AGI": 10, "WIT": 10}
    for player, theirs in names.items():
        for name in theirs:
            sheet = {"name": name, "abilities": scores, "max_health": 8, "health": 8}
            fight.act(
                player, {"kind": "import-character", "sheet": {**sheet, "omens": 1, "max_omens": 1}}
            )
    fight.npcs = ["Mire hound", "Bog hag", "Eel"]
    for name in fight.npcs:
        stats = {"abilities": scores, "max_health": 9}
        fight.act("GM", {"kind": "new-npc", "name": name, "stats": stats})
    fight.act("GM", {"kind": "begin-activation", "actor": "Ash"})
    if not rolled:
        return fight
    ash = fight.clients["Ada"].view()["state"]["characters"][0]["id"]
    fight.act("Ada", {"kind": "ability-roll", "character": ash, "ability": "AGI"})
    return fight


FIGHTS = {
    "ap2d6": ap2d6,
    "constitution": constitution,
    "dead-weight": dead_weight,
    "rollunder": rollunder,
}
