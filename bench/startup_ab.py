"""Start-up A/B: two builds of `kg`, alternately started on a 10,000-node store until kg_read(cwd) answers.

    .venv/bin/python bench/startup_ab.py --before /tmp/base/.venv/bin/kg [--after .venv/bin/kg] [--rounds 3] [--restart]
        [--editor]

Each start gets a fresh reference-format store (bench/workload.py), which the server settles at load;
with --restart the store is the one the build's own previous run folded at SIGTERM (nothing to settle),
after a first start that ran until its start-up work was done (as a server that served a while).
Each build's package is compiled to bytecode first, as an installed `kg` has it (driver.compile_bytecode).
Prints, per start and as medians, the wall time and the server's CPU time (utime + stime from /proc,
read when the reply arrives) to /health and to the first answered kg_read(cwd): on a shared machine the
CPU time moves less with other work than the wall time. Loopback only; every wait is bounded.
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
    a = p.parse_args()
    builds = {"before": a.before, "after": a.after}
    runs = BENCH.parent / ".bench" / "startup"
    for kg in builds.values():
        driver.compile_bytecode(kg)  # as an installed build has it (see there)
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
