"""The `tabletop` command line: `tabletop <verb>` for dice, `tabletop <system> <verb>` for rules.

The app lives in `tabletop.cli.app`; this package stays small so that a system's CLI module
can import `tabletop.cli.output` without pulling in every other system. It settles the
terminal size first, before Rich or Typer read it (see `tabletop.cli.terminal`).
"""

from tabletop.cli.terminal import settle_terminal_size

settle_terminal_size()
