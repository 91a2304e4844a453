"""`tabletop ap2d6 ap`: an AP tracker for a fight at the terminal, one command at a time.

Each line names who acts (optional with one character) and what they do; a line the rules
refuse is explained and asked again, and nothing changes. `next` starts the next round.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from tabletop.cli.ap2d6.common import ask_again
from tabletop.cli.options import Json, Seed, rule_options
from tabletop.cli.output import console, print_json
from tabletop.dice import DiceSource, dice_source
from tabletop.errors import TabletopError
from tabletop.systems.ap2d6.costs import action_cost, basic_actions
from tabletop.systems.ap2d6.errors import Ap2d6Error, validated
from tabletop.systems.ap2d6.events import Event
from tabletop.systems.ap2d6.options import Options
from tabletop.systems.ap2d6.rounds import (
    Combat,
    act,
    begin_round,
    interrupt,
    order,
    start_main_phase,
    tracker_change,
)
from tabletop.systems.ap2d6.sheet import standard_sheet
from tabletop.systems.ap2d6.tracker import ATTACK

PROMPT = "ap> "

HELP = """\
[bold]who[/bold] is optional when there is one character.
  [who] move                    a move action (1n1)
  [who] spend COST [pick XnY]   pay a cost: 2n2, "(2n3 or 3n1)", "(1n1)->(2n1)"
  [who] attack COST [pick XnY]  an attack: every attack this round shares one escalating count
  [who] do ACTION               a basic action: {actions}
  [who] gain | lose | temp | wait
  order WHO WHO ...             who goes first when these act at the same moment
  interrupt WHO WHOM [tagged]   an initiative contest to act before WHOM ([interrupt]: no cost)
  next                          end the round; the next one begins and tokens slide toward 0
  show | help | quit"""


@dataclass
class Session:
    """The fight so far and what the commands need to run it."""

    combat: Combat
    dice: DiceSource
    options: Options


def run_line(session: Session, line: str) -> list[Event]:
    """Carry out one command line; raises a TabletopError (changing nothing) if it cannot."""
    try:
        words = shlex.split(line)
    except ValueError as error:
        raise Ap2d6Error(f"cannot read that line: {error}") from None
    if not words:
        return []
    verb = words[0].lower()
    if verb == "next":
        combat, events = begin_round(session.combat, session.dice, options=session.options)
        combat, more = start_main_phase(combat)
        session.combat = combat
        return events + more
    if verb == "order":
        names = [_name(session.combat, word) for word in words[1:]]
        ordered, events = order(session.combat, names, session.dice, session.options)
        return [*events, Event(kind="order", summary="in order: " + ", ".join(ordered))]
    if verb == "interrupt":
        if len(words) not in (3, 4) or (len(words) == 4 and words[3].lower() != "tagged"):
            raise Ap2d6Error("write: interrupt WHO WHOM [tagged]")
        who, whom = _name(session.combat, words[1]), _name(session.combat, words[2])
        combat, _first, events = interrupt(
            session.combat,
            who,
            whom,
            session.dice,
            tagged=len(words) == 4,
            options=session.options,
        )
        session.combat = combat
        return events
    who, words = _who(session.combat, words)
    combat, events = _character_command(session, who, words)
    session.combat = combat
    return events


def _name(combat: Combat, word: str) -> str:
    for character in combat.characters:
        if character.name.lower() == word.lower():
            return character.name
    known = ", ".join(c.name for c in combat.characters)
    raise Ap2d6Error(f"no character called {word!r}; the fight has {known}")


def _who(combat: Combat, words: list[str]) -> tuple[str, list[str]]:
    names = {c.name.lower(): c.name for c in combat.characters}
    if words[0].lower() in names:
        if len(words) == 1:
            raise Ap2d6Error(f"what does {names[words[0].lower()]} do? (try 'help')")
        return names[words[0].lower()], words[1:]
    if len(combat.characters) == 1:
        return combat.characters[0].name, words
    names = " or ".join(c.name for c in combat.characters)
    raise Ap2d6Error(f"say who acts: start the line with {names}")


def _character_command(session: Session, who: str, words: list[str]) -> tuple[Combat, list[Event]]:
    verb, rest = words[0].lower(), words[1:]
    combat = session.combat
    if verb in ("gain", "lose", "temp", "wait") and not rest:
        return tracker_change(combat, who, verb, session.options)
    if verb == "move" and not rest:
        return act(combat, who, "move")
    if verb == "do" and len(rest) == 1:
        return act(combat, who, rest[0].lower())
    if verb in ("spend", "attack") and rest:
        text, choice = _cost_and_pick(rest)
        cost = action_cost(text)
        kind = ATTACK if verb == "attack" else str(cost)
        pick = action_cost(choice).steps[0][0] if choice else None
        return act(combat, who, cost, kind=kind, choice=pick)
    raise Ap2d6Error(f"cannot read {' '.join(words)!r}; type 'help' for the commands")


def _cost_and_pick(words: list[str]) -> tuple[str, str | None]:
    if len(words) >= 3 and words[-2].lower() == "pick":
        return " ".join(words[:-2]), words[-1]
    if "pick" in (word.lower() for word in words):
        raise Ap2d6Error("write the chosen cost after pick, e.g. spend (2n3 or 3n1) pick 3n1")
    return " ".join(words), None


def tracker_table(combat: Combat) -> Table:
    """Every character's tracker, in initiative order."""
    table = Table(title=f"round {combat.round}", title_justify="left")
    table.add_column("who")
    table.add_column("AGI", justify="right")
    width = max(len(c.tracker.cells()) for c in combat.characters)
    for cell in range(width):
        table.add_column(str(cell), justify="center")
    table.add_column("can spend", justify="right")
    table.add_column("notes", style="dim")
    by_name = {c.name: c for c in combat.characters}
    for name, agi in combat.initiative():
        tracker = by_name[name].tracker
        cells = tracker.cells() + [0] * (width - len(tracker.cells()))
        shown = ["●" * count for count in cells]
        if tracker.temp:
            shown[0] += f" +{tracker.temp} temp"
        notes = []
        if tracker.waiting:
            notes.append("waiting")
        if tracker.uses.get(ATTACK):
            notes.append(f"{tracker.uses[ATTACK]} attack(s) this round")
        if tracker.lost:
            notes.append(f"{tracker.lost} AP lost")
        table.add_row(
            escape(name), str(agi), *shown, str(tracker.spendable), escape(", ".join(notes))
        )
    return table


def read_character(text: str) -> tuple[str, int]:
    """`Ayla:2` → ("Ayla", 2); a bare name has AGI 0."""
    name, sep, agi = text.partition(":")
    if not name.strip():
        raise Ap2d6Error(f"--character wants NAME or NAME:AGI, not {text!r}")
    try:
        return name.strip(), int(agi) if sep else 0
    except ValueError:
        raise Ap2d6Error(f"--character wants NAME:AGI with a whole number, not {text!r}") from None


def ap_command(
    ctx: typer.Context,
    character: Annotated[
        list[str] | None,
        typer.Option(
            "--character",
            "-c",
            help="Someone in the fight, as NAME or NAME:AGI (repeat for each).",
            metavar="NAME[:AGI]",
        ),
    ] = None,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """Track AP for a fight: spend (XnY) costs, escalating attacks, temp AP, gain, lose, wait.

    With --json there are no prompts or tables: each command prints one JSON line (its events,
    or the error), and leaving prints the whole fight as JSON."""
    options = rule_options(ctx, Options)
    people = [read_character(text) for text in character or ["You"]]
    names = [name.lower() for name, _ in people]
    if len(set(names)) != len(names):
        raise Ap2d6Error("two characters share a name (names are matched ignoring case)")
    sheets = tuple(standard_sheet(name, AGI=agi) for name, agi in people)
    combat = validated(Combat, {"characters": sheets}, "the fight")
    session = Session(combat, dice_source(seed), options)
    _report(session, run_line(session, "next"), json)
    if not json:
        console.print("[dim]type 'help' for the commands[/dim]")
    while True:
        try:
            line = console.input("" if json else PROMPT)
        except EOFError:
            break
        command = line.strip().lower()
        if command in ("quit", "exit", "q"):
            break
        if command in ("help", "?", "show") and not json:
            console.print(
                HELP.format(actions=", ".join(basic_actions()))
                if command != "show"
                else tracker_table(session.combat)
            )
            continue
        try:
            events = run_line(session, line)
        except TabletopError as error:
            ask_again(error, json)
            continue
        _report(session, events, json)
    if json:
        print_json(session.combat.model_dump(mode="json"))


def _report(session: Session, events: list[Event], as_json: bool) -> None:
    if as_json:
        print_json({"events": [event.model_dump(mode="json") for event in events]})
        return
    for event in events:
        console.print(escape(event.summary))
    if events:
        console.print(tracker_table(session.combat))
