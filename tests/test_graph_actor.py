import functools
import json
import time

import pytest
import trio

from kg_actors.core import constants as C
from kg_actors.core import graph_ops
from kg_actors.core.errors import ActorStopped, KGError, StorageRefused, WriteConflict
from kg_actors.core.model import GraphData, Node, snapshot_to_json
from kg_actors import graph_actor
from kg_actors import graph_messages as gm
from kg_actors.graph_actor import run_graph_actor
from kg_actors.derived import build_derived
from kg_actors.graph_loading import load_graph
from kg_actors.storage import journal

W = graph_ops.Writer(session="aaaa1111")


async def put(handle, node_id, gist="a lesson", now=100.0):
    return await handle.put_node(node_id=node_id, gist=gist, notes=None, touches=None, now=now, writer=W)


async def test_a_reply_to_a_change_means_the_change_is_on_disk(tmp_path):
    path = tmp_path / "graph.json"
    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "user", "user", path, GraphData("user"))
        await put(handle, "first-lesson-node")
        records = journal.read(journal.journal_path(path))
        assert [list(r["n"]) for r in records] == [["first-lesson-node"]]
        graph, replayed = load_graph(path, "user", None)  # what a restart after kill -9 would see
        assert replayed == 1 and "first-lesson-node" in graph.nodes
        await handle.close()


async def test_fold_writes_the_json_keeps_prev_and_drops_the_journal(tmp_path):
    path = tmp_path / "graph.json"
    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "user", "user", path, GraphData("user"))
        await put(handle, "first-lesson-node")
        assert await handle.fold()
        assert not journal.journal_path(path).exists()
        await put(handle, "second-lesson-node")
        assert await handle.fold()
        assert set(json.loads(path.read_text())["nodes"]) == {"first-lesson-node", "second-lesson-node"}
        # The previous save under kg-memory's name for it (the extension replaced).
        assert set(json.loads((tmp_path / "graph.prev").read_text())["nodes"]) == {"first-lesson-node"}
        await handle.close()


async def test_a_bug_in_one_message_leaves_the_graph_and_the_actor_intact(tmp_path, monkeypatch):
    def buggy(state, msg):
        state.graph.set_node(Node("half-written-node", "oops"))
        state.graph.del_node("first-lesson-node")
        raise ZeroDivisionError("bug")

    monkeypatch.setitem(graph_actor.HANDLERS, gm.Endorse, buggy)
    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "user", "user", tmp_path / "g.json", GraphData("user"))
        await put(handle, "first-lesson-node")
        with pytest.raises(KGError, match="internal error"):
            await handle.endorse(node_id="first-lesson-node", now=100.0, credits=None)
        assert await handle.node_ids() == frozenset({"first-lesson-node"})
        assert set(handle.snapshot().nodes) == {"first-lesson-node"}  # readers never saw the half change
        await put(handle, "second-lesson-node")
        assert len(await handle.node_ids()) == 2
        await handle.close()


async def test_a_failed_append_is_refused_and_the_graph_stays_what_is_on_disk(tmp_path):
    blocked = tmp_path / "dir"
    blocked.write_text("a file where the graph's folder should be")
    path = blocked / "graph.json"
    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "project:x", "project", path, GraphData("project"))
        with pytest.raises(StorageRefused, match="NOT WRITTEN: the store could not write graph.json.journal"):
            await put(handle, "never-acknowledged-node")
        assert "never-acknowledged-node" not in await handle.node_ids(), "a refused change must not stay visible"
        blocked.unlink()
        blocked.mkdir()
        await put(handle, "after-recovery-node")
        assert await handle.fold()
        assert set(json.loads(path.read_text())["nodes"]) == {"after-recovery-node"}
        await handle.close()


async def test_closing_saves_and_later_callers_get_a_clear_error(tmp_path):
    path = tmp_path / "graph.json"
    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "user", "user", path, GraphData("user"))
        await put(handle, "saved-at-shutdown-node")
        await handle.close()
    assert "saved-at-shutdown-node" in json.loads(path.read_text())["nodes"]
    with pytest.raises(ActorStopped):
        await handle.node_ids()


async def test_concurrent_writes_are_batched_and_all_durable(tmp_path):
    path = tmp_path / "graph.json"
    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "user", "user", path, GraphData("user"))
        async with trio.open_nursery() as writers:
            for i in range(50):
                writers.start_soon(put, handle, f"lesson-number-{i}")
        graph, _ = load_graph(path, "user", None)
        assert len(graph.nodes) == 50
        await handle.close()


async def test_a_create_gets_its_hints_through_the_stepwise_preparation(tmp_path):
    from core.test_search import hint_graph, hub_graph

    for graph, node_id, gist, expected in (
        (hint_graph(), "retry-backoff-rules", "HTTP retries use exponential backoff with jitter",
         "Similar existing node: 'retry-backoff-policy'"),
        (hub_graph(), "billing-ledger", "Ledger rows live in postgres with row locks",
         "Graph already names 'postgres': 'postgres-setup'"),
        (hub_graph(), "css-grid-layout", "Grid areas name the page regions", None),
    ):
        async with trio.open_nursery() as nursery:
            handle = await nursery.start(run_graph_actor, "user", "user", tmp_path / f"{node_id}.json", graph)
            await handle.view()  # the index is built
            result = await put(handle, node_id, gist)
            assert [h[: len(expected)] for h in result.hints] == ([expected] if expected else [])
            again = await put(handle, node_id, gist + " (updated)")
            assert again.hints == ()  # an update gets none
            await handle.close()


def test_recent_values_are_stale_once_the_graph_moved_on():
    from kg_actors.graph_actor import build_derived

    graph = GraphData("user")
    for i in range(5):
        graph.set_node(Node(f"lesson-{i}", f"gist {i}", created_ts=float(i)))
    graph.commit()
    derived = build_derived(graph, 100.0)
    view = derived.view(graph.snapshot())
    assert derived.stale(graph, 100.0) == frozenset()  # nothing changed: nothing to do
    graph.set_node(Node("lesson-new", "a newer gist", created_ts=50.0))
    graph.commit()
    assert derived.stale(graph, 100.0) == {"scores", "debt", "live_edges"}
    snap = graph.snapshot()
    derived.install_recent(derived.compute_recent(snap, 100.0, derived.stale(snap, 100.0)))
    fresh = derived.view(snap)
    assert fresh.recent.scores[0] == snap.gen > view.recent.scores[0]  # the held view keeps its version
    from kg_actors.core.scoring import unified_scores
    assert fresh.recent.scores[1] == unified_scores(graph, 100.0)
    assert fresh.recent.live_edges == (graph.gen, 0)
    assert derived.stale(graph, 100.0) == frozenset()  # all current again
    assert derived.stale(graph, 100.0 + 86_400) == {"debt"}  # a new day moves the debt's key


async def test_the_refresh_message_recomputes_off_the_loop_and_publishes(tmp_path):
    graph = GraphData("user")
    graph.set_node(Node("lesson-a", "gist a", created_ts=1.0))
    graph.commit()
    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "user", "user", tmp_path / "g.json", graph)
        old = (await handle.view()).recent
        await handle.put_node(node_id="lesson-b", gist="gist b", notes=None, touches=None, now=10.0,
                              writer=graph_ops.Writer(session="aaaa1111"))
        assert handle.view_now().recent is old  # a write publishes the graph, not new recent values
        assert "lesson-b" in handle.snapshot().nodes
        assert await handle.refresh(now=10.0) == {"scores", "debt", "live_edges"}
        gen = handle.snapshot().gen
        assert handle.view_now().recent.scores[0] == gen and handle.view_now().recent.debt[0][0] == gen
        assert old.scores[0] < gen  # what a reader held is as it was
        assert await handle.refresh(now=10.0) == frozenset()
        await handle.close()


async def test_a_readers_view_never_changes_under_it(tmp_path):
    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "user", "user", tmp_path / "g.json", GraphData("user"))
        await put(handle, "first-lesson-node")
        held = handle.view_now()
        nodes = dict(held.graph.nodes)
        await put(handle, "first-lesson-node", gist="rewritten")
        await put(handle, "second-lesson-node")
        await handle.delete_node(node_id="first-lesson-node")
        assert dict(held.graph.nodes) == nodes and held.graph.nodes["first-lesson-node"].gist == "a lesson"
        assert set(handle.snapshot().nodes) == {"second-lesson-node"}
        assert handle.snapshot().gen > held.graph.gen
        await handle.close()


async def test_a_discard_while_the_index_is_still_building_returns(tmp_path):
    """A reload right after a load discarded the actor while its index build waited for the actor to
    install it: nobody answered, and the reload hung forever (found by the fault suite)."""
    graph = GraphData("user")
    for i in range(300):
        graph.set_node(Node(f"lesson-number-{i}", f"gist {i} about retries and backoff"))
    graph.take_changes()
    graph.commit()
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            from kg_actors.derived import build_derived
            handle = await nursery.start(run_graph_actor, "user", "user", tmp_path / "g.json", graph,
                                         build_derived(graph, 100.0))
            await handle.discard()


async def test_a_changed_graphs_debt_is_computed_in_steps_that_yield_to_hooks(tmp_path):
    """The tick's debt reading walked a 10,000-node graph in one step; now it pauses between its passes."""
    pauses = []

    async def pause():
        pauses.append(None)
        await trio.lowlevel.checkpoint()

    graph = GraphData("user")
    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "user", "user", tmp_path / "g.json", graph, None, 365, pause)
        await handle.put_node(node_id="billing-ledger-rules", gist="the ledger is append-only", notes=None,
                              touches=None, now=100.0, writer=graph_ops.Writer(session="aaaa1111"))
        before = len(pauses)
        first = await handle.debt(now=100.0)
        assert len(pauses) - before >= 3, "the debt of a changed graph came in one step"
        before = len(pauses)
        assert await handle.debt(now=100.0) == first  # unchanged graph: the one already computed
        assert len(pauses) == before
        await handle.close()


async def test_a_read_stamp_leaves_compaction_to_the_tick(tmp_path):
    """Spec 000: compaction follows every node write and the tick; a read's stamp is no node write (a read
    that promotes grows the level, and is compacted after as a write is). Here the level starts far over its
    budget: a read of an active node leaves it so, the tick archives."""
    graph = GraphData("project")
    for k in range(300):
        graph.set_node(Node(f"lesson-number-{k:03d}", f"lesson {k}: " + "a long gist that costs characters " * 6))
    graph.commit()
    graph.take_changes()
    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "p", "project", tmp_path / "g.json", graph)

        async def states():
            return [(await handle.get_node(f"lesson-number-{k:03d}")).state for k in range(300)]

        await handle.record_reads(["lesson-number-000"], now=1000.0)
        assert (await handle.get_node("lesson-number-000")).last_read_ts == 1000.0
        assert (await states()).count("archived") == 0
        await handle.tick(now=1001.0)
        assert (await states()).count("archived") > 100
        await handle.close()


async def test_a_load_journals_the_project_folder_but_not_what_settling_moved(tmp_path):
    """Settling is derived from the file (the next load settles it the same way) and the fold saves it; the
    folder a project graph belongs to is its identity, so it reaches the journal before anything else."""
    path = tmp_path / "graph.json"
    graph = GraphData("project")
    for k in range(3):
        graph.set_node(Node(f"lesson-number-{k}", "a lesson"))
    graph.commit()
    graph.take_changes()
    path.write_text(json.dumps(snapshot_to_json(graph.snapshot_json())))
    graph.project_path = "/home/someone/app"  # as load_graph binds a project's folder
    graph.meta_changed = True
    graph.set_node(Node("lesson-number-0", "a lesson", archived=True))  # as settling moves a node
    graph.commit()
    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "p", "project", path, graph)
        await handle.record_reads(["lesson-number-1"], now=1000.0)  # answered once its record (the next) is written
        records = journal.read(journal.journal_path(path))
        assert records[0] == {"m": {"project_path": "/home/someone/app", "extra": {}}}
        assert [list(r["n"]) for r in records[1:]] == [["lesson-number-1"]]
        reloaded, replayed = load_graph(path, "project", None)  # a kill -9 here: the folder is kept
        assert replayed == 2 and reloaded.project_path == "/home/someone/app"
        assert not reloaded.nodes["lesson-number-0"].archived  # the next load settles it again
        assert await handle.fold()  # the fold saves the settled graph
        assert json.loads(path.read_text())["nodes"]["lesson-number-0"].get("_archived") is True
        await handle.close()


async def test_the_save_tick_s_fold_of_a_large_file_waits_while_its_journal_is_small(tmp_path, monkeypatch):
    """A routine fold (the save tick's, no commit due) leaves a large file as it is while its journal is a small
    share of it and the file is recent: the journal keeps the change durable. A fold asked for (a commit, the
    actor's close) still folds, and so does the routine one once the journal is large enough."""
    monkeypatch.setattr(C, "FOLD_ALWAYS_BELOW_BYTES", 0)  # every file counts as large here
    path = tmp_path / "graph.json"
    jpath = journal.journal_path(path)
    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "user", "user", path, GraphData("user"))
        await put(handle, "padding-node", gist="a lesson " + "x" * 3000)
        assert await handle.fold(routine=True)  # no journal beside the file yet: folded
        before = path.read_bytes()
        await put(handle, "small-change-node")
        assert await handle.fold(routine=True)
        assert path.read_bytes() == before and jpath.exists()
        assert [list(r["n"]) for r in journal.read(jpath)] == [["small-change-node"]]
        await put(handle, "large-change-node", gist="a long lesson " + "y" * 1000)  # the journal: over a quarter
        assert await handle.fold(routine=True)
        assert set(json.loads(path.read_text())["nodes"]) == {"padding-node", "small-change-node",
                                                            "large-change-node"}
        assert not jpath.exists()
        await put(handle, "last-change-node")
        assert await handle.fold(routine=True) and jpath.exists()
        assert await handle.fold()  # asked for: folded whatever the journal's size
        assert "last-change-node" in json.loads(path.read_text())["nodes"] and not jpath.exists()
        await handle.close()


async def test_a_change_a_routine_fold_left_in_the_journal_is_folded_when_the_actor_closes(tmp_path, monkeypatch):
    monkeypatch.setattr(C, "FOLD_ALWAYS_BELOW_BYTES", 0)
    path = tmp_path / "graph.json"
    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "user", "user", path, GraphData("user"))
        await put(handle, "padding-node", gist="a lesson " + "x" * 3000)
        assert await handle.fold()
        await put(handle, "waiting-node")
        assert await handle.fold(routine=True) and "waiting-node" not in json.loads(path.read_text())["nodes"]
        await handle.close()
    assert "waiting-node" in json.loads(path.read_text())["nodes"]
    assert not journal.journal_path(path).exists()


async def test_a_routine_fold_of_an_old_file_does_not_wait(tmp_path, monkeypatch):
    monkeypatch.setattr(C, "FOLD_ALWAYS_BELOW_BYTES", 0)
    path = tmp_path / "graph.json"
    now = [time.time()]
    async with trio.open_nursery() as nursery:
        handle = await nursery.start(functools.partial(run_graph_actor, "user", "user", path, GraphData("user"),
                                                       clock=lambda: now[0]))
        await put(handle, "padding-node", gist="a lesson " + "x" * 3000)
        assert await handle.fold()
        await put(handle, "small-change-node")
        now[0] += C.FOLD_MAX_WAIT_SECONDS + 60  # the file is now older than that
        assert await handle.fold(routine=True)
        assert "small-change-node" in json.loads(path.read_text())["nodes"]
        await handle.close()


def test_a_write_is_stamped_when_the_actor_applies_it_not_when_it_was_asked():
    """Asked at t=100, applied at t=105: a read that began at t=102 and was served the graph before this write
    marks its session as having seen up to 102. Stamped 100, that session's next write passed the guard and
    dropped this one (lost, though answered as saved); stamped 105, the guard refuses it."""
    from kg_actors.graph_actor import GraphState

    state = GraphState("user", "user", GraphData("user"), clock=lambda: 105.0)
    asked = gm.PutNode(node_id="ledger-node", gist="a lesson", notes=["first"], touches=None, now=100.0, writer=W)
    result = state.put_node(asked)
    assert result.node.written == {"ts": 105.0, "by": W.session}
    reader = graph_ops.Writer(session="bbbb2222", seen_at=102.0, read_at=102.0)
    with pytest.raises(WriteConflict):
        graph_ops.put_node(state.graph, "user", "ledger-node", "a lesson", ["second"], None, 106.0, reader)
    late = gm.PutNode(node_id="ledger-node", gist="a lesson", notes=["first", "third"], touches=None, now=110.0,
                      writer=graph_ops.Writer(session=W.session, seen_at=105.0, read_at=105.0))
    assert state.put_node(late).node.written["ts"] == 110.0  # a clock behind the asking never moves it back


async def test_a_bug_in_a_refresh_fails_that_message_and_the_actor_goes_on(tmp_path, monkeypatch):
    from kg_actors.derived import Derived

    def broken(self, *args):
        raise ZeroDivisionError("bug in recent values")

    monkeypatch.setattr(Derived, "compute_recent", broken)
    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "user", "user", tmp_path / "g.json", GraphData("user"))
        await put(handle, "first-lesson-node")
        with pytest.raises(KGError, match="internal error while handling refresh"):
            await handle.refresh(now=100.0)
        await put(handle, "second-lesson-node")
        assert len(await handle.node_ids()) == 2
        await handle.close()


async def test_a_bug_in_indexing_a_committed_change_still_journals_and_answers_it(tmp_path, monkeypatch):
    path = tmp_path / "g.json"
    calls = []
    original = graph_actor.GraphState.changed

    def broken_once(self, record):
        calls.append(record)
        if len(calls) == 1:
            raise ZeroDivisionError("bug in the indexes")
        original(self, record)

    monkeypatch.setattr(graph_actor.GraphState, "changed", broken_once)
    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "user", "user", path, GraphData("user"))
        await handle.view()
        await put(handle, "retry-with-backoff", gist="retry failed calls with exponential backoff")
        assert [list(r["n"]) for r in journal.read(journal.journal_path(path))] == [["retry-with-backoff"]]
        view = await handle.view()
        assert "retry-with-backoff" in view.graph.nodes  # the rebuilt derived state holds it
        assert view.index is not None
        await put(handle, "second-lesson-node")
        assert len(await handle.node_ids()) == 2
        await handle.close()


async def test_a_bug_reading_the_graph_back_after_a_failed_append_refuses_changes_and_keeps_serving(
        tmp_path, monkeypatch):
    def broken(*args):
        raise ZeroDivisionError("bug in loading")

    from kg_actors import graph_recovery

    monkeypatch.setattr(graph_recovery, "load_fresh", broken)
    blocked = tmp_path / "dir"
    blocked.write_text("a file where the graph's folder should be")
    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "project:x", "project", blocked / "graph.json",
                                     GraphData("project"))
        with pytest.raises(StorageRefused):
            await put(handle, "never-acknowledged-node")
        with pytest.raises(StorageRefused, match="could not read graph.json back"):
            await put(handle, "refused-too")
        assert await handle.node_ids() is not None  # still answering
        await handle.close()


async def test_a_bug_in_writing_the_save_fails_that_save_and_the_actor_goes_on(tmp_path, monkeypatch):
    from kg_actors.storage import graph_file

    real = graph_file.stage_snapshot

    def broken(*args):
        raise ZeroDivisionError("bug in the save")

    path = tmp_path / "g.json"
    monkeypatch.setattr(graph_file, "stage_snapshot", broken)
    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "user", "user", path, GraphData("user"))
        await put(handle, "first-lesson-node")
        assert await handle.fold() is False
        monkeypatch.setattr(graph_file, "stage_snapshot", real)
        await put(handle, "second-lesson-node")
        assert await handle.fold() is True
        assert set(json.loads(path.read_text())["nodes"]) == {"first-lesson-node", "second-lesson-node"}
        await handle.close()


async def test_a_bug_in_encoding_a_journal_record_refuses_that_change_and_the_actor_goes_on(tmp_path, monkeypatch):
    real = journal.encode

    def broken(records):
        raise ZeroDivisionError("bug in encoding")

    monkeypatch.setattr(journal, "encode", broken)
    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "user", "user", tmp_path / "g.json", GraphData("user"))
        with pytest.raises(StorageRefused):
            await put(handle, "never-acknowledged-node")
        monkeypatch.setattr(journal, "encode", real)
        await put(handle, "first-lesson-node")
        assert await handle.node_ids() == frozenset({"first-lesson-node"})
        await handle.close()


async def test_a_bug_in_building_the_search_index_leaves_the_graph_serving(tmp_path, monkeypatch):
    from kg_actors import index_process

    async def broken(graph):
        raise ZeroDivisionError("bug in the index build")

    monkeypatch.setattr(index_process, "build", broken)
    graph = GraphData("user")
    graph.set_node(Node("lesson-a", "gist a"))
    graph.commit()
    graph.take_changes()
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            from kg_actors.derived import build_derived
            handle = await nursery.start(run_graph_actor, "user", "user", tmp_path / "g.json", graph,
                                         build_derived(graph, 100.0))
            await handle.view()  # answered, not waited for forever
            await put(handle, "first-lesson-node")
            assert "first-lesson-node" in await handle.node_ids()
            await handle.close()


async def test_a_closed_actor_ends_while_its_first_index_and_secrets_scan_are_still_running(tmp_path, monkeypatch):
    """A stop just after a big graph's load: the scan for secrets a hand edit left (a child reading the whole
    file) kept the actor, and so the stop, waiting until its grace period ran out (10 s)."""
    from kg_actors import held_scan, index_process

    released = trio.Event()  # never set while the actor runs: both stay in progress until cancelled

    async def held(*args, **kwargs):
        await released.wait()
        return []

    monkeypatch.setattr(held_scan, "say_held", held)
    monkeypatch.setattr(index_process, "build", held)
    with trio.fail_after(60):  # a hang guard only
        async with trio.open_nursery() as nursery:
            graph = GraphData("user")
            handle = await nursery.start(run_graph_actor, "user", "user", tmp_path / "g.json", graph,
                                         build_derived(graph, time.time()))  # as a load hands it: no index yet
            assert not handle.index_ready
            await handle.close()
    assert not released.is_set() and not handle.index_ready
