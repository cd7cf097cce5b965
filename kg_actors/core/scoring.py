"""Node scores: three percentile-ranked signals, and the fresh tier they skip.

Recency, connectedness and usefulness are each ranked within a pool (ties share
their average rank) and blended 0.25 / 0.40 / 0.35, so a score in [0, 1] says
how a node stands among its peers. The newest nodes (the fresh tier, sized by
render cost, not days) are protected and never scored. `held` (the active and
archived id sets) lets the compactor score a tentative arrangement without
touching the graph.
"""

from __future__ import annotations

import math
from collections.abc import Generator, Iterable, Sequence
from collections.abc import Set as AbstractSet
from itertools import chain
from weakref import WeakKeyDictionary
from typing import Any

from . import constants as C
from .errors import NotFound
from .model import GraphReader, Node, node_version_key
from .snapshot import Lineage
from .steps import Paced, run_steps
from .render import citation_line, line_cost, node_line

# (active ids, archived ids); any other endpoint is orphaned or no node here.
Held = tuple[AbstractSet[str], AbstractSet[str]]

_HALF_LIFE_SECONDS = C.USEFUL_HALF_LIFE_DAYS * C.DAY_SECONDS
STEP_NODES = 100  # nodes (or edges) a stepwise pass takes between two yields: ~0.05-0.5 ms (250: up to 1.4)
SIGNALS = ("recency", "connectedness", "usefulness")
WEIGHTS = {
    "recency": C.SCORE_WEIGHT_RECENCY,
    "connectedness": C.SCORE_WEIGHT_CONNECTEDNESS,
    "usefulness": C.SCORE_WEIGHT_USEFULNESS,
}


def graph_held(graph: GraphReader) -> Held:
    """The active and archived ids as the graph holds them."""
    return graph.ids_in_state("active"), graph.ids_in_state("archived")


def percentiles(values: Sequence[float]) -> list[float]:
    """Tie-aware percentile ranks: equal values share their average rank / (n - 1).

    One value, or a column of equal values, ranks 0.5 (no information).
    """
    return run_steps(percentiles_steps(values))


def percentiles_steps(values: Sequence[float]) -> Generator[None, None, list[float]]:
    """`percentiles`, yielding every STEP_NODES values."""
    n = len(values)
    if n < 2:
        return [0.5] * n
    first: dict[float, int] = {}
    last: dict[float, int] = {}
    ordered = sorted(values)
    for start in range(0, n, STEP_NODES):
        for rank in range(start, min(n, start + STEP_NODES)):
            value = ordered[rank]
            first.setdefault(value, rank)
            last[value] = rank
        yield
    scale = 2 * (n - 1)
    out: list[float] = []
    for start in range(0, n, STEP_NODES):
        out.extend((first[v] + last[v]) / scale for v in values[start:start + STEP_NODES])
        yield
    return out


def _number(value: object) -> float | None:
    return float(value) if value.__class__ in (float, int) else None


def write_ts(graph: GraphReader, node_id: str) -> float | None:
    """The last write's activity time: `used_ts` (kept by maintenance rewrites) else `ts`."""
    return _version_ts(graph.versions.get(node_version_key(node_id)))


def _version_ts(version: object) -> float | None:
    if not isinstance(version, dict):
        return None
    used = _number(version.get("used_ts"))
    return used if used is not None else _number(version.get("ts"))


_LOOK_UP = object()  # recency_raw's `version` when the caller has none in hand


def recency_raw(graph: GraphReader, node: Node, version: object = _LOOK_UP) -> float:
    """Latest of the last write, the last full read and the latest credit (0 if none). `version`: the
    node's version entry (None: it has none), where the caller has it in hand; else it is looked up."""
    best = write_ts(graph, node.id) if version is _LOOK_UP else _version_ts(version)
    read = node.last_read_ts
    if read is not None and (best is None or read > best):
        best = read
    if node.useful_ts:
        credit = max(node.useful_ts)
        if best is None or credit > best:
            best = credit
    return 0.0 if best is None else best


def usefulness_raw(node: Node, now: float) -> float:
    """Usefulness stamps, each fading with a 90-day half-life (a future stamp counts 1)."""
    total: float = sum(0.5 ** (max(0.0, now - ts) / _HALF_LIFE_SECONDS) for ts in node.useful_ts)
    return total


def usefulness_rank_key(node: Node, now: float) -> float:
    """usefulness_raw(node, now) times 2^(now / half-life): the same order, computed without `now`.

    Ranking on this keeps a pool's usefulness ranks bit-for-bit the same as
    time passes (while no stamp lies ahead of `now`), so a settled level stays
    settled and compaction can remember that it is. Stamps are summed in order
    so equal stamp sets tie exactly.
    """
    total: float = sum(2.0 ** (min(ts, now) / _HALF_LIFE_SECONDS) for ts in sorted(node.useful_ts))
    return total


# Per graph: node id -> (node, version entry, recency, usefulness key, latest
# stamp). Nodes are frozen and a write replaces the version entry (set_version),
# never edits it, so identity tells whether the values still hold; a write
# re-ranks one node instead of the pool.
_SIGNALS: WeakKeyDictionary[Lineage, dict[str, tuple[Any, ...]]] = WeakKeyDictionary()  # per graph, all versions


def _fixed_signals(graph: GraphReader, held: list[Node], now: float
                   ) -> Generator[None, None, tuple[list[float], list[float]]]:
    """Recency and usefulness rank keys of nodes, from the cache where it still holds; yields every
    STEP_NODES nodes."""
    cache = _SIGNALS.setdefault(graph.lineage, {})
    if len(cache) > 2 * len(held) + 256:  # forget nodes that left the pool
        cache.clear()
    versions = graph.versions
    recency: list[float] = []
    usefulness: list[float] = []
    for k, node in enumerate(held, 1):
        if not k % STEP_NODES:
            yield
        version = versions.get(node_version_key(node.id))
        hit = cache.get(node.id)
        if hit is None or hit[0] is not node or hit[1] is not version or hit[4] > now:
            latest = max(node.useful_ts, default=float("-inf"))
            hit = (node, version, recency_raw(graph, node, version), usefulness_rank_key(node, now), latest)
            if latest <= now:  # a stamp ahead of now makes the key depend on now
                cache[node.id] = hit
        recency.append(hit[2])
        usefulness.append(hit[3])
    return recency, usefulness


def connectedness_parts(graph: GraphReader, node_id: str, held: Held) -> tuple[float, float, int]:
    """(weighted in-edges, weighted out-edges, all incident edges).

    A self-loop is not a neighbour: it counts only toward the hub floor.
    """
    active, archived = held
    # Neighbours counted, then weighed: a sum of weights would depend on the order a set of edges
    # is met in, which string hashing changes from one process to the next (and with it the ties).
    in_active = in_archived = out_active = out_archived = 0
    for src, dst, _ in graph.unorphaned_incident(node_id):  # an orphaned neighbour weighs 0
        if src == dst:
            continue
        if dst == node_id:
            in_active += src in active
            in_archived += src in archived
        else:
            out_active += dst in active
            out_archived += dst in archived
    return (in_active * C.ACTIVE_EDGE_WEIGHT + in_archived * C.ARCHIVED_EDGE_WEIGHT,
            out_active * C.ACTIVE_EDGE_WEIGHT + out_archived * C.ARCHIVED_EDGE_WEIGHT, graph.degree(node_id))


def connectedness_raw(graph: GraphReader, node_id: str, held: Held) -> float:
    w_in, w_out, degree = connectedness_parts(graph, node_id, held)
    # The hub floor keeps a hub's structural credit while its neighbours sit archived.
    return max(C.IN_DEGREE_WEIGHT * w_in + C.OUT_DEGREE_WEIGHT * w_out, C.HUB_FLOOR_WEIGHT * math.log1p(degree))


def fresh_ids(graph: GraphReader, budget: int = C.MAX_CHARS_PER_LEVEL) -> frozenset[str]:
    """The newest non-orphaned nodes whose render cost fits in the fresh share of the budget.

    Newest first by creation (no creation time = oldest); each node costs its
    line plus the citations it brings that no newer node already paid for; the
    walk stops at the first node that does not fit in what is left. A node that
    alone costs more than the whole share is passed over: it could never be
    protected, and stopping at it left no fresh tier at all (one long gist then
    had the session's newest lessons archived with it). Archived nodes count too:
    the tier depends on creation, content and orphaning, never on archiving.
    """
    room = int(budget * C.FRESH_BUDGET_RATIO)
    nodes = graph.nodes
    dated: list[tuple[float, str]] = []
    undated: list[str] = []
    for node_id in chain(graph.ids_in_state("active"), graph.ids_in_state("archived")):
        created = nodes[node_id].created_ts
        if created is None:
            undated.append(node_id)
        else:
            dated.append((-created, node_id))
    # Two flat sorts, not one by (undated, -created, id): float keys compare in the sort's fast path.
    dated.sort()
    undated.sort()
    charged: set[tuple[str, str, str]] = set()
    fresh: set[str] = set()
    used = 0
    for node_id in chain([i for _, i in dated], undated):  # the walk stops after a few dozen
        node = nodes[node_id]
        cost = line_cost(node_line(node.id, node.gist))
        brought = []
        for key in graph.unorphaned_incident(node.id):
            if key not in charged:
                cost += line_cost(citation_line(graph.edges[key], node.id))
                brought.append(key)
        if cost > room:
            continue
        if used + cost > room:
            break
        used += cost
        fresh.add(node.id)
        charged.update(brought)
    return frozenset(fresh)


class PoolScorer:
    """Scores of a fixed pool while node states change.

    Recency and usefulness do not depend on states, so they are ranked once;
    connectedness is recomputed only for nodes next to a node that moved.
    """

    def __init__(self, graph: GraphReader, ids: Iterable[str], now: float, held: Held | None = None):
        run_steps(self._fill(graph, ids, now, held))

    @classmethod
    def steps(cls, graph: GraphReader, ids: Iterable[str], now: float, held: Held | None = None
              ) -> Generator[None, None, PoolScorer]:
        """The scorer, made in steps of STEP_NODES nodes (a pool of thousands takes milliseconds)."""
        scorer = cls.__new__(cls)
        yield from scorer._fill(graph, ids, now, held)
        return scorer

    def _fill(self, graph: GraphReader, ids: Iterable[str], now: float, held: Held | None
              ) -> Generator[None, None, None]:
        self.graph = graph
        self.held = held or graph_held(graph)
        self.ids = sorted(set(ids))
        self.now = now
        pool = [graph.nodes[i] for i in self.ids]
        recency, usefulness = yield from _fixed_signals(graph, pool, now)
        self.raw: dict[str, list[float]] = {"recency": recency}
        self.pct = {"recency": (yield from percentiles_steps(recency)),
                    "usefulness": (yield from percentiles_steps(usefulness))}
        # The latest usefulness stamp in the pool: while it is not ahead of
        # `now`, these ranks hold for any later `now` too.
        self.latest_stamp = max((max(n.useful_ts) for n in pool if n.useful_ts), default=float("-inf"))
        self._base = [
            C.SCORE_WEIGHT_RECENCY * r + C.SCORE_WEIGHT_USEFULNESS * u
            for r, u in zip(self.pct["recency"], self.pct["usefulness"], strict=True)
        ]
        self._conn: dict[str, float] = {}
        yield from self._connect(self.ids)
        self._dirty: set[str] = set()
        self._scores: dict[str, float] | None = None

    def _connect(self, ids: Iterable[str]) -> Generator[None, None, None]:
        """Connectedness of `ids`, yielding after every STEP_NODES nodes and edges (a hub's
        thousands of edges are a step's worth alone)."""
        graph, held, conn, pace = self.graph, self.held, self._conn, Paced(STEP_NODES)
        for node_id in ids:
            conn[node_id] = connectedness_raw(graph, node_id, held)
            if pace.done(1 + graph.degree(node_id)):
                yield

    def invalidate(self, node_id: str) -> None:
        """`node_id` changed state: its neighbours' connectedness moved."""
        self._scores = None
        for src, dst, _ in self.graph.unorphaned_incident(node_id):
            self._dirty.add(src)
            self._dirty.add(dst)

    def scores(self) -> dict[str, float]:
        return run_steps(self.scores_steps())

    def scores_steps(self) -> Generator[None, None, dict[str, float]]:
        """`scores`, yielding every STEP_NODES nodes of the pool."""
        if self._scores is None:
            yield from self._connect([i for i in self._dirty if i in self._conn])
            self._dirty.clear()
            yield
            self.raw["connectedness"] = [self._conn[i] for i in self.ids]
            self.pct["connectedness"] = conn = yield from percentiles_steps(self.raw["connectedness"])
            weight = C.SCORE_WEIGHT_CONNECTEDNESS
            self._scores = {i: b + weight * c for i, b, c in zip(self.ids, self._base, conn, strict=True)}
        return self._scores

    def factors(self, node_id: str) -> dict[str, Any]:
        """raw, percentile, weight and contribution of each signal for one pool member."""
        self.scores()
        k = self.ids.index(node_id)
        if "usefulness" not in self.raw:
            self.raw["usefulness"] = [usefulness_raw(self.graph.nodes[i], self.now) for i in self.ids]
        return {
            name: {
                "raw": self.raw[name][k],
                "percentile": self.pct[name][k],
                "weight": WEIGHTS[name],
                "contribution": WEIGHTS[name] * self.pct[name][k],
            }
            for name in SIGNALS
        }


def score_pool(graph: GraphReader, ids: Iterable[str], now: float, held: Held | None = None) -> dict[str, float]:
    return PoolScorer(graph, ids, now, held).scores()


def scored_pool(graph: GraphReader, fresh: frozenset[str]) -> list[str]:
    """The unified pool: active and archived nodes outside the fresh tier."""
    held = chain(graph.ids_in_state("active"), graph.ids_in_state("archived"))
    return [i for i in held if i not in fresh]


def unified_scores(graph: GraphReader, now: float, budget: int = C.MAX_CHARS_PER_LEVEL) -> dict[str, float]:
    """Scores of every active and archived node outside the fresh tier (fresh ones are absent)."""
    return score_pool(graph, scored_pool(graph, fresh_ids(graph, budget)), now)


def explain(graph: GraphReader, node_id: str, now: float, budget: int = C.MAX_CHARS_PER_LEVEL) -> dict[str, Any]:
    """Why a node scores what it does (GET /api/nodes/{level}/{id}/score).

    A fresh or orphaned node has no score; it gets a `preview_score`: what it
    would score ranked among the pool.
    """
    node = graph.nodes.get(node_id)
    if node is None:
        raise NotFound(f"no node {node_id!r}")
    fresh = fresh_ids(graph, budget)
    pool = scored_pool(graph, fresh)
    scored = node_id in set(pool)
    scorer = PoolScorer(graph, pool if scored else [*pool, node_id], now)
    score = scorer.scores()[node_id]
    w_in, w_out, degree = connectedness_parts(graph, node_id, scorer.held)
    neighbours = {"active": 0, "archived": 0, "orphaned": 0, "other": 0}
    for edge in graph.incident(node_id):
        if edge.src != edge.dst:
            other = graph.nodes.get(edge.other(node_id))
            neighbours[other.state if other is not None else "other"] += 1
    return {
        "id": node_id,
        "state": node.state,
        "fresh": node_id in fresh,
        "fresh_tier_size": len(fresh),
        "pool_size": len(scorer.ids),
        "score": score if scored else None,
        "preview_score": None if scored else score,
        "components": scorer.factors(node_id),
        "connectedness": {
            "weighted_in": w_in,
            "weighted_out": w_out,
            "weighted": C.IN_DEGREE_WEIGHT * w_in + C.OUT_DEGREE_WEIGHT * w_out,
            "hub_floor": C.HUB_FLOOR_WEIGHT * math.log1p(degree),
            "edges": degree,
            "neighbours": neighbours,
        },
        "recency": {
            "written": write_ts(graph, node_id),
            "last_read": node.last_read_ts,
            "last_useful": max(node.useful_ts, default=None),
        },
        "endorsements": len(node.useful_ts),
    }
