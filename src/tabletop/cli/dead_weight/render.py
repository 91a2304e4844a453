"""Rich renderings for the command line: the character sheet, odds, and a test's choices."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Group
from rich.markup import escape
from rich.table import Table

from tabletop.cli.output import percent
from tabletop.systems.dead_weight.attribute_test import (
    AttributeTest,
    DauntlessRoll,
    Pass,
    Reroll,
)
from tabletop.systems.dead_weight.attributes import Attribute
from tabletop.systems.dead_weight.character import Character
from tabletop.systems.dead_weight.inventory import Item, carrying_capacity
from tabletop.systems.dead_weight.odds import Advice, TestOdds
from tabletop.words import counted


def sheet(character: Character) -> Group:
    """The character sheet as Rich renderables."""
    c = character
    title = f"[bold]{escape(c.name)}[/bold]" + (
        f", {c.character_class}" if c.character_class else ""
    )
    attributes = Table(title=title, title_justify="left", show_edge=False)
    for column in ("attribute", "score", "proficiency", "fatigue", "wounds", "available"):
        attributes.add_column(column, justify="left" if column == "attribute" else "right")
    for attribute in Attribute:
        state = c.attribute(attribute)
        attributes.add_row(
            f"{attribute.full_name} ({attribute})",
            str(state.score),
            str(state.proficiency),
            str(state.fatigue),
            str(state.wounds),
            str(state.available),
        )
    lines = [
        _line("life path", [v for v in c.life_path.model_dump().values() if v]),
        _line("skills", c.skills),
        _line("special traits", c.traits),
        _line("traumas", c.traumas),
        _line("afflictions", c.afflictions),
        _line("quirks", [q.name for q in c.quirks]),
        _line("background", [c.background] if c.background else []),
        _line("maneuvers", c.maneuvers),
        _line("school", [c.school] if c.school else []),
        _line("kit", [c.cleric_kit] if c.cleric_kit else []),
        _line("god", [c.god] if c.god else []),
        _line("spells known", c.magic.spells_known),
        _line("spells memorised", c.magic.spells_memorised),
        _line("spells forgotten", c.magic.spells_forgotten),
        _line("prayers known", c.magic.prayers_known),
        _line("prayers memorised", c.magic.prayers_memorised),
        _line("prayers exhausted", c.magic.prayers_exhausted),
        _line("magic", _magic_state(c)),
        f"silver {c.silver}, gold {c.gold}, insight {c.insight}",
        _line("counters", _counters(c)),
    ]
    inventory = Table(title="trappings", title_justify="left", show_edge=False)
    inventory.add_column("place")
    inventory.add_column("slots", justify="right")
    inventory.add_column("items")
    for place in c.inventory.places:
        items = ", ".join(_item(item) for item in place.items)
        inventory.add_row(str(place.kind), f"{place.used}/{place.kind.capacity}", escape(items))
    if c.inventory.loose:
        inventory.add_row("no slot", "", escape(", ".join(i.name for i in c.inventory.loose)))
    if c.inventory.overflow:
        inventory.add_row("no room", "", escape(", ".join(_item(i) for i in c.inventory.overflow)))
    capacity = carrying_capacity(c.attributes.STR.score)
    carried = f"carrying {c.inventory.slots_carried} of {capacity} slots"
    parts = [attributes, *(line for line in lines if line), inventory, carried]
    parts += [f"[yellow]note:[/yellow] {escape(w)}" for w in c.warnings()]
    if not c.condition.can_act:
        parts.append(f"[red]condition:[/red] {escape(_condition(c))}")
    return Group(*parts)


def _magic_state(c: Character) -> list[str]:
    """What the caster's last spells and prayers left behind."""
    magic = c.magic
    found = ["an arcane well: the next spell is automatic"] if magic.arcane_well else []
    if magic.god_angry:
        found.append("the god is angry until a sacrifice")
    if magic.desperate_plea_used:
        found.append("the desperate plea is spent")
    return found


def _counters(c: Character) -> list[str]:
    """The expedition's and the session's running counts, and tokens in hand."""
    counts = [
        (c.magic.mishaps, "spell mishap"),
        (c.expedition.mortal_wounds, "mortal wound"),
        (c.tokens.stun, "stun token"),
        (c.tokens.shield, "shield token"),
        (c.tokens.dodge, "dodge token"),
    ]
    found = [counted(count, what) for count, what in counts if count]
    if c.condition.blind_turns:
        found.append(f"blind for {counted(c.condition.blind_turns, 'more exploration turn')}")
    if c.expedition.had_coffee:
        found.append("had coffee")
    if c.expedition.burden_used_this_session:
        found.append("burden used this session")
    return found


def _line(label: str, values: Iterable[object]) -> str:
    items = [str(v) for v in values]
    return f"[bold]{label}:[/bold] {escape(', '.join(items))}" if items else ""


def _item(item: Item) -> str:
    extras = []
    if item.weapon:
        extras.append(item.weapon)
    if item.armour:
        extras.append(", ".join(f"{p.points}/{p.maximum}" for p in item.armour) + " AP")
    if item.usage:
        extras.append(f"Ud{item.usage}")
    extras += [tag.value for tag in item.tags]
    return item.name + (f" ({'; '.join(extras)})" if extras else "")


def _condition(c: Character) -> str:
    if c.condition.dead:
        return "dead"
    if c.condition.mortally_wounded:
        return "mortally wounded" + (
            ", on the verge of death" if c.condition.verge_of_death else ""
        )
    return f"fainted ({counted(c.condition.faint_turns, 'turn')} before the wake roll)"


def odds_table(odds: TestOdds, title: str) -> Table:
    table = Table(title=title, title_justify="left", show_edge=False)
    table.add_column("outcome")
    table.add_column("chance", justify="right")
    table.add_column("exactly", justify="right", style="dim")
    for label, value in (
        ("critical failure", odds.critical_failure),
        ("failure", odds.failure),
        ("success", odds.success),
        ("great success", odds.great_success),
        ("fatigue", odds.fatigue),
    ):
        table.add_row(label, percent(float(value)), f"{value.numerator}/{value.denominator}")
    return table


def describe(choice: Reroll | Pass | DauntlessRoll, test: AttributeTest) -> str:
    """A choice in words a player reads at the table."""
    if isinstance(choice, Pass):
        return "pass"
    if isinstance(choice, DauntlessRoll):
        return "add the two Dauntless dice" if choice.roll else "keep the result"
    die = test.dice[choice.die]
    whose = "" if die.owner == 0 else f" ({test.helpers[die.owner - 1].helper.label}'s)"
    return f"re-roll die {choice.die + 1}{whose} showing {die.face}, with {choice.resource}"


def advice_table(advice: Advice, test: AttributeTest) -> Table:
    """Each choice with its exact odds; the canonical policy's best is starred."""
    table = Table(title=f"{advice.side}'s choice", title_justify="left", show_edge=False)
    for column in ("#", "choice", "success", "great", "fatigue", "critical"):
        table.add_column(column, justify="left" if column == "choice" else "right")
    for number, (choice, odds) in enumerate(advice.options, start=1):
        star = " [green]★[/green]" if choice == advice.best else ""
        table.add_row(
            str(number),
            escape(describe(choice, test)) + star,
            percent(float(odds.any_success)),
            percent(float(odds.great_success)),
            percent(float(odds.fatigue)),
            percent(float(odds.critical_failure)),
        )
    return table


def dice_line(test: AttributeTest) -> str:
    own = " ".join(f"[bold]{d.face}[/bold]" for d in test.dice if d.owner == 0)
    parts = [f"dice: {own}" + (" (the lowest counts)" if test.take_lowest else "")]
    for owner, help in enumerate(test.helpers, start=1):
        faces = " ".join(str(d.face) for d in test.dice if d.owner == owner)
        parts.append(f"{escape(help.helper.label)}: {faces}")
    budgets = test.budgets
    left = (
        f"proficiency {budgets.proficiency}, advantage {budgets.advantage}, "
        f"disadvantage {budgets.disadvantage}"
    )
    return "   ".join(parts) + f"   [dim]({left} left)[/dim]"
