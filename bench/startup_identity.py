"""Start-up identity: two builds of `kg`, each started on the same 10,000-node store, answer the first
kg_read(cwd) with the same bytes and leave the same files behind.

    .venv/bin/python bench/startup_identity.py --before /tmp/base/.venv/bin/kg [--after .venv/bin/kg] [--nodes N]

For each build, on one path (the store records its project folder): a fresh reference-format store
(bench/workload.py, one seed and clock, written anew for each build), a start, the first kg_read(cwd), a stop once the start-up work
is done (its CPU idle: the index in, debt's terms written), then a restart on the store it folded and a
second first read. Compared between the builds: both replies (the session id masked), and the files
after each stop (graph.json, user.json, the terms file; sessions.json is per session). The builds run
seconds apart, so times written from the clock differ: a number within ten minutes of the run's own
time is read as "now" on both sides. Exits 1 on any difference, printing where. Loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shutil
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import driver  # noqa: E402
import startup_ab  # noqa: E402
import workload  # noqa: E402

SESSION = re.compile(r"(Session: |session_id=')([0-9a-f]{8})")
FILES = ("user.json", "projects/bench-app/graph.json", "projects/bench-app/graph.json.terms.jsonl")


def masked_reply(text: str) -> str:
    return SESSION.sub(lambda m: m.group(1) + "<session>", text)


def normal(value, around: float):
    """The JSON value with clock times (within 10 minutes of `around`) read as "now"."""
    if isinstance(value, dict):
        return {k: normal(v, around) for k, v in value.items()}
    if isinstance(value, list):
        return [normal(v, around) for v in value]
    if isinstance(value, float | int) and not isinstance(value, bool) and abs(value - around) < 600:
        return "<now>"
    return value


def first_differences(a, b, at: str, limit: int = 5) -> list[str]:
    """Where two JSON values differ (paths, at most `limit`)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k) != b.get(k):
                out += first_differences(a.get(k), b.get(k), f"{at}/{k}", limit - len(out))
            if len(out) >= limit:
                break
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                out += first_differences(x, y, f"{at}[{i}]", limit - len(out))
            if len(out) >= limit:
                break
        return out
    return [f"{at}: {str(a)[:80]!r} != {str(b)[:80]!r}"]


def saved(storage: Path, around: float) -> dict[str, object]:
    out: dict[str, object] = {}
    for name in FILES:
        path = storage / name
        doc = normal(json.loads(path.read_text()), around) if path.exists() else None
        if name.endswith(".terms.jsonl") and doc is not None:
            # A node's stems and names are a set's, in the process's string-hash order: compared as sets.
            doc["rows"] = [[i, gist, sorted(stems), sorted(names)] for i, gist, stems, names in doc["rows"]]
        out[name] = doc
    return out


async def first_read(kg: str, base: Path, fresh: bool, nodes: int) -> str:
    proc, _, url, project, _ = startup_ab.launch(kg, base, fresh, nodes)
    try:
        await driver.wait_health(url, proc, 60)
        rpc = driver.Rpc(url, timeout=60)
        try:
            r = await rpc.call("kg_read", {"cwd": str(project)})
            if not r.ok:
                raise RuntimeError(f"kg_read(cwd) failed: {r.text[:300]}")
            await asyncio.sleep(1.5)  # past the longest a first index build waits to be asked for
            await driver.wait_idle(proc.pid, limit=120.0)  # the index in, the terms file written
        finally:
            await rpc.aclose()
    finally:
        startup_ab.stop(proc)
    return masked_reply(r.text)


async def run(kg: str, base: Path, nodes: int, around: float) -> dict[str, object]:
    # Written in place, the same bytes for each build: the graph records its project's folder, so a copy
    # made elsewhere would be another project's.
    shutil.rmtree(base, ignore_errors=True)
    storage = base / "home" / ".knowledge-graph"
    workload.build_store(storage, base / "home" / "code" / "bench-app", nodes, 1, around)
    out: dict[str, object] = {"fresh reply": await first_read(kg, base, False, nodes)}
    out["files after the first start"] = saved(storage, around)
    out["restart reply"] = await first_read(kg, base, False, nodes)
    out["files after the restart"] = saved(storage, around)
    return out


async def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--before", required=True, help="the `kg` of the build to compare against")
    p.add_argument("--after", default=str(BENCH.parent / ".venv/bin/kg"))
    p.add_argument("--nodes", type=int, default=10_000)
    a = p.parse_args()
    runs = BENCH.parent / ".bench" / "startup-identity"
    shutil.rmtree(runs, ignore_errors=True)
    around = time.time()
    got = {}
    for name, kg in (("before", a.before), ("after", a.after)):
        driver.compile_bytecode(kg)
        got[name] = await run(kg, runs / "store", a.nodes, around)
    differ = [k for k in got["before"] if got["before"][k] != got["after"][k]]
    for k in got["before"]:
        size = len(json.dumps(got["after"][k]))
        print(f"{k}: {'DIFFERENT' if k in differ else 'same'} ({size:,} characters of JSON compared)")
        if k in differ:
            for where in first_differences(got["before"][k], got["after"][k], k):
                print(f"  {where}")
    shutil.rmtree(runs, ignore_errors=True)
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
