"""`tabletop deadweight-board play|simulate|replay|report`: the board game at the terminal."""

from __future__ import annotations

import io
import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, TextIO

import typer
from rich.console import Console, Group
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from tabletop.cli.deadweight_board.render import (
    board_view,
    choice_label,
    event_text,
    player_text,
)
from tabletop.cli.options import add_rule_options, read_rule_options, rule_options, whole_number
from tabletop.cli.output import console, notes, percent, print_json
from tabletop.data import written_atomically
from tabletop.dice import dice_source
from tabletop.errors import InputEndedError
from tabletop.games.deadweight_board.bots import make_bot
from tabletop.games.deadweight_board.config import DeadweightConfig, default_config, load_config
from tabletop.games.deadweight_board.errors import ConfigError
from tabletop.games.deadweight_board.log import replay as replay_log
from tabletop.games.deadweight_board.observe import TABLE
from tabletop.games.deadweight_board.report import (
    NOT_ANSWERED,
    Section,
    balance_sections,
    compare_sections,
    save_comparison_plots,
    save_plots,
    save_tables,
    turn_cap_section,
)
from tabletop.games.deadweight_board.rules import apply_in_place, legal_actions, roll_chance
from tabletop.games.deadweight_board.setup import new_game
from tabletop.games.deadweight_board.simulate import (
    MAX_GAMES,
    GameRecord,
    Summary,
    plan_run,
    play_game,
    run_games,
)
from tabletop.games.deadweight_board.state import CHANCE, COLOURS, MOVE, OVER, State
from tabletop.words import counted

app = typer.Typer(
    help="Deadweight, the board game: play bots, simulate, replay logs, balance reports.",
    no_args_is_help=True,
)
add_rule_options(app, DeadweightConfig, "Deadweight, the board game.")

HUMANS = ("you", "human")
SEATS_HELP = (
    "Comma-separated seats in turn order: you, random, greedy, mcts, "
    "mcts:N (simulations per decision), mcts:Ts (seconds per decision)."
)
Config = Annotated[
    Path | None,
    typer.Option(help="A TOML or JSON file of rule options (docs/rules/deadweight-board.md)."),
]
Seed = Annotated[int, typer.Option(help="Seed for reproducible dice and bots.")]
Jobs = Annotated[int, typer.Option(help="Processes to use; 0 uses every core.")]
Json = Annotated[bool, typer.Option("--json", help="Print the results as JSON.")]
Backend = Annotated[
    str,
    typer.Option(help="Where games run: local (processes here, see --jobs) or ray."),
]
Address = Annotated[
    str | None,
    typer.Option(help="With --backend ray: a running Ray cluster's address (default: start one)."),
]
BACKENDS = ("local", "ray")


def _config(ctx: typer.Context, path: Path | None) -> DeadweightConfig:
    """The config file's readings (the defaults without one), with any `--option` over them."""
    return rule_options(ctx, DeadweightConfig, load_config(path) if path else default_config())


def _seat_list(seats: str) -> list[str]:
    names = [name.strip().lower() for name in seats.split(",") if name.strip()]
    if not names:
        raise ConfigError("--seats names no seats")
    return names


# --- play ----------------------------------------------------------------------------------


@app.command()
def play(
    ctx: typer.Context,
    seats: Annotated[str, typer.Option(help=SEATS_HELP)] = "you,greedy,mcts",
    config: Config = None,
    seed: Annotated[int | None, typer.Option(help="Seed for reproducible dice and bots.")] = None,
    as_json: Json = False,
) -> None:
    """Play a game at the terminal: you choose from the legal moves, bots take the other seats.
    Answers may be piped in, one a line; with --json the game is told on standard error and
    standard output holds only the result."""
    names = _seat_list(seats)
    if not 2 <= len(names) <= 4:
        raise ConfigError("Deadweight is for 2 to 4 players: give 2 to 4 seats")
    rules_config = _config(ctx, config)
    dice = dice_source(seed)
    state = new_game(len(names), rules_config, dice)
    state.events = []
    bots = {
        seat: make_bot(name, (seed or 0) * 31 + seat)
        for seat, name in enumerate(names)
        if name not in HUMANS
    }
    out = notes if as_json else console
    for seat, name in enumerate(names):
        line = player_text(seat)
        line.append(f": {'you' if name in HUMANS else name}")
        out.print(line)
    humans = [seat for seat, name in enumerate(names) if name in HUMANS]
    viewer = humans[0] if len(humans) == 1 else TABLE
    out.print(board_view(state, viewer))
    shown = 0
    while state.phase != OVER:
        if state.phase == CHANCE:
            apply_in_place(state, roll_chance(state, dice))
        elif state.owner in bots:
            action = bots[state.owner].choose(state)
            _say_choice(out, state, action, names[state.owner])
            apply_in_place(state, action)
        else:
            if state.phase == MOVE:
                out.print(board_view(state, viewer))
            chosen = _ask(out, state, viewer)
            if chosen is None:
                out.print(f"you left the game at turn {state.turn}; it is abandoned")
                if as_json:
                    print_json({"quit": True, "turns": state.turn, "scores": state.scores()})
                return
            apply_in_place(state, chosen)
        shown = _show_events(out, state, shown, viewer)
    out.print(board_view(state, viewer))
    _show_result(out, state)
    if as_json:
        print_json(_result_json(state))


def _say_choice(out: Console, state: State, action: int, bot: str) -> None:
    line = player_text(state.owner)
    line.append(f" ({bot}): {choice_label(state, action)}", style="dim")
    out.print(line)


def _ask(out: Console, state: State, viewer: int) -> int | None:
    """List the legal choices and read one; anything else asks again; None when the player
    quits. A choice with only one option is made at once and announced."""
    actions = legal_actions(state)
    if len(actions) == 1:
        line = player_text(state.owner)
        line.append(f": {choice_label(state, actions[0])} (the only choice)")
        out.print(line)
        return actions[0]
    heading = player_text(state.owner)
    heading.append(", your choice:")
    out.print(heading)
    for number, action in enumerate(actions, start=1):
        out.print(f"  [bold]{number:>2}[/bold]  {choice_label(state, action)}")
    while True:
        try:
            answer = out.input("[bold]> [/bold]").strip().lower()
        except EOFError:
            out.print()  # end the prompt's line, so the error line stands on its own
            raise InputEndedError(
                f"the input ended at turn {state.turn} before the game did; the game is abandoned"
            ) from None
        if answer in ("b", "board"):
            out.print(board_view(state, viewer))
            continue
        if answer in ("q", "quit"):
            return None
        number = whole_number(answer)
        if number is not None and 1 <= number <= len(actions):
            return actions[number - 1]
        out.print(f"type a number from 1 to {len(actions)} (b shows the board, q quits)")


def _show_events(out: Console, state: State, shown: int, viewer: int) -> int:
    events = state.events or []
    for event in events[shown:]:
        text = event_text(event, state, viewer)
        if text is not None:
            out.print(text)
    return len(events)


def _show_result(out: Console, state: State) -> None:
    table = Table(title="final standing" + (" (turn cap reached)" if state.aborted else ""))
    for heading in ("place", "player", "life rings", "loot value"):
        table.add_column(heading)
    for place, p in enumerate(state.ranking(), start=1):
        table.add_row(
            str(place), player_text(p), str(state.life_rings(p)), str(state.loot_value(p))
        )
    out.print(table)
    winners = Text(" and ").join(player_text(p) for p in state.winners)
    out.print(
        Text("Survivor: ").append_text(winners)
        if len(state.winners) == 1
        else Text("Shared win: ").append_text(winners)
    )


def _result_json(state: State) -> dict:
    return {
        "winners": [COLOURS[p] for p in state.winners],
        "scores": state.scores(),
        "ranking": [COLOURS[p] for p in state.ranking()],
        "turns": state.turn,
        "aborted": state.aborted,
    }


# --- simulate ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Where:
    """Where a run's games are played: local processes or a Ray cluster."""

    backend: str = "local"
    jobs: int = 1
    address: str | None = None

    def __post_init__(self) -> None:
        if self.backend not in BACKENDS:
            raise ConfigError(f"--backend is local or ray, not {self.backend!r}")
        if self.address is not None and self.backend != "ray":
            raise ConfigError("--address is for --backend ray")


def _records(
    where: Where,
    games: int,
    seats: list[str],
    players: int,
    config: DeadweightConfig,
    seed: int,
    rotate: bool,
    log: bool,
) -> Iterator[GameRecord]:
    """The run's records in game order, from whichever backend plays them."""
    if where.backend == "local":
        return run_games(
            games, seats, players, config, seed, jobs=where.jobs, rotate=rotate, log=log
        )
    try:
        from tabletop.games.deadweight_board.envs.ray_backend import run_games_on_ray
    except ImportError:
        raise ConfigError("--backend ray needs Ray: pip install 'tabletop[rl]'") from None
    return run_games_on_ray(
        games, seats, players, config, seed, address=where.address, rotate=rotate, log=log
    )


def _run(
    games: int,
    seats: list[str],
    players: int,
    config: DeadweightConfig,
    seed: int,
    where: Where,
    log: Path | None,
    rotate: bool,
    quiet: bool,
) -> Summary:
    summary = Summary(players)
    records = _records(where, games, seats, players, config, seed, rotate, log is not None)
    with (
        _log_file(log) as handle,
        Progress(
            TextColumn(f"{players} players"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
            disable=quiet,
        ) as progress,
    ):
        task = progress.add_task("games", total=games)
        for record in records:
            summary.add(record)
            if handle:
                handle.writelines(line + "\n" for line in record.log)
            progress.advance(task)
    return summary


@contextmanager
def _log_file(path: Path | None) -> Iterator[TextIO | None]:
    """The `--log` file, written beside its final name and moved into place only when the
    run completes, so a failed or interrupted run leaves any earlier log as it was."""
    if path is None:
        yield None
        return
    with written_atomically(path, ConfigError) as file:
        text = io.TextIOWrapper(file, encoding="utf-8")
        yield text
        text.flush()
        text.detach()


@app.command()
def simulate(
    ctx: typer.Context,
    games: Annotated[int, typer.Option(help=f"Games to play (1 to {MAX_GAMES:,}).")] = 100,
    seats: Annotated[str, typer.Option(help=SEATS_HELP)] = "random,greedy",
    players: Annotated[
        int | None,
        typer.Option(help="Players per game (2 to 4); the seats repeat to fill the table."),
    ] = None,
    config: Config = None,
    seed: Seed = 0,
    jobs: Jobs = 1,
    backend: Backend = "local",
    address: Address = None,
    log: Annotated[
        Path | None,
        typer.Option(
            help="Write every game as JSON lines to this file, for replay (bots with a number "
            "of simulations, not seconds)."
        ),
    ] = None,
    rotate: Annotated[
        bool,
        typer.Option(help="Turn the seats one place each game so every bot plays every seat."),
    ] = True,
    as_json: Json = False,
) -> None:
    """Bots play many games: win rates with intervals, game length, where life rings come from."""
    names = _seat_list(seats)
    if any(name in HUMANS for name in names):
        raise ConfigError("simulate plays bots only; use `play` to take a seat yourself")
    count = players or len(names)
    where = Where(backend, jobs, address)
    summary = _run(games, names, count, _config(ctx, config), seed, where, log, rotate, as_json)
    if as_json:
        print_json(summary.as_json())
        return
    _print_summary(summary)
    if log:
        console.print(f"log written to {log}")


def _table(title: str, headers: list[str], rows: list[list[str]]) -> Group:
    """A titled table; the title stands on its own line so narrow tables do not wrap it."""
    table = Table()
    for index, heading in enumerate(headers):
        table.add_column(heading, justify="left" if index == 0 else "right")
    for row in rows:
        table.add_row(*row)
    return Group(Text(title, style="bold"), table)


def _print_summary(summary: Summary) -> None:
    games = summary.games
    console.print(
        _table(
            f"win rate by seat ({games} games)",
            ["seat", "win rate", "95% interval"],
            [
                [seat, percent(rate), f"{percent(low)} – {percent(high)}"]
                for seat, rate, (low, high) in summary.seat_rates()
            ],
        )
    )
    console.print(
        _table(
            "win rate by bot",
            ["bot", "win rate", "95% interval", "seats played"],
            [
                [
                    bot,
                    percent(rate),
                    f"{percent(low)} – {percent(high)}",
                    str(summary.bot_games[bot]),
                ]
                for bot, rate, (low, high) in summary.bot_rates()
            ],
        )
    )
    console.print(
        _table(
            "game length (turns)",
            ["measure", "turns"],
            [[key, f"{value:.1f}"] for key, value in summary.length().items()],
        )
    )
    for title, group in (
        ("life rings by source", "life_rings"),
        ("plank actions taken", "plank_action"),
        ("landing choices", "landing"),
        ("station options", "station"),
    ):
        counts = summary.group(group)
        total = sum(counts.values()) or 1
        console.print(
            _table(
                title,
                ["what", "total", "per game", "share"],
                [
                    [
                        key.replace(":", " ").replace("_", " "),
                        str(value),
                        f"{value / games:.2f}",
                        percent(value / total),
                    ]
                    for key, value in counts.items()
                ],
            )
        )
    console.print(
        f"games ended by the turn cap: {summary.aborted} of {games}; "
        f"shared wins: {summary.shared_wins}"
    )


# --- replay --------------------------------------------------------------------------------


@app.command()
def replay(
    log: Annotated[
        Path,
        typer.Argument(
            help="A JSON-lines game log written by simulate --log, or a table's game record."
        ),
    ],
) -> None:
    """Re-execute every game in a log, asking every bot again (it takes as long as the games
    did); exit 2 naming the first line and field that differ."""
    games = replay_log(log)
    console.print(f"{counted(games, 'game')} replayed; every line matches")


# --- report --------------------------------------------------------------------------------


def _plot_folder(folder: Path) -> None:
    """Make sure the plots can be saved before spending minutes simulating."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ConfigError(f"cannot save plots in {folder}: {error.strerror}") from None
    if not os.access(folder, os.W_OK):
        raise ConfigError(f"cannot save plots in {folder}: the folder is not writable")


def _player_counts(players: str) -> list[int]:
    counts = []
    for part in players.split(","):
        count = whole_number(part)
        if count is None or not 2 <= count <= 4:
            raise ConfigError(f"--players takes counts from 2 to 4, not {part!r}")
        counts.append(count)
    return counts


def _tagged(sections: list[Section], tag: str) -> list[Section]:
    """The sections with their config's letter in front of each question."""
    return [replace(section, question=f"{tag}: {section.question.strip()}") for section in sections]


def _mix_prefix(label: str) -> str:
    """A bot mix as the start of a file name: `mcts:50,greedy` saves as `mcts_50_greedy_`."""
    return "_".join(re.findall(r"[a-z0-9]+", label)) + "_"


@app.command()
def report(
    ctx: typer.Context,
    games: Annotated[int, typer.Option(help="Games per player count (per config with A/B).")] = 200,
    seats: Annotated[
        list[str] | None,
        typer.Option(
            help=SEATS_HELP + " Repeat --seats to run several bot mixes (default greedy): "
            "each plays every player count, and one table sets their turn-cap rates side by "
            "side."
        ),
    ] = None,
    players: Annotated[str, typer.Option(help="Player counts to run, e.g. 2,3,4.")] = "4",
    config: Config = None,
    compare: Annotated[
        Path | None,
        typer.Option(help="Config B, a rules file to set beside config A (--config) side by side."),
    ] = None,
    compare_option: Annotated[
        list[str] | None,
        typer.Option(
            "--compare-option",
            metavar="KEY=VALUE",
            help="A reading that config B changes (over --compare, else over config A).",
        ),
    ] = None,
    seed: Seed = 0,
    jobs: Jobs = 0,
    backend: Backend = "local",
    address: Address = None,
    out: Annotated[Path, typer.Option(help="Folder for the PNG plots and CSV tables.")] = Path(
        "deadweight-report"
    ),
    plots: Annotated[bool, typer.Option(help="Save plots (PNG) and tables (CSV).")] = True,
    as_json: Json = False,
) -> None:
    """Answer the designer's balance questions from a simulation run, with plots and CSV
    tables, and how often each bot mix runs to the turn cap; with --compare or
    --compare-option, set config B beside A with intervals."""
    mixes = {",".join(names): names for names in map(_seat_list, seats or ["greedy"])}
    if len(mixes) < len(seats or ["greedy"]):
        raise ConfigError("a bot mix is named twice in --seats")
    counts = _player_counts(players)
    where = Where(backend, jobs, address)
    config_a = _config(ctx, config)
    config_b = None
    if compare is not None or compare_option:
        if len(mixes) > 1:
            raise ConfigError("--compare sets config B beside A for one bot mix: name one --seats")
        base = _config(ctx, compare) if compare is not None else config_a
        config_b = read_rule_options(DeadweightConfig, compare_option, base)
    for names in mixes.values():  # every run checked before any game is played
        for count in counts:
            plan_run(games, names, count, config_a)
    if plots:
        _plot_folder(out)
    runs = {
        label: {n: _run(games, bots, n, config_a, seed, where, None, True, as_json) for n in counts}
        for label, bots in mixes.items()
    }
    if config_b is None:
        if len(runs) == 1:
            sections = balance_sections(*runs.values())
        else:
            sections = [
                section
                for label, by_count in runs.items()
                for section in _tagged(balance_sections(by_count), label)
            ]
        sections.append(turn_cap_section(runs))
    else:
        ((label, runs_a),) = runs.items()
        runs_b = {
            n: _run(games, mixes[label], n, config_b, seed, where, None, True, as_json)
            for n in counts
        }
        sections = (
            compare_sections(runs_a, runs_b)
            + _tagged(balance_sections(runs_a), "A")
            + _tagged(balance_sections(runs_b), "B")
            + [turn_cap_section({f"A: {label}": runs_a, f"B: {label}": runs_b})]
        )
    try:
        saved = []
        if plots:
            if config_b is None:
                for label, by_count in runs.items():
                    saved += save_plots(by_count, out, _mix_prefix(label) if len(runs) > 1 else "")
            else:
                saved = save_plots(runs_a, out, "a_") + save_plots(runs_b, out, "b_")
                saved += save_comparison_plots(runs_a, runs_b, out)
            saved += save_tables(sections, out)
    except OSError as error:
        raise ConfigError(f"cannot save plots in {out}: {error.strerror}") from None
    changes = {"A": config_a.changed()} | ({"B": config_b.changed()} if config_b else {})
    if as_json:
        print_json(
            {
                "bots": list(mixes),
                "sections": [s.as_json() for s in sections],
                "files": [str(p) for p in saved],
                "config_changes": changes if config_b else config_a.changed(),
                "not_answered": NOT_ANSWERED,
            }
        )
        return
    console.print(
        f"bots: {' | '.join(mixes)} · options changed from the defaults: "
        + " · ".join(f"{tag} {json.dumps(c) if c else 'none'}" for tag, c in changes.items())
    )
    for section in sections:
        console.print(_table(section.question, section.headers, section.rows))
        if section.note:
            console.print(f"  [dim]{section.note}[/dim]")
    console.print(f"[dim]{NOT_ANSWERED}[/dim]")
    for path in saved:
        console.print(f"saved: {path}")


def showcase(seed: int) -> None:
    """Deadweight, the board game: one seeded game between three bots, and its scores."""
    console.print(Rule("Deadweight, the board game: a seeded game between three bots"))
    game = play_game(["greedy", "greedy", "random"], seed=seed)
    for seat in sorted(range(3), key=lambda p: -game.scores[p]):
        console.print(
            f"  seat {seat + 1} ({game.bots[seat]}): {game.scores[seat]} life rings, "
            f"loot value {game.loot_values[seat]}"
        )
    sources = {
        key.split(":", 1)[1]: value
        for key, value in game.counters.items()
        if key.startswith("life_rings:")
    }
    console.print(
        f"  {game.turns} turns; life rings came from "
        + ", ".join(
            f"{key.replace('_', ' ')} {value}"
            for key, value in sorted(sources.items(), key=lambda item: -item[1])
        )
    )
    console.print(
        "  [dim]play one yourself: tabletop deadweight-board play --seats you,greedy,mcts[/dim]"
    )
