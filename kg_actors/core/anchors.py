"""Touch entries that name a file, and the path to stat for each.

Pure string work: the owner stats the candidates off the event loop and hands
the missing touches back to `debt.compute_debt`. A touch is path-shaped when
its first token (less a `:lines`/`:symbol` suffix and a `#anchor`) starts with
`~` or `/`, contains `/`, or ends in a 1-10 character extension. URLs and
globs name no single file and are skipped.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Collection

from . import constants as C
from .model import GraphReader

_URL = re.compile(r"^(?:[a-z][a-z0-9+.-]*://|www\.|mailto:)", re.IGNORECASE)
_SUFFIX = re.compile(r":[^/]*$")
_EXTENSION = re.compile(r"\.([A-Za-z0-9_]{1,%d})$" % C.TOUCH_EXT_MAX_CHARS)
_GLOB_CHARS = frozenset("*?[]{}")
_WRAPPERS = "`'\"<>()[],;"
# A file's name as a touch may give it alone: a letter in it, no leading dash, no character a name rarely holds.
_BARE_NAME = re.compile(r"^(?=.*[A-Za-z])[A-Za-z0-9_.][A-Za-z0-9._+-]*$")


def _first_path(touch: str) -> tuple[str, bool] | None:
    """A touch's first token less its `:lines`/`:symbol` suffix and `#anchor`, and whether it had either;
    None for a URL, a glob or nothing."""
    parts = touch.split(None, 1)
    if not parts:
        return None
    token = parts[0].strip(_WRAPPERS)
    if not token or _URL.match(token):
        return None
    located = "#" in token
    token = token.split("#", 1)[0]
    while _SUFFIX.search(token):
        stripped = _SUFFIX.sub("", token)
        if not stripped:
            return None
        token, located = stripped, True
    if not token or any(c in _GLOB_CHARS for c in token):
        return None
    return token, located


def parse_touch(touch: str) -> str | None:
    """The path a touch names, as written (`src/a.py:10-20 (x)` → `src/a.py`), or None."""
    first = _first_path(touch)
    if first is None:
        return None
    token = first[0]
    if token[0] in "~/" or "/" in token:
        return token
    ext = _EXTENSION.search(token)
    if ext and any(c.isalpha() for c in ext.group(1)):
        return token
    return None


def bare_file_name(touch: str) -> str | None:
    """A root-level file named with no folder and no extension (`Makefile`, `LICENSE:1-3 (header)`), or None.

    Not path-shaped by the rule above, so the wear count never takes a concept word for a missing file;
    file recall takes it, for it only ever meets a file the agent actually read. One word alone, or one
    with a locator (`:lines`, `#anchor`, a `(anchor)` after it): prose ("redis cache") names no file."""
    first = _first_path(touch)
    if first is None:
        return None
    token, located = first
    parts = touch.split(None, 1)
    rest = parts[1].strip() if len(parts) > 1 else ""
    if rest and not located and not (rest.startswith("(") and rest.endswith(")")):
        return None
    return token if _BARE_NAME.match(token) else None


def resolve_touch(path: str, root: str | None, home: str | None) -> str | None:
    """Where a parsed touch path lives on this machine, or None when it cannot be placed."""
    if path.startswith("~"):
        if home is None or not (path == "~" or path.startswith("~/")):
            return None  # `~user/...` names another account's home
        return posixpath.normpath(home + path[1:])
    if path.startswith("/"):
        return posixpath.normpath(path)
    if not root:
        return None
    return posixpath.normpath(posixpath.join(root, path))


def touch_paths(
    graph: GraphReader, home: str | None = None, *, project_root_exists: bool = True,
) -> list[tuple[str, str, str]]:
    """(node id, touch, candidate path) for each path-shaped touch of each active node.

    Relative touches resolve against `graph.project_path` only when it is set
    and (per the caller's stat) exists here; `~` resolves against `home`.
    """
    root = graph.project_path if project_root_exists else None
    out: list[tuple[str, str, str]] = []
    for node_id in sorted(graph.ids_in_state("active")):
        node = graph.nodes[node_id]
        for touch in node.touches:
            path = parse_touch(touch)
            if path is None:
                continue
            candidate = resolve_touch(path, root, home)
            if candidate is not None:
                out.append((node_id, touch, candidate))
    return out


def dangling_touches(graph: GraphReader, missing_touches: Collection[str]) -> tuple[int, list[str]]:
    """Touch entries of active nodes found missing, and the nodes holding any (sorted)."""
    if not missing_touches:
        return 0, []
    if not isinstance(missing_touches, set | frozenset):
        missing_touches = frozenset(missing_touches)
    entries = 0
    holders: list[str] = []
    nodes = graph.nodes
    for node_id in graph.ids_in_state("active"):
        touches = nodes[node_id].touches
        if touches and not missing_touches.isdisjoint(touches):
            entries += sum(t in missing_touches for t in touches)
            holders.append(node_id)
    return entries, sorted(holders)
