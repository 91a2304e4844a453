"""What a room refuses, one class per answer a client can act on.

Every class is a `TabletopError`, so the command line prints one line and exits 2; the
server maps each to one HTTP status (`status`) and an error message on the socket.
"""

from __future__ import annotations

from tabletop.errors import PermissionDenied, TabletopError


class RoomError(TabletopError):
    """A request a room cannot carry out; nothing was changed."""

    status = 400


class UnknownRoom(RoomError):
    """No room has that id on this server."""

    status = 404


class UnknownSystemName(RoomError):
    """A system name in a URL that tabletop does not know."""

    status = 404


class BadLink(RoomError):
    """A link whose token this room does not know: mistyped, rotated, or for another room."""

    status = 401


class Kicked(RoomError):
    """A link of a member the GM removed from the room."""

    status = 403


class NotAllowed(RoomError):
    """Something only another role may do (the GM's tools, acting at all as an observer)."""

    status = 403


class TooMuch(RoomError):
    """A message, a rate or a count past one of the room's documented bounds; for a rate,
    `retry_after` says in how many seconds the allowance holds the request again."""

    status = 429

    def __init__(self, problem: str, retry_after: float | None = None) -> None:
        super().__init__(problem)
        self.retry_after = retry_after


class SlowBody(RoomError):
    """A request's body that did not arrive whole in time (`server.BODY_WAIT`)."""

    status = 408


class SystemUnavailable(RoomError):
    """A system whose session cannot be loaded in this installation."""

    status = 400


class RefusedOnRecord(RoomError):
    """The rules refused an intent after its dice were drawn: the refusal is on the record
    at `seq` (those dice are spent), and this is the answer to the request and its retries."""

    def __init__(self, problem: str, seq: int) -> None:
        self.problem = problem
        self.seq = seq
        super().__init__(f"{problem} (its dice are spent: the refusal is entry {seq})")


class AuditError(RoomError):
    """An export that does not verify, naming its first failing line (1-based)."""

    def __init__(self, line: int, problem: str) -> None:
        problem = " ".join(problem.split())  # one line, whatever a crafted log put in it
        self.line = line
        self.problem = problem if len(problem) <= 300 else problem[:297] + "…"
        super().__init__(f"line {line}: {self.problem}")


class OverBudget(RoomError):
    """An intent whose work, counted before any is done, passes the room's bound (dice in
    one roll, explosions and re-rolls counted); nothing was drawn or appended."""

    status = 400


class Relayed(RoomError):
    """A refusal a worker process made, carried to the server's front with its status (and,
    for a refusal on the record, the refusal's seq)."""

    def __init__(
        self,
        problem: str,
        status: int,
        seq: int | None = None,
        line: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(problem)
        self.status = status
        self.seq = seq
        self.line = line
        """For an export that does not verify: its first failing line."""
        self.retry_after = retry_after
        """For a 503: seconds after which the request is worth sending again."""


class Elsewhere(RoomError):
    """Another live server process serves this room now (it holds the room's lease): send
    the request again after `retry_after` seconds, or to another process (a proxy does)."""

    status = 503

    def __init__(self, problem: str, retry_after: float = 1.0) -> None:
        super().__init__(problem)
        self.retry_after = retry_after


class Unkept(RoomError):
    """The database refused a write of a shard's round (it or the connection is failing):
    nothing of the round was kept; send the request again."""

    status = 503
    retry_after = 1.0


class Fenced(RoomError):
    """This process lost the room's lease while it was appending (it paused, and another
    process took the room over): nothing was appended; send the request again and it
    reaches the room's new owner."""

    status = 503
    retry_after = 1.0


def status_of(error: TabletopError) -> int:
    """The HTTP status a refusal answers with."""
    if isinstance(error, RoomError):
        return error.status
    if isinstance(error, PermissionDenied):
        return 403
    return 400
