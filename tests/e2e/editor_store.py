"""A small store the editor tests open: a user graph, two projects, one with a lost folder, one pathless.

`alpha` holds every node state, a file edge, a cross-level edge to a user
node, a versioned node and a progress task, so each endpoint has something
real to show.
"""

from __future__ import annotations

import time
from pathlib import Path

import httpx

from kg_actors.testing import ServerProcess, write_store

NOW = time.time()
DAY = 86_400.0


def _node(node_id: str, gist: str, **extra) -> dict:
    return {"id": node_id, "gist": gist, "_created_ts": NOW - 30 * DAY, **extra}


def seed(srv: ServerProcess) -> dict[str, str]:
    """Write the store before `srv.start()`; returns the project paths by name."""
    alpha, beta = srv.project("alpha"), srv.project("beta")
    gone = str(Path(srv.home) / "gone-project")  # recorded, but the folder no longer exists
    user = {"nodes": {
        "prefer-small-modules": _node("prefer-small-modules", "Keep modules to a few hundred lines"),
        "review-before-merge": _node("review-before-merge", "Every change gets a second reader"),
    }, "edges": {}}
    alpha_graph = {
        "nodes": {
            "auth-token-refresh": _node(
                "auth-token-refresh", "JWT refresh uses a sliding window; silent failure if the session expired",
                notes=["an expired session returned 200 with no new token"], touches=["src/auth/refresh.py"],
                _written={"ts": NOW - 2 * DAY, "by": "agent-one"}),
            "session-handler-init": _node("session-handler-init", "The session handler must start before token checks"),
            "rate-limit-window": _node("rate-limit-window", "Redis sliding window; a 429 carries Retry-After",
                                       _archived=True, _last_read_ts=NOW - 20 * DAY),
            "old-cache-layout": _node("old-cache-layout", "Cache keys were once per-user", _archived=True,
                                      _orphaned_ts=NOW - 5 * DAY),
            "billing-service-hub": _node("billing-service-hub", "Billing owns invoices, refunds and tax"),
        },
        "edges": {
            "auth-token-refresh->session-handler-init:requires-init": {
                "from": "auth-token-refresh", "to": "session-handler-init", "rel": "requires-init"},
            "rate-limit-window->auth-token-refresh:related-to": {
                "from": "rate-limit-window", "to": "auth-token-refresh", "rel": "related-to"},
            "auth-token-refresh->src/auth/refresh.py:implemented-in": {
                "from": "auth-token-refresh", "to": "src/auth/refresh.py", "rel": "implemented-in"},
            "billing-service-hub->prefer-small-modules:applies": {
                "from": "billing-service-hub", "to": "prefer-small-modules", "rel": "applies"},
        },
        "_meta": {
            "project_path": alpha,
            "versions": {"node:auth-token-refresh": {"v": 3, "ts": NOW - 2 * DAY, "session": "agent-one"}},
            "progress": {"scout": {"reviewed": ["s1"], "last_ts": NOW - DAY}},
        },
    }
    beta_graph = {"nodes": {"beta-deploy-notes": _node("beta-deploy-notes", "Beta deploys from the release branch")},
                  "edges": {}, "_meta": {"project_path": beta}}
    gone_graph = {"nodes": {"gone-thing-here": _node("gone-thing-here", "A project whose folder moved")},
                  "edges": {}, "_meta": {"project_path": gone}}
    nopath_graph = {"nodes": {"pathless-node-one": _node("pathless-node-one", "Written before paths were recorded")},
                    "edges": {}}
    write_store(srv.store, user=user, projects={
        "alpha": alpha_graph, "beta": beta_graph, "gone-project": gone_graph, "nopath": nopath_graph})
    return {"alpha": alpha, "beta": beta, "gone": gone}


def editor_url(srv: ServerProcess) -> str:
    return f"http://127.0.0.1:{srv.editor_port}"


def client(srv: ServerProcess) -> httpx.Client:
    """A plain HTTP client on the editor's port (no Origin: what a script or the page's own fetch looks like)."""
    return httpx.Client(base_url=editor_url(srv), timeout=20.0)


def big_project(path: str, n: int = 900) -> dict:
    """A project past the editor's streaming threshold: a chain of hubs, all three tiers, file edges."""
    nodes, edges = {}, {}
    for i in range(n):
        node_id = f"bulk-node-{i}"
        state = {} if i % 3 == 0 else {"_archived": True} if i % 3 == 1 else {"_archived": True, "_orphaned_ts": NOW - DAY}
        nodes[node_id] = _node(node_id, f"Bulk lesson number {i}", **state)
        if i:
            hub = f"bulk-node-{(i // 30) * 30}" if i % 30 else "bulk-node-0"
            if hub != node_id:
                edges[f"{node_id}->{hub}:part-of"] = {"from": node_id, "to": hub, "rel": "part-of"}
        if i % 50 == 0:
            edges[f"{node_id}->src/bulk/{i}.py:implemented-in"] = {"from": node_id, "to": f"src/bulk/{i}.py",
                                                                   "rel": "implemented-in"}
    return {"nodes": nodes, "edges": edges, "_meta": {"project_path": path}}
