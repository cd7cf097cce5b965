"""Compaction cost on a 10,000-node project graph (issue #4 "How fast").

Loads the benchmark's synthetic store, lets compaction settle it once, then
measures (a) a write that triggers no archiving: put_node plus the compaction
run that follows it, against put_node alone; (b) a full compaction pass on a
level pushed over its budget. Pure core calls, no server: this is the cost a
GraphActor pays inside one message. Results go to bench/RESULTS-compaction.md.
"""

from __future__ import annotations

import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import attrs  # noqa: E402
import workload  # noqa: E402

from kg_actors.core import compaction, graph_ops, render  # noqa: E402
from kg_actors.graph_loading import load_graph  # noqa: E402


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def main(n: int = 10_000, writes: int = 400) -> str:
    with tempfile.TemporaryDirectory() as d:
        proj = Path(d) / "home" / "bench-app"
        workload.build_store(Path(d) / "kg", proj, n)
        graph, _ = load_graph(Path(d) / "kg" / "projects" / proj.name / "graph.json", "project", str(proj))
    now = time.time()
    t = time.perf_counter()
    runs = 0
    while compaction.compact(graph, now).acted and runs < 20:  # settle a store written by another server
        runs += 1
    settle = time.perf_counter() - t
    graph.take_changes()
    graph.commit()
    rng = random.Random(7)
    active = sorted(graph.ids_in_state("active"))
    writer = graph_ops.Writer(session="bench0001", guard=False)
    put_only, put_and_compact = [], []
    for i in range(writes):
        node_id = rng.choice(active)
        node = graph.nodes[node_id]
        gist = node.gist if i % 2 else node.gist[:-1] + ("x" if node.gist[-1] != "x" else "y")
        now += 1.0
        t0 = time.perf_counter()
        graph_ops.put_node(graph, "project", node_id, gist, None, None, now, writer)
        t1 = time.perf_counter()
        result = compaction.compact(graph, now, rebalance=False)  # as the GraphActor runs it after a write
        t2 = time.perf_counter()
        graph.take_changes()
        graph.commit()
        if not result.archived:
            put_only.append((t1 - t0) * 1e3)
            put_and_compact.append((t2 - t0) * 1e3)
    # A full pass: push the level over its budget by growing many gists, then compact once.
    passes = []
    for _ in range(5):
        active_now = sorted(graph.ids_in_state("active"))
        for node_id in rng.sample(active_now, min(40, len(active_now) // 2)):
            graph.set_node(attrs.evolve(graph.nodes[node_id], gist=graph.nodes[node_id].gist + " " + "z" * 120))
        graph.take_changes()
        graph.commit()
        over = render.charge(graph)
        t = time.perf_counter()
        result = compaction.compact(graph, now)
        passes.append(((time.perf_counter() - t) * 1e3, over, len(result.archived)))
        graph.take_changes()
        graph.commit()
    added = [b - a for a, b in zip(put_only, put_and_compact)]
    lines = [
        "# Compaction benchmark",
        "",
        f"Command: `.venv/bin/python bench/compaction.py` — {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
        f"{platform.processor() or platform.machine()}, Python {platform.python_version()}",
        "",
        f"Graph: {n} nodes ({len(graph.ids_in_state('active'))} active after settling); "
        f"settling it took {runs} run(s), {settle * 1e3:.0f} ms.",
        "",
        "| measure | p50 | p99 | max | target |",
        "|---|---|---|---|---|",
        f"| compaction added to a write that archives nothing ({len(added)} writes) | "
        f"{statistics.median(added):.2f} ms | {pct(added, 99):.2f} ms | {max(added):.2f} ms | < 2 ms p99 |",
        f"| put_node alone | {statistics.median(put_only):.2f} ms | {pct(put_only, 99):.2f} ms | "
        f"{max(put_only):.2f} ms | |",
        f"| full compaction pass over budget ({len(passes)} passes) | "
        f"{statistics.median(p[0] for p in passes):.1f} ms | {max(p[0] for p in passes):.1f} ms | "
        f"{max(p[0] for p in passes):.1f} ms | < 50 ms |",
        "",
        "Passes (ms, charge before, nodes archived): " + ", ".join(f"({p[0]:.1f}, {p[1]}, {p[2]})" for p in passes),
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    text = main()
    (Path(__file__).resolve().parent / "RESULTS-compaction.md").write_text(text)
    print(text)
