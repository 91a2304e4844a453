"""Every system by name, declared once: its session, command line, showcase and options.

The command line, the showcase and the room server iterate over `SYSTEMS`. Entries name
their parts as `module:attribute` and load them on first use, so that a system's CLI can
live in `tabletop.cli` (systems never import the CLI) and a process loads only the systems
it runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from importlib import import_module
from typing import TYPE_CHECKING, Any

from tabletop.errors import TabletopError

if TYPE_CHECKING:  # loaded with a system's session, so `tabletop roll` never loads it
    from tabletop.session import Session


class UnknownSystem(TabletopError):
    """A system name tabletop does not know."""


def load(path: str) -> Any:
    """The object `module:attribute` names."""
    module, _, attribute = path.partition(":")
    return getattr(import_module(module), attribute)


@dataclass(frozen=True)
class System:
    """One system as tabletop knows it."""

    name: str
    """As typed on the command line and in a room: `dead-weight`."""
    title: str
    session_path: str
    cli_path: str | None = None
    """Its Typer app; None for a system that only plays at a shared table."""
    showcase_path: str | None = None
    """A function that prints its part of `tabletop showcase`, given the showcase's seed."""
    options_path: str | None = None
    """The pydantic model of its readings of unclear rules (`--option key=value`)."""

    @cached_property
    def session(self) -> Session[Any]:
        return load(self.session_path)

    @cached_property
    def options(self) -> type | None:
        return load(self.options_path) if self.options_path else None


SYSTEMS: tuple[System, ...] = (
    System(
        name="dice",
        title="Plain dice",
        session_path="tabletop.systems.plain_dice.session:SESSION",
    ),
    System(
        name="dead-weight",
        title="Dead Weight",
        session_path="tabletop.systems.dead_weight.session:SESSION",
        cli_path="tabletop.cli.dead_weight:app",
        showcase_path="tabletop.cli.dead_weight:showcase",
        options_path="tabletop.systems.dead_weight.options:Options",
    ),
    System(
        name="constitution",
        title="3d6 Constitution",
        session_path="tabletop.systems.constitution.session:SESSION",
        cli_path="tabletop.cli.constitution:app",
        showcase_path="tabletop.cli.constitution:showcase",
        options_path="tabletop.systems.constitution.options:Options",
    ),
    System(
        name="ap2d6",
        title="The 2d6 action-point rules",
        session_path="tabletop.systems.ap2d6.session:SESSION",
        cli_path="tabletop.cli.ap2d6:app",
        showcase_path="tabletop.cli.ap2d6:showcase",
        options_path="tabletop.systems.ap2d6.options:Options",
    ),
    System(
        name="rollunder",
        title="The d20 roll-under Core Rules",
        session_path="tabletop.systems.rollunder.session:SESSION",
        cli_path="tabletop.cli.rollunder:app",
        showcase_path="tabletop.cli.rollunder:showcase",
        options_path="tabletop.systems.rollunder.options:RollUnderOptions",
    ),
    System(
        name="deadweight-board",
        title="Deadweight, the board game",
        session_path="tabletop.games.deadweight_board.session:SESSION",
        cli_path="tabletop.cli.deadweight_board:app",
        showcase_path="tabletop.cli.deadweight_board:showcase",
        options_path="tabletop.games.deadweight_board.config:DeadweightConfig",
    ),
)


def system(name: str) -> System:
    """The system called `name`, or `UnknownSystem` listing the ones there are."""
    for known in SYSTEMS:
        if known.name == name:
            return known
    names = ", ".join(s.name for s in SYSTEMS)
    raise UnknownSystem(f"no system {name!r}; the systems are {names}")
