"""After a death (§ Death): the player makes a replacement who joins as soon as possible,
and the dead character's companions pay for a burial or each lose an omen for good.
"""

from __future__ import annotations

from collections.abc import Mapping

from tabletop.systems.rollunder.character import Character
from tabletop.systems.rollunder.errors import RollUnderError
from tabletop.systems.rollunder.followers import Company
from tabletop.systems.rollunder.options import RollUnderOptions
from tabletop.systems.rollunder.records import Event

BURIAL_COST = 256
"""Coins (ʂ) for a proper burial, shared by the companions; doubled without the remains."""


def burial_cost(remains_retrieved: bool) -> int:
    """256, or 512 when the remains were not retrieved (CR-M21, CR-A19)."""
    return BURIAL_COST if remains_retrieved else 2 * BURIAL_COST


def bury(
    company: Company,
    dead: Character,
    remains_retrieved: bool,
    payment: Mapping[str, int] | None,
) -> tuple[Company, tuple[Event, ...]]:
    """The companions (the company's living player characters) settle a dead player
    character's burial: `payment` says what each pays and must add up to the cost; None
    means they do not pay, and each permanently loses one omen (CR-A19). Settle it before
    the replacement joins: they were never the dead character's companion."""
    if dead.alive:
        raise RollUnderError(f"{dead.name} is not dead")
    if dead.leader is not None:
        raise RollUnderError(f"{dead.name} was a follower: burials are for player characters")
    companions = [
        member for member in company.player_characters if member.alive and member.name != dead.name
    ]
    cost = burial_cost(remains_retrieved)
    if payment is None:
        return _lose_omens(company, dead, companions)
    return _pay(company, dead, companions, cost, payment)


def _lose_omens(
    company: Company, dead: Character, companions: list[Character]
) -> tuple[Company, tuple[Event, ...]]:
    events = []
    for member in companions:
        maximum = max(0, member.max_omens - 1)
        changed = member.with_changes(max_omens=maximum, omens=min(member.omens, maximum))
        company = company.updated(changed)
        events.append(
            Event.about(
                member.name,
                "burial",
                f"{member.name} permanently loses an omen for leaving {dead.name} "
                f"unburied (omens {changed.omens} of {maximum})",
                dead=dead.name,
                paid=0,
                max_omens=maximum,
            )
        )
    return company, tuple(events)


def _pay(
    company: Company,
    dead: Character,
    companions: list[Character],
    cost: int,
    payment: Mapping[str, int],
) -> tuple[Company, tuple[Event, ...]]:
    names = {member.name for member in companions}
    for name, amount in payment.items():
        if name not in names:
            raise RollUnderError(f"{name} is not a living companion of {dead.name}")
        if amount < 0:
            raise RollUnderError(f"{name} cannot pay a negative amount")
        if amount > company.member(name).money:
            raise RollUnderError(f"{name} has {company.member(name).money}ʂ, not {amount}ʂ")
    if sum(payment.values()) != cost:
        raise RollUnderError(
            f"the burial costs {cost}ʂ; the payments add up to {sum(payment.values())}ʂ"
        )
    events = []
    for name, amount in payment.items():
        member = company.member(name)
        company = company.updated(member.with_changes(money=member.money - amount))
        events.append(
            Event.about(
                name,
                "burial",
                f"{name} pays {amount}ʂ towards {dead.name}'s burial",
                dead=dead.name,
                paid=amount,
            )
        )
    return company, tuple(events)


def replace_character(
    company: Company, dead: str, replacement: Character, options: RollUnderOptions
) -> tuple[Company, tuple[Event, ...]]:
    """The dead player character leaves the company and the player's new character joins;
    the dead character's followers follow the newcomer or leave (CR-M20, CR-A24)."""
    fallen = company.member(dead)
    if fallen.alive:
        raise RollUnderError(f"{dead} is alive; only a dead character is replaced")
    if fallen.leader is not None:
        raise RollUnderError(f"{dead} was a follower; replacements are for player characters")
    newcomer = replacement.require_alive().with_changes(leader=None)
    events = [
        Event.about(
            newcomer.name,
            "replacement",
            f"{newcomer.name} joins the company in place of {dead}",
            replaces=dead,
        )
    ]
    members: list[Character] = []
    for member in company.members:
        if member.name == dead:
            continue
        if member.leader == dead:
            if options.followers_of_the_dead == "leave":
                events.append(_follower_event(member.name, dead, joined=False))
                continue
            member = member.with_changes(leader=newcomer.name)
            events.append(_follower_event(member.name, newcomer.name, joined=True))
        members.append(member)
    return company.with_members((*members, newcomer)), tuple(events)


def _follower_event(name: str, leader: str, joined: bool) -> Event:
    text = f"{name} now follows {leader}" if joined else f"{name} leaves with {leader} gone"
    return Event.about(name, "follower", text, leader=leader, joined=joined)
