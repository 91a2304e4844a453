"""The balance report: the designer's questions of notes §5, answered from simulated games.

`balance_sections` turns run summaries into titled tables (rows of plain strings, so the
command line can show them and `--json` can print them); `save_plots` draws the answers
that read better as pictures (win rate by seat, game length, where life rings come from).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tabletop.games.deadweight_board.simulate import Summary


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


NOT_ANSWERED = (
    "Question 16 (which readings matter most) compares runs: run the report once per config "
    "file (--config) and compare the tables. Questions 4, 6, 7 and 15 are answered as how often "
    "things happen; what they are worth in win rate needs runs with the option changed."
)


def save_plots(runs: dict[int, Summary], folder: Path) -> list[Path]:
    """Win rate by seat, game length and life-ring sources as PNG files in `folder`."""
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
        errors = [
            [rate - low for _, rate, (low, _) in rates],
            [high - rate for _, rate, (_, high) in rates],
        ]
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
    saved.append(_save(figure, folder / "win_rate_by_seat.png"))

    figure, axis = plt.subplots(figsize=(6.5, 3.8))
    for players, summary in runs.items():
        axis.hist(summary.turns, bins=30, alpha=0.6, label=f"{players} players")
    axis.set_xlabel("turns in the game")
    axis.set_ylabel("games")
    axis.set_title("Game length")
    axis.legend()
    figure.tight_layout()
    saved.append(_save(figure, folder / "game_length.png"))

    figure, axis = plt.subplots(figsize=(6.5, 3.8))
    summary = next(iter(runs.values()))
    sources = summary.group("life_rings")
    axis.barh(
        [key.replace("_", " ") for key in sources], [v / summary.games for v in sources.values()]
    )
    axis.invert_yaxis()
    axis.set_xlabel("life rings per game")
    axis.set_title(f"Where life rings come from ({next(iter(runs))} players)")
    figure.tight_layout()
    saved.append(_save(figure, folder / "life_ring_sources.png"))
    return saved


def _save(figure, path: Path) -> Path:
    import matplotlib.pyplot as plt

    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path
