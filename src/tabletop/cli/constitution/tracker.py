"""The terminal initiative tracker: a referee's commands turned into combat actions.

Each line is parsed into one action of `combat.py` and applied; anything wrong (a typo, an
illegal move, a bad number) prints one line and asks again, and the fight is unchanged.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError
from rich.console import Console
from rich.table import Table

from tabletop.campaigns import character_id, write_campaign
from tabletop.cli.repl import Loop
from tabletop.cli.scene import Scene, open_scene
from tabletop.data import parse_json, read_text_file, write_text_file
from tabletop.dice import DiceSource
from tabletop.errors import TabletopError
from tabletop.systems.constitution.character import read_sheet
from tabletop.systems.constitution.combat import (
    Add,
    AnswerDirectHit,
    AnswerShield,
    AttackAction,
    Begin,
    Combat,
    Combatant,
    Command,
    DeclareSpell,
    Defend,
    EndCombat,
    EndTurn,
    ExtraAction,
    ForceBout,
    Leave,
    LoseTrack,
    MoraleCheck,
    NextRound,
    React,
    ReleaseStored,
    Reorient,
    RollInitiative,
    SetInitiative,
    Spend,
    SpendDegrees,
    Tactical,
    legal_actions,
)
from tabletop.systems.constitution.combat.state import DRIVE_BACK, DRIVE_OUT
from tabletop.systems.constitution.errors import ConstitutionDataError
from tabletop.systems.constitution.models import build, describe
from tabletop.systems.constitution.options import DEFAULT, Options
from tabletop.systems.constitution.session import SESSION
from tabletop.systems.constitution.table import ConstitutionTable
from tabletop.systems.constitution.table_fight import CombatIntent, JoinFight

MAX_SAVE_BYTES = 1_000_000
"""A saved fight larger than this is refused before it is read."""

HELP = """\
setup
  add NAME [side=S wits=N str=N will=N hp=N ac=N fighter=N level=N damage=1d6
           morale=N commander=ID henchman shield tactician bow]
  init ID [advantage|ambush|penalty|flat] [bonus=N]    init all     set ID VALUE
  begin
in a round   (the acting combatant's main action, or after paying initiative)
  attack ATTACKER TARGET [mod=N adv=N dis=N damage=EXPR ranged store nodirect
                          blind constrained unaware (the target's state: −5/−5/−10 AC)
                          melee=side|behind_closer|behind_further other=ID aim=N]
  defend ID            react ID 2|5|10 [what]      extra [bow]      tactical ID
  command COMMANDER FOLLOWER…   release SHOOTER     losetrack SHOOTER
  degrees ID N [effect]   (the attacker spends a hit's extra degrees, § 5.19)
  pay | take           (answer a direct hit)
  shield | noshield    (the target of a hit: a shield after the roll, 5 initiative, § 5.4)
  end [superior]       (end the acting combatant's turn; superior: −10 and go again)
between rounds
  reorient ID      spend ID COST [what]      cast ID SPELL
  round (next round)      force (force the bout on)      over (end the combat)
any time
  morale ID    leave ID [down|fled|dead]    status    legal    join NAME (a --campaign's party)"""
"""The tracker's commands. Plain text: the brackets are part of it, not Rich markup; the
lines that start at the margin are section titles."""


VERBS: dict[str, tuple[str, str]] = {
    "add": (
        "add NAME [side=S wits=N str=N … henchman shield tactician bow]",
        "bring in a combatant",
    ),
    "join": ("join NAME [side=S ac=N]", "bring a party member of the --campaign into the fight"),
    "init": ("init ID|all [advantage|ambush|penalty|flat] [bonus=N]", "roll initiative (§ 5.2)"),
    "set": ("set ID VALUE", "set a combatant's initiative by hand"),
    "begin": ("begin", "start the first round"),
    "attack": ("attack ATTACKER TARGET [mod=N adv=N dis=N damage=EXPR …]", "an attack (§ 5.4)"),
    "defend": ("defend ID", "raise a shield or parry: the defence action"),
    "react": ("react ID 2|5|10 [what]", "pay initiative for a reaction"),
    "extra": ("extra [bow]", "the acting combatant takes an extra action"),
    "tactical": ("tactical ID", "a tactician's free tactical action"),
    "command": ("command COMMANDER FOLLOWER…", "a commander lets followers act"),
    "release": ("release SHOOTER", "loose a stored shot"),
    "degrees": ("degrees ID N [effect]", "spend extra degrees of the hit just made (§ 5.19)"),
    "losetrack": ("losetrack SHOOTER", "a shooter loses the stored target"),
    "shield": ("shield", "hit, the target raises a shield after the roll: 5 initiative (§ 5.4)"),
    "noshield": ("noshield", "hit, the target lets the roll land without a shield"),
    "pay": ("pay", "answer a direct hit by paying HP"),
    "take": ("take", "answer a direct hit by taking it"),
    "end": ("end [superior]", "end the acting combatant's turn (superior: −10 and go again)"),
    "reorient": ("reorient ID", "a disoriented combatant re-orients between rounds"),
    "spend": ("spend ID COST [what]", "spend initiative between rounds"),
    "cast": ("cast ID SPELL", "declare a spell between rounds"),
    "round": ("round", "the next round"),
    "force": ("force", "force the bout on"),
    "over": ("over", "end the combat"),
    "morale": ("morale ID", "a morale check"),
    "leave": ("leave ID [down|fled|dead]", "a combatant leaves the fight"),
    "status": ("status", "the fight at a glance"),
    "legal": ("legal", "every command the rules allow now"),
}
"""Each verb's usage and what it does, for `help VERB` and completion."""


class _Usage(ConstitutionDataError):
    """A line the tracker could not read."""


def _split(words: list[str]) -> tuple[list[str], dict[str, str]]:
    """Positional words (including bare flags) and key=value pairs."""
    positional, pairs = [], {}
    for word in words:
        if "=" in word:
            key, _, value = word.partition("=")
            pairs[key] = value
        else:
            positional.append(word)
    return positional, pairs


def _int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise _Usage(f"{what} must be a whole number, not {text!r}") from None


def _need(positional: list[str], count: int, usage: str) -> list[str]:
    if len(positional) < count:
        raise _Usage(f"usage: {usage}")
    return positional


_FLAGS = {
    "henchman",
    "shield",
    "tactician",
    "bow",
    "ranged",
    "store",
    "nodirect",
    "blind",
    "constrained",
    "unaware",
}
_STAT_KEYS = {
    "side": "side",
    "wits": "wits",
    "str": "strength",
    "strength": "strength",
    "will": "will",
    "hp": "hp",
    "ac": "ac",
    "fighter": "fighter_level",
    "level": "level",
    "damage": "damage",
    "morale": "morale",
    "commander": "commander",
}


def _add(words: list[str]) -> BaseModel:
    positional, pairs = _split(words)
    flags = {w for w in positional[1:] if w in _FLAGS}
    extra = [w for w in positional[1:] if w not in _FLAGS]
    if not positional or extra:
        raise _Usage("usage: add NAME [key=value …] [henchman shield tactician bow]")
    unknown = set(pairs) - set(_STAT_KEYS)
    if unknown:
        raise _Usage(
            f"unknown {'detail' if len(unknown) == 1 else 'details'} "
            f"{', '.join(sorted(unknown))}; try: {', '.join(_STAT_KEYS)}"
        )
    stats: dict[str, object] = {}
    for key, value in pairs.items():
        field = _STAT_KEYS[key]
        stats[field] = value if field in ("side", "damage", "commander") else _int(value, key)
    name = positional[0]
    combatant = build(
        Combatant,
        {
            "id": name,
            "name": name,
            **stats,
            "henchman": "henchman" in flags,
            "can_defend_as_reaction": "shield" in flags,
            "tactician": "tactician" in flags,
            "bow_training": "bow" in flags,
        },
    )
    return Add(combatant=combatant)


_SURPRISES = {
    "advantage": "advantage",
    "ambush": "ambush",
    "penalty": "penalty",
    "flat": "flat_footed",
    "flat_footed": "flat_footed",
}


def _init(words: list[str]) -> BaseModel:
    positional, pairs = _split(words)
    _need(positional, 1, "init ID [advantage|ambush|penalty|flat] [bonus=N]")
    surprise = "none"
    if len(positional) > 1:
        if positional[1] not in _SURPRISES:
            raise _Usage("surprise is advantage, ambush, penalty or flat")
        surprise = _SURPRISES[positional[1]]
    bonus = _int(pairs.get("bonus", "0"), "bonus")
    return RollInitiative(id=positional[0], surprise=surprise, bonus=bonus)  # type: ignore[arg-type]


def _attack(words: list[str]) -> BaseModel:
    positional, pairs = _split(words)
    flags = set(positional[2:])
    _need(positional, 2, "attack ATTACKER TARGET [options]")
    bad = flags - _FLAGS
    if bad:
        raise _Usage(
            f"unknown attack {'option' if len(bad) == 1 else 'options'} {', '.join(sorted(bad))}"
        )
    known = {"mod", "adv", "dis", "damage", "melee", "other", "aim"}
    if set(pairs) - known:
        raise _Usage(f"attack details are {', '.join(sorted(known))}")
    melee = pairs.get("melee")
    if melee is not None and melee not in ("side", "behind_closer", "behind_further"):
        raise _Usage("melee= is side, behind_closer or behind_further")
    return build(
        AttackAction,
        {
            "attacker": positional[0],
            "target": positional[1],
            "modifier": _int(pairs.get("mod", "0"), "mod"),
            "advantage": _int(pairs.get("adv", "0"), "adv"),
            "disadvantage": _int(pairs.get("dis", "0"), "dis"),
            "damage": pairs.get("damage"),
            "ranged": "ranged" in flags or "store" in flags or melee is not None,
            "store": "store" in flags,
            "into_melee": melee,
            "other_target": pairs.get("other"),
            "aimed_tenths": _int(pairs.get("aim", "0"), "aim"),
            "use_direct_hit": "nodirect" not in flags,
            "target_blind": "blind" in flags,
            "target_constrained": "constrained" in flags,
            "target_unaware": "unaware" in flags,
        },
    )


def _react(words: list[str]) -> BaseModel:
    _need(words, 2, "react ID 2|5|10 [what]")
    what = " ".join(words[2:]) or "a reaction"
    return React(id=words[0], cost=_int(words[1], "the cost"), what=what)


def _spend(words: list[str]) -> BaseModel:
    _need(words, 2, "spend ID COST [what]")
    what = " ".join(words[2:]) or "a physical action"
    return build(Spend, {"id": words[0], "cost": _int(words[1], "the cost"), "what": what})


def _degrees(words: list[str]) -> BaseModel:
    """`degrees ID N [effect]`: without an effect, the notes' own for one degree or two."""
    _need(words, 2, "degrees ID N [effect]")
    degrees = _int(words[1], "the degrees")
    effect = " ".join(words[2:]) or (DRIVE_BACK if degrees == 1 else DRIVE_OUT)
    return build(SpendDegrees, {"id": words[0], "degrees": degrees, "effect": effect})


def _leave(words: list[str]) -> BaseModel:
    _need(words, 1, "leave ID [down|fled|dead]")
    status = words[1] if len(words) > 1 else "fled"
    if status not in ("down", "fled", "dead"):
        raise _Usage("leave ID [down|fled|dead]")
    return Leave(id=words[0], status=status)  # type: ignore[arg-type]


def _one(usage: str, make: Callable[[str], BaseModel]) -> Callable[[list[str]], BaseModel]:
    def parse(words: list[str]) -> BaseModel:
        if len(words) != 1:
            raise _Usage(f"usage: {usage}")
        return make(words[0])

    return parse


def _none(make: Callable[[], BaseModel], usage: str) -> Callable[[list[str]], BaseModel]:
    def parse(words: list[str]) -> BaseModel:
        if words:
            raise _Usage(f"usage: {usage}")
        return make()

    return parse


def _end(words: list[str]) -> BaseModel:
    if words not in ([], ["superior"]):
        raise _Usage("usage: end [superior]")
    return EndTurn(superior=bool(words))


def _extra(words: list[str]) -> BaseModel:
    if words not in ([], ["bow"]):
        raise _Usage("usage: extra [bow]")
    return ExtraAction(bow=bool(words))


def _set(words: list[str]) -> BaseModel:
    _need(words, 2, "set ID VALUE")
    return build(SetInitiative, {"id": words[0], "value": _int(words[1], "the initiative")})


def _command(words: list[str]) -> BaseModel:
    _need(words, 2, "command COMMANDER FOLLOWER [FOLLOWER …]")
    return build(Command, {"commander": words[0], "followers": tuple(words[1:])})


def _cast(words: list[str]) -> BaseModel:
    _need(words, 2, "cast ID SPELL")
    return DeclareSpell(id=words[0], spell=" ".join(words[1:]))


PARSERS: dict[str, Callable[[list[str]], BaseModel]] = {
    "add": _add,
    "init": _init,
    "set": _set,
    "begin": _none(Begin, "begin"),
    "attack": _attack,
    "defend": _one("defend ID", lambda i: Defend(id=i)),
    "react": _react,
    "extra": _extra,
    "tactical": _one("tactical ID", lambda i: Tactical(id=i)),
    "command": _command,
    "release": _one("release SHOOTER", lambda i: ReleaseStored(shooter=i)),
    "degrees": _degrees,
    "losetrack": _one("losetrack SHOOTER", lambda i: LoseTrack(shooter=i)),
    "shield": _none(lambda: AnswerShield(raise_shield=True), "shield"),
    "noshield": _none(lambda: AnswerShield(raise_shield=False), "noshield"),
    "pay": _none(lambda: AnswerDirectHit(pay=True), "pay"),
    "take": _none(lambda: AnswerDirectHit(pay=False), "take"),
    "end": _end,
    "reorient": _one("reorient ID", lambda i: Reorient(id=i)),
    "spend": _spend,
    "cast": _cast,
    "round": _none(NextRound, "round"),
    "force": _none(ForceBout, "force"),
    "over": _none(EndCombat, "over"),
    "morale": _one("morale ID", lambda i: MoraleCheck(id=i)),
    "leave": _leave,
}


def parse_line(line: str) -> list[BaseModel]:
    """One tracker line → the actions it stands for (`init all` is one per combatant)."""
    try:
        words = shlex.split(line)
    except ValueError as error:
        raise _Usage(f"could not read that line: {error}") from None
    if not words:
        return []
    verb, rest = words[0].lower(), words[1:]
    if verb not in PARSERS:
        raise _Usage(f"unknown command {verb!r}; type help")
    if verb == "init" and rest == ["all"]:
        return [_INIT_ALL]
    try:
        return [PARSERS[verb](rest)]
    except ValidationError as error:
        raise _Usage(describe(error)) from None


_INIT_ALL = RollInitiative(id="*")


def status_table(combat: Combat) -> Table:
    """The fight at a glance: order, initiative, HP, AC and state of everyone."""
    title = {
        "setup": "setting up",
        "round": f"round {combat.round}",
        "between_rounds": f"between rounds {combat.round} and {combat.round + 1}",
        "over": "combat over",
    }[combat.phase]
    table = Table(title=title)
    for column in ("", "name", "side", "init", "HP", "AC", "state"):
        table.add_column(column)
    fighting = combat.order()
    others = [c for c in combat.combatants if not c.fighting]
    for combatant in [*fighting, *others]:
        marks = []
        if combatant.disoriented and combatant.fighting:
            marks.append("[yellow]disoriented[/yellow]")
        if combatant.reorienting:
            marks.append("re-orienting")
        if combatant.id in combat.superior:
            marks.append("superior")
        if combatant.id in combat.permits:
            marks.append("may act")
        if combat.phase == "round" and combatant.fighting and combatant.turns_left == 0:
            marks.append("[dim]done[/dim]")
        if combatant.casting:
            marks.append(f"casting {combatant.casting}")
        if combatant.stored:
            marks.append(f"{len(combatant.stored)} stored")
        if not combatant.fighting:
            marks.append(combatant.status)
        pointer = "▶" if combat.acting == combatant.id else ""
        initiative = "—" if combatant.initiative is None else str(combatant.initiative)
        table.add_row(
            pointer,
            combatant.name,
            combatant.side,
            initiative,
            str(combatant.hp),
            str(combatant.current_ac),
            ", ".join(marks),
        )
    return table


_COMMANDS: dict[type[BaseModel], tuple[str, tuple[str, ...]]] = {
    RollInitiative: ("init", ("id",)),
    Begin: ("begin", ()),
    AttackAction: ("attack", ("attacker", "target")),
    Defend: ("defend", ("id",)),
    React: ("react", ("id", "cost")),
    ExtraAction: ("extra", ("bow",)),
    Tactical: ("tactical", ("id",)),
    Command: ("command", ("commander", "followers")),
    ReleaseStored: ("release", ("shooter",)),
    SpendDegrees: ("degrees", ("id", "degrees", "effect")),
    LoseTrack: ("losetrack", ("shooter",)),
    EndTurn: ("end", ("superior",)),
    Reorient: ("reorient", ("id",)),
    Spend: ("spend", ("id", "cost")),
    MoraleCheck: ("morale", ("id",)),
    Leave: ("leave", ("id", "status")),
    NextRound: ("round", ()),
    ForceBout: ("force", ()),
    EndCombat: ("over", ()),
}
"""Each action's tracker verb and the fields written after it (a true flag as its name)."""


def command_line(action: BaseModel) -> str:
    """The tracker command that takes `action`, so `legal` lists what can be typed."""
    if isinstance(action, AnswerDirectHit):
        return "pay" if action.pay else "take"
    if isinstance(action, AnswerShield):
        return "shield" if action.raise_shield else "noshield"
    if type(action) not in _COMMANDS:
        raise ConstitutionDataError(f"no tracker command for {action!r}")
    verb, fields = _COMMANDS[type(action)]
    words = [verb]
    for field in fields:
        value = getattr(action, field)
        if isinstance(value, bool):
            words += [field] if value else []
        elif isinstance(value, tuple):
            words += value
        else:
            words.append(str(value))
    return " ".join(words)


def _prompt(combat: Combat) -> str:
    if combat.pending_direct_hit:
        return "direct hit — pay or take> "
    if combat.pending_shield:
        return "hit — shield or noshield> "
    if combat.phase == "round" and combat.acting:
        return f"{combat.get(combat.acting).name}'s turn> "
    return {"setup": "setup> ", "between_rounds": "between rounds> "}.get(combat.phase, "> ")


def step(
    combat: Combat, line: str, dice: DiceSource, options: Options = DEFAULT
) -> tuple[Combat, list[str]]:
    """Apply one tracker line through the session: the new fight and the lines to show.
    Errors change nothing."""
    scene = Scene(SESSION, ConstitutionTable(options=options, fight=combat))
    return play_line(scene, line, dice).fight, [e.text for e in scene.events]


def play_line(scene: Scene, line: str, dice: DiceSource) -> ConstitutionTable:
    """Play one tracker line at the scene's table (its party and its fight); the table after.
    A line the rules refuse part-way leaves the scene as it was."""
    before = (scene.state, scene.campaign, len(scene.events))
    try:
        for action in _actions(scene.state, line):
            if isinstance(action, JoinFight):
                scene.play(action, dice)
            else:
                scene.play(CombatIntent(action=action), dice)
    except TabletopError:
        scene.state, scene.campaign, count = before
        del scene.events[count:]
        raise
    table: ConstitutionTable = scene.state
    return table


def _actions(table: ConstitutionTable, line: str) -> list[BaseModel]:
    """The intents one line stands for: `init all` is one per combatant still waiting,
    `join NAME` brings in a party member."""
    words = line.split()
    if words and words[0].lower() == "join":
        return [_join(table, words[1:])]
    actions = parse_line(line)
    if actions != [_INIT_ALL]:
        return actions
    waiting = [
        c.id
        for c in table.fight.combatants
        if c.fighting and c.initiative is None and not c.henchman
    ]
    if not waiting:
        raise _Usage("everyone already has an initiative")
    return [RollInitiative(id=c) for c in waiting]


def _join(table: ConstitutionTable, words: list[str]) -> JoinFight:
    positional, pairs = _split(words)
    if len(positional) != 1 or set(pairs) - {"side", "ac"}:
        raise _Usage("usage: join NAME [side=S ac=N]")
    cid = character_id(table, positional[0])
    return JoinFight(
        character=cid,
        side=pairs.get("side", "party"),
        ac=_int(pairs.get("ac", "20"), "ac"),
    )


def load_combat(path: str | Path) -> Combat:
    """Read a fight saved by the tracker, refusing anything malformed."""
    text = read_text_file(path, ConstitutionDataError, MAX_SAVE_BYTES)
    try:
        data = parse_json(text)
    except ValueError as error:  # not JSON, or NaN, 1e400 or a number of thousands of digits
        raise ConstitutionDataError(f"{path} is not a saved fight: {str(error)[:120]}") from None
    return build(Combat, data)


class FightTracker:
    """The initiative tracker as the loop drives it: a fight of its own (saved as a fight
    file), or the fight at a campaign's table, where the party can `join` it."""

    verbs = VERBS
    overview = HELP

    def __init__(self, console: Console, dice: DiceSource, scene: Scene, path: Path | None) -> None:
        self.console, self.dice, self.scene, self.path = console, dice, scene, path

    @property
    def combat(self) -> Combat:
        fight: Combat = self.scene.state.fight
        return fight

    def prompt(self) -> str:
        return _prompt(self.combat)

    def names(self) -> list[str]:
        fighters = [c.id for c in self.combat.combatants]
        party = [seat.sheet.name for seat in self.scene.state.characters.values()]
        return [*fighters, *party, *_FLAGS]

    def play(self, line: str) -> None:
        verb = line.split()[0].lower()
        if verb == "status":
            self.console.print(status_table(self.combat))
            return
        if verb == "legal":
            for action in legal_actions(self.combat, self.scene.state.options):
                self.console.print(command_line(action), markup=False, highlight=False)
            return
        count = len(self.scene.events)
        play_line(self.scene, line, self.dice)
        for event in self.scene.events[count:]:
            self.console.print(event.text, markup=False, highlight=False)
        if len(self.scene.events) > count:
            self.console.print(status_table(self.combat))

    def snapshot(self) -> Any:
        return (self.scene.state, self.scene.campaign, len(self.scene.events))

    def restore(self, snapshot: Any) -> None:
        self.scene.state, self.scene.campaign, count = snapshot
        del self.scene.events[count:]

    def kept_in(self) -> Path | None:
        return self.scene.campaign_file or self.path

    def save(self, path: Path | None) -> str:
        if self.scene.campaign is not None and path is None:
            assert self.scene.campaign_file is not None
            write_campaign(self.scene.campaign_file, self.scene.campaign)
            return f"the fight is kept in {self.scene.campaign_file}"
        target = path or self.path
        if target is None:
            raise _Usage("usage: save FILE")
        write_text_file(target, self.combat.model_dump_json(indent=2), ConstitutionDataError)
        self.path = target
        return f"saved to {target}"

    def load(self, path: Path) -> None:
        if self.scene.campaign is not None:
            raise _Usage("a campaign's fight is its own: leave and start without --campaign")
        self.scene.state = self.scene.state.model_copy(update={"fight": load_combat(path)})
        self.path = path


def run_tracker(
    console: Console,
    dice: DiceSource,
    load: str | None = None,
    options: Options = DEFAULT,
    *,
    campaign: Path | None = None,
    save: Path | None = None,
    yes: bool = False,
) -> None:
    """Read commands until `quit` or the end of input, showing the fight after each change."""
    if campaign is not None:
        if load is not None:
            raise _Usage("--load and --campaign: a campaign keeps its own fight")
        scene = open_scene(SESSION, read_sheet, dice, campaign=campaign, required=False)
    else:
        combat = load_combat(load) if load else Combat()
        scene = Scene(SESSION, ConstitutionTable(options=options, fight=combat))
    tracker = FightTracker(console, dice, scene, save or (Path(load) if load else None))
    loop = Loop(console, tracker, yes=yes)
    console.print("[bold]3d6 Constitution combat tracker[/bold] — type [bold]help[/bold]")
    console.print(status_table(tracker.combat))
    loop.run()
