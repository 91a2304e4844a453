"""The rooms of one shard: every change a member can ask for, made in one store transaction
that appends to the room's log, and only then folded and told to listeners.

Synchronous and free of I/O but the store's: a shard worker (shards.py) calls it for the
rooms that hash to it, one request of a room at a time; the tests call it directly. A room
is loaded when first asked for, from its latest snapshot and the entries after it
(snapshots.py), and kept in bounded memory (loaded.py) until it is idle; every
`SNAPSHOT_EVERY` entries, and when it is let go, its table is snapshotted. Before each
change the hall catches up with entries another process appended (PostgreSQL), so each
process folds every entry exactly once, in order. An intent whose decision takes long
(`Session.thinks`: a bot's search) can be decided elsewhere first: `thinking` says what a
worker needs, and `act` or `table_move` take the `Decision` it sends back.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from tabletop import names
from tabletop.dice.source import DiceSource
from tabletop.errors import DataError
from tabletop.rooms import roomevents, snapshots
from tabletop.rooms.budgets import check_intent
from tabletop.rooms.errors import (
    AuditError,
    BadLink,
    Kicked,
    NotAllowed,
    RefusedOnRecord,
    RoomError,
    TooMuch,
    UnknownRoom,
)
from tabletop.rooms.fairdice import (
    FairDice,
    commitment,
    digest,
    new_nonce,
    new_seed,
    seeded_position,
    table_nonce,
)
from tabletop.rooms.ledger import UNDO, groups, marks
from tabletop.rooms.lines import exported, project
from tabletop.rooms.loaded import IDLE_SECONDS, MAX_LOADED, WINDOW, Loaded, Residents
from tabletop.rooms.log import FORMAT, OUTSIDER, Asked, Entry, Witnessed, public_of
from tabletop.rooms.names import BadName, checked
from tabletop.rooms.readings import load_session, session_at
from tabletop.rooms.snapshots import SNAPSHOT_EVERY, StoreLedger
from tabletop.rooms.store import Credential, Store
from tabletop.rooms.table import Table, fold
from tabletop.rooms.texts import ROOM_TEXT, Typed, allowance_of, typed_size
from tabletop.rooms.tokens import new_room_id, new_token, token_hash
from tabletop.rooms.verify import verify
from tabletop.rooms.witness import Call, published
from tabletop.session import (
    MAX_NAME,
    MAX_TEXT,
    TABLE,
    Decision,
    DrawnRefusal,
    Event,
    Member,
    Role,
    Session,
    rolling_for,
)

IMPORTS = "a room is imported from the GM's whole export, once it verifies in full"

MAX_MEMBERS = 64
"""Members one room may have at once: a table, not an auditorium."""

INVITE_ROLES = (Role.PLAYER, Role.OBSERVER)

Listener = Callable[[str, list[Entry]], None]


@dataclass
class Appended:
    """What one request appended (or, for a retried intent, had appended before)."""

    entries: list[Entry]
    duplicate: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    """What the request returns besides (new links, a revealed seed)."""


@dataclass(frozen=True)
class Thinking:
    """What a worker needs to decide an intent before `act` or `table_move` resolves it
    (`Session.think`): the state, the intent, who asks, and the dice position it draws at
    (the seed stays among the server's processes)."""

    room: str
    system: str
    rules: int
    state: BaseModel
    intent: dict[str, Any]
    member: Member
    key: bytes
    position: str
    """Where in `key`'s stream the resolution draws (fairdice.FairDice)."""
    nonce: str
    """The dice position's nonce: the client's (drawn here when it sent none, and handed
    to `act`), or the table's for a bot's move."""
    client: str
    called: Call | None = None
    """Format 3: the witnessed call the decision was made with, handed to `act`."""


@dataclass(frozen=True)
class Importing:
    """What a verified GM export makes a new room of (`importing`; a pool worker checks it,
    a shard writes it with `Hall.import_room`)."""

    system: str
    rules: int
    """The version of the system's rules the export was played under."""
    room: str
    """The room the export came from."""
    members: tuple[str, ...]
    gm: Member
    """The first GM still in the room: they get a new link."""
    dice_session: int
    format: int
    head: int
    head_hash: str
    audit_head: str
    snapshot: str
    """The export's table at its head, as a snapshot (snapshots.encode): the new room's
    table without folding the log again."""


@dataclass
class _Group:
    """Events to append together, and what else the same transaction writes."""

    events: list[Event]
    actor: str | None = None
    client: str | None = None
    nonce: str | None = None
    write: Callable[[Store], None] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    retried: int | None = None
    refused: str | None = None
    """The error to answer with once a refusal that drew dice is on the record."""
    asked: Asked | None = None
    """Format 3: who asked, with the intent as sent (the first entry's `asked` part)."""
    witnessed: Witnessed | None = None
    """Format 3: the roll's secret and witnesses, for its first entry."""
    typed: int = 0
    """Bytes of text its asker typed that count against the room's allowance (texts.py)."""


class Hall:
    def __init__(
        self,
        store: Store,
        clock: Callable[[], float] = time.time,
        seeds: Callable[[], bytes] = new_seed,
        idle: float = IDLE_SECONDS,
        most: int = MAX_LOADED,
        snapshot_every: int = SNAPSHOT_EVERY,
        log_format: int = FORMAT,
        room_text: int = ROOM_TEXT,
    ) -> None:
        if snapshot_every < 1:
            raise ValueError("snapshots are taken every one entry or more")
        self.store = store
        self.room_text = room_text
        """A room's text allowance unless its GM set one (texts.py)."""
        self._clock = clock
        self._new_seed = seeds
        """Where dice secrets come from (format 3: each roll's; format 2: each session's
        seed): fresh secrets; a test fixture may fix them."""
        self._loaded = Residents(idle, most)
        self.log_format = log_format
        """The format new rooms' logs are written in: format 2 only for tests and fixtures
        of rooms made before witnessed dice."""
        self.snapshot_every = snapshot_every
        self._writing = False
        """Inside an append's transaction: no other room is let go (its snapshot would be
        a transaction inside this one) and no snapshot is written until it commits."""
        self._seeds: dict[str, tuple[int, bytes]] = {}
        """Each room's secret seed, with the dice session it belongs to."""
        self.listeners: list[Listener] = []

    # reading ------------------------------------------------------------------------------

    def table(self, room: str) -> Table:
        """The room's table, loaded from its latest snapshot and the entries after it when
        it is not in memory."""
        return self._room(room).table

    def loaded(self) -> list[str]:
        """The rooms in memory now, least recently used first."""
        return self._loaded.rooms()

    def is_loaded(self, room: str) -> bool:
        return room in self._loaded

    def unload(self, room: str) -> None:
        """Forget a loaded room's table without a snapshot (a store transaction holding
        its latest changes failed, so the table may be ahead of the store): the next
        request loads it again from the store. `let_go` is for a table that is sound."""
        self._loaded.pop(room)
        self._seeds.pop(room, None)

    def _room(self, room: str) -> Loaded:
        now = self._clock()
        found = self._loaded.use(room, now)
        if found is None:
            found = self._load(room, now)
        self._let_go(self._loaded.due(now, keep=room))
        return found

    def _load(self, room: str, now: float) -> Loaded:
        """Read the room's latest usable snapshot and fold only what follows it."""
        try:
            table, base = snapshots.load(self.store, room)
            loaded = Loaded(table, base, now)
            for group in snapshots.tail(self.store, room, table.head):
                table.apply(group)
                loaded.remember(group)
        except DataError as problem:
            raise RoomError(f"room {room} cannot be opened here: {problem}") from None
        self._loaded.add(room, loaded)
        self._snapshot_if_due(room, loaded)
        return loaded

    def who(self, room: str, token: str) -> Member:
        """The member whose link holds `token`, or why the link opens nothing here."""
        found = self._credential(room, token)
        if found.member is None:
            raise BadLink("that is an invite: join with it first (tabletop room join)")
        return self.table(room).member(found.member)

    def invite_role(self, room: str, token: str) -> Role | None:
        """The role an invite's token joins as; None for a member's own link."""
        found = self._credential(room, token)
        return None if found.member is not None else Role(str(found.role))

    def room_name(self, room: str) -> str:
        """The name the GM gave the room when opening it."""
        return str(self.entries(room, 0, 1)[0].event.data.get("name", ""))

    def _credential(self, room: str, token: str) -> Credential:
        """What the token opens in this room; a loaded room of a store this hall alone
        writes remembers it, so that a member's every request is not a read of the store."""
        hashed = token_hash(token) if token else ""
        loaded = self._loaded.peek(room) if self.store.sole_writer else None
        found = loaded.links.get(hashed) if loaded is not None else None
        if found is None and hashed:
            found = self.store.credential(hashed)
            if loaded is not None and found is not None and found.room == room:
                loaded.links[hashed] = found
        if found is None or found.room != room:
            if not self.store.has_room(room):
                raise UnknownRoom(f"there is no room {room!r} on this server")
            raise BadLink("this link does not open this room (mistyped, rotated or revoked)")
        return found

    def catch_up(self, room: str) -> list[Entry]:
        """Fold and tell what other processes appended to a loaded room since we last looked."""
        loaded = self._loaded.peek(room)
        if loaded is None:
            return []
        fresh = []
        for group in snapshots.tail(self.store, room, loaded.table.head):
            loaded.table.apply(group)
            self._applied(room, loaded, group)
            fresh += group
        self._tell(room, fresh)
        self._snapshot_if_due(room, loaded)
        return fresh

    def entries(self, room: str, after: int = 0, upto: int | None = None) -> list[Entry]:
        """The room's entries after seq `after` (to `upto`): the latest from memory, the
        others from the store."""
        loaded = self._loaded.peek(room)
        if loaded is not None and upto is not None:
            found = loaded.between(after, upto)
            if found is not None:
                return found
        return [Entry.from_text(body) for body in self.store.entries(room, after, upto)]

    def texts(self, room: str, after: int, upto: int) -> list[str]:
        """The stored text of the room's entries after seq `after` up to `upto`, unparsed:
        the latest from memory, the others from the store."""
        loaded = self._loaded.peek(room)
        found = loaded.between(after, upto) if loaded is not None else None
        if found is not None:
            return [entry.text for entry in found]
        return self.store.entries(room, after, upto)

    def project(self, room: str, entry: Entry, member: Member) -> str | None:
        """The line `member` receives of `entry` (lines.project)."""
        return project(self.table(room).session, entry, member)

    def export(self, room: str, member: Member) -> list[str]:
        """The log as `member` may have it (lines.exported)."""
        table = self.table(room)
        entries = self.entries(room, 0, table.head)
        return list(exported(table.session, room, table.system, entries, member))

    def thinking(
        self,
        room: str,
        member_id: str,
        intent: Mapping[str, Any],
        client: str,
        nonce: str | None = None,
        called: Call | None = None,
    ) -> Thinking | None:
        """What a worker must decide before `act` resolves this intent, when its kind takes
        thinking (`Session.thinks`) and `act` would resolve it now; else None (`act` alone
        answers: a retried id, a spent nonce, an intent that needs no thinking). In a
        format-3 room it decides with the dice of `called` (an unwitnessed call if none)."""
        table = self.table(room)
        if intent.get("kind") not in table.session.thinks:
            return None
        member = self._present(table, member_id)
        if called is None and any(
            seq is not None for seq in self.store.sent_before(room, member_id, client, nonce)
        ):
            return None
        check_intent(intent)
        position = called.nonce if called is not None else nonce or new_nonce()
        if table.format >= 3:
            called = called or self._call(table, room, member, intent, client, position, ())
            key, where = called.secret, called.dice_position
        else:
            key, where = self._seed(room, table), seeded_position(member_id, position)
        return Thinking(
            room,
            table.system,
            table.session.version,
            table.state,
            dict(intent),
            member,
            key,
            where,
            position,
            client,
            called,
        )

    def table_thinking(self, room: str, called: Call | None = None) -> Thinking | None:
        """What a worker must decide before `table_move` plays the table's move now (a
        bot's search), if one is due and its kind takes thinking."""
        table = self.table(room)
        intent = table.session.table_move(table.state)
        if intent is None or intent.get("kind") not in table.session.thinks:
            return None
        if table.format >= 3:
            called = called or self.table_call(room)
            assert called is not None
            key, where, nonce = called.secret, called.dice_position, called.nonce
        else:
            nonce = table_nonce(table.head + 1, table.latest_nonce)
            key, where = self._seed(room, table), seeded_position(TABLE.id, nonce)
        return Thinking(
            room,
            table.system,
            table.session.version,
            table.state,
            intent,
            TABLE,
            key,
            where,
            nonce,
            nonce,
            called,
        )

    # witnessed calls (format 3) -----------------------------------------------------------

    def call(
        self,
        room: str,
        member_id: str,
        intent: Mapping[str, Any],
        client: str,
        nonce: str | None = None,
        witnesses: tuple[str, ...] = (),
        sent: str | None = None,
    ) -> Call | None:
        """The witnessed call of this intent's roll, its inputs fixed before any witness
        reveals; None when `act` answers it at once (a format-2 room, a retried id, an intent
        that draws no dice). A refusal decided before any die raises here, before any call.
        `sent` is the digest the client gave of its intent (a resend's), checked."""
        table = self.table(room)
        check_sent(intent, sent)
        if table.format < 3:
            return None
        member = self._present(table, member_id)
        retried, used = self.store.sent_before(room, member_id, client, nonce)
        if retried is not None:
            return None
        check_intent(intent)
        position = nonce or new_nonce()
        if used is not None:
            raise _spent(position, used)
        if not self._draws(table, intent, member):
            return None
        return self._call(table, room, member, intent, client, position, witnesses)

    def table_call(self, room: str, witnesses: tuple[str, ...] = ()) -> Call | None:
        """The witnessed call of the table's own move now (a bot's seat deciding), if one is
        due in a format-3 room; its nonce is drawn here, so nothing in the log names it."""
        table = self.table(room)
        intent = table.session.table_move(table.state)
        if intent is None or table.format < 3:
            return None
        nonce = new_nonce()
        return self._call(table, room, TABLE, intent, nonce, nonce, witnesses)

    def _call(
        self,
        table: Table,
        room: str,
        member: Member,
        intent: Mapping[str, Any],
        client: str,
        nonce: str,
        witnesses: tuple[str, ...],
    ) -> Call:
        """A call at the room's next seq, listing the connected witnesses with a chain."""
        chains = table.witnesses.active()
        listed = tuple(sorted(w for w in set(witnesses) if w in chains and w not in table.kicked))
        lasts = {w: chains[w] for w in listed}
        return Call(
            room,
            member,
            dict(intent),
            client,
            nonce,
            table.head + 1,
            table.head_hash,
            listed,
            lasts,
            self._clock(),
            self._new_seed(),  # each roll's secret (fixed only by test fixtures)
            heads={w: table.witnesses.heads[w] for w in listed},
        )

    @staticmethod
    def _draws(table: Table, intent: Mapping[str, Any], member: Member) -> bool:
        """Whether resolving the intent now would draw a die (the rules asked with dice
        that stop at the first draw); a refusal before any die raises."""
        if intent.get("kind") in table.session.thinks:
            return True  # a bot's search draws its seed
        try:
            table.session.resolve(table.state, intent, member, _NoDice())
        except _Drew:
            return True
        return False

    def witness(self, room: str, member_id: str, head: str) -> Appended:
        """A member's client commits the head of its chain (nothing when the log holds it)."""

        def make(table: Table) -> _Group:
            member = self._present(table, member_id)
            if table.format < 3 or table.witnesses.heads.get(member_id) == head:
                return _Group([])
            if len(head) != 64 or head.strip("0123456789abcdef"):
                raise RoomError("a witness's head is 32 bytes of lowercase hex")
            return _Group([roomevents.witness(member, head)], member_id)

        return self._append(room, make)

    # changing -----------------------------------------------------------------------------

    def create(
        self,
        system: str,
        name: str = "",
        options: Mapping[str, Any] | None = None,
        gm: str = "GM",
        room: str | None = None,
    ) -> Appended:
        """A new room (named `room`, or a fresh id): its log opens with the system, the
        dice commitment and the GM."""
        session = load_session(system)
        session.new(dict(options or {}))  # options the system refuses are refused here
        room, seed, token = room or new_room_id(), self._new_seed(), new_token()
        invites = {role: new_token() for role in INVITE_ROLES}
        form = self.log_format
        events = [
            roomevents.created(
                room, system, _short(name), dict(options or {}), session.version, form
            ),
            roomevents.joined("m1", checked(gm, "the GM's name"), Role.GM),
        ]
        if form < 3:  # a dice seed a session
            events.insert(1, roomevents.committed(1, commitment(seed), None))
        stamp = self._now()
        entries = self._chain(session, events, 0, "0" * 64, _Group([]), stamp)
        with self.store.locked():
            self.store.add_room(room, system, seed.hex(), stamp)
            self.store.add_member(room, "m1", token_hash(token))
            for role, invite in invites.items():
                self.store.add_invite(room, role, token_hash(invite))
            self.store.append(room, [(e.seq, None, None, None, e.text) for e in entries])
        links = {"gm": token, **{str(role): invite for role, invite in invites.items()}}
        return Appended(entries, extra={"room": room, "tokens": links})

    def join(self, room: str, invite: str, name: str) -> Appended:
        found = self._credential(room, invite)
        if found.member is not None or found.role is None:
            raise BadLink("this is a member's own link, not an invite")
        role, token = Role(found.role), new_token()

        def make(table: Table) -> _Group:
            if len(self._present_members(table)) >= MAX_MEMBERS:
                raise TooMuch(f"a room holds at most {MAX_MEMBERS} members")
            member_id = f"m{len(table.members) + 1}"  # never reused: kicked members count
            kept = table.check_name(name)
            removed = [table.member(m).name for m in self.store.barred(room)]
            if names.look_alike(kept, removed) is not None:
                raise BadName(
                    f"{kept!r} is the name of a member the GM removed, or looks like it; ask "
                    "the GM for a new invite"
                )

            def write(store: Store) -> None:
                store.add_member(room, member_id, token_hash(token), token_hash(invite))
                self._typed(room).members[member_id] = (token_hash(invite), 0)

            event = roomevents.joined(member_id, kept, role)
            return _Group([event], write=write, extra={"member": member_id, "token": token})

        return self._append(room, make)

    def act(
        self,
        room: str,
        member_id: str,
        intent: Mapping[str, Any],
        client: str,
        nonce: str | None = None,
        decision: Decision | None = None,
        called: Call | None = None,
    ) -> Appended:
        """Resolve a system intent with the room's fair dice and append its events (or, if
        the rules refused it after drawing dice, the refusal, and answer with the error).
        Its work is bounded before any die (budgets.py). `decision` is what a worker decided
        for it (`thinking`), with these same dice. In a format-3 room the dice are those of
        `called`, with whatever its witnesses revealed; without a call, a roll is called
        and resolved at once, unwitnessed."""

        def make(table: Table) -> _Group:
            member = self._present(table, member_id)
            retried, used = self.store.sent_before(room, member_id, client, nonce)
            if retried is not None:
                return _Group([], retried=retried)
            check_intent(intent)
            typed = self._typing(room, member, intent)
            position = called.nonce if called is not None else nonce or new_nonce()
            if used is not None:
                raise _spent(position, used)
            if table.format < 3:
                where = seeded_position(member_id, position)
                dice = FairDice(self._seed(room, table), where)
                group = _resolved(table, intent, member, dice, client, position, decision)
            else:
                group = self._settled(
                    table, room, member, intent, client, position, decision, called
                )
            group.typed = typed
            return group

        return self._append(room, make)

    def _settled(
        self,
        table: Table,
        room: str,
        member: Member,
        intent: Mapping[str, Any],
        client: str,
        nonce: str,
        decision: Decision | None,
        called: Call | None,
    ) -> _Group:
        """A format-3 resolution: with its call's witnessed dice, or with none when it draws
        no die (it must still be at the seq its call named)."""
        asked = Asked(member.id, dict(intent))
        if called is None:
            if not self._draws(table, intent, member):
                group = _resolved(table, intent, member, _NoDice(), client, nonce, decision)
                group.asked = asked
                return group
            called = self._call(table, room, member, intent, client, nonce, ())
        if (called.seq, called.prev) != (table.head + 1, table.head_hash):
            raise RoomError("the room moved on while this roll was called: send it again")
        hidden = table.session.kept_from_players(table.state)
        dice = called.dice(hidden, rolling_for)
        group = _resolved(table, intent, member, dice, client, nonce, decision)
        group.asked, group.witnessed = asked, called.witnessed(dice.open_at)
        return group

    def table_move(
        self,
        room: str,
        decision: Decision | None = None,
        nonce: str | None = None,
        called: Call | None = None,
    ) -> Appended:
        """The move the table makes by itself now, if any (a bot's seat deciding), resolved
        with the room's fair dice and appended like a member's; nothing when none is due.
        `decision` is what a worker decided for it at the position `nonce` names
        (`table_thinking`); nothing is played if the table has moved on since."""

        def make(table: Table) -> _Group:
            intent = table.session.table_move(table.state)
            if intent is None:
                return _Group([])
            if table.format >= 3:
                if called is not None and called.intent != intent:
                    return _Group([])  # the table moved on since the call
                drawn = called.nonce if called is not None else new_nonce()
                return self._settled(table, room, TABLE, intent, drawn, drawn, decision, called)
            due = table_nonce(table.head + 1, table.latest_nonce)
            if nonce is not None and nonce != due:
                return _Group([])
            dice = FairDice(self._seed(room, table), seeded_position(TABLE.id, due))
            return _resolved(table, intent, TABLE, dice, due, due, decision)

        return self._append(room, make)

    def say(
        self, room: str, member_id: str, text: str, to: tuple[str, ...] = (), client: str = ""
    ) -> Appended:
        """Chat to everyone, or whispered to the members named (and seen by the GM)."""

        def make(table: Table) -> _Group:
            member = self._present(table, member_id)
            retried = self.store.retried(room, member_id, client) if client else None
            if retried is not None:
                return _Group([], retried=retried)
            if not text.strip() or len(text) > MAX_TEXT:
                raise RoomError(f"say something of 1 to {MAX_TEXT} characters")
            typed = self._typing(room, member, text)
            audience = [self._named(table, name) for name in to]
            event = roomevents.chat(member, text, audience)
            return _Group([event], member_id, client or None, typed=typed)

        return self._append(room, make)

    def undo(self, room: str, member_id: str) -> Appended:
        """Take back the latest resolution still in force: a compensating event; the log
        keeps both."""

        def make(table: Table) -> _Group:
            gm = self._gm(table, member_id)
            latest = table.last_in_force()
            if latest is None:
                raise RoomError("there is nothing to undo")
            first, last = latest
            return _Group([roomevents.undone(gm, first, last)], member_id)

        return self._append(room, make)

    def end_session(self, room: str, member_id: str) -> Appended:
        """Reveal the session's dice seed and commit to the next session's."""

        def make(table: Table) -> _Group:
            gm = self._gm(table, member_id)
            if table.format >= 3:  # nothing to reveal: every die already checks
                return _Group([roomevents.session_closed(gm, table.dice_session)], member_id)
            seed, fresh = self.store.seed(room), self._new_seed()
            ended = roomevents.session_ended(gm, table.dice_session, seed, table.commitment)

            def write(store: Store) -> None:
                store.set_seed(room, fresh.hex())

            events = [ended, roomevents.committed(table.dice_session + 1, commitment(fresh), gm.id)]
            return _Group(events, member_id, write=write, extra={"seed": seed})

        return self._append(room, make)

    def kick(self, room: str, member_id: str, name: str) -> Appended:
        def make(table: Table) -> _Group:
            gm = self._gm(table, member_id)
            target = self._named(table, name)
            if target.id == member_id:
                raise RoomError("the GM cannot kick themselves; promote another GM first")

            def write(store: Store) -> None:
                store.bar(room, target.id)  # their link, their invite and their name

            return _Group([roomevents.kicked(gm, target)], member_id, write=write)

        return self._append(room, make)

    def rename(self, room: str, member_id: str, name: str, new_name: str) -> Appended:
        def make(table: Table) -> _Group:
            gm = self._gm(table, member_id)
            target = self._named(table, name)
            kept = table.check_name(new_name, target.id)
            return _Group([roomevents.renamed(gm, target, kept)], member_id)

        return self._append(room, make)

    def promote(self, room: str, member_id: str, name: str, role: Role) -> Appended:
        def make(table: Table) -> _Group:
            gm = self._gm(table, member_id)
            target = self._named(table, name)
            if role == Role.BOT:
                raise RoomError("a member is a gm, a player or an observer")
            if target.is_gm and role != Role.GM and len(table.gms()) == 1:
                raise RoomError("a room needs a GM: promote another member first")
            return _Group([roomevents.promoted(gm, target, role)], member_id)

        return self._append(room, make)

    def rotate_invites(self, room: str, member_id: str) -> Appended:
        """New invite links; the old ones stop working at once (members keep theirs)."""
        invites = {str(role): new_token() for role in INVITE_ROLES}

        def make(table: Table) -> _Group:
            gm = self._gm(table, member_id)

            def write(store: Store) -> None:
                store.retire_invites(room)
                for role, invite in invites.items():
                    store.add_invite(room, role, token_hash(invite))

            event = roomevents.invites_rotated(gm)
            return _Group([event], member_id, write=write, extra={"tokens": invites})

        return self._append(room, make)

    def rotate_link(self, room: str, member_id: str) -> Appended:
        """A new link for this member; the old one stops working at once."""
        token = new_token()

        def make(table: Table) -> _Group:
            member = self._present(table, member_id)

            def write(store: Store) -> None:
                store.set_member_token(room, member_id, token_hash(token))

            event = roomevents.link_rotated(member)
            return _Group([event], member_id, write=write, extra={"token": token})

        return self._append(room, make)

    def import_log(self, lines: list[str]) -> Appended:
        """A new room holding a GM's full export, checked first (`importing`)."""
        return self.import_room(lines, importing(lines))

    def import_room(self, lines: list[str], plan: Importing, room: str | None = None) -> Appended:
        """A new room (named `room`, or a fresh id) holding the export `plan` was checked
        from, kept byte for byte, then a fresh dice commitment (the export's last seed is
        public). The first GM still in the room gets a new link; everyone else joins again
        through new invites. The room's table is the plan's snapshot of the export's fold
        (made where it was checked) and the two entries added here, snapshotted at once."""
        session = session_at(plan.system, plan.rules)
        room, seed, token = room or new_room_id(), self._new_seed(), new_token()
        invites = {role: new_token() for role in INVITE_ROLES}
        events = [roomevents.imported(plan.gm, plan.room, plan.audit_head)]
        if plan.format < 3:  # a format-2 room goes on with a seed a dice session
            events.append(roomevents.committed(plan.dice_session + 1, commitment(seed), plan.gm.id))
        stamp = self._now()
        added = self._chain(session, events, plan.head, plan.head_hash, _Group([]), stamp)
        entries = [Entry.from_text(line) for line in lines[:-1]]
        with self.store.locked():
            self.store.add_room(room, plan.system, seed.hex(), stamp)
            for member in plan.members:
                self.store.add_member(
                    room, member, token_hash(token) if member == plan.gm.id else None
                )
            for role, invite in invites.items():
                self.store.add_invite(room, role, token_hash(invite))
            rows = [_row(e, e.event.actor, e.client) for e in entries + added]
            self.store.append(room, rows)
            for group in groups(entries[1:] + added):
                self.store.index(room, marks(group))
        created = entries[0].event
        ledger = StoreLedger(self.store, room, created)
        try:
            table = snapshots.decode(created, plan.head, plan.head_hash, plan.snapshot, ledger)
        except DataError:
            table = None  # not this installation's snapshot: the room folds its log when used
        if table is not None:
            for group in groups(added):
                table.apply(group)
            loaded = Loaded(table, 0, self._clock())
            loaded.remember((entries + added)[-WINDOW:])
            self._loaded.add(room, loaded)
            self._snapshot_if_due(room, loaded, force=True)
        links = {"gm": token, **{str(role): invite for role, invite in invites.items()}}
        return Appended(added, extra={"room": room, "tokens": links})

    # inside -------------------------------------------------------------------------------

    def _append(self, room: str, make: Callable[[Table], _Group]) -> Appended:
        """The one append path: lock the room, catch up (unless the lock proves nobody else
        wrote: `Store.sole_writer`), decide, write (the entries and their index marks),
        commit; then fold, tell, and snapshot when one is due. Anything `make` raises rolls
        the transaction back: nothing changes."""
        loaded = self._room(room)
        table = loaded.table
        with self.store.locked(room), self._inside():
            if not self.store.sole_writer:
                self.catch_up(room)
            group = make(table)
            if group.retried is not None:
                return self._again(room, table, group.retried)
            if not group.events and group.write is None:
                return Appended([])  # nothing was due (the table had no move to make)
            entries = self._chain(
                table.session, group.events, table.head, table.head_hash, group, self._now()
            )
            rows = [
                _row(e, group.actor, group.client if i == 0 else None)
                for i, e in enumerate(entries)
            ]
            self.store.append(room, rows)
            for appended in groups(entries):
                self.store.index(room, marks(appended))
            if group.write is not None:
                loaded.links.clear()  # a link it changes opens something else now
                group.write(self.store)
            if group.typed:
                self.store.add_typed(room, str(group.actor), group.typed)
        if group.typed:
            self._typed(room).add(str(group.actor), group.typed)
        table.apply(entries)
        self._applied(room, loaded, entries)
        self._tell(room, entries)
        self._snapshot_if_due(room, loaded)
        if group.refused is not None:
            raise RefusedOnRecord(group.refused, entries[0].seq)
        return Appended(entries, extra=group.extra)

    def _again(self, room: str, table: Table, first: int) -> Appended:
        """The answer to a request sent again: what it appended the first time (the same
        refusal, if the rules refused it after drawing)."""
        entries = self.entries(room, first - 1, table.ledger.last_of(first))
        refused = _answer_refusal(entries[0].event)
        if refused is not None:
            raise RefusedOnRecord(refused, first)
        return Appended(entries, duplicate=True)

    @staticmethod
    def _chain(
        session: Session[Any],
        events: list[Event],
        head: int,
        prev: str,
        group: _Group,
        stamp: int,
    ) -> list[Entry]:
        """The entries of `events` after `head`, the first carrying the group's request."""
        entries = []
        for number, event in enumerate(events):
            public = public_of(event, session.view_event(event, OUTSIDER))
            if number == 0:
                witnessed = group.witnessed and published(group.witnessed, public, head + 1)
                asked = (group.client, group.nonce, group.asked, witnessed)
                entry = Entry.make(head + 1, stamp, event, prev, public, *asked)
            else:
                entry = Entry.make(head + number + 1, stamp, event, prev, public)
            entries.append(entry)
            prev = entry.hash
        return entries

    @contextmanager
    def _inside(self) -> Iterator[None]:
        """Mark an append's transaction: nothing else is written until it ends."""
        self._writing = True
        try:
            yield
        finally:
            self._writing = False

    def _applied(self, room: str, loaded: Loaded, entries: list[Entry]) -> None:
        """Keep what the table just folded in the window; after an undo, which dropped the
        snapshots holding what it took back, learn which snapshot is the latest now."""
        loaded.remember(entries)
        if any(entry.event.type == UNDO for entry in entries):
            found = self.store.snapshot_before(room, loaded.table.head + 1)
            loaded.base = 0 if found is None else found[0]

    def _snapshot_if_due(self, room: str, loaded: Loaded, force: bool = False) -> None:
        """Snapshot the room when `snapshot_every` entries followed its latest snapshot
        (or, forced, when any did); never inside an append's transaction."""
        table = loaded.table
        due = table.head - loaded.base >= (1 if force else self.snapshot_every)
        if due and not self._writing and snapshots.write(self.store, room, table):
            loaded.base = table.head

    def snapshot(self, room: str) -> int:
        """Snapshot the room now if anything followed its latest snapshot (a shard about
        to stop, a test); the seq of its latest snapshot afterwards."""
        loaded = self._room(room)
        self._snapshot_if_due(room, loaded, force=True)
        return loaded.base

    def let_go(self, room: str) -> None:
        """Unload the room (its snapshot written first); asked for again, it is loaded from
        that snapshot."""
        self._let_go([room])

    def let_go_idle(self) -> list[str]:
        """Unload the rooms idle for `idle` seconds (and any past the count), least
        recently used first; what a shard calls from time to time. The rooms let go."""
        return self._let_go(self._loaded.due(self._clock()))

    def let_go_all(self) -> None:
        """Unload every room, each snapshotted first: a server stopping restarts at once."""
        self._let_go(self._loaded.rooms())

    def _let_go(self, rooms: list[str]) -> list[str]:
        """Snapshot and unload these rooms; which were let go (none inside an append's
        transaction: the next use after it lets them go)."""
        if self._writing:
            return []
        gone = []
        for room in rooms:
            loaded = self._loaded.peek(room)
            if loaded is None:
                continue
            self._snapshot_if_due(room, loaded, force=True)
            self._loaded.pop(room)
            self._seeds.pop(room, None)
            gone.append(room)
        return gone

    def _typed(self, room: str) -> Typed:
        """What the room's members typed, and its allowance (read once while loaded)."""
        loaded = self._room(room)
        if loaded.typed is None:
            allowance, members = self.store.typing(room)
            loaded.typed = Typed(allowance, members, self.room_text)
        return loaded.typed

    def _typing(self, room: str, member: Member, said: Any) -> int:
        """The bytes `member` types in `said` (a chat line or an intent) that count against
        the room's allowance (none for a GM's), refused when past it or when a text could
        make a line read as another (texts.py)."""
        size = typed_size(said)
        if member.is_gm or member.id == TABLE.id:
            return 0
        self._typed(room).check(member.id, size)
        return size

    def text_use(self, room: str) -> dict[str, Any]:
        """What the GM's view says of the room's text allowance."""
        return self._typed(room).shown()

    def set_text_allowance(self, room: str, member_id: str, size: int) -> dict[str, Any]:
        """The GM gives the room another text allowance (kept in the store, not the log: it
        is the server's policy, like a rate)."""
        self._gm(self.table(room), member_id)
        kept = allowance_of(size)
        with self.store.locked(room):
            self.store.set_text_allowance(room, kept)
        self._typed(room).allowance = kept
        return self.text_use(room)

    def _tell(self, room: str, entries: list[Entry]) -> None:
        if entries:
            for listener in self.listeners:
                listener(room, entries)

    def _seed(self, room: str, table: Table) -> bytes:
        """The seed of the room's dice session, read again only when the session changes."""
        cached = self._seeds.get(room)
        if cached is None or cached[0] != table.dice_session:
            cached = self._seeds[room] = (table.dice_session, bytes.fromhex(self.store.seed(room)))
        return cached[1]

    def _now(self) -> int:
        return int(self._clock() * 1000)

    def _present(self, table: Table, member_id: str) -> Member:
        """The member, unless a kick this process just caught up with removed them."""
        if member_id in table.kicked:
            raise Kicked("the GM removed this member from the room")
        return table.member(member_id)

    def _present_members(self, table: Table) -> list[Member]:
        return [m for m in table.members.values() if m.id not in table.kicked]

    def _gm(self, table: Table, member_id: str) -> Member:
        member = self._present(table, member_id)
        if not member.is_gm:
            raise NotAllowed("only the GM may do that")
        return member

    def _named(self, table: Table, name: str) -> Member:
        found = table.by_name(name)
        if found is None:
            present = ", ".join(m.name for m in self._present_members(table))
            raise RoomError(f"no member is called {name[:MAX_NAME]!r}; the members are {present}")
        return found


def importing(lines: list[str]) -> Importing:
    """What a new room is made of from a GM's full export, checked by `verify` (which
    folds it through the rules), or why it cannot be imported."""
    try:
        audit = verify(lines)
    except AuditError as failed:
        raise AuditError(failed.line, f"{failed.problem}; {IMPORTS}") from None
    if audit.view != "full":
        raise RoomError(f"this is a member's export, not the GM's; {IMPORTS}")
    if not audit.ruled:
        raise RoomError("this server cannot play the log's system, so cannot check its rules")
    table = fold([Entry.from_text(line) for line in lines[:-1]])
    return Importing(
        system=table.system,
        rules=table.session.version,
        room=table.room,
        members=tuple(table.members),
        gm=table.gms()[0],  # verify refused a log that leaves the room without a GM
        dice_session=table.dice_session,
        format=table.format,
        head=table.head,
        head_hash=table.head_hash,
        audit_head=audit.head,
        snapshot=snapshots.encode(table),
    )


def _resolved(
    table: Table,
    intent: Mapping[str, Any],
    member: Member,
    dice: DiceSource,
    client: str,
    nonce: str,
    decision: Decision | None = None,
) -> _Group:
    """The events of `intent` to append; a refusal after dice were drawn is appended too,
    answered with its error (but for a blind roll, whose roller learns only that it was
    made, as with any blind roll)."""
    try:
        events = table.session.resolve(table.state, intent, member, dice, decision)
    except DrawnRefusal as refused:
        return _Group(
            [refused.event], member.id, client, nonce, refused=_answer_refusal(refused.event)
        )
    return _Group(events, member.id, client, nonce)


def check_sent(intent: Mapping[str, Any], sent: str | None) -> None:
    """A client that names its intent's digest (a resend, from its nonce book) must send
    that very intent."""
    if sent is not None and digest(dict(intent)) != sent:
        raise RoomError("this intent is not the one its digest names: send the intent you kept")


def _spent(nonce: str, used: int) -> RoomError:
    return RoomError(
        f"the nonce {nonce[:64]!r} already named entry {used}'s dice: "
        "send each intent with a fresh nonce"
    )


class _Drew(Exception):
    """The rules asked for a die (`Hall._draws` stops them there)."""


class _NoDice:
    """Dice for asking the rules whether an intent draws: the first draw stops them."""

    def roll(self, sides: int) -> int:
        raise _Drew


def _answer_refusal(event: Event) -> str | None:
    """The error a refusal on the record answers its asker with (None for one its asker
    may not see: a blind roll)."""
    cause = event.cause
    if cause is None or cause.refused is None or not event.seen_by(cause.member):
        return None
    return cause.refused


def _row(entry: Entry, actor: str | None, client: str | None) -> tuple[Any, ...]:
    """An entry as the store keeps it: its seq, who caused it, the request's id, its dice
    nonce (for a resolution's first entry) and its text."""
    return (entry.seq, actor, client, entry.nonce, entry.text)


def _short(name: str) -> str:
    """A room's name: empty, or a name as `names.checked` keeps one."""
    return checked(name, "a room's name") if name.strip() else ""
