"""Checking an export offline: every line's hash from what it shows, the chain, every die
against the revealed seed at its position, each position used once, and every event
recomputed through the system's rules — all of them for the GM's full export, a member's
own rolls for theirs.

An export is JSON lines: one entry a line in order, then a trailer
`{"export": {"room", "system", "view", "count", "head"}}`. A line opens the parts of its
entry its reader may see and holds the hash of the others (log.py), so each line is
checked as far as its reader may see it. `verify` names the first line that fails and
never raises anything but `AuditError`; nothing here needs the server.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from tabletop.dice.source import DiceSource
from tabletop.errors import DataError, TabletopError
from tabletop.rooms.errors import AuditError, SystemUnavailable
from tabletop.rooms.fairdice import (
    FairDice,
    SplitDice,
    seeded_position,
    table_nonce,
    witnessed_position,
)
from tabletop.rooms.ledger import groups
from tabletop.rooms.log import (
    GENESIS,
    OUTSIDER,
    PARTS,
    Asked,
    Entry,
    Witnessed,
    asked_part,
    digest,
    header_hash,
    public_of,
    told_part,
    why_part,
)
from tabletop.rooms.readings import session_at
from tabletop.rooms.table import Table
from tabletop.rooms.witness import Chains, keys_of, open_key, published, rebuilt_call
from tabletop.session import TABLE, Cause, Event, Session
from tabletop.words import counted

Kept = str | Mapping[str, Any]
"""What a nonce book keeps of one request: its nonce, or `{"nonce", "intent"}` (format 3:
the digest of the intent sent under that id too)."""

MAX_LINE = 4 * 1024 * 1024
"""Characters in one line of an export: far past any entry a room's bounds let through."""


@dataclass
class Audit:
    """What a verified export holds."""

    entries: int = 0
    full: int = 0
    """Entries whose every part the export opens."""
    dice: int = 0
    sessions: int = 0
    """Dice sessions whose seed was revealed and matched its commitment."""
    head: str = GENESIS
    view: str = ""
    """Whose view the export is: "full" (the GM's) or a member's id."""
    ruled: bool = False
    """Whether every event was recomputed through the system's rules."""
    recomputed: int = 0
    """Resolutions re-resolved with their recorded dice and found identical."""
    mine: int = 0
    """Entries this member caused whose nonce was found among those they sent."""
    format: int = 0
    witnessed: int = 0
    """Rolls (format 3) with at least one witness's reveal."""
    unwitnessed: int = 0
    """Rolls (format 3) that drew dice with no witness's reveal."""
    heads: int = 0
    """Kept heads of a member's client found in the export."""
    _chains: Chains = field(default_factory=Chains)
    _pending: dict[int, list[tuple[int, Entry]]] = field(default_factory=dict)
    _commitments: dict[int, str] = field(default_factory=dict)
    _session: int = 0
    _positions: dict[tuple[str, str], int] = field(default_factory=dict)

    def summary(self) -> str:
        rules = ", every event follows from the rules" if self.ruled else ""
        recomputed = f", {self.recomputed} recomputed" if self.recomputed else ""
        mine = f", {self.mine} of yours carry your nonces" if self.mine else ""
        heads = f", {self.heads} kept heads match" if self.heads else ""
        if self.format >= 3:
            dice = (
                f"{self.dice} dice match their secrets, "
                f"{counted(self.witnessed, 'roll')} witnessed, "
                f"{self.unwitnessed} unwitnessed"
            )
        else:
            dice = f"{self.dice} dice match {counted(self.sessions, 'revealed seed')}"
        return (
            f"ok: {self.entries} entries, chain intact to {self.head[:16]}…, "
            f"{self.full} checked in full, {dice}{recomputed}{rules}{mine}{heads}"
        )


@dataclass
class _Line:
    number: int
    body: dict[str, Any]
    entry: Entry | None
    """The whole entry, when the line opens every part."""
    event: Event | None
    """What the line shows of the event."""
    asked_seal: str = ""
    """The hash of the entry's asked part (opened or sealed)."""


def verify(
    lines: Iterable[str],
    mine: Mapping[str, Kept] | None = None,
    member: str | None = None,
    heads: Sequence[Mapping[str, Any]] | None = None,
) -> Audit:
    """The audit of an export's lines, or `AuditError` naming the first line that fails.
    With `mine` (a member's sent request ids → what their nonce book kept) every entry that
    member caused must carry a nonce they sent, with the intent they sent; the member is
    the export's (`member` for the GM's full export, which names no member). With `heads`
    (what their client kept during play) every entry they saw must be as they saw it."""
    rows = [line for line in lines if line.strip()]
    if not rows:
        raise AuditError(1, "the export is empty")
    audit = Audit()
    read: list[_Line] = []
    for number, line in enumerate(rows[:-1], start=1):
        with _at(number, "not an entry of a room's log"):
            checked = _line(audit, number, _json(number, line))
            read.append(checked)
            _witnesses(audit, number, checked)
            if checked.entry is not None:
                _dice(audit, number, checked.entry)
    with _at(len(rows), "not the trailer of an export"):
        _trailer(audit, len(rows), _json(len(rows), rows[-1]))
    if audit._pending:
        session, waiting = min(audit._pending.items())
        raise AuditError(
            waiting[0][0],
            f"its dice cannot be checked: the seed of session {session} is not revealed "
            "(the GM reveals it with end-session)",
        )
    if audit.view == "full":
        _rules(audit, read)
    else:
        _own_rolls(audit, read)
    if mine is not None:
        _mine(audit, read, mine, member or audit.view)
    if heads is not None:
        _heads(audit, read, heads, member or audit.view)
    return audit


def chained(lines: Sequence[str], upto: int) -> dict[str, Any]:
    """Line `upto` as it shows its entry, once it and every line before it are checked: each
    hash from what its line shows and its place in the chain; `AuditError` otherwise."""
    audit, body = Audit(), {}
    for number, line in enumerate(lines[:upto], start=1):
        with _at(number, "not an entry of a room's log"):
            body = _json(number, line)
            _line(audit, number, body)
    if audit.entries < upto:
        raise AuditError(upto, "the export has no such line")
    return body


@contextlib.contextmanager
def _at(number: int, what: str) -> Iterator[None]:
    """Whatever checking line `number` raises becomes the one-line answer naming that line:
    a crafted export must never escape as a traceback (or a server's 500)."""
    try:
        yield
    except AuditError:
        raise
    except RecursionError:
        raise AuditError(number, "nested past what a log holds") from None
    except TabletopError as problem:
        raise AuditError(number, f"{what}: {problem}") from None
    except (LookupError, TypeError, ValueError, AttributeError, OverflowError) as problem:
        raise AuditError(number, f"{what} ({type(problem).__name__}: {problem})") from None


# one line -------------------------------------------------------------------------------


def _json(number: int, line: str) -> dict[str, Any]:
    if len(line) > MAX_LINE:
        raise AuditError(number, f"a line holds at most {MAX_LINE:,} characters")
    try:
        body = json.loads(line)
    except (ValueError, RecursionError):
        raise AuditError(number, "not a line of JSON (or numbers or nesting past bounds)") from None
    if not isinstance(body, dict):
        raise AuditError(number, "not an entry (a JSON object)")
    return body


def _line(audit: Audit, number: int, body: dict[str, Any]) -> _Line:
    """Check the line's place in the chain and its hash from what it shows."""
    if "export" in body:
        raise AuditError(number, "a trailer before the end of the export")
    if body.get("seq") != audit.entries + 1 or isinstance(body.get("seq"), bool):
        raise AuditError(number, f"expected entry {audit.entries + 1} here, not {body.get('seq')}")
    if body.get("prev") != audit.head:
        raise AuditError(number, "does not follow the line before (its prev hash differs)")
    time = body.get("time")
    if not isinstance(time, int) or isinstance(time, bool) or not 0 <= time < 2**53:
        raise AuditError(number, "has no time")
    try:
        event = None if body.get("event") is None else Event.model_validate(body["event"])
    except ValidationError:
        raise AuditError(number, "its event is not an event of a room's log") from None
    seals, opened = _seals(number, body, event)
    public = body.get("public")
    _shows_public(number, public, opened, event)
    witnessed = body.get("witnessed")
    if witnessed is not None and not isinstance(witnessed, dict):
        raise AuditError(number, "its witnesses are not what a log holds")
    hashed = header_hash(body["seq"], time, body["prev"], public, seals, witnessed)
    if body.get("hash") != hashed:
        raise AuditError(number, "what it shows does not match its hash (edited?)")
    if body["seq"] == 1 and event is not None:
        audit.format = event.data.get("format") if isinstance(event.data, dict) else 0
    audit.entries += 1
    audit.head = body["hash"]
    if len(opened) < len(PARTS) or event is None:
        return _Line(number, body, None, event, seals["asked"])
    audit.full += 1
    entry = Entry(
        body["seq"],
        time,
        event,
        body.get("client"),
        body.get("nonce"),
        body["prev"],
        body["hash"],
        "",
        public,
        body["salt"],
        _asked(body),
        body.get("secret"),
        witnessed,
    )
    return _Line(number, body, entry, event, seals["asked"])


def asked_seal(body: dict[str, Any]) -> str:
    """The hash of a line's asked part: from its content where the line opens it."""
    salt = (body.get("salt") or {}).get("asked")
    if isinstance(salt, str):
        return digest(part_of("asked", body, None, salt))
    return str((body.get("sealed") or {}).get("asked"))


def _asked(body: dict[str, Any]) -> Asked | None:
    """A format-3 line's asked part beyond the id and nonce, when it opens it."""
    if "member" not in body:
        return None
    return Asked(str(body["member"]), body.get("intent"))  # type: ignore[arg-type]


def _seals(
    number: int, body: dict[str, Any], event: Event | None
) -> tuple[dict[str, str], set[str]]:
    """Each part's hash, from its content where the line opens it; and which it opens."""
    salt, sealed = body.get("salt") or {}, body.get("sealed") or {}
    if not isinstance(salt, dict) or not isinstance(sealed, dict):
        raise AuditError(number, "its salt and sealed parts are not objects")
    shown = None if event is None else event.model_dump(mode="json")
    seals: dict[str, str] = {}
    for part in PARTS:
        if part in salt:
            if not isinstance(salt[part], str) or part in sealed:
                raise AuditError(number, f"its {part} part is both open and sealed")
            if part != "asked" and shown is None:
                raise AuditError(number, f"opens its {part} part without an event")
            seals[part] = digest(part_of(part, body, shown, salt[part]))
        elif isinstance(sealed.get(part), str):
            seals[part] = sealed[part]
        else:
            raise AuditError(number, f"holds neither its {part} part nor that part's hash")
    if "why" in salt and "told" not in salt:
        raise AuditError(number, "opens the cause of an event it does not show")
    if shown is not None and shown.get("cause") is not None and "why" not in salt:
        raise AuditError(number, "shows a cause it does not open")
    return seals, set(salt)


def part_of(part: str, body: dict[str, Any], shown: dict[str, Any] | None, salt: str) -> Any:
    if part == "told":
        return told_part(shown or {}, salt)
    if part == "why":
        return why_part((shown or {}).get("cause"), salt, body.get("secret"))
    return asked_part(body.get("client"), body.get("nonce"), salt, _asked(body))


def _shows_public(number: int, public: Any, opened: set[str], event: Event | None) -> None:
    """A line shows at least what everyone sees, and shows exactly that when it opens less."""
    if public == "all" and not {"told", "why"} <= opened:
        raise AuditError(number, "everyone sees this entry, yet the line seals part of it")
    if public == "event" and "told" not in opened:
        raise AuditError(number, "everyone sees this event, yet the line seals it")
    if public not in ("all", "event", None) and not isinstance(public, dict):
        raise AuditError(number, "its public part is not what a log holds")
    if "told" not in opened:
        shown = None if event is None else event.model_dump(mode="json")
        if shown != public:
            raise AuditError(number, "shows something other than what everyone sees of it")


# dice -----------------------------------------------------------------------------------


def _dice(audit: Audit, number: int, entry: Entry) -> None:
    """Track seeds and hold each resolution's dice until its session's seed is revealed;
    every position (who asked, their nonce) names one resolution."""
    event, data = entry.event, entry.event.data
    if audit.format >= 3:
        _witnessed_dice(audit, number, entry)
    elif event.type == "room.dice-committed":
        audit._session = _number(number, data.get("session"))
        audit._commitments[audit._session] = str(data.get("commitment"))
    elif event.type == "room.session-ended":
        _revealed(audit, number, data)
    elif event.cause is not None:
        if not isinstance(entry.nonce, str):
            raise AuditError(number, "a resolution without the nonce its dice were drawn at")
        _position(audit, number, event.cause.member.id, entry.nonce)
        if event.cause.draws:
            audit._pending.setdefault(audit._session, []).append((number, entry))


def _witnesses(audit: Audit, number: int, line: _Line) -> None:
    """Format 3, every line (a stub's header holds its witnesses too): each chain committed,
    and each roll's reveals the next values of their witnesses' chains."""
    if audit.format < 3:
        if "witnessed" in line.body:
            raise AuditError(number, "a log of format 2 holds no witnesses")
        return
    event = line.event
    if event is not None and event.type == "room.witness":
        audit._chains.named(str(event.data.get("member")), str(event.data.get("head")))
    header = line.body.get("witnessed")
    if header is None:
        return
    try:
        audit._chains.advance(header)
        if "open" in header and line.entry is None:
            _open_dice(audit, number, line, header)
    except DataError as problem:
        raise AuditError(number, str(problem)) from None
    if header["reveals"]:
        audit.witnessed += 1
    else:
        audit.unwitnessed += 1


def _open_dice(audit: Audit, number: int, line: _Line, header: dict[str, Any]) -> None:
    """A line that shows the players their own dice beside dice kept from them: each die it
    shows apart is what the open key, shown in the header, gives at the roll's call."""
    shown = line.event.data.get("draws") if line.event is not None else None
    if not isinstance(shown, list):
        return
    dice = FairDice(open_key(header), witnessed_position(line.body["seq"], header["reveals"]))
    for count, draw in enumerate(shown, start=1):
        face = dice.roll(int(draw["sides"]))
        if face != draw["face"]:
            raise AuditError(
                number,
                f"your die {count} (a d{draw['sides']}) shows {draw['face']}; "
                f"the open key gives {face}",
            )
    audit.dice += len(shown)


def _witnessed_dice(audit: Audit, number: int, entry: Entry) -> None:
    """Format 3: a resolution's dice are its secret's stream at its call and reveals."""
    cause = entry.event.cause
    if cause is None:
        return
    if not isinstance(entry.nonce, str) or entry.asked is None:
        raise AuditError(number, "a resolution without its nonce and the intent as sent")
    if entry.asked.member != cause.member.id:
        raise AuditError(number, "its asked part names another member than its cause")
    _position(audit, number, cause.member.id, entry.nonce)
    header = entry.witnessed
    if header is None:
        if cause.draws:
            raise AuditError(number, "it drew dice without a call (no witnesses, no secret)")
        return
    with _at(number, "its dice cannot be checked"):
        kept, opened, open_at = keys_of(entry.secret, header)
        shown = {k: v for k, v in header.items() if k != "open"}
        opened_as = Witnessed(dict(entry.secret), shown, "")
        expected = published(opened_as, entry.public, entry.seq).header
        if expected.get("open") != header.get("open"):
            raise AuditError(number, "its header shows its open key over dice kept from someone")
    where = witnessed_position(entry.seq, header["reveals"])
    dice = SplitDice(FairDice(kept, where), FairDice(opened, where), replay=open_at)
    _check_draws(audit, number, entry, dice, "its keys and witnesses give")
    if dice.open_at != open_at:
        raise AuditError(number, "it says dice were drawn from its open key that it never drew")


def _position(audit: Audit, number: int, member: str, nonce: str) -> None:
    """Each position (who asked, their nonce) names one resolution."""
    if (member, nonce) in audit._positions:
        raise AuditError(
            number,
            f"its dice position was already drawn at line {audit._positions[member, nonce]}",
        )
    audit._positions[member, nonce] = number


def _revealed(audit: Audit, number: int, data: dict[str, Any]) -> None:
    session = _number(number, data.get("session"))
    try:
        seed = bytes.fromhex(str(data.get("seed")))
    except ValueError:
        raise AuditError(number, "the revealed seed is not hexadecimal") from None
    if hashlib.sha256(seed).hexdigest() != audit._commitments.get(session):
        raise AuditError(number, f"the revealed seed is not the one session {session} committed to")
    for line, rolled in audit._pending.pop(session, []):
        cause = rolled.event.cause
        assert cause is not None
        dice = FairDice(seed, seeded_position(cause.member.id, rolled.nonce or ""))
        _check_draws(audit, line, rolled, dice, "the seed gives")
    audit.sessions += 1


def _number(number: int, value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise AuditError(number, "a dice session is numbered")
    return value


def _check_draws(audit: Audit, number: int, entry: Entry, dice: DiceSource, source: str) -> None:
    """Every die of the entry's cause is what `dice` gives, in order."""
    assert entry.event.cause is not None
    for count, draw in enumerate(entry.event.cause.draws, start=1):
        with _at(number, f"die {count} is not a die"):
            face = dice.roll(draw.sides)
        if face != draw.face:
            raise AuditError(
                number, f"die {count} (a d{draw.sides}) shows {draw.face}; {source} {face}"
            )
    audit.dice += len(entry.event.cause.draws)


def _trailer(audit: Audit, number: int, body: dict[str, Any]) -> None:
    trailer = body.get("export")
    if not isinstance(trailer, dict):
        raise AuditError(number, "the export ends without its trailer (cut short?)")
    audit.view = str(trailer.get("view", ""))[:64]
    if trailer.get("count") != audit.entries or trailer.get("head") != audit.head:
        raise AuditError(number, "the trailer names another end of the log (lines removed?)")


# the rules ------------------------------------------------------------------------------


def _rules(audit: Audit, read: list[_Line]) -> None:
    """A full export: every line open, and the whole log folded through the rules again,
    each resolution re-resolved with its dice and compared with what the entry shows."""
    for line in read:
        if line.entry is None:
            raise AuditError(line.number, "a full export opens every part of every line")
    entries = [line.entry for line in read if line.entry is not None]
    numbers = {entry.seq: line.number for line, entry in zip(read, entries, strict=True)}
    try:
        with _at(1, "does not open a room"):
            table = Table.start(entries[0].event)
    except AuditError as failed:
        if isinstance(failed.__context__, SystemUnavailable):
            return  # this installation cannot play the system: the chain and dice still hold
        raise
    table.head, table.head_hash = entries[0].seq, entries[0].hash
    for entry in entries:
        with _at(numbers[entry.seq], "its public part cannot be told"):
            _public(numbers[entry.seq], table.session, entry)
    for group in groups(entries[1:]):
        number = numbers[group[0].seq]
        try:
            if not group[0].is_room_event:
                _recomputed(audit, number, table, group)
            table.apply(group)
        except AuditError:
            raise
        except (TabletopError, KeyError, ValueError, TypeError) as problem:
            raise AuditError(number, f"does not follow from the rules: {problem}") from None
        except RecursionError:
            raise AuditError(number, "nested past what the rules read") from None
    if not table.gms():
        raise AuditError(len(read), "the log leaves the room without a GM")
    audit.ruled = True


def _public(number: int, session: Session[Any], entry: Entry) -> None:
    """What the header says everyone sees is what the rules show a member of no standing."""
    if public_of(entry.event, session.view_event(entry.event, OUTSIDER)) != entry.public:
        raise AuditError(number, "its public part is not what the rules show everyone")


def _recomputed(audit: Audit, number: int, table: Table, group: list[Entry]) -> None:
    """Re-resolve a resolution's asked intent with its recorded dice; every event must be
    exactly what the entry holds."""
    first = group[0]
    cause = first.event.cause
    if cause is None:
        raise AuditError(number, "a resolution's first event carries its cause")
    if cause.member == TABLE and table.format < 3:
        expected = table_nonce(first.seq, table.latest_nonce)
        if first.nonce != expected:
            raise AuditError(number, "the table's move was not made at its own dice position")
    if table.format >= 3:
        _sent_intent(number, table.session, first, cause)
    again = table.session.resolve_again(table.state, cause)
    recorded = [entry.event for entry in group]
    for offset, (made, kept) in enumerate(zip(again, recorded, strict=False)):
        if made != kept:
            raise AuditError(
                number + offset, f"is not what its cause gives: {_differs(made, kept)}"
            )
    if len(again) != len(recorded):
        raise AuditError(
            number, f"its cause gives {counted(len(again), 'event')}, the log holds {len(recorded)}"
        )
    audit.recomputed += 1


def _sent_intent(number: int, session: Session[Any], entry: Entry, cause: Cause) -> None:
    """Format 3: the intent the asked part holds, as the client sent it, is the one the
    cause resolved (as asked, when a decision settled it into another)."""
    if entry.asked is None:
        raise AuditError(number, "a resolution without the intent as sent")
    parsed = session.parse_intent(entry.asked.intent).model_dump(mode="json")
    if parsed != (cause.asked if cause.asked is not None else cause.intent):
        raise AuditError(number, "its cause resolved another intent than the one sent")


def _differs(made: Event, kept: Event) -> str:
    for name in Event.model_fields:
        if getattr(made, name) != getattr(kept, name):
            return f"field {name!r} differs"
    return "it differs"


def _own_rolls(audit: Audit, read: list[_Line]) -> None:
    """A member's export: the rolls whose every input they saw (a roll needs no state) are
    rolled again with their dice and compared."""
    created = read[0].entry if read else None
    if created is None:
        return
    try:
        data = created.event.data
        session = session_at(str(data.get("system")), int(data.get("rules", 0)))
        state = session.new(dict(created.event.data.get("options") or {}))
    except (TabletopError, TypeError, ValueError):
        return  # not a system this installation plays: the chain and dice still hold
    for line in read:
        if line.entry is None:
            continue
        with _at(line.number, "does not follow from the rules"):
            _own_roll(audit, line.number, session, state, line.entry)


def _own_roll(audit: Audit, number: int, session: Session[Any], state: Any, entry: Entry) -> None:
    _public(number, session, entry)
    cause = entry.event.cause
    if cause is None or cause.intent.get("kind") != "roll":
        return
    if entry.asked is not None:
        _sent_intent(number, session, entry, cause)
    again = session.resolve_again(state, cause)
    if again != [entry.event]:
        shown = _differs(again[0], entry.event) if again else "it gives nothing"
        raise AuditError(number, f"is not what its roll gives: {shown}")
    audit.recomputed += 1


def _mine(audit: Audit, read: list[_Line], sent: Mapping[str, Kept], member: str) -> None:
    """Every entry `member` asked for carries a nonce they sent, with its id, and (format 3)
    the intent they sent under that id."""
    for line in read:
        event = line.event
        if event is None or event.type.startswith("room."):
            continue
        asker = event.cause.member.id if event.cause is not None else event.actor
        if asker != member:
            continue
        nonce = line.body.get("nonce")
        if event.cause is not None and not nonce:
            raise AuditError(line.number, "a resolution you asked for does not show its nonce")
        if nonce is None:
            continue  # an event that followed from one of yours
        kept = sent.get(str(line.body.get("client")))
        nonce_kept = kept.get("nonce") if isinstance(kept, Mapping) else kept
        if nonce_kept != nonce:
            raise AuditError(line.number, "an entry you caused carries a nonce you did not send")
        intent = kept.get("intent") if isinstance(kept, Mapping) else None
        if intent is not None and "intent" in line.body and digest(line.body["intent"]) != intent:
            raise AuditError(
                line.number, "an entry you caused carries another intent than you sent with it"
            )
        audit.mine += 1


def _heads(
    audit: Audit, read: list[_Line], heads: Sequence[Mapping[str, Any]], member: str
) -> None:
    """What a member's client kept during play: the hash of every entry it received and
    the value it revealed for every call it witnessed. The export must hold them all."""
    by_seq = {int(line.body["seq"]): line for line in read}
    named = {call for line in read for call in _skipped(line.body, member)}
    for kept in heads:
        seq = kept.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
            raise AuditError(len(read) + 1, "a kept head names no entry")
        line = by_seq.get(seq)
        if line is None:
            raise AuditError(
                len(read) + 1,
                f"you saw entry {seq}; this export ends at entry {len(read)} (cut short)",
            )
        if "hash" in kept and kept["hash"] != line.body["hash"]:
            raise AuditError(
                line.number,
                f"you saw entry {seq} as {str(kept['hash'])[:12]}…; this export has "
                f"{line.body['hash'][:12]}… (rewritten or forked)",
            )
        if "call" in kept and kept["call"] not in named:
            _kept_reveal(line, kept, member)
        audit.heads += 1


def _skipped(body: dict[str, Any], member: str) -> list[str]:
    """The calls a line's roll names as those of `member`'s values it passed over."""
    header = body.get("witnessed")
    skipped = header.get("skipped") if isinstance(header, dict) else None
    calls = skipped.get(member) if isinstance(skipped, dict) else None
    return [str(call) for call in calls] if isinstance(calls, list) else []


def _kept_reveal(line: _Line, kept: Mapping[str, Any], member: str) -> None:
    """The entry at a call's seq was resolved for that call, with the value revealed (or
    a later roll names the call as one whose value it passed over)."""
    header = line.body.get("witnessed")
    if not isinstance(header, dict):
        raise AuditError(line.number, "you witnessed a roll here; this entry is no roll")
    call = rebuilt_call(line.body["seq"], line.body["prev"], line.asked_seal, header)
    if call != kept["call"]:
        raise AuditError(line.number, "you witnessed another call here (the roll was replaced)")
    if header.get("reveals", {}).get(member) != kept.get("value"):
        raise AuditError(line.number, "the roll you witnessed here does not hold your value")
