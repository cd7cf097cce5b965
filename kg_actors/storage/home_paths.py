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


def named(path: str, home: str, now: float) -> str:
    """An absolute path as projects are named, whichever way it is given: its real path inside home; a
    folder outside home that a symlink in home (or in one of home's folders) leads to by that link
    (`through_link`), whether given by its resolved path (what Claude Code and Codex send) or through any
    link to it (`~/code` and `~/work` both -> `/data/code`: `~/code/app` both ways): one folder, one name.
    Otherwise as `home_side` names it (a deeper link kept as named, a path outside home as its real one)."""
    real = os.path.realpath(path)
    if inside(real, home):
        return real
    return through_link(real, home, now) or home_side(path, home)


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


def through_link(real: str, home: str, now: float) -> str | None:
    """A real path outside home named as reached from it: under the target of one of the symlinks in home
    or in one of its folders that lead out of it (`/data/code/app`, with `~/code` -> `/data/code`:
    `~/code/app`; with `~/work/app` -> `/data/app`: `~/work/app`). What a harness that resolves its cwd
    sends (Claude Code, Codex) is then the project the link path is. None: under no such link. Of two
    links to one place, the one in home itself is taken, then the first by name: always the same one.

    The links are read again when home's own entries change (its mtime), and, at most once a `RELOOK`
    (`now`: seconds, any clock), when a path is under none of them or the one it is under leads elsewhere
    now: a link's target that did not exist (an unmounted disk) may appear, and a link on the way out may
    be re-pointed (`ln -sfn`), neither of which touches home."""
    links = _links_out(home, now)
    for again in (False, True):
        for target, link in links:
            if real == target or real.startswith(target.rstrip("/") + "/"):
                if again or not _due(home, now) or os.path.realpath(link) == target:
                    return link + real[len(target):]
                break  # its link leads elsewhere now: all are read again
        if again or not _due(home, now):
            return None
        links = _links_out(home, now, fresh=True)
    return None


RELOOK = 1.0  # seconds between two readings of home's links that home's mtime did not ask for

# home -> (its mtime, when read, (target, link) of each symlink out of it, the longest target first)
_LINKS: dict[str, tuple[int, float, tuple[tuple[str, str], ...]]] = {}


def _due(home: str, now: float) -> bool:
    held = _LINKS.get(home)
    return held is None or not 0 <= now - held[1] < RELOOK


def _links_out(home: str, now: float, fresh: bool = False) -> tuple[tuple[str, str], ...]:
    try:
        mtime = os.stat(home).st_mtime_ns
    except OSError:
        return ()
    held = _LINKS.get(home)
    if held is not None and held[0] == mtime and not fresh:
        return held[2]
    found: dict[str, str] = {}
    top, folders = _listing(home, True)
    for link in top + tuple(link for folder in folders for link in _listing(folder, False)[0]):  # home's first
        target = os.path.realpath(link)
        if not inside(target, home) and os.path.isdir(target) and target != "/":
            found.setdefault(target, link)  # two links to one place: the first by name, always
    links = tuple(sorted(found.items(), key=lambda kv: -len(kv[0])))
    _LINKS[home] = (mtime, now, links)
    return links


# folder -> (its mtime, its symlinks by name, its folders by name): a folder of home is listed again only when
# its own entries change, so a fresh look at home's links costs a stat per folder, not a read of each.
_LISTED: dict[str, tuple[int, tuple[str, ...], tuple[str, ...]]] = {}
_LISTED_MAX = 4096
_MAX_ENTRIES = 4096  # of one folder looked through for links: a huge one (a downloads folder) is cut short


def _listing(folder: str, with_folders: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the symlinks in `folder`, its folders when asked for), each by name; none when it cannot be read."""
    try:
        mtime = os.stat(folder).st_mtime_ns
    except OSError:
        return (), ()
    held = _LISTED.get(folder)
    if held is not None and held[0] == mtime:
        return held[1], held[2]
    links: list[str] = []
    folders: list[str] = []
    try:
        with os.scandir(folder) as it:
            for n, entry in enumerate(it):
                if n >= _MAX_ENTRIES:
                    break
                if entry.is_symlink():  # its type is known without a stat
                    links.append(entry.path)
                elif with_folders and entry.is_dir(follow_symlinks=False):
                    folders.append(entry.path)
    except OSError:
        return (), ()
    if len(_LISTED) >= _LISTED_MAX:
        _LISTED.clear()
    _LISTED[folder] = (mtime, tuple(sorted(links)), tuple(sorted(folders)))
    return _LISTED[folder][1], _LISTED[folder][2]


_MAX_HOPS = 40  # as the kernel's own limit: a loop of links ends as named


def _link(path: str) -> str | None:
    try:
        return os.readlink(path)
    except (OSError, ValueError):
        return None


def _parts(path: str, home: str) -> list[str]:
    return [p for p in os.path.relpath(path, home).split(os.sep) if p != "."]
