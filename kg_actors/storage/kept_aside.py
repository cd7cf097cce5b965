"""Files a load set aside beside a graph, holding acknowledged lessons the graph does not serve: its file
found unreadable (`<file>.unreadable`), a journal with damaged lines (`<journal>.damaged`), a journal set
aside at a roll-back (`<journal>.dropped`). Found by one listing of the graph's folder at each load, so they
are named for as long as they exist, not only by the run that made them."""

from __future__ import annotations

import contextlib
import errno
import os
import shlex
from pathlib import Path

KINDS = ("unreadable", "damaged", "dropped")
# sessions.json set aside at a start that read no sessions (sessions.prev did not read either); the plain
# `.unreadable` is load_json's, kept where sessions.prev stood in: kg doctor tells the two starts apart.
SESSIONS_STARTED_EMPTY = ".unreadable-started-empty"


def _kind(name: str, graph: str) -> str | None:
    for kind, prefix in (("unreadable", f"{graph}.unreadable"), ("damaged", f"{graph}.journal.damaged"),
                         ("dropped", f"{graph}.journal.dropped")):
        rest = name[len(prefix):]
        if name.startswith(prefix) and (not rest or (rest[0] == "." and rest[1:].isdigit())):
            return kind
    return None


def beside(path: Path) -> dict[str, Path]:
    """Per kind, the first such file beside the graph file `path` (none: not in the dict)."""
    try:
        names = sorted(os.listdir(path.parent))
    except OSError:
        return {}
    found: dict[str, Path] = {}
    for name in names:
        kind = _kind(name, path.name)
        if kind is not None:
            found.setdefault(kind, path.parent / name)
    return found


def in_store(root: Path) -> list[Path]:
    """Every such file in a store (its top level and each project folder): `kg doctor` with the server down."""
    found: list[Path] = []
    folders = [root]
    try:
        folders += sorted(p for p in (root / "projects").iterdir() if p.is_dir())
    except OSError:
        pass
    for folder in folders:
        for graph in ("user.json", "maintain.json", "graph.json"):
            found += beside(folder / graph).values()
    return sorted(set(found))


def loop_said(kept: Path) -> str | None:
    """What a file set aside is when it is a symlink that leads back to itself (it holds no lesson), else None."""
    if not os.path.islink(kept):
        return None
    try:
        os.stat(kept)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return f"{kept} is a symlink loop (a link that leads back to itself): it holds no lesson"
    return None


def loop_link(path: Path) -> Path | None:
    """The link on the way to `path` (a folder above it, or the file itself) that leads back to itself, the
    first from the top, or None: that link is what to remove, as nothing can be moved or read through it."""
    for candidate in (*reversed(path.parents), path):
        if os.path.islink(candidate):
            try:
                os.stat(candidate)
            except OSError as exc:
                if exc.errno == errno.ELOOP:
                    return candidate
    return None


def loop_fix(path: Path) -> str | None:
    """The fix for a graph file that cannot be reached for a symlink loop, or None when none is on its way."""
    link = loop_link(path)
    if link is None:
        return None
    return (f"remove the link `rm {shlex.quote(str(link))}` ({link} is a symlink loop, a link that leads back to "
            "itself: it holds no lesson, and nothing can be moved through it); the graph then starts empty, "
            "or `kg restore` brings back a committed version")


def off_the_live_file(aside: Path, live: Path) -> None:
    """A link set aside keeps its relative target, which may now lead back to the live file it was named for
    (`graph.json -> graph.json` set aside leads to the graph saved next): made a loop of its own instead."""
    if not os.path.islink(aside) or os.path.realpath(aside) != os.path.realpath(live):
        return
    spare = aside.with_name(aside.name + ".link")
    try:
        os.symlink(aside.name, spare)
        os.replace(spare, aside)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(spare)
