"""Deadweight at a shared table: seats held by members or by bots the server plays, the
game set up from the table's rule options, turns as intents naming actions, and what each
member may see.

Before the game, players take seats (in turn order: Red, Blue, Green, Yellow), the GM may
seat bots, and the GM starts the game: the setup draws its layout, first player and trade
cards from the server's dice. Then whoever holds the seat that decides sends `act` with the
action's name ("step 2", "steal from Blue"); when a bot's seat decides, the GM or any member
sends `bot-moves` and the bot's policy chooses, seeded from the server's dice so that the
choice is on the record and folding repeats it. Chance nodes after a decision (every die,
every card turned up) are rolled at once. A game the GM starts draws its own seed from the
server's dice and rolls its setup and every chance node from that seed (record.py), so that
the finished game is a log `deadweight-board replay` checks; the seed stays on the server
(only the GM's copy of the start's cause holds it) until the game is over.

Secrets are decided in observe.py: the all-seeing GM sees everything; a seat's holder sees
their own Walk the Plank haul under hidden chests; nobody else does.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import Field, model_validator

from tabletop.dice import DiceSource, SeededDice
from tabletop.games.deadweight_board.actions import action_named, name_of
from tabletop.games.deadweight_board.board import COLOURS
from tabletop.games.deadweight_board.bots import make_bot
from tabletop.games.deadweight_board.config import DeadweightConfig, default_config
from tabletop.games.deadweight_board.errors import BoardDataError, BoardError
from tabletop.games.deadweight_board.log import HUMAN
from tabletop.games.deadweight_board.model import GameStateModel, from_model, to_model
from tabletop.games.deadweight_board.narrate import event_line
from tabletop.games.deadweight_board.observe import (
    ALL_SEEING,
    TABLE,
    event_hint,
    event_seat,
    haul_owner,
    observation,
)
from tabletop.games.deadweight_board.record import (
    GAME_SEED_SIDES,
    Rerun,
    Step,
    finished,
    rerun,
)
from tabletop.games.deadweight_board.rules import (
    apply_in_place,
    describe,
    legal_actions,
    roll_chance,
)
from tabletop.games.deadweight_board.setup import new_game
from tabletop.games.deadweight_board.state import CHANCE, OVER, State
from tabletop.games.deadweight_board.targets import targets
from tabletop.session import Choice, Event, Frozen, Member, Offer, Session, Visibility, offer

MAX_SEATS = 4
MAX_BOT_SIMULATIONS = 2_000
"""A table's MCTS bots search at most this many simulations a decision: folding the log
runs each bot's choice again."""
BOT_SEED_SIDES = 2**31 - 1
"""The die a bot's seed is drawn from, so that its choice is on the record."""
BOT_KINDS = ("random", "greedy", "mcts")
_BOT = re.compile(r"^(random|greedy|mcts(:[0-9]{1,4})?)$")

Colour = Literal["Red", "Blue", "Green", "Yellow"]


class SeatHolder(Frozen):
    """Who holds a seat: a member, by id, or a bot the server plays, by its policy."""

    member: str | None = None
    bot: str | None = None

    @model_validator(mode="after")
    def _one_holder(self) -> SeatHolder:
        if (self.member is None) == (self.bot is None):
            raise ValueError("a seat is held by a member or by a bot, not both or neither")
        return self


class BoardTable(Frozen):
    """The table: its rule options, who holds which seat, and the game once started;
    a game the GM started keeps its seed, who held each seat then, and every step since its
    setup (record.py)."""

    options: DeadweightConfig = Field(default_factory=default_config)
    seats: tuple[SeatHolder, ...] = Field(default=(), max_length=MAX_SEATS)
    game: GameStateModel | None = None
    seed: int | None = Field(default=None, ge=0, le=GAME_SEED_SIDES)
    first_seats: tuple[str, ...] = ()
    record: tuple[Step, ...] = ()

    @model_validator(mode="after")
    def _game_fits_the_table(self) -> BoardTable:
        if self.game is not None:
            if len(self.game.players) != len(self.seats):
                raise ValueError("the game has a player for every seat and no other")
            if self.game.config != self.options:
                raise ValueError("the game is played under the table's options")
            if self.game.machine.phase == "chance":
                raise ValueError("a table rolls every chance event at once; none can be pending")
            try:
                from_model(self.game)
            except BoardDataError as problem:
                raise ValueError(str(problem)) from None
        if self.seed is not None:
            self._game_is_its_record()
        return self

    def _game_is_its_record(self) -> None:
        if self.game is None or len(self.first_seats) != len(self.seats):
            raise ValueError("a seeded table has a game and names who first held each seat")
        try:
            rerun_state = self.rerun().state
        except BoardError as problem:
            raise ValueError(str(problem)) from None
        if rerun_state.digest() != from_model(self.game).digest():
            raise ValueError("the game is not where its seed and its record lead")

    def rerun(self) -> Rerun:
        """The started game re-run from its seed and record."""
        return rerun(len(self.seats), self.options, self.seed or 0, self.record)

    def seats_of(self, member: Member) -> list[int]:
        return [seat for seat, holder in enumerate(self.seats) if holder.member == member.id]


# intents ----------------------------------------------------------------------------------


class TakeSeat(Frozen):
    """Sit at the next free seat, before the game starts."""

    kind: Literal["take-seat"] = "take-seat"


class SeatBot(Frozen):
    """The GM seats a bot: at the next free seat before the game, or in a member's seat at
    any time (the player left)."""

    kind: Literal["seat-bot"] = "seat-bot"
    bot: str = Field(default="greedy", max_length=12)
    seat: Colour | None = None


class LeaveSeat(Frozen):
    """Leave a seat before the game starts (one's own; the GM may clear any); the seats
    after it move up."""

    kind: Literal["leave-seat"] = "leave-seat"
    seat: Colour


class StartGame(Frozen):
    """The GM sets the ship up for the seated players (seed §Ship Setup)."""

    kind: Literal["start"] = "start"


class Act(Frozen):
    """The deciding seat's holder takes an action, by name ("step 2", "steal from Blue")."""

    kind: Literal["act"] = "act"
    action: str = Field(min_length=1, max_length=60)


class BotMoves(Frozen):
    """A bot's seat decides: its policy chooses, seeded from the server's dice."""

    kind: Literal["bot-moves"] = "bot-moves"


class BotMoved(Frozen):
    """What a bot's seat decided (`BoardSession.decide`): the bot, the seed it drew from the
    server's dice and the action it chose. Never offered: the log records it as the decided
    intent of a `bot-moves`, so folding applies the action without asking the bot again."""

    kind: Literal["bot-moved"] = "bot-moved"
    bot: str = Field(max_length=12)
    seed: int = Field(ge=1, le=BOT_SEED_SIDES)
    action: str = Field(min_length=1, max_length=60)


# the session ------------------------------------------------------------------------------


class BoardSession(Session[BoardTable]):
    name = "deadweight-board"
    state = BoardTable
    error = BoardError
    intents = (TakeSeat, SeatBot, LeaveSeat, StartGame, Act, BotMoves, BotMoved)
    thinks = frozenset({"bot-moves"})
    version = 2
    """2: a bot's decision is recorded as the `bot-moved` it settled into."""

    def offers(self, state: BoardTable, member: Member) -> list[Offer]:
        if state.game is None:
            return self._seating_offers(state, member)
        game = from_model(state.game)
        if game.phase == OVER:
            return []
        found: list[Offer] = []
        holder = state.seats[game.owner]
        if holder.member == member.id:
            intents = tuple({"kind": "act", "action": name_of(a)} for a in legal_actions(game))
            found.append(Offer(kind="act", text=f"{COLOURS[game.owner]} decides", intents=intents))
        if holder.bot is not None:
            found.append(offer("bot-moves", f"{COLOURS[game.owner]} ({holder.bot}) decides"))
        if member.is_gm:
            humans = tuple(COLOURS[s] for s, h in enumerate(state.seats) if h.member is not None)
            if humans:
                found.append(_seat_bot_offer(humans))
        return found

    def _seating_offers(self, state: BoardTable, member: Member) -> list[Offer]:
        found: list[Offer] = []
        free = len(state.seats) < MAX_SEATS
        if free and not state.seats_of(member):
            found.append(offer("take-seat", f"sit as {COLOURS[len(state.seats)]}"))
        mine = tuple(
            COLOURS[s]
            for s, holder in enumerate(state.seats)
            if member.is_gm or holder.member == member.id
        )
        if mine:
            found.append(offer("leave-seat", "leave a seat", seat=Choice(values=mine)))
        if member.is_gm:
            if free:
                found.append(_seat_bot_offer((None,)))
            if len(state.seats) >= 2:
                found.append(offer("start", "set the ship up and start"))
        return found

    def table_move(self, state: BoardTable) -> dict[str, Any] | None:
        """A bot's seat decides by itself: the server sends its `bot-moves`."""
        if state.game is None:
            return None
        game = from_model(state.game)
        if game.phase == OVER or state.seats[game.owner].bot is None:
            return None
        return {"kind": "bot-moves"}

    def decide(self, state: BoardTable, intent: Any, member: Member, dice: DiceSource) -> Any:
        """A bot's seat deciding: its policy chooses now, seeded from the server's dice (the
        resolution's first draw), and the log records the choice (`BotMoved`), so folding
        applies it and only `verify` asks the bot again. A server does this in a worker."""
        if not isinstance(intent, BotMoves):
            return intent
        game = None if state.game is None else _game_and_dice(state, dice)[0]
        if game is None or game.phase == OVER or state.seats[game.owner].bot is None:
            raise BoardError("bot-moves: no bot decides now")
        spec = state.seats[game.owner].bot or ""
        seed = dice.roll(BOT_SEED_SIDES)
        action = make_bot(spec, seed).choose(game)
        return BotMoved(bot=spec, seed=seed, action=name_of(action))

    def why_not(self, state: BoardTable, intent: Any, member: Member) -> str:
        kind = intent["kind"]
        if state.game is None and kind in ("act", "bot-moves"):
            return "the game has not started"
        if state.game is not None and kind in ("take-seat", "leave-seat", "start"):
            return "the game has started"
        if kind == "act":
            return "it is not your seat's decision"
        if kind == "bot-moves":
            return "no bot decides now"
        return "not open to you now"

    # the rules ----------------------------------------------------------------------------

    def apply(
        self, state: BoardTable, intent: Any, member: Member, dice: DiceSource
    ) -> tuple[BoardTable, list[Event]]:
        who = member.name or member.id
        if isinstance(intent, TakeSeat):
            seat = len(state.seats)
            seats = (*state.seats, SeatHolder(member=member.id))
            return state.model_copy(update={"seats": seats}), [
                _note("seat", f"{who} sits as {COLOURS[seat]}", seat=COLOURS[seat])
            ]
        if isinstance(intent, SeatBot):
            return _seat_bot(state, intent, who)
        if isinstance(intent, LeaveSeat):
            seat = COLOURS.index(intent.seat)
            seats = state.seats[:seat] + state.seats[seat + 1 :]
            return state.model_copy(update={"seats": seats}), [
                _note("leave", f"{who} empties the {intent.seat} seat", seat=intent.seat)
            ]
        if isinstance(intent, StartGame):
            return _start(state, dice)
        game, chance_dice = _game_and_dice(state, dice)
        seat = COLOURS[game.owner]
        if isinstance(intent, Act):
            action, who, step = action_named(intent.action), seat, Step(action=0)
        elif isinstance(intent, BotMoved):
            action, who, step = _decided(state, game, intent, dice)
        else:
            spec = state.seats[game.owner].bot or ""
            bot_seed = dice.roll(BOT_SEED_SIDES)
            action, who = make_bot(spec, bot_seed).choose(game), f"{seat} ({spec})"
            step = Step(action=0, bot=spec, bot_seed=bot_seed)
        text = f"{who}: {describe(game, action)}"
        lead = _note("act", text, seat=seat, action=name_of(action))
        step = step.model_copy(update={"action": action})
        return _play(state, game, step, lead, chance_dice)

    # what each member sees ----------------------------------------------------------------

    def view(self, state: BoardTable, member: Member) -> dict[str, Any]:
        shown: dict[str, Any] = {
            "system": self.name,
            "options": state.options.changed(),
            "seats": [
                {"seat": COLOURS[s], "member": holder.member, "bot": holder.bot}
                for s, holder in enumerate(state.seats)
            ],
            "game": None,
        }
        if member.is_gm:
            shown["bots"] = {"kinds": BOT_KINDS, "max_simulations": MAX_BOT_SIMULATIONS}
        if state.game is not None:
            game = from_model(state.game)
            over = game.phase == OVER
            shown["game"] = observation(game, _viewer(state, game, member))
            shown["to_decide"] = None if over else COLOURS[game.owner]
            shown["record"] = over and state.seed is not None
            if not over and (member.is_gm or state.seats[game.owner].member == member.id):
                shown["targets"] = targets(game)
        return shown

    def game_record(self, state: BoardTable, member: Member) -> dict[str, Any]:
        """A finished game for anyone at the table: its log as the JSON lines `replay`
        checks, and the board after each decision to step through (record.py)."""
        game = None if state.game is None else from_model(state.game)
        if game is None or game.phase != OVER or state.seed is None:
            raise BoardError("a game's record is ready once a game the GM started is over")
        seed = state.seed
        lines, boards = finished(state.first_seats, state.options, seed, state.record)
        return {
            "file": f"deadweight-board-{seed}.jsonl",
            "log": "".join(f"{line}\n" for line in lines),
            "steps": boards,
        }


def _viewer(state: BoardTable, game: State, member: Member) -> int:
    """The seat `member` looks from (observe.py): the GM sees all; a holder of several seats
    looks from the one with a secret of its own, if any."""
    if member.is_gm:
        return ALL_SEEING
    held = state.seats_of(member)
    if haul_owner(game) in held:
        return haul_owner(game)
    return held[0] if held else TABLE


def _decided(
    state: BoardTable, game: State, intent: BotMoved, dice: DiceSource
) -> tuple[int, str, Step]:
    """A recorded bot decision, checked: the seat's bot, the seed it drew again from these
    dice, and an action the rules allow now."""
    spec = state.seats[game.owner].bot
    if spec != intent.bot:
        raise BoardError(
            f"bot-moved: the deciding seat holds {spec or 'a person'}, not {intent.bot}"
        )
    if dice.roll(BOT_SEED_SIDES) != intent.seed:
        raise BoardError("bot-moved: the bot's seed is not this resolution's first die")
    action = action_named(intent.action)
    if action not in legal_actions(game):
        raise BoardError(f"bot-moved: {intent.action!r} is not a legal action now")
    step = Step(action=0, bot=spec, bot_seed=intent.seed)
    return action, f"{COLOURS[game.owner]} ({spec})", step


def _seat_bot_offer(seats: tuple[str | None, ...]) -> Offer:
    return offer(
        "seat-bot",
        "seat a bot",
        bot=Choice(help="random, greedy, mcts or mcts:N (simulations)", example="greedy"),
        seat=Choice(values=seats),
    )


def _seat_bot(state: BoardTable, intent: SeatBot, who: str) -> tuple[BoardTable, list[Event]]:
    match = _BOT.match(intent.bot)
    if not match or (match.group(2) and not 1 <= int(match.group(2)[1:]) <= MAX_BOT_SIMULATIONS):
        raise BoardError(
            f"a table's bot is random, greedy, mcts or mcts:N with N from 1 to "
            f"{MAX_BOT_SIMULATIONS:,} (a time budget would not replay), not {intent.bot!r}"
        )
    bot = SeatHolder(bot=intent.bot)
    if intent.seat is None:
        seat, seats = len(state.seats), (*state.seats, bot)
    else:
        seat = COLOURS.index(intent.seat)
        seats = (*state.seats[:seat], bot, *state.seats[seat + 1 :])
    text = f"{who} seats a {intent.bot} bot as {COLOURS[seat]}"
    return state.model_copy(update={"seats": seats}), [
        _note("seat", text, seat=COLOURS[seat], bot=intent.bot)
    ]


def _start(state: BoardTable, dice: DiceSource) -> tuple[BoardTable, list[Event]]:
    """Draw the game's seed from the server's dice and set the ship up from it (record.py);
    a hidden event keeps the start's cause, which holds the seed, from everyone but the GM."""
    seed = dice.roll(GAME_SEED_SIDES)
    game = new_game(len(state.seats), state.options, SeededDice(seed))
    first = COLOURS[game.first_player]
    text = f"the ship is set up for {len(state.seats)}; {first} places the lantern"
    holders = tuple(holder.bot or HUMAN for holder in state.seats)
    started = state.model_copy(
        update={"game": to_model(game), "seed": seed, "first_seats": holders, "record": ()}
    )
    sealed = Event(
        type="dice-sealed",
        text=f"the board's dice follow seed {seed}",
        data={"seed": seed},
        visibility=Visibility.HIDDEN,
        hint="the board's dice are sealed: their seed stays on the server until the game ends",
    )
    return started, [_note("setup", text, first=first), sealed]


def _game_and_dice(state: BoardTable, dice: DiceSource) -> tuple[State, DiceSource]:
    """The game now, and the dice its next chance node rolls: the game's own seed, re-run
    to where the record stops, or (a table set up from a position) the server's dice."""
    if state.seed is None:
        return from_model(state.game), dice  # type: ignore[arg-type]
    game = state.rerun()
    return game.state, game.dice


def _play(
    state: BoardTable, game: State, step: Step, lead: Event, dice: DiceSource
) -> tuple[BoardTable, list[Event]]:
    """Apply the decision, roll every chance node after it, and tell what happened."""
    game.events = []
    apply_in_place(game, step.action)
    steps = [step]
    while game.phase == CHANCE:
        rolled = roll_chance(game, dice)
        apply_in_place(game, rolled)
        steps.append(Step(action=rolled))
    told = [lead, *(_told(state, game, event) for event in game.events)]
    record = (*state.record, *steps) if state.seed is not None else ()
    return state.model_copy(update={"game": to_model(game), "record": record}), told


def _told(state: BoardTable, game: State, event: dict[str, Any]) -> Event:
    """A rules event as the table tells it, with who may see it (observe.py)."""
    data = {key: value for key, value in event.items() if key != "kind"}
    if event["kind"] == "roll":
        data["die"] = {"sides": 6, "faces": [event["face"]]}  # a die the pages draw
    told = Event(type=event["kind"], text=event_line(event) or event["kind"], data=data)
    seat = event_seat(event, game)
    if seat is None:
        return told
    holder = state.seats[seat].member
    return told.model_copy(
        update={
            "visibility": Visibility.GM,
            "audience": (holder,) if holder else (),
            "hint": event_hint(event),
        }
    )


def _note(type: str, text: str, **data: Any) -> Event:
    return Event(type=type, text=text, data=data)


SESSION = BoardSession()
