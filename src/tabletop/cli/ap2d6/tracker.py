"""`tabletop ap2d6 ap`: an AP tracker for a fight at the terminal, one command at a time.

Each line names who acts (optional with one character) and what they do; a line the rules
refuse is explained and asked again, and nothing changes. `next` starts the next round.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from tabletop.campaigns import character_id
from tabletop.cli.ap2d6.common import ask_again, event_json
from tabletop.cli.options import Json, Seed, rule_options
from tabletop.cli.output import console, print_json
from tabletop.cli.repl import Loop, Yes
from tabletop.cli.scene import CampaignFile, Scene, open_scene
from tabletop.data import read_data_file, write_text_file
from tabletop.dice import DiceSource, dice_source
from tabletop.errors import TabletopError
from tabletop.session import Event
from tabletop.systems.ap2d6.costs import action_cost, basic_actions
from tabletop.systems.ap2d6.errors import Ap2d6DataError, Ap2d6Error
from tabletop.systems.ap2d6.options import Options
from tabletop.systems.ap2d6.rounds import Combat
from tabletop.systems.ap2d6.session import SESSION, Ap2d6Table
from tabletop.systems.ap2d6.sheet import read_sheet, standard_sheet
from tabletop.systems.ap2d6.tracker import ATTACK
from tabletop.words import counted

PROMPT = "ap> "

HELP = """\
who is optional when there is one character.
  [who] move                    a move action (1n1)
  [who] spend COST [pick XnY]   pay a cost: 2n2, "(2n3 or 3n1)", "(1n1)->(2n1)"
  [who] attack COST [pick XnY]  an attack: every attack this round shares one escalating count
  [who] do ACTION               a basic action: {actions}
  [who] gain | lose | temp | wait
  order WHO WHO ...             who goes first when these act at the same moment
  interrupt WHO WHOM [tagged]   an initiative contest to act before WHOM ([interrupt]: no cost)
  next                          end the round; the next one begins and tokens slide toward 0
  show                          every tracker"""


VERBS: dict[str, tuple[str, str]] = {
    "move": ("[who] move", "a move action (1n1)"),
    "spend": ("[who] spend COST [pick XnY]", 'pay a cost: 2n2, "(2n3 or 3n1)", "(1n1)->(2n1)"'),
    "attack": ("[who] attack COST [pick XnY]", "an attack: this round's attacks escalate"),
    "do": ("[who] do ACTION", "a basic action by name"),
    "gain": ("[who] gain", "the GM gives an AP"),
    "lose": ("[who] lose", "the GM takes an AP"),
    "temp": ("[who] temp", "the GM gives a temporary AP"),
    "wait": ("[who] wait", "wait: act later this round"),
    "order": ("order WHO WHO ...", "who goes first when these act at the same moment"),
    "interrupt": ("interrupt WHO WHOM [tagged]", "an initiative contest to act before WHOM"),
    "next": ("next", "end the round; the next begins and tokens slide toward 0"),
    "show": ("show", "every tracker"),
}
"""Each verb's usage and what it does, for `help VERB` and completion."""


class Fight:
    """The table the fight is played at and the dice it rolls, as the loop drives it."""

    verbs = VERBS

    def __init__(self, scene: Scene, dice: DiceSource, path: Path | None) -> None:
        self.scene, self.dice, self.path = scene, dice, path
        self.events_so_far = scene.state.fight is not None and scene.state.fight.round > 0
        self.overview = HELP.format(actions=", ".join(basic_actions()))

    @property
    def table(self) -> Ap2d6Table:
        table: Ap2d6Table = self.scene.state
        return table

    @property
    def combat(self) -> Combat:
        assert self.table.fight is not None
        return self.table.fight

    def play_intent(self, intent: dict[str, object]) -> list[Event]:
        """One intent through the session; the table moves on only if it is allowed."""
        return self.scene.play(intent, self.dice)

    def id_of(self, word: str) -> str:
        return self.table.id_of(_name(self.combat, word))

    # what the loop asks of a tracker -------------------------------------------------

    def prompt(self) -> str:
        return PROMPT

    def names(self) -> list[str]:
        return [c.name for c in self.combat.characters] + ["tagged", "pick"]

    def play(self, line: str) -> None:
        if line.strip().lower() == "show":
            console.print(tracker_table(self.combat))
            return
        _report(self, run_line(self, line), False)

    def snapshot(self) -> Any:
        return (self.scene.state, self.scene.campaign, len(self.scene.events))

    def restore(self, snapshot: Any) -> None:
        self.scene.state, self.scene.campaign, count = snapshot
        del self.scene.events[count:]
        console.print(tracker_table(self.combat))

    def kept_in(self) -> Path | None:
        return self.scene.campaign_file or self.path

    def save(self, path: Path | None) -> str:
        if self.scene.campaign is not None and path is None:
            return self.scene.keep(dry_run=False) or "nothing new to keep"
        target = path or self.path
        if target is None:
            raise Ap2d6Error("usage: save FILE")
        write_text_file(target, self.table.model_dump_json(indent=1) + "\n", Ap2d6DataError)
        self.path = target
        return f"saved to {target}"

    def load(self, path: Path) -> None:
        if self.scene.campaign is not None:
            raise Ap2d6Error("a campaign's fight is its own: leave and start without --campaign")
        table = SESSION.load(read_data_file(path, Ap2d6DataError))
        if table.fight is None:
            raise Ap2d6Error(f"{path} holds no fight")
        self.scene.state = table
        self.path = path
        console.print(tracker_table(self.combat))


def run_line(fight: Fight, line: str) -> list[Event]:
    """Carry out one command line; raises a TabletopError (changing nothing) if it cannot."""
    try:
        words = shlex.split(line)
    except ValueError as error:
        raise Ap2d6Error(f"cannot read that line: {error}") from None
    if not words:
        return []
    verb = words[0].lower()
    if verb == "next":
        return fight.play_intent({"kind": "next-round"})
    if verb == "order":
        if len(words) == 1:
            raise Ap2d6Error("name the characters acting at the same moment")
        return fight.play_intent(
            {"kind": "order", "characters": [fight.id_of(w) for w in words[1:]]}
        )
    if verb == "interrupt":
        if len(words) not in (3, 4) or (len(words) == 4 and words[3].lower() != "tagged"):
            raise Ap2d6Error("write: interrupt WHO WHOM [tagged]")
        return fight.play_intent(
            {
                "kind": "interrupt",
                "character": fight.id_of(words[1]),
                "target": fight.id_of(words[2]),
                "tagged": len(words) == 4,
            }
        )
    who, words = _who(fight.combat, words)
    return fight.play_intent(_character_command(fight.table.id_of(who), words))


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


def _character_command(cid: str, words: list[str]) -> dict[str, object]:
    """The intent one character's command asks for."""
    verb, rest = words[0].lower(), words[1:]
    if verb in ("gain", "lose", "temp", "wait") and not rest:
        return {"kind": "tracker", "character": cid, "change": verb}
    if verb == "move" and not rest:
        return {"kind": "spend", "character": cid, "action": "move"}
    if verb == "do" and len(rest) == 1:
        return {"kind": "spend", "character": cid, "action": rest[0].lower()}
    if verb in ("spend", "attack") and rest:
        text, choice = _cost_and_pick(rest)
        action_cost(text)  # a cost the notation cannot read is refused as such, here
        return {
            "kind": "spend",
            "character": cid,
            "action": text,
            "attack": verb == "attack",
            "pick": choice,
        }
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
            notes.append(f"{counted(tracker.uses[ATTACK], 'attack')} this round")
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
            help="Someone in the fight, as NAME or NAME:AGI (repeat for each); with "
            "--campaign, a party member's name (all of the party by default).",
            metavar="NAME[:AGI]",
        ),
    ] = None,
    campaign: CampaignFile = None,
    save: Annotated[
        Path | None, typer.Option("--save", help="Where `save` (and leaving with --yes) writes.")
    ] = None,
    load: Annotated[
        Path | None, typer.Option("--load", help="Resume a fight saved with `save FILE`.")
    ] = None,
    yes: Yes = False,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """Track AP for a fight: spend (XnY) costs, escalating attacks, temp AP, gain, lose, wait.

    `undo`, `save`, `load` and `help VERB` at the prompt; with --campaign the party fights
    and the fight is kept in the campaign's journal. With --json there are no prompts or
    tables: each command prints one JSON line (its events, or the error), and leaving prints
    the whole fight as JSON."""
    dice = dice_source(seed)
    scene = _scene(ctx, dice, character, campaign, load)
    fight = Fight(scene, dice, save or load)
    if json:
        _json_loop(fight)
        return
    loop = Loop(console, fight, yes=yes)
    if not fight.events_so_far:
        _report(fight, run_line(fight, "next"), False)
    console.print("[dim]type 'help' for the commands[/dim]")
    loop.run()


def _scene(
    ctx: typer.Context,
    dice: DiceSource,
    character: list[str] | None,
    campaign: Path | None,
    load: Path | None,
) -> Scene:
    """The table the fight is played at: a new one with these people, a saved fight, or the
    campaign's with its party."""
    if load is not None:
        if campaign is not None or character:
            raise Ap2d6Error("--load resumes a saved fight as it was: leave out -c and --campaign")
        table = SESSION.load(read_data_file(load, Ap2d6DataError))
        if table.fight is None:
            raise Ap2d6Error(f"{load} holds no fight")
        return Scene(SESSION, table)
    if campaign is not None:
        scene = open_scene(SESSION, read_sheet, dice, campaign=campaign, required=False)
        ids = [character_id(scene.state, name) for name in character or []]
        ids = ids or list(scene.state.characters)
        if not ids:
            raise Ap2d6Error(f"{campaign} has nobody in its party to fight")
    else:
        people = [read_character(text) for text in character or ["You"]]
        names = [name.lower() for name, _ in people]
        if len(set(names)) != len(names):
            raise Ap2d6Error("two characters share a name (names are matched ignoring case)")
        scene = Scene(SESSION, SESSION.new(rule_options(ctx, Options).model_dump()))
        for name, agi in people:
            sheet = standard_sheet(name, AGI=agi).model_dump(mode="json")
            scene.play({"kind": "import-character", "sheet": sheet}, dice)
        ids = list(scene.state.characters)
    scene.play({"kind": "start-fight", "characters": ids}, dice)
    scene.events.clear()  # setting the fight up is not a change to save
    return scene


def _json_loop(fight: Fight) -> None:
    """For programs: one JSON line per command, and the whole fight when the input ends."""
    if not fight.events_so_far:
        _report(fight, run_line(fight, "next"), True)
    while True:
        try:
            line = console.input("")
        except EOFError:
            break
        if line.strip().lower() in ("quit", "exit", "q"):
            break
        if line.strip().lower() == "show":  # the fight as one JSON line, as leaving prints it
            print_json(fight.combat.model_dump(mode="json"))
            continue
        try:
            events = run_line(fight, line)
        except TabletopError as error:
            ask_again(error, True)
            continue
        _report(fight, events, True)
    print_json(fight.combat.model_dump(mode="json"))


def _report(fight: Fight, events: list[Event], as_json: bool) -> None:
    if as_json:
        print_json({"events": [event_json(event) for event in events]})
        return
    for event in events:
        console.print(escape(event.text))
    if events:
        console.print(tracker_table(fight.combat))
