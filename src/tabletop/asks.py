"""The GM asks a player for a roll, the same at every RPG table: what to roll (the system's
own: a score, an attribute, an ability), for which character, against what (a DC, which the
player sees or does not), and the player answers with one tap.

The asks wait in the table's state until answered or dropped. Answering runs the system's
own rule with the GM's DC (`Session` code in each system gives `roll_asked`); a DC the GM
keeps reaches the player's line as `?`, and so does the verdict it decides, because the
system marks both as the GM's (`kept.secret(GM_KEEPS, …)`) and counts `GM_KEEPS` among what
it keeps from the players. docs/architecture.md, "The GM asks for a roll".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, Field

from tabletop.errors import PermissionDenied, RulesError
from tabletop.session import MAX_NAME, Choice, Event, Frozen, Member, Offer, note, offer

WhatT = TypeVar("WhatT", bound=BaseModel)

MAX_ASKS = 20
"""Asks one table keeps waiting at once."""

GM_KEEPS = "the GM's difficulty"
"""The owner a system marks a kept DC and its verdict with (`kept.secret`): players read
them as `?`."""


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
) -> list[Offer]:
    """The GM's: ask for a roll (of any character at the table), drop a waiting ask; the
    player's: answer each ask for a character they play, one tap each, labelled with what
    is asked (`describe`)."""
    found: list[Offer] = []
    if member.is_gm and characters and len(asks.waiting) < MAX_ASKS:
        found.append(
            offer(
                "ask-roll",
                "ask for a roll",
                character=Choice(values=tuple(characters)),
                what=Choice(example=dict(example)),
                dc=Choice(example=8),
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
    asked, in the system's words: "an AGI check")."""
    if not member.is_gm:
        raise PermissionDenied("only the GM asks for a roll")
    if intent.character not in names:
        raise RulesError(f"nobody at the table is {intent.character!r}")
    if len(asks.waiting) >= MAX_ASKS:
        raise RulesError(f"a table keeps at most {MAX_ASKS} asks waiting")
    aid = f"a{asks.counter}"
    ask = Ask.model_validate(intent.model_dump(mode="json", exclude={"kind"}))
    against = _against(ask)
    why = f" ({intent.reason})" if intent.reason else ""
    text = f"the GM asks {names[intent.character]} for {said}{against}{why}"
    waiting = {**asks.waiting, aid: ask}
    after = asks.model_copy(update={"waiting": waiting, "counter": asks.counter + 1})
    return after, [note("ask", text, ask=aid, character=intent.character)]


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
