"""The compaction tick reaches a fixpoint and keeps the level within its budget (F7, F33, F34).

Unlike the other models, the steps here are not a re-statement of the code: each step runs the
real `core.compaction.compact` (the tick's `GraphState.tick` and the post-write run), with the
real scorer, on a graph the explorer builds. The first step picks a graph among every one within
the bounds; each next step is one tick run, taken only while the run changes something.

Bounds: 2 or 3 nodes; gists of 10 or 70 characters; each node active or archived; the first node
endorsed once or not; up to 2 directed edges; a budget of 60% or 100% of what the level costs
with every node active.
Invariants:
- fixpoint: no graph needs more than 4 runs to settle (a swap cycle, F33, never settles);
- budget: a run that starts within the budget ends within it;
- nothing stuck: once settled, if every node fits active under the refill ceiling (the budget x
  COMPACTION_TARGET_RATIO: what a refill may fill to), every node is active (F34).
"""

from __future__ import annotations

import itertools

import attrs

from ..explore import Model
from kg_actors.core import constants as C
from kg_actors.core.compaction import compact
from kg_actors.core.model import Edge, GraphData, Node
from kg_actors.core.render import charge

NOW = 1_800_000_000.0
MAX_RUNS = 4


@attrs.frozen
class S:
    graph: tuple = ()  # ((id, gist length, archived, endorsed, orphaned), ...)
    edges: tuple = ()
    budget: int = 0
    runs: int = 0
    settled: bool = False
    over: bool = False  # a run that started within the budget ended over it


def _build(nodes, edges) -> GraphData:
    g = GraphData("project")
    for nid, length, archived, endorsed, orphaned in nodes:
        g.set_node(Node(nid, nid[0] * length, archived=archived, useful_ts=(NOW - C.DAY_SECONDS,) if endorsed else (),
                        orphaned_ts=NOW if orphaned else None))
    for src, dst in edges:
        g.set_edge(Edge(src, dst, "r"))
    g.take_changes()
    g.commit()
    return g


def _summary(g: GraphData) -> tuple:
    return tuple((n.id, len(n.gist), n.archived, bool(n.useful_ts), n.orphaned_ts is not None)
                 for n in sorted(g.nodes.values(), key=lambda n: n.id))


def _configs():
    for k in (2, 3):
        ids = [f"{c}-node" for c in "abc"[:k]]
        pairs = [(a, b) for a in ids for b in ids if a != b]
        for lengths in itertools.product((10, 70), repeat=k):
            for archived in itertools.product((False, True), repeat=k):
                for endorsed in (False, True):
                    nodes = tuple((ids[i], lengths[i], archived[i], endorsed and i == 0, False) for i in range(k))
                    for m in range(3):
                        for edges in itertools.combinations(pairs, m):
                            everything = _build([(n, ln, False, e, False) for n, ln, _, e, _ in nodes], edges)
                            full = charge(everything)
                            for share in (0.6, 1.0):
                                yield S(nodes, edges, max(20, int(full * share)))


def _tick(s: S) -> S:
    g = _build(s.graph, s.edges)
    within = charge(g) <= s.budget
    result = compact(g, NOW, s.budget)
    over = within and charge(g) > s.budget
    return attrs.evolve(s, graph=_summary(g), runs=s.runs + 1, settled=not result.acted, over=s.over or over)


def _nothing_stuck(s: S) -> bool:
    if not s.settled:
        return True
    everything = _build([(n, ln, False, e, False) for n, ln, _, e, _ in s.graph], s.edges)
    ceiling = int(s.budget * C.COMPACTION_TARGET_RATIO)  # refill's ceiling: the hysteresis below the budget
    return charge(everything) > ceiling or not any(archived for _, _, archived, _, _ in s.graph)


def steps(s: S):
    if s.budget == 0:
        for config in _configs():
            yield "graph", config
    elif not s.settled:
        yield f"tick run {s.runs + 1}", _tick(s)


MODELS = [Model("compaction_tick", S(), steps, {
    "fixpoint": lambda s: s.runs <= MAX_RUNS,
    "budget": lambda s: not s.over,
    "nothing stuck": _nothing_stuck,
})]
EXPECTED = {"compaction_tick": None}
