"""The loop every interactive tracker runs: line editing and history, completion of verbs
and names, `help VERB`, `undo`, `save`/`load`, and nothing dropped without a word.

A tracker gives the loop its verbs (each with a usage line and what it does), the names it
knows, and how to play a line, show itself, take a snapshot and save or load; the loop does
the rest the same way for every tracker. At a terminal, lines are read with the standard
`readline` (arrow keys, history kept in ~/.tabletop_history, Tab completes). At the end of
input or on Ctrl-C with changes not saved, it asks whether to save them; with `--yes` it
saves without asking; when nothing more can be read it says what was dropped.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Protocol

import typer
from rich.console import Console
from rich.markup import escape

from tabletop.errors import DataError, TabletopError

HISTORY = Path(os.environ.get("TABLETOP_HISTORY", "~/.tabletop_history")).expanduser()
"""Where the lines typed at a terminal are kept between runs."""

Yes = Annotated[
    bool,
    typer.Option("--yes", help="At the end of input or Ctrl-C, save without asking."),
]

MAX_UNDO = 500
"""Steps `undo` can go back."""

BUILT_IN = {
    "help": ("help [VERB]", "what each verb does, or the one named"),
    "undo": ("undo", "take back the last change"),
    "save": ("save [FILE]", "save (to FILE, or where it was loaded or last saved)"),
    "load": ("load FILE", "load a saved fight in place of this one (undo takes it back)"),
    "quit": ("quit", "leave (asks first if there are changes not saved)"),
}


class Tracked(Protocol):
    """What a tracker gives the loop."""

    verbs: dict[str, tuple[str, str]]
    """Each verb: its usage line and what it does."""
    overview: str
    """`help` with no verb: every verb at a glance."""

    def prompt(self) -> str: ...

    def names(self) -> list[str]: ...

    def play(self, line: str) -> None:
        """Play one line (printing what happened), or raise a TabletopError changing nothing."""

    def snapshot(self) -> Any: ...

    def restore(self, snapshot: Any) -> None: ...

    def save(self, path: Path | None) -> str:
        """Save (to `path`, or to where this tracker keeps itself); where, in words."""

    def load(self, path: Path) -> None: ...

    def kept_in(self) -> Path | None:
        """Where `save` with no file writes, if anywhere yet."""


@dataclass
class Loop:
    """One run of a tracker at the terminal (or from piped input)."""

    console: Console
    tracker: Tracked
    yes: bool = False
    """Save at the end of input or on Ctrl-C without asking."""
    undo: list[Any] = field(default_factory=list)
    changed: bool = False

    def __post_init__(self) -> None:
        if self.yes and self.tracker.kept_in() is None:
            raise DataError("--yes saves on leaving: say where with --save FILE or --campaign")

    def run(self) -> None:
        """Read and play lines until `quit` or the end of the input."""
        interactive = sys.stdin.isatty()
        with _line_editing(interactive, self._complete):
            while True:
                try:
                    line = self._read(self.tracker.prompt(), interactive).strip()
                except (EOFError, KeyboardInterrupt) as why:
                    self.console.print()
                    self._leave("interrupted" if isinstance(why, KeyboardInterrupt) else "ended")
                    return
                verb = line.split(maxsplit=1)[0].lower() if line else ""
                if verb in ("quit", "exit", "q"):
                    self._leave("quit")
                    return
                try:
                    self._one(verb, line)
                except TabletopError as error:
                    self.console.print(f"[red]{escape(str(error))}[/red]", highlight=False)

    def _read(self, prompt: str, interactive: bool) -> str:
        """A line: through readline at a terminal (so it can redraw the prompt), else as
        Rich reads it."""
        return input(prompt) if interactive else self.console.input(escape(prompt))

    def _one(self, verb: str, line: str) -> None:
        rest = line.split(maxsplit=1)[1].strip() if " " in line else ""
        if verb in ("help", "?"):
            self._help(rest.lower())
        elif verb == "undo":
            if not self.undo:
                raise DataError("nothing to undo")
            self.tracker.restore(self.undo.pop())
            self.changed = True
            self.console.print("[dim]taken back[/dim]")
        elif verb == "save":
            self.console.print(escape(self.tracker.save(Path(rest) if rest else None)))
            self.changed = False
        elif verb == "load":
            if not rest:
                raise DataError("usage: load FILE")
            before = self.tracker.snapshot()
            self.tracker.load(Path(rest))
            self._remember(before)
            self.changed = False
        elif verb:
            before = self.tracker.snapshot()
            self.tracker.play(line)
            if self.tracker.snapshot() != before:
                self._remember(before)
                self.changed = True

    def _remember(self, snapshot: Any) -> None:
        self.undo = [*self.undo[-MAX_UNDO + 1 :], snapshot]

    def _help(self, verb: str) -> None:
        verbs = {**self.tracker.verbs, **BUILT_IN}
        if not verb:
            self.console.print(self.tracker.overview, markup=False, highlight=False)
            built = "  ".join(usage for usage, _ in BUILT_IN.values())
            self.console.print(f"any time: {built}", markup=False, highlight=False)
            return
        if verb not in verbs:
            raise DataError(f"no verb {verb!r}; the verbs are {', '.join(verbs)}")
        usage, text = verbs[verb]
        self.console.print(f"{usage}\n  {text}", markup=False, highlight=False)

    def _leave(self, why: str) -> None:
        """Before leaving with changes not saved: save them (--yes), or ask."""
        if not self.changed:
            return
        if self.yes:
            self.console.print(escape(self.tracker.save(None)))
            return
        if why != "quit":
            self.console.print(f"the input {why} with changes not saved", highlight=False)
        try:
            answer = self._read("save them? [y/N or a file name] ", sys.stdin.isatty()).strip()
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            answer = ""
            self.console.print(
                "[yellow]not saved: nothing more could be read (--yes saves at the end)[/yellow]"
            )
        if answer.lower() in ("y", "yes"):
            self.console.print(escape(self.tracker.save(None)))
        elif answer and answer.lower() not in ("n", "no"):
            self.console.print(escape(self.tracker.save(Path(answer))))

    def _complete(self, text: str, line: str) -> list[str]:
        """Verbs for the first word, then the tracker's names and the verbs' key words."""
        if not line.strip() or " " not in line:
            first = (*self.tracker.verbs, *BUILT_IN, *self.tracker.names())
            return sorted(v for v in first if v.startswith(text))
        return sorted(n for n in self.tracker.names() if n.startswith(text))


@contextlib.contextmanager
def _line_editing(on: bool, complete: Callable[[str, str], list[str]]) -> Any:
    """GNU readline for the loop's lines at a terminal: editing, history and completion."""
    if not on:
        yield
        return
    try:
        import readline
    except ImportError:  # a Python without readline: plain lines
        yield
        return
    with contextlib.suppress(OSError):
        readline.read_history_file(HISTORY)

    def completer(text: str, state: int) -> str | None:
        found = complete(text, readline.get_line_buffer())
        return found[state] if state < len(found) else None

    readline.set_completer(completer)
    readline.parse_and_bind("tab: complete")
    try:
        yield
    finally:
        readline.set_completer(None)
        with contextlib.suppress(OSError):
            readline.write_history_file(HISTORY)
