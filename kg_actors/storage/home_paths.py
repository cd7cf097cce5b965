"""Where a path lies with respect to the user's home, for the rule that project folders are inside it.

The rule (spec 003: "Project folders must be inside the user's home directory"; kg-memory's 0.9.38
security fix) keeps a caller from making a project of any folder of the machine (`/etc`, another
account's). A folder reached through home counts as inside it: keeping code on another disk behind a
symlink in home (`~/code` -> `/data/code`) is common, and the user chose to put it there.
"""

from __future__ import annotations

import os
import time


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
    stamp, top, folders = _listing(home, True)
    listed = [(stamp, top)] + [_listing(folder, False)[:2] for folder in folders]  # home's own links first
    for stamp, named_links in listed:
        for link in named_links:
            target = _target(link, stamp)
            if not inside(target, home) and target != "/":
                found.setdefault(target, link)  # two links to one place: the first by name, always
    # A stat per place led to, not per link (4,000 links to one folder: one).
    links = tuple(sorted(((t, link) for t, link in found.items() if os.path.isdir(t)), key=lambda kv: -len(kv[0])))
    _LINKS[home] = (mtime, now, links)
    return links


# folder -> (its mtime, its symlinks by name, its folders by name): a folder of home is listed again only when
# its own entries change, so a fresh look at home's links costs a stat per folder, not a read of each.
_LISTED: dict[str, tuple[int, tuple[str, ...], tuple[str, ...]]] = {}
_LISTED_MAX = 4096
_MAX_ENTRIES = 4096  # of one folder looked through for links: a huge one (a downloads folder) is cut short
# A folder's mtime ticks coarsely (a few ms): one changed this recently may change again unseen under the same
# mtime, so what was read of it is not kept (nanoseconds).
_SETTLED_NS = 2_000_000_000

# link -> (its folder's mtime, its real target): kept for a link that leads straight to a folder (no link on the
# way there), which leads elsewhere only once replaced, and that changes its folder's mtime (a link is never
# changed in place). A fresh look then resolves only the others (a target not there yet, a way through
# another link that may be re-pointed) and the links of changed folders: resolving each of 4,000 links took
# 200-300 ms of the event loop at every hook naming a path outside home.
_TARGETS: dict[str, tuple[int, str]] = {}
_TARGETS_MAX = 65536


def _target(link: str, stamp: int | None) -> str:
    held = _TARGETS.get(link)
    if held is not None and stamp is not None and held[0] == stamp:
        return held[1]
    target = os.path.realpath(link)
    if stamp is not None and os.path.isdir(target) and _straight(link) == target:
        if len(_TARGETS) >= _TARGETS_MAX:
            _TARGETS.clear()
        _TARGETS[link] = (stamp, target)
    return target


def _straight(link: str) -> str | None:
    """Where a link's own text leads, from its folder (a real path: home's, or a folder in it)."""
    text = _link(link)
    return None if text is None else os.path.normpath(os.path.join(os.path.dirname(link), text))


def _listing(folder: str, with_folders: bool) -> tuple[int | None, tuple[str, ...], tuple[str, ...]]:
    """(the mtime what was read is kept by, None when it is not kept; the symlinks in `folder`; its folders
    when asked for), each by name; none when it cannot be read."""
    try:
        mtime = os.stat(folder).st_mtime_ns
    except OSError:
        return None, (), ()
    held = _LISTED.get(folder)
    if held is not None and held[0] == mtime:
        return mtime, held[1], held[2]
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
        return None, (), ()
    found = (tuple(sorted(links)), tuple(sorted(folders)))
    if time.time_ns() - mtime < _SETTLED_NS:  # changed just now: read again next time
        return None, *found
    if len(_LISTED) >= _LISTED_MAX:
        _LISTED.clear()
    _LISTED[folder] = (mtime, *found)
    return mtime, *found


_MAX_HOPS = 40  # as the kernel's own limit: a loop of links ends as named


def _link(path: str) -> str | None:
    try:
        return os.readlink(path)
    except (OSError, ValueError):
        return None


def _parts(path: str, home: str) -> list[str]:
    return [p for p in os.path.relpath(path, home).split(os.sep) if p != "."]
