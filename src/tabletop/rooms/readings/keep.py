"""Keep the rules of a release for reading: `python -m tabletop.rooms.readings.keep COMMIT`.

Run it from the repository, before a change that raises any system's `Session.version`,
with the commit whose rules are about to be replaced. It writes `rules-<COMMIT>.zip` beside
this file: that commit's rules (the systems and the board game, and the dice, sessions,
NPCs, turns, asks, tables, data and errors they stand on) as a package of their own,
`tabletop_rules_<COMMIT>`, every `tabletop.` in their code renamed to it, so they import
beside today's. A room or an export made under those versions is then re-read by exactly
the code that wrote it (`tabletop.rooms.readings`), and today's rules carry no branch for
yesterday's.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

KEPT = (
    "__init__.py",
    "asks.py",
    "data.py",
    "errors.py",
    "frozen.py",
    "kept.py",
    "kept_lists.py",
    "names.py",
    "npcs.py",
    "offers.py",
    "session.py",
    "sheet_edits.py",
    "tables.py",
    "turns.py",
    "turns_and_asks.py",
    "words.py",
    "words.toml",
)
"""The modules at the top of `tabletop` that the systems import, and the words they read."""

FOLDERS = ("dice/", "systems/", "games/")

LEFT_OUT = ("systems/registry.py",)
"""The registry names command lines and showcases, which are not kept; a reading imports
each system's session by its own path."""

_NAMED = re.compile(r"(?<![\w/])tabletop(?=\.[a-z_]|\s+import\b|\")")
"""`tabletop` as code names the package: a dotted path, `from tabletop import`, or the
package's name as a string (words.py reads its words by it)."""


def package_name(commit: str) -> str:
    return f"tabletop_rules_{commit}"


def kept_files(commit: str, repository: Path) -> dict[str, bytes]:
    """The files of `src/tabletop` at `commit` that a reading needs, by their path in it."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", commit, "src/tabletop"],
        cwd=repository,
        check=True,
        capture_output=True,
    ).stdout
    found: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar.getmembers():
            path = member.name.removeprefix("src/tabletop/")
            wanted = path in KEPT or (path.startswith(FOLDERS) and path not in LEFT_OUT)
            if member.isfile() and wanted and "__pycache__" not in path:
                extracted = tar.extractfile(member)
                assert extracted is not None
                found[path] = extracted.read()
    return found


def renamed(source: bytes, name: str) -> bytes:
    """Python source with every reference to the `tabletop` package made to `name`."""
    return _NAMED.sub(name, source.decode("utf-8")).encode("utf-8")


def keep(commit: str, repository: Path, folder: Path) -> Path:
    name = package_name(commit)
    target = folder / f"rules-{commit}.zip"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as kept:
        for path, content in sorted(kept_files(commit, repository).items()):
            body = renamed(content, name) if path.endswith(".py") else content
            info = zipfile.ZipInfo(f"{name}/{path}", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            kept.writestr(info, body)
    return target


if __name__ == "__main__":
    if len(sys.argv) != 2 or not re.fullmatch(r"[0-9a-f]{7,40}", sys.argv[1]):
        sys.exit("usage: python -m tabletop.rooms.readings.keep COMMIT (a short hash)")
    print(keep(sys.argv[1], Path.cwd(), Path(__file__).parent))
