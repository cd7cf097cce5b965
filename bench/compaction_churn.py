"""How much the write-time compaction moves nodes back and forth while creates arrive (issue #17's tail).

    .venv/bin/python bench/compaction_churn.py [--nodes 10000] [--creates 400]

Loads the benchmark's synthetic store (bench/workload.py), settles it as a load does, then makes
`--creates` creates through graph_ops.put_node, each followed by the plan the graph actor runs after a
write (plan_steps(rebalance=False), with the charge index the actor keeps) and its commit. Prints how
many runs moved anything, how many moves they made in all, how many nodes came back to active three
times or more, the level's charge at the end, and the first four acting runs' resurrected nodes: when
they alternate between two sets, resurrection is undoing the previous run's work. Pure core calls,
no server; the decisions do not depend on the machine.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.workload import make_id, sentence  # noqa: E402
from bench.write_plan import settled  # noqa: E402
from kg_actors.core import compaction, graph_ops  # noqa: E402
from kg_actors.core import constants as C  # noqa: E402
from kg_actors.core.charge import ChargeTracker  # noqa: E402
from kg_actors.core.steps import run_steps  # noqa: E402

NOW = 1.8e9


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--nodes", type=int, default=10_000)
    p.add_argument("--creates", type=int, default=400)
    a = p.parse_args()
    now = NOW
    graph, index, committed = settled(a.nodes, now)

    rng, taken = random.Random(3), set(graph.nodes)
    runs = moves = 0
    back: dict[str, int] = {}
    firsts: list[list[str]] = []
    planning = 0.0
    for _ in range(a.creates):
        now += 1
        graph_ops.put_node(graph, "project", make_id(rng, taken), sentence(rng, 60, 250), [], [], now,
                           graph_ops.Writer("bench"))
        committed()
        t = time.perf_counter()
        plan = run_steps(compaction.plan_steps(graph, now, rebalance=False, charges=index))
        planning += time.perf_counter() - t
        if not plan.moves:
            continue
        runs += 1
        moves += len(plan.moves)
        for node_id, state in plan.moves.items():
            if state == "active":
                back[node_id] = back.get(node_id, 0) + 1
        if len(firsts) < 4:
            firsts.append(sorted(plan.result.resurrected))
        compaction.commit(graph, plan)
        committed()
    print(f"N={a.nodes:,}, {a.creates} creates: {runs} runs moved nodes, {moves} moves in all, "
          f"{sum(1 for k in back.values() if k >= 3)} nodes back to active 3+ times; "
          f"charge at the end {ChargeTracker(graph).exact():,} of {C.MAX_CHARS_PER_LEVEL:,}; "
          f"planning {planning * 1e3:.0f} ms in all")
    for k, ids in enumerate(firsts, 1):
        print(f"acting run {k}: resurrected {len(ids)}: {', '.join(ids[:5])}{' ...' if len(ids) > 5 else ''}")


if __name__ == "__main__":
    main()
