"""Many sessions writing at once through real MCP clients: nothing acknowledged is lost.

32 MCP clients (one kg session each, spread over four projects) run
concurrently in a trio nursery. Each makes a bounded number of writes: its own
project nodes, and writes to a few user-graph nodes they all share (a refused
one is retried once, as the NOT WRITTEN reply invites). Every write must either
land ("saved") or be refused with NOT WRITTEN; afterwards every landed node is
in the graph, and on disk after a SIGTERM, with the gist of a write that
landed, and each node's version counts exactly the writes that landed on it.
"""

from __future__ import annotations

import collections
import json

import pytest
import trio
from e2e_helpers import graph, nodes_by_id, on_disk_graph, start_server
from mcp import Client

from kg_actors.testing import mcp_text, session_of

SESSIONS = 32
OWN_WRITES = 7
SHARED_WRITES = 3
SHARED = ["shared-hot-node-a", "shared-hot-node-b", "shared-hot-node-c"]  # user graph: every session reaches it
PROJECTS = 4
DEADLINE = 120.0


def _shown_gist(refusal: str) -> str:
    return next(line for line in refusal.splitlines() if line.startswith("  gist: "))


def _shown_notes(refusal: str) -> list[str]:
    """The stored notes a NOT WRITTEN reply shows, in order."""
    return [line[6:] for line in refusal.splitlines() if line.startswith("    - ")]


@pytest.fixture
def srv(tmp_path):
    server = start_server(tmp_path)
    yield server
    server.kill()


async def test_32_concurrent_sessions_lose_no_acknowledged_write(srv):
    cwds = [srv.project(f"busy-proj-{p}") for p in range(PROJECTS)]
    outcomes: list[tuple[int, str, str, str, bool]] = []  # (session, id, gist, reply, is_error)
    sids: dict[int, str] = {}
    wrongly_refused: list[tuple[str, str, str]] = []
    all_open = trio.Event()
    opened = 0

    async def agent(n: int) -> None:
        nonlocal opened
        async with Client(srv.url + "/") as c:
            r = await c.call_tool("kg_read", {"cwd": cwds[n % PROJECTS]})
            assert not r.is_error, mcp_text(r)
            sid = sids[n] = session_of(mcp_text(r))
            opened += 1
            if opened == SESSIONS:
                all_open.set()
            await all_open.wait()  # every session writes at the same time
            plan = [f"agent-{n:02d}-node-{k}" for k in range(OWN_WRITES)]
            plan[1:1] = [SHARED[(n + k) % len(SHARED)] for k in range(SHARED_WRITES)]
            for k, node_id in enumerate(plan):
                gist = f"written by agent {n} as its write {k}"
                level = "user" if node_id in SHARED else "project"
                r = await c.call_tool("kg_put_node", {"session_id": sid, "level": level, "id": node_id,
                                                      "gist": gist, "notes": [f"n{n}"]})
                outcomes.append((n, node_id, gist, mcp_text(r), bool(r.is_error)))
                if r.is_error and mcp_text(r).startswith("NOT WRITTEN"):
                    # The refusal showed the node as it stands: merging into it and writing again is allowed.
                    gist = f"merged by agent {n} as its write {k}"
                    first_refusal = mcp_text(r)
                    notes = [*_shown_notes(first_refusal), f"n{n}"]
                    r = await c.call_tool("kg_put_node", {"session_id": sid, "level": level, "id": node_id,
                                                          "gist": gist, "notes": notes})
                    outcomes.append((n, node_id, gist, mcp_text(r), bool(r.is_error)))
                    if r.is_error and _shown_gist(mcp_text(r)) == _shown_gist(first_refusal):
                        wrongly_refused.append((node_id, first_refusal, mcp_text(r)))

    with trio.fail_after(DEADLINE):
        async with trio.open_nursery() as nursery:
            for n in range(SESSIONS):
                nursery.start_soon(agent, n)

    assert not wrongly_refused, (
        "a retry that merged into exactly the node a NOT WRITTEN reply showed was refused again "
        f"(the refusal must count as a full read): {wrongly_refused[0]}")
    first_tries = [o for o in outcomes if not o[2].startswith("merged")]
    assert len(first_tries) == SESSIONS * (OWN_WRITES + SHARED_WRITES)
    assert len(outcomes) - len(first_tries) == sum(1 for o in first_tries if o[4]), "one retry per refusal"
    landed = [(n, i, g) for n, i, g, text, err in outcomes if not err]
    for n, node_id, gist, text, err in outcomes:
        if err:
            assert text.startswith("NOT WRITTEN"), f"{node_id}: neither saved nor refused: {text}"
            assert node_id in SHARED, f"a write to {node_id}, which only agent {n} writes, was refused: {text}"
        else:
            level = "user" if node_id in SHARED else "project"
            assert text.startswith(f"Node '{node_id}' saved to {level} graph"), text
    refused = len(outcomes) - len(landed)
    retried_ok = sum(1 for _, _, g in landed if g.startswith("merged"))
    reasons = collections.Counter(text.split(". ", 1)[0] for _, _, _, text, err in outcomes if err)
    print("\n" + "\n".join(f"{n:4d} × {why}" for why, n in reasons.most_common()))
    print(f"\n{len(landed)} writes landed ({retried_ok} of them retries), {refused} refused with NOT WRITTEN")
    assert refused, "32 sessions racing on 3 nodes they never read: some writes must be refused"
    own = {(i, g) for n, i, g in landed if i not in SHARED}
    assert len(own) == SESSIONS * OWN_WRITES
    landed_gists = {i: {g for _, j, g in landed if j == i} for i in SHARED}
    assert all(landed_gists[i] for i in SHARED), "someone must have created each shared node"

    def own_in(p: int) -> set[tuple[str, str]]:
        return {(i, g) for i, g in own if int(i.split("-")[1]) % PROJECTS == p}

    def check(project_nodes: list[dict[str, dict]], user_nodes: dict[str, dict]) -> None:
        for p, nodes in enumerate(project_nodes):
            mine = own_in(p)
            missing = [i for i, _ in mine if i not in nodes]
            assert not missing, f"acknowledged nodes lost in project {p}: {missing[:10]}"
            assert all(nodes[i]["gist"] == g for i, g in mine)
            assert len(nodes) == len(mine), "a project holds only its own sessions' nodes"
        for i in SHARED:
            assert user_nodes[i]["gist"] in landed_gists[i], f"{i} holds a gist no acknowledged write sent"

    check([nodes_by_id(graph(srv, project_path=c)["project"]) for c in cwds],
          nodes_by_id(graph(srv)["user"]))

    assert srv.stop() == 0  # SIGTERM: fold the journals into the JSON files
    assert not list(srv.store.rglob("*.journal")), "a clean stop folds every journal"
    files = {}
    for graph_file in (srv.store / "projects").glob("*/graph.json"):
        saved = json.loads(graph_file.read_text())
        files[saved["_meta"]["project_path"]] = saved["nodes"]
        assert on_disk_graph(graph_file)["nodes"].keys() == saved["nodes"].keys()
    assert set(files) == set(cwds)
    user_file = json.loads((srv.store / "user.json").read_text())
    check([files[c] for c in cwds], user_file["nodes"])
    # Each landed write bumped its node's version once; no refused write did.
    for i in SHARED:
        assert user_file["_meta"]["versions"][f"node:{i}"]["v"] == sum(1 for _, j, _ in landed if j == i)
