"""The base of every model the tables exchange and keep: immutable, strict about unknown
fields (its own module so the offers and the session both build on it)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Frozen(BaseModel):
    """The base of every protocol model: immutable, and strict about unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")
