"""The terminal initiative tracker: a referee's commands turned into combat actions.

Each line is parsed into one action of `combat.py` and applied; anything wrong (a typo, an
illegal move, a bad number) prints one line and asks again, and the fight is unchanged.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable

from pydantic import BaseModel, ValidationError
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from tabletop.cli.local import play
from tabletop.data import parse_json, read_text_file, write_text_file
from tabletop.dice import DiceSource
from tabletop.errors import TabletopError
from tabletop.systems.constitution.combat import (
    Add,
    AnswerDirectHit,
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
    Tactical,
    legal_actions,
)
from tabletop.systems.constitution.errors import ConstitutionDataError
from tabletop.systems.constitution.models import build, describe
from tabletop.systems.constitution.options import DEFAULT, Options
from tabletop.systems.constitution.session import SESSION, CombatIntent, ConstitutionTable

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
  pay | take           (answer a direct hit)
  end [superior]       (end the acting combatant's turn; superior: −10 and go again)
between rounds
  reorient ID      spend ID COST [what]      cast ID SPELL
  round (next round)      force (force the bout on)      over (end the combat)
any time
  morale ID    leave ID [down|fled|dead]    status    legal    save FILE    help    quit"""
"""The tracker's commands. Plain text: the brackets are part of it, not Rich markup; the
lines that start at the margin are section titles."""


def print_help(console: Console) -> None:
    """Show `HELP`, section titles in bold, everything else exactly as written."""
    for line in HELP.splitlines():
        console.print(line, markup=False, highlight=False, style="" if line[:1] == " " else "bold")


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
            f"unknown detail(s) {', '.join(sorted(unknown))}; try: {', '.join(_STAT_KEYS)}"
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
        raise _Usage(f"unknown attack option(s) {', '.join(sorted(bad))}")
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
    "losetrack": _one("losetrack SHOOTER", lambda i: LoseTrack(shooter=i)),
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
    if combat.phase == "round" and combat.acting:
        return f"{combat.get(combat.acting).name}'s turn> "
    return {"setup": "setup> ", "between_rounds": "between rounds> "}.get(combat.phase, "> ")


def step(
    combat: Combat, line: str, dice: DiceSource, options: Options = DEFAULT
) -> tuple[Combat, list[str]]:
    """Apply one tracker line through the session: the new fight and the lines to show.
    Errors change nothing."""
    table = ConstitutionTable(options=options, fight=combat)
    messages: list[str] = []
    for action in parse_line(line):
        if action is _INIT_ALL:
            waiting = [
                c.id
                for c in table.fight.combatants
                if c.fighting and c.initiative is None and not c.henchman
            ]
            if not waiting:
                raise _Usage("everyone already has an initiative")
            chosen: list[BaseModel] = [RollInitiative(id=c) for c in waiting]
        else:
            chosen = [action]
        for each in chosen:
            table, events = play(SESSION, table, CombatIntent(action=each), dice)
            messages += [e.text for e in events]
    return table.fight, messages


def _save(combat: Combat, path: str) -> str:
    if not path:
        raise _Usage("usage: save FILE")
    write_text_file(path, combat.model_dump_json(indent=2), ConstitutionDataError)
    return f"saved to {path}"


def load_combat(path: str) -> Combat:
    """Read a fight saved by the tracker, refusing anything malformed."""
    text = read_text_file(path, ConstitutionDataError, MAX_SAVE_BYTES)
    try:
        data = parse_json(text)
    except ValueError as error:  # not JSON, or NaN, 1e400 or a number of thousands of digits
        raise ConstitutionDataError(f"{path} is not a saved fight: {str(error)[:120]}") from None
    return build(Combat, data)


def run_tracker(
    console: Console, dice: DiceSource, load: str | None = None, options: Options = DEFAULT
) -> None:
    """Read commands until `quit` or the end of input, showing the fight after each change."""
    combat = load_combat(load) if load else Combat()
    console.print("[bold]3d6 Constitution combat tracker[/bold] — type [bold]help[/bold]")
    console.print(status_table(combat))
    while True:
        try:
            line = console.input(_prompt(combat)).strip()
        except (EOFError, KeyboardInterrupt):
            console.print()
            return
        command = line.split(" ", 1)[0].lower() if line else ""
        if command in ("quit", "exit"):
            return
        if command in ("help", "?"):
            print_help(console)
            continue
        try:
            if command == "status":
                console.print(status_table(combat))
                continue
            if command == "legal":
                for action in legal_actions(combat, options):
                    console.print(command_line(action), markup=False, highlight=False)
                continue
            if command == "save":
                console.print(_save(combat, line.split(" ", 1)[1].strip() if " " in line else ""))
                continue
            combat, messages = step(combat, line, dice, options)
        except (TabletopError, OSError) as error:
            console.print(f"[red]{escape(str(error))}[/red]", markup=True, highlight=False)
            continue
        for message in messages:
            console.print(message, markup=False, highlight=False)
        if messages:
            console.print(status_table(combat))
