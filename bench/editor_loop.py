"""How long each of the editor's GET endpoints holds the server's event loop, on a 10,000-node project.

    .venv/bin/python bench/editor_loop.py [--nodes 10000] [--rounds 5]

The whole server runs in this process (`run_server`, requests as raw ASGI calls into its app, no
sockets), with a Trio instrument timing every task step. While one request is answered, the loop's
busy time (every step of every task: the handler, the graph actor answering it) and its longest
single step are what a hook arriving meanwhile would wait behind; a worker thread's time is not
counted (the loop waits for it and runs other tasks meanwhile). Each endpoint is asked right after
an editor write (a new version of the graph, as a feed event makes an open editor ask again), then
again on the same version. The store is bench/workload.py's, as bench/hooks_bench.py builds it.
Prints a markdown table; timings are recorded, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

import trio
import trio.testing

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))
sys.path.insert(0, str(BENCH))
import workload  # noqa: E402

from kg_actors.config import Config  # noqa: E402
from kg_actors.runtime import run_server  # noqa: E402
from kg_actors.testing import write_store  # noqa: E402


class Steps(trio.abc.Instrument):
    """The loop's busy time and longest step since `reset`."""

    def __init__(self) -> None:
        self.reset()
        self._began = 0.0

    def reset(self) -> None:
        self.busy = 0.0
        self.longest = 0.0

    def before_task_step(self, task: trio.lowlevel.Task) -> None:
        self._began = time.perf_counter()

    def after_task_step(self, task: trio.lowlevel.Task) -> None:
        took = time.perf_counter() - self._began
        self.busy += took
        self.longest = max(self.longest, took)


async def call(rt, method: str, path: str, query: dict | None = None, body: dict | None = None) -> tuple[int, bytes]:
    sent: list[dict] = []
    data = json.dumps(body).encode() if body is not None else b""
    given = False

    async def receive() -> dict:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": data, "more_body": False}
        await trio.sleep_forever()
        raise AssertionError

    async def send(message: dict) -> None:
        sent.append(message)

    host = f"127.0.0.1:{rt.http_port}"
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": urlencode(query or {}).encode(),
             "root_path": "", "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", rt.http_port),
             "headers": [(b"host", host.encode()), (b"content-type", b"application/json"),
                         (b"content-length", str(len(data)).encode())]}
    await rt.asgi(scope, receive, send)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


def endpoints(project: str, node_id: str) -> list[tuple[str, str, dict]]:
    p = {"level": "project", "project_path": project}
    return [
        ("/api/projects", "/api/projects", {}),
        ("/api/recent_project", "/api/recent_project", {}),
        ("/api/graph", "/api/graph", p),
        ("/api/states", "/api/states", p),
        ("/api/nodes/{level}/{id}", f"/api/nodes/project/{node_id}", {"project_path": project}),
        ("/api/nodes/{level}/{id}/score", f"/api/nodes/project/{node_id}/score", {"project_path": project}),
        ("/api/progress", "/api/progress", p),
        ("/api/search", "/api/search", {**p, "q": "cache token"}),
        ("/api/budget", "/api/budget", {"project_path": project}),
        ("/api/debt_nodes", "/api/debt_nodes", p),
        ("/api/scores", "/api/scores", p),
        ("/api/readings", "/api/readings", p),
        ("/api/chores", "/api/chores", p),
        ("/api/store/conflicts", "/api/store/conflicts", {}),
    ]


async def measure(root: Path, project: str, node_id: str, rounds: int) -> dict[str, dict[str, list[float]]]:
    steps = Steps()
    config = Config(root=root, port=0, editor=False, save_interval=3600, autocommit_interval=0, log_level="WARNING")
    out: dict[str, dict[str, list[float]]] = {}
    async with trio.open_nursery() as nursery:
        rt = await nursery.start(run_server, config, time.time, False)
        status, _ = await call(rt, "GET", "/api/search", {"level": "project", "project_path": project, "q": "cache"})
        assert status == 200  # the project is loaded and its index built
        trio.lowlevel.add_instrument(steps)
        for k in range(rounds + 1):  # the first round warms up, not reported
            for name, path, query in endpoints(project, node_id):
                for when in ("after a write", "same version"):
                    if when == "after a write":
                        status, _ = await call(rt, "POST", "/api/nodes", body={
                            "level": "project", "project_path": project, "id": f"editor-loop-bench-{k}",
                            "gist": f"a write before {name}, round {k}"})
                        assert status in (200, 201), status
                    await trio.testing.wait_all_tasks_blocked(0.05)  # the write's own work done
                    steps.reset()
                    await trio.lowlevel.checkpoint()  # a step is counted once it ends: begin a fresh one
                    status, body = await call(rt, "GET", path, query)
                    await trio.lowlevel.checkpoint()  # ... and end the one that finished the reply
                    assert status == 200, (name, status, body[:300])
                    if k:
                        row = out.setdefault(name, {})
                        row.setdefault(f"{when} busy", []).append(steps.busy)
                        row.setdefault(f"{when} longest", []).append(steps.longest)
        nursery.cancel_scope.cancel()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nodes", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    base = Path(tempfile.mkdtemp(prefix="kg-editor-loop-"))
    project = base / "home" / "bench-app"
    project.mkdir(parents=True)
    os.environ["HOME"] = str(base / "home")  # nothing of the user's own is read
    rng = random.Random(5)
    now = time.time()
    user = workload.make_graph(rng, workload.USER_NODES, workload.USER_ACTIVE, now, None)
    graph = workload.make_graph(rng, args.nodes, workload.ACTIVE_PROJECT, now, str(project))
    write_store(base / "store", user, {"bench-app": graph})
    node_id = max(graph["nodes"], key=lambda i: sum(i in (e["from"], e["to"]) for e in graph["edges"].values()))
    out = trio.run(measure, base / "store", str(project), node_id, args.rounds)
    print(f"{args.nodes:,} project nodes, {len(graph['edges']):,} edges; median of {args.rounds} rounds (worst), ms\n")
    print("| endpoint | after a write: loop busy | longest step | same version: loop busy | longest step |")
    print("|---|---|---|---|---|")
    for name, row in out.items():
        cells = [f"{statistics.median(v) * 1000:.1f} ({max(v) * 1000:.1f})" for v in
                 (row["after a write busy"], row["after a write longest"], row["same version busy"],
                  row["same version longest"])]
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
