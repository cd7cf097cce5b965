"""Where each file of a store lives, and which folder a project's graph is in.

A project is its real path, inside the user's home. Its graph folder is the
folder's name (what the reference writes, so its graphs are adopted) unless
that folder already belongs to another path; then the name gets a short hash
of the path, so two `src/` projects never share a graph.
"""

from __future__ import annotations

import errno
import functools
import hashlib
import json
import os
import re
import stat
import time
from collections.abc import Callable
from pathlib import Path

from ..core.errors import InvalidInput, NotAProjectFolder
from ..core.held_names import masked_names, name_held
from . import home_paths, read_refusals, same_project, user_files

_SLUG_RE = re.compile(r"[^A-Za-z0-9._-]+")


class Layout:
    def __init__(self, root: Path):
        self.root = root

    @property
    def user(self) -> Path:
        return self.root / "user.json"

    @property
    def maintain(self) -> Path:
        return self.root / "maintain.json"

    @property
    def sessions(self) -> Path:
        return self.root / "sessions.json"

    @property
    def clock(self) -> Path:
        """The last tick's time and the wall clock's latest jump (clock_keeper.py): this machine's."""
        return self.root / "clock.json"

    @property
    def projects(self) -> Path:
        return self.root / "projects"

    def project_graph(self, slug: str) -> Path:
        return self.projects / slug / "graph.json"

    def tool_events(self, key: str) -> Path:
        """A project's tool-event counters, beside its graph (`key` is `project:<slug>`)."""
        return self.project_graph(key.removeprefix("project:")).with_name("tool_events.json")

    def log(self, name: str) -> Path:
        return self.root / name

    def graph_file(self, key: str) -> Path:
        if key == "user":
            return self.user
        if key == "maintain":
            return self.maintain
        assert key.startswith("project:")
        return self.project_graph(key.removeprefix("project:"))

    def project_slugs(self) -> list[str]:
        try:
            # A project killed before its first save exists only as a journal.
            return sorted(p.name for p in self.projects.iterdir()
                          if there(p / "graph.json") or there(p / "graph.json.journal"))
        except (FileNotFoundError, NotADirectoryError):
            return []


def there(path: Path) -> bool:
    """Whether something is at `path`; one that cannot be looked at (a folder the server may not read) counts
    as there: its load says what is wrong, where a look that raised failed the session asking for it."""
    try:
        return path.exists() or path.is_symlink()  # a link to nowhere, or a loop: its load names it
    except OSError:
        return True


class Shut(PermissionError):
    """A store folder the server may not enter (`projects/`, or a graph folder in it): whether a project's
    graph is there, or whose it is, cannot be told. `slug` is the graph folder to serve the project from
    meanwhile: its load names the permission, and nothing is written anywhere until it opens."""

    def __init__(self, slug: str, path: Path) -> None:
        super().__init__(13, "Permission denied", str(path))
        self.slug = slug


def _look(layout: Layout, slug: str, plain: str) -> bool:
    """`there()` for choose_slug: a graph folder it may not look into raises Shut instead of counting as there
    (or not), which claimed another folder for the project. `projects/` itself shut: the project's plain one."""
    path = layout.project_graph(slug)
    try:
        os.lstat(path)
        return True
    except (FileNotFoundError, NotADirectoryError):
        return False
    except PermissionError:
        raise Shut(slug if os.access(layout.projects, os.X_OK) else plain, path) from None
    except OSError:
        return True  # a loop on the way, say: its load names it


def newest_project_root(layout: Layout) -> str | None:
    """The recorded folder of the most recently written project graph whose folder still exists."""
    def mtime(slug: str) -> float:
        path = layout.project_graph(slug)
        times = []
        for p in (path, path.with_name(path.name + ".journal")):
            try:
                times.append(p.stat().st_mtime)
            except OSError:
                pass
        return max(times, default=0.0)

    for slug in sorted(layout.project_slugs(), key=mtime, reverse=True):
        recorded = recorded_project_path(layout.project_graph(slug))
        if recorded and os.path.isdir(recorded):
            return recorded
    return None


def move_to_trash(layout: Layout, slug: str, now: float) -> Path:
    """Move a project's graph folder into the store's `trash/` (restorable by moving it back); never
    anything else. The name gets the time of removal, so removing a project twice keeps both."""
    if not folder_name_ok(slug):
        raise InvalidInput("slug", f"'{slug}' is not a project folder name")
    source = layout.projects / slug
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(now))
    trash = layout.root / "trash"
    trash.mkdir(exist_ok=True)
    named = shown_slug(slug)
    dest = trash / f"{named}-{stamp}"
    n = 1
    while dest.exists():
        n += 1
        dest = trash / f"{named}-{stamp}-{n}"
    os.rename(source, dest)
    return dest


def home() -> Path:
    return _real_home(os.path.expanduser("~"))


@functools.lru_cache(maxsize=8)
def _real_home(path: str) -> Path:
    # Asked on every hook; resolving it is a stat per folder level, and stats stall
    # while another thread's fsync holds the disk. Keyed by $HOME, so a new one counts.
    return Path(os.path.realpath(path))


def project_root(cwd: object, field: str = "cwd") -> str:
    """The real path of a project folder; it must lie inside the user's home."""
    if not isinstance(cwd, str) or not cwd.strip():
        raise InvalidInput(field, "must be a non-empty absolute path")
    if "\0" in cwd:  # no path holds one; os.path would raise ValueError
        raise InvalidInput(field, "must not contain a NUL character")
    expanded = os.path.expanduser(cwd)  # as given: a folder's name may end with a space (`app `, not `app`)
    if not os.path.isabs(expanded):
        raise NotAProjectFolder(field, cwd, "must be an absolute path")
    h = str(home())
    real = home_paths.named(expanded, h, time.monotonic())  # a harness may send the resolved path
    if not home_paths.inside(real, h):
        shown = "" if real == os.path.normpath(expanded) else f" (it resolves to {real})"
        raise NotAProjectFolder(field, cwd, f"is outside the user's home ({h}){shown}; project folders must be "
                                "inside it, or be reached through it (a symlink in home)")
    return real


def project_folder(cwd: object, field: str = "cwd") -> str:
    """The real path of an existing folder inside home: a session's cwd must name one.

    A folder that does not exist, or a file, would otherwise open a project of its own
    that then sits in the editor's project list.
    """
    real = project_root(cwd, field)
    if (what := folder_fault(real)) is not None:
        raise NotAProjectFolder(field, str(cwd),
                                f"{what}; pass the project's folder (an existing directory inside home)")
    return real


def folder_fault(path: str) -> str | None:
    """Why `path` is no folder a session can be in, or None: a folder that is there but cannot be looked at
    (a folder on its way shut to the server, a symlink loop) is not said to be missing."""
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return "does not exist"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "is a symlink loop (a link on its way leads back to itself): remove or fix the link"
        if exc.errno in (errno.EACCES, errno.EPERM):
            return (f"cannot be looked at by the server's user: the folder {read_refusals.closed_folder(Path(path))} "
                    "may not be entered (a permission)")
        return f"cannot be looked at: {exc.strerror or exc}"
    return None if stat.S_ISDIR(st.st_mode) else "is a file, not a folder"


def is_home(root: str) -> bool:
    return root == str(home())


# (file) -> (inode, mtime_ns, size, the path it records): a start asks for the project last used twice (which
# project it is, then which folder is its own), and each ask parses 10,000 nodes' versions in `_meta`.
_RECORDED: dict[str, tuple[int, int, int, str | None]] = {}
_RECORDED_MAX = 256
_TAIL = 64 * 1024  # bytes read first for a graph file's `_meta`


def recorded_project_path(graph_file: Path) -> str | None:
    """The `_meta.project_path` a graph file records (None if absent or unreadable), named as projects are."""
    return _real(recorded_as_written(graph_file))


def recorded_as_written(graph_file: Path) -> str | None:
    """The `_meta.project_path` a graph file records, as written there (None if absent or unreadable)."""
    try:
        with user_files.open_regular(graph_file) as f:  # a FIFO in its place: None, never a wait
            st = os.fstat(f.fileno())
            held = _RECORDED.get(str(graph_file))
            if held is not None and held[:3] == (st.st_ino, st.st_mtime_ns, st.st_size):
                return held[3]
            # Both servers write `_meta` last: the file's tail holds it, and a first session in a new folder
            # reads every stored graph's (50 graphs of a few MB each were a third of a second on the loop).
            f.seek(max(0, st.st_size - _TAIL))
            meta = _last_meta(f.read())
            if meta is None:
                f.seek(0)
                data = f.read()
        if meta is None:
            raw = json.loads(data)
            meta = raw.get("_meta") if isinstance(raw, dict) else None
    except (OSError, ValueError):
        return None
    path = meta.get("project_path") if isinstance(meta, dict) else None
    found = path if isinstance(path, str) and path else None
    if len(_RECORDED) >= _RECORDED_MAX:
        _RECORDED.clear()
    _RECORDED[str(graph_file)] = (st.st_ino, st.st_mtime_ns, st.st_size, found)
    return found


def _real(path: str | None) -> str | None:
    # Each time: a symlink on the way may move. Named as a session's folder is (project_root).
    return None if path is None else home_paths.named(path, str(home()), time.monotonic())


def _last_meta(data: bytes) -> object:
    """The top-level `_meta` when it is the file's last key (as both servers write it), parsed alone:
    a 10 MB graph's whole parse costs a quarter second on the event loop. None: parse the whole file.

    Outside strings a `"_meta"` key is unescaped; a value followed by nothing but one `}` closes the
    top-level object, so a `_meta` key nested deeper (in a node's extra fields) is never taken.
    """
    at = data.rfind(b'"_meta"')
    if at < 0:
        return None
    try:
        text = data[at:].decode()
        colon = text.index(":", len('"_meta"'))
        if text[len('"_meta"'):colon].strip():
            return None
        decoder = json.JSONDecoder()
        start = len(text) - len(text[colon + 1:].lstrip())
        meta, end = decoder.raw_decode(text, start)
    except ValueError:
        return None
    return meta if text[end:].strip() == "}" and isinstance(meta, dict) else None


def base_slug(root: str) -> str:
    # A folder named by a key (`~/ghp_…`) never gives its name: the store's folder names are committed and
    # pushed. Nor a plain name another folder would want (`project`): `masked-` and the hash of its path.
    if named_by_key(root):
        return f"masked-{_hash(root)}"
    return (_SLUG_RE.sub("-", os.path.basename(root.rstrip("/"))).strip(".-") or "project")[:64]


_HASH_CHARS = 8  # of a hashed slug's tail


def _hash(root: str) -> str:
    return hashlib.sha256(root.encode()).hexdigest()[:_HASH_CHARS]


def hashed_slug(root: str) -> str:
    """The graph folder `root` takes when its plain one is another folder's: for a key-named folder, its masked
    name and more of the hash (an older kg let a plain folder named `masked-<hash>` take the masked one)."""
    if named_by_key(root):
        return f"{base_slug(root)}-{hashlib.sha256(root.encode()).hexdigest()[_HASH_CHARS:2 * _HASH_CHARS]}"
    return f"{base_slug(root)}-{_hash(root)}"


# The names the masking gives key-named folders (`masked-<hash>`, and `-<more hash>` beside another's): a plain
# folder so named (`~/masked-1a2b3c4d`) takes its hashed name instead, or the two folders shared one graph.
_MASKING_NAME = re.compile(rf"masked-[0-9a-f]{{{_HASH_CHARS}}}(?:-[0-9a-f]{{{_HASH_CHARS}}})?")


def named_by_key(root: str) -> bool:
    """Whether a project folder's name holds what looks like a key (or a part of one)."""
    name = os.path.basename(root.rstrip("/"))
    return masked_names(name) != name or name_held(name)


def earlier_slugs(root: str) -> tuple[str, ...]:
    """The store folders an older kg gave a folder named by a key (its masked name, `project` when that read
    as a key too; with the hash beside another's): still that folder's when they record it."""
    if not named_by_key(root):
        return ()
    masked = (_SLUG_RE.sub("-", masked_names(os.path.basename(root.rstrip("/")))).strip(".-") or "project")[:64]
    names = [masked, "project"]  # its masked name (`ghp_-40-characters`), or `project` where that read as a key
    return tuple(dict.fromkeys(n for name in names for n in (f"{name}-{_hash(root)}", name)))


def folder_name_ok(name: str) -> bool:
    """A name that is one folder inside `projects/` and nothing else (no way out of it)."""
    return bool(name) and name not in (".", "..") and not any(c in name for c in "/\\\0")


def reference_slug(root: str) -> str | None:
    """The folder kg-memory 0.17 keeps `root`'s graph in when it is not ours (`base_slug`): the folder's
    name as it is (spaces, accents, any length). None when 0.17 would not have named one so."""
    name = os.path.basename(os.path.normpath(root))
    return name if folder_name_ok(name) and not name.startswith("-") and name != base_slug(root) else None


def holds_key(slug: str) -> bool:
    """A graph folder named by a key (an older kg named one after its project folder as it was): never
    served from, so its graph is merged into the masked one (twin_folders.py) and the name leaves the store."""
    return name_held(slug)


def shown_slug(slug: str) -> str:
    """A graph folder's name as it may be written down (a label in a graph, the trash): a key in it masked."""
    return (_SLUG_RE.sub("-", masked_names(slug)).strip(".-") or "project") if holds_key(slug) else slug


def choose_slug(layout: Layout, root: str, same: Callable[[str], bool] | None = None,
                bound: Callable[[str], str | None] = lambda slug: None) -> str:
    """The graph folder for `root`: adopt a folder recorded for it (ours, or kg-memory 0.17's named by the
    folder's name as it is), else claim one by our own rule. Shut: a folder it may not look into.
    `same(slug)`: whether `root` shows it is the project of graph `slug` (same_project.py), None: read from
    its file (project_folders.py weighs it off the event loop);
    `bound(slug)`: the folder a graph is bound to in this run (its file may not record it yet), or None."""
    plain, hashed = base_slug(root), hashed_slug(root)
    same = same or (lambda slug: same_project.shows_same(same_project.stored_touches(layout.project_graph(slug)),
                                                         root))
    if _look(layout, hashed, plain):
        return hashed
    for slug in earlier_slugs(root):
        if _look(layout, slug, plain) and recorded_project_path(layout.project_graph(slug)) == root:
            return slug
    plain_file = layout.project_graph(plain)
    plain_recorded = recorded_project_path(plain_file) if _look(layout, plain, plain) else None
    if plain_recorded == root:
        return plain
    reference = reference_slug(root)
    if reference is not None and not holds_key(reference) and _look(layout, reference, plain):
        recorded = recorded_project_path(layout.project_graph(reference))
        if takes_over(reference, recorded, root, _evidence(same, reference)):
            return reference  # 0.17's graph of this project (or of one of this name no longer on this machine)
    moved = _moved_here(layout, root, plain, plain_recorded if there(plain_file) else None, same)
    if moved is not None:
        return moved
    if there(plain_file) and takes_over(plain, plain_recorded, root, _evidence(same, plain)):
        return plain  # a graph whose folder is not on this machine (synced from another, or moved) is adopted
    renamed = _renamed_here(layout, root, (plain, hashed), same, bound)
    if renamed is not None:
        return renamed
    if there(plain_file) or _MASKING_NAME.fullmatch(plain) and not named_by_key(root):
        return hashed  # taken by another project, or a name the masking uses (never a plain folder's)
    return plain


def _evidence(same: Callable[[str], bool], slug: str) -> Callable[[], bool]:
    """Asked only when the name would let `root` take the graph: the whole graph is read for its touches."""
    return lambda: same(slug)


def takes_over(slug: str, recorded: str | None, root: str, same: Callable[[], bool] = lambda: False) -> bool:
    """Whether `root` may take the graph in folder `slug` that records `recorded`: its own, or one whose
    folder is not on this machine and bore the very same name. Never by the slug alone: `My App` and
    `My-App`, or every name of no ASCII letter (`project`), share one, and a stranger's lessons would
    land in the session. A graph recording no folder is taken by the folder its name spells.

    A graph folder the user renamed for a renamed project (`projects/r07` moved to `projects/r07-renamed`,
    what `kg doctor` advises) no longer bears the name its recorded folder gives it: that folder is the
    one its name now spells.

    A gone folder of this home (an unmounted disk, a folder moved aside, a deleted clone) is taken only on
    evidence it is this project (`same`: the graph's touched files are in `root`); one of another machine's
    home (a graph synced from there) by its name, as before."""
    name = os.path.basename(root.rstrip("/"))
    if recorded is None:  # a key-named folder's masked one (no plain folder takes such a name): its own
        return slug == name or slug == base_slug(root) and named_by_key(root)
    if recorded == root:
        return True
    if not folder_gone(recorded):
        return False
    if moved_by_hand(slug, recorded) and slug in (base_slug(root), name):  # the user's own, as `kg doctor` advises
        return True
    return os.path.basename(recorded.rstrip("/")) == name and (not project_root_ok(recorded) or same())


def moved_by_hand(slug: str, recorded: str) -> bool:
    """A graph folder not named as its recorded folder names one: renamed by the user for another folder."""
    return slug not in (base_slug(recorded), hashed_slug(recorded), os.path.basename(recorded.rstrip("/")))


def _moved_here(layout: Layout, root: str, plain: str, plain_recorded: str | None,
                same: Callable[[str], bool]) -> str | None:
    """Of this folder name's graphs bound to folders not on this machine (`plain` and its hashed twins, made
    where two projects share a name), the one whose recorded folder ends as `root` does by more folders than
    the plain one's: on another machine `~/t1/svc` and `~/t2/svc` were two projects, and here `~/t2/svc`
    is the second. None: no such graph, or the name alone tells (the plain graph, adopted as before).

    The plain graph competes only while its own folder is gone (one that is here is another project's), and
    a twin of a gone folder of this home, taken on evidence only, beats it at a tie unless the plain graph
    shows as much: `~/t2/svc` moved to `~/t3/svc` ends like `~/t1/svc` by `svc` alone, but holds t2's files."""
    twins = [s for s in name_twins(layout, plain) if s != plain]
    if not twins:
        return None
    rival = plain_recorded is not None and folder_gone(plain_recorded)
    best, best_depth = None, _common_tail(root, plain_recorded) if rival and plain_recorded else 0
    plain_shown: bool | None = None  # the plain graph's evidence, read once and only at a tie
    for slug in twins:
        recorded = recorded_project_path(layout.project_graph(slug))
        if recorded is None or not folder_gone(recorded):
            continue  # its folder is here: another project of this name
        shown = project_root_ok(recorded)
        if shown and not same(slug):
            continue  # a gone folder of this home: taken on evidence only, as takes_over
        depth = _common_tail(root, recorded)
        if depth == best_depth and best is None and rival and shown:
            if plain_shown is None:
                plain_shown = same(plain)
            if not plain_shown:
                best = slug
        elif depth > best_depth:
            best, best_depth = slug, depth
    return best


def _renamed_here(layout: Layout, root: str, own: tuple[str, ...],
                  same: Callable[[str], bool], bound: Callable[[str], str | None]) -> str | None:
    """The graph of this folder under another folder's name: one that records it (taken at a rename), or the
    one graph of a gone folder beside it (`~/rn/shop` renamed `~/rn/shop-v2`) whose touched files are in it.
    Reads every graph's record once (cached by file): asked only for a folder no graph is named for."""
    found = []
    for slug in layout.project_slugs():
        if slug in own or holds_key(slug) or slug == reference_slug(root):
            continue  # its own, never served from (twin_folders.py merges them), or weighed above
        recorded = bound(slug) or recorded_project_path(layout.project_graph(slug))
        if recorded == root:
            return slug
        if (recorded is not None and os.path.dirname(recorded) == os.path.dirname(root) and folder_gone(recorded)
                and project_root_ok(recorded) and same(slug)):
            found.append(slug)
    return found[0] if len(found) == 1 else None  # two alike: none is told apart by its files


_HASH_TAIL = re.compile(rf"-[0-9a-f]{{{_HASH_CHARS}}}")


def name_twins(layout: Layout, plain: str) -> list[str]:
    """The graph folders of this folder name: `plain` (when there) and its hashed twins (`plain-<hash>`)."""
    return [s for s in layout.project_slugs() if s == plain or s.startswith(plain + "-")
            and _HASH_TAIL.fullmatch(s[len(plain):])]


def _common_tail(a: str, b: str) -> int:
    """How many folders two paths end with alike (`/x/t2/svc`, `/y/t2/svc`: 2)."""
    pa, pb = a.rstrip("/").split("/"), b.rstrip("/").split("/")
    n = 0
    while n < min(len(pa), len(pb)) and pa[-1 - n] == pb[-1 - n] and pa[-1 - n]:
        n += 1
    return n


def served_instead(layout: Layout, name: str) -> tuple[str, str] | None:
    """For a folder named as kg-memory 0.17 names a project's (the project folder's name as it is): the
    project and the folder of this store's own naming its graph is served from instead (choose_slug takes
    ours first), or None. Such a folder is no graph of its own: at a load of the project it is merged in."""
    for slug in layout.project_slugs():
        graph_file = layout.project_graph(slug)
        root = recorded_project_path(graph_file) if slug != name and there(graph_file) else None
        if root is not None and reference_slug(root) == name and slug in (base_slug(root), hashed_slug(root)):
            return root, slug
    return None


def json_fault(path: Path) -> str | None:
    """Why a file does not read as a JSON object (its own words, none of a load's advice), or None."""
    try:
        raw = json.loads(user_files.read_bytes(path))
    except (OSError, ValueError) as exc:  # ValueError: not JSON, or not UTF-8
        return f"{path} does not read ({exc})"
    return None if isinstance(raw, dict) else f"{path} holds a JSON {type(raw).__name__}, not a graph"


def folder_gone(path: str) -> bool:
    """The folder a graph was bound to is not on this machine: the project moved, or the graph came by
    `kg sync` from a machine that keeps it elsewhere. A folder of the same name then takes the graph:
    memory follows the project, and two machines' copies of one project share one graph."""
    return not os.path.isdir(path)


def project_root_ok(path: str) -> bool:
    """Inside the user's home (events outside it are not counted)."""
    return home_paths.inside(path, str(home()))
