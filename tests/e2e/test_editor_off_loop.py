"""The editor's whole-graph reads are built in a worker thread: a hook is answered while one is being built.

An open editor asks again for every node's tier, the budget, the nodes behind the debt and the list's
scores after feed events; on a 10,000-node project each took 10-40 ms of the event loop
(bench/editor_loop.py). Here the pure function behind each is held inside its thread until a hook has
its reply, so the test shows the structure (the loop is free meanwhile) with no clock; and each reply is
the very JSON the loop used to build and encode.
"""

from __future__ import annotations

import contextvars
import json
import threading
import types

import pytest
import trio
from editor_store import NOW, seed
from inprocess import asgi, hook, serve_inprocess
from starlette.responses import JSONResponse

from kg_actors.conduct import graphs
from kg_actors.core import debt, scoring
from kg_actors.core import graph_views as V
from kg_actors.http import rest_store

EDITOR = contextvars.ContextVar("editor_request", default=False)  # copied into worker threads by trio


class Gate:
    """Wraps a pure function: a call made for the editor's request waits in its thread until released,
    and a call made on the event loop is recorded (and not held: it would stop the loop)."""

    def __init__(self, real):
        self.real = real
        self.entered, self.release = threading.Event(), threading.Event()
        self.on_loop: list[str] = []

    def __call__(self, *args, **kwargs):
        if EDITOR.get():
            try:
                trio.lowlevel.current_task()
                self.on_loop.append(self.real.__name__)
            except RuntimeError:  # no task: a worker thread
                self.entered.set()
                self.release.wait(60)  # a bound, never reached: the test releases it
            self.entered.set()
        return self.real(*args, **kwargs)


def store(tmp_path, home):
    root = tmp_path / "store"
    srv = types.SimpleNamespace(store=root, home=home, project=lambda name: str((home / name).mkdir() or home / name))
    paths = seed(srv)
    # A version a sync set aside, so the conflicts list has a row.
    alpha = root / "projects" / "alpha" / "graph.json"
    graph = json.loads(alpha.read_text())
    graph["nodes"]["billing-service-hub"]["_conflicts"] = [{"gist": "Billing owns invoices", "machine": "laptop"}]
    alpha.write_text(json.dumps(graph))
    return root, paths


def reads(alpha: str) -> list[tuple[str, str, object, str]]:
    """(path, query, module, function) of each read built off the loop."""
    where = f"level=project&project_path={alpha}"
    return [
        ("/api/states", where, V, "states"),
        ("/api/budget", f"project_path={alpha}", V, "budget"),
        ("/api/debt_nodes", where, debt, "debt_nodes"),
        ("/api/nodes/project/auth-token-refresh/score", f"project_path={alpha}", scoring, "explain"),
        ("/api/scores", where, scoring, "unified_scores"),
        ("/api/store/conflicts", "", rest_store, "conflict_rows"),
    ]


@pytest.mark.parametrize("which", range(6), ids=["states", "budget", "debt_nodes", "score", "scores", "conflicts"])
async def test_a_hook_is_answered_while_an_editor_read_is_built(tmp_path, home, monkeypatch, which):
    root, paths = store(tmp_path, home)
    path, query, module, name = reads(paths["alpha"])[which]
    gate = Gate(getattr(module, name))
    monkeypatch.setattr(module, name, gate)
    replies: dict[str, tuple[int, bytes]] = {}
    async with serve_inprocess(root) as rt:
        # The project loaded first, as an open editor has it (the conflicts list reads the graphs loaded).
        assert (await asgi(rt, "GET", "/api/progress", query=f"level=project&project_path={paths['alpha']}"))[0] == 200

        async def editor() -> None:
            EDITOR.set(True)
            replies["editor"] = await asgi(rt, "GET", path, query=query)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(editor)
            try:
                await trio.to_thread.run_sync(gate.entered.wait, 60)
                status, _ = await hook(rt, "/api/prompt_context", {
                    "session_id": "claude-one", "cwd": paths["alpha"], "hook_event_name": "UserPromptSubmit",
                    "prompt": "how does the auth token refresh work?"})
                assert status == 200
                held = "editor" not in replies  # the read is still in its thread, held by the gate
            finally:
                gate.release.set()
        assert gate.on_loop == [] and held
        status, body = replies["editor"]
        assert status == 200, body
        assert json.loads(body)["conflicts" if name == "conflict_rows" else "project_path"]  # alpha's answer


def on_loop_reply(content: dict) -> bytes:
    return JSONResponse(content).body


async def test_each_read_is_the_json_the_loop_built_before(tmp_path, home):
    """The replies byte for byte as the handlers built them on the loop (with the server's clock fixed)."""
    root, paths = store(tmp_path, home)
    alpha = paths["alpha"]
    async with serve_inprocess(root, clock=lambda: NOW) as rt:
        got = {}
        for path, query, _, name in reads(alpha):
            status, body = await asgi(rt, "GET", path, query=query)
            assert status == 200, body
            got[name] = body
        handle, root_path = await graphs.graph_of(rt.floor, "project", alpha)
        user = await rt.directory.get("user")
        view = await handle.view()
        graph = (await handle.current()).graph
        where = {"level": "project", "project_path": root_path}
        assert got["states"] == on_loop_reply({**where, "states": {i: n.state for i, n in graph.nodes.items()}})
        levels = {}
        for level, h in (("user", user), ("project", handle)):
            levels[level] = V.budget((await h.current()).graph)
            d = await h.debt(now=NOW)
            levels[level].update(debt=debt.debt_line(d), debt_factors=debt.debt_dict(d))
        assert got["budget"] == on_loop_reply({"project_path": root_path, "levels": levels})
        assert got["debt_nodes"] == on_loop_reply(
            {**where, "behind": debt.debt_nodes(view.graph, view.missing_touches)})
        explained = scoring.explain(graph, "auth-token-refresh", NOW)
        assert got["explain"] == on_loop_reply({**where, "now": NOW, **explained})
        scored = scoring.unified_scores(graph, NOW)
        assert got["unified_scores"] == on_loop_reply({**where, "scores": {i: round(v, 4) for i, v in scored.items()}})
        rows = []
        for h in rt.directory.loaded():
            rows += [{"level": h.level, "project_path": rt.directory.root_of(h.key), "id": n.id, "gist": n.gist,
                      "others": n.extra["_conflicts"]}
                     for n in (await h.current()).graph.nodes.values() if n.extra.get("_conflicts")]
        assert [r["id"] for r in rows] == ["billing-service-hub"]
        assert got["conflict_rows"] == on_loop_reply({"conflicts": rows})
