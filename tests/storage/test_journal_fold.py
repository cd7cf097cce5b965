"""A fold beside the appends (storage/journal.py): the journal keeps what was appended after the
snapshot, under a header naming the new file, and a fold cut short between its renames is recovered."""

import json
import os

import pytest

from kg_actors.core.model import GraphData, Node
from kg_actors.graph_loading import load_graph
from kg_actors.storage import files, graph_file, journal


def _graph(*ids: str) -> GraphData:
    graph = GraphData("project")
    for node_id in ids:
        graph.set_node(Node(node_id, f"the gist of {node_id}"))
    graph.commit()
    graph.take_changes()
    return graph


def _record(node_id: str) -> dict:
    return {"n": {node_id: Node(node_id, f"the gist of {node_id}").to_json()}}


def _setup(tmp_path):
    """A saved file holding `a`, a journal holding `b`, the snapshot (a, b) taken, then `c` appended."""
    path = tmp_path / "graph.json"
    graph_file.write_snapshot(path, _graph("first-node-aaa").snapshot_json())
    jpath = journal.journal_path(path)
    journal.append(jpath, [_record("second-node-bbb")])
    since = journal.end(jpath)
    snapshot = _graph("first-node-aaa", "second-node-bbb").snapshot_json()
    journal.append(jpath, [_record("third-node-ccc")])  # after the snapshot: the fold must keep it
    return path, jpath, since, graph_file.stage_snapshot(path, snapshot)


def test_a_fold_keeps_the_records_appended_after_its_snapshot_and_they_replay_over_the_new_file(tmp_path):
    path, jpath, since, staged = _setup(tmp_path)
    journal.fold_in(jpath, staged, path, since)
    assert set(json.loads(path.read_text())["nodes"]) == {"first-node-aaa", "second-node-bbb"}
    assert journal.belongs(jpath) and journal.read(jpath) == [_record("third-node-ccc")]
    graph, applied = load_graph(path, "project", None)
    assert set(graph.nodes) == {"first-node-aaa", "second-node-bbb", "third-node-ccc"} and applied == 1
    assert not staged.exists() and not journal._tmp(jpath).exists()


def test_a_fold_with_nothing_appended_since_removes_the_journal(tmp_path):
    path = tmp_path / "graph.json"
    jpath = journal.journal_path(path)
    journal.append(jpath, [_record("first-node-aaa")])
    staged = graph_file.stage_snapshot(path, _graph("first-node-aaa").snapshot_json())
    journal.fold_in(jpath, staged, path, journal.end(jpath))
    assert not jpath.exists() and set(load_graph(path, "project", None)[0].nodes) == {"first-node-aaa"}


def test_a_crash_between_the_fold_s_two_renames_loses_nothing(tmp_path, monkeypatch):
    path, jpath, since, staged = _setup(tmp_path)
    real = os.replace

    def crash_on_the_journal(src, dst):
        if str(dst).endswith(".journal"):
            raise OSError(5, "the machine stopped here")
        return real(src, dst)

    monkeypatch.setattr(journal.os, "replace", crash_on_the_journal)
    with pytest.raises(journal.FoldCutShort):
        journal.fold_in(jpath, staged, path, since)
    monkeypatch.undo()
    assert not journal.belongs(jpath)  # the old journal names the old file: alone, it would be set aside
    graph, _ = load_graph(path, "project", None)  # the load puts the fold's journal in place first
    assert set(graph.nodes) == {"first-node-aaa", "second-node-bbb", "third-node-ccc"}
    assert not journal._tmp(jpath).exists() and not jpath.with_name(jpath.name + ".dropped").exists()


def test_a_crash_before_the_file_is_replaced_leaves_the_old_file_and_the_whole_journal(tmp_path, monkeypatch):
    path, jpath, since, staged = _setup(tmp_path)

    def crash(*args, **kwargs):
        raise OSError(5, "the machine stopped here")

    monkeypatch.setattr(files, "put_in_place", crash)
    with pytest.raises(OSError):
        journal.fold_in(jpath, staged, path, since)
    monkeypatch.undo()
    journal._tmp(jpath).write_text(json.dumps({"base": [1, 2, 3]}) + "\n")  # as a crash would leave it
    graph, _ = load_graph(path, "project", None)
    assert set(graph.nodes) == {"first-node-aaa", "second-node-bbb", "third-node-ccc"}
    assert not journal._tmp(jpath).exists()  # stale: it named a file never put in place


def test_a_copied_store_replays_its_journal_and_a_replaced_file_sets_it_aside(tmp_path):
    # `cp -a` (a backup put back, another disk) keeps size and mtime but not the inode: the journal's
    # answered writes were set aside (*.journal.dropped) and not served.
    import shutil
    store = tmp_path / "store"
    store.mkdir()
    path = store / "graph.json"
    graph_file.write_snapshot(path, _graph("first-node-aaa").snapshot_json())
    journal.append(journal.journal_path(path), [_record("second-node-bbb")])
    copy = tmp_path / "copy"
    shutil.copytree(store, copy, copy_function=shutil.copy2)
    assert os.stat(copy / "graph.json").st_ino != os.stat(path).st_ino
    graph, applied = load_graph(copy / "graph.json", "project", None)
    assert set(graph.nodes) == {"first-node-aaa", "second-node-bbb"} and applied == 1
    # A file written anew (a restore) is another base, copy or not: disk wins.
    graph_file.write_snapshot(path, _graph("restored-node").snapshot_json())
    assert not journal.belongs(journal.journal_path(path))


@pytest.mark.parametrize("copy", ["cp -r", "tar"])
def test_a_store_copied_without_its_mtimes_replays_its_journal(tmp_path, copy):
    # `cp -r` gives the copy a new mtime and GNU tar keeps whole seconds: the journal named its file by
    # size and mtime, and a restored backup set its answered writes aside (*.journal.dropped).
    import shutil
    store = tmp_path / "store"
    store.mkdir()
    path = store / "graph.json"
    graph_file.write_snapshot(path, _graph("first-node-aaa").snapshot_json())  # a save: its digest noted
    journal.append(journal.journal_path(path), [_record("second-node-bbb")])
    loaded = tmp_path / "loaded"  # a journal begun on a file a load read (its digest noted there)
    loaded.mkdir()
    (loaded / "graph.json").write_bytes(path.read_bytes())
    load_graph(loaded / "graph.json", "project", None)
    journal.append(journal.journal_path(loaded / "graph.json"), [_record("second-node-bbb")])
    for source in (store, loaded):
        target = tmp_path / f"{source.name}-copy"
        shutil.copytree(source, target, copy_function=shutil.copy)  # no mtimes kept
        if copy == "tar":
            for f in target.iterdir():
                st = f.stat()
                os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns // 10**9 * 10**9 - 10**9))
        assert os.stat(target / "graph.json").st_mtime_ns != os.stat(source / "graph.json").st_mtime_ns
        graph, applied = load_graph(target / "graph.json", "project", None)
        assert set(graph.nodes) == {"first-node-aaa", "second-node-bbb"} and applied == 1
        assert not list(target.glob("*.dropped*"))


def test_a_journal_without_a_digest_is_still_compared_by_size_and_mtime(tmp_path):
    path = tmp_path / "graph.json"
    graph_file.write_snapshot(path, _graph("first-node-aaa").snapshot_json())
    st = path.stat()
    jpath = journal.journal_path(path)
    jpath.write_text(json.dumps({"base": [st.st_size, st.st_mtime_ns, st.st_ino]}) + "\n"
                     + json.dumps(_record("second-node-bbb")) + "\n")
    assert journal.belongs(jpath)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    assert not journal.belongs(jpath)


def test_a_fold_s_journal_names_the_new_file_by_its_content(tmp_path):
    path, jpath, since, staged = _setup(tmp_path)
    journal.fold_in(jpath, staged, path, since)
    header = json.loads(jpath.read_bytes().split(b"\n")[0])
    assert header["sha256"] == files.content_digest(path)
    # A file put back with other content (a restore by hand, its mtime kept) is another base.
    st = path.stat()
    other = tmp_path / "other.json"
    other.write_bytes(path.read_bytes().replace(b"first-node-aaa", b"other-node-zzz"))
    os.utime(other, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(other, path)
    assert not journal.belongs(jpath)


def test_a_fold_keeps_a_record_after_its_snapshot_whose_bytes_are_not_utf8(tmp_path):
    """A line of bytes that are not UTF-8 appended after the snapshot (a hand edit) is kept, read as U+FFFD
    (the fold's scan of it once raised a NameError, failing every fold of that graph)."""
    path, jpath, since, staged = _setup(tmp_path)
    with open(jpath, "ab") as f:
        f.write(b'{"n": {"latin1-node": {"id": "latin1-node", "gist": "caf\xe9 au lait"}}}\n')
    journal.fold_in(jpath, staged, path, since)
    graph, _ = load_graph(path, "project", None)
    assert {"third-node-ccc", "latin1-node"} <= set(graph.nodes)
    assert graph.nodes["latin1-node"].gist == "caf\ufffd au lait"


def test_a_graph_file_of_null_is_unreadable_and_its_previous_save_is_read(tmp_path):
    """`null` read as "no graph" served an empty graph, every lesson of the file lost without a word."""
    path = tmp_path / "graph.json"
    graph_file.write_snapshot(path, _graph("first-node-aaa").snapshot_json())
    graph_file.write_snapshot(path, _graph("first-node-aaa", "second-node-bbb").snapshot_json())  # .prev: a
    path.write_text("null")
    set_aside: list = []
    graph, _ = load_graph(path, "project", None, set_aside)
    assert set(graph.nodes) == {"first-node-aaa"} and set_aside
