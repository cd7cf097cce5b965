"""Builds side by side: each build's `kg serve` on its own copy of the same 10,000-node store, their
tool calls taken in turns (a, b, b, a, ...), so every build sees the same minutes of a host whose
speed moves; prints each build's server CPU per call and its calls' wall p50 / p90 / p99 / max.

    .venv/bin/python bench/paired_ab.py KIND COUNT BIN [BIN ...] [--save-interval S] [--nodes N]
        # KIND: put (creates), search, read (5 ids); BIN: a venv's bin folder (its python runs the server)

--save-interval: the servers' KG_SAVE_INTERVAL (default 3600: no save during the calls; 1-3 puts a
save of the whole graph, the tick's fold, among them). After 30 warm-up calls each, 5 s and each
server idle, COUNT calls per build.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import call_cpu  # noqa: E402
import driver  # noqa: E402
import workload  # noqa: E402


class Build:
    def __init__(self, bin_dir: str, srv, proj: Path, project: dict):  # noqa: ANN001
        self.bin, self.srv, self.proj = bin_dir, srv, proj
        self.rpc = driver.Rpc(srv.url + "/")
        self.r = random.Random(1)
        self.writes = driver.Writes(set(project["nodes"]))
        self.active = [i for i, n in project["nodes"].items() if not n.get("_archived")]
        self.walls: list[float] = []
        self.sid = ""
        self.cpu0 = 0.0

    async def one(self, kind: str) -> driver.Reply:
        if kind == "put":
            return await self.rpc.call("kg_put_node", self.writes.args(self.r, self.sid))
        if kind == "search":
            return await self.rpc.call("kg_search", {"session_id": self.sid, "query": workload.query_terms(self.r)})
        ids = list({self.r.choice(self.active) for _ in range(5)})
        return await self.rpc.call("kg_read", {"session_id": self.sid, "ids": ids})


async def run(builds: list[Build], kind: str, count: int) -> None:
    for b in builds:
        b.sid, _ = await driver.open_session(b.rpc, str(b.proj))
        for _ in range(30):
            await b.one(kind)
    await asyncio.sleep(5)
    for b in builds:
        await driver.wait_idle(b.srv.proc.pid)
        b.cpu0 = call_cpu._cpu(b.srv.proc.pid)
    for k in range(count):
        for b in builds if k % 2 == 0 else builds[::-1]:
            reply = await b.one(kind)
            assert reply.ok, reply.text[:200]
            b.walls.append(reply.seconds * 1000)
    for b in builds:
        w = sorted(b.walls)
        cpu = (call_cpu._cpu(b.srv.proc.pid) - b.cpu0) * 1000 / count
        print(f"{b.bin} {kind}: server CPU {cpu:.2f} ms/call; wall p50 {w[len(w) // 2]:.2f} "
              f"p90 {w[int(len(w) * 0.9)]:.2f} p99 {w[int(len(w) * 0.99)]:.2f} max {w[-1]:.1f} ms ({count} calls)")
        await b.rpc.aclose()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kind", choices=["put", "search", "read"])
    ap.add_argument("count", type=int)
    ap.add_argument("bins", nargs="+")
    ap.add_argument("--save-interval", default="3600")
    ap.add_argument("--nodes", type=int, default=10_000)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        builds: list[Build] = []
        try:
            for k, bin_dir in enumerate(a.bins):
                folder = Path(tmp) / str(k)
                folder.mkdir()
                srv, proj, project = call_cpu.started_server(folder, a.nodes, bin_dir,
                                                             {"KG_SAVE_INTERVAL": a.save_interval})
                builds.append(Build(bin_dir, srv, proj, project))
            asyncio.run(run(builds, a.kind, a.count))
        finally:
            for b in builds:
                b.srv.stop()


if __name__ == "__main__":
    main()
