"""`tabletop room …`: the terminal client of the room server (tabletop.rooms.client).

Every verb takes a link (or `--server` for a new room) and prints text for people or, with
`--json`, what the server answered. A bad or revoked link, an unknown room or a refused
intent is one line on stderr and exit 2; `verify` exits 1 when an export does not hold.
Names, chat and everything else a server sends are other people's text: every field is
printed as one line with its control characters written out (`\x0a`, `\u202e`), so that it
can neither drive the terminal nor fake a line of the log (`--json` prints the server's
JSON as it came).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tabletop.cli.options import Json, RuleOptions, read_rule_options
from tabletop.cli.output import as_text, console, errors, one_line, print_json
from tabletop.data import read_text_file
from tabletop.errors import DataError
from tabletop.rooms import AuditError, RoomError, verify
from tabletop.rooms.log import lines_of
from tabletop.rooms.nonces import (
    default_book,
    default_chain,
    default_heads,
    read_book,
    read_heads,
)
from tabletop.session import RollMode
from tabletop.systems.registry import system

if TYPE_CHECKING:
    from tabletop.rooms.client import RoomClient

app = typer.Typer(
    help="Play in a room on a tabletop server: tabletop room new --server URL --system dice",
    no_args_is_help=True,
)

LinkArg = Annotated[str, typer.Argument(help="Your link to the room (from `room new` or `join`).")]
Server = Annotated[str, typer.Option("--server", help="The server's address.", metavar="URL")]
Qr = Annotated[bool, typer.Option("--qr", help="Also show the link as a QR code.")]
KeyFile = Annotated[
    Path | None,
    typer.Option(
        "--key-file",
        metavar="PATH",
        help="The server's key, for a server that opens rooms for holders of its key only.",
    ),
]


def say_line(text: str) -> None:
    console.print(as_text(text), markup=False, highlight=False, soft_wrap=True)


def field(value: Any) -> str:
    """One field a server sent, as one line of text whatever it holds."""
    return one_line(str(value))


def show_entry(line: str, names: dict[str, str] | None = None) -> None:
    """One log line as a person reads it: its seq and its text, on one line, and whose
    devices witnessed it when it is a roll."""
    body = json.loads(line)
    event = body.get("event") or {}
    witnessed = witness_words(body.get("witnessed"), names or {})
    say_line(f"{field(body.get('seq')):>5}  {field(event.get('text', ''))}{witnessed}")


def witness_words(header: Any, names: dict[str, str]) -> str:
    """A roll's witnesses in words ("" for an entry that is no roll)."""
    if not isinstance(header, dict):
        return ""
    name = lambda member: names.get(member, member)  # noqa: E731
    revealed = [name(m) for m in header.get("witnesses", []) if m in header.get("reveals", {})]
    absent = [name(m) for m in header.get("absent", [])]
    said = f"witnessed by {', '.join(revealed)}" if revealed else "unwitnessed"
    if absent:
        said += f"; {', '.join(absent)} did not answer"
    skipped = [name(m) for m in header.get("skipped", {})]
    if skipped:
        said += f"; passed over values of {', '.join(skipped)} revealed for a dropped call"
    return f"  ({said})"


def show_ack(answer: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print_json(answer)
        return
    if answer.get("duplicate"):
        say_line("(already applied: this is what it did)")
    for entry in answer.get("entries", []):
        show_entry(json.dumps(entry))


def show_links(made: dict[str, str], as_json: bool) -> None:
    """A room's or a member's new links, one a line (or the server's JSON as it came)."""
    if as_json:
        print_json(made)
        return
    for role, value in made.items():
        say_line(f"{field(role):>9}: {field(value)}")


def show_qr(link: str) -> None:
    import segno  # only when a QR code is asked for

    segno.make(link, error="l").terminal(compact=True)


@app.command("new")
def new_command(
    server: Server,
    system_name: Annotated[str, typer.Option("--system", help="The room's system.")],
    name: Annotated[str, typer.Option("--name", help="The room's name.")] = "",
    gm: Annotated[str, typer.Option("--gm", help="Your name in the room.")] = "GM",
    option: RuleOptions = None,
    key_file: KeyFile = None,
    json_: Json = False,
    qr: Qr = False,
) -> None:
    """Open a room: your GM link, and the invites for players and observers."""
    from tabletop.rooms.client import create_room

    options = _options(system_name, option)
    made = create_room(server, system_name, name, options, gm, _server_key(key_file))
    show_links(made, json_)
    if qr:
        show_qr(made["player"])


@app.command("join")
def join_command(
    invite: Annotated[str, typer.Argument(help="An invite link from the GM.")],
    name: Annotated[str, typer.Option("--name", help="Your name in the room.")],
    json_: Json = False,
    qr: Qr = False,
) -> None:
    """Join a room through an invite: your own link (keep it; it is how you come back)."""
    with _client(invite) as client:
        link = client.join(name)
    if json_:
        print_json({"link": link})
    else:
        say_line(field(link))
    if qr:
        show_qr(link)


@app.command("roll")
def roll_command(
    link: LinkArg,
    notation: Annotated[str, typer.Argument(help="Any dice expression, e.g. 2d6+1.")],
    mode: Annotated[RollMode, typer.Option("--mode", help="Who sees the result.")] = (
        RollMode.PUBLIC
    ),
    label: Annotated[str, typer.Option("--label", help="What the roll is for.")] = "",
    json_: Json = False,
) -> None:
    """Roll dice on the server, publicly, for the GM, blind or for yourself."""
    with _client(link) as client:
        show_ack(client.roll(notation, str(mode), label), json_)


@app.command("say")
def say_command(
    link: LinkArg,
    text: Annotated[str, typer.Argument(help="What to say.")],
    to: Annotated[
        list[str] | None, typer.Option("--to", help="Whisper to this member (repeatable).")
    ] = None,
    json_: Json = False,
) -> None:
    """Chat to the room, or whisper to chosen members (the GM sees every whisper)."""
    with _client(link) as client:
        show_ack(client.say(text, to or []), json_)


@app.command("act")
def act_command(
    link: LinkArg,
    intent: Annotated[str, typer.Argument(help='An intent as JSON, e.g. \'{"kind": "roll", …}\'.')],
    json_: Json = False,
) -> None:
    """Ask for any intent of the room's system (`room legal` lists them)."""
    try:
        asked = json.loads(intent)
    except json.JSONDecodeError as problem:
        where = f"{problem.msg} at character {problem.pos + 1}"
        raise DataError(f"the intent is not JSON: {where}") from None
    if not isinstance(asked, dict):
        raise DataError('an intent is a JSON object with a "kind"')
    with _client(link) as client:
        show_ack(client.act(asked), json_)


@app.command("legal")
def legal_command(link: LinkArg, json_: Json = False) -> None:
    """What you may ask for now, with the choices open."""
    with _client(link) as client:
        offers = client.legal()
    if json_:
        print_json(offers)
        return
    for offer in offers["offers"]:
        say_line(f"{field(offer['kind'])}: {field(offer['text'])}")
        if offer.get("entry"):
            fixed = f" with {json.dumps(offer['preset'])}" if offer.get("preset") else ""
            say_line(f"    at the sheet's {field(offer['entry'])}{field(fixed)}")
        for intent in offer["intents"]:
            say_line(f"    {field(json.dumps(intent))}")
        for name, choice in offer["fields"].items():
            values = choice.get("values")
            shown = ", ".join(map(str, values)) if values else choice.get("help") or "any"
            say_line(f"    {field(name)}: {field(shown)}")


@app.command("view")
def view_command(link: LinkArg, json_: Json = False) -> None:
    """The room as you may see it: members, dice commitment and the system's state."""
    with _client(link) as client:
        seen = client.view()
    if json_:
        print_json(seen)
        return
    say_line(f"room {field(seen['room'])} ({field(seen['system'])}), {field(seen['head'])} entries")
    members = (f"{field(m['name'])} ({field(m['role'])})" for m in seen["members"])
    say_line("members: " + ", ".join(members))
    dice = seen["dice"]
    say_line(f"dice session {field(dice['session'])}, commitment {field(dice['commitment'])}")
    state = json.dumps(seen["state"], indent=2, ensure_ascii=False)
    for line in state.split("\n"):  # JSON writes a string's own newlines as \n
        say_line(field(line))


@app.command("log")
def log_command(
    link: LinkArg,
    follow: Annotated[bool, typer.Option("--follow", "-f", help="Keep printing new events.")] = (
        False
    ),
    after: Annotated[int, typer.Option("--after", min=0, help="Start after this seq.")] = 0,
    json_: Json = False,
) -> None:
    """Your view of the log; with --json one event a line, exactly as the server sent it."""
    from tabletop.rooms.client import is_entry

    with _client(link) as client:
        names = {m["id"]: m["name"] for m in client.view().get("members", [])}
        lines = client.follow(after) if follow else iter(client.log(after))
        for line in lines:
            frame = json.loads(line)
            if frame.get("type") == "alarm":  # this client's witness found a roll wrong
                errors.print(f"alarm: {field(frame.get('text'))}", markup=False, highlight=False)
                continue
            if not is_entry(frame):
                if frame.get("type") == "bye":
                    raise RoomError(str(frame.get("reason")))
                continue
            if json_:
                sys.stdout.write(line + "\n")
                sys.stdout.flush()
            elif frame.get("event") is not None:  # a witness's stub of a roll it may not see
                show_entry(line, names)


@app.command("kick")
def kick_command(
    link: LinkArg, name: Annotated[str, typer.Argument(help="Who to remove.")], json_: Json = False
) -> None:
    """Remove a member (the GM): their link and open connections stop at once."""
    with _client(link) as client:
        show_ack(client.kick(name), json_)


@app.command("rename")
def rename_command(
    link: LinkArg,
    name: Annotated[str, typer.Argument(help="The member's name now.")],
    new_name: Annotated[str, typer.Argument(help="Their new name.")],
    json_: Json = False,
) -> None:
    """Give a member another name (the GM)."""
    with _client(link) as client:
        show_ack(client.rename(name, new_name), json_)


@app.command("promote")
def promote_command(
    link: LinkArg,
    name: Annotated[str, typer.Argument(help="Whose role to change.")],
    role: Annotated[str, typer.Argument(help="gm, player or observer.")],
    json_: Json = False,
) -> None:
    """Give a member another role (the GM); a room always keeps a GM."""
    with _client(link) as client:
        show_ack(client.promote(name, role), json_)


@app.command("undo")
def undo_command(link: LinkArg, json_: Json = False) -> None:
    """Take back the latest action still in force (the GM); the log keeps both."""
    with _client(link) as client:
        show_ack(client.undo(), json_)


@app.command("rotate")
def rotate_command(
    link: LinkArg,
    invites: Annotated[
        bool, typer.Option("--invites", help="New invite links (the GM) instead of your own.")
    ] = False,
    json_: Json = False,
) -> None:
    """A new link for you (or new invites); the old one stops working at once."""
    with _client(link) as client:
        made: dict[str, str] = (
            client.rotate_invites() if invites else {"link": client.rotate_link()}
        )
    show_links(made, json_)


@app.command("end-session")
def end_session_command(link: LinkArg, json_: Json = False) -> None:
    """End the session (the GM): the dice seed is revealed, so anyone can verify the dice."""
    with _client(link) as client:
        show_ack(client.end_session(), json_)


@app.command("export")
def export_command(
    link: LinkArg,
    out: Annotated[Path | None, typer.Option("--out", help="Write here, not to stdout.")] = None,
    bundle: Annotated[
        bool,
        typer.Option(
            "--bundle",
            help="Your record as one file: the export, your nonce book and the heads your "
            "client kept, for `room verify` to check together.",
        ),
    ] = False,
) -> None:
    """The log as JSON lines: the GM's link gives all of it, a player's their view."""
    from tabletop.rooms.bundles import bundled

    with _client(link) as client:
        lines = client.export()
        room = client.link.room
        if bundle:
            me = str(client.view()["me"]["id"])
            book, heads = default_book(room), default_heads(room)
            sent = read_book(book, room) if book.exists() else {}
            kept = read_heads(heads, room) if heads.exists() else []
            text = bundled(room, me, lines, sent, kept) + "\n"
        else:
            text = "".join(f"{line}\n" for line in lines)
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_text(text, encoding="utf-8")


@app.command("import")
def import_command(
    server: Server,
    file: Annotated[Path, typer.Argument(help="A GM's export (`room export`).")],
    key_file: KeyFile = None,
    json_: Json = False,
) -> None:
    """Move a room to a server: a new room holding the export's log, which must be the GM's
    whole export and verify in full (its dice revealed: end the session first)."""
    from tabletop.rooms.client import import_log

    show_links(import_log(server, _read(file), _server_key(key_file)), json_)


@app.command("verify")
def verify_command(
    file: Annotated[
        Path, typer.Argument(help="An export, or a member's bundle (`room export --bundle`).")
    ],
    mine: Annotated[
        Path | None,
        typer.Option(
            "--mine",
            help="Your nonce book (kept under ~/.local/share/tabletop/nonces/ for each room): "
            "every entry you asked for must carry a nonce you sent.",
        ),
    ] = None,
    heads: Annotated[
        Path | None,
        typer.Option(
            "--heads",
            help="The heads your client kept (under ~/.local/share/tabletop/heads/): every "
            "entry you saw must be in the export as you saw it.",
        ),
    ] = None,
    json_: Json = False,
) -> None:
    """Check an export offline: every line's hash, the chain, every die against its
    secret and witnesses (or a format-2 room's revealed seed), and the rules (all of them
    for the GM's export, your rolls for yours). Exit 1 naming the first line that fails."""
    from tabletop.rooms.bundles import read_bundle

    lines = _read(file)
    member = None
    bundle = read_bundle("\n".join(lines))
    if bundle is not None:
        if mine is not None or heads is not None:
            raise DataError(f"{file} is a bundle: it carries its own nonces and heads")
        lines, member, sent, kept = bundle.export, bundle.member, bundle.nonces, bundle.heads
    else:
        room = _export_room(lines)
        sent = None if mine is None else read_book(mine, room)
        kept = None if heads is None else read_heads(heads, room)
    try:
        audit = verify(lines, mine=sent, member=member, heads=kept)
    except AuditError as failed:
        if json_:
            print_json({"ok": False, "line": failed.line, "error": failed.problem})
        errors.print(f"{file}: {field(failed)}", markup=False, highlight=False)
        raise SystemExit(1) from None
    if json_:
        print_json(
            {
                "ok": True,
                "entries": audit.entries,
                "full": audit.full,
                "dice": audit.dice,
                "sessions": audit.sessions,
                "head": audit.head,
                "rules": audit.ruled,
                "recomputed": audit.recomputed,
                "mine": audit.mine,
                "heads": audit.heads,
                "witnessed": audit.witnessed,
                "unwitnessed": audit.unwitnessed,
            }
        )
    else:
        say_line(audit.summary())


def _export_room(lines: list[str]) -> str | None:
    """The room an export's trailer names, if it has a readable one."""
    try:
        trailer = json.loads(lines[-1])["export"]
        return str(trailer["room"])
    except (IndexError, ValueError, KeyError, TypeError):
        return None


def _server_key(path: Path | None) -> str | None:
    """The server key kept in `path` (one word), if a key file is given."""
    if path is None:
        return None
    key = " ".join(_read(path)).strip()
    if not key or " " in key:
        raise DataError(f"{path} does not hold a server key (one word)")
    return key


def _read(file: Path) -> list[str]:
    """The lines of a log or key file, of any size (an export has no bound); never a pipe."""
    return lines_of(read_text_file(file, limit=None))


def _options(name: str, pairs: list[str] | None) -> dict[str, Any]:
    """`--option KEY=VALUE` checked against the system's options here, when it has any."""
    if not pairs:
        return {}
    model = system(name).options
    if model is None:
        raise DataError(f"{name} takes no --option")
    chosen = read_rule_options(model, pairs).model_dump(mode="json")
    return {
        pair.partition("=")[0].strip(): chosen[pair.partition("=")[0].strip()] for pair in pairs
    }


def _client(link: str) -> RoomClient:
    """A client for one link, writing down the nonces it sends (`verify --mine`); httpx
    and websockets load only when a room verb runs, so the rest of the command line starts
    without them."""
    from tabletop.rooms.client import RoomClient
    from tabletop.rooms.tokens import Link

    parsed = Link.parse(link)
    witness = (default_chain(parsed.room), default_heads(parsed.room))
    return RoomClient(parsed, nonces=default_book(parsed.room), witness=witness)
