"""A table's game and its record: the game kept between moves, the setup the start drew,
and every step since, so that a finished game can be stepped through and written out as the
JSON-lines log `deadweight-board replay` checks.

A table has no game seed: the setup and every chance node are drawn from the room's fair
dice, each in the resolution that needs them (docs/rules/deadweight-board.md, ENG-14). So a
table's record keeps what the dice gave instead: the state after the setup, who held each
seat, each decision (with the bot and the seed it chose with) and each chance outcome.
Writing the record out re-applies those steps to the setup; it asks no bot again (asking
again is `replay`'s work).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from pydantic import Field, GetCoreSchemaHandler, GetJsonSchemaHandler, ValidationError
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, core_schema

from tabletop.data import describe as describe_problem
from tabletop.games.deadweight_board.actions import NUM_OUTCOMES
from tabletop.games.deadweight_board.board import COLOURS
from tabletop.games.deadweight_board.errors import BoardDataError, IllegalActionError
from tabletop.games.deadweight_board.log import GameLog
from tabletop.games.deadweight_board.model import GameStateModel, from_model, to_model
from tabletop.games.deadweight_board.narrate import event_line
from tabletop.games.deadweight_board.observe import ALL_SEEING, observation
from tabletop.games.deadweight_board.rules import apply_in_place, describe
from tabletop.games.deadweight_board.state import CHANCE, FIELDS, State
from tabletop.session import Frozen

_COMPARED = tuple(name for name in FIELDS if name not in ("ship", "events", "stats"))
"""What two kept games must hold alike to be equal (the ship is compared by its layout)."""


class KeptGame:
    """A table's game between moves: the engine's own state, never changed once kept, so a
    move costs a clone rather than a round trip through the saved-state model. It is saved
    as that model (model.py) and checked by its strict loader when read back (ENG-08)."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def play(self) -> State:
        """A copy of the game to change (the kept one stays as it is)."""
        return self.state.clone()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, KeptGame):
            return NotImplemented
        return _compared(self.state) == _compared(other.state)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"KeptGame(turn {self.state.turn}, digest {self.state.digest()})"

    def __deepcopy__(self, memo: dict[int, Any]) -> KeptGame:
        return self  # never changed once kept

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        dump = core_schema.plain_serializer_function_ser_schema(_dump)
        return core_schema.no_info_plain_validator_function(_load, serialization=dump)

    @classmethod
    def __get_pydantic_json_schema__(
        cls, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return handler(GameStateModel.__pydantic_core_schema__)


def _compared(state: State) -> tuple[Any, ...]:
    fields = tuple(getattr(state, name) for name in _COMPARED)
    return (state.ship.config, state.ship.spots, *fields)


def _load(value: Any) -> KeptGame:
    """A kept game from its saved form (checked as any loaded game is), or kept as given."""
    if isinstance(value, KeptGame):
        return value
    if isinstance(value, State):
        return KeptGame(value.clone())
    try:
        model = value if isinstance(value, GameStateModel) else GameStateModel.model_validate(value)
        return KeptGame(from_model(model))
    except ValidationError as problem:
        raise ValueError(describe_problem(problem)) from None
    except BoardDataError as problem:
        raise ValueError(str(problem)) from None


def _dump(kept: KeptGame) -> dict[str, Any]:
    return to_model(kept.state).model_dump(mode="json")


class Step(Frozen):
    """One step of a table's game after its setup: a decision, with the bot that chose it
    and the seed that bot drew (None for a person's), or a chance outcome."""

    action: int = Field(ge=0, lt=NUM_OUTCOMES)
    bot: str | None = Field(default=None, max_length=12)
    bot_seed: int | None = Field(default=None, ge=0)


class Moment:
    """One step as it is re-applied: the state before it, whether it was a chance node, who
    decided (the seat, or -1 at a chance node), the turn it was taken in, and its line of
    text."""

    __slots__ = ("chance", "player", "step", "text", "turn")

    def __init__(self, state: State, step: Step) -> None:
        self.step = step
        self.chance = state.chance if state.phase == CHANCE else -1
        self.player = -1 if self.chance >= 0 else state.owner
        self.turn = state.turn
        self.text = describe(state, step.action)


def play_record(state: State, steps: Iterable[Step]) -> Iterator[Moment]:
    """Apply each step to `state` (changed in place), yielding it as a `Moment` once
    applied; a step the rules do not allow there is refused, naming it."""
    for number, step in enumerate(steps, start=1):
        try:
            moment = Moment(state, step)
            apply_in_place(state, step.action)
        except IllegalActionError as problem:
            raise BoardDataError(f"step {number} of the table's record: {problem}") from None
        yield moment


def finished(
    bots: Sequence[str], setup: State, steps: Iterable[Step], game: State
) -> tuple[list[str], list[dict[str, Any]]]:
    """A finished game, its steps re-applied once to its setup, as two things:

    - its log: the JSON lines `deadweight-board replay` checks (log.py's writer), as one game
      numbered 0 with no seed (the room's dice gave the setup and the outcomes, which the
      lines record); `bots` names each seat's holder at the start, and each bot's decision
      names the bot and the seed it drew, so that replay asks it again;
    - its boards as a page steps through them: after the setup, then after each decision with
      the chance nodes it led to. Each board names the turn the decision was taken in, who
      took it (`by`, None for the setup), the decision and its outcomes in one line
      (`text`), and `events`: the decision, then what the rules did, a line each, as the
      table's log tells them (narrate.py). Seen whole (ALL_SEEING): once the game is over
      its log, which anyone at the table may download, holds every state in full anyway.

    The steps must lead to `game`, the game the table kept; else `BoardDataError`.
    """
    state = setup.clone()
    state.events = []
    log = GameLog(0)
    log.setup(None, list(bots), [None] * len(bots), state)
    setup_board = {"turn": state.turn, "by": None, "text": "the ship is set up", "events": []}
    boards = [{**setup_board, "state": observation(state, ALL_SEEING)}]
    told: list[str] = []
    lines: list[str] = []
    for moment in play_record(state, steps):
        step, text = moment.step, moment.text
        if moment.chance >= 0:
            log.chance(moment.chance, step.action, text, state)
            told.append(text)
        else:
            log.decision(moment.player, step.action, text, state, step.bot, step.bot_seed)
            told.append(f"{COLOURS[moment.player]}: {text}")
            lines.append(told[-1])
            board = {"turn": moment.turn, "by": COLOURS[moment.player]}
        lines += _lines_of(state.events, text if moment.chance >= 0 else None)
        state.events = []
        if state.phase != CHANCE:
            board.update(text="; ".join(told), events=lines, state=observation(state, ALL_SEEING))
            boards.append(board)
            told, lines = [], []
    if KeptGame(state) != KeptGame(game):
        raise BoardDataError("the table's record does not lead from its setup to its game")
    log.end(state)
    return log.lines, boards


def _lines_of(events: list[dict[str, Any]] | None, outcome: str | None) -> list[str]:
    """What one step made happen, a line each (narrate.py); a chance outcome no event
    tells (`outcome`, its line of text) keeps that line."""
    found = [line for line in map(event_line, events or ()) if line]
    return found if found or outcome is None else [outcome]
