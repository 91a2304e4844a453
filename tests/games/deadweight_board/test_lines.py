"""Every line a Deadweight board table writes reads as a player would say it (issue 30,
item 2; ENG-17): no id, snake_case name, JSON or Python value, as the GM, a player and an
observer receive it, over seeded walks of seated tables and whole games between bots; and
every kind of line the rules and the table write is reached, so a new one is read too."""

from __future__ import annotations

import random
import re
from functools import cache

from tabletop.games.deadweight_board import Position, to_model
from tabletop.games.deadweight_board.narrate import event_line
from tabletop.games.deadweight_board.session import SESSION, BoardTable, SeatHolder, bot_named
from tests.games.deadweight_board.test_session import (
    ANN,
    BEN,
    GM,
    HIDDEN,
    WATCHER,
    _wtp_table,
    play,
    seated,
)
from tests.lines import MAKERS, lines_with_code, read_as, scene, unreached, written_kinds
from tests.session_laws import Pick, Table, Walk

MEMBERS = [GM, ANN, BEN, WATCHER]


def bots_only(options: dict | None = None) -> BoardTable:
    """Four bots at the table, the game started: they play it to its end (ENG-16)."""
    state = SESSION.new(options)
    for bot in ("greedy", "random", "greedy", "mcts:5"):
        state, _ = play(state, {"kind": "seat-bot", "bot": bot, "seat": None}, GM)
    state, _ = play(state, {"kind": "start"}, GM)
    return state


def _anyone(chance: random.Random) -> Pick:
    return lambda items: chance.choice(list(items))


def _bots_move(chance: random.Random) -> Pick:
    """The bot whose seat decides moves, whenever one does."""

    def pick(items):
        items = list(items)
        if items and isinstance(items[0], tuple):
            moves = [item for item in items if item[1].kind == "bot-moves"]
            return moves[0] if moves else chance.choice(items)
        return chance.choice(items)

    return pick


NOTHING = dict.fromkeys(("emerald", "pearl", "ruby", "diamond", "rope", "life_ring"), 0)


def empty_handed() -> BoardTable:
    """Ann and Ben hold nothing and the supply is empty, Ann's turn: a gain finds none
    left (AMB-09)."""
    position = Position(2, supply=NOTHING).lantern("P3").turn("Red").empty_hands()
    game = position.build()
    seats = (SeatHolder(member="ann"), SeatHolder(member="ben"))
    return BoardTable(options=game.ship.config, seats=seats, game=to_model(game))


def stealing(*, protected: bool) -> BoardTable:
    """Red's turn, one step from Sabotage on P1 with Blue on S5 and nobody holding anything
    (seed §Tile Actions 5); `protected`, Red's Mariner on P1|P2 and a pearl in Red's hands."""
    position = Position(2).lantern("P3").turn("Red").empty_hands()
    position = position.at("Red", "P2").at("Blue", "S5")
    if protected:
        position = position.mariner("Red", "P1|P2").holding("Red", pearl=1)
    game = position.build()
    seats = (SeatHolder(member="ann"), SeatHolder(member="ben"))
    return BoardTable(options=game.ship.config, seats=seats, game=to_model(game))


TIED_STEAL = [
    (ANN, {"kind": "act", "action": "step 1"}),
    (ANN, {"kind": "act", "action": "target Blue"}, [3, 3]),
]
"""Red steals from Blue and both roll 3: a tie, so Blue steals back (AMB-26), and Red holds
nothing to take; or Red's Mariner protects Red from it (AMB-55)."""


@cache
def walks() -> tuple[Walk, ...]:
    """Seeded walks of an empty table, a game with hidden chests, a walk-the-plank haul,
    whole games between bots (one short of turns), and the tied steals above."""
    tables = (
        Table(SESSION, MEMBERS),
        Table(SESSION, MEMBERS, start=lambda: seated(HIDDEN, bot="random")),
        Table(SESSION, MEMBERS, start=_wtp_table),
        Table(SESSION, MEMBERS, start=empty_handed),
    )
    done = [
        table.walk(_anyone(random.Random(seed)), 150, seed) for table in tables for seed in range(3)
    ]
    games = (
        Table(SESSION, [GM], start=bots_only),
        Table(SESSION, [GM], start=lambda: bots_only({"turn_cap": 12})),
    )
    done += [
        game.walk(_bots_move(random.Random(seed)), 900, seed) for game in games for seed in range(2)
    ]
    done += [scene(SESSION, stealing(protected=p), TIED_STEAL) for p in (False, True)]
    return tuple(done)


read = read_as(SESSION, (GM, ANN))


def test_no_line_of_the_walks_holds_code():
    assert lines_with_code(walks(), read) == set()


def test_the_bots_and_the_loot_are_named_in_words():
    """ENG-17: "GM seats an MCTS bot (30 simulations a move) as Red", as the page's seats
    name it, not its id (mcts:30); a chest's haul, a move and each piece by its name, not
    its short name on the board (Em, LR)."""
    assert bot_named("mcts") == "an MCTS bot (200 simulations a move)"
    assert bot_named("mcts:30", short=True) == "MCTS bot"
    assert bot_named("greedy", short=True) == "greedy bot"
    _, seat = play(SESSION.new(), {"kind": "seat-bot", "bot": "mcts:30", "seat": None}, GM)
    assert seat[0].text == "GM seats an MCTS bot (30 simulations a move) as Red"
    lines = [event.text for walk in walks() for event in walk.events]
    assert any(line.startswith("the chest holds ") and " and " in line for line in lines)
    assert not [line for line in lines if "mcts" in line or " LR" in line or " Em" in line]
    assert not [line for line in lines if re.search(r"\ban? an? ", line)]  # "Gain a a rope"


def test_every_kind_of_line_the_rules_write_is_reached():
    """The lint reads a kind of line only once a walk writes it: a kind the rules or the
    table begin to write fails here until one does."""
    kinds = written_kinds("tabletop.games.deadweight_board", MAKERS | {"record"})
    assert unreached(kinds, walks()) == set()


def test_a_tie_the_thiefs_mariner_protects_names_both_players():
    """AMB-55, AMB-26 (docs/rules/deadweight-board.md): Red steals from Blue and both roll
    3; Red's Mariner protects Red from Blue's steal back, and the line says so by name."""
    protected = walks()[-1]  # the tied steal with Red's Mariner on its wall
    lines = [event.text for event in protected.events if event.type == "tie_protected"]
    assert lines == ["a tie: Red's Mariner protects Red, so Blue steals nothing back"]


def test_trade_cards_are_counted_from_one():
    """A card is read as a person counts (the deck's first card is card 1), the trade on it
    as well: the game's own numbers for both start at 0."""
    trade = {"kind": "trade", "player": 0, "card": 0, "trade": 0, "life_rings": 2}
    assert event_line(trade) == "Red makes trade 1 of card 1 for 2 life rings"
    assert event_line({"kind": "card_up", "card": 0}) == "trade card 1 turns up"
