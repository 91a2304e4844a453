"""What the front's endpoints take from each request (FastAPI dependencies): the token of the
link it carries, the server's front, and the address of the client it comes from.

Its own module so that the endpoints of the protocol (server.py) and of the pages
(pages.py) both build on it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Query, Request
from fastapi.responses import PlainTextResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from tabletop.rooms.errors import BadLink
from tabletop.rooms.front import Front
from tabletop.rooms.messages import Page
from tabletop.rooms.protocol import MAX_SEQ

NDJSON = "application/x-ndjson"

BEARER = HTTPBearer(auto_error=False, description="The token after the # of a room link.")


def bearer(credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(BEARER)]) -> str:
    """The token of the link a request carries."""
    if credentials is None or not credentials.credentials.strip():
        raise BadLink("send the link's token as 'Authorization: Bearer <token>'")
    return credentials.credentials.strip()


Token = Annotated[str, Depends(bearer)]


def front_of(request: Request) -> Front:
    """The front the app started (create_app's lifespan keeps it in `app.state`)."""
    front: Front = request.app.state.front
    return front


Here = Annotated[Front, Depends(front_of)]


def address_of(request: Request, here: Here) -> str:
    """Whom the request comes from: its peer, or the client a trusted proxy names."""
    peer = request.client.host if request.client else None
    return here.allowances.client(peer, request.headers.get("x-forwarded-for"))


Client = Annotated[str, Depends(address_of)]

Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(BEARER)]
"""The bearer a request may carry without needing one (the server's key, to open rooms)."""


@dataclass(frozen=True)
class SeqRange:
    """Which page of the log a request reads: after seq `after`, or before seq `before`."""

    after: int = 0
    before: int = 0


def seq_range(
    after: Annotated[int, Query(ge=0, le=MAX_SEQ, description="Entries after this seq.")] = 0,
    before: Annotated[
        int, Query(ge=0, le=MAX_SEQ, description="The last entries before this seq (0: none).")
    ] = 0,
) -> SeqRange:
    return SeqRange(after, before)


Seqs = Annotated[SeqRange, Depends(seq_range)]


def paged(request: Request, page: Page, seqs: SeqRange) -> PlainTextResponse:
    """A page of lines, with `Link` headers to the pages around it (RFC 8288)."""
    path = request.url.path
    links = []
    if page.more:
        links.append(f'<{path}?after={page.last}>; rel="next"')
    if seqs.before and page.first > 1:
        links.append(f'<{path}?before={page.first}>; rel="prev"')
    headers = {"link": ", ".join(links)} if links else {}
    return PlainTextResponse(page.text, media_type=NDJSON, headers=headers)
