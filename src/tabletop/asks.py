"""The GM asks a player for a roll, the same at every RPG table: what to roll (the system's
own: a score, an attribute, an ability), for which character, against what (a DC, which the
player sees or does not), and the player answers with one tap.

The asks wait in the table's state until answered or dropped. Answering runs the system's
own rule with the GM's DC (`roll_asked`, which each system gives `AskDesk`); a DC the GM
keeps reaches the players as `?`, and so does the verdict it decides, because the lines mark
both as the GM's (`kept.secret(GM_KEEPS, …)`), which every session keeps from the players
(`kept.KEPT_BY_THE_GM`). docs/architecture.md, "The GM asks for a roll".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, Field

from tabletop.dice import DiceSource
from tabletop.errors import PermissionDenied, RulesError
from tabletop.kept import GM_KEEPS, secret
from tabletop.offers import Choice, Offer, offer
from tabletop.session import MAX_NAME, Event, Frozen, Member, Seated, note, plays

WhatT = TypeVar("WhatT", bound=BaseModel)
StateT = TypeVar("StateT", bound=BaseModel)

MAX_ASKS = 20
"""Asks one table keeps waiting at once."""


LEVERS_HANDED_OVER = "players_set_difficulty"
"""The table option (in each RPG's options, off unless the GM turns it on) that hands the
players what the rules give the GM: the DC, (dis)advantage, and wounds and healing."""


def gm_lever(member: Member, handed_over: bool, what: str) -> None:
    """Refuse a player's intent that sets what the rules give the GM (`what`: "the DC",
    "advantage", "wounds", "healing"), unless the table's option hands it over."""
    if not (member.is_gm or handed_over):
        raise PermissionDenied(
            f"the GM sets {what} at this table (a table option can hand it to the players)"
        )


class AskRoll(Frozen, Generic[WhatT]):
    """The GM asks whoever plays `character` for a roll of `what`, against `dc` (shown to
    them, or kept by the GM), for a reason the table reads."""

    kind: Literal["ask-roll"] = "ask-roll"
    character: str = Field(min_length=1, max_length=64)
    what: WhatT
    dc: int | None = Field(default=None, ge=-100, le=1000)
    dc_shown: bool = True
    reason: str = Field(default="", max_length=MAX_NAME)


class AnswerAsk(Frozen):
    """The player rolls what the GM asked for."""

    kind: Literal["answer-ask"] = "answer-ask"
    ask: str = Field(min_length=1, max_length=16)


class DropAsk(Frozen):
    """The GM takes an ask back before it is answered."""

    kind: Literal["drop-ask"] = "drop-ask"
    ask: str = Field(min_length=1, max_length=16)


class Ask(Frozen):
    """A roll the GM asked for, waiting for its answer (`what` as the system's model wrote
    it, read again by the system when it is answered)."""

    character: str
    what: dict[str, Any]
    dc: int | None = None
    dc_shown: bool = True
    reason: str = ""


class Asks(Frozen):
    """The asks waiting at a table, by id (`a1`, `a2`, …, never reused)."""

    waiting: dict[str, Ask] = Field(default_factory=dict)
    counter: int = Field(default=1, ge=1)


def ask_offers(
    asks: Asks,
    member: Member,
    characters: Sequence[str],
    plays: Callable[[str], bool],
    describe: Callable[[Ask], str],
    example: Mapping[str, Any],
    dc_example: int | None = 8,
    within: Mapping[str, Choice] | None = None,
) -> list[Offer]:
    """The GM's: ask for a roll (of any character at the table), drop a waiting ask; the
    player's: answer each ask for a character they play (`plays`), one tap each, labelled
    with what is asked (`describe`); the GM may answer any (rolling for a player who is
    away); `within`, what the fields of a roll may be picked from (the skills a check names)."""
    found: list[Offer] = []
    if member.is_gm and characters and len(asks.waiting) < MAX_ASKS:
        found.append(
            offer(
                "ask-roll",
                "ask for a roll",
                character=Choice(values=tuple(characters)),
                what=Choice(example=dict(example), within=dict(within or {})),
                dc=Choice(example=dc_example),
                dc_shown=Choice(),
                reason=Choice(example="to climb the wall"),
            )
        )
    for aid, ask in asks.waiting.items():
        if member.is_gm or plays(ask.character):
            intent = {"kind": "answer-ask", "ask": aid}
            found.append(Offer(kind="answer-ask", text=describe(ask), intents=(intent,)))
        if member.is_gm:
            dropped = {"kind": "drop-ask", "ask": aid}
            found.append(
                Offer(kind="drop-ask", text=f"take back: {describe(ask)}", intents=(dropped,))
            )
    return found


def asked(
    asks: Asks, intent: AskRoll[Any], member: Member, names: Mapping[str, str], said: str
) -> tuple[Asks, list[Event]]:
    """The asks with the GM's new one waiting, and the line that asks it (`said`: what is
    asked, in the system's words: "an AGI check"); a kept DC is the GM's part of it."""
    if not member.is_gm:
        raise PermissionDenied("only the GM asks for a roll")
    if intent.character not in names:
        raise RulesError(f"nobody at the table is {intent.character!r}")
    if len(asks.waiting) >= MAX_ASKS:
        raise RulesError(f"a table keeps at most {MAX_ASKS} asks waiting")
    aid = f"a{asks.counter}"
    ask = Ask.model_validate(intent.model_dump(mode="json", exclude={"kind"}))
    why = f" ({intent.reason})" if intent.reason else ""
    asking = f"the GM asks {names[intent.character]} for {said}"
    told = note("ask", f"{asking}{_against(ask)}{why}", ask=aid, character=intent.character)
    if ask.dc is not None and not ask.dc_shown:
        kept_dc = f" against DC {secret(GM_KEEPS, ask.dc)}, which the GM keeps"
        told = told.model_copy(update={"text": f"{asking}{kept_dc}{why}", "hint": told.text})
    waiting = {**asks.waiting, aid: ask}
    after = asks.model_copy(update={"waiting": waiting, "counter": asks.counter + 1})
    return after, [told]


def _against(ask: Ask) -> str:
    if ask.dc is None:
        return ""
    return f" against DC {ask.dc}" if ask.dc_shown else " against a DC the GM keeps"


def taken(asks: Asks, aid: str, member: Member, plays: Callable[[str], bool]) -> tuple[Asks, Ask]:
    """The asks without `aid`, and the ask, for its answer (by who plays its character, or
    the GM) or for the GM to drop."""
    ask = asks.waiting.get(aid)
    if ask is None:
        raise RulesError(f"no roll {aid!r} is asked for")
    if not (member.is_gm or plays(ask.character)):
        raise PermissionDenied("that roll is asked of another player")
    rest = {key: value for key, value in asks.waiting.items() if key != aid}
    return asks.model_copy(update={"waiting": rest}), ask


def ask_view(asks: Asks, member: Member, describe: Callable[[Ask], str]) -> list[dict[str, Any]]:
    """The asks waiting, as a member sees them: what is asked of whom, and the DC only when
    shown (or to the GM)."""
    shown = []
    for aid, ask in asks.waiting.items():
        dc = ask.dc if member.is_gm or ask.dc_shown else None
        shown.append(
            {
                "id": aid,
                "character": ask.character,
                "text": describe(ask),
                "dc": dc,
                "dc_kept": ask.dc is not None and not ask.dc_shown,
            }
        )
    return shown


# one table's asks ---------------------------------------------------------------------------

RollAsked = Callable[[Any, Ask, DiceSource], list[Event] | tuple[Any, list[Event]]]
"""A system's rule for an answered ask: its own roll of `ask.what` for `ask.character`
against the GM's DC (the system's usual one when None), the DC and verdict of a kept DC
marked `secret(GM_KEEPS, …)` and the dice rolled for the character (`rolled_for`); with the
state it leaves where the roll is left under way (Dead Weight's re-roll exchange)."""


def _without_dc(found: Offer) -> Offer:
    """An offer as a table whose rolls take no DC makes it: the GM's asking fixes none."""
    if found.kind != "ask-roll":
        return found
    fields = {k: v for k, v in found.fields.items() if k != "dc"}
    return found.model_copy(update={"fields": fields, "preset": {"dc": None, "dc_shown": True}})


class AskDesk(Generic[StateT, WhatT]):
    """How a table keeps the GM's asks in its state's `field`: the intents, offers, rules
    step, view and what is left when a character leaves. The system gives what a roll is
    (`what`, its model), how its words say one (`said`: "a wits check"), an example for the
    GM's form, who may be asked (`seated`: its characters with their players) and its rule
    for an answered ask (`roll_asked`); where its book says more of an ask, the rule that
    refuses one before it is taken (`refuse`), and `with_dc=False` where its rolls take no
    DC (the GM's form then has none); `dc_example`, the DC the GM's form shows greyed as
    an example (None where an empty DC means the book's own: a placeholder would read as
    the DC left empty); `picks`, what the fields of a roll are picked from at a table now
    (the skills a check may name), where the table keeps lists of them."""

    def __init__(
        self,
        what: type[WhatT],
        said: Callable[[WhatT], str],
        example: Mapping[str, Any],
        seated: Callable[[StateT], Mapping[str, Seated]],
        roll_asked: RollAsked,
        field: str = "asks",
        refuse: Callable[[StateT, AskRoll[Any]], None] | None = None,
        with_dc: bool = True,
        dc_example: int | None = 8,
        picks: Callable[[StateT], Mapping[str, Choice]] | None = None,
    ) -> None:
        self.what = what
        self.said = said
        self.example = dict(example)
        self.seated = seated
        self.roll_asked = roll_asked
        self.field = field
        self.refuse = refuse or (lambda state, intent: None)
        self.with_dc = with_dc
        self.dc_example = dc_example
        self.picks = picks or (lambda state: {})
        self.intents = (AskRoll[what], AnswerAsk, DropAsk)  # type: ignore[valid-type]

    def asks(self, state: StateT) -> Asks:
        found: Asks = getattr(state, self.field)
        return found

    def read(self, ask: Ask) -> WhatT:
        """What `ask` asks for, as the system's model reads it."""
        return self.what.model_validate(ask.what)

    def describe(self, state: StateT) -> Callable[[Ask], str]:
        """How one ask reads on a button and in the view: whose roll, what, against what."""
        seated = self.seated(state)

        def told(ask: Ask) -> str:
            name = seated[ask.character].name if ask.character in seated else ask.character
            why = f" ({ask.reason})" if ask.reason else ""
            return f"{name}: {self.said(self.read(ask))}{_against(ask)}{why}"

        return told

    def offers(self, state: StateT, member: Member) -> list[Offer]:
        seated = self.seated(state)
        asked_of = [who for who, one in seated.items() if one.player is not None]
        found = ask_offers(
            self.asks(state),
            member,
            asked_of,
            plays(member, seated),
            self.describe(state),
            self.example,
            self.dc_example,
            self.picks(state),
        )
        return found if self.with_dc else [_without_dc(o) for o in found]

    def apply(
        self,
        state: StateT,
        intent: AskRoll[Any] | AnswerAsk | DropAsk,
        member: Member,
        dice: DiceSource,
    ) -> tuple[StateT, list[Event]]:
        """The GM asks or takes an ask back; whoever plays the character (or the GM, for a
        player who is away) answers it, which runs the system's roll with the ask's DC."""
        seated = self.seated(state)
        asks = self.asks(state)
        if isinstance(intent, AskRoll):
            self.refuse(state, intent)
            names = {who: one.name for who, one in seated.items()}
            after, events = asked(asks, intent, member, names, self.said(intent.what))
            return state.model_copy(update={self.field: after}), events
        if isinstance(intent, DropAsk) and not member.is_gm:
            raise PermissionDenied("only the GM takes back a roll asked for")
        rest, ask = taken(asks, intent.ask, member, plays(member, seated))
        state = state.model_copy(update={self.field: rest})
        if isinstance(intent, DropAsk):
            return state, [
                note(
                    "ask dropped", f"the GM takes back {self.describe(state)(ask)}", ask=intent.ask
                )
            ]
        rolled = self.roll_asked(state, ask, dice)
        state, events = rolled if isinstance(rolled, tuple) else (state, rolled)
        first = events[0].model_copy(update={"data": {**events[0].data, "ask": intent.ask}})
        return state, [first, *events[1:]]

    def view(self, state: StateT, member: Member) -> list[dict[str, Any]]:
        return ask_view(self.asks(state), member, self.describe(state))

    def without(self, state: StateT, gone: str) -> StateT:
        """The state once `gone` has left the table: no roll is asked of them any more."""
        asks = self.asks(state)
        waiting = {aid: ask for aid, ask in asks.waiting.items() if ask.character != gone}
        return state.model_copy(update={self.field: asks.model_copy(update={"waiting": waiting})})
