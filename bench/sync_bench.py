"""Sync of a 10,000-node graph with 100 changed nodes on each side (issue #18: under 2 s).

Two stores and a bare repository on the local filesystem, real git. Machine A
and machine B start from the same synced 10,000-node user graph; each changes
100 nodes (10 of them the same nodes on both sides, so the merge also sets
versions aside). Timed, each best-of-`--runs` fresh rounds:

- `offline B`: `kg sync` on B with no server (commit, fetch, per-node merge driver, push);
- `server B`: POST /api/store/sync on B's running server holding the graph in memory
  (fold, commit, fetch, merge driver, push, and the actor absorbing the merge);
- `offline A`: A's next sync, a fast-forward to B's merge;
- `merge only`: the pure three-way merge of the three versions, in-process.

    .venv/bin/python bench/sync_bench.py [--nodes 10000] [--changed 100] [--runs 3]
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from workload import make_graph  # noqa: E402

from kg_actors.core.merge import merge_graphs  # noqa: E402
from kg_actors.testing import ServerProcess  # noqa: E402

KG = str(Path(sys.executable).with_name("kg"))


def env_for(base: Path, machine: str) -> dict:
    home = base / "home"
    home.mkdir(parents=True, exist_ok=True)
    return {**os.environ, "HOME": str(home), "KG_HOME": str(base / "store"), "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"), "KG_MACHINE": machine, "KG_AUTOCOMMIT_INTERVAL": "0",
            "GIT_AUTHOR_NAME": machine, "GIT_AUTHOR_EMAIL": f"{machine}@bench.invalid",
            "GIT_COMMITTER_NAME": machine, "GIT_COMMITTER_EMAIL": f"{machine}@bench.invalid"}


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _proc_cpu(pid: int) -> float:
    """A process's CPU seconds plus its reaped children's (git, the merge driver), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def wait_idle(pid: int, limit: float = 120.0) -> None:
    """Until the process uses under 5% of a core for half a second (its start-up work done)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        before = _proc_cpu(pid)
        time.sleep(0.5)
        if _proc_cpu(pid) - before < 0.025:
            return


def kg(args: list[str], env: dict) -> tuple[float, float]:
    """(wall seconds, CPU seconds of kg and everything it ran)."""
    t0, c0 = time.perf_counter(), _children_cpu()
    proc = subprocess.run([KG, *args], env=env, capture_output=True, text=True, timeout=300)
    took = time.perf_counter() - t0, _children_cpu() - c0
    if proc.returncode != 0:
        raise SystemExit(f"kg {' '.join(args)} failed: {proc.stderr}")
    return took


def change(graph: dict, ids: list[str], tag: str, ts: float) -> None:
    for node_id in ids:
        node = graph["nodes"][node_id]
        node["gist"] = f"{node['gist'][:80]} (changed on {tag})"
        node["_written"] = {"ts": ts, "by": tag}
        graph["_meta"]["versions"][f"node:{node_id}"] = {"v": 2, "ts": ts, "session": tag}


def write(path: Path, graph: dict) -> None:
    """As the server saves a graph: a new file renamed over the old one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(graph, indent=2, ensure_ascii=False))
    os.replace(tmp, path)


def as_the_server_keeps_it(graph: dict, base: Path, env: dict) -> dict:
    """The graph after a server held it once (loaded, compacted at start, saved at shutdown): what a store
    holds in use. Without this the first fold on B would rewrite most nodes (empty lists dropped, archived
    nodes stamped orphaned), a one-time change the bench is not about."""
    write(base / "store" / "user.json", graph)
    srv = ServerProcess(base, {k: v for k, v in env.items() if k.startswith(("KG_", "GIT_", "HOME"))})
    srv.start("--no-editor")
    try:
        urllib.request.urlopen(f"{srv.url}/api/graph/read", timeout=120).read()
    finally:
        srv.stop()
    return json.loads((base / "store" / "user.json").read_text())


def one_round(work: Path, nodes: int, changed: int, seed: int) -> dict:
    rng = random.Random(seed)
    now = time.time()
    remote = work / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True, env=env_for(work, "x"))
    a_env, b_env = env_for(work / "a", "machine-a"), env_for(work / "b", "machine-b")
    graph = as_the_server_keeps_it(make_graph(rng, nodes, 150, now, None), work / "a", a_env)
    kg(["sync", str(remote)], a_env)
    kg(["sync", str(remote)], b_env)
    ids = list(graph["nodes"])
    rng.shuffle(ids)
    overlap = changed // 10
    a_ids, b_ids = ids[:changed], ids[changed - overlap:2 * changed - overlap]
    base = json.loads((work / "a" / "store" / "user.json").read_text())
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    change(theirs, a_ids, "machine-a", now + 10)
    change(ours, b_ids, "machine-b", now + 20)
    write(work / "a" / "store" / "user.json", theirs)
    write(work / "b" / "store" / "user.json", ours)
    out: dict = {}
    t0, c0 = time.perf_counter(), time.process_time()
    result = merge_graphs(base, ours, theirs, now)
    out["merge only"] = (time.perf_counter() - t0, time.process_time() - c0)
    out["conflicts"] = len(result.conflicts)
    out["offline A push"] = kg(["sync", str(remote)], a_env)
    out["offline B"] = kg(["sync", str(remote)], b_env)
    out["offline A"] = kg(["sync", str(remote)], a_env)
    merged = json.loads((work / "b" / "store" / "user.json").read_text())
    assert all(f"changed on machine-a" in merged["nodes"][i]["gist"] for i in a_ids[:changed - overlap])
    assert all(f"changed on machine-b" in merged["nodes"][i]["gist"] for i in b_ids)
    assert sum(1 for n in merged["nodes"].values() if n.get("_conflicts")) == overlap

    # The same, with B's server running and holding the graph.
    base = merged
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    rng.shuffle(ids)
    a_ids, b_ids = ids[:changed], ids[changed - overlap:2 * changed - overlap]
    change(theirs, a_ids, "machine-a", now + 30)
    change(ours, b_ids, "machine-b", now + 40)
    write(work / "a" / "store" / "user.json", theirs)
    kg(["sync", str(remote)], a_env)
    write(work / "b" / "store" / "user.json", ours)
    srv = ServerProcess(work / "b", {k: v for k, v in b_env.items() if k.startswith(("KG_", "GIT_", "HOME"))})
    srv.start("--no-editor")
    try:
        urllib.request.urlopen(f"{srv.url}/api/graph/read", timeout=60).read()  # the user graph loaded
        wait_idle(srv.proc.pid)  # ...and its start-up work (search index, MCP) done: not the sync's cost
        req = urllib.request.Request(f"{srv.url}/api/store/sync", data=json.dumps({"remote": str(remote)}).encode(),
                                     method="POST", headers={"Content-Type": "application/json"})
        t0, c0 = time.perf_counter(), _proc_cpu(srv.proc.pid)
        with urllib.request.urlopen(req, timeout=300) as r:
            reply = json.loads(r.read())
        out["server B"] = (time.perf_counter() - t0, _proc_cpu(srv.proc.pid) - c0)
        assert reply["graphs"]["user"]["changed"], reply
        live = json.loads(urllib.request.urlopen(f"{srv.url}/api/graph/read", timeout=60).read())["user"]["nodes"]
        by_id = {n["id"]: n for n in live}
        assert all("changed on machine-a" in by_id[i]["gist"] for i in a_ids[:changed - overlap])
    finally:
        srv.stop()
    out["file MB"] = (work / "b" / "store" / "user.json").stat().st_size / 1e6
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes", type=int, default=10_000)
    ap.add_argument("--changed", type=int, default=100)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    rounds = []
    for run in range(args.runs):
        work = Path(tempfile.mkdtemp(prefix="kg-sync-bench-"))
        try:
            rounds.append(one_round(work, args.nodes, args.changed, seed=run + 1))
        finally:
            shutil.rmtree(work, ignore_errors=True)
    keys = ["offline B", "server B", "offline A", "offline A push", "merge only"]
    print(f"{args.nodes} nodes ({rounds[0]['file MB']:.1f} MB file), {args.changed} changed on each side, "
          f"{rounds[0]['conflicts']} changed on both; {args.runs} rounds; load {os.getloadavg()[0]:.1f}")
    print("| step | wall best | wall median | CPU best | CPU median |")
    print("|---|---|---|---|---|")
    for key in keys:
        wall = sorted(r[key][0] for r in rounds)
        cpu = sorted(r[key][1] for r in rounds)
        print(f"| {key} | {wall[0]:.2f} s | {wall[len(wall) // 2]:.2f} s | {cpu[0]:.2f} s | {cpu[len(cpu) // 2]:.2f} s |")


if __name__ == "__main__":
    main()
