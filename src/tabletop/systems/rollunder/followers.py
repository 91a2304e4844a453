"""The company and its followers (§ Followers): each player character may lead up to two
followers, whom their player controls; a WIT roll convinces them when in doubt or keeps
their loyalty.
"""

from __future__ import annotations

from pydantic import Field, ValidationError, model_validator

from tabletop.data import describe
from tabletop.systems.rollunder.abilities import AbilityRoll, ChallengeLevel
from tabletop.systems.rollunder.character import Character
from tabletop.systems.rollunder.errors import RollUnderError
from tabletop.systems.rollunder.options import WIT, RollUnderOptions
from tabletop.systems.rollunder.records import Event, Model

MAX_FOLLOWERS = 2
"""Followers one player character may lead (CR-M10)."""

MAX_MEMBERS = 100


class Company(Model):
    """Everyone travelling together: player characters and the followers they lead."""

    members: tuple[Character, ...] = Field(default=(), max_length=MAX_MEMBERS)

    @model_validator(mode="after")
    def _followers_follow_player_characters(self) -> Company:
        names = [member.name for member in self.members]
        if len(set(names)) != len(names):
            raise ValueError("every member of the company needs a different name")
        leaders = {member.name for member in self.members if member.leader is None}
        for member in self.members:
            if member.leader is not None and member.leader not in leaders:
                raise ValueError(
                    f"{member.name} follows {member.leader!r}, who is not a player character "
                    "of the company"
                )
        for leader in leaders:
            if len(self.followers_of(leader)) > MAX_FOLLOWERS:
                raise ValueError(f"{leader} leads more than {MAX_FOLLOWERS} followers")
        return self

    def member(self, name: str) -> Character:
        for member in self.members:
            if member.name == name:
                return member
        raise RollUnderError(f"nobody called {name!r} is in the company")

    def followers_of(self, leader: str) -> tuple[Character, ...]:
        return tuple(member for member in self.members if member.leader == leader)

    @property
    def player_characters(self) -> tuple[Character, ...]:
        return tuple(member for member in self.members if member.leader is None)

    def with_members(self, members: tuple[Character, ...]) -> Company:
        """A re-validated company with these members, or a clear refusal."""
        try:
            return Company(members=members)
        except ValidationError as error:
            raise RollUnderError(describe(error)) from None

    def updated(self, character: Character) -> Company:
        """The company with the member of the same name replaced by `character`."""
        self.member(character.name)
        return self.with_members(
            tuple(character if m.name == character.name else m for m in self.members)
        )


def recruit_follower(
    company: Company, leader: str, follower: Character
) -> tuple[Company, tuple[Event, ...]]:
    """`follower` joins, led by the player character `leader` (at most two each, CR-M10)."""
    head = company.member(leader).require_alive()
    if head.leader is not None:
        raise RollUnderError(f"{leader} is a follower; only player characters lead followers")
    if len(company.followers_of(leader)) >= MAX_FOLLOWERS:
        raise RollUnderError(f"{leader} already leads {MAX_FOLLOWERS} followers")
    joined = follower.require_alive().with_changes(leader=leader)
    event = Event.about(
        joined.name, "follower", f"{joined.name} now follows {leader}", leader=leader, joined=True
    )
    return company.with_members((*company.members, joined)), (event,)


def dismiss_follower(company: Company, follower: str) -> tuple[Company, tuple[Event, ...]]:
    """A follower leaves the company."""
    leaving = company.member(follower)
    if leaving.leader is None:
        raise RollUnderError(f"{follower} is a player character, not a follower")
    event = Event.about(
        follower,
        "follower",
        f"{follower} leaves {leaving.leader}'s service",
        leader=leaving.leader,
        joined=False,
    )
    rest = tuple(member for member in company.members if member.name != follower)
    return company.with_members(rest), (event,)


def loyalty_roll(
    company: Company,
    follower: str,
    options: RollUnderOptions,
    level: ChallengeLevel = "challenging",
) -> AbilityRoll:
    """The WIT roll that convinces a follower or keeps their loyalty, when the GM is in doubt
    (CR-M10); who rolls is `options.loyalty_roller` (CR-A23). Resolve it like any roll."""
    member = company.member(follower)
    if member.leader is None:
        raise RollUnderError(f"{follower} is a player character, not a follower")
    roller = company.member(member.leader) if options.loyalty_roller == "leader" else member
    return AbilityRoll(character=roller, ability=WIT, level=level)
