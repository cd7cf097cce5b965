"""A bug in one graph message is logged and answered as an error (or, after a change is committed, the
change still kept): the server goes on serving. The whole server runs in this process (inprocess.py)."""

from __future__ import annotations

import json
import time

import pytest
from inprocess import asgi, serve_inprocess

from kg_actors.core import graph_ops
from kg_actors.core.errors import KGError
from kg_actors.derived import Derived
from kg_actors.graph_actor import GraphState

EDITOR = graph_ops.Writer(session=None)


async def _put(handle, node_id: str) -> None:
    await handle.put_node(node_id=node_id, gist=f"a lesson called {node_id}", notes=None, touches=None,
                          now=time.time(), writer=EDITOR)


async def test_a_bug_in_a_refresh_or_in_indexing_a_write_leaves_the_server_serving(tmp_path, home, monkeypatch):
    def broken(*args):
        raise ZeroDivisionError("bug")

    async with serve_inprocess(tmp_path / "store") as rt:
        user = await rt.directory.get("user")
        await _put(user, "before-the-bugs")
        monkeypatch.setattr(Derived, "compute_recent", broken)
        with pytest.raises(KGError, match="internal error"):
            await user.refresh(now=time.time() + 86_400)
        monkeypatch.setattr(GraphState, "changed", broken)
        await _put(user, "kept-despite-the-bug")  # answered: the change is journaled all the same
        monkeypatch.undo()
        await _put(user, "after-the-bugs")
        status, body = await asgi(rt, "GET", "/health")
        assert status == 200 and json.loads(body)["status"] == "ok"
        assert {"before-the-bugs", "kept-despite-the-bug", "after-the-bugs"} <= await user.node_ids()
