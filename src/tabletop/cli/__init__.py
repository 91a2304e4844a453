"""The `tabletop` command line: `tabletop <verb>` for dice, `tabletop <system> <verb>` for rules.

The app lives in `tabletop.cli.app`; this package stays small so that a system's CLI module
can import `tabletop.cli.output` without pulling in every other system. It settles the
terminal size first, before Rich or Typer read it (see `tabletop.cli.terminal`).
"""

import sys

from tabletop.cli.terminal import settle_terminal_size

settle_terminal_size()


def main() -> None:
    """The `tabletop` script: Ctrl-C while the command line is still loading ends in one line
    too, as it does once a command runs (`tabletop.cli.app.main`)."""
    try:
        from tabletop.cli.app import main as run_command_line
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        raise SystemExit(130) from None
    run_command_line()
