"""Benchmark runner: our server against the reference, side by side.

For each server, in one run: build fresh storage and HOME under
`.bench/runs/`, write a synthetic store (bench/workload.py), start the server
on a free 127.0.0.1 port, wait for /health, drive it (bench/driver.py), stop
it, then print a markdown table and write it to bench/RESULTS.md.

Per call, each size is measured alone, then both servers' calls in turns
(driver.measure_paired): that ratio of two p99s compares the sizes at the
same moments, where taken one after the other it moved with the host's speed
(up to 1.7x within minutes here), but each call then runs with the other
server's memory in the caches. Then alone again in alternating blocks
(driver.measure_blocks): each server's calls alone, warm, over the same
minutes. All three ratios are printed.

    .venv/bin/python bench/run.py [--quick] [--only ours|ref] [--keep] [--kg PATH] [--out FILE]

With KG_DEBUG_STALLS=1 in its environment, our servers log their loop's stalls (kg_actors/debug_stalls.py)
to stalls.jsonl in their site's folder, every KG_DEBUG_STALLS_EVERY seconds (5); --keep keeps them.

Servers: ours is `.venv/bin/kg serve --port P` with KG_HOME; the reference
(kg-memory 0.17.0, installed by bench/setup_reference.sh) is
`.bench/ref-venv/bin/kg serve`, which takes its port and storage from
KG_HTTP_PORT and KG_STORAGE_ROOT. Both get every variable, so either reads
what it knows.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import platform
import shlex
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
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))
import driver  # noqa: E402
import workload  # noqa: E402

# Ours runs with its in-process editor, as `kg serve` does by default (its web
# stack loads only when a browser connects), on a free port: a fixed one would
# collide between the two stores' servers.
SERVERS = {
    "ours": {"kg": ROOT / ".venv/bin/kg", "serve": ["--port", "{port}", "--editor-port", "{editor_port}"]},
    "ref": {"kg": ROOT / ".bench/ref-venv/bin/kg", "serve": []},
}


def kg_argv(name: str) -> list[str] | None:
    """The `kg` command of a server, or None when it is not installed.

    Ours falls back to `python -m kg_actors` from the work tree while the
    package is not installed into .venv (no console script yet)."""
    kg = SERVERS[name]["kg"]
    if kg.exists():
        return [str(kg)]
    if name == "ours" and (ROOT / "kg_actors" / "__main__.py").exists():
        return [str(ROOT / ".venv/bin/python"), "-m", "kg_actors"]
    return None


LABELS = {"ours": "ours (kg_actors)", "ref": "reference (kg-memory 0.17.0)"}

PROFILES = {
    "full": dict(small=500, big=10_000, puts_small=100, puts_big=40, searches=200,
                 read_ids=200, full_reads=30, sessions=32, seconds=20, max_ops=20_000, starts=3, shims=5),
    "quick": dict(small=200, big=2_000, puts_small=20, puts_big=10, searches=30,
                  read_ids=30, full_reads=10, sessions=32, seconds=5, max_ops=2_000, starts=1, shims=2),
}
# Ours takes as many puts at N = 10,000 as at 500: a p99 of 40 calls is their slowest. The reference's
# count stays 40 (a put there takes 1-2 s, and each is taken three times).
MORE = {"full": {"ours": {"puts_big": 100}}}
HEALTH_TIMEOUT = 60.0
STOP_GRACE = 30.0
SEED = 1


class Site:
    """One fresh storage + HOME + project folder, and the server on it."""

    def __init__(self, name: str, n: int, base: Path, now: float):
        self.name, self.n, self.now = name, n, now
        self.dir = base / f"{name}-{n}"
        self.home = self.dir / "home"
        self.storage = self.home / ".knowledge-graph"
        self.project = self.home / "code" / "bench-app"
        self.proc: subprocess.Popen | None = None
        self.port = 0

    def build(self) -> dict:
        """(Re)write the store from scratch; same seed and clock, same bytes."""
        shutil.rmtree(self.dir, ignore_errors=True)
        return workload.build_store(self.storage, self.project, self.n, SEED, self.now)

    def env(self) -> dict:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("KG_", "VIRTUAL_ENV", "XDG_"))}
        if self.name == "ours" and not SERVERS["ours"]["kg"].exists():
            env["PYTHONPATH"] = str(ROOT)    # for the `python -m kg_actors` fallback (never over --kg's build)
        env.update(HOME=str(self.home), KG_HOME=str(self.storage),
                   KG_STORAGE_ROOT=str(self.storage), KG_HTTP_HOST="127.0.0.1",
                   KG_HTTP_PORT=str(self.port), XDG_STATE_HOME=str(self.dir / "state"),
                   # Keep the reference off the network (daily PyPI check) and
                   # from spawning git or agent chores mid-measurement.
                   KG_UPDATE_CHECK="0", KG_AUTOCOMMIT_INTERVAL="0", KG_CHORES="0")
        if os.environ.get("KG_DEBUG_STALLS"):  # the loop's stalls, per server (kept with --keep)
            env["KG_DEBUG_STALLS"] = str(self.dir / "stalls.jsonl")
            env["KG_DEBUG_STALLS_EVERY"] = os.environ.get("KG_DEBUG_STALLS_EVERY", "5")
        return env

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    async def start(self) -> float:
        """Spawn the server; seconds until /health answers."""
        self.port = free_port()
        argv = [*kg_argv(self.name), "serve",
                *(a.format(port=self.port, editor_port=free_port()) for a in SERVERS[self.name]["serve"])]
        log = open(self.dir / "server.log", "ab")
        t0 = time.perf_counter()
        # Own session: a Ctrl-C on the runner reaches the server only via stop().
        self.proc = subprocess.Popen(argv, env=self.env(), stdout=log, stderr=log,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
        log.close()
        await driver.wait_health(self.url, self.proc, HEALTH_TIMEOUT)
        return time.perf_counter() - t0

    def stop(self) -> float | None:
        """SIGTERM our server; seconds until it exits (None if it had to be killed)."""
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return None
        t0 = time.perf_counter()
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(STOP_GRACE)
            return time.perf_counter() - t0
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)   # the group we created for it
            proc.wait()
            return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def bench_server(name: str, prof: dict, base: Path, now: float) -> dict:
    """Every measurement for one server; a failing stage is recorded, not fatal."""
    out: dict = {"stages_failed": {}}

    async def stage(key: str, coro):
        try:
            out[key] = await coro
        except Exception as exc:   # noqa: BLE001 - report and go on with the next stage
            out["stages_failed"][key] = f"{type(exc).__name__}: {exc}"[:300]

    # 1. Start times on the big store, each on a freshly written copy.
    big = Site(name, prof["big"], base, now)
    health, first_read = [], []
    info: dict = {}
    try:
        for i in range(prof["starts"]):
            info = big.build()
            health.append(await big.start())
            rpc = driver.Rpc(big.url)
            try:
                # Cold: opening the session loads the project graph (lazily,
                # in the reference) and renders the first full read.
                t0 = time.perf_counter()
                sid, _ = await driver.open_session(rpc, str(big.project))
                first_read.append(time.perf_counter() - t0 + health[-1])
                if i < prof["starts"] - 1:
                    big.stop()
                    continue
                # 2. The workload, on the last start. The shim first, while
                # the server is idle: its start includes one round trip.
                out["version"] = (httpx.get(big.url + "health").json()).get("version")
                await stage("shim_start", shim_median(name, big, prof["shims"]))
                # Per call, the big store alone (nothing else running: the "idle" figures). Its steady
                # state's: first let the start's background work (the search index build) finish, seen as
                # the server's CPU falling idle (bounded).
                await driver.wait_idle(big.proc.pid)
                await stage("search", driver.measure_search(rpc, sid, prof["searches"]))
                await stage("read_ids", driver.measure_read_ids(
                    rpc, sid, info["active_ids"], info["ids"], prof["read_ids"]))
                await stage("full_read", driver.measure_full_read(rpc, sid, prof["full_reads"]))
                writes = driver.Writes(set(info["ids"]))
                await stage("put_big", driver.measure_puts(rpc, sid, writes, prof["puts_big"]))
                # Then the small store's server beside it, calls taken in turns: the ratios.
                await paired_calls(name, prof, base, now, big, rpc, sid, info, writes, out, stage)
                # Peak RSS with the store still at N (+ the per-call stages' few creates): the mix below grows
                # it by its creates, ~2,500 for us in 20 s against a few for a server doing ~1 op/s.
                out["peak_rss_n"] = driver.peak_rss(big.proc.pid)
                created = len(writes.created)
                await stage("throughput", driver.throughput(
                    rpc, str(big.project), prof["sessions"], prof["seconds"], prof["max_ops"],
                    info["ids"], info["active_ids"], writes))
                # The Python SDK's client last: it speaks the protocol's stateless revision, which our server
                # answers without the MCP SDK when a request is exactly what such a client sends (else the SDK,
                # ~35 MiB, is imported then). The peak is read before it and after it.
                out["peak_rss_workload"] = driver.peak_rss(big.proc.pid)
                out["mix_creates"] = len(writes.created) - created
                await stage("sdk_tools", driver.sdk_smoke(big.url))
            finally:
                await rpc.aclose()
                if big.proc is not None:
                    out["peak_rss"] = driver.peak_rss(big.proc.pid)
    except Exception as exc:   # noqa: BLE001
        out["stages_failed"]["big"] = f"{type(exc).__name__}: {exc}"[:300]
    finally:
        out["stop"] = big.stop()
    out["start_health"] = statistics.median(health) if health else None
    out["start_first_read"] = statistics.median(first_read) if first_read else None
    out["store"] = {k: info.get(k) for k in ("nodes", "edges", "active", "orphaned", "bytes")}
    return out


async def paired_calls(name: str, prof: dict, base: Path, now: float, big: Site, rpc: driver.Rpc, sid: str,
                       info: dict, writes: driver.Writes, out: dict, stage) -> None:  # noqa: ANN001
    """kg_search, kg_read of 5 ids and kg_put_node on the small store alone, then on it and the big one in
    turns (other seeds than the calls alone): `out["paired"][kind]` holds the two series.

    Taken in turns, the two compare at the same moments on a host whose speed drifts by more than their
    ratio within minutes; each call then also runs with the other server's memory in the caches (the
    small store's calls cost ~20-35 % more CPU than alone), so the absolute figures come from the
    stages alone and only the ratios from here."""
    small = Site(name, prof["small"], base, now)
    small_info = small.build()
    try:
        await stage("start_small", small.start())
        if not small.proc:
            return
        small_rpc = driver.Rpc(small.url)
        try:
            small_sid, _ = await driver.open_session(small_rpc, str(small.project))
            taken = set(json.loads((small.storage / "projects" / "bench-app" / "graph.json").read_text())["nodes"])
            await driver.wait_idle(small.proc.pid)
            # The small store alone first, as the big one was.
            await stage("search_small", driver.measure_search(small_rpc, small_sid, prof["searches"]))
            await stage("read_ids_small", driver.measure_read_ids(
                small_rpc, small_sid, small_info["active_ids"], small_info["ids"], prof["read_ids"]))
            small_writes = driver.Writes(taken)
            await stage("put_small", driver.measure_puts(small_rpc, small_sid, small_writes, prof["puts_small"]))
            await driver.wait_idle(big.proc.pid)
            await driver.wait_idle(small.proc.pid)

            def calls(seed: int) -> dict:  # kind: (small's calls, big's calls, their counts)
                return {
                    "search": (driver.search_calls(small_rpc, small_sid, seed), driver.search_calls(rpc, sid, seed),
                               prof["searches"], prof["searches"]),
                    "read_ids": (
                        driver.read_id_calls(small_rpc, small_sid, small_info["active_ids"], small_info["ids"],
                                             seed=seed),
                        driver.read_id_calls(rpc, sid, info["active_ids"], info["ids"], seed=seed),
                        prof["read_ids"], prof["read_ids"]),
                    "put": (driver.put_calls(small_rpc, small_sid, small_writes, seed),
                            driver.put_calls(rpc, sid, writes, seed), prof["puts_small"], prof["puts_big"]),
                }

            # In turns; then each alone again, in alternating blocks (other seeds): alone, over the same minutes.
            for how, seed, measure in (("paired", 100, driver.measure_paired), ("blocks", 200, driver.measure_blocks)):
                out[how] = {}
                for kind, (small_call, big_call, small_count, big_count) in calls(seed).items():
                    await stage(f"{how}_{kind}", measure({"small": (small_call, small_count),
                                                          "big": (big_call, big_count)}))
                    if f"{how}_{kind}" in out:
                        out[how][kind] = out.pop(f"{how}_{kind}")
        finally:
            await small_rpc.aclose()
    finally:
        small.stop()


async def shim_median(name: str, site: Site, times: int) -> float:
    """Median shim start. Blocking inside: nothing else runs meanwhile; async
    only so that it fits `stage`."""
    argv = [*kg_argv(name), "mcp"]
    return statistics.median(driver.shim_start(argv, site.env()) for _ in range(times))


# ---------------------------------------------------------------- reporting

def mb(x) -> str:
    return "–" if x is None else f"{x / 2**20:.0f} MiB"


def ms(x) -> str:
    return "–" if x is None else f"{x * 1000:.1f} ms" if x < 1 else f"{x:.2f} s"


def rows(prof: dict, r: dict) -> list[tuple[str, str]]:
    """(metric, cell) pairs for one server's results."""
    def get(*path):
        cur = r
        for p in path:
            cur = cur.get(p) if isinstance(cur, dict) else None
        return cur

    def err(key):
        return f"fail: {r['stages_failed'][key]}" if key in r["stages_failed"] else None

    def lat(key, q):
        return err(key) or ms(get(key, q)) + (
            f" ({get(key, 'errors')} err)" if get(key, "errors") else "")

    def pair(key):
        return err(key) or f"{ms(get(key, 'p50'))} / {ms(get(key, 'p99'))}" + (
            f" ({get(key, 'errors')} err)" if get(key, "errors") else "")

    def ratio(big_key, small_key):
        a, c = get(big_key, "p99"), get(small_key, "p99")
        return "–" if not a or not c else f"{a / c:.2f}"

    def in_turns(kind, how="paired"):
        a, c = get(how, kind, "big", "p99"), get(how, kind, "small", "p99")
        return "–" if not a or not c else f"{a / c:.2f} ({ms(c)} / {ms(a)})"

    tp = r.get("throughput") or {}
    s, b = prof["small"], prof["big"]
    return [
        (f"kg_put_node p50, N={s:,}", lat("put_small", "p50")),
        (f"kg_put_node p99, N={s:,} ({prof['puts_small']} calls)", lat("put_small", "p99")),
        (f"kg_put_node p50, N={b:,}", lat("put_big", "p50")),
        (f"kg_put_node p99, N={b:,} ({prof['puts_big']} calls)", lat("put_big", "p99") + (
            f" ({get('put_big', 'n')} calls)" if get("put_big", "n") not in (None, prof["puts_big"]) else "")),
        (f"kg_put_node p99 ratio N={b:,} / N={s:,}, each alone", ratio("put_big", "put_small")),
        (f"kg_put_node p99 ratio N={b:,} / N={s:,}, alone in alternating blocks (p99s)", in_turns("put", "blocks")),
        (f"kg_put_node p99 ratio N={b:,} / N={s:,}, calls in turns (p99s)", in_turns("put")),
        (f"kg_search p50 / p99, N={s:,} ({prof['searches']} calls)", pair("search_small")),
        (f"kg_search p50 / p99, N={b:,} ({prof['searches']} calls)", pair("search")),
        (f"kg_search p99 ratio N={b:,} / N={s:,}, each alone", ratio("search", "search_small")),
        (f"kg_search p99 ratio N={b:,} / N={s:,}, alone in alternating blocks (p99s)", in_turns("search", "blocks")),
        (f"kg_search p99 ratio N={b:,} / N={s:,}, calls in turns (p99s)", in_turns("search")),
        (f"kg_read of 5 ids p50 / p99, N={s:,} ({prof['read_ids']} calls)", pair("read_ids_small")),
        (f"kg_read of 5 ids p50 / p99, N={b:,} ({prof['read_ids']} calls)", pair("read_ids")),
        (f"kg_read of 5 ids p99 ratio N={b:,} / N={s:,}, each alone", ratio("read_ids", "read_ids_small")),
        (f"kg_read of 5 ids p99 ratio N={b:,} / N={s:,}, alone in alternating blocks (p99s)", in_turns("read_ids", "blocks")),
        (f"kg_read of 5 ids p99 ratio N={b:,} / N={s:,}, calls in turns (p99s)", in_turns("read_ids")),
        (f"full kg_read p50, N={b:,}", lat("full_read", "p50")),
        (f"full kg_read p99, N={b:,} ({prof['full_reads']} calls)", lat("full_read", "p99")),
        (f"throughput, {prof['sessions']} sessions, N={b:,}",
         err("throughput") or ("–" if not tp else f"{tp['ops_per_s']:.1f} ops/s "
                                                 f"({tp['ops']} in {tp['elapsed']:.1f} s)")),
        ("  errors / NOT WRITTEN", "–" if not tp else f"{tp['errors']} / {tp['refused']}"),
        *[(f"  {k} p50 / p99 under load", "–" if not tp else
           f"{ms(tp['kinds'][k]['p50'])} / {ms(tp['kinds'][k]['p99'])}")
          for k in ("read_id", "search", "put")],
        (f"start → /health, N={b:,}", ms(r.get("start_health"))),
        (f"start → first kg_read(cwd) answered, N={b:,}", ms(r.get("start_first_read"))),
        (f"peak RSS (VmHWM) at N={b:,}, before the {prof['sessions']}-session mix", mb(r.get("peak_rss_n"))),
        (f"peak RSS (VmHWM) at the end of the N={b:,} workload (nodes the mix created)",
         f"{mb(r.get('peak_rss_workload'))} ({r.get('mix_creates', '–')})"),
        ("peak RSS after a Python MCP SDK client's session too", mb(r.get("peak_rss"))),
        ("stop (SIGTERM → exit)", ms(r.get("stop"))),
        ("shim start (`kg mcp` → initialize reply)", err("shim_start") or ms(r.get("shim_start"))),
        ("tools listed by the MCP SDK client", err("sdk_tools") or str(r.get("sdk_tools", "–"))),
        ("version (/health)", str(r.get("version", "–"))),
    ]


def table(prof: dict, results: dict) -> str:
    names = list(results)
    cols = {n: rows(prof, results[n]) for n in names}
    lines = ["| metric | " + " | ".join(LABELS[n] for n in names) + " |",
             "|---|" + "---|" * len(names)]
    for i, (metric, _) in enumerate(cols[names[0]]):
        lines.append(f"| {metric} | " + " | ".join(cols[n][i][1] for n in names) + " |")
    return "\n".join(lines)


def machine() -> str:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    # The load average says whether other work shared the CPUs with the run.
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"{os.cpu_count()} CPUs (nproc), {cpu}; Linux {platform.release()}; "
            f"Python {platform.python_version()}; load average at the end {load}")


def report(argv: list[str], mode: str, prof: dict, results: dict, started: datetime.datetime) -> str:
    store = next((r["store"] for r in results.values() if r.get("store", {}).get("nodes")), {})
    failed = {n: r["stages_failed"] for n, r in results.items() if r["stages_failed"]}
    parts = [
        "# Benchmark results", "",
        f"- command: `{shlex.join(argv)}`",
        f"- date: {started.isoformat(timespec='seconds')}",
        f"- machine: {machine()}",
        f"- profile: {mode} {json.dumps(prof)}" + (f"; per server: {json.dumps(MORE[mode])}" if mode in MORE else ""),
        f"- big store: {store.get('nodes')} project nodes ({store.get('active')} active, "
        f"{store.get('orphaned')} orphaned, rest archived), {store.get('edges')} edges, "
        f"{(store.get('bytes') or 0) / 1e6:.1f} MB graph.json; user graph "
        f"{workload.USER_NODES} nodes",
        "- load: one client process (httpx, asyncio) on the same machine, 127.0.0.1 only; "
        "throughput mix 35% kg_read(id), 35% kg_search, 30% kg_put_node (creates)",
        "", table(prof, results), "",
    ]
    if failed:
        parts += ["Failed stages:", "", "```", json.dumps(failed, indent=1), "```", ""]
    return "\n".join(parts)


def main() -> int:
    p = argparse.ArgumentParser(description="ours vs the reference kg server")
    p.add_argument("--only", choices=("ours", "ref"))
    p.add_argument("--quick", action="store_true", help="smaller stores, shorter runs")
    p.add_argument("--keep", action="store_true", help="keep the run's storage and logs")
    p.add_argument("--kg", type=Path, help="our `kg` to run (default .venv/bin/kg): another build, for A/B runs")
    p.add_argument("--out", type=Path, default=BENCH / "RESULTS.md", help="where the table goes")
    a = p.parse_args()
    if a.kg is not None:
        SERVERS["ours"]["kg"] = a.kg.absolute()
    mode = "quick" if a.quick else "full"
    prof = PROFILES[mode]
    started = datetime.datetime.now().astimezone()
    base = ROOT / ".bench" / "runs" / started.strftime("%Y%m%d-%H%M%S")
    now = time.time()
    results = {}
    for name in (a.only,) if a.only else ("ours", "ref"):
        if kg_argv(name) is None:
            print(f"{name}: {SERVERS[name]['kg']} not found, skipped", file=sys.stderr)
            results[name] = {"stages_failed": {"install": f"{SERVERS[name]['kg']} not found"}}
            continue
        print(f"{name}: {shlex.join(kg_argv(name))} ({mode}) in {base}", file=sys.stderr)
        if name == "ours":
            driver.compile_bytecode(kg_argv(name)[0])  # as an installed build has it (see there)
        results[name] = asyncio.run(bench_server(name, {**prof, **MORE.get(mode, {}).get(name, {})}, base, now))
    text = report([sys.executable, *sys.argv], mode, prof, results, started)
    a.out.write_text(text)
    (ROOT / ".bench" / "last-results.json" if a.out == BENCH / "RESULTS.md" else a.out.with_suffix(".json")).write_text(json.dumps(results, indent=1, default=str))
    print(text)
    if not a.keep:
        shutil.rmtree(base, ignore_errors=True)
    return 0 if not any(r["stages_failed"] for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
