"""Touches checked against the code (pure part): where a gone file went, and how a read shows it.

A touch whose file no longer exists is shown marked `(gone)`; where the
server knows where it went, `(gone; now at <path>)`. Where it went is git's
recorded rename (followed up to three hops) or, failing that, the one file of
the same name in the project (two or more: no guess).

The marks are the server's, not part of a touch: a touch written back as a
read showed it (an agent copies the touches line) is stored without them.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping
from typing import Any

RENAME_HOPS = 3
# What `mark` adds, at a touch's end (a path may hold parentheses, so "now at" runs to the last one).
_MARK = re.compile(r" \(gone(?:; now at .+)?\)$")


def renames(name_status: str) -> dict[str, str]:
    """`git log --diff-filter=R --name-status -M --format=` output (newest first) -> old path -> new path.

    The newest rename of a path wins (the log lists it first).
    """
    out: dict[str, str] = {}
    for line in name_status.splitlines():
        parts = line.split("\t")
        if len(parts) == 3 and parts[0].startswith("R"):
            out.setdefault(parts[1], parts[2])
    return out


def follow(path: str, moves: Mapping[str, str], exists: Iterable[str] | None = None) -> str | None:
    """Where `path` ended up through recorded renames (at most RENAME_HOPS), or None."""
    seen = {path}
    current = path
    for _ in range(RENAME_HOPS):
        nxt = moves.get(current)
        if nxt is None or nxt in seen:
            break
        seen.add(nxt)
        current = nxt
    return None if current == path else current


def same_named(name: str, files: Iterable[str]) -> str | None:
    """The one file called `name` among `files` (relative paths), else None."""
    found = [f for f in files if posixpath.basename(f) == name]
    return found[0] if len(found) == 1 else None


def mark(touch: str, gone: bool, moved_to: str | None) -> str:
    if not gone:
        return touch
    return f"{touch} (gone; now at {moved_to})" if moved_to else f"{touch} (gone)"


def unmarked(touch: str) -> str:
    """The touch without the marks a read added to it (`a.py:3 (x) (gone)` -> `a.py:3 (x)`)."""
    while (m := _MARK.search(touch)) is not None and m.start() > 0:
        touch = touch[:m.start()]
    return touch


def cut_marks(touches: list[Any] | None) -> tuple[list[Any] | None, tuple[str, ...]]:
    """Touches as they were before a read marked them, and the fields a mark was cut from (`touches[1]`)."""
    if not touches:
        return touches, ()
    kept = [unmarked(t) if isinstance(t, str) else t for t in touches]
    return kept, tuple(f"touches[{i}]" for i, (a, b) in enumerate(zip(touches, kept, strict=True)) if a != b)
