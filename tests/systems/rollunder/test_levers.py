"""The GM's levers at a roll-under table (CR-S10, issue 31): what the chapter gives the GM
(the challenge level, the scores a roll is made against, harm and healing outside a rule
that deals them) a player's intent may not set, in the offers nor in the rules themselves,
unless the table's `players_set_difficulty` hands it over."""

from __future__ import annotations

from typing import Any

import pytest

from tabletop.dice import FixedDice
from tabletop.errors import PermissionDenied, TabletopError
from tabletop.offers import Offer
from tabletop.systems.rollunder import SESSION, RollUnderTable
from tests.systems.rollunder.test_session import ASH, GM, character, play

SET_BY_THE_GM: list[tuple[dict[str, Any], list[int]]] = [
    ({"kind": "ability-roll", "character": "c1", "ability": "STR", "level": "trivial"}, []),
    (
        {"kind": "collective-roll", "characters": ["c1"], "ability": "WIT", "level": "impossible"},
        [],
    ),
    ({"kind": "score-roll", "rollers": [{"name": "Rival", "score": 10}]}, [5]),
    (
        {
            "kind": "contest",
            "ability": "AGI",
            "sides": [
                {"name": "us", "characters": ["c1"]},
                {"name": "them", "scores": [{"name": "Rival", "score": 12}]},
            ],
            "rolls": 1,
        },
        [3, 15],
    ),
    ({"kind": "suffer-hit", "character": "c1", "damage": "3"}, []),
    ({"kind": "suffer-corruption", "character": "c1", "gain": 1}, [12]),
    ({"kind": "lose-ability", "character": "c1", "ability": "WIT", "amount": 1}, []),
    ({"kind": "heal", "character": "c1", "amount": 2}, []),
    ({"kind": "gain-ability", "character": "c1", "ability": "WIT", "amount": 1}, []),
]
"""One intent of each kind that sets what the chapter gives the GM, with the dice it draws
when it is allowed."""

WHAT = ["the challenge level"] * 2 + ["the scores rolled against"] * 2 + ["wounds"] * 3
WHAT += ["healing"] * 2


def ashs_table(**options: Any) -> RollUnderTable:
    """Ash (STR 12, health 10 of 14), played by p1, at a table with these options."""
    state = SESSION.new(options)
    state, _ = play(state, {"kind": "import-character", "sheet": character("Ash")}, ASH)
    return state


def first_of_each(offers: list[Offer]) -> dict[str, Offer]:
    """The table's own offer of each kind (a sheet's rows offer some kinds again)."""
    return {o.kind: o for o in reversed(offers)}


@pytest.mark.parametrize(
    ("intent", "what"), list(zip([i for i, _ in SET_BY_THE_GM], WHAT, strict=True))
)
def test_cr_s10_a_players_intent_setting_the_gms_part_is_refused_and_changes_nothing(intent, what):
    """CR-S10, § Challenge Levels: refused on the wire (no offer covers it) and by the rules
    themselves (`apply`, which the command line and any caller reach), with one line that
    says whose it is; the table is as it was."""
    state = ashs_table()
    before = state.model_dump()
    with pytest.raises(TabletopError):
        SESSION.resolve(state, intent, ASH, FixedDice([]))
    with pytest.raises(PermissionDenied, match=f"the GM sets {what} at this table"):
        SESSION.apply(state, SESSION.parse_intent(intent), ASH, FixedDice([]))
    assert state.model_dump() == before


@pytest.mark.parametrize(("intent", "faces"), SET_BY_THE_GM)
def test_cr_s10_the_gm_sets_it_and_a_table_may_hand_it_to_the_players(intent, faces):
    """CR-S10: the GM's intent goes ahead; with `players_set_difficulty` on, the player's
    does too, on the same dice."""
    play(ashs_table(), intent, GM, faces)
    play(ashs_table(players_set_difficulty=True), intent, ASH, faces)


def test_cr_s10_the_players_offers_carry_none_of_the_gms_levers_the_gms_do():
    """CR-S05, CR-S10: a player is offered challenging rolls only, no bare scores, no hits,
    corruption, ability changes or healing of their own; the GM is offered them all."""
    ash = first_of_each(SESSION.legal(ashs_table(), ASH))
    gm = first_of_each(SESSION.legal(ashs_table(), GM))
    levers = {"score-roll", "suffer-hit", "suffer-corruption", "lose-ability", "gain-ability"}
    levers.add("heal")
    assert not levers & set(ash) and levers <= set(gm)
    assert ash["ability-roll"].fields["level"].values == ("challenging",)
    assert gm["ability-roll"].fields["level"].values == ("trivial", "challenging", "impossible")
    # the player's forms, their sheet's rolls too, show the level they roll at and who sets
    # it (issue 30); whoever sets it picks it there
    for member, fixed in ((ASH, "set by the GM"), (GM, "")):
        rolls = [o for o in SESSION.legal(ashs_table(), member) if o.kind == "ability-roll"]
        assert len(rolls) == 4 and {o.fields["level"].fixed for o in rolls} == {fixed}
    theirs = SESSION.legal(ashs_table(players_set_difficulty=True), ASH)
    assert {len(o.fields["level"].values) for o in theirs if o.kind == "ability-roll"} == {3}
    handed = {o.kind for o in SESSION.legal(ashs_table(players_set_difficulty=True), ASH)}
    assert levers <= handed


def test_issue_30_the_contest_form_starts_with_nobody_at_the_table_on_a_side():
    """Issue 30 (Broken): the contest's example put the asker's first character on side 1,
    so a form built from it rolled for a side nobody chose. The GM's starts with a bare
    score on each side (theirs to set, CR-S10) and no character; a player, who enters only
    characters they play, is offered a contest once they play two, starting with nobody."""
    (contest,) = [o for o in SESSION.legal(ashs_table(), GM) if o.kind == "contest"]
    sides = contest.fields["sides"].example
    assert [side.get("characters", []) for side in sides] == [[], []]
    assert [[s["name"] for s in side["scores"]] for side in sides] == [["Hero"], ["Rival"]]
    assert "contest" not in {o.kind for o in SESSION.legal(ashs_table(), ASH)}
    two, _ = play(ashs_table(), {"kind": "import-character", "sheet": character("Cy")}, ASH)
    (contest,) = [o for o in SESSION.legal(two, ASH) if o.kind == "contest"]
    assert contest.fields["sides"].example == [{"name": "us"}, {"name": "them"}]
    nobody = {"kind": "contest", "ability": "STR", "sides": [{"name": "us"}, {"name": "them"}]}
    with pytest.raises(TabletopError, match="us has nobody: tick a character or add a score"):
        SESSION.resolve(two, nobody, ASH, FixedDice([]))
