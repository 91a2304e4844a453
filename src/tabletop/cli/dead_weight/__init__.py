"""`tabletop dead-weight …`: characters, the interactive test with the advisor, odds,
tables, usage and risk dice."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.rule import Rule

from tabletop.cli import tables
from tabletop.cli.dead_weight import recovery
from tabletop.cli.dead_weight.render import advice_table, describe, dice_line, odds_table, sheet
from tabletop.cli.local import play
from tabletop.cli.options import Json, Seed, add_rule_options, rule_options, whole_number
from tabletop.cli.output import console, notes, print_json, print_roll
from tabletop.cli.scene import (
    CampaignFile,
    CharacterFile,
    DryRun,
    Out,
    Who,
    open_scene,
    save_sheet,
    show_sheet,
)
from tabletop.dice import DiceSource, dice_source
from tabletop.errors import InputEndedError, TabletopError
from tabletop.session import MAX_NAME, Event, ImportCharacter
from tabletop.systems.dead_weight.attribute_test import (
    MAX_ANNOUNCED_REROLLS,
    MAX_POOL,
    AttributeTest,
    DauntlessRoll,
    Help,
    Pass,
    Reroll,
    Side,
    TestSetup,
    announce_test,
)
from tabletop.systems.dead_weight.attributes import Attribute
from tabletop.systems.dead_weight.catalogue import Affliction
from tabletop.systems.dead_weight.character import (
    Attributes,
    Character,
    CharacterClass,
    read_sheet,
    sheet_from,
)
from tabletop.systems.dead_weight.creation import (
    AnyChoice,
    Creation,
    Keep,
    Pick,
    PickAttribute,
    PickClass,
    PickNames,
    RerollDice,
    Skip,
)
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.guide import option_text, rolled_text
from tabletop.systems.dead_weight.odds import advise, pool_odds, spec_for
from tabletop.systems.dead_weight.options import Options
from tabletop.systems.dead_weight.session import SESSION
from tabletop.systems.dead_weight.solver import CANONICAL, CAUTIOUS, solve
from tabletop.systems.dead_weight.supplements import Supplement, load_supplement
from tabletop.systems.dead_weight.table import DeadWeightTable
from tabletop.systems.dead_weight.table_characters import CreationStep
from tabletop.systems.dead_weight.table_tests import Test
from tabletop.systems.dead_weight.tables import TABLES, system_table
from tabletop.systems.dead_weight.trackers import MAX_RISK_DICE, UsageDie, risk
from tabletop.words import counted

app = typer.Typer(
    help="Dead Weight: characters, tests with an exact re-roll advisor, odds, tables.",
    no_args_is_help=True,
)
character_app = typer.Typer(help="Make and show characters.", no_args_is_help=True)
table_app = typer.Typer(help="Dead Weight's random tables.", no_args_is_help=True)
add_rule_options(app, Options, "Dead Weight.")
app.add_typer(character_app, name="character")
app.add_typer(table_app, name="table")
for _verb, _command in recovery.COMMANDS.items():
    app.command(_verb)(_command)

MIN_POOL = 2 - MAX_POOL


# characters ------------------------------------------------------------------------------


@character_app.command("new")
def character_new(
    character_class: Annotated[
        CharacterClass | None, typer.Option("--class", help="The class (random if not given).")
    ] = None,
    name: Annotated[
        str | None,
        typer.Option("--name", help="The character's name (--guided asks for it)."),
    ] = None,
    seed: Seed = None,
    json_out: Json = False,
    out: Out = None,
    supplement: Annotated[
        Path | None,
        typer.Option("--supplement", help="Backgrounds, spells, gods, items you supply (TOML)."),
    ] = None,
    guided: Annotated[
        bool, typer.Option("--guided", help="Make every choice yourself, step by step.")
    ] = False,
    show_steps: Annotated[bool, typer.Option("--steps", help="Show every roll and step.")] = False,
) -> None:
    """Make a character: random (seeded) by default, or guided with --guided."""
    extra = load_supplement(supplement) if supplement else Supplement()
    dice = dice_source(seed)
    show = notes if json_out else console
    if name is None:
        name = _ask_name(show) if guided else "Unnamed"
    asked = {
        "kind": "new-character",
        "name": name,
        "character_class": character_class,
        "guided": guided,
        "supplement": extra.model_dump(mode="json"),
        "allow_choosing_quirk": guided,
    }
    table, events = play(SESSION, SESSION.new(), asked, dice)
    if guided:
        _narrate(show, events)
        table, more = _guided(show, table, dice)
        events += more
    seat = table.characters["c1"]
    character = seat.sheet
    if out is not None:
        save_sheet(out, character)
    if json_out:
        print_json(
            {
                "character": character.model_dump(mode="json"),
                "missing": list(seat.missing),
                "events": [{"kind": e.type, "text": e.text, "data": e.data} for e in events],
            }
        )
        return
    if show_steps and not guided:
        for line in events:
            console.print(f"[dim]{escape(line.text)}[/dim]")
    console.print(sheet(character))
    for line in seat.missing:
        console.print(f"[yellow]not in the core book:[/yellow] {escape(line)}")
    if out is not None:
        console.print(f"saved to {escape(str(out))}")


@character_app.command("show")
def character_show(
    file: Annotated[Path, typer.Argument(help="A character sheet saved as JSON.")],
    json_out: Json = False,
) -> None:
    """Show a saved character sheet (it is checked as it is read)."""
    show_sheet(read_sheet(file), sheet, json_out)


def _guided(
    show: Console, table: DeadWeightTable, dice: DiceSource
) -> tuple[DeadWeightTable, list[Event]]:
    """Ask for each creation decision until the character is made."""
    events: list[Event] = []
    while "c1" in table.making:
        creation = table.making["c1"].creation
        decision = creation.decision()
        assert decision is not None
        show.print(f"\n[bold]{escape(decision.prompt)}[/bold]")
        if "keep" in decision.kinds:
            show.print(f"  {escape(rolled_text(creation))}")
        for number, option in enumerate(decision.options, start=1):
            show.print(f"  {number}. {escape(option_text(creation, option))}")
        if decision.free_names:
            show.print("  (nothing was supplied to choose from: write the names, or skip)")
        answer = _read(show, _hint(creation), "the character is not finished")
        try:
            step = CreationStep(character="c1", choice=_parse(answer, creation))
            table, more = play(SESSION, table, step, dice)
        except (TabletopError, ValueError) as error:
            show.print(f"[red]{escape(str(error))}[/red]")
            continue
        events += more
        _narrate(show, more)
    return table, events


def _ask_name(show: Console) -> str:
    """The character's name, asked first: guided creation leaves no choice to chance."""
    while True:
        name = _read(show, "the character's name", "the character is not begun").strip()
        if 0 < len(name) <= MAX_NAME:
            return name
        show.print(f"[red]a name is 1 to {MAX_NAME} characters[/red]")


def _read(show: Console, prompt: str, unfinished: str) -> str:
    """One line typed at `prompt` (shown on `show`); the end of the input is an error."""
    try:
        return show.input(f"{escape(prompt)}: ")
    except EOFError:
        show.print()  # end the prompt's line
        raise InputEndedError(f"the input ended: {unfinished}, and nothing was saved") from None


def _hint(creation: Creation) -> str:
    decision = creation.decision()
    assert decision is not None
    hints = {
        "keep": "k to keep",
        "reroll": "r 1 2 to re-roll dice 1 and 2 with insight (f 1 2: the party's free re-roll)",
        "attribute": "an attribute (STR, DEX, INT, PRE)",
        "class": "a class",
        "pick": "a number or a name",
        "names": f"{counted(decision.count, 'name')}, separated by commas",
        "skip": "skip",
    }
    return "; ".join(hints[kind] for kind in decision.kinds)


def _parse(answer: str, creation: Creation) -> AnyChoice:
    decision = creation.decision()
    assert decision is not None
    text = answer.strip()
    words = text.split()
    if text.lower() == "skip" and "skip" in decision.kinds:
        return Skip()
    if "keep" in decision.kinds:
        if not words or words[0].lower() == "k":
            return Keep()
        if words[0].lower() in ("r", "f"):
            size = len(creation.dice)
            numbers = [whole_number(w) or 0 for w in words[1:]]
            if not all(1 <= number <= size for number in numbers):
                raise ValueError(f"dice are numbered 1 to {size}")
            free = words[0].lower() == "f"
            return RerollDice(dice=tuple(number - 1 for number in numbers), free=free)
    if "attribute" in decision.kinds:
        return PickAttribute(attribute=Attribute.named(text))
    if "class" in decision.kinds:
        return PickClass(character_class=CharacterClass(_option(text, decision.options)))
    if "pick" in decision.kinds:
        return Pick(name=_option(text, decision.options))
    if "names" in decision.kinds:
        return PickNames(names=tuple(n.strip() for n in text.split(",") if n.strip()))
    raise ValueError(f"not understood: {text!r}")


def _option(text: str, options: tuple[str, ...]) -> str:
    number = whole_number(text) or 0
    return options[number - 1] if 1 <= number <= len(options) else text


# the test ------------------------------------------------------------------------------


@app.command("test")
def test_command(
    ctx: typer.Context,
    attribute: Annotated[str, typer.Argument(help="STR, DEX, INT or PRE.")],
    character: CharacterFile = None,
    campaign: CampaignFile = None,
    who: Who = None,
    helper: Annotated[
        list[str] | None,
        typer.Option(
            "--helper",
            help="A character who helps (a sheet file, or a party member of --campaign); up to 3.",
        ),
    ] = None,
    helper_effort: Annotated[
        list[str] | None,
        typer.Option(
            "--helper-effort", help="A helper who goes for extra effort: two dice, a fatigue."
        ),
    ] = None,
    score: Annotated[int, typer.Option("--score", min=0, max=MAX_POOL)] = 3,
    proficiency: Annotated[
        int, typer.Option("--proficiency", min=0, max=MAX_ANNOUNCED_REROLLS)
    ] = 0,
    fatigue: Annotated[int, typer.Option("--fatigue", min=0, max=MAX_POOL)] = 0,
    wounds: Annotated[int, typer.Option("--wounds", min=0, max=MAX_POOL)] = 0,
    check: Annotated[
        bool, typer.Option("--check", help="A check: no fatigue from the dice.")
    ] = False,
    keep_safe: Annotated[
        bool, typer.Option("--keep-safe", help="Keep it safe: two dice fewer.")
    ] = False,
    extra_effort: Annotated[
        bool, typer.Option("--extra-effort", help="Pay a fatigue now for one more die.")
    ] = False,
    advantage: Annotated[int, typer.Option("--advantage", min=0, max=MAX_ANNOUNCED_REROLLS)] = 0,
    disadvantage: Annotated[
        int, typer.Option("--disadvantage", min=0, max=MAX_ANNOUNCED_REROLLS)
    ] = 0,
    terrified: Annotated[bool, typer.Option("--terrified")] = False,
    hopeless: Annotated[bool, typer.Option("--hopeless")] = False,
    angry: Annotated[bool, typer.Option("--angry")] = False,
    dice_count: Annotated[
        int | None, typer.Option("--dice", min=0, max=MAX_POOL, help="Roll fewer dice (0: none).")
    ] = None,
    gm: Annotated[
        str, typer.Option("--gm", help="Who plays the GM's re-rolls: bot (the advice) or you.")
    ] = "bot",
    auto: Annotated[
        bool, typer.Option("--auto", help="Take the advised choice every time.")
    ] = False,
    dry_run: DryRun = False,
    seed: Seed = None,
    json_out: Json = False,
) -> None:
    """Play a test: re-roll one die at a time, with the exact odds of every choice.

    With --character (and any --helper sheets) the test runs on the saved sheets and writes
    them back, fatigue and all; with --campaign it is played at the campaign's table."""
    if gm not in ("bot", "you"):
        raise DeadWeightError("--gm is bot or you")
    chosen = Attribute.named(attribute)
    dice = dice_source(seed)
    options = rule_options(ctx, Options)
    scene = open_scene(
        SESSION,
        read_sheet,
        dice,
        character=character,
        campaign=campaign,
        who=who,
        options=options,
        required=False,
    )
    if scene.character is None:
        if campaign is not None:
            raise DeadWeightError("--campaign needs --who: which party member tests?")
        if helper or helper_effort:
            raise DeadWeightError("helpers help a saved character: give --character or --campaign")
        ad_hoc = _ad_hoc(chosen, score, proficiency, fatigue, wounds, terrified, hopeless, angry)
        scene.play(ImportCharacter(sheet=ad_hoc.model_dump(mode="json")), dice)
        scene.character = next(iter(scene.state.characters))
    helpers = [scene.join(h, read_sheet, dice) for h in [*(helper or []), *(helper_effort or [])]]
    effort = helpers[len(helper or []) :]
    roller = scene.sheet
    options = scene.state.options
    setup = TestSetup(
        attribute=chosen,
        check=check,
        keep_it_safe=keep_safe,
        extra_effort=extra_effort,
        advantage=advantage,
        disadvantage=disadvantage,
        dice=dice_count,
    )
    show = notes if json_out else console
    helps = [
        Help(helper=scene.state.characters[h].sheet, extra_effort=h in effort) for h in helpers
    ]
    announced, _ = announce_test(roller, setup, helps, options=options)
    if announced.automatic is None:
        solve(spec_for(announced))  # refuse, before any die is thrown, what advice cannot weigh
    test_intent = Test(
        roller=scene.character or "",
        setup=setup,
        helpers=tuple(helpers),
        helper_effort=tuple(effort),
    )
    events = scene.play(test_intent, dice)
    _narrate(show, events)
    while not scene.state.exchange.finished:
        test = scene.state.exchange.open_test
        show.print(dice_line(test))
        advice = advise(test)
        show.print(advice_table(advice, test))
        bot = auto or (test.deciding == Side.GM and gm == "bot")
        choice = advice.best if bot else _ask(show, advice, test)
        if bot:
            show.print(f"{test.deciding} chooses: {escape(describe(choice, test))}")
        more = scene.play(choice, dice)
        events += more
        _narrate(show, more)
    test = scene.state.exchange.open_test
    kept = scene.keep(dry_run) if scene.sheet_files or scene.campaign else None
    if json_out:
        print_json(
            {
                "outcome": test.verdict.value if test.verdict else None,
                "fatigue": test.fatigue,
                "faces": list(test.faces()),
                "test": test.model_dump(mode="json"),
                "events": [{"kind": e.type, "text": e.text, "data": e.data} for e in events],
            }
        )
        return
    verdict = test.verdict.value if test.verdict else "?"
    cost = ", one fatigue point" if test.fatigue else ", no fatigue"
    show.print(f"[bold]{verdict}[/bold]{cost}")
    if kept:
        show.print(f"[dim]{escape(kept)}[/dim]")


def _ad_hoc(
    attribute: Attribute,
    score: int,
    proficiency: int,
    fatigue: int,
    wounds: int,
    terrified: bool,
    hopeless: bool,
    angry: bool,
) -> Character:
    afflictions = [
        a
        for a, on in (
            (Affliction.TERRIFIED, terrified),
            (Affliction.HOPELESS, hopeless),
            (Affliction.ANGRY, angry),
        )
        if on
    ]
    state: dict[str, Any] = {
        "score": score,
        "proficiency": proficiency,
        "fatigue": fatigue,
        "wounds": wounds,
    }
    attributes = Attributes().model_dump()
    attributes[attribute.value] = state
    return sheet_from({"attributes": attributes, "afflictions": afflictions})


def _ask(show: Console, advice: Any, test: AttributeTest) -> Reroll | Pass | DauntlessRoll:
    best = next(n for n, (c, _) in enumerate(advice.options, start=1) if c == advice.best)
    while True:
        prompt = f"{test.deciding}, your choice [{best}]"
        answer = _read(show, prompt, "the test is not finished").strip() or str(best)
        number = whole_number(answer) or 0
        if 1 <= number <= len(advice.options):
            choice: Reroll | Pass | DauntlessRoll = advice.options[number - 1][0]
            return choice
        show.print(f"[red]choose 1 to {len(advice.options)}[/red]")


def _narrate(show: Console, events: list[Event]) -> None:
    for line in events:
        if line.type == "pass" and not line.data.get("forced"):
            continue
        show.print(f"[dim]{escape(line.text)}[/dim]")


# odds ------------------------------------------------------------------------------------


@app.command("odds")
def odds_command(
    dice: Annotated[
        int,
        typer.Option(
            "--dice",
            min=MIN_POOL,
            max=MAX_POOL,
            help="Pool after modifiers (0 or less: zero dice).",
        ),
    ],
    proficiency: Annotated[int, typer.Option("--proficiency", min=0, max=6)] = 0,
    advantage: Annotated[int, typer.Option("--advantage", min=0, max=6)] = 0,
    disadvantage: Annotated[int, typer.Option("--disadvantage", min=0, max=6)] = 0,
    terrified: Annotated[bool, typer.Option("--terrified")] = False,
    hopeless: Annotated[bool, typer.Option("--hopeless")] = False,
    check: Annotated[bool, typer.Option("--check")] = False,
    keep_safe: Annotated[
        bool, typer.Option("--keep-safe", help="Fatigue only on a failure.")
    ] = False,
    extra_effort: Annotated[
        bool, typer.Option("--extra-effort", help="The fatigue is already paid.")
    ] = False,
    dauntless: Annotated[bool, typer.Option("--dauntless")] = False,
    cautious: Annotated[
        bool, typer.Option("--cautious", help="Policy: least fatigue before great successes.")
    ] = False,
    json_out: Json = False,
) -> None:
    """Exact odds of a test under the canonical re-roll policy (player first, then the GM)."""
    odds = pool_odds(
        dice,
        proficiency,
        advantage,
        disadvantage,
        terrified=terrified,
        hopeless=hopeless,
        check=check,
        keep_safe=keep_safe,
        extra_effort=extra_effort,
        dauntless=dauntless,
        key=CAUTIOUS if cautious else CANONICAL,
    )
    if json_out:
        print_json(odds.to_json())
        return
    console.print(odds_table(odds, f"a test of {dice} dice"))


# tables, usage and risk dice -------------------------------------------------------------


@table_app.command("roll")
def table_roll(
    name: Annotated[str, typer.Argument(help=f"One of: {', '.join(TABLES)}.")],
    modifier: Annotated[int, typer.Option("--modifier", "-m", help="Add to the roll.")] = 0,
    seed: Seed = None,
    json_out: Json = False,
) -> None:
    """Roll on one of Dead Weight's tables (the same as `tabletop table roll dead-weight/NAME`)."""
    system_table(name)  # refuses a name that is not Dead Weight's
    tables.roll_table(f"dead-weight/{name}", seed=seed, modifier=modifier, json=json_out)


@table_app.command("list")
def table_list() -> None:
    """List Dead Weight's tables."""
    for name in TABLES:
        table = system_table(name)
        console.print(f"{name}  [dim]{table.dice}, {escape(table.title)}[/dim]")


@app.command("usage")
def usage_command(
    die: Annotated[str, typer.Argument(help="The usage die: d4, d6, d8, d10, d12 or d20.")],
    seed: Seed = None,
    json_out: Json = False,
) -> None:
    """Roll a usage die: on a 1 or 2 it steps down (a d4 is used up)."""
    size = die.lower().removeprefix("u").removeprefix("d")
    if not size.isdigit():
        raise DeadWeightError(f"a usage die is written d4, d6, d8, d10, d12 or d20, not {die!r}")
    try:
        usage = UsageDie(size=int(size))
    except ValueError:
        raise DeadWeightError(
            f"a usage die is a d4, d6, d8, d10, d12 or d20, not {die!r}"
        ) from None
    after, rolled = usage.use(dice_source(seed))
    if json_out:
        print_json({**rolled.to_json(), "after": f"Ud{after.size}" if after else None})
        return
    print_roll(rolled)
    console.print(f"now {after}" if after else "[bold]used up[/bold]: that was the last one")


@app.command("risk")
def risk_command(
    count: Annotated[int, typer.Argument(min=1, max=MAX_RISK_DICE, help="How many risk dice.")],
    seed: Seed = None,
    json_out: Json = False,
) -> None:
    """Roll risk dice: the thing happens if any d6 shows a 1."""
    happens, rolled = risk(count, dice_source(seed))
    if json_out:
        print_json({**rolled.to_json(), "triggered": happens})
        return
    print_roll(rolled)
    console.print(
        "[bold red]it happens[/bold red]" if happens else "[green]it does not happen[/green]"
    )


def showcase(seed: int) -> None:
    """A short, seeded tour for `tabletop showcase`: a test played with the advice."""
    console.print(Rule("Dead Weight: a test re-rolled with the exact odds of every choice"))
    dice = dice_source(seed)
    made = {"kind": "new-character", "name": "Amber", "character_class": CharacterClass.THIEF}
    table, _ = play(SESSION, SESSION.new(), made, dice)
    dexterity = table.characters["c1"].sheet.attribute(Attribute.DEX)
    console.print(
        f"Amber, a thief with DEX {dexterity.score} and {dexterity.proficiency} proficiency, "
        "climbs down a rope; the GM gives the test a disadvantage."
    )
    setup = TestSetup(attribute=Attribute.DEX, disadvantage=1)
    table, events = play(SESSION, table, Test(roller="c1", setup=setup), dice)
    _narrate(console, events)
    assert table.exchange is not None
    while not table.exchange.finished:
        test = table.exchange.open_test
        advice = advise(test)
        console.print(dice_line(test))
        console.print(advice_table(advice, test))
        table, more = play(SESSION, table, advice.best, dice)
        _narrate(console, more)
    test = table.exchange.open_test
    verdict = test.verdict.value if test.verdict else "?"
    console.print(f"[bold]{verdict}[/bold]" + (", one fatigue point" if test.fatigue else ""))
    console.print(
        odds_table(pool_odds(dexterity.score, dexterity.proficiency, 0, 1), "before the throw")
    )
