"""Deterministic synthetic stores for the benchmark.

`build_store(root, project_dir, n)` writes a user graph and one project graph
of `n` nodes in the reference implementation's on-disk format, so the same
files serve both servers: `<root>/user.json` and
`<root>/projects/<basename(project_dir)>/graph.json`, with
`_meta.project_path` set to `project_dir`.

The shape mimics a store that has lived for months: most nodes archived by
compaction (`_archived`), some orphaned (`_orphaned_ts`, inside the 365-day
grace so nothing is pruned at load), ~1.5 edges per node, a few notes and
touches, creation times spread over ~9 months. Everything derives from one
seeded `random.Random`, so a given (seed, n) always yields the same bytes.
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

DAY = 86400.0
SPAN_DAYS = 270          # creation times spread over ~9 months
ACTIVE_PROJECT = 150     # what compaction leaves active at a 22,000-char budget, roughly
ORPHANED_SHARE = 0.15    # of the archived remainder
USER_NODES = 40
USER_ACTIVE = 30
EDGES_PER_NODE = 1.5

# A small vocabulary, so ids and gists share words and searches find hits.
WORDS = """
auth token cache session retry timeout queue worker schema migration index
query planner render budget compaction archive orphan recall prompt hook shim
config env port socket health lock journal snapshot replay fsync rename edge
node graph search stem bigram score recency usefulness endorse preload paging
editor websocket broadcast harness codex claude transcript gauge quota chore
runner supervisor nursery actor mailbox reply deadline cancel signal shutdown
parser tokenizer encoder decoder unicode utf16 bytes limit cap throttle nudge
capture file touch anchor path slug alias project user level version conflict
stale write read sync push cursor feed http rest route json atomic tmp prev
backup commit git deploy build test fixture flaky mock clock timer tick
""".split()

VERBS = """
breaks fixes needs skips drops keeps retries caches blocks delays corrupts
loses doubles reorders truncates rewrites validates rejects accepts
""".split()

FILLER = """
when under after before unless because so while only if the a each every
""".split()

REL = ["depends-on", "explains", "instance-of", "caused-by", "fixed-by",
       "relates-to", "supersedes", "reads-config", "part-of"]


def make_id(rng: random.Random, taken: set[str]) -> str:
    """A fresh kebab id of 3-5 words (the spec's target length)."""
    while True:
        nid = "-".join(rng.sample(WORDS, rng.randint(3, 5)))
        if nid not in taken:
            taken.add(nid)
            return nid


def sentence(rng: random.Random, lo: int, hi: int) -> str:
    """Word salad from the vocabulary, cut to a length in [lo, hi]."""
    target = rng.randint(lo + 1, hi)  # +1: rstrip may drop a space
    words: list[str] = []
    while len(" ".join(words)) < target:
        pool = rng.choice((WORDS, WORDS, VERBS, FILLER))
        words.append(rng.choice(pool))
    text = " ".join(words)[:target - 1].rstrip()
    return text[0].upper() + text[1:] + "."


def touch(rng: random.Random) -> str:
    a, b = rng.sample(WORDS, 2)
    start = rng.randint(1, 400)
    return f"src/{a}/{b}.py:{start}-{start + rng.randint(5, 60)} ({rng.choice(WORDS)})"


def make_node(rng: random.Random, nid: str, created: float) -> dict:
    node = {
        "id": nid,
        "gist": sentence(rng, 60, 250),
        "notes": [sentence(rng, 40, 160) for _ in range(rng.choice((0, 0, 1, 1, 2, 3)))],
        "touches": [touch(rng) for _ in range(rng.choice((0, 0, 1, 1, 2)))],
        "_created_ts": created,
    }
    if rng.random() < 0.3:
        node["_last_read_ts"] = created + rng.uniform(0, 30) * DAY
    if rng.random() < 0.2:
        node["_useful_ts"] = [created + rng.uniform(0, 20) * DAY for _ in range(rng.randint(1, 3))]
    return node


def make_graph(rng: random.Random, n: int, active: int, now: float,
               project_path: str | None) -> dict:
    """One graph: the newest-ish `active` nodes live, the rest archived/orphaned."""
    taken: set[str] = set()
    created = sorted(now - rng.uniform(0.5, SPAN_DAYS) * DAY for _ in range(n))
    ids = [make_id(rng, taken) for _ in range(n)]
    nodes = {nid: make_node(rng, nid, ts) for nid, ts in zip(ids, created)}

    # Compaction keeps recent and connected nodes; approximate by favouring
    # recent ones: 2/3 of the active set from the newest fifth, the rest random.
    recent = ids[-max(1, n // 5):]
    k = min(active, n)
    live = set(rng.sample(recent, min(len(recent), k * 2 // 3)))
    rest = [i for i in ids if i not in live]
    live |= set(rng.sample(rest, k - len(live)))
    for nid in ids:
        if nid in live:
            continue
        nodes[nid]["_archived"] = True
        if rng.random() < ORPHANED_SHARE:
            # Orphaned recently enough that the grace period keeps it.
            nodes[nid]["_orphaned_ts"] = now - rng.uniform(1, 120) * DAY

    edges: dict[str, dict] = {}
    for _ in range(int(n * EDGES_PER_NODE)):
        i = rng.randrange(n)
        a = ids[i]
        # Edges cluster: mostly to a node created nearby in time.
        if rng.random() < 0.1:
            b = touch(rng).split(":")[0]        # a file endpoint (contains "/")
        else:
            b = ids[max(0, min(n - 1, i + rng.randint(-30, 30)))]
        if a == b:
            continue
        rel = rng.choice(REL)
        edge = {"from": a, "to": b, "rel": rel}
        if rng.random() < 0.25:
            edge["notes"] = [sentence(rng, 30, 100)]
        edges[f"{a}->{b}:{rel}"] = edge

    versions = {f"node:{nid}": {"v": 1, "ts": node["_created_ts"], "session": None}
                for nid, node in nodes.items()}
    meta: dict = {"versions": versions}
    if project_path:
        meta["project_path"] = project_path
        meta["namespace"] = {"kind": "project", "owner": None}
    else:
        meta["namespace"] = {"kind": "user", "owner": None}
    return {"nodes": nodes, "edges": edges, "_meta": meta}


def build_store(root: Path, project_dir: Path, n: int, seed: int = 1,
                now: float | None = None) -> dict:
    """Write user.json and the project graph under `root`; return a summary.

    `project_dir` is created too: the servers require project roots to exist
    inside HOME.
    """
    rng = random.Random(seed)
    now = time.time() if now is None else now
    root.mkdir(parents=True, exist_ok=True)
    project_dir.mkdir(parents=True, exist_ok=True)
    user = make_graph(rng, USER_NODES, USER_ACTIVE, now, None)
    project = make_graph(rng, n, ACTIVE_PROJECT, now, str(project_dir))
    _write(root / "user.json", user)
    _write(root / "projects" / project_dir.name / "graph.json", project)
    pnodes = project["nodes"].values()
    return {
        "nodes": n,
        "edges": len(project["edges"]),
        "active": sum(1 for x in pnodes if not x.get("_archived")),
        "orphaned": sum(1 for x in pnodes if "_orphaned_ts" in x),
        "ids": list(project["nodes"]),
        "active_ids": [k for k, x in project["nodes"].items() if not x.get("_archived")],
        "bytes": (root / "projects" / project_dir.name / "graph.json").stat().st_size,
    }


def _write(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2))
    os.replace(tmp, path)


def query_terms(rng: random.Random) -> str:
    """A search query as an agent would type it: 2-3 vocabulary words."""
    return " ".join(rng.sample(WORDS, rng.randint(2, 3)))


if __name__ == "__main__":
    import sys
    import tempfile
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    with tempfile.TemporaryDirectory() as d:
        info = build_store(Path(d) / "kg", Path(d) / "code" / "bench-app", n)
        info.pop("ids"), info.pop("active_ids")
        print(info)
