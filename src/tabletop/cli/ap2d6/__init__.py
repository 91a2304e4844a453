"""`tabletop ap2d6 …`: the 2d6 action-point rules at the command line."""

from __future__ import annotations

import typer

from tabletop.cli.ap2d6 import character, dying, encounters, rolls, sheets, tracker
from tabletop.cli.ap2d6.showcase import showcase
from tabletop.cli.options import add_rule_options
from tabletop.systems.ap2d6.options import Options

app = typer.Typer(
    help="The 2d6 action-point rules: checks, contests, odds, the AP tracker, death checks.",
    no_args_is_help=True,
)
add_rule_options(
    app, Options, "The 2d6 action-point rules, with --option for any reading of an unclear rule."
)
app.add_typer(character.app, name="character")
app.command("check")(rolls.check_command)
app.command("contest")(rolls.contest_command)
app.command("odds")(rolls.odds_command)
app.command("ap")(tracker.ap_command)
app.command("death")(dying.death_command)
character.app.command("show")(sheets.show_command)
for verb, command in {**sheets.COMMANDS, **encounters.COMMANDS}.items():
    app.command(verb)(command)

__all__ = ["app", "showcase"]
