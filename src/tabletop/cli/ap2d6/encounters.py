"""`tabletop ap2d6 social | read | lie | stealth | attack`: the rules' social rolls, reading
people, lying, sneaking and weapon attacks at the command line (the library's rules, as the
rules notes name them: RU-M28..M32, RU-M42, RU-M44..M48)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from tabletop.cli.ap2d6.common import read_score
from tabletop.cli.ap2d6.rolls import check_json
from tabletop.cli.options import Json, Seed, rule_options
from tabletop.cli.output import console, print_json
from tabletop.dice import dice_source
from tabletop.systems.ap2d6.checks import stealth
from tabletop.systems.ap2d6.errors import Ap2d6Error
from tabletop.systems.ap2d6.options import Options
from tabletop.systems.ap2d6.sheet import read_sheet
from tabletop.systems.ap2d6.social import lie, read, reputation_name, social_roll
from tabletop.systems.ap2d6.weapons import load_weapons, resolve, wield


def _show(text: str, success: bool, data: dict[str, Any], json: bool) -> None:
    if json:
        print_json(data)
        return
    colour = "green" if success else "red"
    console.print(f"[{colour}]{escape(text)}[/{colour}]")


def social_command(
    ctx: typer.Context,
    social: Annotated[str, typer.Option("--social", help="The speaker's SOCIAL score.")],
    bias: Annotated[int, typer.Option("--bias", min=-6, max=6, help="Their bias: -6 to +6.")],
    dc: Annotated[int, typer.Option("--dc", min=-100, max=100, help="The GM's DC.")],
    modifier: Annotated[int, typer.Option("--modifier", "-m", min=-100, max=100)] = 0,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """A social roll: 2d6 + SOCIAL + bias against the DC; success shifts their attitude."""
    result = social_roll(
        read_score(social, "--social"),
        bias,
        dc,
        dice_source(seed),
        modifier=modifier,
        options=rule_options(ctx, Options),
    )
    level = f"treated as {reputation_name(result.level)} ({result.level:+d})"
    data = {**check_json(result.check), "shift": result.shift, "level": result.level}
    _show(f"{result.check}; {level}", result.check.success, data, json)


def read_command(
    ctx: typer.Context,
    perception: Annotated[str, typer.Option("--perception", help="The reader's PERCEPTION.")],
    dc: Annotated[
        int,
        typer.Option(
            "--dc", min=-100, max=100, help="6 + their SOCIAL, or the total of their lie."
        ),
    ],
    modifier: Annotated[int, typer.Option("--modifier", "-m", min=-100, max=100)] = 0,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """Read someone: a perception check whose margin gives what is learned (RU-M46)."""
    reading = read(
        read_score(perception, "--perception"),
        dc,
        dice_source(seed),
        modifier=modifier,
        options=rule_options(ctx, Options),
    )
    data = {**check_json(reading.check), "band": reading.band}
    _show(str(reading), reading.check.success, data, json)


def lie_command(
    ctx: typer.Context,
    social: Annotated[str, typer.Option("--social", help="The liar's SOCIAL score.")],
    listener: Annotated[
        int,
        typer.Option("--listener", min=-100, max=100, help="The listener's social perception."),
    ],
    modifier: Annotated[int, typer.Option("--modifier", "-m", min=-100, max=100)] = 0,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """Tell a lie: against 6 + the listener's perception; a failure is highly suspicious."""
    told = lie(
        read_score(social, "--social"),
        listener,
        dice_source(seed),
        modifier=modifier,
        options=rule_options(ctx, Options),
    )
    after = "highly suspicious" if told.suspicious else f"reading it later: DC {told.read_dc}"
    data = {**check_json(told.check), "suspicious": told.suspicious, "read_dc": told.read_dc}
    _show(f"{told.check}; {after}", told.check.success, data, json)


def stealth_command(
    ctx: typer.Context,
    agi: Annotated[str, typer.Option("--agi", help="The sneaker's AGI.")],
    perception: Annotated[
        int, typer.Option("--perception", min=-100, max=100, help="The watcher's PERCEPTION.")
    ],
    stealth_score: Annotated[
        int | None, typer.Option("--stealth", min=-100, max=100, help="STEALTH, if they have it.")
    ] = None,
    modifier: Annotated[int, typer.Option("--modifier", "-m", min=-100, max=100)] = 0,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """Sneak: AGI (+ STEALTH) against 6 + the watcher's PERCEPTION; the watcher wins ties."""
    result = stealth(
        read_score(agi, "--agi"),
        stealth_score,
        perception,
        dice_source(seed),
        modifier=modifier,
        options=rule_options(ctx, Options),
    )
    _show(str(result), result.success, check_json(result), json)


def attack_command(
    ctx: typer.Context,
    weapons: Annotated[Path, typer.Argument(help="Your group's weapon file (TOML).")],
    weapon: Annotated[str, typer.Argument(help="The weapon's name in that file.")],
    character: Annotated[Path, typer.Option("--character", help="The attacker's saved sheet.")],
    target: Annotated[
        int, typer.Option("--target-to-hit", min=-100, max=100, help="The target's To-Hit.")
    ],
    attack: Annotated[str | None, typer.Option("--attack", help="Which of its attacks.")] = None,
    two_hands: Annotated[
        bool, typer.Option("--two-hands", help="Both hands on a one-handed weapon.")
    ] = False,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """Attack with a weapon: requirements, grip, To-Hit and damage (RU-M28..M31).

    The sheet is only read: give the damage to the target with `ap2d6 damage`."""
    options = rule_options(ctx, Options)
    known = load_weapons(weapons)
    if weapon not in known:
        raise Ap2d6Error(f"{weapons} has no weapon {weapon!r}; it has {', '.join(known)}")
    grip = "two-hands" if two_hands else None
    held = wield(read_sheet(character), known[weapon], attack, grip, options)
    result = resolve(held, target, dice_source(seed), options)
    data = {
        **check_json(result.check),
        "hit": result.hit,
        "damage": result.damage,
        "doubled": result.doubled,
        "wielded": held.model_dump(mode="json"),
    }
    _show(str(result), result.hit, data, json)


COMMANDS = {
    "social": social_command,
    "read": read_command,
    "lie": lie_command,
    "stealth": stealth_command,
    "attack": attack_command,
}
"""The verbs of this module, as `tabletop ap2d6 VERB`."""
