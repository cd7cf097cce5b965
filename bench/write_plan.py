"""The compaction plan after each create, with and without the actor's charge index (issue #17 item 6).

    .venv/bin/python bench/write_plan.py [--nodes 10000] [--writes 200]

Loads the benchmark's synthetic store (bench/workload.py) and settles it as a load does, then makes
`--writes` creates through graph_ops.put_node, each followed by the write-time plan
(plan_steps(rebalance=False)) twice: from a ChargeIndex kept per record as the graph actor keeps it,
and priced from the graph. It asserts both plans are equal, commits one, and prints the plans'
times (p50 / p99, wall). Pure core calls, no server.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.workload import build_store, make_id, sentence  # noqa: E402
from kg_actors.core import compaction, graph_ops  # noqa: E402
from kg_actors.core.charge import ChargeIndex  # noqa: E402
from kg_actors.core.model import GraphData  # noqa: E402
from kg_actors.core.steps import run_steps  # noqa: E402
from kg_actors.graph_loading import load_graph, settle  # noqa: E402


def settled(nodes: int, now: float) -> tuple[GraphData, ChargeIndex, Callable[[], None]]:
    """The benchmark's store of `nodes` project nodes, loaded and settled as a load does; its charge index; and
    `committed`, which commits the graph's changes and keeps the index as the graph actor keeps it per record."""
    with tempfile.TemporaryDirectory() as d:
        build_store(Path(d) / "kg", Path(d) / "code" / "bench-app", nodes, now=now)
        graph, _ = load_graph(Path(d) / "kg" / "projects" / "bench-app" / "graph.json", "project", None)
    settle(graph, now)
    graph.take_changes()
    graph.commit()
    index = ChargeIndex.build(graph)

    def committed() -> None:
        graph.commit()
        record = graph.take_changes()
        if record is not None:
            index.update(graph, record["n"], (tuple(k) for k, _ in record["e"]))

    return graph, index, committed


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--nodes", type=int, default=10_000)
    p.add_argument("--writes", type=int, default=200)
    a = p.parse_args()
    now = time.time()
    graph, index, committed = settled(a.nodes, now)
    rng, taken = random.Random(3), set(graph.nodes)
    times: dict[str, list[float]] = {"from the kept index": [], "priced from the graph": []}
    for i in range(a.writes):
        now += 1
        graph_ops.put_node(graph, "project", make_id(rng, taken), sentence(rng, 60, 250), [], [], now,
                           graph_ops.Writer("bench"))
        committed()
        plans = []
        for label, charges in (("from the kept index", index), ("priced from the graph", None)):
            t = time.perf_counter()
            plans.append(run_steps(compaction.plan_steps(graph, now, rebalance=False, charges=charges)))
            times[label].append(time.perf_counter() - t)
        assert plans[0] == plans[1], f"write {i}: the plans differ"
        if plans[0].moves:
            compaction.commit(graph, plans[0])
            committed()
    for label, got in times.items():
        got.sort()
        print(f"N={a.nodes:,}, {a.writes} creates, plan {label}: p50 {got[len(got) // 2] * 1e3:.2f} ms, "
              f"p99 {got[int(len(got) * 0.99)] * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
