"""What a hub costs kg_search's and prompt recall's connection paths (core/search.connection_paths).

    .venv/bin/python bench/hub_paths.py [--hub-edges 3000] [--nodes 10000] [--queries 300]

In-process, on the bench's synthetic store (bench/workload.py) with two hub nodes, each linked to
`--hub-edges` random nodes: the paths between a query's top 5 hits, then between a hub and four
hits (the hub itself a hit). The collector is frozen after the build, as `kg serve` freezes a load.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

import workload  # noqa: E402

from kg_actors.core import search  # noqa: E402
from kg_actors.core.model import GraphData  # noqa: E402
from kg_actors.core.search import SearchIndex  # noqa: E402

HUBS = ("hub-overview-0", "hub-overview-1")


def build(nodes: int, hub_edges: int) -> tuple[GraphData, SearchIndex]:
    rng = random.Random(1)
    raw = workload.make_graph(rng, nodes, workload.ACTIVE_PROJECT, time.time(), "/tmp/bench-hub")
    ids = list(raw["nodes"])
    for hub in HUBS:
        raw["nodes"][hub] = {"gist": "overview of the project", "_created_ts": time.time()}
        for nid in rng.sample(ids, hub_edges):
            raw["edges"][f"{hub}->{nid}:relates-to"] = {"from": hub, "to": nid, "rel": "relates-to"}
    graph = GraphData.from_json(raw, "project")
    return graph, SearchIndex.build(graph)


def timed(graph: GraphData, tops: list[list[tuple[str, str]]]) -> list[float]:
    out = []
    for top in tops:
        t = time.perf_counter()
        search.connection_paths({"project": graph}, top)
        out.append((time.perf_counter() - t) * 1000)
    return sorted(out)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hub-edges", type=int, default=3000)
    ap.add_argument("--nodes", type=int, default=10_000)
    ap.add_argument("--queries", type=int, default=300)
    args = ap.parse_args()
    graph, index = build(args.nodes, args.hub_edges)
    gc.freeze()
    rng = random.Random(7)
    tops = []
    for _ in range(args.queries):
        hits, _ = search.top_hits(index, search.parse_query(workload.query_terms(rng)), frozenset(), 15)
        tops.append([("project", h.node_id) for h in hits[:5]])
    for name, runs in (("top 5 hits", tops), ("a hub and 4 hits", [[("project", HUBS[0]), *t[:4]] for t in tops])):
        ms = timed(graph, runs)
        print(f"{name}: p50 {ms[len(ms) // 2]:.2f} ms, p99 {ms[int(len(ms) * 0.99)]:.2f} ms, "
              f"max {ms[-1]:.2f} ms ({len(ms)} queries, hubs of {args.hub_edges} edges, N = {args.nodes})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
