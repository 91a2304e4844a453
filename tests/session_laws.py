"""The laws every session obeys, checked over random walks of legal intents by random members.

A system's test builds a `Table` (its session, its members, how to fill free fields) and
calls `check_laws` from a hypothesis test. The walk picks, at each step, a member who may
act, one of the offers `legal` makes them and a choice within it, resolves it with seeded
dice and folds the events. Free text it fills with unique *markers*, so that the leak law
can search what each member received for text that only hidden events held.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from tabletop.dice import SeededDice
from tabletop.errors import TabletopError
from tabletop.offers import Offer
from tabletop.session import Event, Member, Session

Pick = Callable[[Sequence[Any]], Any]
"""Chooses one item of a non-empty sequence (hypothesis draws, or a seeded Random)."""

Filler = Callable[[Offer, str, Pick, str], Any]
"""A value for free field `name` of an offer (given a fresh marker string), or `NO_VALUE`."""

NO_VALUE = object()


def example_filler(offer: Offer, name: str, pick: Pick, marker: str) -> Any:
    """The offer's own example; free text that takes a marker gets one instead."""
    choice = offer.fields[name]
    if name in ("label", "name", "text", "note", "notes") and choice.example is not None:
        return marker
    return NO_VALUE if choice.example is None else choice.example


@dataclass
class Step:
    member: Member
    intent: dict[str, Any]
    events: list[Event]
    state: BaseModel
    """The state after folding the events."""
    seed: int


@dataclass
class Walk:
    start: BaseModel
    steps: list[Step] = field(default_factory=list)
    refused: int = 0
    """Open intents the rules refused (a free value the rules do not accept); not folded."""

    @property
    def events(self) -> list[Event]:
        return [event for step in self.steps for event in step.events]

    @property
    def state(self) -> BaseModel:
        return self.steps[-1].state if self.steps else self.start


@dataclass
class Table:
    """A session with the members who sit at it, for random walks."""

    session: Session[Any]
    members: Sequence[Member]
    filler: Filler = example_filler
    start: Callable[[], BaseModel] | None = None

    def new(self) -> BaseModel:
        return self.start() if self.start else self.session.new()

    def intent_from(self, offer: Offer, pick: Pick, marker: str) -> dict[str, Any]:
        """A complete intent within `offer`."""
        if offer.closed:
            return dict(pick(offer.intents))
        intent: dict[str, Any] = {"kind": offer.kind, **offer.preset}
        for name, choice in offer.fields.items():
            if choice.values is not None:
                intent[name] = pick(choice.values)
            else:
                value = self.filler(offer, name, pick, marker)
                if value is not NO_VALUE:
                    intent[name] = _merged(offer.preset.get(name), value)
        return json.loads(json.dumps(intent, default=str))

    def walk(self, pick: Pick, steps: int, seed: int = 0) -> Walk:
        """A random walk of `steps` intents, each offered to the member who sends it."""
        walk = Walk(start=self.new())
        state = walk.start
        for number in range(steps):
            options = [(m, o) for m in self.members for o in self.session.legal(state, m)]
            if not options:
                break
            member, offer = pick(options)
            intent = self.intent_from(offer, pick, f"mk{seed}x{number}q")
            try:
                events = self.session.resolve(state, intent, member, SeededDice(seed + number))
            except TabletopError:
                assert not offer.closed, f"{member.id} was offered {intent} but it was refused"
                walk.refused += 1
                continue
            for event in events:
                state = self.session.fold(state, event)
            walk.steps.append(Step(member, intent, events, state, seed + number))
        return walk


def _merged(preset: Any, value: Any) -> Any:
    """A field's value with what the offer's preset fixes inside it kept (a test's attribute
    inside the setup the example fills in)."""
    if isinstance(preset, dict) and isinstance(value, dict):
        return {**value, **{k: _merged(preset[k], value.get(k)) for k in preset}}
    return value if preset is None else preset


# the laws ---------------------------------------------------------------------------------


def check_laws(table: Table, pick: Pick, steps: int = 25, seed: int = 0) -> Walk:
    """Walk the table and check every law on the way; the walk, for more checks."""
    walk = table.walk(pick, steps, seed)
    events_round_trip_through_json(walk)
    folding_from_the_start_gives_the_state_of_play(table, walk)
    the_same_dice_give_the_same_events(table, walk, seed)
    resolution_reads_the_intent_as_its_canonical_json(table, walk)
    for step in [None, *walk.steps]:
        state = walk.start if step is None else step.state
        # Every member's offers in this state, asked once: each member's check below needs
        # all of them (`_outside`), and asking again would give the same (rules are pure).
        before = state.model_dump_json()
        offers = {member.id: table.session.legal(state, member) for member in table.members}
        for member in table.members:
            an_intent_outside_legal_is_refused_and_changes_nothing(
                table, state, member, pick, offers
            )
        assert state.model_dump_json() == before
        the_gm_view_contains_every_players(table, state)
    for member in table.members:
        no_member_receives_what_was_hidden_from_them(table, walk, member)
    return walk


def events_round_trip_through_json(walk: Walk) -> None:
    for event in walk.events:
        assert Event.model_validate_json(event.model_dump_json()) == event


def folding_from_the_start_gives_the_state_of_play(table: Table, walk: Walk) -> None:
    stored = [Event.model_validate_json(e.model_dump_json()) for e in walk.events]
    folded = table.session.fold_all(stored, walk.start)
    assert folded == walk.state
    loaded = table.session.load(walk.state.model_dump_json())
    assert loaded == walk.state, "a state must round-trip through JSON"


def the_same_dice_give_the_same_events(table: Table, walk: Walk, seed: int) -> None:
    """Resolving each step again, from the same state with the same dice, tells the same."""
    state = walk.start
    for step in walk.steps:
        again = table.session.resolve(state, step.intent, step.member, SeededDice(step.seed))
        assert again == step.events
        state = step.state


def resolution_reads_the_intent_as_its_canonical_json(table: Table, walk: Walk) -> None:
    """An intent resolves the same whatever order its objects' keys arrive in: a room
    stores the canonical JSON (keys sorted) and `verify` re-resolves that, so a rule that
    read the keys in arrival order would tell a live room one thing and its check another
    (docs/rooms.md, "Every honest room verifies"). Both orders must give the same events
    and the same state, the state's own key order included (later lines read it)."""
    state = walk.start
    for step in walk.steps:
        reordered = _keys_reversed(step.intent)
        if json.dumps(reordered) != json.dumps(step.intent):
            again = table.session.resolve(state, reordered, step.member, SeededDice(step.seed))
            assert again == step.events, f"{step.intent} resolves otherwise in another order"
            for event in again:
                state = table.session.fold(state, event)
            assert state.model_dump_json() == step.state.model_dump_json()
        state = step.state


def _keys_reversed(value: Any) -> Any:
    """`value` with the keys of every object in it in the reverse order."""
    if isinstance(value, dict):
        return {key: _keys_reversed(value[key]) for key in reversed(list(value))}
    if isinstance(value, list):
        return [_keys_reversed(item) for item in value]
    return value


def an_intent_outside_legal_is_refused_and_changes_nothing(
    table: Table,
    state: BaseModel,
    member: Member,
    pick: Pick,
    offers: dict[str, list[Offer]] | None = None,
) -> None:
    """`offers`: each member's offers in `state` by id, if asked already."""
    before = state.model_dump_json()
    if offers is None:
        offers = {m.id: table.session.legal(state, m) for m in table.members}
    offered = offers[member.id]
    for intent in _outside(table, member, offered, offers):
        try:
            table.session.resolve(state, intent, member, SeededDice(0))
        except TabletopError:
            pass
        else:
            raise AssertionError(f"{member.id} was not offered {intent}, yet it resolved")
    assert state.model_dump_json() == before


def _outside(
    table: Table, member: Member, offered: list[Offer], offers: dict[str, list[Offer]]
) -> list[dict[str, Any]]:
    """Intents no offer to `member` covers: other members' closed choices, and open
    offers with an enumerated field set to a value not among those allowed."""
    found = []
    for other in table.members:
        for offer in offers[other.id]:
            for intent in offer.intents:
                if not any(o.kind == offer.kind and o.allows(intent) is None for o in offered):
                    found.append(intent)
    for offer in offered:
        for name, choice in offer.fields.items():
            if choice.values is not None:
                found.append({"kind": offer.kind, name: "not-a-value"})
    return found[:20]


def the_gm_view_contains_every_players(table: Table, state: BaseModel) -> None:
    gm = next(m for m in table.members if m.is_gm)
    everything = table.session.view(state, gm)
    for member in table.members:
        if not member.is_gm:
            seen = table.session.view(state, member)
            assert contains(everything, seen), f"{member.id} sees what the GM does not"


def contains(whole: Any, part: Any) -> bool:
    """Whether `part` is `whole` with some things left out or marked hidden."""
    if isinstance(part, dict) and set(part) == {"hidden"}:
        return True
    if isinstance(part, dict):
        return isinstance(whole, dict) and all(
            key in whole and contains(whole[key], value) for key, value in part.items()
        )
    if isinstance(part, list):
        if not isinstance(whole, list):
            return False
        rest = iter(whole)
        return all(any(contains(w, p) for w in rest) for p in part)
    return whole == part


def no_member_receives_what_was_hidden_from_them(table: Table, walk: Walk, member: Member) -> None:
    """A marker that only events hidden from `member` held appears nowhere `member` looks:
    not in what they received of any event, not in their view of the state."""
    received, shown_in_full, hidden = [], [], []
    for event in walk.events:
        shown = table.session.view_event(event, member)
        if shown is not None:
            received.append(shown.model_dump_json())
        if event.seen_by(member):
            shown_in_full.append(event.model_dump_json())
        else:
            hidden.append(event.model_dump_json())
            assert shown is None or (shown.cause is None and set(shown.data) <= {"draws"}), (
                "a hint carries no facts but the draws shown apart"
            )
            if shown is not None and shown.data:
                assert event.cause is not None, "only a resolution's first line shows draws"
                drawn = event.cause.draws
                assert shown.data["draws"] == [
                    {"sides": drawn[at].sides, "face": drawn[at].face}
                    for at in event.cause.open_draws
                ], "the draws shown apart are the member's own, with no place among the others"
    secrets = set(markers("\n".join(hidden))) - set(markers("\n".join(shown_in_full)))
    seen = "\n".join(received) + json.dumps(table.session.view(walk.state, member))
    leaked = sorted(m for m in secrets if m in seen)
    assert not leaked, f"{member.id} received hidden values {leaked}"


def markers(text: str) -> list[str]:
    """The walk's marker strings in `text`."""
    import re

    return re.findall(r"mk\d+x\d+q", text)


# a hidden NPC's numbers -------------------------------------------------------------------


def check_hidden_npc_laws(
    table: Table, pick: Pick, secrets: Sequence[str], steps: int = 25, seed: int = 0
) -> Walk:
    """Walk a table that keeps a hidden NPC (its start holds one with numbers no rule would
    give anyone else) and check what every player receives (docs/rooms.md, "What a member
    sees of an NPC's line"):

    - no pattern of `secrets` (the NPC's numbers, its book name) appears in any byte a
      player receives, of any event or of their view of the state;
    - no player receives the cause of a resolution that kept something from them, nor the
      draws of one apart from those rolled for someone whose numbers they see;
    - no line reaches anyone with a mark in it (`kept.secret`), and the GM's lines are whole.
    """
    import re

    from tabletop import kept

    walk = table.walk(pick, steps, seed)
    patterns = [re.compile(p) for p in secrets]
    for member in table.members:
        received = []
        for event in walk.events:
            assert kept.MARKS.isdisjoint(event.text + event.hint), "a mark reached the log"
            shown = table.session.view_event(event, member)
            if shown is None:
                continue
            received.append(shown.model_dump_json())
            if member.is_gm:
                assert shown == event
            elif shown.cause is not None:
                assert not shown.cause.open_draws, "a cause that kept something reached a player"
        if member.is_gm:
            continue
        seen = "\n".join(received) + json.dumps(table.session.view(walk.state, member))
        for pattern in patterns:
            found = pattern.search(seen)
            assert found is None, f"{member.id} received {found.group()!r} ({pattern.pattern})"
    return walk
