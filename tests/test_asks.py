"""The GM asks a player for a roll (tabletop/asks.py; docs/architecture.md, "The GM asks
for a roll"): the GM names the character, what to roll and the DC, shown or kept; the
player who plays that character answers with one tap; only the GM asks and drops."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from tabletop import kept
from tabletop.asks import GM_KEEPS, AskRoll, Asks, ask_offers, ask_view, asked, gm_lever, taken
from tabletop.errors import PermissionDenied, RulesError
from tabletop.session import Member
from tabletop.systems.constitution.table_asks import ASKS as CONSTITUTION
from tabletop.systems.rollunder.table_asks import ASKS as ROLLUNDER

GM, ADA, BO = Member.gm(), Member.player("p1", "Ada"), Member.player("p2", "Bo")
NAMES = {"c1": "Mara", "c2": "Wren"}
OWNERS = {"c1": "p1", "c2": "p2"}


class Score(BaseModel):
    score: str


def plays(member: Member):
    return lambda who: OWNERS.get(who) == member.id


def describe(ask) -> str:
    return f"{NAMES[ask.character]}: a {ask.what['score']} check"


def ask(dc_shown: bool) -> tuple[Asks, list]:
    intent = AskRoll[Score](character="c1", what=Score(score="AGI"), dc=9, dc_shown=dc_shown)
    return asked(Asks(), intent, GM, NAMES, "an AGI check")


def test_the_gm_asks_and_the_line_says_the_dc_only_when_it_is_shown():
    asks, events = ask(dc_shown=True)
    assert [e.text for e in events] == ["the GM asks Mara for an AGI check against DC 9"]
    asks, events = ask(dc_shown=False)
    assert [(kept.plain(e.text), e.hint) for e in events] == [
        (
            "the GM asks Mara for an AGI check against DC 9, which the GM keeps",
            "the GM asks Mara for an AGI check against a DC the GM keeps",
        )
    ]
    assert kept.owners(events[0].text) == {GM_KEEPS}
    assert ask_view(asks, ADA, describe) == [
        {"id": "a1", "character": "c1", "text": "Mara: a AGI check", "dc": None, "dc_kept": True}
    ]
    assert ask_view(asks, GM, describe)[0]["dc"] == 9


def test_only_the_player_of_the_character_answers_with_one_tap_and_only_the_gm_asks():
    asks, _ = ask(dc_shown=False)
    taps = {
        m.id: [
            o.intents
            for o in ask_offers(asks, m, list(NAMES), plays(m), describe, {})
            if o.kind == "answer-ask"
        ]
        for m in (ADA, BO)
    }
    assert taps == {"p1": [({"kind": "answer-ask", "ask": "a1"},)], "p2": []}
    with pytest.raises(PermissionDenied, match="another player"):
        taken(asks, "a1", BO, plays(BO))
    rest, found = taken(asks, "a1", ADA, plays(ADA))
    assert found.what == {"score": "AGI"} and rest.waiting == {}
    with pytest.raises(RulesError, match="no roll 'a1'"):
        taken(rest, "a1", ADA, plays(ADA))
    with pytest.raises(PermissionDenied, match="only the GM"):
        asked(Asks(), AskRoll[Score](character="c1", what=Score(score="AGI")), ADA, NAMES, "x")


def test_a_player_sets_no_dc_advantage_or_harm_unless_the_table_hands_it_over():
    gm_lever(GM, False, "the DC")
    gm_lever(ADA, True, "the DC")
    with pytest.raises(PermissionDenied, match="the GM sets wounds at this table"):
        gm_lever(ADA, False, "wounds")


def test_a_table_whose_empty_dc_is_the_books_shows_no_example_dc():
    """Roll-under's empty number is the character's own score, Constitution's DC 20: a
    greyed 8 in the GM's form read as the DC left there (issue 30's new GM)."""
    assert CONSTITUTION.dc_example is None and ROLLUNDER.dc_example is None
    (asking,) = [o for o in ask_offers(Asks(), GM, ["c1"], lambda c: True, str, {}, None)]
    assert asking.fields["dc"].example is None
