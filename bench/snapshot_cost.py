"""What a snapshot costs per write, at two store sizes (issue #17 item 2: O(change), not O(graph)).

    .venv/bin/python bench/snapshot_cost.py [--sizes 500,10000,50000] [--writes 400]

For each size: builds the benchmark's synthetic store (bench/workload.py), loads and settles it as
a start does, takes the first snapshot (the one O(graph) copy, made once at start), then makes
`--writes` changes as the actor does (a create or an update through graph_ops.put_node, then an
edge to an existing node for every other one; a read stamp on 3 nodes), each followed by the new
snapshot the actor publishes. Prints the p50 / p99 / max of the snapshot alone, next to the
write itself and next to copying the node and edge dicts (what a snapshot that is not
structurally shared would cost). Pure core calls, no server.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.workload import build_store, make_id, sentence  # noqa: E402
from kg_actors.core import graph_ops  # noqa: E402
from kg_actors.core.model import GraphData  # noqa: E402
from kg_actors.graph_loading import load_graph, settle  # noqa: E402


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))] * 1e3


def one_size(n: int, writes: int) -> dict[str, list[float]]:
    now = time.time()
    with tempfile.TemporaryDirectory() as d:
        build_store(Path(d) / "kg", Path(d) / "code" / "bench-app", n, now=now)
        graph, _ = load_graph(Path(d) / "kg" / "projects" / "bench-app" / "graph.json", "project", None)
    settle(graph, now)
    graph.take_changes()
    graph.commit()
    t = time.perf_counter()
    first = graph.snapshot()
    out: dict[str, list[float]] = {"first": [time.perf_counter() - t], "write": [], "snapshot": [], "dict copy": [],
                                   "keys": [], "per key": []}
    rng, taken = random.Random(5), set(graph.nodes)
    ids = list(graph.nodes)
    writer = graph_ops.Writer("bench", guard=False)
    for i in range(writes):
        now += 1
        t = time.perf_counter()
        node_id = make_id(rng, taken) if i % 2 == 0 else rng.choice(ids)
        graph_ops.put_node(graph, "project", node_id, sentence(rng, 60, 250), [], [], now, writer)
        if i % 2 == 0:
            graph_ops.put_edge(graph, node_id, rng.choice(ids), "relates-to", None, now, writer, frozenset())
        for read in rng.sample(ids, 3):
            graph_ops.record_read(graph, read, now)
        graph.commit()
        graph.take_changes()
        out["write"].append(time.perf_counter() - t)
        pending = graph._pending  # what the snapshot copies: the entries and endpoints the change touched
        keys = sum(map(len, pending.touched.values())) + len(pending.incident) + len(pending.unorphaned)
        t = time.perf_counter()
        graph.snapshot()
        took = time.perf_counter() - t
        out["snapshot"].append(took)
        out["keys"].append(keys)
        out["per key"].append(took / max(keys, 1))
        t = time.perf_counter()
        _copy(graph)
        out["dict copy"].append(time.perf_counter() - t)
    assert dict(first.nodes) != dict(graph.snapshot().nodes)  # the first version is as it was
    return out


def _copy(graph: GraphData) -> None:
    dict(graph.nodes), dict(graph.edges), dict(graph.versions)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="500,10000")
    p.add_argument("--writes", type=int, default=400)
    a = p.parse_args()
    print("| N | first snapshot (ms) | write p50 / p99 (ms) | entries changed per write p50 / max | "
          "snapshot p50 / p99 / max (ms) | snapshot per changed entry p50 (us) | plain dict copy p50 (ms) |")
    print("|---|---|---|---|---|---|---|")
    for n in (int(s) for s in a.sizes.split(",")):
        got = one_size(n, a.writes)
        print(f"| {n:,} | {got['first'][0] * 1e3:.1f} | {_pct(got['write'], .5):.3f} / {_pct(got['write'], .99):.3f} | "
              f"{_pct(got['keys'], .5) / 1e3:.0f} / {max(got['keys'])} | {_pct(got['snapshot'], .5):.3f} / {_pct(got['snapshot'], .99):.3f} / "
              f"{max(got['snapshot']) * 1e3:.3f} | {_pct(got['per key'], .5) * 1e3:.1f} | "
              f"{_pct(got['dict copy'], .5):.3f} |")


if __name__ == "__main__":
    main()
