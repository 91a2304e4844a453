"""Answers that give nothing away (docs/rooms.md, "Threat model"): a player's refusal reads the
same whether the hidden thing it names exists or not, and whatever the secret behind it; and
every error the server gives, the framework's own included, is one line of JSON."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from tabletop.dice import SeededDice
from tabletop.errors import TabletopError
from tabletop.rooms.server import problem
from tabletop.session import Member, Session
from tabletop.systems.registry import system
from tests.rooms.conftest import seat


def answer(attempt) -> tuple[Any, ...]:
    """What a member is told: ("ok",) or the status and the one line the server sends."""
    try:
        attempt()
    except TabletopError as refused:
        sent = problem(refused)
        return sent.status_code, json.loads(sent.body)["error"]
    return ("ok",)


def told_alike(first: tuple[Any, ...], second: tuple[Any, ...], names: tuple[str, str]) -> bool:
    """Whether two answers are the same but for the name each request itself gave."""
    return first[:1] == second[:1] and str(first[1:]).replace(names[0], "·") == str(
        second[1:]
    ).replace(names[1], "·")


# through the hall (as the server answers) --------------------------------------------------


def hall_answers(room, member: str, intents: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    player, hall = room.member(member), room.hall
    return [
        answer(lambda intent=intent, n=n: hall.act(room.room, player.id, intent, f"q{n}"))
        for n, intent in enumerate(intents, start=len(hall.entries(room.room)))
    ]


@pytest.mark.parametrize("kind", ["advance-tracker", "show-tracker"])
def test_a_hidden_trackers_name_is_answered_like_a_name_nobody_used(dead_weight_room, kind):
    """Issue 21: `advance-tracker` with a hidden tracker's name answered 403, any other 400."""
    room, gm = dead_weight_room, dead_weight_room.member("GM")
    hidden = {"kind": "new-tracker", "name": "the flood", "segments": 6, "tracker_kind": "doom"}
    room.hall.act(room.room, gm.id, hidden, "t1")
    real, made_up = (
        {"kind": kind, "name": name, **({"visible": True} if kind == "show-tracker" else {})}
        for name in ("the flood", "the fog")
    )
    said = hall_answers(room, "Ada", [real, made_up])
    assert said[0] == said[1] and said[0][0] == 403


@pytest.fixture
def rollunder_room(hall):
    """Ada's open character c1, Bo's c2 and the GM's secret Shade, c3."""
    room = seat(hall, "rollunder")
    scores = {"STR": 12, "AGI": 10, "WIT": 9}
    for number, (who, name, secret) in enumerate(
        [("Ada", "Ash", False), ("Bo", "Brig", False), ("GM", "Shade", True)]
    ):
        intent = {"kind": "new-character", "name": name, "abilities": scores, "max_health": 10}
        hall.act(room.room, room.member(who).id, {**intent, "secret": secret}, f"n{number}")
    return room


def test_a_players_roll_naming_the_gms_secret_character_is_refused_like_a_missing_one(
    rollunder_room,
):
    for kind, extra in [("ability-roll", {"ability": "STR"}), ("heal", {"amount": 1})]:
        said = hall_answers(
            rollunder_room,
            "Ada",
            [{"kind": kind, "character": cid, **extra} for cid in ("c3", "c9")],
        )
        assert told_alike(said[0], said[1], ("c3", "c9")), said


def test_a_sheet_edit_naming_the_gms_secret_character_is_refused_like_a_missing_one(
    rollunder_room,
):
    """The rules explain a refused sheet edit only on a sheet the asker plays: on the GM's
    secret Shade (c3) it reads as on a character that does not exist (c9)."""
    for intent in (
        {"kind": "write-notes", "notes": "x"},
        {"kind": "rename-character", "name": "Shadow"},
        {"kind": "money", "amount": -3},
        {"kind": "move-item", "item": "rope", "where": "held", "to": "worn"},
        {"kind": "forget-spell", "spell": "mend"},
    ):
        said = hall_answers(
            rollunder_room, "Ada", [{**intent, "character": cid} for cid in ("c3", "c9")]
        )
        assert told_alike(said[0], said[1], ("c3", "c9")), said


def test_a_contest_against_a_secret_character_reads_like_one_against_anothers(rollunder_room):
    """Naming the GM's secret Shade in a contest is refused exactly as naming Bo's Brig: no
    sheet is read before whose character it is."""
    said = hall_answers(
        rollunder_room,
        "Ada",
        [
            {
                "kind": "contest",
                "ability": "STR",
                "sides": [
                    {"name": "us", "characters": ["c1"]},
                    {"name": "them", "characters": [c]},
                ],
            }
            for c in ("c3", "c2")
        ],
    )
    assert told_alike(said[0], said[1], ("Shade", "Brig")) and said[0][0] == 403


# NPCs the GM keeps hidden ------------------------------------------------------------------

SCORES = {"STR": 12, "AGI": 10, "WIT": 9}

NPC_TABLES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "dead-weight": (
        {"kind": "new-npc", "name": "Wight", "stats": {"level": 3, "wound_limit": 4}},
        {"kind": "import-character", "sheet": {"name": "Amber"}},
    ),
    "constitution": (
        {"kind": "npc-from-book", "creature": "Shield-bearer", "name": "Warden"},
        {"kind": "new-character", "name": "Cora"},
    ),
    "ap2d6": (
        {"kind": "npc-from-book", "creature": "Sneering guard", "name": "Guard"},
        {"kind": "new-character", "name": "Ayla"},
    ),
    "rollunder": (
        {"kind": "new-npc", "name": "Bog wight", "stats": {"abilities": SCORES, "max_health": 9}},
        {"kind": "new-character", "name": "Ash", "abilities": SCORES, "max_health": 10},
    ),
}
"""Each RPG's table for the NPC probes: the GM's hidden NPC (n1) and Ada's character (c1)."""

ITEM = {"name": "rope", "kind": "small"}

NPC_PROBES: dict[str, list[dict[str, Any]]] = {
    "all": [
        {"kind": "edit-npc", "npc": "·", "stat": "name", "value": "Shadow"},
        {"kind": "remove-npc", "npc": "·"},
        {"kind": "reveal-npc", "npc": "·", "revealed": True},
        {"kind": "rename-character", "character": "·", "name": "Shadow"},
        {"kind": "write-notes", "character": "·", "notes": "x"},
    ],
    "dead-weight": [
        {"kind": "npc-wounds", "npc": "·", "wounds": 1},
        {"kind": "npc-test", "kept": "·", "setup": {"attribute": "STR"}},
        {
            "kind": "opposed-test",
            "first": {"character": "c1", "setup": {"attribute": "DEX"}},
            "second": {"kept": "·", "setup": {"attribute": "STR"}},
        },
        {"kind": "test", "roller": "·", "setup": {"attribute": "DEX"}},
        {"kind": "coins", "character": "·", "silver": -3},
    ],
    "constitution": [
        {"kind": "npc-joins-fight", "npc": "·"},
        {"kind": "check", "character": "·", "ability": "wits", "dc": 12},
        {"kind": "join-fight", "character": "·"},
        {"kind": "rate-skill", "character": "·", "skill": "climbing", "rating": 40},
    ],
    "ap2d6": [
        {"kind": "check", "character": "·", "score": "AGI", "dc": 8},
        {"kind": "rest", "character": "·", "hours": 8, "recovery_dice": 1},
        {"kind": "death-check", "character": "·"},
        {"kind": "contest", "first": "c1", "second": "·", "score": "STR", "versus": "STR"},
        {"kind": "stow-item", "character": "·", "item": ITEM},
        {"kind": "drop-item", "character": "·", "index": 0},
        {"kind": "raise-score", "character": "·", "score": "STR"},
        {"kind": "buy-skill", "character": "·", "skill": "Climbing", "cost": 1},
    ],
    "rollunder": [
        {"kind": "ability-roll", "character": "·", "ability": "STR"},
        {"kind": "heal", "character": "·", "amount": 1},
        {"kind": "money", "character": "·", "amount": -3},
        {"kind": "move-item", "character": "·", "item": "rope", "where": "held", "to": "worn"},
        {"kind": "forget-spell", "character": "·", "spell": "mend"},
    ],
}
"""A player's intents naming an NPC by id (`·`), or its sheet where it sits as a character."""


def naming(intent: Any, nid: str) -> Any:
    """`intent` with every `·` in it naming `nid`."""
    if isinstance(intent, dict):
        return {key: naming(value, nid) for key, value in intent.items()}
    return nid if intent == "·" else intent


@pytest.mark.parametrize("system", list(NPC_TABLES))
def test_a_players_intent_naming_a_hidden_npc_is_refused_like_one_naming_nobody(hall, system):
    """C3-N05, DW-N04, RU-N05, CR-N02: a player's intent that names the GM's hidden NPC (n1)
    is answered as one naming no one at the table (n9): the rules explain a refusal only
    on what the asker plays, so no answer reads the NPC's sheet, its numbers or its place."""
    room = seat(hall, system)
    npc, character = NPC_TABLES[system]
    hall.act(room.room, room.member("GM").id, npc, "npc")
    hall.act(room.room, room.member("Ada").id, character, "mine")
    table = hall.table(room.room)
    assert table.session.view(table.state, room.member("Ada"))["npcs"][0]["revealed"] is False
    for probe in [*NPC_PROBES["all"], *NPC_PROBES[system]]:
        said = hall_answers(room, "Ada", [naming(probe, nid) for nid in ("n1", "n9")])
        assert "ok" not in (said[0][0], said[1][0]), (probe, said)
        assert told_alike(said[0], said[1], ("n1", "n9")), (probe, said)


# on the session, two tables that differ only in a secret -----------------------------------


def session_answers(
    session: Session[Any], state: Any, member: Member, intents: list[dict[str, Any]]
) -> list[tuple[Any, ...]]:
    return [
        answer(lambda intent=intent: session.resolve(state, intent, member, SeededDice(7)))
        for intent in intents
    ]


def test_a_downed_characters_secret_fate_changes_no_answer_to_their_player():
    """2d6 death DC (RU-A41): after three checks of [3, 3], Ayla is stable under DC 2 and
    secretly dead under DC 12; her player's offers, view and every refusal read the same."""
    from tests.systems.ap2d6.test_session import AYLA, GM, SESSION, play, seated

    def downed(dc: tuple[int, int]) -> Any:
        state, _ = play(seated(), {"kind": "damage", "character": "c1", "amount": 20}, GM, dc)
        for _ in range(3):
            state, _ = play(state, {"kind": "death-check", "character": "c1"}, AYLA, [3, 3])
        return state

    stable, dead = downed((1, 1)), downed((6, 6))
    assert stable.characters["c1"].sheet.life != dead.characters["c1"].sheet.life
    assert SESSION.legal(stable, AYLA) == SESSION.legal(dead, AYLA)
    assert SESSION.view(stable, AYLA) == SESSION.view(dead, AYLA)
    probes = [
        {"kind": "death-check", "character": "c1"},
        {"kind": "check", "character": "c1", "score": "AGI", "dc": 8},
        {"kind": "rest", "character": "c1", "hours": 9999},
        {"kind": "reveal-death-dc", "character": "c1"},
        {"kind": "damage", "character": "c1", "amount": 1},
        {"kind": "start-fight", "characters": ["c1"]},
    ]
    first, second = (session_answers(SESSION, s, AYLA, probes) for s in (stable, dead))
    refused = [(a, b) for a, b in zip(first, second, strict=True) if "ok" not in (a[0], b[0])]
    assert refused and all(a == b for a, b in refused), refused


def test_the_time_of_day_changes_no_answer_to_a_player():
    """Constitution (C3-A61): the party's time of day is the referee's; a player's offers,
    view and answers read the same at dawn and at dusk."""
    session = system("constitution").session
    player = Member.player("p1", "Ada")
    state = session.new()
    made = {"kind": "new-character", "name": "Ada", "character_class": "fighter"}
    for event in session.resolve(state, made, player, SeededDice(3)):
        state = session.fold(state, event)
    dawn = state
    dusk = state.model_copy(
        update={
            "clock": state.clock.model_copy(update={"turns": state.clock.turns.evolve(turns=70)})
        }
    )
    assert session.legal(dawn, player) == session.legal(dusk, player)
    assert session.view(dawn, player) == session.view(dusk, player)
    probes = [
        {"kind": "march", "terrain": "road"},
        {"kind": "explore", "turns": 3},
        {"kind": "light", "character": "c1", "light": "torch"},
        {"kind": "hunt", "character": "c1", "terrain": "forest", "rating": 40},
        {"kind": "camp"},
        {"kind": "rest", "character": "c1", "night": True},
    ]
    assert session_answers(session, dawn, player, probes) == session_answers(
        session, dusk, player, probes
    )


# the member cap ---------------------------------------------------------------------------


def test_the_member_cap_counts_current_members_and_ids_stay_unique(dice_room, monkeypatch):
    """Issue 21: the cap counted kicked members, so an invite holder could fill a room for
    good by joining and being kicked."""
    from tabletop.rooms import hall as hall_module

    monkeypatch.setattr(hall_module, "MAX_MEMBERS", 5)
    hall, room, gm = dice_room.hall, dice_room.room, dice_room.member("GM")
    invite = dice_room.tokens["player"]
    ids = []
    for number in range(6):
        ids.append(hall.join(room, invite, f"Guest {number}").extra["member"])
        hall.kick(room, gm.id, f"Guest {number}")  # which retires the invite: a new one
        invite = hall.rotate_invites(room, gm.id).extra["tokens"]["player"]
    assert len(set(ids)) == len(ids)
    ids.append(hall.join(room, invite, "Cy").extra["member"])  # GM, Ada, Bo, Watcher, Cy
    with pytest.raises(TabletopError, match="at most 5 members"):
        hall.join(room, invite, "Dee")
    assert len(set(ids)) == len(ids) == 7


# every error as one line of JSON -----------------------------------------------------------


@pytest.fixture(scope="module")
def served(server):
    return server


def one_line_error(response: httpx.Response, status: int) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"} and body["error"] and "\n" not in body["error"]
    return str(body["error"])


def test_an_unknown_path_is_a_one_line_404(served):
    said = one_line_error(httpx.get(f"{served}/no/such/thing"), 404)
    assert said == "no such endpoint: GET /no/such/thing"
    one_line_error(httpx.get(f"{served}/static/nothing.js"), 404)


def test_a_method_an_endpoint_does_not_take_is_a_one_line_405(served):
    response = httpx.delete(f"{served}/health")
    assert one_line_error(response, 405).startswith("not allowed on this endpoint")
    assert "GET" in response.headers["allow"]


def test_a_malformed_body_is_a_one_line_422(served):
    one_line_error(httpx.post(f"{served}/rooms", content=b"{not json"), 422)
    one_line_error(httpx.post(f"{served}/rooms", json={"system": 5}), 422)


def test_a_chunked_body_past_the_bound_is_a_one_line_413(served):
    """Issue 21: a chunked 10 MB body answered 400, though the protocol promises 413."""

    def chunks(count: int):
        for _ in range(count):
            yield b"x" * 65536  # no Content-Length: 10 MiB, then 16.25 MiB

    said = one_line_error(httpx.post(f"{served}/rooms", content=chunks(160)), 413)
    assert "at most 65536 bytes" in said
    said = one_line_error(httpx.post(f"{served}/verify", content=chunks(260)), 413)
    assert "at most 16777216 bytes" in said


def test_a_chunked_body_within_the_bound_is_read_whole(served):
    def chunks():
        yield b'{"system": "dice",'
        yield b' "gm": "Ann"}'

    headers = {"Content-Type": "application/json"}
    response = httpx.post(f"{served}/rooms", content=chunks(), headers=headers)
    assert response.status_code == 201 and "/rooms/" in response.json()["gm"]


def test_a_trailing_slash_is_not_redirected(served):
    response = httpx.get(f"{served}/health/", headers={"Host": "localhost"})
    one_line_error(response, 404)
    assert "location" not in response.headers


def test_a_board_move_that_is_not_open_reads_the_same_whatever_it_names(tmp_path):
    """Deadweight board under hidden chests (AMB-16): every action of the game's whole action
    space that is not open to a member now is refused with one and the same line, so no
    refusal can tell what a closed chest holds or what a trade card is."""
    from tabletop.games.deadweight_board.actions import NUM_ACTIONS, name_of
    from tabletop.rooms import Hall, SqliteStore
    from tests.rooms.scenes import fixed_seeds

    hall = Hall(SqliteStore(tmp_path / "rooms.sqlite3"), seeds=fixed_seeds())
    made = hall.create("deadweight-board", options={"chest_visibility": "hidden"})
    room, tokens = made.extra["room"], made.extra["tokens"]
    gm = hall.who(room, tokens["gm"])
    ada = hall.who(room, hall.join(room, tokens["player"], "Ada").extra["token"])
    bo = hall.who(room, hall.join(room, tokens["player"], "Bo").extra["token"])
    hall.act(room, ada.id, {"kind": "take-seat"}, "s1")
    hall.act(room, gm.id, {"kind": "seat-bot", "bot": "random"}, "s2")
    hall.act(room, gm.id, {"kind": "start"}, "s3")
    while (table := hall.table(room)).session.table_move(table.state) is not None:
        hall.table_move(room)
    table = hall.table(room)
    open_now = {i["action"] for o in table.session.legal(table.state, ada) for i in o.intents}
    assert open_now  # Ada's seat decides: some moves are open to her, none to Bo
    for member in (ada, bo):
        said = {
            answer(
                lambda n=n, m=member: table.session.resolve(
                    table.state, {"kind": "act", "action": name_of(n)}, m, SeededDice(1)
                )
            )
            for n in range(NUM_ACTIONS)
            if name_of(n) not in open_now
        }
        assert len(said) == 1, said
        assert next(iter(said))[0] in (400, 403)
