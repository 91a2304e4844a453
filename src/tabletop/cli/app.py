"""The root Typer app, its sub-apps, and the one place errors become a line and exit code 2."""

from __future__ import annotations

import functools
import io
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any

import typer
from rich.markup import escape
from typer.core import TyperGroup
from typer.models import CommandInfo

from tabletop.cli import dice
from tabletop.cli.output import errors
from tabletop.cli.quick import run_quickly
from tabletop.errors import TabletopError
from tabletop.systems.registry import SYSTEMS, load

COMMANDS = {
    "showcase": "tabletop.cli.showcase:showcase_command",
    "serve": "tabletop.cli.serve:serve_command",
}
"""Root commands loaded only when typed (`serve` loads the rooms, `showcase` every system)."""

GROUPS = {
    "table": "tabletop.cli.tables:app",
    "campaign": "tabletop.cli.campaign:app",
    "room": "tabletop.cli.rooms:app",
    **{system.name: system.cli_path for system in SYSTEMS if system.cli_path},
}
"""Command groups by name, as `module:app`: each is imported only when its name is typed, so
`tabletop roll` does not load every system's rules."""


class LazyGroup(TyperGroup):
    """The root command: its own commands, then `GROUPS`, each loaded on first use."""

    def list_commands(self, ctx: typer.Context) -> list[str]:
        return [*super().list_commands(ctx), *COMMANDS, *GROUPS]

    def get_command(self, ctx: typer.Context, cmd_name: str) -> Any:
        if cmd_name in COMMANDS:
            return typer.main.get_command_from_info(
                CommandInfo(name=cmd_name, callback=load(COMMANDS[cmd_name])),
                pretty_exceptions_short=False,
                rich_markup_mode="rich",
            )
        if cmd_name not in GROUPS:
            return super().get_command(ctx, cmd_name)
        holder = typer.Typer(add_completion=False)  # built as `add_typer` would build it
        holder.add_typer(load(GROUPS[cmd_name]), name=cmd_name)
        return typer.main.get_command(holder).get_command(ctx, cmd_name)  # type: ignore[attr-defined]


app = typer.Typer(
    name="tabletop",
    cls=LazyGroup,
    help="Run tabletop game systems exactly as their rules describe: dice, odds, rules, games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)
app.command("roll", context_settings={"ignore_unknown_options": True})(dice.roll_command)
app.command("odds", context_settings={"ignore_unknown_options": True})(dice.odds_command)

USAGE_EXIT = 2

MAX_ERROR_CHARS = 300
"""About the longest error line: a message quoting a huge input keeps its start and end."""


def fail(message: str, code: int = USAGE_EXIT) -> None:
    """Print `message` (plain text) as one short line on stderr and leave with `code`."""
    line = " ".join(message.split())
    if len(line) > MAX_ERROR_CHARS:  # the start says what, the end usually says why
        line = line[: MAX_ERROR_CHARS * 2 // 3] + " … " + line[-(MAX_ERROR_CHARS // 3) :]
    errors.print(f"[bold red]error:[/bold red] {escape(line)}", markup=True, highlight=False)
    raise SystemExit(code)


@functools.cache
def _command() -> Any:
    """The app as a click command, built once (building it takes longer than most verbs)."""
    return typer.main.get_command(app)


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the `tabletop` script: no tracebacks for anything a user can cause."""
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            # Bytes that are not UTF-8 typed at a prompt read as U+FFFD, an answer that is
            # asked again; a terminal that cannot show → gets ?. Neither is a crash.
            stream.reconfigure(errors="replace")
    # SIGTERM unwinds like Ctrl-C, so worker pools and files are closed on the way out.
    signal.signal(signal.SIGTERM, _terminated)
    try:
        args = list(argv) if argv is not None else sys.argv[1:]
        result = None if run_quickly(args) else _command().main(args=args, standalone_mode=False)
    except TabletopError as error:
        fail(str(error))
    except typer.TyperException as error:
        if not error.format_message():  # no arguments: the help is already shown
            raise SystemExit(USAGE_EXIT) from None
        fail(error.format_message())
    except typer.Abort:
        fail("aborted", 1)
    except KeyboardInterrupt:
        fail("interrupted", INTERRUPTED)
    except Terminated:
        fail("terminated", 143)
    except RecursionError:
        fail("the input is nested too deeply to handle")
    except Exception as error:
        if _refused_by_a_model(error):  # a value from the command line a model refuses
            from tabletop.session import first_problem

            fail(f"not a valid value: {first_problem(error)}")  # type: ignore[arg-type]
        if os.environ.get("TABLETOP_DEBUG"):
            raise
        problem = f"{type(error).__name__}: {error}"[:100]
        fail(f"internal error ({problem}); set TABLETOP_DEBUG=1 for details", 1)
    else:
        if result == INTERRUPTED:  # Typer turns Ctrl-C inside a command into this status
            fail("interrupted", INTERRUPTED)
        if isinstance(result, int) and result:
            sys.exit(result)


def _refused_by_a_model(error: Exception) -> bool:
    """Whether `error` is pydantic's ValidationError (only possible once pydantic loaded)."""
    pydantic = sys.modules.get("pydantic")
    return pydantic is not None and isinstance(error, pydantic.ValidationError)


INTERRUPTED = 130
"""The status of a command stopped by Ctrl-C (128 + SIGINT)."""


class Terminated(Exception):
    """SIGTERM arrived: stop as Ctrl-C does, with the status a killed command has."""


def _terminated(signum: int, frame: object) -> None:
    raise Terminated
