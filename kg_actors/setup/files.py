"""Files setup writes: whole or not at all, under one lock, each change recorded.

The record (`<store>/setup/record.json`) keeps, per user file setup changed,
its bytes before the first change and the digest after the last one: uninstall
restores the old bytes when the file still holds exactly what setup left.
"""

from __future__ import annotations

import base64
import fcntl
import hashlib
import json
import os
import re
import shlex
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..core import strict_json
from ..storage import user_files
from ..storage.files import fsync_dir

from . import SetupError, jsonc

RECORD_VERSION = 1


def digest(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


def foreign_entry(entry: object, want: object, recorded: object, wrote_unrecorded: bool = False) -> bool:
    """Whether an agent's MCP server entry named kg is someone else's, to be left alone: not what setup
    writes now, nor what it wrote last time (`recorded`), nor kg's entry the user added to (customized), this
    kg's or the one setup wrote last time (another kg path).
    `wrote_unrecorded`: an older setup wrote this file without keeping its entry; a `kg mcp` entry there is
    taken for that one."""
    if entry is None or entry == want or entry == recorded or customized(entry, want) or customized(entry, recorded):
        return False
    return not (wrote_unrecorded and _runs_kg_mcp(entry))


def unrecorded(done: dict[str, Any]) -> bool:
    """Setup wrote the step's file before it kept the entry it wrote (records before 2026-12-03)."""
    return bool(done.get("path")) and "entry" not in done


def customized(entry: object, want: object) -> bool:
    """kg's entry as the user changed it: it still runs this kg's `kg mcp` (setup's command and arguments,
    maybe more after them), with keys added or changed around it (an env var, a timeout). It is kg's: setup
    leaves it, uninstall takes it out."""
    if not isinstance(entry, dict) or not isinstance(want, dict) or entry == want:
        return False
    head = _argv(want)
    return bool(head) and _argv(entry)[:len(head)] == head


def kgs_own(entry: object, want: object, recorded: object) -> bool:
    """Whether uninstall takes the entry out: what setup wrote (or writes now), or kg's `kg mcp` entry the
    user added to."""
    return entry is not None and (entry == want or entry == recorded or customized(entry, want)
                                  or customized(entry, recorded) or _runs_kg_mcp(entry))


def changes_said(entry: object, base: object) -> str:
    """What the user added to or changed in kg's entry, against what setup wrote: "env MY_EXTRA, timeout".
    What it only lacks of setup's (an env var setup passes) is named ("without env KG_LOG") only when it is all
    that differs: beside what the user put there it says nothing they would want back."""
    if not isinstance(entry, dict) or not isinstance(base, dict):
        return ""
    put, lacks = [], []
    for key in sorted(set(entry) | set(base)):
        mine, theirs = entry.get(key), base.get(key)
        if mine == theirs:
            continue
        if isinstance(mine, dict) and isinstance(theirs, dict):
            put += [f"{key} {name}" for name in sorted(mine) if mine[name] != theirs.get(name)]
            lacks += [f"{key} {name}" for name in sorted(set(theirs) - set(mine))]
        else:
            (put if key in entry else lacks).append(key)
    return ", ".join(put) or ("without " + ", ".join(lacks) if lacks else "")


def argv_said(entry: object) -> str:
    """The command an MCP server entry runs, as a shell would read it."""
    return shlex.join(_argv(entry)) if isinstance(entry, dict) else repr(entry)


def _argv(entry: dict[str, Any]) -> list[str]:
    command, args = entry.get("command"), entry.get("args")
    argv = command if isinstance(command, list) else [command, *(args if isinstance(args, list) else [])]
    return [a for a in argv if isinstance(a, str)]


def _runs_kg_mcp(entry: object) -> bool:
    """`.../kg mcp` or `python -m kg_actors mcp`, as `command` + `args` or as one `command` list."""
    if not isinstance(entry, dict):
        return False
    words = _argv(entry)
    return bool(words) and "mcp" in words and (os.path.basename(words[0]) == "kg" or "kg_actors" in words)


def read_bytes(path: Path) -> bytes | None:
    """A file's bytes, None when there is none; one that cannot be read (a folder of that name, no
    permission, a FIFO that would hold setup for ever) is a SetupError naming it, so its own step says so and
    the others go on."""
    try:
        return user_files.read_bytes(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SetupError(f"{path}: {exc.strerror or exc}; {UNTOUCHED}") from None


_LEAD = re.compile(rb"\n([ \t]+)\S")
_BOM = b"\xef\xbb\xbf"


def json_like(data: Any, raw: bytes | None) -> bytes:
    """`data` as JSON written the way the user's file `raw` was: only where they differ when that reads back
    (their layout kept), else whole in their indent unit and line endings; their BOM kept, their text as typed
    (not as \\u escapes)."""
    raw = raw or b""
    bom = _BOM if raw.startswith(_BOM) else b""
    edited = _edited(data, raw[len(bom):])
    if edited is not None:
        return bom + edited
    leads = [lead.decode() for lead in _LEAD.findall(raw)]
    indent: int | str = 2
    if any("\t" in lead for lead in leads):
        indent = "\t"
    elif leads:
        indent = min(len(lead) for lead in leads)  # the unit: the shallowest level, wherever it first shows
    text = json.dumps(data, indent=indent, ensure_ascii=False) + "\n"  # newlines in strings are escaped
    if raw.count(b"\r\n") * 2 > raw.count(b"\n"):
        text = text.replace("\n", "\r\n")
    return bom + text.encode()


def _edited(data: Any, raw: bytes) -> bytes | None:
    """The user's object file changed only where `data` differs (their layout, inline objects and all),
    checked by reading it back; None when that does not hold (written whole instead)."""
    try:
        text = raw.decode("utf-8")
        old = json.loads(jsonc.without_trailing_commas(jsonc.blank_comments(text)))
        if not isinstance(data, dict) or not isinstance(old, dict):
            return None
        out = jsonc.edited(text, old, data)
        same = json.loads(jsonc.without_trailing_commas(jsonc.blank_comments(out))) == data
    except (ValueError, StopIteration, RecursionError):
        return None
    return out.encode() if same else None


def atomic_write(path: Path, data: bytes, mode: int | None = None) -> None:
    """Temp file beside `path`, fsync, rename: a reader sees the old file or the new one, never half.
    A symlinked config (a dotfiles checkout) is written where the link points; the link stays."""
    path = Path(os.path.realpath(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    if mode is None:
        mode = writable_mode(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def writable_mode(path: Path) -> int:
    """The mode a write of `path` keeps (0o644 for a new file); a read-only file is a SetupError naming it,
    so a step can ask before it writes anything of its own."""
    path = Path(os.path.realpath(path))
    try:
        mode = path.stat().st_mode & 0o7777  # keep the user's permissions on their file
    except FileNotFoundError:
        return 0o644
    if not mode & 0o222:  # a rename would replace it all the same: a read-only file is the user's to keep
        raise SetupError(f"{path} is read-only (mode {mode:o}); left untouched: make it writable to let kg "
                         "setup change it")
    return mode


def missing_folders(path: Path) -> list[str]:
    """The folders above `path` that do not exist yet, deepest first: what writing it will make."""
    out = []
    folder = Path(os.path.realpath(path)).parent
    while not folder.exists() and folder != folder.parent:
        out.append(str(folder))
        folder = folder.parent
    return out


def read_tree(root: Path) -> dict[str, bytes] | None:
    """Every file under `root` by relative path, or None when `root` is not a folder."""
    if not root.is_dir():
        return None
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def write_tree(root: Path, files: dict[str, tuple[bytes, int]]) -> None:
    """Make `root` hold exactly `files`: built beside it, then swapped in, so no half-written plugin is seen."""
    root.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{root.name}.", dir=root.parent))
    old = root.with_name(f".{root.name}.old")
    try:
        for rel, (data, mode) in files.items():
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(target, mode)
        if old.exists():
            remove_tree(old)
        if root.exists():
            os.replace(root, old)
        os.replace(staging, root)
    except BaseException:
        remove_tree(staging)
        raise
    remove_tree(old)
    fsync_dir(root.parent)


def remove_tree(root: Path) -> None:
    if not root.exists() and not root.is_symlink():
        return
    if root.is_symlink() or root.is_file():
        root.unlink()
        return
    for p in sorted(root.rglob("*"), key=lambda p: len(p.parts), reverse=True):
        if p.is_dir() and not p.is_symlink():
            p.rmdir()
        else:
            p.unlink()
    root.rmdir()


@contextmanager
def locked(path: Path, on_wait: Callable[[], object] | None = None) -> Iterator[None]:
    """Hold an exclusive lock on `path`: a second setup waits for the first, then finds its work done."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if on_wait is not None:
                on_wait()
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing drops the lock


CUT_SHORT = "kg setup was cut short (interrupted or killed) before it finished here"  # a step's failure until it ends


class Record:
    """What setup changed: `done` per step, and per user file its first `before` bytes and last `after` digest."""

    def __init__(self, path: Path, data: dict[str, Any] | None = None):
        self.path = path
        self.data: dict[str, Any] = data or {"version": RECORD_VERSION, "done": {}, "files": {}}

    @classmethod
    def load(cls, path: Path) -> Record:
        raw = read_bytes(path)
        if raw is None:
            return cls(path)
        try:
            data = json.loads(raw)
        except ValueError as exc:
            raise SetupError(f"{path}: the setup record is not valid JSON ({exc}); move it away to start afresh") from None
        if not isinstance(data, dict) or data.get("version") != RECORD_VERSION:
            raise SetupError(f"{path}: not a setup record of version {RECORD_VERSION}; move it away to start afresh")
        data.setdefault("done", {})
        data.setdefault("files", {})
        return cls(path, data)

    @property
    def empty(self) -> bool:
        return not self.data["done"] and not self.data["files"]

    def done(self, step: str) -> dict[str, Any]:
        facts: dict[str, Any] = self.data["done"].get(step, {})
        return facts

    def mark(self, step: str, **facts: object) -> None:
        self.data["done"].setdefault(step, {}).update(facts)

    def note_made(self, step: str, *paths: Path) -> None:
        """Keep the folders writing `paths` is about to make (~/.gemini, ~/.config/opencode): uninstall removes
        them when empty, and an agent's folder left behind would make a later setup find that agent."""
        made = list(self.done(step).get("made", []))
        for path in paths:
            for folder in missing_folders(path):
                if folder not in made:
                    made.append(folder)
        if made:
            self.mark(step, made=made)

    def forget(self, step: str) -> None:
        self.data["done"].pop(step, None)

    def failed(self, step: str, why: str | None) -> None:
        """Keep why the step's last run failed (None: it did not), for `kg doctor` to quote: a failed step
        is not one the user left out."""
        failures = self.data.setdefault("failed", {})
        if why is None:
            failures.pop(step, None)
        else:
            failures[step] = why

    def failure(self, step: str) -> str | None:
        why = self.data.get("failed", {}).get(step)
        return why if isinstance(why, str) else None

    def before_change(self, path: Path) -> None:
        """Keep the bytes a user file had before setup first touched it (a later run keeps the first)."""
        key = str(path)
        if key not in self.data["files"]:
            data = read_bytes(path)
            self.data["files"][key] = {"before": None if data is None else base64.b64encode(data).decode(),
                                       "after": digest(data)}

    def after_change(self, path: Path) -> None:
        """The digest setup left the file with; a file left as it was before setup (its step failed, or
        wrote nothing) drops out: uninstall has nothing of it to put back."""
        entry = self.data["files"].get(str(path))
        if entry is not None:
            entry["after"] = digest(read_bytes(path))
            before = None if entry["before"] is None else base64.b64decode(entry["before"])
            if entry["after"] == digest(before):
                del self.data["files"][str(path)]

    def files(self) -> dict[Path, tuple[bytes | None, str | None]]:
        return {Path(k): (None if v["before"] is None else base64.b64decode(v["before"]), v["after"])
                for k, v in self.data["files"].items()}

    def save(self) -> None:
        if self.empty and not self.data.get("failed"):
            self.path.unlink(missing_ok=True)
            return
        atomic_write(self.path, (json.dumps(self.data, indent=2, sort_keys=True) + "\n").encode(), 0o600)


# The next step of every config file setup cannot read or change as it is (uninstall says its own command).
UNTOUCHED = "left untouched: fix or move it, then run kg setup again"


def json_config(raw: bytes | None, path: Path, objects: tuple[str, ...], hint: str = "") -> dict[str, Any]:
    """A harness's JSON config ({} when absent), whose `objects` keys, when present, hold objects;
    anything else is a SetupError naming the file (setup leaves it untouched). An empty file (whitespace
    at most) is {}: no setting is lost by writing over it."""
    if not raw or not raw.strip():
        return {}
    try:
        data = strict_json.loads(raw)
    except ValueError as exc:
        raise SetupError(f"{path}: not valid JSON ({exc}); {hint or UNTOUCHED}") from None
    if not isinstance(data, dict) or not all(isinstance(data.get(k, {}), dict) for k in objects):
        keys = " and ".join(f'"{k}"' for k in objects)
        raise SetupError(f"{path}: not a JSON object{f' with {keys} objects' if objects else ''}; {UNTOUCHED}")
    return data
