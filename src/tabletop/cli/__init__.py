"""The `tabletop` command line: `tabletop <verb>` for dice, `tabletop <system> <verb>` for rules.

The app lives in `tabletop.cli.app`; this package stays empty so that a system's CLI module
can import `tabletop.cli.output` without pulling in every other system.
"""
