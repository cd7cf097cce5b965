"""Atomic JSON files: the format of record.

A save writes a temp file, fsyncs it, renames the previous file's link to
`.prev`, and renames over the target, so a crash leaves either the old or the
new file, and either the old or the new `.prev`, never a torn one. A load that cannot parse the file falls back to `.prev`.
"""

from __future__ import annotations

import hashlib
import json
from json.encoder import encode_basestring as _enc  # the C function when available
import logging
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from . import faults, kept_aside, read_refusals, user_files
from .json_reading import Reading as Reading  # what each builder is given: files.Reading

log = logging.getLogger(__name__)

# A lone surrogate (a file name read with surrogateescape, text that slipped past the edges' mending)
# is stored as "?" rather than failing the write: a writer that raised here took the server down.
TEXT_ERRORS = "replace"


class Unreadable(Exception):
    pass


class Unavailable(Unreadable):
    """A file that could not be read for a cause outside what it holds (a permission, an I/O error): not
    corrupt, so never moved aside nor stood in for by its `.prev`. `fix` says what makes it read."""

    def __init__(self, path: Path, why: str, fix: str) -> None:
        super().__init__(f"{why}. Fix: {fix}.")
        self.path, self.why, self.fix = path, why, fix


def opens(path: Path) -> bool:
    """Whether a file that could not be read opens now (a permission fixed, a share back), or is gone (its
    load then says so): one open, nothing read."""
    try:
        with user_files.open_regular(real_file(path)):
            return True
    except FileNotFoundError:
        return True
    except OSError:
        return False


# A file's content digest, noted where its bytes are at hand (a save writes them, a load reads them) with the
# identity of the version they are (inode, size, mtime: a rename into place keeps it), so a journal begun on the
# event loop can name its graph file's content without reading the file there (storage/journal.py).
_digests: dict[str, tuple[tuple[int, int, int, int], str]] = {}
_DIGESTS_KEPT = 4096  # one per file saved or loaded: a bound, not a cache policy


def _identity(st: os.stat_result) -> tuple[int, int, int, int]:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def _note_digest(path: Path, st: os.stat_result, digest: str) -> None:
    if len(_digests) >= _DIGESTS_KEPT:
        _digests.pop(next(iter(_digests)))
    _digests[str(path)] = (_identity(st), digest)


def known_digest(path: Path, st: os.stat_result) -> str | None:
    """The content digest noted for `path` when its version is the one `st` describes (None: not noted).
    Cheap enough for the event loop (no read)."""
    noted = _digests.get(str(real_file(path)))
    return noted[1] if noted is not None and noted[0] == _identity(st) else None


def content_digest(path: Path) -> str | None:
    """The file's content digest (sha256, hex), None when there is no file. Reads it unless noted: not on the loop."""
    path = real_file(path)
    try:
        with user_files.open_regular(path) as f:  # a FIFO is an OSError, never a wait for a writer
            st = os.fstat(f.fileno())
            noted = known_digest(path, st)
            if noted is not None:
                return noted
            digest = hashlib.sha256(f.read()).hexdigest()
    except (FileNotFoundError, NotADirectoryError):
        return None
    _note_digest(path, st, digest)
    return digest


def probe_write(folder: Path) -> None:
    """Make and remove a small file in `folder`, or raise the OSError that says why not: os.access says
    yes to root where writing fails (a read-only or special file system, KG_HOME=/sys/kernel)."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=".kg-probe-", dir=folder)
    except OSError as exc:  # named by the folder, not by the random name that could not be made
        raise type(exc)(exc.errno, f"{exc.strerror} (no file can be made in it)", str(folder)) from None
    os.close(fd)
    os.unlink(tmp)


def fsync_dir(path: Path) -> None:
    """Make a rename in `path` durable (best effort: some filesystems refuse a directory fsync)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_atomic(path: Path, data: bytes, keep_prev: bool = True) -> None:
    """Replace `path` with `data` durably. Raises OSError on failure (nothing half-written)."""
    write_atomic_chunks(path, (data,), keep_prev)


# A worker thread encoding a large file (a 10,000-node graph: ~200 ms of Python) lets go of the interpreter
# this often: otherwise the loop waited up to the 5-ms switch interval at each of its system calls meanwhile
# (a fold every second: kg_search p99.9 64-78 -> 15-20 ms, max 180 -> 25 ms).
YIELD_EVERY = 256  # pieces
YIELD_SECONDS = 0.0002


def write_atomic_chunks(path: Path, chunks: Iterable[bytes | str], keep_prev: bool = True) -> None:
    """`write_atomic` of the chunks joined (str chunks as UTF-8), written as they come: a large
    file is never held whole in memory. Raises OSError on failure (nothing half-written)."""
    put_in_place(stage_chunks(path, chunks), path, keep_prev)


def stage_chunks(path: Path, chunks: Iterable[bytes | str]) -> Path:
    """The first half of write_atomic_chunks: the chunks written and fsynced to `path`'s temp file,
    which is returned (`put_in_place` is the second half). Raises OSError with no temp file left."""
    path = real_file(path)
    faults.check(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    digest = hashlib.sha256()
    try:
        with open(tmp, "wb") as f:
            for k, chunk in enumerate(chunks, 1):
                data = chunk.encode("utf-8", TEXT_ERRORS) if isinstance(chunk, str) else chunk
                f.write(data)
                digest.update(data)
                if not k % YIELD_EVERY:
                    time.sleep(YIELD_SECONDS)
            f.flush()
            os.fsync(f.fileno())
            # Noted for `path`: the temp file renamed into place keeps its identity.
            _note_digest(path, os.fstat(f.fileno()), digest.hexdigest())
    except BaseException:
        discard(tmp)
        raise
    return tmp


def put_in_place(tmp: Path, path: Path, keep_prev: bool = True) -> None:
    """A staged temp file replaces `path` (which becomes `.prev` first when `keep_prev`), durably."""
    path = real_file(path)
    try:
        if keep_prev and path.exists():
            _keep_prev(path)
        os.replace(tmp, path)
    except BaseException:
        discard(tmp)
        raise
    fsync_dir(path.parent)


def keep_repaired(source: Path) -> Path:
    """A copy of a file as it was before a load read it other than as written, kept as `<name>.repaired`
    for a look by hand (the next save writes what was read); an identical copy already kept is reused."""
    data = user_files.read_bytes(source)
    dest = source.with_name(source.name + ".repaired")
    n = 1
    while dest.exists():
        if dest.read_bytes() == data:
            return dest
        n += 1
        dest = source.with_name(f"{source.name}.repaired.{n}")
    write_atomic(dest, data, keep_prev=False)
    return dest


def unused_name(path: Path) -> Path:
    """`path`, or `path.2`, `path.3`...: a second file set aside must not replace the first (both are kept
    for a recovery by hand)."""
    n = 1
    candidate = path
    while os.path.lexists(candidate):  # a symlink loop set aside before is there too: not replaced
        n += 1
        candidate = path.with_name(f"{path.name}.{n}")
    return candidate


def real_file(path: Path) -> Path:
    """Where a symlinked file really is (a graph file linked into a synced folder): it is saved there, with
    its `.prev` beside it, and the link stays a link. One lstat for a plain file."""
    return Path(os.path.realpath(path)) if os.path.islink(path) else path  # False in a folder it may not enter


def dangling(named: Path, real: Path) -> str | None:
    """Why a symlinked file cannot be used: it leads into a folder that does not exist (a drive not mounted,
    a synced folder gone). A save there would make that folder and fork the graph silently. A link to a file
    not made yet in a folder that is there is fine: the save makes it."""
    if named == real or real.parent.is_dir():
        return None
    return (f"{named} is a symlink to {real}, whose folder {real.parent} does not exist (a drive not mounted?): "
            "mount it or fix the link, or remove the link to start this graph empty.")


def is_there(path: Path) -> bool:
    """Whether something is at `path`, readable or not: a symlink loop or a folder that may not be looked
    into is there (a load says why it cannot be read), where `Path.exists()` says no and it was taken
    for a new, empty graph."""
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):  # a link to a file not made yet too: the save makes it
        return False
    except OSError:
        return True
    return True


def discard(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


def prev_of(path: Path) -> Path:
    """Where a file's previous save is kept: its extension replaced (`graph.json` -> `graph.prev`), as
    kg-memory names it, so either server falls back to the other's last save and a downgraded one
    does not find a stale backup of its own."""
    return path.with_suffix(".prev")


def _prevs(path: Path) -> list[Path]:
    """Previous saves to fall back on, the newest naming first: our stores before 2026-12-03 kept
    `graph.json.prev`."""
    return [prev_of(path), path.with_name(path.name + ".prev")]


def _keep_prev(path: Path) -> None:
    """The current file becomes `.prev` by a rename, never by rewriting `.prev` in place: a crash
    mid-copy left a torn `.prev` (found by formal/models/durability.py). A hard link costs nothing;
    where the filesystem has none, a copy to a temp name is renamed into place. A backup under the
    old name goes once the new one is in place (it would only grow stale)."""
    prev = prev_of(path)
    staged = prev.with_name(prev.name + ".tmp")
    try:
        staged.unlink()
    except FileNotFoundError:
        pass
    try:
        os.link(path, staged)
    except OSError:
        shutil.copy2(path, staged)
        with open(staged, "rb") as f:
            os.fsync(f.fileno())
    os.replace(staged, prev)
    for older in _prevs(path)[1:]:
        discard(older)


def dump_json(obj: Any, indent: int | None = 2) -> bytes:
    if indent == 2:
        return dumps_indent2(obj).encode("utf-8", TEXT_ERRORS)
    return json.dumps(obj, ensure_ascii=False, indent=indent).encode("utf-8", TEXT_ERRORS)


# `json.dumps(indent=2)` runs the pure-Python encoder (the C one takes no indent): 10,000 nodes cost
# over a second. This writes the same bytes (tested against json.dumps) about twice as fast.
def _float(v: float) -> str:
    if v != v:
        return "NaN"
    if v in (float("inf"), float("-inf")):
        return "Infinity" if v > 0 else "-Infinity"
    return float.__repr__(v)


def _scalar(v: Any) -> str | None:
    """A leaf's JSON text, or None for a container (or anything unusual)."""
    t = type(v)
    if t is str:
        return _enc(v)
    if t is float:
        return _float(v)
    if t is int:
        return int.__repr__(v)
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    return None


def _key(k: Any) -> str:
    if type(k) is str:
        return _enc(k)
    return _enc(json.dumps(k).strip('"')) if not isinstance(k, float) else _enc(_float(k))


def iter_indent2_object(members: Iterable[tuple[Any, Any]], ind: str = "") -> Iterator[str]:
    """`dumps_indent2(dict(members), ind)`, one member at a time: each value can be made as it is
    written and dropped after (a 10,000-node graph's save need not hold its whole JSON at once)."""
    inner = ind + "  "
    sep = "{\n" + inner
    for k, v in members:
        if type(v) is dict and len(v) > _STREAM_MEMBERS:
            # A large dict inside (the graph's `_meta.versions`, one per node) streams too: as one
            # text it was the fold's peak, ~10 MiB of pieces at 10,000 nodes.
            yield sep + _key(k) + ": "
            yield from iter_indent2_object(v.items(), inner)
        else:
            yield sep + _key(k) + ": " + dumps_indent2(v, inner)
        sep = ",\n" + inner
    yield "{}" if sep[0] == "{" else "\n" + ind + "}"


_STREAM_MEMBERS = 256


def dumps_indent2(obj: Any, ind: str = "") -> str:
    """Exactly `json.dumps(obj, ensure_ascii=False, indent=2)`; `ind`: as a value nested that deep."""
    out: list[str] = []
    w = out.append

    def enc(o: Any, ind: str) -> None:
        text = _scalar(o)
        if text is not None:
            w(text)
            return
        if isinstance(o, dict):
            if not o:
                w("{}")
                return
            inner = ind + "  "
            sep = "{\n" + inner
            for k, v in o.items():
                w(sep)
                sep = ",\n" + inner
                w(_key(k))
                w(": ")
                text = _scalar(v)
                if text is not None:
                    w(text)
                else:
                    enc(v, inner)
            w("\n" + ind + "}")
            return
        if isinstance(o, list | tuple):
            if not o:
                w("[]")
                return
            inner = ind + "  "
            sep = "[\n" + inner
            for v in o:
                w(sep)
                sep = ",\n" + inner
                text = _scalar(v)
                if text is not None:
                    w(text)
                else:
                    enc(v, inner)
            w("\n" + ind + "]")
            return
        if isinstance(o, bool | int | float | str):  # subclasses: what json.dumps writes for them
            w(json.dumps(o, ensure_ascii=False))
            return
        raise TypeError(f"Object of type {type(o).__name__} is not JSON serializable")

    enc(obj, ind)
    return "".join(out)


def load_json(path: Path, build: Callable[[Any, Reading], Any] | None = None, fell_back: list[Path] | None = None,
              set_aside: list[Path] | None = None, read_only: bool = False, graph: bool = True) -> Any | None:
    """The file's JSON, `.prev` when the file is corrupt, None when neither exists; `Unavailable` when it
    may not be read or the disk failed (not corrupt: nothing moved, no `.prev` in its place).

    A corrupt file that `.prev` stands in for is moved to `.unreadable` (kept for a look by hand),
    so the next save's `.prev` is the good one, not the corrupt one. When nothing readable is
    left, `Unreadable` says which files are bad and how to restore one. `build`: what the JSON must
    make (a graph); JSON it raises on (`"nodes": []`) is as corrupt as a torn file. `fell_back` gets
    `.prev`'s path when that was read instead, `set_aside` where the unreadable file was moved.
    `read_only`: a look that changes nothing on disk (the unreadable file stays where it is). `graph`: say how
    a graph is restored or started empty (a file of another kind, sessions.json, is no graph: its caller says)."""
    named, path = path, real_file(path)
    if (why := dangling(named, path)) is not None:
        raise Unreadable(why)
    if not is_there(path):
        prev = _newest_prev(path, build)
        aside = path.with_name(path.name + ".unreadable")
        if prev.exists() and os.path.lexists(aside):  # set aside by an earlier load, which said so as an error already
            log.warning("%s was set aside as unreadable (kept as %s); loading %s (the previous save)", path,
                        aside.name, prev.name)
        elif prev.exists():
            log.error("%s is missing; loading %s (the previous save)", path, prev.name)
        if prev.exists():
            value = _parse_prev(path, prev, "is missing", build, graph)
            if fell_back is not None:
                fell_back.append(prev)
            return value
        return None
    try:
        return _parse(path, build)
    except Unavailable:
        raise  # its last save is in it: a `.prev` served instead would lose that save's lessons for good
    except Unreadable as exc:
        prev = _newest_prev(path, build)  # only now: each candidate is parsed to see that it reads
        if not prev.exists() and (loop := kept_aside.loop_fix(path)):
            raise Unreadable(f"{path} {exc.args[0].removeprefix(str(path) + ': ')} (a symlink loop) and no "
                             f"{prev.name} is beside it: {loop}.") from exc
        if not prev.exists():
            raise Unreadable(f"{path} is unreadable ({exc.args[0].removeprefix(str(path) + ': ')}) and no "
                             f"{prev.name} is beside it" + (": restore it from the store's git history (`kg restore`) "
                                                            "or move it aside to start this graph empty." if graph
                                                            else "")) from exc
        value = _parse_prev(path, prev, f"is unreadable ({exc})", build, graph)
        if fell_back is not None:
            fell_back.append(prev)
        if read_only:
            return value
        aside = unused_name(path.with_name(path.name + ".unreadable"))
        try:
            os.replace(path, aside)
        except OSError:
            aside = path
        else:
            kept_aside.off_the_live_file(aside, path)
        log.error("%s is unreadable (%s); falling back to %s (the previous save); the bad file is kept as %s",
                  path, exc, prev.name, aside.name)
        if set_aside is not None:
            set_aside.append(aside)
        return value


def _newest_prev(path: Path, build: Callable[[Any, Reading], Any] | None) -> Path:
    """Of the previous saves beside `path` (kg-memory's name and our older one), the newest that reads
    (a store both servers wrote keeps both, and either may be the stale one); the newest when none does."""
    found = sorted((p for p in _prevs(path) if p.exists()), key=lambda p: p.stat().st_mtime, reverse=True)
    for prev in found:
        try:
            _parse(prev, build)
        except Unreadable:
            continue
        return prev
    return found[0] if found else prev_of(path)


_UTF8_BEYOND_ASCII = re.compile("[^\x00-\x7f\ufffd]")
_WIDE_BOMS = ((b"\xff\xfe\0\0", "UTF-32"), (b"\0\0\xfe\xff", "UTF-32"), (b"\xff\xfe", "UTF-16"),
              (b"\xfe\xff", "UTF-16"))


def _loads(text: str | bytes, reading: Reading) -> Any:
    return json.loads(text, object_pairs_hook=reading.pairs, parse_constant=reading.constant, parse_float=reading.number)


def _loads_what_reads(path: Path, raw: bytes, reading: Reading) -> Any:
    """The JSON of a file, over two kinds of damage that cost a character, not the file (every node
    around them still reads): NUL bytes after its end (a crash's zero-filled tail on some file systems)
    and bytes that are not UTF-8 (read as U+FFFD, noted in `reading`: the next save writes U+FFFD). The
    caller says what `reading` notes, once: a look from outside the actor (the editor's list) says nothing.
    A file with no UTF-8 in it at all (an editor saved it as Windows-1252 or Latin-1) is read as that.
    A UTF-16 or UTF-32 file is said to be one (its NULs are not a crash's tail): Unreadable, kept as it is."""
    wide = next((name for bom, name in _WIDE_BOMS if raw.startswith(bom)), None)
    if wide is not None:
        raise Unreadable(f"{path}: is {wide} text (it begins with a {wide} byte order mark), not UTF-8: save it "
                         "as UTF-8")
    if raw.endswith(b"\0"):
        raw = raw.rstrip(b"\0")
        log.warning("%s: NUL bytes after its end were left out", path)
    try:
        return _loads(raw, reading)
    except UnicodeDecodeError:
        text = raw.decode("utf-8", "replace")
    if not _UTF8_BEYOND_ASCII.search(text):
        # No character of the file is UTF-8 beyond ASCII: a one-byte encoding, not a UTF-8 file damaged
        # (read as Windows-1252 that one lost each accented letter of the file).
        try:
            value = _loads(raw.decode("cp1252"), reading)
        except ValueError:
            pass
        else:
            reading.repairs.append("the file is not UTF-8: it was read as Windows-1252 (Latin-1), and the next "
                                   "save writes it as UTF-8")
            return value
    value = _loads(text, reading)
    reading.repairs.append("bytes that are not UTF-8 were read as U+FFFD")
    return value


def _parse_prev(path: Path, prev: Path, why: str, build: Callable[[Any, Reading], Any] | None,
                graph: bool = True) -> Any:
    try:
        return _parse(prev, build)
    except Unreadable as exc:
        both = "both" if os.path.lexists(path) else prev.name  # the file moved aside already: what is left
        raise Unreadable(f"{path} {why} and {prev.name} is unreadable too ({exc})" + (
            f": restore it from the store's git history (`kg restore`) or move {both} aside to start this graph "
            "empty." if graph else "")) from exc


def parse(path: Path, build: Callable[[Any, Reading], Any] | None = None) -> Any:
    """The file's value, or Unreadable saying why not: no fall-back, nothing on disk changed (a look)."""
    return _parse(real_file(path), build)


def _parse(path: Path, build: Callable[[Any, Reading], Any] | None = None) -> Any:
    try:
        with user_files.open_regular(path) as f:  # a FIFO, a socket, a device: unreadable, never waited on
            st = os.fstat(f.fileno())
            raw = f.read()
    except OSError as exc:
        if (refused := read_refusals.said(path, exc)) is not None:
            raise Unavailable(path, *refused) from exc  # no permission, an I/O error: the file is not damaged
        # A folder or a FIFO in its place, a symlink loop: as unreadable as a torn file (its `.prev` is read
        # instead, or the graph is served empty and refuses changes), never a failed load.
        raise Unreadable(f"{path}: cannot be opened: {exc.strerror or exc}") from exc
    _note_digest(path, st, hashlib.sha256(raw).hexdigest())  # a journal begun on this version names it
    reading = Reading(path)
    try:
        value = _loads_what_reads(path, raw, reading)
    except ValueError as exc:
        raise Unreadable(f"{path}: {exc}") from exc
    except RecursionError:
        raise Unreadable(f"{path}: nested too deeply to be a graph") from None
    if build is None:
        return value
    # A file of `null` goes to `build` too: taken as "no graph" it was an empty graph, every lesson of the
    # file lost without a word (a start served it empty, a save under the server took it for a hand edit).
    try:
        return build(value, reading)
    except Unreadable:
        raise
    except Exception as exc:  # noqa: BLE001 - any shape the builder cannot take is a corrupt file
        raise Unreadable(f"{path}: not the shape of a graph ({type(exc).__name__}: {exc})") from exc
