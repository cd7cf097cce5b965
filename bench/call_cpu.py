"""The server's CPU per tool call (utime + stime of `kg serve` from /proc, all its threads) on a 10,000-node
store: a figure that other work on a shared machine moves far less than a latency does.

    .venv/bin/python bench/call_cpu.py KIND [COUNT] [--bin DIR] [--nodes N] [--walls FILE]
                                                    # KIND: put, read (5 ids), search, floor, health

`floor` is the least a tool call costs on this stack: kg_read of one id no node has (the HTTP server, the
JSON-RPC envelope, the session registry, the graph's view and a NOT FOUND reply; no graph change);
`health` is GET /health, the HTTP server and the app's routing alone.

--bin: the venv's bin folder whose `python -m kg_actors serve` runs (default: this checkout's .venv/bin), for
A/B runs of two builds with one client (before 2026-12-02 05:10 UTC it only set PATH, and the server ran the
client's own build whatever --bin said). --nodes: the project's size (default 10,000; 500 is the issue's
small store). After 30 warm-up calls, 8 s idle and the server with its children idle, COUNT calls (default 200) one after another; prints the
CPU per call and the calls' wall p50/p99;
--walls writes each call's wall time in call order (where a tail comes from: periodic or not).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import driver  # noqa: E402
import workload  # noqa: E402

from kg_actors.testing import ServerProcess, write_store  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=["put", "read", "search", "floor", "health"])
    ap.add_argument("count", type=int, nargs="?", default=200)
    ap.add_argument("--bin", default=str(BENCH.parent / ".venv" / "bin"))
    ap.add_argument("--nodes", type=int, default=10_000)
    ap.add_argument("--walls", help="write each call's wall ms, in call order, to this JSON file")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        srv, proj, project = started_server(Path(tmp), args.nodes, args.bin)
        try:
            asyncio.run(_calls(srv, proj, project, args.kind, args.count, args.bin, args.walls))
        finally:
            srv.stop()


def started_server(tmp: Path, nodes: int, kg_bin: str, env: dict[str, str] | None = None
                   ) -> tuple[ServerProcess, Path, dict]:
    """`kg serve` of `kg_bin`'s venv, started on a fresh store in `tmp` (bench/workload.py's, seeded, with a
    project of `nodes` nodes); the server, the project's folder and the project as written."""
    srv = ServerProcess(tmp, {"KG_LOG_LEVEL": "WARNING", **(env or {})}, python=str(Path(kg_bin) / "python"))
    proj = Path(srv.project("bench-app"))
    rng, now = random.Random(5), time.time()
    user = workload.make_graph(rng, workload.USER_NODES, workload.USER_ACTIVE, now, None)
    project = workload.make_graph(rng, nodes, workload.ACTIVE_PROJECT, now, str(proj))
    write_store(srv.store, user, {"bench-app": project})
    srv.start()
    return srv, proj, project


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _calls(srv: ServerProcess, proj: Path, project: dict, kind: str, count: int, kg_bin: str,
                 walls: str | None) -> None:
    active = [i for i, n in project["nodes"].items() if not n.get("_archived")]
    every = list(project["nodes"])
    rpc = driver.Rpc(srv.url + "/")
    sid, _ = await driver.open_session(rpc, str(proj))
    r, writes = random.Random(1), driver.Writes(set(every))

    async def one():  # type: ignore[no-untyped-def]
        if kind == "health":
            t0 = time.perf_counter()
            resp = await rpc.http.get("/health")
            return driver.Reply(resp.status_code == 200, False, resp.text, time.perf_counter() - t0)
        if kind == "floor":
            return await rpc.call("kg_read", {"session_id": sid, "ids": ["no-node-has-this-id"]})
        if kind == "read":
            ids = list({r.choice(active if r.random() < 0.8 else every) for _ in range(5)})
            return await rpc.call("kg_read", {"session_id": sid, "ids": ids})
        if kind == "put":
            return await rpc.call("kg_put_node", writes.args(r, sid))
        return await rpc.call("kg_search", {"session_id": sid, "query": workload.query_terms(r)})

    for _ in range(30):
        await one()
    await asyncio.sleep(8)
    pid = srv.proc.pid
    await driver.wait_idle(pid)  # and the start's index process, if still building: its CPU is not the calls'
    before, wall = _cpu(pid), []
    for _ in range(count):
        reply = await one()
        assert reply.ok, reply.text[:200]
        wall.append(reply.seconds * 1000)
    spent = _cpu(pid) - before
    if walls:
        Path(walls).write_text(json.dumps(wall))
    wall.sort()
    print(f"{kg_bin} {kind}, N = {len(project['nodes'])}: server CPU {1000 * spent / count:.2f} ms/call; "
          f"wall p50 {wall[len(wall) // 2]:.1f} "
          f"p99 {wall[int(len(wall) * 0.99)]:.1f} ms ({count} calls)")
    await rpc.aclose()


if __name__ == "__main__":
    main()
