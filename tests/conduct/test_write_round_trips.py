"""A session's write asks the session registry twice (before and after) and its graph once; its reply's
pushes, a node read and a search ask no graph at all (they read the published views).

Counted at the mailboxes of a real registry and a real graph actor; the
floor's directory is a stand-in that hands out the one user graph.
"""

from __future__ import annotations

import itertools
from collections import Counter
from types import SimpleNamespace

import pytest
import trio

from kg_actors import actor
from kg_actors.conduct import sync, write
from kg_actors.conduct.floor import Floor
from kg_actors.core.errors import SessionUnknown, StorageRefused
from kg_actors.core.model import GraphData
from kg_actors.graph_actor import run_graph_actor
from kg_actors.session_actor import run_session_registry
from kg_actors.storage import faults
from kg_actors.storage.layout import Layout

NOW = 1_000_000.0


@pytest.fixture
def asks(monkeypatch):
    counts: Counter[str] = Counter()
    real = actor.Mailbox.ask

    async def counted(self, message):
        counts[self.name.split()[0]] += 1
        return await real(self, message)

    monkeypatch.setattr(actor.Mailbox, "ask", counted)
    return counts


async def _floor(nursery, tmp_path, clock=lambda: NOW):
    sessions = await nursery.start(run_session_registry, tmp_path / "sessions.json", {}, clock)
    user = await nursery.start(run_graph_actor, "user", "user", tmp_path / "user.json", GraphData("user"))

    async def get(key):
        return user

    directory = SimpleNamespace(layout=Layout(tmp_path), get=get, loaded_keys=lambda: ["user"])
    return Floor.build(directory, sessions, clock), sessions, user


async def test_a_session_write_asks_the_registry_twice_and_its_graph_once(tmp_path, asks):
    async with trio.open_nursery() as nursery:
        floor, sessions, user = await _floor(nursery, tmp_path)
        view = await sessions.register(project_path=None, harness="claude-code", now=NOW)
        asks.clear()
        out = await write.put_node(floor, view.sid, "user", "first-lesson-node", "a lesson", None, None, push=True)
        assert out.result.created
        assert asks == {"session": 2, "graph": 1}
        # The push window came with the write: telling the session about others' writes asks no more of it.
        asks.clear()
        assert await sync.push_notice(floor, view.sid, view=out.view, window=out.push_window, claimed=True) is None
        assert asks["session"] == 0
        nursery.cancel_scope.cancel()


async def test_a_reply_pushes_other_sessions_writes_from_the_read_views_not_the_graphs_mailbox(tmp_path, asks):
    """A write's reply waited out the compaction its own write had made due, asking the graph what was written."""
    async with trio.open_nursery() as nursery:
        floor, sessions, user = await _floor(nursery, tmp_path, itertools.count(NOW).__next__)
        view = await sessions.register(project_path=None, harness="claude-code", now=NOW)
        other = await sessions.register(project_path=None, harness="claude-code", now=NOW)
        await write.put_node(floor, other.sid, "user", "other-lesson-node", "what the other session learned", None,
                             None)
        asks.clear()
        out = await write.put_node(floor, view.sid, "user", "first-lesson-node", "a lesson", None, None, push=True)
        notice = await sync.push_notice(floor, view.sid, view=out.view, window=out.push_window, claimed=True)
        assert notice is not None and "what the other session learned" in notice
        assert asks["graph"] == 1  # the write itself
        nursery.cancel_scope.cancel()


async def test_a_write_for_an_unknown_session_is_refused_with_the_tools_words(tmp_path, asks):
    async with trio.open_nursery() as nursery:
        floor, _, user = await _floor(nursery, tmp_path)
        with pytest.raises(SessionUnknown, match="call kg_read"):
            await write.put_node(floor, "deadbeef", "user", "first-lesson-node", "a lesson", None, None)
        assert await user.node_ids() == frozenset()
        nursery.cancel_scope.cancel()


async def test_a_read_of_several_ids_reads_the_views_and_asks_only_while_a_refusal_is_pending(
        tmp_path, asks, monkeypatch):
    """Node reads never queue behind a graph's mailbox; a change the store refused is never shown, so
    while one is pending the read asks the actor (which puts the graph back first), once per graph."""
    from kg_actors.conduct import read

    async with trio.open_nursery() as nursery:
        floor, sessions, user = await _floor(nursery, tmp_path)
        view = await sessions.register(project_path=None, harness="claude-code", now=NOW)
        for name in ("first-lesson-node", "second-lesson-node"):
            await write.put_node(floor, view.sid, "user", name, f"the {name}", None, None)
        asks.clear()
        ids = ["second-lesson-node", "no-such-node", "first-lesson-node", "second-lesson-node"]
        lines = await read._node_read(floor, view, ids, None, [])
        assert asks["graph"] == 0
        text = "\n".join(line for line, _ in lines)
        assert text.index("the second-lesson-node") < text.index("no-such-node") < text.index("the first-lesson-node")
        flag = tmp_path / "disk-full"
        flag.write_text("ENOSPC")
        monkeypatch.setenv(faults.ENV, str(flag))
        with pytest.raises(StorageRefused):
            await write.put_node(floor, view.sid, "user", "refused-lesson-node", "the disk refused it", None, None)
        asks.clear()
        lines = await read._node_read(floor, view, ["refused-lesson-node", "first-lesson-node"], None, [])
        assert asks["graph"] == 1
        text = "\n".join(line for line, _ in lines)
        assert "the disk refused it" not in text and "the first-lesson-node" in text
        nursery.cancel_scope.cancel()


async def test_a_search_reads_the_views_and_asks_no_graph(tmp_path, asks):
    """A search never queues behind a graph's mailbox (a compaction in progress holds it)."""
    from kg_actors.conduct import search

    async with trio.open_nursery() as nursery:
        floor, sessions, user = await _floor(nursery, tmp_path)
        view = await sessions.register(project_path=None, harness="claude-code", now=NOW)
        await write.put_node(floor, view.sid, "user", "redis-eviction-policy", "redis evicts by LRU here", None,
                             None)
        await user.view()  # the first index is in
        asks.clear()
        text = await search.search_text(floor, view.sid, "redis eviction")
        assert "redis-eviction-policy" in text
        assert asks["graph"] == 0
        nursery.cancel_scope.cancel()


@pytest.mark.parametrize("code, told", [
    ("ENOSPC", "retry when the disk has room again"),
    ("EROFS", "is read-only: retry once it is writable again"),
    ("EACCES", "give it write permission there, then retry"),
    ("ENOTDIR", "move it away (kg doctor names it), then retry"),
    ("EPERM", "though no permission bit does (an immutable or append-only file or folder?): kg doctor names the fix"),
])
async def test_a_refused_write_says_what_must_change_before_a_retry(tmp_path, monkeypatch, code, told):
    """A store that refuses a write for a file in the way, or a read-only disk, is not told to wait for room."""
    async with trio.open_nursery() as nursery:
        floor, sessions, user = await _floor(nursery, tmp_path)
        view = await sessions.register(project_path=None, harness="claude-code", now=NOW)
        flag = tmp_path / "fault"
        flag.write_text(code)
        monkeypatch.setenv(faults.ENV, str(flag))
        with pytest.raises(StorageRefused) as refused:
            await write.put_node(floor, view.sid, "user", "refused-lesson-node", "the store refused it", None, None)
        assert told in str(refused.value)
        assert ("disk has room" in str(refused.value)) == (code == "ENOSPC")
        nursery.cancel_scope.cancel()
