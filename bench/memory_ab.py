"""Memory A/B: two builds of `kg`, each started on a fresh 10,000-node store and driven through bench/run.py's
32-session mix; the server's resident size sampled throughout.

    .venv/bin/python bench/memory_ab.py --before /tmp/base/.venv/bin/kg [--after .venv/bin/kg] [--seconds 20]
        [--reference .bench/ref-venv/bin/kg]

Per build: VmRSS at /health, once the first kg_read(cwd) is answered, after 15 s idle (the search index is
in and the MCP SDK imported), and after the mixed run (32 sessions, bench/driver.py's throughput); the
peak of VmRSS sampled every 0.1 s, and when it came (the save on the 30-s tick falls inside the run), and
VmHWM just before the stop. `--reference` measures kg-memory the same way, on the same store. `--max-ops N`
ends the mix after N calls: kg-memory makes ~1 call/s here, we make hundreds, so a 20-s mix compares unlike
work (and unlike stores: ours grows by the mix's creates); `--max-ops 20 --seconds 60` compares the same.
Loopback only; every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import threading
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import driver  # noqa: E402
import startup_ab  # noqa: E402


def rss_mib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return int(line.split()[1]) // 1024
    raise RuntimeError("no VmRSS")


async def measure(kg: str, base: Path, nodes: int, seconds: float, reference: bool = False,
                  max_ops: int = 20_000) -> dict:
    # The editor on, as `kg serve` runs by default (its web stack loads at a browser's first connection).
    proc, t0, url, project, info = startup_ab.launch(kg, base, True, nodes, reference, editor=True)
    samples: list[tuple[float, int]] = []
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            try:
                samples.append((time.perf_counter() - t0, rss_mib(proc.pid)))
            except (OSError, RuntimeError):
                pass
            done.wait(0.1)

    threading.Thread(target=sample, daemon=True).start()
    out: dict = {}
    try:
        await driver.wait_health(url, proc, 120)
        out["health"] = rss_mib(proc.pid)
        rpc = driver.Rpc(url, timeout=120)
        try:
            await driver.open_session(rpc, str(project))
            out["first_read"] = rss_mib(proc.pid)
            await asyncio.sleep(15)
            out["idle_15s"] = rss_mib(proc.pid)
            run = await driver.throughput(rpc, str(project), 32, seconds, max_ops, info["ids"], info["active_ids"],
                                          driver.Writes(set(info["ids"])))
            out["after_run"] = rss_mib(proc.pid)
            out["ops_per_s"], out["errors"], out["ops"] = run.get("ops_per_s"), run.get("errors"), run.get("ops")
        finally:
            await rpc.aclose()
    finally:
        done.set()
        out["hwm"] = (driver.peak_rss(proc.pid) or 0) // 2**20  # the kernel's peak, between samples too
        startup_ab.stop(proc)
        shutil.rmtree(base, ignore_errors=True)
    at, peak = max(samples, key=lambda s: s[1])
    out.update(peak=peak, peak_at=at, load=os.getloadavg()[0])
    return out


async def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--before", required=True, help="the `kg` of the build to compare against")
    p.add_argument("--after", default=str(BENCH.parent / ".venv/bin/kg"))
    p.add_argument("--nodes", type=int, default=10_000)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--max-ops", type=int, default=20_000,
                   help="stop the mix after this many calls: the same work for builds of unlike speed")
    p.add_argument("--reference", help="also kg-memory's `kg` (bench/setup_reference.sh: .bench/ref-venv/bin/kg)")
    a = p.parse_args()
    builds = [("before", a.before, False), ("after", a.after, False)]
    for name, kg, reference in builds + ([("kg-memory", a.reference, True)] if a.reference else []):
        m = await measure(kg, BENCH.parent / ".bench" / "memory" / name, a.nodes, a.seconds, reference, a.max_ops)
        print(f"{name}: VmRSS /health {m['health']} MiB, first kg_read(cwd) {m['first_read']} MiB, idle 15 s "
              f"{m['idle_15s']} MiB, after the 32-session run {m['after_run']} MiB; peak {m['peak']} MiB at "
              f"{m['peak_at']:.0f} s (VmHWM {m['hwm']} MiB); {m['ops']} calls, {m['ops_per_s']:.1f} ops/s, {m['errors']} errors; load {m['load']:.1f}",
              flush=True)


if __name__ == "__main__":
    asyncio.run(main())
