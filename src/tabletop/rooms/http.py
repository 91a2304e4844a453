"""What the front's endpoints take from each request (FastAPI dependencies): the token of the
link it carries, the server's front, and the address of the client it comes from.

Its own module so that the endpoints of the protocol (server.py) and of the pages
(pages.py) both build on it without importing each other.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from tabletop.rooms.errors import BadLink
from tabletop.rooms.front import Front

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
