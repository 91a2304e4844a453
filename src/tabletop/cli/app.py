"""The root Typer app, its sub-apps, and the one place errors become a line and exit code 2."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Sequence

import typer
from rich.markup import escape

from tabletop.cli import dice, rooms, serve, showcase, tables
from tabletop.cli.output import errors, plain
from tabletop.errors import TabletopError
from tabletop.systems.registry import SYSTEMS, load

app = typer.Typer(
    name="tabletop",
    help="Run tabletop game systems exactly as their rules describe: dice, odds, rules, games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)
app.command("roll")(dice.roll_command)
app.command("odds")(dice.odds_command)
app.add_typer(tables.app, name="table")
app.command("showcase")(showcase.showcase_command)
app.command("serve")(serve.serve_command)
app.add_typer(rooms.app, name="room")
for system in SYSTEMS:
    if system.cli_path:
        app.add_typer(load(system.cli_path), name=system.name)

USAGE_EXIT = 2


def fail(message: str, code: int = USAGE_EXIT) -> None:
    """Print one line to stderr and leave with `code`."""
    errors.print(f"[bold red]error:[/bold red] {message}", markup=True, highlight=False)
    raise SystemExit(code)


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the `tabletop` script: no tracebacks for anything a user can cause."""
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            # Bytes that are not UTF-8 typed at a prompt read as U+FFFD, an answer that is
            # asked again; a terminal that cannot show → gets ?. Neither is a crash.
            stream.reconfigure(errors="replace")
    try:
        result = app(args=list(argv) if argv is not None else None, standalone_mode=False)
    except TabletopError as error:
        fail(_escape(str(error)))
    except typer.TyperException as error:
        if not error.format_message():  # no arguments: the help is already shown
            raise SystemExit(USAGE_EXIT) from None
        fail(_escape(error.format_message()))
    except typer.Abort:
        fail("aborted", 1)
    except KeyboardInterrupt:
        fail("interrupted", 130)
    except RecursionError:
        fail("the input is nested too deeply to handle")
    except Exception as error:
        if os.environ.get("TABLETOP_DEBUG"):
            raise
        problem = _escape(f"{type(error).__name__}: {error}")
        fail(f"internal error ({problem}); set TABLETOP_DEBUG=1 for details", 1)
    else:
        if isinstance(result, int) and result:
            sys.exit(result)


def _escape(text: str) -> str:
    return escape(plain(text.replace("\n", " ")))
