"""The two engines that play the same rules: the plain Python one, and its compiled copy.

`SCALAR` is the rules as written (rules.py and the modules of each phase). `COMPILED` is the
same source compiled with mypyc at install time (setup.py copies the `COMPILED_MODULES` into
`fast/` and compiles them), or None when it was not built, or was built from sources that
have changed since (`make` rebuilds it). `FAST` is whichever is faster here: simulations and
benchmarks play with it; tests/games/deadweight_board/test_engine.py checks that both give
identical game logs. A compiled state is read and changed by the plain modules just as a
plain one is (bots, the saved-state model, observations), so only the hot loop needs to know
which engine it has. `random_playout` is that loop for random self-play, compiled with the
rest (docs/benchmarks.md says what made the compiled engine fast).
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

COMPILED_MODULES = (
    "board",
    "actions",
    "ship",
    "state",
    "effects",
    "flow",
    "limit",
    "movement",
    "contests",
    "landing",
    "walk_the_plank",
    "stations",
    "flips",
    "turns",
    "rules",
    "setup",
    "bots/random_bot",
    "../../dice/draw",
)
"""The hot path, as paths under deadweight_board/ without `.py`: every module a random
game's step runs through, the dice's uniform draw included. setup.py reads this tuple."""
PACKAGE = "tabletop.games.deadweight_board"


@dataclass(frozen=True)
class Engine:
    """The functions a game loop calls, from one engine."""

    name: str
    new_game: Callable[..., Any]
    legal_actions: Callable[[Any], list[int]]
    apply_unchecked: Callable[[Any, int], None]
    roll_chance: Callable[[Any, Any], int]
    describe: Callable[[Any, int], str]
    random_bot: Callable[[int], Any]
    random_playout: Callable[[Any, Any, Any], int]


def _engine(name: str, package: str, bot_module: str) -> Engine:
    rules = importlib.import_module(f"{package}.rules")
    setup = importlib.import_module(f"{package}.setup")
    bot = importlib.import_module(bot_module)
    return Engine(
        name,
        setup.new_game,
        rules.legal_actions,
        rules.apply_unchecked,
        rules.roll_chance,
        rules.describe,
        bot.RandomBot,
        bot.random_playout,
    )


def source_digest(folder: Path) -> str:
    """A fingerprint of the compiled modules' sources in `folder` (deadweight_board/)."""
    digest = hashlib.sha256()
    for name in COMPILED_MODULES:
        digest.update((folder / f"{name}.py").read_bytes())
    return digest.hexdigest()[:16]


def _compiled() -> Engine | None:
    """The compiled engine, when every module of it is a built extension made from the
    sources as they are now."""
    fast = f"{PACKAGE}.fast"
    try:
        modules = [importlib.import_module(f"{fast}.{name}") for name in ("rules", "state")]
        engine = _engine("compiled", fast, f"{fast}.random_bot")
    except ImportError:
        return None
    if not all(str(module.__file__).endswith(tuple(EXTENSION_SUFFIXES)) for module in modules):
        return None
    built_from = getattr(modules[0], "SOURCE_DIGEST", "")
    return engine if built_from == source_digest(Path(__file__).parent) else None


SCALAR = _engine("scalar", PACKAGE, f"{PACKAGE}.bots.random_bot")
COMPILED = _compiled()
FAST = COMPILED or SCALAR
