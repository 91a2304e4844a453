"""Deadweight at a shared table: seats held by members or by bots the server plays, the
game set up from the table's rule options, turns as intents naming actions, and what each
member may see.

Before the game, players take seats (in turn order: Red, Blue, Green, Yellow), the GM may
seat bots, and the GM starts the game: the setup draws its layout, first player and trade
cards from the start's own dice (the room's fair dice), and a hidden event keeps that cause,
whose draws would tell the face-down cards, from everyone but the GM. Then whoever holds
the seat that decides sends `act` with the action's name ("step 2", "steal from Blue"); when
a bot's seat decides, any member (or the server, as the table) sends `bot-moves`, which is
*decided* into `bot-act`: the bot, the seed it drew (the resolution's first die) and the
action it chose, so that the log holds the choice and folding applies it without asking the
bot again. Chance nodes after a decision (every die, every card turned up) are rolled at
once from that resolution's dice. The table keeps the game itself between moves and the
record of its setup and steps (record.py), so a finished game downloads as a log
`deadweight-board replay` checks.

Secrets are decided in observe.py: the all-seeing GM sees everything; a seat's holder sees
their own Walk the Plank haul under hidden chests; nobody else does.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from pydantic import Field, model_validator

from tabletop.dice import DiceSource
from tabletop.games.deadweight_board.actions import action_named, name_of
from tabletop.games.deadweight_board.board import COLOURS
from tabletop.games.deadweight_board.bots import make_bot
from tabletop.games.deadweight_board.bots.mcts import SIMULATIONS
from tabletop.games.deadweight_board.config import DeadweightConfig, default_config
from tabletop.games.deadweight_board.errors import BoardError
from tabletop.games.deadweight_board.log import HUMAN
from tabletop.games.deadweight_board.narrate import event_line, in_words
from tabletop.games.deadweight_board.observe import (
    ALL_SEEING,
    TABLE,
    event_hint,
    event_seat,
    haul_owner,
    observation,
)
from tabletop.games.deadweight_board.record import KeptGame, Step, finished
from tabletop.games.deadweight_board.rules import (
    apply_in_place,
    describe,
    legal_actions,
    roll_chance,
)
from tabletop.games.deadweight_board.setup import new_game
from tabletop.games.deadweight_board.state import CHANCE, OVER, SETUP_LANTERN, State
from tabletop.games.deadweight_board.targets import targets
from tabletop.offers import Choice, Offer, offer
from tabletop.session import Event, Frozen, Member, Session, Visibility
from tabletop.words import words_of

MAX_SEATS = 4
MAX_BOT_SIMULATIONS = 2_000
"""A table's MCTS bots search at most this many simulations a decision: `verify` (and
`replay`) ask each bot's choice again."""
BOT_SEED_SIDES = 2**31 - 1
"""The die a bot's seed is drawn from (the decision's first die), so that its choice can be
asked again."""
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
    """The table: its rule options, who holds which seat, and the game once started. A game
    the GM started also keeps its record (record.py): the setup the start drew, who held
    each seat then, and every step since. Nothing re-runs the game from its start: each
    move is applied to the kept game."""

    options: DeadweightConfig = Field(default_factory=default_config)
    seats: tuple[SeatHolder, ...] = Field(default=(), max_length=MAX_SEATS)
    game: KeptGame | None = None
    setup: KeptGame | None = None
    first_seats: tuple[str, ...] = Field(default=(), max_length=MAX_SEATS)
    record: tuple[Step, ...] = ()

    @model_validator(mode="after")
    def _game_fits_the_table(self) -> BoardTable:
        if self.game is not None:
            game = self.game.state
            if game.n != len(self.seats):
                raise ValueError("the game has a player for every seat and no other")
            if game.ship.config != self.options:
                raise ValueError("the game is played under the table's options")
            if game.phase == CHANCE:
                raise ValueError("a table rolls every chance event at once; none can be pending")
        if self.setup is None:
            if self.first_seats or self.record:
                raise ValueError("only a game the GM started keeps a record")
            return self
        setup = self.setup.state
        seats = len(self.seats)
        if self.game is None or len(self.first_seats) != seats or setup.n != seats:
            raise ValueError("a started game names who first held each of its seats")
        if setup.ship.config != self.options or setup.phase != SETUP_LANTERN:
            raise ValueError("a game's record starts from its setup, before the lantern is placed")
        if any(holder != HUMAN and not _BOT.match(holder) for holder in self.first_seats):
            raise ValueError("a seat is first held by a person (human) or a table's bot")
        return self

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
    """A bot's seat decides: asked by anyone at the table, decided (`decide`) into the
    `BotAct` its policy chooses."""

    kind: Literal["bot-moves"] = "bot-moves"


class BotAct(Frozen):
    """What a bot's seat decided, as the log records it: the bot, the seed it drew (the
    resolution's first die) and the action it chose. Only `bot-moves` settles into it;
    nobody may send it."""

    kind: Literal["bot-act"] = "bot-act"
    seat: Colour
    bot: str = Field(max_length=12)
    seed: int = Field(ge=1, le=BOT_SEED_SIDES)
    action: str = Field(min_length=1, max_length=60)


# the session ------------------------------------------------------------------------------


class BoardSession(Session[BoardTable]):
    name = "deadweight-board"
    version = 3
    """Version 2 names the bots and the loot in words (ENG-17), version 3 the players a tied
    steal's protection covers; a room made under an earlier version is read by the release
    kept for it (docs/rooms.md, "Rooms made before")."""
    state = BoardTable
    error = BoardError
    intents = (TakeSeat, SeatBot, LeaveSeat, StartGame, Act, BotMoves, BotAct)
    thinks = frozenset({"bot-moves"})

    def offers(self, state: BoardTable, member: Member) -> list[Offer]:
        if state.game is None:
            return self._seating_offers(state, member)
        game = state.game.state
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
        game = state.game.state
        if game.phase == OVER or state.seats[game.owner].bot is None:
            return None
        return {"kind": "bot-moves"}

    def why_not(self, state: BoardTable, intent: Any, member: Member) -> str:
        kind = intent["kind"]
        if kind == "bot-act":
            return "a bot's move is the bot's own to make; nobody sends it"
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

    def decide(self, state: BoardTable, intent: Any, member: Member, dice: DiceSource) -> Any:
        """`bot-moves` settles into the `bot-act` the deciding seat's bot chooses, with a
        seed drawn as the resolution's first die; every other intent is applied as asked."""
        if not isinstance(intent, BotMoves):
            return intent
        game = _playing(state)
        spec = state.seats[game.owner].bot
        if spec is None:
            raise BoardError("bot-moves: no bot decides now")
        seed = dice.roll(BOT_SEED_SIDES)
        action = make_bot(spec, seed).choose(game.clone())  # a bot may change what it reads
        return BotAct(seat=COLOURS[game.owner], bot=spec, seed=seed, action=name_of(action))

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
        if isinstance(intent, BotMoves):
            raise BoardError("bot-moves is applied as the bot-act it is decided into")
        game = _playing(state)
        seat = COLOURS[game.owner]
        if isinstance(intent, Act):
            if state.seats[game.owner].member != member.id:
                raise BoardError(f"act: it is not {who}'s seat's decision")
            action, who, step = action_named(intent.action), seat, Step(action=0)
        else:
            action, who, step = _bot_act(state, game, intent, dice)
        lead = _note(
            "act", f"{who}: {in_words(describe(game, action))}", seat=seat, action=name_of(action)
        )
        return _play(state, game, step.model_copy(update={"action": action}), lead, dice)

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
            game = state.game.state
            over = game.phase == OVER
            shown["game"] = observation(game, _viewer(state, game, member))
            shown["to_decide"] = None if over else COLOURS[game.owner]
            shown["record"] = over and state.setup is not None
            if not over and (member.is_gm or state.seats[game.owner].member == member.id):
                shown["targets"] = targets(game)
        return shown

    def game_record(self, state: BoardTable, member: Member) -> dict[str, Any]:
        """A finished game for anyone at the table: its log as the JSON lines `replay`
        checks, and the board after each decision to step through (record.py). Built from
        the recorded steps alone: no bot is asked again."""
        game = None if state.game is None else state.game.state
        if game is None or game.phase != OVER or state.setup is None:
            raise BoardError("a game's record is ready once a game the GM started is over")
        lines, boards = finished(state.first_seats, state.setup.state, state.record, game)
        end = json.loads(lines[-1])["hash"]  # it stands for the whole game (ENG-15)
        return {
            "file": f"deadweight-board-{end[:12]}.jsonl",
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


def bot_named(bot: str, short: bool = False) -> str:
    """A table's bot as its lines name it, in the board's words (ENG-17): "a greedy bot",
    "an MCTS bot (30 simulations a move)"; `short`: "greedy bot"."""
    kind, _, budget = bot.partition(":")
    named = words_of(__package__).value("seat-bot", "bot", kind) or kind
    if short:
        return named.split(" ", 1)[1]
    simulations = int(budget) if budget else SIMULATIONS
    return f"{named} ({simulations:,} simulations a move)" if kind == "mcts" else named


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
    text = f"{who} seats {bot_named(intent.bot)} as {COLOURS[seat]}"
    return state.model_copy(update={"seats": seats}), [
        _note("seat", text, seat=COLOURS[seat], bot=intent.bot)
    ]


def _start(state: BoardTable, dice: DiceSource) -> tuple[BoardTable, list[Event]]:
    """Set the ship up from the start's own dice, keeping the setup for the record; a hidden
    event keeps the start's cause, whose draws tell the face-down trade cards, from everyone
    but the GM."""
    game = new_game(len(state.seats), state.options, dice)
    first = COLOURS[game.first_player]
    text = f"the ship is set up for {len(state.seats)}; {first} places the lantern"
    holders = tuple(holder.bot or HUMAN for holder in state.seats)
    kept = KeptGame(game)
    started = state.model_copy(
        update={"game": kept, "setup": kept, "first_seats": holders, "record": ()}
    )
    sealed = Event(
        type="setup-sealed",
        text="the start's dice dealt the layout, the first player and every trade card",
        visibility=Visibility.HIDDEN,
        hint="the board's setup is sealed: the start's dice stay with the GM",
    )
    return started, [_note("setup", text, first=first), sealed]


def _playing(state: BoardTable) -> State:
    """The kept game (not to be changed), refusing a table whose game is not under way."""
    if state.game is None:
        raise BoardError("the game has not started")
    if state.game.state.phase == OVER:
        raise BoardError("the game is over")
    return state.game.state


def _bot_act(
    state: BoardTable, game: State, intent: BotAct, dice: DiceSource
) -> tuple[int, str, Step]:
    """A bot's recorded decision, checked: its seed is this resolution's first die again,
    the deciding seat is held by that bot, and the action is legal now (apply refuses it
    otherwise). Its action, who took it, and its step of the record."""
    drawn = dice.roll(BOT_SEED_SIDES)
    if drawn != intent.seed:
        raise BoardError(f"bot-act: the bot's seed is {drawn} in these dice, not {intent.seed}")
    seat = COLOURS[game.owner]
    if intent.seat != seat:
        raise BoardError(f"bot-act: {seat} decides now, not {intent.seat}")
    if state.seats[game.owner].bot != intent.bot:
        raise BoardError(f"bot-act: the {seat} seat is not held by a {intent.bot} bot")
    action = action_named(intent.action)
    who = f"{seat} ({bot_named(intent.bot, short=True)})"
    return action, who, Step(action=action, bot=intent.bot, bot_seed=drawn)


def _play(
    state: BoardTable, kept: State, step: Step, lead: Event, dice: DiceSource
) -> tuple[BoardTable, list[Event]]:
    """Apply the decision to a copy of the kept game, roll every chance node after it from
    the resolution's dice, and tell what happened."""
    game = kept.clone()
    game.events = []
    apply_in_place(game, step.action)
    steps = [step]
    while game.phase == CHANCE:
        rolled = roll_chance(game, dice)
        apply_in_place(game, rolled)
        steps.append(Step(action=rolled))
    told = [lead, *(_told(state, game, event) for event in game.events)]
    game.events = None
    update: dict[str, Any] = {"game": KeptGame(game)}
    if state.setup is not None:
        update["record"] = (*state.record, *steps)
    return state.model_copy(update=update), told


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
