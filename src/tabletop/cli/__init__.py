"""The `tabletop` command line: `tabletop <verb>` for dice, `tabletop <system> <verb>` for rules."""

from tabletop.cli.app import app, main

__all__ = ["app", "main"]
