"""Options every verb shares, declared once: `--seed` for reproducible dice, `--json`."""

from __future__ import annotations

from typing import Annotated

import typer

Seed = Annotated[
    int | None,
    typer.Option("--seed", min=0, help="Roll a reproducible stream of dice from this seed."),
]
Json = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
