"""A tool call's pieces, in-process, on bench/workload.py's 10,000-node graph: the decisions they make
(so two builds can be compared byte for byte) and the CPU each takes.

    .venv/bin/python bench/percall_pieces.py decisions > /tmp/a.txt   # then the same with another build
    .venv/bin/python bench/percall_pieces.py plan
    cmp /tmp/a.txt /tmp/b.txt

`decisions`: 400 steps, each a write (half of them creates, whose near-duplicate and hub hints are
printed; a third of those copy an existing gist), a kg_search top 10 (scores, matched terms, rarest
IDF, title flags) and a prompt recall decision (reason, text, nodes shown), with the search index
kept per write as the graph actor keeps it. `plan`: 60 reads of 5 ids (promoting the archived and
orphaned ones) on the settled graph, each followed by the compaction plan a read triggers; prints
an md5 of the 60 plans' moves. Timings go to stderr: the decisions on stdout do not depend on them.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import workload  # noqa: E402

from kg_actors.core import compaction, graph_ops, hints, recall  # noqa: E402
from kg_actors.core.charge import ChargeIndex  # noqa: E402
from kg_actors.core.model import GraphData, Node  # noqa: E402
from kg_actors.core.search import SearchIndex, parse_query, top_hits  # noqa: E402
from kg_actors.core.steps import run_steps  # noqa: E402

NOW = 1.8e9


def _graph(n: int = 10_000) -> GraphData:
    raw = workload.make_graph(random.Random(5), n, workload.ACTIVE_PROJECT, NOW, "/x/bench-app")
    return GraphData.from_json(raw, "project")


def _ms(times: list[float]) -> str:
    times = sorted(times)
    return f"p50 {times[len(times) // 2] * 1000:.2f} p90 {times[int(len(times) * 0.9)] * 1000:.2f} ms"


def decisions() -> None:
    graph = _graph()
    index = SearchIndex.build(graph)
    r = random.Random(11)
    ids = sorted(graph.nodes)
    timed: dict[str, list[float]] = {"near-duplicate hint": [], "hub hint": [], "index a write": [],
                                     "kg_search top 10": [], "prompt recall": []}

    def clock(name: str, fn, *args):  # type: ignore[no-untyped-def]
        t = time.perf_counter()
        out = fn(*args)
        timed[name].append(time.perf_counter() - t)
        return out

    for step in range(400):
        k = r.random()
        node = None
        if k < 0.5:
            nid = f"new-{step}-" + "-".join(r.sample(workload.WORDS, 2))
            gist = workload.sentence(r, 60, 250)
            if r.random() < 0.3:  # a near copy of an existing gist
                src = r.choice(ids)
                gist = graph.nodes[src].gist if src in graph.nodes else gist
            dup = clock("near-duplicate hint", hints.near_duplicate, index, graph, nid, gist)
            hub = clock("hub hint", hints.hub_mention, index, graph, nid, gist)
            print(json.dumps(["hint", nid, dup[0] if dup else None, repr(dup[1]) if dup else None, hub]))
            node = Node(nid, gist, (workload.sentence(r, 40, 160),))
        elif k < 0.8:
            nid = r.choice(ids)
            if nid in graph.nodes:
                node = Node(nid, workload.sentence(r, 60, 250), graph.nodes[nid].notes)
        else:
            nid = r.choice(ids)
            if nid in graph.nodes:
                graph.del_node(nid)
                clock("index a write", index.remove_node, nid)
        if node is not None:
            graph.set_node(node)
            clock("index a write", index.update_node, node)
        q = workload.query_terms(r)
        hits, total = clock("kg_search top 10", top_hits, index, parse_query(q), frozenset(), 10)
        print(json.dumps(["q", q, total, [(h.node_id, repr(h.score), h.matched_terms, repr(h.max_term_idf),
                                           h.title_match) for h in hits]]))
        terms = recall.prompt_terms(" ".join(r.sample(workload.WORDS, r.randint(2, 6))))
        d = clock("prompt recall", recall.run, terms, {"project": (graph, index)}, frozenset())
        print(json.dumps(["r", terms, d.reason, d.text, [list(x) for x in d.shown], repr(d.threshold)]))
    for name, times in timed.items():
        sys.stderr.write(f"{name}: {_ms(times)} ({len(times)})\n")


def _commit(graph: GraphData, charges: ChargeIndex) -> None:
    record = graph.take_changes()
    graph.commit()
    if record:
        charges.update(graph, record.get("n", {}), (tuple(key) for key, _ in record.get("e", [])))


def plan() -> None:
    graph = _graph()
    charges = ChargeIndex.build(graph)
    now = NOW
    compaction.compact(graph, now, charges=charges)  # settled, as a server's load leaves it
    _commit(graph, charges)
    r = random.Random(2)
    ids = sorted(graph.nodes)
    times, outcomes = [], []
    for _ in range(60):
        now += 10
        for node_id in [r.choice(ids) for _ in range(5)]:
            if node_id in graph.nodes:
                graph_ops.record_read(graph, node_id, now)
        _commit(graph, charges)
        t = time.perf_counter()
        steps = compaction.plan_steps(graph, now, rebalance=False, charges=charges)
        result = compaction.commit(graph, run_steps(steps))
        times.append(time.perf_counter() - t)
        _commit(graph, charges)
        outcomes.append((result.archived, result.resurrected, result.refilled, result.orphaned))
    print("plans", sum(1 for o in outcomes if any(o)), "acted, md5", hashlib.md5(repr(outcomes).encode()).hexdigest())
    sys.stderr.write(f"compaction plan after a read of 5 ids: {_ms(times)} (60)\n")


if __name__ == "__main__":
    {"decisions": decisions, "plan": plan}[sys.argv[1]]()
