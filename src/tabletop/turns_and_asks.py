"""The turns and the GM's asks together, as every RPG session routes, offers and shows them:
one table's `TurnKeeper` and `AskDesk`, so a session names them once instead of wiring each
intent, offer and view by hand."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from tabletop.asks import AnswerAsk, AskDesk, AskRoll, DropAsk
from tabletop.dice import DiceSource
from tabletop.offers import Offer
from tabletop.session import Event, Member, Seated
from tabletop.turns import TURN_INTENTS, TurnKeeper

StateT = TypeVar("StateT", bound=BaseModel)


class TurnsAndAsks(Generic[StateT]):
    """A table's turns and asks: their intents, offers, rules step, view and leavers."""

    def __init__(self, turns: TurnKeeper[StateT], asks: AskDesk[StateT, Any]) -> None:
        self.turns = turns
        self.asks = asks
        self.intents = (*turns.intents, *asks.intents)

    def offers(self, state: StateT, member: Member) -> list[Offer]:
        return self.turns.offers(state, member) + self.asks.offers(state, member)

    def seated(self, state: StateT) -> Mapping[str, Seated]:
        """Everyone who takes turns at the table, by id."""
        return self.turns.seated(state)

    def takes(self, intent: object) -> bool:
        """Whether `intent` is a turn's or an ask's, for `apply`."""
        return isinstance(intent, (*TURN_INTENTS, AskRoll, AnswerAsk, DropAsk))

    def apply(
        self, state: StateT, intent: Any, member: Member, dice: DiceSource
    ) -> tuple[StateT, list[Event]]:
        if isinstance(intent, TURN_INTENTS):
            return self.turns.apply(state, intent, member)
        return self.asks.apply(state, intent, member, dice)

    def view(self, state: StateT, member: Member) -> dict[str, Any]:
        """The `turn` and `asks` parts of a member's view."""
        return {"turn": self.turns.view(state), "asks": self.asks.view(state, member)}

    def without(self, state: StateT, gone: str) -> StateT:
        """The state once `gone` has left the table: out of the turns, asked for nothing."""
        return self.asks.without(self.turns.without(state, gone), gone)
