"""A campaign a GM keeps between sessions: one system's table, kept as its journal.

A campaign file holds the system, its readings of unclear rules, and every `Event` that
happened at its table with its cause and dice, in order. Nothing else: the party, the
trackers that outlive a scene and any fight under way are the fold of those events from an
empty table, exactly as a room's state is the fold of its log. So a campaign can be checked
(every event is applied again with its own dice as it is read), shown, played on by any
command, and imported into a room later. See docs/campaigns.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tabletop.data import parse_json, read_text_file, write_text_file
from tabletop.dice import DiceSource
from tabletop.errors import DataError, TabletopError
from tabletop.session import MAX_NAME, Event, Member, Session, first_problem
from tabletop.systems.registry import system

MAX_CAMPAIGN_BYTES = 50_000_000
"""A campaign file larger than this is refused before it is read (about 100,000 events)."""

GM = Member.gm("you", "you")
"""Who acts in a campaign kept at the command line: its GM, who may act for everyone."""


class CampaignError(DataError):
    """A campaign file that cannot be read, or a change it cannot take."""


class Campaign(BaseModel):
    """A campaign as saved: what it plays, and its journal."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal["tabletop-campaign"] = "tabletop-campaign"
    version: Literal[1] = 1
    name: str = Field(min_length=1, max_length=MAX_NAME)
    system: str
    options: dict[str, Any] = Field(default_factory=dict)
    journal: tuple[Event, ...] = ()

    @property
    def session(self) -> Session[Any]:
        return system(self.system).session

    def state(self) -> Any:
        """The table now: the journal played again from an empty table, each intent asked
        anew with the dice it drew, so that a journal edited by hand (an intent the rules
        refuse, a die or a line changed) is refused, naming the first event that differs."""
        session = self.session
        state = session.new(self.options)
        at = 0
        while at < len(self.journal):
            first = self.journal[at]
            where = f"journal event {at + 1} ({first.type})"
            if first.cause is None:
                raise CampaignError(f"{where} has no cause: a journal begins each step with one")
            try:
                events = session.resolve_again(state, first.cause)
            except TabletopError as problem:
                raise CampaignError(f"{where} does not apply: {problem}") from None
            told = self.journal[at : at + len(events)]
            for offset, (event, kept) in enumerate(zip(events, told, strict=False)):
                if event != kept:
                    raise CampaignError(f"journal event {at + offset + 1} is not what happened")
            if len(told) < len(events):
                raise CampaignError(f"{where}: the journal ends before its step does")
            for event in events:
                state = session.fold(state, event)
            at += len(events)
        return state

    def play(
        self, state: Any, intent: BaseModel | Mapping[str, Any], dice: DiceSource
    ) -> tuple[Campaign, Any, list[Event]]:
        """One intent at the campaign's table (`state` is `self.state()`): the campaign with
        its events in the journal, the new state, and the events."""
        session = self.session
        events = session.resolve(state, intent, GM, dice)
        for event in events:
            state = session.fold(state, event)
        return self.model_copy(update={"journal": (*self.journal, *events)}), state, events


def new_campaign(name: str, system_name: str, options: Mapping[str, Any] | None = None) -> Campaign:
    """An empty campaign of a system, its options checked by the system's own model."""
    known = system(system_name)
    session = known.session
    if not hasattr(session.new(), "characters"):
        raise CampaignError(f"{system_name} has no characters to keep in a campaign")
    chosen = dict(options or {})
    if chosen and known.options is not None:
        try:
            chosen = known.options.model_validate(chosen).model_dump(mode="json")
        except ValidationError as problem:
            raise CampaignError(f"options: {first_problem(problem)}") from None
    return Campaign(name=name, system=system_name, options=chosen)


def read_campaign(path: str | Path) -> tuple[Campaign, Any]:
    """A campaign file and the state its journal folds to, or one line saying what is wrong
    (including the first event that does not apply)."""
    path = Path(path)
    text = read_text_file(path, CampaignError, MAX_CAMPAIGN_BYTES)
    try:
        campaign = Campaign.model_validate(parse_json(text))
    except ValueError as problem:  # not JSON, NaN, 1e400, a number of thousands of digits
        if isinstance(problem, ValidationError):
            raise CampaignError(f"{path}: not a campaign file: {first_problem(problem)}") from None
        raise CampaignError(f"{path}: not a campaign file (not JSON)") from None
    try:
        return campaign, campaign.state()
    except CampaignError as problem:
        raise CampaignError(f"{path}: {problem}") from None


def write_campaign(path: str | Path, campaign: Campaign) -> None:
    """Save the campaign all or nothing (an interrupted save leaves the old file whole)."""
    write_text_file(path, campaign.model_dump_json(indent=1) + "\n", CampaignError)


def party(state: Any) -> dict[str, Any]:
    """The characters at the table by id, each with its sheet (every RPG session keeps them
    as `characters`, each seat with an `owner` and a `sheet`)."""
    return dict(getattr(state, "characters", {}))


def character_id(state: Any, who: str) -> str:
    """The id of the party member called `who` (a name, ignoring case, or an id)."""
    seats = party(state)
    if who in seats:
        return who
    found = [cid for cid, seat in seats.items() if seat.sheet.name.lower() == who.lower()]
    if len(found) == 1:
        return found[0]
    names = ", ".join(seat.sheet.name for seat in seats.values()) or "nobody yet"
    if found:
        raise CampaignError(f"{len(found)} characters are called {who!r}: use an id ({names})")
    raise CampaignError(f"no character {who!r} in the campaign; the party: {names}")
