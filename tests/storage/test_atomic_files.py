"""Atomic files: a crash at any step leaves the file and its `.prev` readable.

The first test replays formal/models/durability.py's counterexample on the real
code: the old save rewrote `.prev` in place by a copy, so a crash during that
copy left a torn `.prev` (the fallback of a torn JSON). Today `.prev` is replaced
by a rename, and a crash there leaves the old `.prev` whole.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import resource
import signal

import pytest

from kg_actors.storage import files


def test_a_crash_while_prev_is_replaced_leaves_both_files_whole(tmp_path, monkeypatch):
    path = tmp_path / "graph.json"
    files.write_atomic(path, files.dump_json({"v": 1}))
    files.write_atomic(path, files.dump_json({"v": 2}))
    real_replace = os.replace

    def crash_on_prev(src, dst):
        if str(dst).endswith(".prev"):
            raise KeyboardInterrupt("killed while .prev was replaced")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", crash_on_prev)
    with pytest.raises(KeyboardInterrupt):
        files.write_atomic(path, files.dump_json({"v": 3}))
    monkeypatch.setattr(os, "replace", real_replace)
    assert files.load_json(path) == {"v": 2}
    assert json.loads((tmp_path / "graph.prev").read_bytes()) == {"v": 1}


def test_prev_holds_the_previous_content_and_is_a_separate_file(tmp_path):
    path = tmp_path / "graph.json"
    files.write_atomic(path, b'{"v": 1}')
    files.write_atomic(path, b'{"v": 2}')
    files.write_atomic(path, b'{"v": 3}')
    assert (tmp_path / "graph.prev").read_bytes() == b'{"v": 2}'
    assert path.read_bytes() == b'{"v": 3}'
    assert not (tmp_path / "graph.prev.tmp").exists() and not (tmp_path / "graph.json.tmp").exists()


def test_a_torn_json_falls_back_to_prev(tmp_path):
    path = tmp_path / "graph.json"
    files.write_atomic(path, b'{"v": 1}')
    files.write_atomic(path, b'{"v": 2}')
    path.write_bytes(b'{"v": 2')  # torn by hand
    assert files.load_json(path) == {"v": 1}


def test_without_hard_links_prev_is_still_replaced_whole(tmp_path, monkeypatch):
    def no_links(*args):
        raise OSError(1, "links not supported here")

    monkeypatch.setattr(os, "link", no_links)
    path = tmp_path / "graph.json"
    files.write_atomic(path, b'{"v": 1}')
    files.write_atomic(path, b'{"v": 2}')
    assert (tmp_path / "graph.prev").read_bytes() == b'{"v": 1}'


def test_an_append_after_a_torn_line_starts_a_line_of_its_own(tmp_path):
    """A crash mid-append leaves a torn last line; the next server's first append must not be glued
    to it (it would be skipped at the next replay: an acknowledged write lost)."""
    from kg_actors.storage import journal

    path = tmp_path / "graph.json.journal"
    journal.append(path, [{"n": {"a-node": {"id": "a-node", "gist": "kept"}}}])
    with open(path, "ab") as f:
        f.write(b'{"n":{"torn-node":{"id":"to')
    journal.append(path, [{"n": {"b-node": {"id": "b-node", "gist": "acknowledged after the crash"}}}])
    assert [list(r["n"]) for r in journal.read(path)] == [["a-node"], ["b-node"]]


def test_a_failed_append_leaves_no_partial_record(tmp_path, monkeypatch):
    import errno
    import os as _os

    from kg_actors.storage import journal

    path = tmp_path / "graph.json.journal"
    journal.append(path, [{"n": {"a-node": None}}])
    size = path.stat().st_size
    real_fsync = _os.fsync

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(journal.os, "fsync", full)
    with pytest.raises(OSError):
        journal.append(path, [{"n": {"b-node": None}}])
    monkeypatch.setattr(journal.os, "fsync", real_fsync)
    assert path.stat().st_size == size


def test_a_long_write_lets_go_of_the_interpreter_every_so_many_pieces(tmp_path, monkeypatch):
    """A fold in a worker thread must not hold the loop at each of its system calls for a switch interval."""
    slept: list[float] = []
    monkeypatch.setattr(files.time, "sleep", slept.append)
    pieces = [f"piece {k}\n" for k in range(3 * files.YIELD_EVERY + 1)]
    files.write_atomic_chunks(tmp_path / "big.json", pieces)
    assert (tmp_path / "big.json").read_text() == "".join(pieces)
    assert slept == [files.YIELD_SECONDS] * 3


def test_a_symlinked_file_is_saved_where_it_points_and_stays_a_link(linked_file):
    """A graph file linked into a synced folder: the save went to a new plain file and the link target went stale."""
    link, kept = linked_file
    files.write_atomic(link, b'{"nodes": {"a": 1}}')
    assert link.is_symlink() and kept.read_bytes() == b'{"nodes": {"a": 1}}'
    assert kept.with_name("file.prev").read_bytes() == b"old"  # .prev beside the real file
    kept.write_text("{torn")
    kept.with_name("file.prev").write_text('{"nodes": {}}')
    assert files.load_json(link) == {"nodes": {}}  # and found there


def test_two_graph_files_linked_into_one_folder_keep_a_previous_save_each(tmp_path):
    """Backups named for the link (graph.json -> graph.prev beside its target) were one file for two
    projects whose graph.json led into one folder: a fall-back then loaded the other project's lessons."""
    shared = tmp_path / "shared"
    shared.mkdir()
    links = {}
    for name in ("a", "b"):
        (shared / f"{name}.json").write_text(json.dumps({"nodes": {f"{name}-old": 1}}))
        (tmp_path / name).mkdir()
        links[name] = tmp_path / name / "graph.json"
        links[name].symlink_to(shared / f"{name}.json")
    for name in ("a", "b"):
        files.write_atomic(links[name], json.dumps({"nodes": {f"{name}-new": 1}}).encode())
    for name in ("a", "b"):
        (shared / f"{name}.json").write_text("{torn")
        assert files.load_json(links[name]) == {"nodes": {f"{name}-old": 1}}  # its own previous save


@contextlib.contextmanager
def _disk_full_after(size: int):
    """Writes past `size` bytes of a file fail (EFBIG), a write across it takes what fits: a real partial
    write from the kernel, as a disk filling up gives, without a mount."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    old = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # else the process is killed instead of told
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, old)


def _refused_record() -> tuple[list[dict], int]:
    from kg_actors.storage import journal
    records = [{"n": {"refused-node": None}}]
    return records, len(journal.encode(records).encode())


def test_an_append_a_full_disk_cut_short_is_cut_off_and_never_replayed(tmp_path):
    # The journal was buffered: its cut (truncate) flushed the rest first, which failed again and was
    # swallowed, so the part written stayed and was replayed though the reply said it was not kept.
    from kg_actors.storage import journal

    path = tmp_path / "graph.json.journal"
    journal.append(path, [{"n": {"a-node": None}}])
    size = path.stat().st_size
    records, length = _refused_record()
    with _disk_full_after(size + length - 1), pytest.raises(OSError):  # all of it but its newline fits
        journal.append(path, records)
    assert path.stat().st_size == size
    assert [list(r["n"]) for r in journal.read(path)] == [["a-node"]]


def test_a_torn_append_whose_cut_failed_is_never_replayed(tmp_path, monkeypatch):
    from kg_actors.storage import journal

    path = tmp_path / "graph.json.journal"
    journal.append(path, [{"n": {"a-node": None}}])
    size = path.stat().st_size
    records, length = _refused_record()

    def no_cut(*args):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(journal.os, "ftruncate", no_cut)
    with _disk_full_after(size + length - 1), pytest.raises(OSError):
        journal.append(path, records)
    monkeypatch.undo()
    assert path.read_bytes().endswith(b'"refused-node":null}}')  # whole but its newline
    assert [list(r["n"]) for r in journal.read(path)] == [["a-node"]]
    journal.append(path, [{"n": {"c-node": None}}])  # the next append cuts it off, not makes it a line
    assert [list(r["n"]) for r in journal.read(path)] == [["a-node"], ["c-node"]]
    assert b"refused-node" not in path.read_bytes()
