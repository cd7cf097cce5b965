"""The scan for secrets a hand edit left: a large graph's in a child process (the hooks keep the
interpreter's lock), a small one's in a thread, and the same findings either way."""

from __future__ import annotations

import json
import logging

import pytest

from kg_actors import held_scan
from kg_actors.storage import held_on_disk

GHP = "ghp_" + "R7kQ" * 9  # a GitHub token's shape, assembled so no file holds one whole


def _graph_file(tmp_path, n: int = 3):
    nodes = {f"lesson-{i}": {"gist": f"plain lesson number {i}", "notes": [], "touches": []} for i in range(n)}
    nodes["lesson-1"]["notes"] = ["fine", f"token {GHP}"]
    path = tmp_path / "user.json"
    path.write_text(json.dumps({"nodes": nodes, "edges": {}}))
    return path


@pytest.mark.parametrize("nodes", [3, 100_000])  # the thread, then the child (the count picks the way)
async def test_a_loaded_graph_holding_a_secret_is_named_in_the_log_never_the_secret(tmp_path, caplog, nodes):
    path = _graph_file(tmp_path)
    with caplog.at_level(logging.WARNING, logger=held_scan.__name__):
        await held_scan.say_held(path, nodes)
    said = " ".join(r.getMessage() for r in caplog.records)
    assert "user.json holds what looks like a secret in 1 entry" in said and "node 'lesson-1' notes[1]" in said
    assert GHP not in said
    assert "child process failed" not in said


async def test_the_child_answers_what_a_scan_in_this_process_finds(tmp_path):
    path = _graph_file(tmp_path)
    by_child = await held_scan._in_child([str(tmp_path), str(path)])
    assert by_child == {"file": held_on_disk.held_in_file(path)} and by_child["file"]


async def test_a_sync_is_refused_when_the_child_finds_a_secret_and_allowed_when_it_finds_none(tmp_path):
    (tmp_path / "user.json").write_text(json.dumps({"nodes": {"a": {"gist": "plain"}}, "edges": {}}))
    await held_scan.refuse_sync(tmp_path)  # nothing held: no refusal
    _graph_file(tmp_path)
    with pytest.raises(held_on_disk.SecretHeld, match=r"NOT SYNCED: .*node 'lesson-1' notes\[1\]") as caught:
        await held_scan.refuse_sync(tmp_path)
    assert GHP not in str(caught.value)


def test_what_the_child_prints_that_is_not_its_answer_is_refused():
    for said in ([], {"user": [{"what": "node"}]}, {"user": 3}):
        with pytest.raises(ValueError):
            held_on_disk.from_json(said)


async def test_no_index_is_installed_before_the_loads_scan_answers_so_a_withheld_word_never_finds_its_node(
        tmp_path, monkeypatch):
    """Built off the loop, the first index files every node by its full text: until the load's scan names the
    node holding a secret, a word only its withheld note holds would find it (and a wrong guess would not)."""
    import trio.testing

    from kg_actors import index_process
    from kg_actors.derived import build_derived
    from kg_actors.graph_actor import run_graph_actor
    from kg_actors.graph_loading import load_graph

    path = _graph_file(tmp_path)
    graph, _ = load_graph(path, "user", None)
    release, built = trio.Event(), trio.Event()
    real_say, real_build = held_scan.say_held, index_process.build

    async def held_back_scan(*args):
        await release.wait()
        return await real_say(*args)

    async def build(snapshot):
        try:
            return await real_build(snapshot)
        finally:
            built.set()

    monkeypatch.setattr(held_scan, "say_held", held_back_scan)
    monkeypatch.setattr(index_process, "build", build)
    with trio.fail_after(30):  # a hang, not a timing: each step waits for a condition
        async with trio.open_nursery() as nursery:
            handle = await nursery.start(run_graph_actor, "user", "user", path, graph, build_derived(graph, 100.0))
            await built.wait()
            await trio.testing.wait_all_tasks_blocked()  # an install the build asked for is done by now
            assert not handle.index_ready and handle.view_now().index is None
            release.set()
            index = (await handle.view()).index  # waits for the index: in once the scan answered
            assert index is not None and index.df("token") == 0 and index.df("fine") == 1
            assert index.df("plain") == 3
            await handle.close()


async def test_a_scan_that_never_answers_holds_the_first_index_back_only_so_long_and_says_so(
        tmp_path, monkeypatch, caplog, autojump_clock):
    import trio

    from kg_actors import graph_handle, index_process
    from kg_actors.core.search import SearchIndex
    from kg_actors.derived import build_derived
    from kg_actors.graph_actor import run_graph_actor
    from kg_actors.graph_loading import load_graph

    path = _graph_file(tmp_path)
    graph, _ = load_graph(path, "user", None)

    async def stuck(*args):
        await trio.sleep_forever()

    async def build(snapshot):  # in the loop: a worker thread's real time would let the clock jump past it
        return SearchIndex.build(snapshot)

    monkeypatch.setattr(held_scan, "say_held", stuck)
    monkeypatch.setattr(index_process, "build", build)
    with caplog.at_level(logging.WARNING, logger=graph_handle.__name__), trio.fail_after(
            5 * graph_handle.SCAN_WAIT_SECONDS):  # the clock's: a hang fails here
        async with trio.open_nursery() as nursery:
            handle = await nursery.start(run_graph_actor, "user", "user", path, graph, build_derived(graph, 100.0))
            started = trio.current_time()
            assert (await handle.view()).index is not None  # searches wait no longer than the bound
            assert trio.current_time() - started >= graph_handle.SCAN_WAIT_SECONDS
            await handle.close()
    said = " ".join(r.getMessage() for r in caplog.records)
    assert f"has not answered in {graph_handle.SCAN_WAIT_SECONDS} s" in said, said


async def test_a_graph_read_back_after_a_refused_write_files_its_held_node_by_what_agents_are_shown(
        tmp_path, monkeypatch):
    """After the store refused an append, the graph is read back from disk with a new search index: its node
    holding a secret a hand edit left is scanned again and filed without its withheld words."""
    import trio

    from kg_actors.core import graph_ops
    from kg_actors.core.errors import StorageRefused
    from kg_actors.derived import build_derived
    from kg_actors.graph_actor import run_graph_actor
    from kg_actors.graph_loading import load_graph
    from kg_actors.storage import faults

    path = _graph_file(tmp_path)
    graph, _ = load_graph(path, "user", None)
    writer = graph_ops.Writer(session="aaaa1111")
    flag = tmp_path / "disk-full"
    monkeypatch.setenv(faults.ENV, str(flag))
    with trio.fail_after(30):  # a hang, not a timing
        async with trio.open_nursery() as nursery:
            handle = await nursery.start(run_graph_actor, "user", "user", path, graph, build_derived(graph, 100.0))
            assert (await handle.view()).index.df("token") == 0
            flag.write_text("ENOSPC")
            with pytest.raises(StorageRefused):
                await handle.put_node(node_id="refused-lesson", gist="the disk refused it", notes=None,
                                      touches=None, now=200.0, writer=writer)
            flag.unlink()
            await handle.put_node(node_id="later-lesson", gist="written once the disk had room", notes=None,
                                  touches=None, now=300.0, writer=writer)  # read back from disk first
            index = (await handle.current()).index
            assert "refused-lesson" not in handle.snapshot().nodes and index.df("written") == 1
            assert index.df("token") == 0 and index.df("fine") == 1, "a withheld word files the held node"
            await handle.close()


async def test_an_index_made_again_after_a_bug_in_indexing_files_the_held_node_by_what_agents_are_shown(
        tmp_path, monkeypatch):
    import trio

    from kg_actors import derived as derived_module
    from kg_actors.core import graph_ops
    from kg_actors.derived import build_derived
    from kg_actors.graph_actor import run_graph_actor
    from kg_actors.graph_loading import load_graph

    path = _graph_file(tmp_path)
    graph, _ = load_graph(path, "user", None)
    real = derived_module.Derived.changed

    def buggy(self, *args, **kwargs):
        monkeypatch.setattr(derived_module.Derived, "changed", real)  # once
        raise RuntimeError("a bug in indexing")

    with trio.fail_after(30):  # a hang, not a timing
        async with trio.open_nursery() as nursery:
            handle = await nursery.start(run_graph_actor, "user", "user", path, graph, build_derived(graph, 100.0))
            assert (await handle.view()).index.df("token") == 0
            monkeypatch.setattr(derived_module.Derived, "changed", buggy)
            await handle.put_node(node_id="later-lesson", gist="written while indexing failed", notes=None,
                                  touches=None, now=300.0, writer=graph_ops.Writer(session="aaaa1111"))
            index = (await handle.current()).index
            assert index.df("written") == 1, "the index was not made again"
            assert index.df("token") == 0 and index.df("fine") == 1, "a withheld word files the held node"
            await handle.close()
