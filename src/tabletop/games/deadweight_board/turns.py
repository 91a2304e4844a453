"""A turn's frame: the lantern placed at setup, the start of a turn (skips, the turn cap),
the lantern moved at its end, chests reloaded, the turn passed, the final round and the end
of the game (seed §Gameplay, §The Lantern, §Game End Condition; notes §2.2 T0, T6)."""

from __future__ import annotations

from typing import Final

from tabletop.games.deadweight_board.actions import LANTERN, TIE_WINNER
from tabletop.games.deadweight_board.board import PLANK_NAMES, PLANKS, behind, space_plank
from tabletop.games.deadweight_board.effects import from_supply, record, tally
from tabletop.games.deadweight_board.flow import chance
from tabletop.games.deadweight_board.setup import CHEST_2P, RELOAD
from tabletop.games.deadweight_board.state import (
    ENDED,
    FINAL,
    MOVE,
    OVER,
    TIE_DRAW,
    State,
    bits,
)
from tabletop.games.deadweight_board.state import (
    LANTERN as LANTERN_PHASE,
)

_BEHIND: Final = tuple((behind(space, 1), behind(space, 2)) for space in range(13))


def legal_setup_lantern(s: State) -> list[int]:
    """The first player places the lantern (seed §Setup 5; AMB-13)."""
    rule = s.ship.lantern_setup_rule
    spots = list(range(PLANKS))
    if rule == "not_reachable_by_step":
        start = s.pos[s.first_player]
        reach = {space_plank(s.ship.destination[start][steps]) for steps in (1, 2)}
        spots = [k for k in spots if k not in reach]
    return [LANTERN + k for k in spots]


def apply_setup_lantern(s: State, action: int) -> None:
    s.lantern = action - LANTERN
    if s.ship.lantern_setup_rule == "no_first_landing":
        s.first_block = s.lantern
    if s.events is not None:
        record(s, "lantern", player=s.first_player, plank=PLANK_NAMES[s.lantern])
    start_turn(s)


def start_turn(s: State) -> None:
    """Seed §Gameplay; skip flags (AMB-35) and the turn cap (AMB-63) are checked first."""
    if s.turn >= s.ship.turn_cap:
        s.aborted = True
        if s.events is not None:
            record(s, "turn_cap", turns=s.turn)
        game_over(s)
        return
    p = s.active
    s.turn += 1
    s.turns_taken[p] += 1
    s.reset_turn()
    if s.events is not None:
        record(s, "turn", player=p, turn=s.turn)
    if s.skip[p]:
        s.skip[p] -= 1
        if s.events is not None:
            record(s, "skipped", player=p)
        tally(s, "turns_skipped")
        if s.ship.lantern_on_skip == "move":
            s.phase = LANTERN_PHASE
            s.owner = p
        else:
            finish_turn(s)
        return
    s.phase = MOVE
    s.owner = p


def legal_lantern(s: State) -> list[int]:
    """1 or 2 planks behind the player, stations skipped; it must move (seed §The Lantern;
    AMB-28)."""
    ship = s.ship
    if ship.lantern_reference == "player":
        spots = list(_BEHIND[s.pos[s.active]])
    else:
        spots = [(s.lantern - 1) % PLANKS, (s.lantern - 2) % PLANKS]
    if ship.lantern_must_change:
        spots = [k for k in spots if k != s.lantern]
    return [LANTERN + k for k in spots]


def apply_lantern(s: State, action: int) -> None:
    s.lantern = action - LANTERN
    if s.events is not None:
        record(s, "lantern", player=s.active, plank=PLANK_NAMES[s.lantern])
    finish_turn(s)


def reloaded_chests(s: State) -> int:
    """The chests reloaded at the end of this turn, as a bitmask (AMB-08)."""
    trigger = s.ship.reload_trigger
    if trigger == "any_emptied":
        return s.emptied
    if (trigger == "wtp_only" and s.wtp_won) or trigger == "every_turn_center":
        return 1 << s.ship.wtp_chest
    return 0


def reload_contents(s: State) -> tuple[int, ...]:
    """What a reload puts in a chest: one of each item, or the 2-player setup's (AMB-08)."""
    two_player = s.n == 2 and s.ship.reload_contents_2p == "two_player"
    return CHEST_2P if two_player else RELOAD


def finish_turn(s: State) -> None:
    """Reload emptied chests (AMB-08), start the final round if the end was triggered
    (AMB-60), and pass the turn."""
    chests = reloaded_chests(s)
    if chests:
        contents = reload_contents(s)
        for chest in bits(chests):
            for item in range(6):
                for _ in range(contents[item]):
                    if from_supply(s, item):
                        s.chests[chest * 6 + item] += 1
            if s.events is not None:
                record(s, "reloaded", chest=chest + 1)
    p = s.active
    if s.end_triggered and s.stage != FINAL:
        s.stage = FINAL
        s.final_queue = final_queue(s, p)
        if s.events is not None:
            record(s, "final_round", order=list(s.final_queue))
    if s.stage == FINAL:
        if not s.final_queue:
            game_over(s)
            return
        s.active = s.final_queue.pop(0)
    else:
        s.active = (p + 1) % s.n
    start_turn(s)


def final_queue(s: State, trigger: int) -> list[int]:
    """Who takes a final turn after the end is triggered (AMB-60)."""
    n = s.n
    others = [(trigger + i) % n for i in range(1, n)]
    mode = s.ship.final_round
    if mode == "all_including_trigger":
        return [*others, trigger]
    if mode == "all_others":
        return others
    place = (trigger - s.first_player) % n
    return [q for q in others if (q - s.first_player) % n > place]


def tied_winners(s: State) -> list[int]:
    """The players who share the top: most life rings, then loot value, then (with
    `final_tie = fewest_turns`) fewest turns (AMB-62)."""
    tied = s.leaders()
    if len(tied) > 1 and s.ship.final_tie == "fewest_turns":
        fewest = min(s.turns_taken[p] for p in tied)
        tied = [p for p in tied if s.turns_taken[p] == fewest]
    return tied


def game_over(s: State) -> None:
    """Most life rings wins; ties go to loot value, then `final_tie` (AMB-62)."""
    s.stage = ENDED
    s.winners = tied_winners(s)
    if len(s.winners) > 1 and s.ship.final_tie == "random":
        chance(s, TIE_DRAW)
        return
    close(s)


def tie_draw(s: State, outcome: int) -> None:
    s.winners = [outcome - TIE_WINNER]
    close(s)


def close(s: State) -> None:
    s.phase = OVER
    s.owner = -1
    if s.events is not None:
        record(s, "game_over", winners=list(s.winners), scores=s.scores(), aborted=s.aborted)
