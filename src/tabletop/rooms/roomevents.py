"""The events a room makes itself (`room.*`): one constructor each, used both to append
them and, when a log is folded or verified, to rebuild each one from its data and the
table it follows and compare — so a room event, like a system's, shows only what follows
from who did what.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from tabletop.errors import DataError
from tabletop.rooms.log import FORMAT
from tabletop.session import MAX_TEXT, Event, Member, Role, Visibility
from tabletop.systems import registry

if TYPE_CHECKING:
    from tabletop.rooms.witness import Chains


class Table(Protocol):
    """What rebuilding a room event reads of the table before it (`rooms.table.Table`)."""

    members: dict[str, Member]
    format: int
    witnesses: Chains
    dice_session: int
    commitment: str
    committing: bool
    head_hash: str

    def present(self, member_id: str) -> Member: ...
    def gms(self) -> list[Member]: ...
    def check_name(self, name: str, member: str | None = None) -> str: ...
    def last_in_force(self) -> tuple[int, int] | None: ...


def _room(kind: str, text: str, actor: str | None, /, **data: Any) -> Event:
    return Event(type=f"room.{kind}", text=text, data=data, actor=actor)


def created(
    room: str, system: str, name: str, options: dict[str, Any], rules: int, form: int = FORMAT
) -> Event:
    """The first entry: the room, its system and rules version, and its log's format; its
    line names the room by the name the GM gave it (never its id) and the game by its title."""
    title = registry.system(system).title
    text = f"The room “{name}” opens for {title}" if name else f"The room opens for {title}"
    return _room(
        "created",
        text,
        None,
        room=room,
        system=system,
        name=name,
        options=options,
        format=form,
        rules=rules,
    )


def opened_before(room: str, system: str, name: str) -> str:
    """The first line as rooms wrote it before it was put in words (the room's id, the
    system's): a log that holds it still reads, its line being all that differs."""
    return f"room {name or room} opened for {system}"


def committed(session: int, commitment: str, actor: str | None) -> Event:
    text = f"dice for session {session} are committed: {commitment[:16]}…"
    return _room("dice-committed", text, actor, session=session, commitment=commitment)


ROLES = {Role.GM: "the GM", Role.PLAYER: "a player", Role.OBSERVER: "an observer"}
"""Each role a member joins as, or is made, as a line says it."""


def joined(member: str, name: str, role: Role) -> Event:
    text = f"{name} joined as {ROLES[role]}"
    return _room("joined", text, None, member=member, name=name, role=str(role))


def renamed(gm: Member, target: Member, name: str) -> Event:
    text = f"the GM renamed {target.name} to {name}"
    return _room("renamed", text, gm.id, member=target.id, name=name)


def promoted(gm: Member, target: Member, role: Role) -> Event:
    text = f"the GM made {target.name} {ROLES[role]}"
    return _room("promoted", text, gm.id, member=target.id, role=str(role))


def kicked(gm: Member, target: Member) -> Event:
    return _room("kicked", f"the GM removed {target.name}", gm.id, member=target.id)


def invites_rotated(gm: Member) -> Event:
    return _room("invites-rotated", "the GM made new invite links", gm.id)


def link_rotated(member: Member) -> Event:
    return _room("link-rotated", f"{member.name} has a new link", member.id, member=member.id)


def chat(member: Member, text: str, audience: list[Member]) -> Event:
    """Said to everyone, or whispered to `audience` (the GM sees every whisper)."""
    whom = f" to {', '.join(m.name for m in audience)}" if audience else ""
    return Event(
        type="room.chat",
        text=f"{member.name}{whom}: {text}",
        data={"text": text, "to": [m.id for m in audience]},
        visibility=Visibility.ACTOR if audience else Visibility.PUBLIC,
        audience=tuple(m.id for m in audience),
        actor=member.id,
    )


def undone(gm: Member, first: int, last: int) -> Event:
    text = f"the GM took back entries {first}–{last}"
    return _room("undo", text, gm.id, undoes=list(range(first, last + 1)))


def session_ended(gm: Member, session: int, seed: str, commitment: str) -> Event:
    text = f"the GM ended session {session}; its dice seed is revealed"
    return _room("session-ended", text, gm.id, session=session, seed=seed, commitment=commitment)


def session_closed(gm: Member, session: int) -> Event:
    """The end of a dice session in format 3: nothing to reveal, every die already checks."""
    return _room("session-ended", f"the GM ended session {session}", gm.id, session=session)


def witness(member: Member, head: str) -> Event:
    """A member's client commits the head of the hash chain it reveals a value of per roll."""
    text = f"{member.name}'s device witnesses the dice"
    return _room("witness", text, member.id, member=member.id, head=head)


def imported(gm: Member, origin: str, head: str) -> Event:
    text = "the GM moved this room here from another room's export"
    return _room("imported", text, gm.id, origin=origin, head=head)


# rebuilding one from the log --------------------------------------------------------------


def as_made(kept: Event, made: Event) -> bool:
    """Whether a logged room event is the one the server makes (`made`), in today's words
    or in those it wrote before lines were put in words (a role's or a room's id)."""
    return kept == made or kept == made.model_copy(update={"text": _said_before(made)})


def _said_before(made: Event) -> str:
    data = made.data
    if made.type == "room.joined":
        return f"{data['name']} joined as {data['role']}"
    if made.type == "room.promoted":
        return made.text.removesuffix(ROLES[Role(data["role"])]) + str(data["role"])
    if made.type == "room.imported":
        return f"moved here from room {data['origin']}"
    return made.text


def rebuilt(table: Table, seq: int, event: Event) -> Event:
    """The room event that `event`'s data, its actor and the table before it make: what the
    server would have appended; `DataError` when no request could have made it."""
    kind = event.type.removeprefix("room.")
    make = _REBUILD.get(kind)
    if make is None:
        raise DataError(f"{event.type!r} is not an event a room makes")
    try:
        return make(table, seq, event, event.data)
    except (KeyError, TypeError, ValueError, AttributeError) as problem:
        raise DataError(f"{event.type!r} does not hold what it should ({problem})") from None


def _gm(table: Table, event: Event) -> Member:
    member = table.present(str(event.actor))
    if not member.is_gm:
        doing = event.type.removeprefix("room.")
        raise DataError(f"{member.name} is not the GM, who alone makes {doing} events")
    return member


def _created(table: Table, seq: int, event: Event, data: dict[str, Any]) -> Event:
    raise DataError("a room opens only once, with its first entry")


def _committed(table: Table, seq: int, event: Event, data: dict[str, Any]) -> Event:
    if not table.committing or table.format >= 3:
        raise DataError("dice are committed when a room opens, ends a session or is imported")
    return committed(table.dice_session + 1, str(data["commitment"]), event.actor)


def _joined(table: Table, seq: int, event: Event, data: dict[str, Any]) -> Event:
    member = str(data["member"])
    if member in table.members:
        raise DataError(f"member id {member!r} is taken")
    role = Role(data["role"])
    if role == Role.GM and table.members:
        raise DataError("only the room's first member joins as its GM")
    if role not in (Role.GM, Role.PLAYER, Role.OBSERVER) or (role != Role.GM and not table.members):
        raise DataError("a room's first member is its GM; others join as players or observers")
    return joined(member, _kept_name(table, str(data["name"])), role)


def _renamed(table: Table, seq: int, event: Event, data: dict[str, Any]) -> Event:
    gm, target = _gm(table, event), table.present(str(data["member"]))
    return renamed(gm, target, _kept_name(table, str(data["name"]), target.id))


def _kept_name(table: Table, name: str, member: str | None = None) -> str:
    """The name a join or rename records, refused unless the server would have kept it so:
    normalised, free of hidden characters, unlike every other current member's."""
    if table.check_name(name, member) != name:
        raise DataError(f"the name {name[:64]!r} is not as a room keeps names (NFC, stripped)")
    return name


def _promoted(table: Table, seq: int, event: Event, data: dict[str, Any]) -> Event:
    gm, target, role = _gm(table, event), table.present(str(data["member"])), Role(data["role"])
    if role == Role.BOT:
        raise DataError("a member is a gm, a player or an observer")
    if target.is_gm and role != Role.GM and len(table.gms()) == 1:
        raise DataError("a room keeps a GM")
    return promoted(gm, target, role)


def _kicked(table: Table, seq: int, event: Event, data: dict[str, Any]) -> Event:
    gm, target = _gm(table, event), table.present(str(data["member"]))
    if target.id == gm.id:
        raise DataError("the GM cannot kick themselves")
    return kicked(gm, target)


def _invites(table: Table, seq: int, event: Event, data: dict[str, Any]) -> Event:
    return invites_rotated(_gm(table, event))


def _link(table: Table, seq: int, event: Event, data: dict[str, Any]) -> Event:
    return link_rotated(table.present(str(event.actor)))


def _chat(table: Table, seq: int, event: Event, data: dict[str, Any]) -> Event:
    said = str(data["text"])
    if not said.strip() or len(said) > MAX_TEXT:
        raise DataError(f"chat holds 1 to {MAX_TEXT} characters")
    audience = [table.present(str(member)) for member in data["to"]]
    return chat(table.present(str(event.actor)), said, audience)


def _undo(table: Table, seq: int, event: Event, data: dict[str, Any]) -> Event:
    gm, latest = _gm(table, event), table.last_in_force()
    if latest is None:
        raise DataError("there was nothing to undo")
    return undone(gm, latest[0], latest[1])


def _ended(table: Table, seq: int, event: Event, data: dict[str, Any]) -> Event:
    gm = _gm(table, event)
    if table.format >= 3:
        return session_closed(gm, table.dice_session)
    return session_ended(gm, table.dice_session, str(data["seed"]), table.commitment)


def _witness(table: Table, seq: int, event: Event, data: dict[str, Any]) -> Event:
    head = str(data["head"])
    if table.format < 3:
        raise DataError("witnesses commit chains in logs of format 3")
    if len(head) != 64 or head.strip("0123456789abcdef"):
        raise DataError("a witness's head is 32 bytes of lowercase hex")
    if table.witnesses.heads.get(str(event.actor)) == head:
        raise DataError("a witness names a chain that already witnesses for them")
    return witness(table.present(str(event.actor)), head)


def _imported(table: Table, seq: int, event: Event, data: dict[str, Any]) -> Event:
    return imported(_gm(table, event), str(data["origin"]), table.head_hash)


_REBUILD: dict[str, Callable[[Table, int, Event, dict[str, Any]], Event]] = {
    "created": _created,
    "dice-committed": _committed,
    "joined": _joined,
    "renamed": _renamed,
    "promoted": _promoted,
    "kicked": _kicked,
    "invites-rotated": _invites,
    "link-rotated": _link,
    "chat": _chat,
    "undo": _undo,
    "session-ended": _ended,
    "imported": _imported,
    "witness": _witness,
}
