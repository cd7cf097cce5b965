"""Where a path lies with respect to the user's home, for the rule that project folders are inside it.

The rule (spec 003: "Project folders must be inside the user's home directory"; kg-memory's 0.9.38
security fix) keeps a caller from making a project of any folder of the machine (`/etc`, another
account's). A folder reached through home counts as inside it: keeping code on another disk behind a
symlink in home (`~/code` -> `/data/code`) is common, and the user chose to put it there.
"""

from __future__ import annotations

import os


def inside(path: str, home: str) -> bool:
    return path == home or path.startswith(home.rstrip("/") + "/")


def home_side(path: str, home: str) -> str:
    """An absolute path as projects are named: its real path, unless that leaves `home` (a real path)
    while the path as given lies inside it. Then each symlink on the way is followed while its target
    stays inside home, and kept as named where it leaves: `~/code/app` (with `~/code` -> `/data/code`)
    stays `~/code/app`, and so does `~/alias/app` when `~/alias` -> `~/code`: one folder, one name."""
    real = os.path.realpath(path)
    given = os.path.normpath(path)
    if inside(real, home) or not inside(given, home) or given == home:
        return real
    parts = _parts(given, home)
    here, hops = home, 0
    while parts:
        step = os.path.join(here, parts.pop(0))
        target = _link(step)
        if target is None or hops >= _MAX_HOPS:
            here = step
            continue
        hops += 1
        target = os.path.normpath(os.path.join(here, target))
        if inside(target, home):  # followed, from home again (a link may name `..`)
            parts = _parts(target, home) + parts
            here = home
        else:
            here = step  # where it leaves home: kept as named
    return here


_MAX_HOPS = 40  # as the kernel's own limit: a loop of links ends as named


def _link(path: str) -> str | None:
    try:
        return os.readlink(path)
    except (OSError, ValueError):
        return None


def _parts(path: str, home: str) -> list[str]:
    return [p for p in os.path.relpath(path, home).split(os.sep) if p != "."]
