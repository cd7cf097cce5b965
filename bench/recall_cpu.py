"""The prompt recall decision's own time at 10,000 nodes, paired A/B: plain terms vs concepts (issue #12).

    .venv/bin/python bench/recall_cpu.py [--nodes 10000] [--prompts 2000] [--seed 5] [--model]

The hook bench (hooks_bench.py) times the whole endpoint over HTTP, which on a shared, loaded
machine mostly measures the load. This times only what the vocabulary work added to a reply:
`recall.run` over a 10,000-node graph shaped like the hook bench's (bench/workload.py), each
prompt decided twice in a row, once ranking by plain terms (search.top_hits, as before) and once
by concepts (search_concepts.concept_hits: stem families and related terms), alternating which
goes first, so both see the same moment's load. CPU time (the thread's own) is printed beside
wall time: on a loaded machine the wall time's tail is other processes' turn on the CPU. Prompts are the hook bench's (2-6 vocabulary
words, many of which the related table expands: auth, token, cache, retry, timeout, queue ...).
`--model` pairs the decision without and with recall_gate's model instead (both by concepts): what
reading each candidate's features and its probability adds. `--meaning` pairs it without and with the
prompt's text (core/meaning.py: its vector, and each candidate's likeness, which the gate model reads); each lesson's
vector is kept once made, as the server keeps it, so the run shows the cold lessons and the warm ones.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import hooks_bench  # noqa: E402
import workload  # noqa: E402

from kg_actors import meaning_table  # noqa: E402
from kg_actors.core import constants as C  # noqa: E402
from kg_actors.core import recall, recall_gate  # noqa: E402
from kg_actors.core.model import GraphData  # noqa: E402
from kg_actors.core.search import SearchIndex, top_hits  # noqa: E402
from kg_actors.core.search_concepts import concept_hits  # noqa: E402


def plain_hits(index, terms, seen, limit, depth=None, words=None):
    return top_hits(index, terms, seen, limit, depth=depth)[0]  # words: how concept_hits counts a compound; unused


def no_candidates(*args, **kwargs):
    return []


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes", type=int, default=10_000)
    ap.add_argument("--prompts", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--model", action="store_true", help="pair without / with recall_gate's model")
    ap.add_argument("--meaning", action="store_true", help="pair without / with likeness in meaning")
    args = ap.parse_args()
    ways = ("no model", "model") if args.model else ("words", "meaning") if args.meaning else ("plain", "concepts")
    rng = random.Random(args.seed)
    raw = workload.make_graph(rng, args.nodes, workload.ACTIVE_PROJECT, time.time(), "/tmp/proj")
    graph = GraphData.from_json(raw, "project")
    t = time.perf_counter()
    index = SearchIndex.build(graph)
    build_s = time.perf_counter() - t
    views = {"project": (graph, index)}
    seen = frozenset(("project", n.id) for n in graph.nodes.values() if not n.archived)
    texts = hooks_bench.prompts(rng, args.prompts)
    table = meaning_table.shipped()
    times: dict[str, list[float]] = {way: [] for way in ways}
    cpu: dict[str, list[float]] = {way: [] for way in ways}
    injected = {way: 0 for way in ways}
    candidates = recall_gate.candidates
    for i, text in enumerate(texts):
        terms = recall.prompt_terms(recall.human_text(text) or "")
        order = ways if i % 2 else ways[::-1]
        for name in order:
            recall.concept_hits = plain_hits if name == "plain" else concept_hits
            recall_gate.candidates = no_candidates if name == "no model" else candidates
            t, c = time.perf_counter(), time.thread_time()
            decision = recall.run(terms, views, seen, text=text if name == "meaning" else None, table=table)
            cpu[name].append((time.thread_time() - c) * 1000)
            times[name].append((time.perf_counter() - t) * 1000)
            injected[name] += decision.text is not None
    recall.concept_hits = concept_hits
    recall_gate.candidates = candidates
    print(f"{args.nodes} nodes, index built in {build_s:.1f} s, families {len(index.families)}, "
          f"terms {len(index.postings)}; {len(texts)} prompts, each decided both ways (depth {C.RANK_SCAN_DEPTH})")
    print(f"| {'decision' if args.model or args.meaning else 'ranking'} | wall p50 / p99 / max ms | CPU p50 / p99 / max ms | prompts injecting |")
    print("|---|---|---|---|")
    for name, values in times.items():
        walls = " / ".join(f"{x:.2f}" for x in (hooks_bench.pct(values, 50), hooks_bench.pct(values, 99), max(values)))
        cpus = " / ".join(f"{x:.2f}" for x in (hooks_bench.pct(cpu[name], 50), hooks_bench.pct(cpu[name], 99),
                                                max(cpu[name])))
        print(f"| {name} | {walls} | {cpus} | {injected[name]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
