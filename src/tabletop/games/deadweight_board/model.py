"""The game state as validated pydantic models: what is saved, loaded and sent to programs.

`to_model(state)` describes a state in the game's own words (spaces, items, Mariners);
`from_model(model)` checks it (counts, limits, the one deployed Mariner, every trade card in
exactly one place) and rebuilds the compact state. A state that breaks an invariant is
refused with a `StateError` naming the problem.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from tabletop.games.deadweight_board.board import (
    ITEM_BY_NAME,
    ITEM_NAMES,
    MAX_LOOT,
    MAX_ROPES,
    PLANK_BY_NAME,
    PLANK_NAMES,
    SPACE_BY_NAME,
    SPACE_NAMES,
)
from tabletop.games.deadweight_board.config import (
    DeadweightConfig,
    GemName,
    PlankSpot,
    check_layout,
)
from tabletop.games.deadweight_board.errors import LayoutError, StateError
from tabletop.games.deadweight_board.flow import RESUME_POINTS
from tabletop.games.deadweight_board.reachable import check_reachable
from tabletop.games.deadweight_board.ship import ship_for
from tabletop.games.deadweight_board.state import (
    CHANCE,
    CHANCE_NAMES,
    COLOURS,
    LIMIT,
    OVER,
    PHASE_NAMES,
    STAGE_NAMES,
    State,
    bits,
)

SpaceName = Literal["FS", "S1", "S2", "S3", "S4", "S5", "BS", "P5", "P4", "P3", "P2", "P1", "start"]
PlankName = Literal["S1", "S2", "S3", "S4", "S5", "P5", "P4", "P3", "P2", "P1"]
_STRICT = ConfigDict(extra="forbid")


class Items(BaseModel):
    """A handful of items: gems, ropes and life rings."""

    model_config = _STRICT
    emerald: int = Field(default=0, ge=0)
    pearl: int = Field(default=0, ge=0)
    ruby: int = Field(default=0, ge=0)
    diamond: int = Field(default=0, ge=0)
    rope: int = Field(default=0, ge=0)
    life_ring: int = Field(default=0, ge=0)

    @classmethod
    def of(cls, counts: list[int]) -> Items:
        return cls(**dict(zip(ITEM_NAMES, counts, strict=True)))

    def counts(self) -> list[int]:
        return [getattr(self, name) for name in ITEM_NAMES]


class PlayerModel(BaseModel):
    model_config = _STRICT
    colour: str
    position: SpaceName
    items: Items
    trade_card: int = Field(ge=0)
    skip_turns: int = Field(default=0, ge=0)
    turns_taken: int = Field(default=0, ge=0)


class MarinerModel(BaseModel):
    """Where a Mariner is: in reserve (front or back of the ship), on a wall, or in a
    lifeboat; `owner` is a colour, or None for a neutral Mariner."""

    model_config = _STRICT
    owner: str | None
    where: Literal["reserve", "wall", "lifeboat"]
    wall: int | None = None
    lifeboat: GemName | None = None


class TradePile(BaseModel):
    model_config = _STRICT
    top: int = Field(ge=-1, description="-1 while the next card is being turned up")
    face_down: list[int]
    discards: list[int]


class Machine(BaseModel):
    """Where the turn stands: the pending node and the turn's scratch values."""

    model_config = _STRICT
    phase: str
    chance: str | None
    owner: int
    active: int
    first_player: int
    turn: int = Field(ge=0)
    stage: str
    first_block: int
    final_queue: list[int]
    flip_pending: bool
    evac_left: int = Field(ge=0)
    evac_done: bool
    emptied: int = Field(ge=0)
    wtp_won: bool
    trades_done: int = Field(ge=0)
    mariner_done: bool
    station_mode: int = Field(ge=0, le=2)
    traded: bool
    end_triggered: bool
    landing: int = Field(ge=0)
    contest: list[int] = Field(min_length=5, max_length=5)
    take: list[int] = Field(min_length=3, max_length=3)
    limit: list[int] = Field(min_length=2, max_length=2)
    pool: Items
    keep_left: int = Field(ge=0)
    picks: list[int] = Field(min_length=3, max_length=3)
    reveal_resume: int
    teleport_queue: list[int]
    aborted: bool
    winners: list[int]


class GameStateModel(BaseModel):
    """A whole game at one moment, with the config and layout it is played under."""

    model_config = _STRICT
    version: Literal[1] = 1
    config: DeadweightConfig
    layout: dict[str, PlankSpot]
    players: list[PlayerModel] = Field(min_length=2, max_length=4)
    flooded: list[PlankName]
    chests: list[Items] = Field(min_length=5, max_length=5)
    crates: dict[GemName, int]
    supply: Items | None
    lantern: PlankName
    mariners: list[MarinerModel] = Field(min_length=4, max_length=4)
    trade_pile: TradePile
    machine: Machine

    @model_validator(mode="after")
    def _invariants(self) -> GameStateModel:
        limit_player = self.machine.limit[0] if self.machine.phase == "limit" else -1
        for seat, player in enumerate(self.players):
            counts = player.items.counts()
            if sum(counts[:4]) > MAX_LOOT and seat != limit_player:
                raise ValueError(f"{player.colour} holds more than {MAX_LOOT} loot")
            if counts[4] > MAX_ROPES:
                raise ValueError(f"{player.colour} holds more than {MAX_ROPES} ropes")
        if sum(1 for m in self.mariners if m.where == "wall") > 1:
            raise ValueError("only one Mariner can be on a wall at a time")
        deck = len(self.config.trade_deck)
        cards = [p.trade_card for p in self.players] + [self.trade_pile.top] * (
            self.trade_pile.top >= 0
        )
        cards += self.trade_pile.face_down + self.trade_pile.discards
        if sorted(cards) != list(range(deck)):
            raise ValueError("every trade card must be in exactly one place")
        for gem, count in self.crates.items():
            if not 0 <= count < self.config.crate_capacity[gem]:
                raise ValueError(f"the {gem} crate must hold fewer gems than its capacity")
        return self


def to_model(state: State) -> GameStateModel:
    """Describe a state in the game's words."""
    ship = state.ship
    mariners = []
    for m in range(4):
        owner = COLOURS[m] if m < state.n else None
        if state.boat[m] >= 0:
            mariners.append(
                MarinerModel(owner=owner, where="lifeboat", lifeboat=ITEM_NAMES[state.boat[m]])
            )
        elif state.dep == m:
            mariners.append(MarinerModel(owner=owner, where="wall", wall=state.dep_wall))
        else:
            mariners.append(MarinerModel(owner=owner, where="reserve"))
    machine = Machine(
        phase=PHASE_NAMES[state.phase],
        chance=CHANCE_NAMES[state.chance] if state.chance >= 0 else None,
        owner=state.owner,
        active=state.active,
        first_player=state.first_player,
        turn=state.turn,
        stage=STAGE_NAMES[state.stage],
        first_block=state.first_block,
        final_queue=state.final_queue,
        flip_pending=state.flip_pending,
        evac_left=state.evac_left,
        evac_done=state.evac_done,
        emptied=state.emptied,
        wtp_won=state.wtp_won,
        trades_done=state.trades_done,
        mariner_done=state.mariner_done,
        station_mode=state.station_mode,
        traded=state.traded,
        end_triggered=state.end_triggered,
        landing=state.landing,
        contest=[state.c_attacker, state.c_defender, state.c_item, state.c_roll, state.c_resume],
        take=[state.taker, state.victim, state.take_resume],
        limit=[state.limit_player, state.limit_resume],
        pool=Items.of(state.pool),
        keep_left=state.keep_left,
        picks=[state.picker, state.pick_skips, state.flipper],
        reveal_resume=state.reveal_resume,
        teleport_queue=state.teleport_queue,
        aborted=state.aborted,
        winners=state.winners,
    )
    return GameStateModel(
        config=ship.config,
        layout=ship.spots,
        players=[
            PlayerModel(
                colour=COLOURS[p],
                position=SPACE_NAMES[state.pos[p]],  # type: ignore[arg-type]
                items=Items.of(state.items(p)),
                trade_card=state.card[p],
                skip_turns=state.skip[p],
                turns_taken=state.turns_taken[p],
            )
            for p in range(state.n)
        ],
        flooded=[PLANK_NAMES[k] for k in range(10) if state.flooded >> k & 1],  # type: ignore[misc]
        chests=[Items.of(state.chests[c * 6 : c * 6 + 6]) for c in range(5)],
        crates=dict(zip(ITEM_NAMES[:4], state.crates, strict=True)),  # type: ignore[arg-type]
        supply=None if state.supply is None else Items.of(state.supply),
        lantern=PLANK_NAMES[state.lantern],  # type: ignore[arg-type]
        mariners=mariners,
        trade_pile=TradePile(
            top=state.top,
            face_down=bits(state.pile),
            discards=bits(state.discards),
        ),
        machine=machine,
    )


def from_model(model: GameStateModel) -> State:
    """Rebuild the compact state from a checked model."""
    _check_layout(model)
    ship = ship_for(model.config, model.layout)
    n = len(model.players)
    state = State(ship, n)
    for p, player in enumerate(model.players):
        if player.colour != COLOURS[p]:
            raise StateError(f"seat {p + 1} must be {COLOURS[p]}, not {player.colour}")
        state.pos[p] = SPACE_BY_NAME[player.position]
        state.inv[p * 6 : p * 6 + 6] = player.items.counts()
        state.card[p] = player.trade_card
        state.skip[p] = player.skip_turns
        state.turns_taken[p] = player.turns_taken
    state.flooded = sum(1 << PLANK_BY_NAME[name] for name in model.flooded)
    for c, chest in enumerate(model.chests):
        state.chests[c * 6 : c * 6 + 6] = chest.counts()
    state.crates = [model.crates.get(gem, 0) for gem in ITEM_NAMES[:4]]  # type: ignore[call-overload]
    if (model.supply is None) != (model.config.supply == "unlimited"):
        raise StateError("the supply is counted exactly when the config makes it finite")
    state.supply = None if model.supply is None else model.supply.counts()
    state.lantern = PLANK_BY_NAME[model.lantern]
    for m, mariner in enumerate(model.mariners):
        if mariner.owner != (COLOURS[m] if m < n else None):
            raise StateError(f"Mariner {m + 1} has the wrong owner")
        if mariner.where == "lifeboat":
            if mariner.lifeboat is None:
                raise StateError(f"Mariner {m + 1} is in a lifeboat but names none")
            state.boat[m] = ITEM_BY_NAME[mariner.lifeboat]
        elif mariner.where == "wall":
            if mariner.wall is None or not 0 <= mariner.wall < len(ship.walls) or m >= n:
                raise StateError(f"Mariner {m + 1} stands on a wall that does not exist")
            state.dep, state.dep_wall = m, mariner.wall
    pile = model.trade_pile
    state.top = pile.top
    state.pile = sum(1 << card for card in pile.face_down)
    state.discards = sum(1 << card for card in pile.discards)
    _load_machine(state, model.machine)
    return state


def _check_layout(model: GameStateModel) -> None:
    """Refuse a layout that breaks a setup rule before the ship's tables are built from it
    (a layout without Walk the Plank has no centre chest to look up)."""
    if sorted(model.layout) != sorted(PLANK_NAMES):
        raise StateError(f"the layout must name each plank once: {', '.join(PLANK_NAMES)}")
    try:
        check_layout(model.layout, model.config)
    except LayoutError as problem:
        reason = f"unreachable position: the layout breaks a setup rule: {problem}"
        raise StateError(reason) from None


def _load_machine(state: State, machine: Machine) -> None:
    if machine.phase not in PHASE_NAMES or machine.stage not in STAGE_NAMES:
        raise StateError(f"unknown phase {machine.phase!r} or stage {machine.stage!r}")
    if machine.chance is not None and machine.chance not in CHANCE_NAMES:
        raise StateError(f"unknown chance event {machine.chance!r}")
    state.phase = PHASE_NAMES.index(machine.phase)
    state.chance = CHANCE_NAMES.index(machine.chance) if machine.chance else -1
    state.stage = STAGE_NAMES.index(machine.stage)
    seats = range(state.n)
    if machine.active not in seats or machine.first_player not in seats:
        raise StateError("the active and first players must be seats of this game")
    state.owner = machine.owner
    state.active = machine.active
    state.first_player = machine.first_player
    state.turn = machine.turn
    state.first_block = machine.first_block
    state.final_queue = list(machine.final_queue)
    state.flip_pending = machine.flip_pending
    state.evac_left = machine.evac_left
    state.evac_done = machine.evac_done
    state.emptied = machine.emptied
    state.wtp_won = machine.wtp_won
    state.trades_done = machine.trades_done
    state.mariner_done = machine.mariner_done
    state.station_mode = machine.station_mode
    state.traded = machine.traded
    state.end_triggered = machine.end_triggered
    state.landing = machine.landing
    (state.c_attacker, state.c_defender, state.c_item, state.c_roll, state.c_resume) = (
        machine.contest
    )
    state.taker, state.victim, state.take_resume = machine.take
    state.limit_player, state.limit_resume = machine.limit
    state.pool = machine.pool.counts()
    state.keep_left = machine.keep_left
    state.picker, state.pick_skips, state.flipper = machine.picks
    state.reveal_resume = machine.reveal_resume
    state.teleport_queue = list(machine.teleport_queue)
    state.aborted = machine.aborted
    state.winners = list(machine.winners)
    _check_machine(state)
    check_reachable(state)


def _check_machine(state: State) -> None:
    """Refuse a machine whose pointers lead nowhere: every player it names is a seat of this
    game (or -1 for none), every item, plank and resume point is in range, and the pending
    node has what it needs."""
    seats = range(state.n)
    maybe = range(-1, state.n)
    named = {
        "owner": [state.owner],
        "contest": [state.c_attacker, state.c_defender],
        "take": [state.taker, state.victim],
        "limit": [state.limit_player],
        "picks": [state.picker, state.flipper],
    }
    for field, players in named.items():
        if any(p not in maybe for p in players):
            raise StateError(f"machine.{field} names a player who is not at this table")
    for field, players in (
        ("final_queue", state.final_queue),
        ("teleport_queue", state.teleport_queue),
        ("winners", state.winners),
    ):
        if any(p not in seats for p in players):
            raise StateError(f"machine.{field} names a player who is not at this table")
    resumes = (state.c_resume, state.take_resume, state.limit_resume, state.reveal_resume)
    if not all(0 <= r < RESUME_POINTS for r in resumes):
        raise StateError(f"machine resume points must be 0 to {RESUME_POINTS - 1}")
    if not -1 <= state.c_item < 6 or not 0 <= state.c_roll <= 6:
        raise StateError("machine.contest holds an item or a die face out of range")
    if not -1 <= state.first_block < 10:
        raise StateError("machine.first_block must be a plank (0 to 9) or -1")
    if state.landing > 7 or state.emptied >= 1 << 5 or state.pick_skips > state.n:
        raise StateError("machine landing flags, emptied chests or pick skips out of range")
    if state.phase == CHANCE and state.chance < 0:
        raise StateError("machine.phase is chance but no chance event is named")
    if state.phase not in (CHANCE, OVER) and state.owner not in seats:
        raise StateError("machine.owner must be a seat of this game at a decision")
    if state.phase == LIMIT and state.limit_player not in seats:
        raise StateError("the player over the loot limit must be a seat of this game")


def state_to_json(state: State) -> str:
    return to_model(state).model_dump_json()


def state_from_json(text: str) -> State:
    """Load a state saved by `state_to_json`; anything malformed is one `StateError`."""
    try:
        model = GameStateModel.model_validate_json(text)
    except ValidationError as error:
        problem = error.errors()[0]
        where = ".".join(str(part) for part in problem["loc"]) or "state"
        raise StateError(f"bad game state at {where}: {problem['msg']}") from None
    return from_model(model)
