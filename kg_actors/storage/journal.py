"""A graph's append-only journal: what makes a reply durable at the cost of the change.

Each record is one JSON line of entries set or removed (idempotent), fsynced
before the reply. The tick folds the graph into its JSON (a large file's fold waits while its journal is a
small share of it: graph_writer.fold_due); on start a journal
left behind is replayed over the JSON. A torn last line (a crash mid-append)
is ignored: its write was never acknowledged. A journal's first line names the
JSON file it applies on top of (the sha256 of its content; size, mtime and inode too): when
the file was replaced since (a restore by hand, `kg restore`), disk wins and the journal is
set aside rather than replayed over it. A copy of the store (`cp -r`, tar) keeps the content
but not the mtime to the nanosecond: a journal named its file by mtime alone before, and its
answered writes were set aside in a copy; one without a digest is still compared that way.

A fold does not stop the appends: the JSON is written to its temp file while
records go on being appended, and then `fold_in` puts it in place and leaves
the journal holding only the records appended since the snapshot (`end`
marked where they start), under a header naming the new JSON. Those are
written to `<journal>.tmp` and fsynced before the JSON is replaced, so a crash
between the two renames leaves a `.tmp` that names the JSON in place, which
`recover` (at load) puts where the journal goes; any other `.tmp` is stale.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any, BinaryIO

from . import faults, files, user_files

log = logging.getLogger(__name__)


BASE = "base"  # the header line's key
DIGEST = "sha256"  # the header's digest of the graph file's content (files.content_digest)


def journal_path(graph_file: Path) -> Path:
    return graph_file.with_name(graph_file.name + ".journal")


def _base(graph_file: Path) -> list[int] | None:
    """The identity of the graph file a journal's records apply on top of (None: no file yet)."""
    try:
        st = graph_file.stat()
    except FileNotFoundError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ino]


def _header_line(file: Path, graph_file: Path, read_ok: bool) -> str:
    """The header naming `file` (the graph file, or a fold's staged one that becomes it): its digest as noted
    where its bytes were at hand; read here only when `read_ok` (a worker thread: never on the event loop)."""
    header: dict[str, Any] = {BASE: None}
    try:
        st = file.stat()
    except FileNotFoundError:
        return json.dumps(header) + "\n"
    header[BASE] = [st.st_size, st.st_mtime_ns, st.st_ino]
    digest = files.known_digest(graph_file, st)
    if digest is None and read_ok:
        digest = files.content_digest(file)
    if digest is not None:
        header[DIGEST] = digest
    return json.dumps(header) + "\n"


def _same_base(named: object, now: list[int] | None) -> bool:
    """Whether a header's base is the graph file now, for a header with no digest: by size and mtime. Not
    by inode: a copy of the store (`cp -a`, a backup put back, another disk) keeps both and gets new inodes;
    a restore writes the file anew, which its mtime shows."""
    return named == now or (isinstance(named, list) and now is not None and named[:2] == now[:2])


def _names(header: dict[str, Any], graph_file: Path) -> bool:
    """Whether a journal's header names the graph file as it is now: by its content when the header has its
    digest (a copy keeps it, and tar keeps the mtime to the second, `cp` not at all), else as before."""
    digest = header.get(DIGEST)
    if isinstance(digest, str):
        return files.content_digest(graph_file) == digest
    return _same_base(header.get(BASE), _base(graph_file))


def _graph_file(path: Path) -> Path:
    return path.with_name(path.name.removesuffix(".journal"))


def append(path: Path, records: list[dict[str, Any]], sync: bool = True) -> None:
    """Append the records, fsynced when `sync` (else handed to the kernel only: a kill -9 keeps
    them, a power cut may not; the next synced append or the fold makes them durable)."""
    appended = write(path, records)
    try:
        if sync:
            appended.fsync(folder_too=appended.created)
    finally:
        appended.close()


class Appended:
    """An append the kernel holds: `fsync` makes it durable (or cuts it off and raises), `close` ends it.

    Split so that an owner on an event loop writes there (a page-cache write, microseconds) and
    waits for only the fsync in a worker thread."""

    __slots__ = ("_file", "_start", "_path")

    def __init__(self, file: BinaryIO, start: int, path: Path):
        self._file, self._start, self._path = file, start, path

    @property
    def created(self) -> bool:
        """Whether this append made the journal: its name is durable only once its folder is fsynced."""
        return self._start == 0

    def fsync(self, folder_too: bool = False) -> None:
        try:
            os.fsync(self._file.fileno())
        except OSError:
            self.cut()
            raise
        if folder_too:
            files.fsync_dir(self._path.parent)

    def cut(self) -> None:
        # A full disk may take part of the append: cut it off, so what follows starts clean. The file is
        # unbuffered: a buffered one's truncate flushed the rest first, which failed again, and the part
        # written stayed (replayed at the next load though its reply said it was not kept). A cut that
        # fails leaves a line without its newline, which `read` never takes and the next append cuts.
        try:
            os.ftruncate(self._file.fileno(), self._start)
        except OSError as exc:
            log.error("%s: could not cut off a failed append (%s): its torn line is left unread", self._path, exc)

    def close(self) -> None:
        self._file.close()


def encode(records: list[dict[str, Any]]) -> str:
    """The records' journal lines (`write_encoded` appends them)."""
    return "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in records)


def write(path: Path, records: list[dict[str, Any]]) -> Appended:
    """Write the records to the journal's end (not yet fsynced); raises OSError with nothing of them kept."""
    return write_encoded(path, encode(records))


def write_encoded(path: Path, data: str) -> Appended:
    """`write` of records already `encode`d."""
    faults.check(path)
    f = _open_appending(path)
    try:
        start = f.seek(0, os.SEEK_END)
        if start and _cut_torn_line(f, start):
            start = f.seek(0, os.SEEK_END)
        if start == 0:
            # A new journal names the file its records apply on top of: a file replaced from
            # outside since (a restore) must not get them replayed over it.
            graph = _graph_file(path)
            data = _header_line(graph, graph, read_ok=False) + data
        appended = Appended(f, start, path)
        try:
            _write_all(f.fileno(), data.encode("utf-8", files.TEXT_ERRORS))
        except OSError:
            appended.cut()
            raise
    except BaseException:
        f.close()
        raise
    return appended


def _open_appending(path: Path) -> BinaryIO:
    # Unbuffered: what a failed write took is on disk, where `cut` reaches it; nothing waits in a buffer.
    try:
        return open(path, "a+b", buffering=0)
    except FileNotFoundError:
        # A new project's folder does not exist until its first save: the journal comes first.
        path.parent.mkdir(parents=True, exist_ok=True)
        return open(path, "a+b", buffering=0)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]  # a short write (a disk filling up) goes on until it raises


TAIL_BLOCK = 65536


def _cut_torn_line(f: BinaryIO, end: int) -> bool:
    """Cut off a last line without its newline (a crash mid-append, a failed append whose cut failed): never
    answered, and the records after it would make it a whole line that a replay applies. Whether one was
    cut; raises OSError when it cannot be (the append is refused then, nothing of it kept)."""
    f.seek(end - 1)
    if f.read(1) == b"\n":
        return False
    pos = end
    while pos > 0:  # back to the last newline, a block at a time (only after a crash: a record or so)
        block = min(TAIL_BLOCK, pos)
        pos -= block
        f.seek(pos)
        newline = f.read(block).rfind(b"\n")
        if newline >= 0:
            pos += newline + 1
            break
    log.warning("%s: cutting off a torn last line (%d bytes: a write never answered)", f.name, end - pos)
    os.ftruncate(f.fileno(), pos)
    return True


def belongs(path: Path) -> bool:
    """Whether the journal's records apply on top of the graph file as it is now. A journal
    written before journals named their base belongs (what it held was always replayed)."""
    header = _header(path)
    return header is None or header.get(BASE) is None or _names(header, _graph_file(path))


def names_a_file(path: Path) -> bool:
    """Whether the journal was begun on a graph file (its header names one): the file existed then."""
    header = _header(path)
    return header is not None and header.get(BASE) is not None


def end(path: Path) -> int:
    """Where the journal ends now (0: none): the records appended after this are a fold's to keep."""
    try:
        return path.stat().st_size
    except (FileNotFoundError, NotADirectoryError):
        return 0


def fold_in(path: Path, staged: Path, graph_file: Path, since: int, keep_prev: bool = True) -> None:
    """Put a fold's staged JSON in place of `graph_file` and keep in the journal only the records
    appended after `since` (`end`'s mark when the snapshot was taken), durably at each step.
    Raises OSError; before the JSON is replaced nothing changed, after it `recover` completes it."""
    kept = _records_after(path, since)
    tmp = _tmp(path)
    if kept:
        faults.check(tmp)
        try:
            with open(tmp, "wb") as f:
                f.write(_header_line(staged, graph_file, read_ok=True).encode("utf-8") + b"".join(kept))
                f.flush()
                os.fsync(f.fileno())
        except BaseException:
            files.discard(tmp)
            files.discard(staged)
            raise
    try:
        files.put_in_place(staged, graph_file, keep_prev)
    except BaseException:
        files.discard(tmp)
        raise
    try:
        if kept:
            os.replace(tmp, path)
        else:
            remove(path)
    except OSError as exc:
        raise FoldCutShort(exc.errno, f"the graph file was saved, its journal not switched: {exc}") from exc
    files.fsync_dir(path.parent)


class FoldCutShort(OSError):
    """fold_in put the JSON in place and then failed: until `recover` runs (a load), the journal on
    disk is not the one to append to."""


def recover(path: Path) -> None:
    """A fold cut short between its two renames: its journal, which names the JSON now in place,
    becomes the journal; a `.tmp` that names another file is a fold's that never got that far."""
    tmp = _tmp(path)
    if not tmp.exists():
        return
    header = _header(tmp)
    if header is not None and _names(header, _graph_file(path)):
        os.replace(tmp, path)
    else:
        files.discard(tmp)


def recovered(path: Path) -> Path | None:
    """The fold's journal `recover` would put in place of this one (None: none), found without changing
    anything: a look from outside the actor."""
    tmp = _tmp(path)
    header = _header(tmp) if tmp.exists() else None
    return tmp if header is not None and _names(header, _graph_file(path)) else None


def _tmp(path: Path) -> Path:
    return path.with_name(path.name + ".tmp")


def _header(path: Path) -> dict[str, Any] | None:
    """A journal's first line when it is a header (it names the graph file); None when not (or unreadable)."""
    try:
        with user_files.open_regular(path) as f:
            header = json.loads(f.readline())
    except (OSError, ValueError):
        return None
    return header if isinstance(header, dict) and BASE in header else None


def _records_after(path: Path, since: int) -> list[bytes]:
    """The whole record lines after offset `since` (a torn last line and header lines left out)."""
    try:
        with user_files.open_regular(path) as f:
            f.seek(since)
            raw = f.read()
    except (FileNotFoundError, NotADirectoryError):
        return []
    lines = raw.split(b"\n")
    out = []
    for n, line in enumerate(lines[:-1]):  # the last piece has no newline: empty, or a torn line
        if not line.strip():
            continue
        try:
            try:
                record = json.loads(line)
            except UnicodeDecodeError:  # as in a graph file: the bytes read as U+FFFD, the record kept
                record = json.loads(line.decode("utf-8", "replace"))
                log.warning("%s: line %d: bytes that are not UTF-8 were read as U+FFFD", path, n + 1)
        except ValueError:
            continue
        if isinstance(record, dict) and BASE not in record:
            out.append(line + b"\n")
    return out


def set_aside(path: Path) -> tuple[int, Path]:
    """Move a journal to `<journal>.dropped` (`.dropped.2`... when one is there already: each is kept for a
    recovery by hand); how many records it held, and where it went."""
    records = read(path)
    aside = files.unused_name(path.with_name(path.name + ".dropped"))
    if path.exists():
        path.replace(aside)
    return len(records), aside


def keep_damaged(path: Path) -> Path:
    """A copy of a journal with damaged lines, beside it (`<journal>.damaged`, `.damaged.2`...): its other
    records are replayed and the next fold removes it, and the damaged bytes were then kept nowhere. A
    journal that still begins with a copy's bytes (appended to since: a reload, a resync) is kept already."""
    raw = user_files.read_bytes(path)
    first = path.with_name(path.name + ".damaged")
    kept = [first, *(p for p in path.parent.glob(first.name + ".*") if p.name.rsplit(".", 1)[1].isdigit())]
    for copy in kept:
        try:
            if raw.startswith(copy.read_bytes()):
                return copy
        except OSError:
            continue
    aside = files.unused_name(first)
    files.write_atomic(aside, raw, keep_prev=False)
    return aside


def read(path: Path, damaged: list[int] | None = None) -> list[Any]:
    """The journal's records; `damaged` gets the numbers of the lines that could not be read (a torn last
    line, a write never answered, is not one). JSON values: a line that is no object is kept too (the
    replay skips it)."""
    try:
        raw = user_files.read_bytes(path)  # a FIFO in its place is an OSError, never a wait for a writer
    except (FileNotFoundError, NotADirectoryError):
        return []
    records = []
    lines = raw.split(b"\n")
    for n, line in enumerate(lines):
        if not line.strip():
            continue
        if n == len(lines) - 1:
            # No newline after it: a write a crash (or a full disk) cut short, never answered, whole as it may
            # look (only its newline missing).
            log.warning("%s: ignoring an unreadable journal line %d (a write a crash cut short, never answered)",
                        path, n + 1)
            continue
        try:
            try:
                record = json.loads(line)
            except UnicodeDecodeError:  # as in a graph file: the bytes read as U+FFFD, the record kept
                record = json.loads(line.decode("utf-8", "replace"))
                log.warning("%s: line %d: bytes that are not UTF-8 were read as U+FFFD", path, n + 1)
        except ValueError:
            log.warning("%s: ignoring an unreadable journal line %d (damaged: its change is lost)", path, n + 1)
            if damaged is not None:
                damaged.append(n + 1)
            continue
        if not (isinstance(record, dict) and BASE in record):  # the header names the base, it changes nothing
            records.append(record)
    return records


def remove(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass


def remove_superseded(path: Path) -> None:
    """The journal and a fold's `.tmp` removed, once its graph file was written whole (everything they held is
    in it). The `.tmp` first: one naming a file with the same content would be put in place by `recover`.
    Raises OSError (what is left is superseded still; the next whole write tries again)."""
    remove(_tmp(path))
    remove(path)
    files.fsync_dir(path.parent)
