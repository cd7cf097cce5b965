"""A session counts as having seen what a reply showed it as of when the reply's graphs were read: a write
applied while the reply was being made (by another session) is not "seen", and the session's next write
over it is refused as built on a stale view (spec 000), not let through to replace it unseen."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import pytest
import trio

from kg_actors.conduct import search, write
from kg_actors.conduct.floor import Floor
from kg_actors.core.errors import WriteConflict
from kg_actors.core.model import GraphData
from kg_actors.graph_actor import run_graph_actor
from kg_actors.session_actor import run_session_registry
from kg_actors.storage.layout import Layout

NODE = "shared-lesson-node"


async def _two_sessions(nursery, tmp_path):
    """A floor over one user graph, a session registry whose clock reads later at every call, and two
    sessions: (floor, the user graph, a, b)."""
    ticks = itertools.count(1_000_000)
    clock = lambda: float(next(ticks))  # noqa: E731 - every reading later than the last
    sessions = await nursery.start(run_session_registry, tmp_path / "sessions.json", {}, clock)
    user = await nursery.start(run_graph_actor, "user", "user", tmp_path / "user.json", GraphData("user"))

    async def get(key):
        return user

    floor = Floor.build(SimpleNamespace(layout=Layout(tmp_path), get=get, loaded_keys=lambda: ["user"]),
                        sessions, clock)
    a = await sessions.register(project_path=None, harness="claude-code", now=clock())
    b = await sessions.register(project_path=None, harness="claude-code", now=clock())
    return floor, user, a, b


async def test_a_write_applied_while_a_search_is_made_is_not_seen_by_the_searcher(tmp_path, monkeypatch):
    async with trio.open_nursery() as nursery:
        floor, user, a, b = await _two_sessions(nursery, tmp_path)
        await write.put_node(floor, b.sid, "user", NODE, "the first version of the shared lesson", None, None)
        await search.search_text(floor, a.sid, "shared lesson")  # a has seen the first version
        real_view = type(user).view

        async def view_then_another_write(handle):  # the graph is read, then b's write lands before the reply
            taken = await real_view(handle)
            await write.put_node(floor, b.sid, "user", NODE, "b's second version, which a is never shown", None, None)
            return taken

        monkeypatch.setattr(type(user), "view", view_then_another_write)
        text = await search.search_text(floor, a.sid, "shared lesson")
        monkeypatch.setattr(type(user), "view", real_view)
        assert "second version" not in text
        with pytest.raises(WriteConflict):
            await write.put_node(floor, a.sid, "user", NODE, "a's rewrite of the first version", None, None)
        assert (await user.get_node(NODE)).gist == "b's second version, which a is never shown"
        nursery.cancel_scope.cancel()


async def test_a_delete_of_a_node_another_session_rewrote_since_it_was_seen_is_refused_once(tmp_path):
    """The rewrite would go unread and be lost: the refusal shows it, and a delete after that goes through."""
    async with trio.open_nursery() as nursery:
        floor, user, a, b = await _two_sessions(nursery, tmp_path)
        await write.put_node(floor, b.sid, "user", NODE, "a first guess at the cause", None, None)
        await search.search_text(floor, a.sid, "first guess cause")  # a sees b's version, and rewrites it
        await write.put_node(floor, a.sid, "user", NODE, "ROOT CAUSE FOUND: the pool's timeout", None, None)
        with pytest.raises(WriteConflict) as refused:
            await write.delete_node(floor, b.sid, NODE)
        assert refused.value.node["gist"] == "ROOT CAUSE FOUND: the pool's timeout"
        assert (await user.get_node(NODE)) is not None
        assert (await write.delete_node(floor, b.sid, NODE))[0] == "user"  # shown now: deleted
        assert (await user.get_node(NODE)) is None
        nursery.cancel_scope.cancel()
