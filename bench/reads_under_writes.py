"""kg_read of 5 ids, back to back from one session, while another session writes (kg_put_node) every
`--every` seconds: what a read pays for a write next to it, and that write for the reads (N = 10,000).

    .venv/bin/python bench/reads_under_writes.py [--seconds 12] [--every 0.2] [--save-interval 3600] [--bin DIR]

The server is `python -m kg_actors serve` of --bin's venv (default this checkout's) on a fresh store from
bench/workload.py; KG_SAVE_INTERVAL is --save-interval (3600: no fold meanwhile; 2: a fold every 2 s).
Prints the reads' count and wall p50 / p99 / max, and the writes' p50 / max. Loopback only; bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import driver  # noqa: E402
from call_cpu import started_server  # noqa: E402

from kg_actors.testing import ServerProcess  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=12.0)
    ap.add_argument("--every", type=float, default=0.2, help="seconds between the writer's calls")
    ap.add_argument("--save-interval", type=float, default=3600.0)
    ap.add_argument("--bin", default=str(BENCH.parent / ".venv" / "bin"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        srv, proj, project = started_server(Path(tmp), 10_000, args.bin, {"KG_SAVE_INTERVAL": str(args.save_interval)})
        try:
            reads, writes = asyncio.run(_run(srv, proj, project, args.seconds, args.every))
        finally:
            srv.stop()
    reads.sort()
    writes.sort()
    print(f"{args.bin}: {len(reads)} reads p50 {reads[len(reads) // 2]:.1f} p99 {reads[int(len(reads) * 0.99)]:.1f} "
          f"max {reads[-1]:.1f} ms; {len(writes)} writes p50 {writes[len(writes) // 2]:.1f} max {writes[-1]:.1f} ms")


async def _run(srv: ServerProcess, proj: Path, project: dict, seconds: float,
               every: float) -> tuple[list[float], list[float]]:
    active = [i for i, n in project["nodes"].items() if not n.get("_archived")]
    reader, writer = driver.Rpc(srv.url + "/"), driver.Rpc(srv.url + "/")
    rsid, _ = await driver.open_session(reader, str(proj))
    wsid, _ = await driver.open_session(writer, str(proj))
    r, plan = random.Random(1), driver.Writes(set(project["nodes"]))
    for _ in range(30):
        await reader.call("kg_read", {"session_id": rsid, "ids": [r.choice(active)]})
    await asyncio.sleep(5)
    await driver.wait_idle(srv.proc.pid)
    reads: list[float] = []
    writes: list[float] = []
    end = time.monotonic() + seconds

    async def write() -> None:
        while time.monotonic() < end:
            reply = await writer.call("kg_put_node", plan.args(r, wsid))
            assert reply.ok, reply.text[:200]
            writes.append(reply.seconds * 1000)
            await asyncio.sleep(every)

    task = asyncio.create_task(write())
    while time.monotonic() < end:
        reply = await reader.call("kg_read", {"session_id": rsid, "ids": list({r.choice(active) for _ in range(5)})})
        assert reply.ok, reply.text[:200]
        reads.append(reply.seconds * 1000)
    await task
    await reader.aclose()
    await writer.aclose()
    return reads, writes


if __name__ == "__main__":
    main()
