"""What passes and chores stamped on a graph steers the next run, through a real `kg serve`: an id a chore
declined is not the next chore's target, and a pass that saved a cursor and died leaves its graph due a pass
(only a completed pass, `"cursor": "done"`, is a maintain stamp: spec 003 kg_progress)."""

import json
import time

import anyio
from mcp import Client
from test_chores_e2e import _quota_left, _server

from hook_helpers import Harness  # noqa: E402 (test_chores_e2e put tests/e2e on the path)
from kg_actors.testing import ServerProcess, session_of

LONG = "Deploys go through the staging gate first. "


async def _seed(srv: ServerProcess, project: str, nodes: dict[str, str], progress: tuple[str, dict]) -> None:
    """The nodes, written by a working session; then `progress` (task, state) from a maintenance session."""
    async with Client(srv.url + "/") as c:
        sid = session_of((await c.call_tool("kg_read", {"cwd": project})).content[0].text)
        for node_id, gist in nodes.items():
            got = await c.call_tool("kg_put_node", {"session_id": sid, "level": "project", "id": node_id,
                                                    "gist": gist})
            assert not got.is_error, got.content[0].text
        m = session_of((await c.call_tool("kg_read", {"cwd": project, "maintenance": True})).content[0].text)
        task, state = progress
        got = await c.call_tool("kg_progress", {"session_id": m, "task_id": task, "level": "project",
                                                "state": state})
        assert not got.is_error, got.content[0].text


def _dispatch_after_a_prompt(tmp_path, nodes: dict[str, str], progress: tuple[str, dict]) -> dict:
    srv, _rec = _server(tmp_path, "claude", json.dumps({"enabled": True, "timeout_s": 60}), "none")
    _quota_left(srv)
    try:
        srv.start("--no-editor")
        project = srv.project("app")
        anyio.run(_seed, srv, project, nodes, progress)
        h = Harness(srv, project)
        assert h.start().json is not None
        assert h.prompt("how do deploys reach production?").rc == 0
        # The prompt's one decision: a dispatch, or the skip saying why not.
        log = srv.store / "chores.jsonl"
        deadline = time.monotonic() + 30
        while not (log.exists() and log.read_text().strip()) and time.monotonic() < deadline:
            time.sleep(0.05)
        return json.loads(log.read_text().splitlines()[0])
    finally:
        srv.kill()


def test_a_node_a_chore_declined_is_not_the_next_chores_target(tmp_path):
    nodes = {"deploy-gate-steps": LONG * 12, "canary-wait-steps": LONG * 10}  # both oversized, linked to nothing
    declined = ("chore", {"kind": "gist", "targets": ["deploy-gate-steps"], "done": [],
                          "declined": ["deploy-gate-steps"]})
    dispatch = _dispatch_after_a_prompt(tmp_path, nodes, declined)
    assert dispatch["tier"] == "chore" and dispatch["kind"] == "gist", dispatch
    assert dispatch["targets"] == ["canary-wait-steps"], dispatch


def test_a_pass_that_saved_its_cursor_and_died_leaves_its_graph_due_a_pass(tmp_path):
    nodes = {f"module-{i}-lesson": f"Lesson {i} about module {i} and its callers." for i in range(9)}
    half_done = ("maintain", {"cursor": "b", "counts": {"smeared": 0}, "declined": []})
    dispatch = _dispatch_after_a_prompt(tmp_path, nodes, half_done)
    assert dispatch["tier"] == "pass" and dispatch["reason"] == "pass due: never maintained", dispatch
    assert dispatch["debt"] > 0, dispatch
