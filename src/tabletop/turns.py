"""Whose turn it is, the same at every RPG table: an order of the characters and NPCs at
the table, the one whose turn it is now, and the round, which the GM sets and moves on (or
the rules do, where a system's book keeps its own order: a Constitution fight's initiative).

Every member's view holds the turn in one shape (`turn_view`), so a page shows the current
turn on top and tells a member when it is theirs. The GM sets the order, moves the turn on
and ends the turns; the member who plays the one whose turn it is may end their own turn.
docs/architecture.md, "Turns everyone can see".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, Literal, NamedTuple, TypeVar

from pydantic import BaseModel, Field

from tabletop.errors import PermissionDenied, RulesError
from tabletop.offers import Choice, Offer, offer
from tabletop.session import Event, Frozen, Member, Seated, note, plays

StateT = TypeVar("StateT", bound=BaseModel)

MAX_ORDER = 100
"""Characters and NPCs one turn order holds (a table keeps at most as many)."""


class Turns(Frozen):
    """An order of ids, whose turn it is in it (None: nobody's yet) and the round."""

    order: tuple[str, ...] = ()
    current: int | None = None
    round: int = Field(default=0, ge=0)

    @property
    def whose(self) -> str | None:
        return None if self.current is None else self.order[self.current]


class SetTurnOrder(Frozen):
    """The GM writes down who acts in which order; the first one's turn begins, round 1."""

    kind: Literal["turn-order"] = "turn-order"
    order: tuple[str, ...] = Field(min_length=1, max_length=MAX_ORDER)


class NextTurn(Frozen):
    """The turn passes to the next in the order (after the last, a new round begins)."""

    kind: Literal["next-turn"] = "next-turn"


class EndTurns(Frozen):
    """No more turns in order: the fight or the scene is over."""

    kind: Literal["end-turns"] = "end-turns"


TURN_INTENTS = (SetTurnOrder, NextTurn, EndTurns)
TurnIntent = SetTurnOrder | NextTurn | EndTurns


def turn_offers(
    turns: Turns,
    member: Member,
    everyone: Sequence[str],
    plays: Callable[[str], bool],
) -> list[Offer]:
    """The GM's levers over the turns, and "end my turn" for the member who plays the one
    whose turn it is (`plays(id)`: whether `member` plays that character)."""
    found: list[Offer] = []
    if member.is_gm and everyone:
        found.append(
            offer(
                "turn-order",
                "set the turn order",
                order=Choice(example=list(everyone), items=tuple(everyone), ordered=True),
            )
        )
    whose = turns.whose
    if whose is not None and (member.is_gm or plays(whose)):
        found.append(
            Offer(kind="next-turn", text="end this turn", intents=({"kind": "next-turn"},))
        )
    if member.is_gm and turns.order:
        found.append(
            Offer(kind="end-turns", text="end the turns", intents=({"kind": "end-turns"},))
        )
    return found


def take_turns(
    turns: Turns,
    intent: TurnIntent,
    names: Mapping[str, str],
    member: Member,
    plays: Callable[[str], bool],
) -> tuple[Turns, list[Event]]:
    """The turns after the GM's or the current player's step, and what the table is told;
    `names` holds the name of every id at the table."""
    if isinstance(intent, SetTurnOrder):
        if not member.is_gm:
            raise PermissionDenied("only the GM sets the turn order")
        unknown = [who for who in intent.order if who not in names]
        if unknown:
            raise RulesError(f"nobody at the table is {unknown[0]!r}")
        if len(set(intent.order)) != len(intent.order):
            raise RulesError("each one takes one place in the turn order")
        after = Turns(order=intent.order, current=0, round=1)
        listed = ", ".join(names[who] for who in intent.order)
        return after, [
            note("turn order", f"the turn order: {listed}", order=list(intent.order)),
            _begins(after, names),
        ]
    if not turns.order or turns.current is None:
        raise RulesError("there is no turn order: the GM sets one first")
    if isinstance(intent, EndTurns):
        if not member.is_gm:
            raise PermissionDenied("only the GM ends the turns")
        return Turns(), [note("turns ended", "the turns are over")]
    whose = turns.order[turns.current]
    if not (member.is_gm or plays(whose)):
        raise PermissionDenied(f"it is {names.get(whose, whose)}'s turn, not yours to end")
    following = turns.current + 1
    after = (
        turns.model_copy(update={"current": following})
        if following < len(turns.order)
        else turns.model_copy(update={"current": 0, "round": turns.round + 1})
    )
    # who ended the turn, said first: the log credits a step's first line to the member who
    # sent it, and the next turn's line alone would read as theirs ("Bo: Cora's turn")
    name = names.get(whose, whose)
    ended = note("turn ended", f"{name} ends the turn", whose=whose, round=turns.round)
    return after, [ended, _begins(after, names)]


def _begins(turns: Turns, names: Mapping[str, str]) -> Event:
    whose = turns.whose
    assert whose is not None
    return note(
        "turn",
        f"round {turns.round}: {names.get(whose, whose)}'s turn",
        whose=whose,
        round=turns.round,
    )


def without(turns: Turns, gone: str) -> Turns:
    """The turns once `gone` has left the table (taken away, removed from the fight)."""
    if gone not in turns.order:
        return turns
    order = tuple(who for who in turns.order if who != gone)
    if not order:
        return Turns()
    current = turns.current
    if current is not None:
        index = turns.order.index(gone)
        current = current - 1 if index < current else current % len(order)
    return turns.model_copy(update={"order": order, "current": current})


def turn_view(
    order: Sequence[tuple[str, str]],
    whose: str | None,
    round: int,
    players: Mapping[str, str],
    by: Literal["the GM", "the rules"] = "the GM",
) -> dict[str, Any] | None:
    """What every member sees of the turns: each one in the order (id, name and the member
    who plays it, if a player does), whose turn it is now, the round, and who moves it on;
    None while there is no order."""
    if not order:
        return None
    return {
        "order": [{"id": who, "name": name, "player": players.get(who)} for who, name in order],
        "current": whose,
        "round": round,
        "by": by,
    }


# one table's turns --------------------------------------------------------------------------


class Ruled(NamedTuple):
    """The order a system's rules keep while they keep one (a Constitution fight's
    initiative): each one in it (id and name) in order, whose turn it is, the round, and the
    member who plays each one a player plays."""

    order: Sequence[tuple[str, str]]
    whose: str | None
    round: int
    players: Mapping[str, str]


class TurnKeeper(Generic[StateT]):
    """How a table keeps its turns in its state's `field`: the offers, the rules step for
    `TURN_INTENTS`, the view and what is left when one leaves. The system gives who is at
    the table (`seated`: each id's name and player) and, where its book keeps an order of
    its own, `ruled`: that order while the rules keep it (the GM's levers step aside)."""

    intents = TURN_INTENTS

    def __init__(
        self,
        seated: Callable[[StateT], Mapping[str, Seated]],
        ruled: Callable[[StateT], Ruled | None] | None = None,
        field: str = "turns",
    ) -> None:
        self.seated = seated
        self.ruled = ruled or (lambda state: None)
        self.field = field

    def turns(self, state: StateT) -> Turns:
        found: Turns = getattr(state, self.field)
        return found

    def offers(self, state: StateT, member: Member) -> list[Offer]:
        if self.ruled(state) is not None:
            return []
        seated = self.seated(state)
        return turn_offers(self.turns(state), member, list(seated), plays(member, seated))

    def apply(
        self, state: StateT, intent: TurnIntent, member: Member
    ) -> tuple[StateT, list[Event]]:
        """The GM's or the current player's step, refused while the rules keep the order."""
        if self.ruled(state) is not None:
            raise RulesError("the rules move the turn now; the GM's turn order waits")
        seated = self.seated(state)
        names = {who: one.name for who, one in seated.items()}
        after, events = take_turns(self.turns(state), intent, names, member, plays(member, seated))
        return state.model_copy(update={self.field: after}), events

    def view(self, state: StateT) -> dict[str, Any] | None:
        """The turns every member sees: the rules' order while they keep one, else the GM's."""
        ruled = self.ruled(state)
        if ruled is not None:
            return turn_view(ruled.order, ruled.whose, ruled.round, ruled.players, "the rules")
        turns, seated = self.turns(state), self.seated(state)
        order = [(who, seated[who].name if who in seated else who) for who in turns.order]
        players = {who: one.player for who, one in seated.items() if one.player is not None}
        return turn_view(order, turns.whose, turns.round, players)

    def without(self, state: StateT, gone: str) -> StateT:
        """The state once `gone` has left the table: out of the turn order."""
        return state.model_copy(update={self.field: without(self.turns(state), gone)})
