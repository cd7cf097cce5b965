"""Client-side measurements against one running memory server.

Calls go as raw JSON-RPC POSTs to `/` (the servers run MCP Streamable HTTP in
stateless JSON mode, so a `tools/call` needs no `initialize` and no
`mcp-session-id`). Raw httpx rather than the SDK's `Client` because on a
2-core machine the client shares the CPU with the server: the leaner the
client, the more of each number is the server's. `sdk_smoke` still checks the
server with the official `mcp.Client` once per run.

A reply counts as an error when the HTTP status is not 200, the JSON-RPC reply
carries `error`, the tool result has `isError`, or its text starts with
`Error:`/`Internal error` (the reference answers store errors with
`isError: false`). `NOT WRITTEN` (optimistic-write refusal) is counted apart.

All traffic goes to the URL given (the runner passes 127.0.0.1 only); every
loop is bounded by a count and a deadline.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import random
import re
import select
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import workload  # noqa: E402

HEADERS = {"Accept": "application/json, text/event-stream",
           "Content-Type": "application/json",
           "User-Agent": "kg-bench/1"}
# The session id closes a full read ("Session: 1a2b3c4d"); a paged reply
# carries it in its continuation line instead.
SESSION_RES = (re.compile(r"Session: ([0-9a-f]{8})"),
               re.compile(r"session_id='([0-9a-f]{8})'"))
INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "clientInfo": {"name": "kg-bench", "version": "1"}}}


@dataclass
class Reply:
    ok: bool
    refused: bool
    text: str
    seconds: float


def classify(status: int, body: bytes) -> tuple[bool, bool, str]:
    """(ok, refused, text) of one HTTP reply to a tools/call."""
    if status != 200:
        return False, False, f"HTTP {status}: {body[:200]!r}"
    try:
        msg = json.loads(body)
    except ValueError:
        return False, False, f"non-JSON reply: {body[:200]!r}"
    if "error" in msg:
        return False, False, json.dumps(msg["error"])[:300]
    result = msg.get("result") or {}
    text = "".join(c.get("text", "") for c in result.get("content") or [])
    if result.get("isError") or text.startswith(("Error:", "Internal error")):
        return False, False, text[:300]
    return True, text.startswith("NOT WRITTEN"), text


class Rpc:
    """One pooled HTTP client; `call` never raises, it returns a Reply."""

    def __init__(self, url: str, timeout: float = 120.0, connections: int = 64):
        self.http = httpx.AsyncClient(
            base_url=url, headers=HEADERS, timeout=timeout,
            limits=httpx.Limits(max_connections=connections,
                                max_keepalive_connections=connections))
        self.ids = 0

    async def call(self, name: str, args: dict) -> Reply:
        self.ids += 1
        body = {"jsonrpc": "2.0", "id": self.ids, "method": "tools/call",
                "params": {"name": name, "arguments": args}}
        t0 = time.perf_counter()
        try:
            resp = await self.http.post("/", json=body)
            ok, refused, text = classify(resp.status_code, resp.content)
        except httpx.HTTPError as exc:
            ok, refused, text = False, False, f"{type(exc).__name__}: {exc}"
        return Reply(ok, refused, text, time.perf_counter() - t0)

    async def aclose(self) -> None:
        await self.http.aclose()


def pct(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile (q in 0..100); None for no samples."""
    if not values:
        return None
    s = sorted(values)
    return s[max(0, math.ceil(q / 100 * len(s)) - 1)]


@dataclass
class Series:
    """Latencies of one kind of call, plus its failures."""
    seconds: list[float] = field(default_factory=list)
    errors: int = 0
    refused: int = 0
    first_error: str = ""

    def add(self, r: Reply) -> None:
        self.seconds.append(r.seconds)
        self.refused += r.refused
        if not r.ok:
            self.errors += 1
            self.first_error = self.first_error or r.text

    def summary(self) -> dict:
        return {"n": len(self.seconds), "p50": pct(self.seconds, 50),
                "p99": pct(self.seconds, 99), "errors": self.errors,
                "refused": self.refused, "first_error": self.first_error}


async def open_session(rpc: Rpc, cwd: str, node_id: str | None = None) -> tuple[str, float]:
    """Open a project session with kg_read(cwd); return (session_id, seconds).

    With node_id the opening call is a node read, not a full render: the
    reference names the session in that reply too, and it spares the
    throughput setup 32 full renders. A server that does not falls back here.
    """
    args = {"cwd": cwd, **({"id": node_id} if node_id else {})}
    r = await rpc.call("kg_read", args)
    if not r.ok:
        raise RuntimeError(f"kg_read({args}) failed: {r.text}")
    for rx in SESSION_RES:
        if m := rx.search(r.text):
            return m.group(1), r.seconds
    if node_id:
        return await open_session(rpc, cwd)
    raise RuntimeError(f"no session id in kg_read reply: ...{r.text[-300:]!r}")


class Writes:
    """Fresh realistic node ids and gists, never colliding with the store's:
    a collision would be an update of an unseen node, which is refused."""

    def __init__(self, taken: set[str]):
        self.taken = taken
        self.created: list[str] = []

    def args(self, rng: random.Random, sid: str) -> dict:
        node = workload.make_node(rng, workload.make_id(rng, self.taken), 0)
        self.created.append(node["id"])
        return {"session_id": sid, "level": "project", "id": node["id"],
                "gist": node["gist"], "notes": node["notes"], "touches": node["touches"]}


Call = Callable[[], Awaitable[Reply]]  # one more call of a kind, with its own seeded choices


def put_calls(rpc: Rpc, sid: str, writes: Writes, seed: int = 7) -> Call:
    """kg_put_node of a new node each time (creates, the common case)."""
    rng = random.Random(seed)
    return lambda: rpc.call("kg_put_node", writes.args(rng, sid))


def search_calls(rpc: Rpc, sid: str, seed: int = 8) -> Call:
    rng = random.Random(seed)
    return lambda: rpc.call("kg_search", {"session_id": sid, "query": workload.query_terms(rng)})


def read_id_calls(rpc: Rpc, sid: str, active_ids: list[str], all_ids: list[str], per_call: int = 5,
                  seed: int = 10) -> Call:
    """kg_read(session_id, ids=[...]) of `per_call` ids at a time: each active with chance 0.8 (agents
    follow crumbs to live nodes), else any node of the store (an archived one is promoted)."""
    rng = random.Random(seed)

    def call() -> Awaitable[Reply]:
        ids = list({rng.choice(active_ids if rng.random() < 0.8 else all_ids) for _ in range(per_call)})
        return rpc.call("kg_read", {"session_id": sid, "ids": ids})
    return call


async def measure(call: Call, count: int, warmup: int = 3) -> dict:
    """`count` calls one after another (after `warmup` unrecorded)."""
    return (await measure_paired({"one": (call, count)}, warmup))["one"]


async def measure_paired(calls: dict[str, tuple[Call, int]], warmup: int = 3) -> dict[str, dict]:
    """Several servers' calls taken in turns (a, b, b, a, a, b, ...) until each has made its count:
    a ratio of their latencies then compares them at the same moments, on a host whose speed drifts
    by more than the ratio within minutes. One call at a time: no server waits for another's."""
    series = {key: Series() for key in calls}
    for _ in range(warmup):
        for call, _ in calls.values():
            await call()
    order = list(calls)
    turn = 0
    while any(len(series[k].seconds) < n for k, (_, n) in calls.items()):
        for key in order if turn % 2 == 0 else order[::-1]:
            call, count = calls[key]
            if len(series[key].seconds) < count:
                series[key].add(await call())
        turn += 1
    return {key: s.summary() for key, s in series.items()}


async def measure_blocks(calls: dict[str, tuple[Call, int]], rounds: int = 8, warmup: int = 3) -> dict[str, dict]:
    """Several servers' calls in alternating blocks (a's block, b's, b's, a's, ...): each key's count split
    into `rounds` blocks, each block one server's calls alone, after one unrecorded call (its caches warm
    again after the other's block). Alone as the stages one after another are, but spread over the same
    minutes, so a host whose speed drifts within minutes moves both sizes alike."""
    series = {key: Series() for key in calls}
    for _ in range(warmup):
        for call, _ in calls.values():
            await call()
    order = list(calls)
    for turn in range(rounds):
        for key in order if turn % 2 == 0 else order[::-1]:
            call, count = calls[key]
            size = -(-count // rounds)  # ceil: the last blocks may be shorter
            left = count - len(series[key].seconds)
            if left <= 0:
                continue
            await call()
            for _ in range(min(size, left)):
                series[key].add(await call())
    return {key: s.summary() for key, s in series.items()}


async def measure_puts(rpc: Rpc, sid: str, writes: Writes, count: int,
                       warmup: int = 3, seed: int = 7) -> dict:
    """kg_put_node latency, one call at a time (creates, the common case)."""
    return await measure(put_calls(rpc, sid, writes, seed), count, warmup)


async def measure_search(rpc: Rpc, sid: str, count: int, warmup: int = 3,
                         seed: int = 8) -> dict:
    return await measure(search_calls(rpc, sid, seed), count, warmup)


async def measure_read_ids(rpc: Rpc, sid: str, active_ids: list[str], all_ids: list[str], count: int,
                           per_call: int = 5, warmup: int = 3, seed: int = 10) -> dict:
    return await measure(read_id_calls(rpc, sid, active_ids, all_ids, per_call, seed), count, warmup)


async def wait_idle(pid: int, busy_share: float = 0.05, window: float = 0.25, limit: float = 20.0) -> float:
    """Wait until the process and its children used under `busy_share` of a CPU over one `window`, at
    most `limit` seconds; the seconds waited. Reads /proc; returns at once where it cannot. The children
    count: our server builds a large graph's first search index in one (kg_actors/index_process.py)."""
    t0 = time.perf_counter()
    tick = os.sysconf("SC_CLK_TCK")

    def cpu() -> float:
        # utime + stime, and cutime + cstime (children it has waited for), plus its live children's own.
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        total = sum(int(f) for f in fields[11:15])
        for children in Path(f"/proc/{pid}/task").glob("*/children"):
            for child in children.read_text().split():
                try:
                    kid = open(f"/proc/{child}/stat").read().rsplit(")", 1)[1].split()
                except OSError:
                    continue  # gone meanwhile: its time is in the parent's cutime now
                total += int(kid[11]) + int(kid[12])
        return total / tick

    try:
        while time.perf_counter() - t0 < limit:
            before = cpu()
            await asyncio.sleep(window)
            if cpu() - before < busy_share * window:
                break
    except OSError:
        pass
    return time.perf_counter() - t0


def peak_rss(pid: int) -> int | None:
    """The process's peak resident set (VmHWM) in bytes; None where /proc does not say."""
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


async def measure_full_read(rpc: Rpc, sid: str, count: int, warmup: int = 2) -> dict:
    """kg_read(session_id) with no id: the full render (its first part, when paged)."""
    series = Series()
    for i in range(warmup + count):
        r = await rpc.call("kg_read", {"session_id": sid})
        if i >= warmup:
            series.add(r)
    out = series.summary()
    out["chars"] = len(r.text)
    return out


async def throughput(rpc: Rpc, cwd: str, sessions: int, seconds: float, max_ops: int,
                     all_ids: list[str], active_ids: list[str], writes: Writes,
                     seed: int = 9) -> dict:
    """Closed loop: `sessions` workers, each its own graph session, each
    issuing its next call as soon as the last one answered. Mix: 35% kg_read
    by id, 35% kg_search, 30% kg_put_node. Stops issuing at the deadline or
    after max_ops calls in all; calls in flight then finish (each bounded by
    the client timeout), and the elapsed time includes that drain."""
    first = (active_ids or [None])[0]
    sids = [sid for sid, _ in await asyncio.gather(
        *(open_session(rpc, cwd, first) for _ in range(sessions)))]
    kinds = {"read_id": Series(), "search": Series(), "put": Series()}
    issued = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds

    async def worker(k: int, sid: str) -> None:
        nonlocal issued
        rng = random.Random(seed * 1000 + k)
        while time.perf_counter() < deadline and issued < max_ops:
            issued += 1
            x = rng.random()
            if x < 0.35:
                # Agents mostly follow crumbs to live nodes, now and then dig
                # up an archived one (which promotes it).
                # Ad hoc runs know no store ids: read what this run wrote.
                nid = rng.choice((active_ids if rng.random() < 0.8 else all_ids)
                                 or writes.created or ["no-such-node-yet"])
                kinds["read_id"].add(await rpc.call("kg_read", {"session_id": sid, "id": nid}))
            elif x < 0.70:
                q = workload.query_terms(rng)
                kinds["search"].add(await rpc.call("kg_search", {"session_id": sid, "query": q}))
            else:
                kinds["put"].add(await rpc.call("kg_put_node", writes.args(rng, sid)))

    await asyncio.gather(*(worker(k, sid) for k, sid in enumerate(sids)))
    elapsed = time.perf_counter() - t0
    done = sum(len(s.seconds) for s in kinds.values())
    return {"sessions": sessions, "ops": done, "elapsed": elapsed,
            "ops_per_s": done / elapsed if elapsed else 0.0,
            "errors": sum(s.errors for s in kinds.values()),
            "refused": sum(s.refused for s in kinds.values()),
            "kinds": {k: s.summary() for k, s in kinds.items()}}


async def wait_health(base: str, proc: subprocess.Popen, timeout: float) -> None:
    """Poll GET /health until 200; fail fast if the process died."""
    deadline = time.perf_counter() + timeout
    async with httpx.AsyncClient(timeout=2.0) as http:
        while time.perf_counter() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited with {proc.returncode} before /health")
            try:
                if (await http.get(base + "health")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.01)
    raise RuntimeError(f"/health did not answer within {timeout}s")


def compile_bytecode(kg: str) -> None:
    """Compile the build's own package to bytecode, as `pip install` does for an installed `kg`.

    An editable build (a work tree's .venv) imports kg_actors from its source tree, and a shell with
    PYTHONDONTWRITEBYTECODE=1 (this machine's agent sessions) never writes `__pycache__` there: every
    start would compile ~200 modules afresh (~0.25 s of CPU), which no user's start pays. Checked
    sources keep their `.pyc` valid (Python compares the source's mtime and size), so this costs only
    the first run. `kg` is a build's console script; its interpreter sits beside it."""
    python = Path(kg).parent / "python"
    if not python.exists():
        return
    script = ("import compileall, os, kg_actors; "
              "compileall.compile_dir(os.path.dirname(kg_actors.__file__), quiet=1)")
    subprocess.run([str(python), "-c", script], check=False, cwd="/",
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)


def shim_start(argv: list[str], env: dict, timeout: float = 20.0) -> float:
    """Seconds from launching the stdio shim to its first reply to `initialize`."""
    line = (json.dumps(INITIALIZE) + "\n").encode()
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    try:
        # Written at once: a harness does the same, the shim reads when ready.
        proc.stdin.write(line)
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], timeout)
        if not ready:
            raise RuntimeError(f"shim gave no reply within {timeout}s")
        reply = proc.stdout.readline()
        elapsed = time.perf_counter() - t0
        if b'"result"' not in reply:
            raise RuntimeError(f"shim's first reply is not a result: {reply[:300]!r}")
        return elapsed
    finally:
        proc.stdin.close()          # EOF: the shim exits by itself
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def sdk_smoke(url: str) -> int:
    """List the tools with the official SDK client; return how many."""
    from mcp import Client
    async with Client(url) as client:
        names = {t.name for t in (await client.list_tools()).tools}
    missing = {"kg_read", "kg_search", "kg_put_node", "kg_put_edge"} - names
    if missing:
        raise RuntimeError(f"server lacks tools {sorted(missing)}")
    return len(names)


async def _main() -> None:
    """Ad hoc: a short mixed load against a server that is already running."""
    import argparse
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("url", help="e.g. http://127.0.0.1:8765/")
    p.add_argument("cwd", help="a project folder inside the server's HOME")
    p.add_argument("--sessions", type=int, default=8)
    p.add_argument("--seconds", type=float, default=5)
    a = p.parse_args()
    host = httpx.URL(a.url).host
    if host not in ("127.0.0.1", "localhost", "::1"):
        sys.exit("loopback servers only")
    rpc = Rpc(a.url)
    try:
        print("tools:", await sdk_smoke(a.url))
        sid, _ = await open_session(rpc, a.cwd)
        res = await throughput(rpc, a.cwd, a.sessions, a.seconds, 100_000, [], [],
                               Writes(set()))
        print(json.dumps({"session": sid, **res}, indent=1))
    finally:
        await rpc.aclose()


if __name__ == "__main__":
    asyncio.run(_main())
