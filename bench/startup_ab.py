"""Start-up A/B: two builds of `kg`, alternately started on a 10,000-node store until kg_read(cwd) answers.

    .venv/bin/python bench/startup_ab.py --before /tmp/base/.venv/bin/kg [--after .venv/bin/kg] [--rounds 3] [--restart]
        [--editor] [--window SECONDS]

Each start gets a fresh reference-format store (bench/workload.py), which the server settles at load;
with --restart the store is the one the build's own previous run folded at SIGTERM (nothing to settle),
after a first start that ran until its start-up work was done (as a server that served a while).
Each build's package is compiled to bytecode first, as an installed `kg` has it (driver.compile_bytecode).
Prints, per start and as medians, the wall time and the server's CPU time (utime + stime from /proc,
read when the reply arrives) to /health and to the first answered kg_read(cwd): on a shared machine the
CPU time moves less with other work than the wall time. With --window, each start is fresh and what is
printed is the SECONDS after its first read instead (window_once). Loopback only; every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import driver  # noqa: E402
import workload  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def launch(kg: str, base: Path, fresh: bool, nodes: int,
           reference: bool = False, editor: bool = False) -> tuple[subprocess.Popen, float, str, Path, dict]:
    """Start `kg serve` on the bench store under `base` (rewritten when `fresh`): the process, when it was
    started (perf_counter, after the store is written), its URL, the project folder, the store's summary.
    `reference`: `kg` is kg-memory's (bench/setup_reference.sh), which takes no serve options."""
    home = base / "home"
    storage, project = home / ".knowledge-graph", home / "code" / "bench-app"
    info: dict = {}
    if fresh or not storage.exists():
        shutil.rmtree(base, ignore_errors=True)
        info = workload.build_store(storage, project, nodes, 1, time.time())
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KG_", "VIRTUAL_ENV", "XDG_"))}
    env.update(HOME=str(home), KG_HOME=str(storage), KG_HTTP_PORT=str(port), KG_CHORES="0",
               KG_AUTOCOMMIT_INTERVAL="0", XDG_STATE_HOME=str(base / "state"),
               KG_STORAGE_ROOT=str(storage), KG_UPDATE_CHECK="0")  # the reference's names
    t0 = time.perf_counter()
    # `kg serve` starts its editor by default; the bench's default is without it (--editor: with it)
    flags = ["--editor-port", str(free_port())] if editor else ["--no-editor"]
    options = [] if reference else ["--port", str(port), *flags]
    proc = subprocess.Popen([kg, "serve", *options], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, start_new_session=True)
    return proc, t0, f"http://127.0.0.1:{port}/", project, info


async def start_once(kg: str, base: Path, fresh: bool, nodes: int,
                     editor: bool = False, linger: bool = False) -> tuple[float, float, float, float]:
    """(wall, CPU) to /health and to the first kg_read(cwd) reply.

    `linger`: stop only once the server's start-up work is done (its CPU falls idle, bounded), as a
    server that ran a while has: the search index in, and debt's terms file written beside the graph."""
    proc, t0, url, project, _ = launch(kg, base, fresh, nodes, editor=editor)
    try:
        await driver.wait_health(url, proc, 60)
        health = (time.perf_counter() - t0, cpu_seconds(proc.pid))
        rpc = driver.Rpc(url, timeout=60)
        try:
            await driver.open_session(rpc, str(project))
            first = (time.perf_counter() - t0, cpu_seconds(proc.pid))
            if linger:
                await asyncio.sleep(1.5)  # past the longest a first index build waits to be asked for
                await driver.wait_idle(proc.pid, limit=120.0)
        finally:
            await rpc.aclose()
    finally:
        stop(proc)
    return (*health, *first)


async def window_once(kg: str, base: Path, nodes: int, seconds: float) -> dict:
    """The seconds after a fresh start's first kg_read(cwd): the loop's responsiveness meanwhile (GET /health
    every 5 ms), when a kg_search sent right after that read is answered (search waits for the first index
    build), and the server's CPU time and peak RSS at the window's end."""
    proc, t0, url, project, _ = launch(kg, base, True, nodes)
    try:
        await driver.wait_health(url, proc, 60)
        rpc = driver.Rpc(url, timeout=60)
        try:
            sid, _ = await driver.open_session(rpc, str(project))
            first = time.perf_counter() - t0
            search = asyncio.create_task(rpc.call("kg_search", {"session_id": sid, "query": "cache token"}))
            searched, lat = None, []
            async with httpx.AsyncClient(timeout=10) as http:
                end = time.perf_counter() + seconds
                while time.perf_counter() < end:
                    t = time.perf_counter()
                    await http.get(url + "health")
                    lat.append(1000 * (time.perf_counter() - t))
                    if searched is None and search.done():
                        searched = time.perf_counter() - t0
                    await asyncio.sleep(0.005)
            if searched is None:
                await search
                searched = time.perf_counter() - t0
        finally:
            await rpc.aclose()
        status = Path(f"/proc/{proc.pid}/status").read_text()
        peak = int(next(line for line in status.splitlines() if line.startswith("VmHWM")).split()[1]) / 1024
        lat.sort()
        return {"first": first, "searched": searched, "p50": lat[len(lat) // 2], "p99": lat[int(len(lat) * 0.99)],
                "max": lat[-1], "cpu": cpu_seconds(proc.pid), "peak": peak}
    finally:
        stop(proc)


def stop(proc: subprocess.Popen) -> None:
    """SIGTERM, and SIGKILL to its process group after a minute."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


async def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--before", required=True, help="the `kg` of the build to compare against")
    p.add_argument("--after", default=str(BENCH.parent / ".venv/bin/kg"))
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--nodes", type=int, default=10_000)
    p.add_argument("--restart", action="store_true", help="restart on the store the last run folded")
    p.add_argument("--editor", action="store_true", help="with the editor on (kg serve's default)")
    p.add_argument("--window", type=float, metavar="SECONDS",
                   help="instead: the SECONDS after the first read of a fresh start (see window_once)")
    a = p.parse_args()
    builds = {"before": a.before, "after": a.after}
    runs = BENCH.parent / ".bench" / "startup"
    for kg in builds.values():
        driver.compile_bytecode(kg)  # as an installed build has it (see there)
    if a.window:
        for r in range(a.rounds):
            for name, kg in builds.items():
                w = await window_once(kg, runs / name, a.nodes, a.window)
                print(f"{name} round {r + 1}: first kg_read(cwd) {w['first']:.2f} s, first kg_search answered "
                      f"{w['searched']:.2f} s; GET /health over the next {a.window:g} s p50 {w['p50']:.1f} p99 "
                      f"{w['p99']:.1f} max {w['max']:.1f} ms; server CPU {w['cpu']:.2f} s, peak RSS {w['peak']:.0f} MiB; "
                      f"load {os.getloadavg()[0]:.1f}", flush=True)
        shutil.rmtree(runs, ignore_errors=True)
        return
    if a.restart:
        for name, kg in builds.items():  # the first start settles the store; its SIGTERM folds it
            await start_once(kg, runs / name, True, a.nodes, a.editor, linger=True)
    rows: dict[str, list[tuple[float, float, float, float]]] = {k: [] for k in builds}
    for r in range(a.rounds):
        for name, kg in builds.items():
            row = await start_once(kg, runs / name, not a.restart, a.nodes, a.editor)
            rows[name].append(row)
            print(f"{name} round {r + 1}: /health {row[0]:.2f} s wall / {row[1]:.2f} s CPU; first kg_read(cwd) "
                  f"{row[2]:.2f} s wall / {row[3]:.2f} s CPU; load {os.getloadavg()[0]:.1f}", flush=True)
    for name, got in rows.items():
        med = [statistics.median(x[i] for x in got) for i in range(4)]
        print(f"{name} median: /health {med[0]:.2f} s wall / {med[1]:.2f} s CPU; "
              f"first kg_read(cwd) {med[2]:.2f} s wall / {med[3]:.2f} s CPU")
    shutil.rmtree(runs, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(main())
