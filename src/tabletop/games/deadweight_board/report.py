"""The balance report: the designer's questions of notes §5, answered from simulated games.

`balance_sections` turns run summaries into titled tables (rows of plain strings, so the
command line can show them, `--json` can print them and `save_tables` can write them as
CSV); `compare_sections` sets two configs' runs side by side (A/B) with confidence
intervals; `save_plots` and `save_comparison_plots` draw the answers that read better as
pictures, one panel per player count run.
"""

from __future__ import annotations

import csv
import io
import math
import re
import statistics
from dataclasses import dataclass
from pathlib import Path

from tabletop.data import write_file, write_text_file
from tabletop.games.deadweight_board.errors import ConfigError
from tabletop.games.deadweight_board.simulate import Summary, wilson

Z95 = 1.96


@dataclass
class Section:
    """One answered question: a title, a one-line reading, and a table."""

    question: str
    headers: list[str]
    rows: list[list[str]]
    note: str = ""

    def as_json(self) -> dict:
        return {
            "question": self.question,
            "headers": self.headers,
            "rows": self.rows,
            "note": self.note,
        }

    @property
    def slug(self) -> str:
        """A file name for the table: the question's words, lower case, joined by `_`."""
        return "_".join(re.findall(r"[a-z0-9]+", self.question.lower()))[:80]


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _per_game(summary: Summary, key: str) -> str:
    return f"{summary.counters.get(key, 0) / summary.games:.2f}"


def _rate_rows(summary: Summary, group: str) -> list[list[str]]:
    """A counter group as rows of (what, how often per game)."""
    return [
        [key.replace(":", " ").replace("_", " "), f"{value / summary.games:.2f}"]
        for key, value in summary.group(group).items()
    ]


def _share_rows(counts: dict[str, int]) -> list[list[str]]:
    total = sum(counts.values()) or 1
    return [
        [key.replace("_", " "), str(value), _pct(value / total)] for key, value in counts.items()
    ]


def balance_sections(runs: dict[int, Summary]) -> list[Section]:
    """The §5 questions one run per player count can answer, in the notes' order."""
    sections: list[Section] = []
    for players, summary in runs.items():
        tag = f" ({players} players, {summary.games} games)"
        sections.append(
            Section(
                "1. Seat advantage: win rate by seat" + tag,
                ["seat", "win rate", "95% interval"],
                [
                    [seat, _pct(rate), f"{_pct(low)}–{_pct(high)}"]
                    for seat, rate, (low, high) in summary.seat_rates()
                ],
                f"an even game gives each seat {_pct(1 / players)}",
            )
        )
        sections.append(
            Section(
                "   Win rate by bot" + tag,
                ["bot", "win rate", "95% interval", "seats played"],
                [
                    [bot, _pct(rate), f"{_pct(low)}–{_pct(high)}", str(summary.bot_games[bot])]
                    for bot, rate, (low, high) in summary.bot_rates()
                ],
            )
        )
        length = summary.length()
        evacuation = summary.evacuation_turns
        lengths = summary.evacuation_lengths
        rows = [[key, f"{value:.1f}"] for key, value in length.items()]
        if evacuation:
            rows.append(
                ["turn of the 10th flip (mean)", f"{sum(evacuation) / len(evacuation):.1f}"]
            )
        if lengths:
            rows.append(["evacuation length in turns (mean)", f"{sum(lengths) / len(lengths):.1f}"])
        rows.append(
            [
                "games ended by the turn cap",
                f"{summary.aborted} ({_pct(summary.aborted / summary.games)})",
            ]
        )
        sections.append(Section("2. Game length in turns" + tag, ["measure", "turns"], rows))
        spread = sum(summary.score_spreads) / summary.games
        win = sum(summary.winning_scores) / summary.games
        sections.append(
            Section(
                "3. Where life rings come from" + tag,
                ["source", "life rings", "share"],
                _share_rows(summary.group("life_rings")),
                f"winning score {win:.1f} life rings on average; best minus worst {spread:.1f}",
            )
        )
        sections.append(
            Section(
                "4. Plank actions taken (per game), by plank and side" + tag,
                ["plank action", "per game"],
                _rate_rows(summary, "plank_action"),
                "landings: "
                + ", ".join(
                    f"{key} {value / summary.games:.1f}"
                    for key, value in summary.group("landing").items()
                )
                + " per game",
            )
        )
        stolen = summary.group("stolen")
        total_stolen = sum(stolen.values()) or 1
        sections.append(
            Section(
                "5. Stealing (per game)" + tag,
                ["measure", "per game"],
                _rate_rows(summary, "steal"),
                "items taken: "
                + ", ".join(f"{k} {_pct(v / total_stolen)}" for k, v in stolen.items()),
            )
        )
        sections.append(
            Section(
                "6. Mariners (per game)" + tag,
                ["measure", "per game"],
                _rate_rows(summary, "mariner"),
                "counting contests only, a Mariner expects one steal before it is knocked off",
            )
        )
        moves = summary.group("moves")
        sections.append(
            Section(
                "7-8. Lantern and ropes (per game)" + tag,
                ["measure", "per game"],
                [["landings on the lantern", _per_game(summary, "lantern_landings")]]
                + [
                    [f"moves by {key.replace('_', ' ')}", f"{value / summary.games:.1f}"]
                    for key, value in moves.items()
                ],
            )
        )
        attempts = summary.counters.get("wtp:attempts", 0)
        successes = summary.counters.get("wtp:successes", 0)
        sections.append(
            Section(
                "9-10. Walk the Plank and flips (per game)" + tag,
                ["measure", "value"],
                [
                    ["Walk the Plank attempts", _per_game(summary, "wtp:attempts")],
                    ["success rate", _pct(successes / attempts) if attempts else "—"],
                    [
                        "items in the chest on success",
                        f"{summary.counters.get('wtp:items', 0) / successes:.1f}"
                        if successes
                        else "—",
                    ],
                    ["flips", _per_game(summary, "flips")],
                    [
                        "life rings from chests (flip shares)",
                        _per_game(summary, "life_rings:flip_share"),
                    ],
                ],
            )
        )
        sections.append(
            Section(
                "11. Station visits: what players do there" + tag,
                ["option", "visits", "share"],
                _share_rows(summary.group("station")),
            )
        )
        sections.append(
            Section(
                "12-13. Final round and ties" + tag,
                ["measure", "games", "share"],
                [
                    [
                        "final round changed the winner",
                        str(summary.final_round_changed),
                        _pct(summary.final_round_changed / summary.final_rounds)
                        if summary.final_rounds
                        else "—",
                    ],
                    [
                        "tie on life rings broken by loot value",
                        str(summary.tie_break_decided),
                        _pct(summary.tie_break_decided / summary.games),
                    ],
                    [
                        "win still shared",
                        str(summary.shared_wins),
                        _pct(summary.shared_wins / summary.games),
                    ],
                ],
            )
        )
        sections.append(
            Section(
                "15. Skip-turn and Switch (per game)" + tag,
                ["measure", "per game"],
                [
                    [
                        "skips imposed (flooded Sabotage)",
                        _per_game(summary, "plank_action:sabotage:flooded"),
                    ],
                    ["turns skipped", _per_game(summary, "turns_skipped")],
                    ["Switch with Player (brown)", _per_game(summary, "plank_action:switch:brown")],
                    [
                        "swap two players (flooded)",
                        _per_game(summary, "plank_action:switch:flooded"),
                    ],
                ],
            )
        )
    if len(runs) > 1:
        sections.append(
            Section(
                "14. Player count",
                ["players", "mean turns", "mean rounds", "best minus worst", "turn-cap games"],
                [
                    [
                        str(players),
                        f"{s.length()['mean']:.1f}",
                        f"{s.length()['rounds_mean']:.1f}",
                        f"{sum(s.score_spreads) / s.games:.1f}",
                        _pct(s.aborted / s.games),
                    ]
                    for players, s in runs.items()
                ],
            )
        )
    return sections


def turn_cap_section(mixes: dict[str, dict[int, Summary]]) -> Section:
    """How often each bot mix's games ran to the turn cap, per player count: a capped game
    is scored like any other (AMB-63), so a high rate means bots that stall, not a game
    the rules cannot end (ENG-16)."""
    rows = []
    for mix, runs in mixes.items():
        for players, summary in runs.items():
            low, high = wilson(summary.aborted, summary.games)
            after = summary.after_flood
            rows.append(
                [
                    mix,
                    str(players),
                    str(summary.games),
                    str(summary.aborted),
                    _pct(summary.aborted / summary.games),
                    f"{_pct(low)}–{_pct(high)}",
                    f"{statistics.fmean(summary.turns):.1f}",
                    f"{statistics.fmean(after):.1f}" if after else "—",
                ]
            )
    return Section(
        "Turn cap by bot mix: games that ran to the cap",
        ["bots", "players", "games", "capped", "share", "95% interval", "turns", "after flood"],
        rows,
        "turns: the mean game; after flood: the mean turns from the flood to the end or the "
        "cap. Greedy and MCTS seats hurry the Mariners home once the ship has flooded unless "
        "stalling can still win for them (ENG-16); random seats never do",
    )


NOT_ANSWERED = (
    "Question 16 (which readings matter most) is answered one reading at a time: compare a "
    "config with the reading changed (--compare, --compare-option) against the defaults. "
    "Questions 4, 6, 7 and 15 are answered as how often things happen; what they are worth in "
    "win rate needs such a comparison with the option changed."
)


# --- A/B comparison --------------------------------------------------------------------------


def mean_interval(values: list[int]) -> tuple[float, float, float]:
    """The mean and its 95% normal interval (the sample is large in any useful run)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def mean_difference(a: list[int], b: list[int]) -> tuple[float, float, float]:
    """Mean of `b` less mean of `a`, with a 95% interval (unequal variances, Welch)."""
    spread = sum(statistics.variance(v) / len(v) if len(v) > 1 else 0.0 for v in (a, b))
    diff = statistics.fmean(b) - statistics.fmean(a)
    half = Z95 * math.sqrt(spread)
    return diff, diff - half, diff + half


def rate_difference(wins_a: float, games_a: int, wins_b: float, games_b: int) -> tuple:
    """Rate of B less rate of A, with Newcombe's 95% interval built from the two Wilson
    intervals (it stays inside -1..1 and behaves near 0% and 100%)."""
    pa, pb = wins_a / games_a, wins_b / games_b
    la, ua = wilson(wins_a, games_a)
    lb, ub = wilson(wins_b, games_b)
    diff = pb - pa
    low = diff - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2)
    high = diff + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2)
    return diff, low, high


def _interval(low: float, high: float, pct: bool = True) -> str:
    if pct:
        return f"{_pct(low)}–{_pct(high)}"
    return f"{low:.1f}–{high:.1f}"


def _points(value: float) -> str:
    """A difference of two rates in percentage points, signed."""
    return f"{100 * value:+.1f}"


def compare_sections(runs_a: dict[int, Summary], runs_b: dict[int, Summary]) -> list[Section]:
    """Configs A and B side by side for each player count: win rate by seat and game length,
    each with 95% intervals and the difference B - A with its own interval."""
    sections = []
    for players, a in runs_a.items():
        b = runs_b[players]
        tag = f" ({players} players, {a.games} games each)"
        rows = []
        for seat, (name, rate_a, ci_a) in enumerate(a.seat_rates()):
            _, rate_b, ci_b = b.seat_rates()[seat]
            diff, low, high = rate_difference(
                a.seat_wins[seat], a.games, b.seat_wins[seat], b.games
            )
            rows.append(
                [
                    name,
                    _pct(rate_a),
                    _interval(*ci_a),
                    _pct(rate_b),
                    _interval(*ci_b),
                    _points(diff),
                    f"{_points(low)} to {_points(high)}",
                ]
            )
        sections.append(
            Section(
                "A/B: win rate by seat" + tag,
                ["seat", "A", "A 95%", "B", "B 95%", "B - A (points)", "B - A 95%"],
                rows,
                "an interval for B - A that excludes 0 is a difference at the 95% level",
            )
        )
        mean_a, mean_b = mean_interval(a.turns), mean_interval(b.turns)
        diff, low, high = mean_difference(a.turns, b.turns)
        capped_a, capped_b = a.aborted / a.games, b.aborted / b.games
        sections.append(
            Section(
                "A/B: game length in turns" + tag,
                ["measure", "A", "A 95%", "B", "B 95%", "B - A", "B - A 95%"],
                [
                    [
                        "mean turns",
                        f"{mean_a[0]:.1f}",
                        _interval(*mean_a[1:], pct=False),
                        f"{mean_b[0]:.1f}",
                        _interval(*mean_b[1:], pct=False),
                        f"{diff:+.1f}",
                        f"{low:+.1f} to {high:+.1f}",
                    ],
                    [
                        "games ended by the turn cap",
                        _pct(capped_a),
                        _interval(*wilson(a.aborted, a.games)),
                        _pct(capped_b),
                        _interval(*wilson(b.aborted, b.games)),
                        _points(capped_b - capped_a) + " points",
                        "—",
                    ],
                ],
            )
        )
    return sections


def save_tables(sections: list[Section], folder: Path) -> list[Path]:
    """Each section's table as a CSV file in `folder`, named by its place and question, so a
    spreadsheet or a script can pick the numbers up without reading the console."""
    folder.mkdir(parents=True, exist_ok=True)
    saved = []
    for number, section in enumerate(sections, 1):
        path = folder / f"{number:02d}_{section.slug}.csv"
        table = io.StringIO(newline="")
        writer = csv.writer(table)
        writer.writerow(section.headers)
        writer.writerows(section.rows)
        write_text_file(path, table.getvalue(), ConfigError)
        saved.append(path)
    return saved


def save_comparison_plots(
    runs_a: dict[int, Summary], runs_b: dict[int, Summary], folder: Path
) -> list[Path]:
    """Win rate by seat and mean game length, A beside B with 95% intervals, one panel per
    player count."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    figure, axes = plt.subplots(1, len(runs_a), figsize=(5 * len(runs_a), 3.8), squeeze=False)
    for axis, (players, a) in zip(axes[0], runs_a.items(), strict=True):
        for shift, (label, summary) in ((-0.2, ("A", a)), (0.2, ("B", runs_b[players]))):
            rates = summary.seat_rates()
            axis.bar(
                [seat + shift for seat in range(players)],
                [rate for _, rate, _ in rates],
                width=0.4,
                yerr=_error_bars([(rate, low, high) for _, rate, (low, high) in rates]),
                capsize=3,
                label=label,
            )
        axis.set_xticks(range(players), [name for name, _, _ in a.seat_rates()])
        axis.axhline(1 / players, color="grey", linestyle="--", linewidth=1)
        axis.set_title(f"{players} players")
        axis.set_ylabel("win rate (95% interval)")
        axis.legend()
    figure.suptitle("Win rate by seat, A and B")
    figure.tight_layout()
    saved = [_save(figure, folder / "ab_win_rate_by_seat.png")]

    figure, axis = plt.subplots(figsize=(6.5, 3.8))
    counts = list(runs_a)
    for shift, (label, runs) in ((-0.2, ("A", runs_a)), (0.2, ("B", runs_b))):
        means = [mean_interval(runs[p].turns) for p in counts]
        axis.bar(
            [i + shift for i in range(len(counts))],
            [m for m, _, _ in means],
            width=0.4,
            yerr=_error_bars(means),
            capsize=3,
            label=label,
        )
    axis.set_xticks(range(len(counts)), [f"{p} players" for p in counts])
    axis.set_ylabel("mean turns (95% interval)")
    axis.set_title("Game length, A and B")
    axis.legend()
    figure.tight_layout()
    saved.append(_save(figure, folder / "ab_game_length.png"))
    return saved


def save_plots(runs: dict[int, Summary], folder: Path, prefix: str = "") -> list[Path]:
    """Win rate by seat, game length and life-ring sources as PNG files in `folder`, with a
    panel (or a histogram) for every player count run."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    saved = []
    figure, axes = plt.subplots(1, len(runs), figsize=(4.5 * len(runs), 3.6), squeeze=False)
    for axis, (players, summary) in zip(axes[0], runs.items(), strict=True):
        rates = summary.seat_rates()
        names = [seat for seat, _, _ in rates]
        values = [rate for _, rate, _ in rates]
        errors = _error_bars([(rate, low, high) for _, rate, (low, high) in rates])
        axis.bar(
            names,
            values,
            yerr=errors,
            capsize=4,
            color=["#c0392b", "#2471a3", "#229954", "#d4ac0d"][:players],
        )
        axis.axhline(1 / players, color="grey", linestyle="--", linewidth=1)
        axis.set_title(f"{players} players, {summary.games} games")
        axis.set_ylabel("win rate (95% interval)")
    figure.suptitle("Win rate by seat")
    figure.tight_layout()
    saved.append(_save(figure, folder / f"{prefix}win_rate_by_seat.png"))

    figure, axis = plt.subplots(figsize=(6.5, 3.8))
    for players, summary in runs.items():
        axis.hist(summary.turns, bins=30, alpha=0.6, label=f"{players} players")
    axis.set_xlabel("turns in the game")
    axis.set_ylabel("games")
    axis.set_title("Game length")
    axis.legend()
    figure.tight_layout()
    saved.append(_save(figure, folder / f"{prefix}game_length.png"))

    figure, axes = plt.subplots(1, len(runs), figsize=(5.5 * len(runs), 3.8), squeeze=False)
    for axis, (players, summary) in zip(axes[0], runs.items(), strict=True):
        sources = summary.group("life_rings")
        axis.barh(
            [key.replace("_", " ") for key in sources],
            [v / summary.games for v in sources.values()],
        )
        axis.invert_yaxis()
        axis.set_xlabel("life rings per game")
        axis.set_title(f"{players} players")
    figure.suptitle("Where life rings come from")
    figure.tight_layout()
    saved.append(_save(figure, folder / f"{prefix}life_ring_sources.png"))
    return saved


def _error_bars(values: list[tuple[float, float, float]]) -> list[list[float]]:
    """Matplotlib's error bars for (value, low, high) triples; rounding can put an interval
    end a hair past its value, which matplotlib refuses, so each length is at least 0."""
    return [
        [max(0.0, value - low) for value, low, _ in values],
        [max(0.0, high - value) for value, _, high in values],
    ]


def _save(figure, path: Path) -> Path:
    """The figure as a PNG, written all or nothing and never through a link (tabletop.data):
    matplotlib renders into memory, not into the file."""
    import matplotlib.pyplot as plt

    image = io.BytesIO()
    figure.savefig(image, format="png", dpi=110)
    plt.close(figure)
    write_file(path, image.getvalue(), ConfigError)
    return path
