"""One shape for every system at a shared table: members, intents, events, fold and view.

A *session* is one system's rules seen from a table where several people act. Someone
(a `Member`) asks for something (an *intent*, a pydantic model with a `kind`); the session's
`resolve` checks that this member may ask for it now and that the rules allow it, rolls the
dice, and answers with the `Event`s that happened. `fold(state, event)` is the only way state
changes, so the state is always the fold of the events from the start. `view` and
`view_event` give exactly what one member may see: the one place a system keeps its secrets
(boardgame.io's `playerView`). `legal` lists what a member may ask for now, as `Offer`s.

Every event carries its *cause*: the intent and every number drawn from the dice, in order.
Folding re-runs the same rule with those draws, so play and fold take one path through the
rules and can never disagree. The room server, the command line, bots and tests all drive a
session the same way. Design notes and a worked example: docs/architecture.md.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from enum import StrEnum
from typing import Annotated, Any, ClassVar, Generic, Literal, NamedTuple, TypeVar, Union

from pydantic import (
    BaseModel,
    Field,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    ValidationError,
    model_serializer,
)

from tabletop import kept
from tabletop.dice import (
    PLAIN,
    DiceSource,
    Draw,
    FixedDice,
    RecordingDice,
    ReplayDice,
    render_line,
    roll,
)
from tabletop.errors import DataError, PermissionDenied, RulesError, TabletopError
from tabletop.frozen import Frozen
from tabletop.names import hiding
from tabletop.offers import Choice, Offer, Said, offer
from tabletop.words import Words, words_of

MAX_NAME = 60
"""Characters in a member's or a character's name."""

MAX_TEXT = 2_000
"""Characters in any free text an intent carries (a label, a note)."""


class CharacterIntent(Frozen):
    """An intent about one character: its kind (each subclass sets its own) and whose it is,
    the character's id, as the first two fields of every such intent."""

    kind: str
    character: str


# who acts ---------------------------------------------------------------------------------


class Role(StrEnum):
    GM = "gm"
    PLAYER = "player"
    OBSERVER = "observer"
    BOT = "bot"
    """A seat the server plays (the board game's bots); acts like a player of that seat."""


class Member(Frozen):
    """Who acts or looks: an id the table knows them by, their role and their name.

    What a member controls (the characters they own, the board-game seat they hold) is part
    of the session's state, so that it changes only by events like everything else."""

    id: str = Field(min_length=1, max_length=64)
    role: Role
    name: str = Field(default="", max_length=MAX_NAME)

    @property
    def is_gm(self) -> bool:
        return self.role == Role.GM

    @property
    def acts(self) -> bool:
        """Observers only look."""
        return self.role != Role.OBSERVER

    @classmethod
    def gm(cls, id: str = "gm", name: str = "GM") -> Member:
        return cls(id=id, role=Role.GM, name=name)

    @classmethod
    def player(cls, id: str, name: str = "") -> Member:
        return cls(id=id, role=Role.PLAYER, name=name or id)

    @classmethod
    def observer(cls, id: str = "observer", name: str = "") -> Member:
        return cls(id=id, role=Role.OBSERVER, name=name or id)


TABLE = Member(id="table", role=Role.BOT, name="the table")
"""Who makes the table's own moves (`Session.table_move`): the bots a server plays."""


def controls(member: Member, owner: str) -> bool:
    """Whether `member` may act for what the member `owner` plays: its owner, or the GM."""
    return member.is_gm or member.id == owner


class Seated(NamedTuple):
    """One at the table who takes turns and is asked for rolls: the name the table knows
    them by, and the member who plays them (None: the GM's own, an NPC)."""

    name: str
    player: str | None = None


def plays(member: Member, seated: Mapping[str, Seated]) -> Callable[[str], bool]:
    """Whether `member` plays the one at the table with this id (the GM plays everyone)."""

    def theirs(who: str) -> bool:
        found = seated.get(who)
        return found is not None and (member.is_gm or found.player == member.id)

    return theirs


def owner_for(asked: str | None, member: Member) -> str:
    """Who plays what `member` brings to the table: themselves, or anyone the GM names."""
    if asked is None or asked == member.id:
        return member.id
    if not member.is_gm:
        raise PermissionDenied("only the GM makes a character for someone else")
    return asked


# what happened ----------------------------------------------------------------------------


class Visibility(StrEnum):
    """Who sees an event in full. Anyone else receives only its `hint`, or nothing."""

    PUBLIC = "public"
    GM = "gm"
    """The GM alone (and any `audience`)."""
    ACTOR = "actor"
    """The member who caused it and the GM (and any `audience`)."""
    HIDDEN = "hidden"
    """The GM alone; everyone else learns from the hint that a hidden value changed."""


class RollMode(StrEnum):
    """How openly a roll is made (the modes of virtual tabletops, decided on the server)."""

    PUBLIC = "public"
    GM = "gm"
    """The roller and the GM see the result; the others see that a roll was made for the GM."""
    BLIND = "blind"
    """Only the GM sees the result; the roller and the others see that a roll was made."""
    SELF = "self"
    """Only the roller sees it (and the GM, who keeps the whole log); nobody else hears of it."""


class Cause(Frozen):
    """Why the state changed: who asked, the intent as asked, and every die drawn to resolve
    it, in order.

    Its `visibility` is who sees every event of the resolution: only they receive the
    cause, since its draws could reveal what another event of it hid."""

    member: Member
    intent: dict[str, Any]
    """The intent as applied: what was asked, or what a decision settled it into."""
    asked: dict[str, Any] | None = None
    """The intent as asked, when a decision (`Session.decide`) settled it into another."""
    draws: tuple[Draw, ...] = ()
    visibility: Visibility = Visibility.PUBLIC
    refused: str | None = None
    """Why the rules refused the intent after these dice were drawn (a refusal on the
    record: folding skips it, re-resolving must fail the same way)."""
    open_draws: tuple[int, ...] = ()
    """In a resolution that keeps part of what it tells from the players (a hidden NPC's
    numbers), the positions in `draws` of the dice rolled for someone whose numbers they
    see (`rolled_for`): the players are shown these draws, and no other."""

    @model_serializer(mode="wrap")
    def _without_empty_open_draws(self, handler: SerializerFunctionWrapHandler) -> Any:
        """A cause that shows the players no draws apart is written as before such causes
        existed, so a log made then keeps its hashes."""
        written = handler(self)
        if not self.open_draws and isinstance(written, dict):
            written.pop("open_draws", None)
        return written

    def seen_by(self, member: Member) -> bool:
        if member.is_gm or self.visibility == Visibility.PUBLIC:
            return True
        return self.visibility == Visibility.ACTOR and member.id == self.member.id


class Event(Frozen):
    """One thing that happened at the table, with its dice and who may see it.

    `type` is for programs, `text` one line for people, `data` the facts (with every die
    shown in it). The first event of each resolution carries the `cause` that `fold` applies;
    the others only tell what followed from it."""

    type: str = Field(min_length=1)
    text: str = ""
    data: dict[str, Any] = Field(default_factory=dict)
    visibility: Visibility = Visibility.PUBLIC
    audience: tuple[str, ...] = ()
    """Members who see the event in full besides those its visibility names (a whisper)."""
    hint: str = ""
    """What members who may not see the event are told instead; empty: they are told nothing."""
    actor: str | None = None
    """The member who caused it (None for the table itself)."""
    cause: Cause | None = None

    def seen_by(self, member: Member) -> bool:
        """Whether `member` sees this event in full."""
        if member.is_gm or self.visibility == Visibility.PUBLIC or member.id in self.audience:
            return True
        return self.visibility == Visibility.ACTOR and member.id == self.actor


def note(type: str, text: str, /, **data: Any) -> Event:
    """A public event with `data` as its facts: what rules return and sessions refine."""
    return Event(type=type, text=text, data=data)


def hidden(what: str) -> dict[str, str]:
    """What a view shows where a value exists that this member may not see."""
    return {"hidden": what}


# whose dice ------------------------------------------------------------------------------

_ROLLING_FOR: ContextVar[str | None] = ContextVar("rolling_for", default=None)


@contextmanager
def rolled_for(owner: str) -> Iterator[None]:
    """The dice rolled inside are `owner`'s (a character's or an NPC's id): where a line
    keeps a hidden NPC's numbers from the players, they are still shown the dice of those
    whose numbers they see, and never a die rolled for nobody in particular."""
    token = _ROLLING_FOR.set(owner)
    try:
        yield
    finally:
        _ROLLING_FOR.reset(token)


def rolling_for() -> str | None:
    """Whom the dice rolled now are for (`rolled_for`), if anyone: a source of dice that
    keeps a hidden owner's dice apart (the rooms' witnessed dice) asks it at each roll."""
    return _ROLLING_FOR.get()


class _Owned:
    """Passes rolls through and keeps, for each, whom it was rolled for (`rolled_for`)."""

    __slots__ = ("_dice", "owners")

    def __init__(self, dice: DiceSource) -> None:
        self._dice = dice
        self.owners: list[str | None] = []

    def roll(self, sides: int) -> int:
        face = self._dice.roll(sides)
        self.owners.append(_ROLLING_FOR.get())
        return face


# the rolls every table can make ----------------------------------------------------------


class RollDice(Frozen):
    """Roll any dice expression tabletop knows, openly or not (every session takes this)."""

    kind: Literal["roll"] = "roll"
    notation: str = Field(min_length=1, max_length=200)
    mode: RollMode = RollMode.PUBLIC
    label: str = Field(default="", max_length=MAX_NAME)
    """What the roll is for ("perception", "the orc's damage")."""


class ImportCharacter(Frozen):
    """Bring a sheet the command line saved (`character new --out`) to a table, for its
    owner (the asker by default; the GM may bring one for a player)."""

    kind: Literal["import-character"] = "import-character"
    sheet: dict[str, Any]
    owner: str | None = None


def clean_name(name: str) -> str:
    """A name as typed, without the spaces around it; one of spaces alone, or one holding a
    character that could hide or fake text (a zero-width space, a bidi override, a
    newline: tabletop.names), is refused."""
    stripped = name.strip()
    if not stripped:
        raise DataError("a name needs a letter or a digit, not only spaces")
    hidden = hiding(stripped)
    if hidden is not None:
        raise DataError(f"a name may not hold {hidden}: it could hide or fake text")
    return stripped


def roll_visibility(mode: RollMode, roller: str) -> tuple[Visibility, str]:
    """The visibility of a roll made in `mode`, and what the others are told of it."""
    if mode == RollMode.PUBLIC:
        return Visibility.PUBLIC, ""
    if mode == RollMode.GM:
        return Visibility.ACTOR, f"{roller} rolled for the GM"
    if mode == RollMode.BLIND:
        return Visibility.HIDDEN, f"{roller} made a blind roll for the GM"
    return Visibility.ACTOR, ""


def in_mode(event: Event, mode: RollMode, roller: str) -> Event:
    """`event` made with the visibility `mode` gives it."""
    visibility, hint = roll_visibility(mode, roller)
    return event.model_copy(update={"visibility": visibility, "hint": hint})


def refusal_event(
    asked: BaseModel, member: Member, draws: Sequence[Draw], problem: TabletopError
) -> Event:
    """An intent the rules refused after drawing dice, told as its roll mode shows a roll
    (a blind roll's refusal looks, to all but the GM, like a blind roll made), and as the
    asker's and the GM's alone for any other intent."""
    who = member.name or member.id
    error = str(problem)
    if isinstance(asked, RollDice):
        visibility, hint = roll_visibility(asked.mode, who)
        kind, text = "roll", f"{who}'s roll of {asked.notation} was refused: {error}"
    else:
        visibility, hint = Visibility.ACTOR, ""
        kind, text = "refused", f"{who}'s {asked.kind} was refused: {error}"
    event = Event(
        type=kind,
        text=text,
        data={"refused": error, "kind": asked.kind},
        visibility=visibility,
        hint=hint,
        actor=member.id,
    )
    cause = Cause(
        member=member,
        intent=asked.model_dump(mode="json"),
        draws=tuple(draws),
        visibility=_seen_by_all([event], member),
        refused=error,
    )
    return event.model_copy(update={"cause": cause})


class Decision(NamedTuple):
    """What `Session.decide` settled an intent into, and the dice it drew doing so."""

    intent: Any
    draws: tuple[Draw, ...]


class _Decided:
    """The dice a decided intent is applied with: the decision's own draws again, then the
    live dice (which have already given those draws)."""

    __slots__ = ("_live", "_replay")

    def __init__(self, draws: tuple[Draw, ...], live: DiceSource) -> None:
        self._replay = ReplayDice(draws) if draws else None
        self._live = live

    def roll(self, sides: int) -> int:
        if self._replay is not None:
            face = self._replay.roll(sides)
            if self._replay.used_up:
                self._replay = None
            return face
        return self._live.roll(sides)

    def check_used_up(self) -> None:
        """Applying a decided intent must draw its decision's dice again, first."""
        if self._replay is not None:
            raise DataError("the decided intent did not draw its decision's dice again")


def _draw_again(draws: tuple[Draw, ...], dice: DiceSource) -> None:
    """Draw a decision's dice from `dice` again, refusing a decision made with other dice."""
    for draw in draws:
        if dice.roll(draw.sides) != draw.face:
            raise DataError("that decision was made with other dice than this resolution's")


class DrawnRefusal(TabletopError):
    """The rules refused an intent after dice were drawn for it: those dice are spent, so
    the refusal (`event`) goes on the record like any resolution."""

    def __init__(self, problem: TabletopError, event: Event) -> None:
        super().__init__(str(problem))
        self.problem = problem
        self.event = event


def roll_event(intent: RollDice, roller: str, dice: DiceSource) -> Event:
    """Roll the expression and tell it with every die, as `mode` shows it."""
    rolled = roll(intent.notation, dice)
    label = f" for {intent.label}" if intent.label else ""
    text = f"{roller} rolls {render_line(rolled, PLAIN)}{label}"
    data = {"label": intent.label, "mode": intent.mode, **rolled.to_json()}
    return in_mode(note("roll", text, **data), intent.mode, roller)


# a session --------------------------------------------------------------------------------

StateT = TypeVar("StateT", bound=BaseModel)


class Session(Generic[StateT]):
    """One system at a shared table. Subclasses give `state`, `intents`, `offers`, `apply`
    and `view`; this class keeps the protocol the same for all of them.

    `apply(state, intent, member, dice)` is the system's rules step: the new state and the
    events, or the system's error and no change. It runs twice for every intent, in
    `resolve` with live dice and in `fold` with the recorded draws, and must do the same
    both times: it may read nothing but its arguments.
    """

    name: ClassVar[str]
    state: ClassVar[type[BaseModel]]
    intents: ClassVar[tuple[type[BaseModel], ...]] = ()
    """The system's own intent models, each with a literal `kind` (`roll` is added)."""
    error: ClassVar[type[TabletopError]] = RulesError
    """The system's error for an intent its rules refuse."""
    thinks: ClassVar[frozenset[str]] = frozenset()
    """Intent kinds whose `decide` takes long (a bot's search): a server decides them in a
    worker of their own and hands the decision to `resolve`."""
    version: ClassVar[int] = 1
    """The rules' version: what a log records so that `verify` re-tells its events with the
    same rules and wording; raised whenever an event of the same cause would differ."""
    explained: ClassVar[frozenset[str]] = frozenset()
    """Kinds whose refusal `refusal` explains by running the rule dry (a sheet's edits)."""

    def __init__(self) -> None:
        self._intents: TypeAdapter[Any] = TypeAdapter(_union((RollDice, *self.intents)))
        self._state: TypeAdapter[Any] = TypeAdapter(self.state)

    # the protocol -------------------------------------------------------------------------

    def new(self, options: Mapping[str, Any] | None = None) -> StateT:
        """An empty table played under `options` (the system's readings of unclear rules)."""
        try:
            return self._state.validate_python({"options": dict(options)} if options else {})
        except ValidationError as problem:
            raise DataError(f"{self.name}: not a rule option: {first_problem(problem)}") from None

    def legal(self, state: StateT, member: Member) -> list[Offer]:
        """What `member` may ask for now; an observer may ask for nothing."""
        if not member.acts:
            return []
        rolls = offer(
            "roll",
            "roll any dice",
            notation=Choice(help="dice notation", example="2d6"),
            mode=Choice(values=tuple(RollMode)),
        )
        return [rolls, *self.offers(state, member)]

    def resolve(
        self,
        state: StateT,
        intent: BaseModel | Mapping[str, Any],
        member: Member,
        dice: DiceSource,
        decision: Decision | None = None,
    ) -> list[Event]:
        """The events of `member` asking for `intent` now, or an error naming why it is
        refused. Nothing changes either way: `fold` the events to change the state. A
        refusal after dice were drawn is a `DrawnRefusal` holding its event for the record.
        `decision` is `decide`'s answer made elsewhere (a worker) with these same dice."""
        asked = self.parse_intent(intent)
        as_json = asked.model_dump(mode="json")
        if _marks_in(as_json):
            raise DataError("text may not hold the private-use characters U+E000 to U+E002")
        self._check_offered(state, as_json, member)
        recorder = RecordingDice(dice)
        try:
            if decision is None:
                decision = self.think(state, asked, member, recorder)
            else:
                _draw_again(decision.draws, recorder)
            decided, replayed = decision.intent, _Decided(decision.draws, recorder)
            owned = _Owned(replayed)
            after, events = self._apply(state, decided, member, owned)
            replayed.check_used_up()
        except TabletopError as problem:
            if not recorder.draws or isinstance(problem, DrawnRefusal):
                raise
            refusal = refusal_event(asked, member, recorder.draws, problem)
            raise DrawnRefusal(problem, refusal) from problem
        hidden = {
            **kept.KEPT_BY_THE_GM,
            **self.kept_from_players(state),
            **self.kept_from_players(after),
        }
        events, keeps = _settled(events, hidden, self.words)
        if not events:  # the intent still happened, and its cause must be on the record
            events = [
                note(asked.kind, f"{member.name or member.id}: {self._said(asked.kind)}, no change")
            ]
        told = [e.model_copy(update={"actor": member.id}) for e in events]
        applied = decided.model_dump(mode="json")
        shown = (i for i, owner in enumerate(owned.owners) if owner and owner not in hidden)
        cause = Cause(
            member=member,
            intent=applied,
            asked=None if applied == as_json else as_json,
            draws=tuple(recorder.draws),
            visibility=_seen_by_all(told, member),
            open_draws=tuple(shown) if keeps else (),
        )
        return [told[0].model_copy(update={"cause": cause}), *told[1:]]

    def think(
        self, state: StateT, intent: BaseModel | Mapping[str, Any], member: Member, dice: DiceSource
    ) -> Decision:
        """`decide` on `intent` with `dice`, and the dice it drew: what a worker sends back
        for `resolve` to apply."""
        recorder = RecordingDice(dice)
        decided = self.decide(state, self.parse_intent(intent), member, recorder)
        return Decision(decided, tuple(recorder.draws))

    def resolve_again(self, state: StateT, cause: Cause) -> list[Event]:
        """What `cause` gives when asked again, now, with the dice it drew: the events to
        compare with those recorded (a refusal's event when the rules refuse it again)."""
        replay = ReplayDice(cause.draws)
        try:
            events = self.resolve(state, cause.asked or cause.intent, cause.member, replay)
        except DrawnRefusal as refused:
            events = [refused.event]
        replay.check_used_up()
        return events

    def decide(self, state: StateT, intent: Any, member: Member, dice: DiceSource) -> Any:
        """The intent `intent` settles into before the rules apply it: itself, unless it
        asks for thinking (a bot's seat choosing its action). The log records the decided
        intent, so folding applies it and only re-resolving (`verify`) thinks again; the
        decided intent's `apply` draws again, first, every die its decision drew (a bot's
        seed), so that folding, which asks no bot, reads the same draws in the same order."""
        return intent

    def fold(self, state: StateT, event: Event) -> StateT:
        """The state after `event`: its cause applied again with the dice it drew (a refusal
        on the record changes nothing)."""
        if event.cause is None or event.cause.refused is not None:
            return state
        replay = ReplayDice(event.cause.draws)
        intent = self.parse_intent(event.cause.intent)
        try:
            new, _ = self._apply(state, intent, event.cause.member, replay)
        except TabletopError as problem:
            raise DataError(f"{self.name}: {event.type!r} does not apply: {problem}") from None
        replay.check_used_up()
        return new

    def fold_all(self, events: Iterable[Event], state: StateT | None = None) -> StateT:
        """The fold of `events` from `state` (from an empty table by default)."""
        current = self.new() if state is None else state
        for event in events:
            current = self.fold(current, event)
        return current

    def table_move(self, state: StateT) -> dict[str, Any] | None:
        """An intent the table makes by itself now (a bot's seat deciding), or None while it
        waits for people; a room plays it on the server as the member `TABLE`."""
        return None

    def view(self, state: StateT, member: Member) -> dict[str, Any]:
        """Everything `member` may see of the state, ready for JSON."""
        raise NotImplementedError(f"{type(self).__name__} must say what each member sees")

    def table_view(
        self,
        options: BaseModel,
        seats: Mapping[str, Any],
        seen: Callable[[str, Any], dict[str, Any]],
        **parts: Any,
    ) -> dict[str, Any]:
        """An RPG table's view as every page reads it: the system, its rule options and its
        characters (each seat's `id` and `owner`, then what `seen` shows of it) first, then
        the system's own parts."""
        return {
            "system": self.name,
            "options": options.model_dump(mode="json"),
            "characters": [
                {"id": cid, "owner": seat.owner, **seen(cid, seat)} for cid, seat in seats.items()
            ],
            **parts,
        }

    def view_event(self, event: Event, member: Member) -> Event | None:
        """What `member` receives of `event`: all of it, its hint alone, or nothing. With
        a resolution's first event, its hint or the whole line when they see that but not
        the cause, come the draws of its dice rolled for those whose numbers the players
        see (`Cause.open_draws`), in the order rolled.
        Systems that hide part of an event they show override this."""
        if event.seen_by(member):
            if event.cause is not None and not event.cause.seen_by(member):
                data = {**event.data, **_open_draws(event.cause)}
                return event.model_copy(update={"cause": None, "data": data})
            return event
        if not event.hint:
            return None
        return Event(
            type=event.type,
            text=event.hint,
            data=_open_draws(event.cause),
            visibility=event.visibility,
            hint=event.hint,
            actor=event.actor,
        )

    def seated(self, state: StateT) -> Mapping[str, Seated]:
        """Everyone at the table by id (characters, NPCs), so a refusal names them as the
        table does; none at a table of plain dice."""
        return {}

    def kept_from_players(self, state: StateT) -> dict[str, str]:
        """Everyone at the table whose numbers the players may not see (an NPC the GM keeps
        hidden, a secret character), by id, with the name the players know them by: their
        parts of a line (`kept.secret`) reach the players as `?`."""
        return {}

    def intent_schema(self) -> dict[str, Any]:
        """The JSON Schema of every intent this session takes: a page builds its forms from
        it and the offers of `legal`."""
        return dict(self._intents.json_schema())

    def _said(self, kind: str) -> str:
        """An intent kind as a line says it: its label in the system's words."""
        wording = self.words.kind(kind)
        return self.words.event(kind) if wording is None else wording.label

    @property
    def words(self) -> Words:
        """What this table shows people for its ids (`tabletop.words`): the system's own
        words over those every table shares."""
        return words_of(type(self).__module__.rpartition(".")[0])

    # what systems give --------------------------------------------------------------------

    def offers(self, state: StateT, member: Member) -> list[Offer]:
        """The system's own offers to an acting member (rolls are offered already)."""
        return []

    def apply(
        self, state: StateT, intent: Any, member: Member, dice: DiceSource
    ) -> tuple[StateT, list[Event]]:
        """The system's rules step for its own intents (see the class docstring)."""
        raise self.error(f"{self.name} has no intent {intent.kind!r}")

    def why_not(self, state: StateT, intent: Mapping[str, Any], member: Member) -> str:
        """Why an intent of a kind not offered now is refused; systems say it better."""
        return f"no {intent['kind']} is open now"

    def refusal(self, state: StateT, intent: Mapping[str, Any], member: Member) -> str | None:
        """The rules' own reason for refusing an intent no offer covers (a full bag, an item
        that is not used up): for the kinds in `explained`, the rule run with no dice at all
        (it changes nothing: rules are pure); None when it needs a die or would go ahead."""
        if intent["kind"] not in self.explained:
            return None
        try:
            self.apply(state, self.parse_intent(intent), member, FixedDice(()))
        except self.error as problem:
            return str(problem)
        except (TabletopError, LookupError):
            return None
        return None

    # reading JSON -------------------------------------------------------------------------

    def parse_intent(self, intent: BaseModel | Mapping[str, Any]) -> Any:
        """An intent of this system from a model or its JSON form, or `DataError`."""
        data = intent.model_dump(mode="json") if isinstance(intent, BaseModel) else intent
        try:
            return self._intents.validate_python(data)
        except ValidationError as problem:
            raise DataError(f"{self.name}: not an intent: {first_problem(problem)}") from None

    def load(self, data: Mapping[str, Any] | str) -> StateT:
        """A state of this system from its JSON form (a snapshot), checked, or `DataError`."""
        try:
            if isinstance(data, str):
                return self._state.validate_json(data)
            return self._state.validate_python(data)
        except ValidationError as problem:
            raise DataError(f"{self.name}: not a state: {first_problem(problem)}") from None

    # inside -------------------------------------------------------------------------------

    def _check_offered(self, state: StateT, intent: dict[str, Any], member: Member) -> None:
        """Refuse an intent that no offer to this member covers, saying why: a matter of
        role when the member has no offer of its kind and the GM has one, else of the rules
        (the member's own offer says what it allows).

        The answer depends on the intent's kind and on the member's own offers only, never
        on whether the GM could ask for this very intent: that would tell a player whether
        the hidden thing it names exists (a hidden tracker's name, a secret character)."""
        who = member.name or member.id
        if not member.acts:
            raise PermissionDenied(f"{who} is an observer and only watches")
        kind = intent["kind"]
        offers = [o for o in self.legal(state, member) if o.kind == kind]
        said = TableSaid(self.words, lambda: self.seated(state))
        if any(o.allows(intent, said) is None for o in offers):
            return
        # The rules may say why they refuse only what the member plays: their reason about
        # anything else could tell whether a hidden thing exists.
        why = self.refusal(state, intent, member) if self._plays(state, intent, member) else None
        if why is None:
            if not offers and not member.is_gm and self._gm_may(state, kind):
                raise PermissionDenied(f"{self._said(kind)}: not {who}'s to ask for; the GM may")
            # An open offer names the field that is wrong; a closed one only that this
            # choice is not among its own, so an open offer of the kind speaks first.
            ordered = sorted(offers, key=lambda o: o.closed)
            own = (o.allows(intent, said) for o in ordered if o.fits_preset(intent))
            why = next(own, None) or self.why_not(state, intent, member)
        raise self.error(f"{self._said(kind)}: {why}")

    @staticmethod
    def _plays(state: StateT, intent: Mapping[str, Any], member: Member) -> bool:
        """Whether `intent` names a character `member` plays (a table keeps its characters
        by id, each with its owner): nothing hidden from them is involved."""
        characters = getattr(state, "characters", None)
        if not isinstance(characters, Mapping):
            return False
        seat = characters.get(intent.get("character"))
        return seat is not None and controls(member, str(getattr(seat, "owner", "")))

    def _gm_may(self, state: StateT, kind: str) -> bool:
        """Whether the GM has an offer of `kind` now (so a player's refusal is one of role)."""
        return any(o.kind == kind for o in self.legal(state, Member.gm()))

    def _apply(
        self, state: StateT, intent: Any, member: Member, dice: DiceSource
    ) -> tuple[StateT, list[Event]]:
        if isinstance(intent, RollDice):
            return state, [roll_event(intent, member.name or member.id, dice)]
        return self.apply(state, intent, member, dice)


class TableSaid(Said):
    """A refusal in a table's words: a field's label, a value's words or the name of whom
    it names. What was sent is not echoed: a page's stale pick is an id, and its name could
    tell a player whether a hidden one exists."""

    def __init__(self, words: Words, seated: Callable[[], Mapping[str, Seated]]) -> None:
        self.words = words
        self.seated = seated

    @functools.cached_property
    def names(self) -> dict[str, str]:
        """Who is at the table, asked only when a refusal names someone."""
        return {key: one.name for key, one in self.seated().items()}

    def field(self, kind: str, name: str) -> str:
        wording = self.words.field(kind, name)
        return name.replace("_", " ").capitalize() if wording is None else wording.label

    def value(self, kind: str, name: str, value: Any) -> str:
        if isinstance(value, bool) or value is None:
            return {True: "ticked", False: "left unticked", None: "none"}[value]
        worded = self.words.value(kind, name, value)  # "Wait: nothing else this round"
        if worded:
            return worded.split(": ")[0]
        return self.names.get(str(value)) or str(value).replace("_", " ")

    def given(self, value: Any) -> str:
        return ""


def _settled(
    events: Sequence[Event], hidden: Mapping[str, str], words: Words
) -> tuple[list[Event], bool]:
    """Each event with its marks (`kept.secret`) settled, and whether any kept something:
    the GM's line reads whole; a line with a part of someone in `hidden` reaches the
    players with that part as `?`, or as its hint when the whole line is theirs; a line
    only its actor and the GM see (a roll for the GM) becomes the actor's line with those
    parts as `?` and the GM's whole line beside it."""
    settled: list[Event] = []
    keeps = False
    for event in events:
        marked = kept.owners(event.text) | kept.owners(event.hint)
        whole = event.model_copy(
            update={"text": kept.plain(event.text), "hint": kept.masked(event.hint, hidden)}
        )
        if not marked & hidden.keys() or event.visibility in (Visibility.GM, Visibility.HIDDEN):
            settled.append(whole)
            continue
        keeps = True
        owner = kept.whole_owner(event.text)
        if whole.hint:
            players = whole.hint
        elif owner is not None:
            players = f"{hidden[owner]}: {words.event(event.type)}, kept secret"
        else:
            players = kept.masked(event.text, hidden)
        if event.visibility == Visibility.PUBLIC:
            update = {"visibility": Visibility.HIDDEN, "audience": (), "hint": players}
            settled.append(whole.model_copy(update=update))
            continue
        mine = Event(
            type=event.type,
            text=players,
            visibility=event.visibility,
            audience=event.audience,
            hint=kept.masked(event.hint, hidden),
            actor=event.actor,
        )
        settled += [
            mine,
            whole.model_copy(update={"visibility": Visibility.GM, "audience": (), "hint": ""}),
        ]
    return settled, keeps


def _marks_in(value: Any) -> bool:
    """Whether any text in an intent holds the characters the rules mark a line with."""
    if isinstance(value, str):
        return not kept.MARKS.isdisjoint(value)
    if isinstance(value, dict):
        return any(_marks_in(k) or _marks_in(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_marks_in(item) for item in value)
    return False


def _open_draws(cause: Cause | None) -> dict[str, Any]:
    """The draws a resolution shows the players apart, in the order rolled and with no
    place among the others: a place would count the hidden dice before it (how many dice a
    hidden NPC threw tells its level, its advantage or its weapon)."""
    if cause is None or not cause.open_draws:
        return {}
    return {"draws": [cause.draws[at].model_dump() for at in cause.open_draws]}


def _seen_by_all(events: Sequence[Event], actor: Member) -> Visibility:
    """Who sees every one of `events`: everyone, the actor and the GM, or the GM alone."""
    if all(e.visibility == Visibility.PUBLIC for e in events):
        return Visibility.PUBLIC
    if all(e.seen_by(actor) for e in events):
        return Visibility.ACTOR
    return Visibility.GM


def kinds(intents: Iterable[type[BaseModel]]) -> frozenset[str]:
    """The kinds these intents are sent as (`explained`, …)."""
    return frozenset(intent.model_fields["kind"].default for intent in intents)


def _union(kinds: Sequence[type[BaseModel]]) -> Any:
    """One model, or the union of several told apart by their `kind`."""
    if len(kinds) == 1:
        return kinds[0]
    return Annotated[Union[tuple(kinds)], Field(discriminator="kind")]  # noqa: UP007


def first_problem(problem: ValidationError) -> str:
    """The first thing pydantic found wrong, on one short line."""
    first = problem.errors(include_url=False)[0]
    where = ".".join(str(part) for part in first["loc"]) or "the value"
    return f"{where}: {first['msg']}"[:200]
