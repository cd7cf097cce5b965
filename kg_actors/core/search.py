"""The search core: an inverted index per graph, RRF ranking, paths between hits.

Terms come from `terms.py` and match whole tokens (`store` never hits
`restore`). A graph's owner keeps one `SearchIndex` current per write, so a
query costs the postings of its own terms, not a scan of the graph. Per term,
nodes rank by field-weighted count and add sharpened-IDF / (60 + rank): rare
terms lead, and several corroborating terms beat one loud one.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Mapping

import attrs

from . import constants as C
from .errors import InvalidInput
from .ids import is_artifact
from .model import Edge, GraphData, Node
from .terms import Terms, field_counts, query_terms

Ref = tuple[str, str]  # (level, node_id)


def node_counts(node: Node) -> tuple[dict[str, int], set[str]]:
    """A node's weighted term counts and the terms its id or gist holds."""
    return field_counts((
        (C.SEARCH_WEIGHT_ID, True, (node.id,)),
        (C.SEARCH_WEIGHT_GIST, True, (node.gist,)),
        (C.SEARCH_WEIGHT_BODY, False, node.notes),
        (C.SEARCH_WEIGHT_BODY, False, node.touches),
    ))


def base_idf(df: int, n: int) -> float:
    """log(N/df)/log(N): 1 for a term one node holds, 0 for one every node holds."""
    if n <= 1:
        return 1.0
    return math.log(n / df) / math.log(n) if df > 0 else 1.0


def sharpened(idf: float) -> float:
    return idf ** C.SEARCH_IDF_SHARPNESS if idf > 0 else 0.0


class SearchIndex:
    """Term → {node id: weighted count} for one graph, kept current per write."""

    def __init__(self) -> None:
        self.postings: dict[str, dict[str, int]] = {}
        self.titled: dict[str, set[str]] = {}  # term → nodes holding it in id or gist
        self.node_terms: dict[str, tuple[str, ...]] = {}  # forward index, to undo a node
        self.gen = -1  # the graph generation last synced
        self._nodes: dict[str, Node] = {}  # what each entry was built from (frozen)
        self._order: dict[str, list[str]] = {}  # lazily sorted postings, per term

    @classmethod
    def build(cls, graph: GraphData) -> SearchIndex:
        index = cls()
        index.sync(graph)
        return index

    @property
    def size(self) -> int:
        """N for the IDF: every node of the graph, all tiers."""
        return len(self.node_terms)

    def df(self, term: str) -> int:
        return len(self.postings.get(term, ()))

    def update_node(self, node: Node) -> None:
        if self._nodes.get(node.id) is node:
            return
        self.remove_node(node.id)
        counts, title = node_counts(node)
        for term, count in counts.items():
            self.postings.setdefault(term, {})[node.id] = count
            self._order.pop(term, None)
        for term in title:
            self.titled.setdefault(term, set()).add(node.id)
        self.node_terms[node.id] = tuple(counts)
        self._nodes[node.id] = node

    def remove_node(self, node_id: str) -> None:
        for term in self.node_terms.pop(node_id, ()):
            posting = self.postings[term]
            del posting[node_id]
            if not posting:
                del self.postings[term]
            holders = self.titled.get(term)
            if holders is not None:
                holders.discard(node_id)
                if not holders:
                    del self.titled[term]
            self._order.pop(term, None)
        self._nodes.pop(node_id, None)

    def sync(self, graph: GraphData) -> None:
        """Catch up with `graph` when its gen moved.

        Nodes are frozen and replaced on change, so an identity check finds
        what changed without re-tokenizing the rest.
        """
        if graph.gen == self.gen:
            return
        for node_id in [i for i in self._nodes if i not in graph.nodes]:
            self.remove_node(node_id)
        for node in graph.nodes.values():
            self.update_node(node)
        self.gen = graph.gen

    def ordered(self, term: str) -> list[str]:
        """Holders of `term`, most weighted occurrences first (ties by id)."""
        order = self._order.get(term)
        if order is None:
            posting = self.postings.get(term, {})
            order = self._order[term] = sorted(posting, key=lambda i: (-posting[i], i))
        return order

    def state(self) -> tuple:
        """Everything a query reads, for comparing two indexes."""
        return (
            self.postings,
            {t: frozenset(s) for t, s in self.titled.items()},
            {i: frozenset(t) for i, t in self.node_terms.items()},
        )


@attrs.frozen
class Hit:
    node_id: str
    score: float
    matched_terms: int  # unigrams matched
    max_term_idf: float  # base (unsharpened) IDF of its rarest matched term
    title_match: bool  # a term found in its id or gist
    seen: bool = False


_rrf: list[float] = []


def _rrf_weights(n: int) -> list[float]:
    """1/(k + rank) for ranks 0..n-1, grown once and shared."""
    while len(_rrf) < n:
        _rrf.append(1.0 / (C.SEARCH_RRF_K + len(_rrf)))
    return _rrf


def parse_query(query: object) -> Terms:
    """A query's terms, or InvalidInput naming what is wrong with it."""
    if not isinstance(query, str) or not query.strip():
        raise InvalidInput("query", "must contain at least one word")
    if len(query) > C.QUERY_MAX_CHARS:
        raise InvalidInput("query", f"is {len(query)} characters; at most {C.QUERY_MAX_CHARS}")
    terms = query_terms(query)
    if not terms:
        raise InvalidInput("query", "must contain at least one word")
    return terms


def score_terms(index: SearchIndex, terms: Iterable[str], exclude: str | None = None) -> dict[str, float]:
    """RRF scores over `terms`, as if node `exclude` were not in the graph."""
    own = set(index.node_terms.get(exclude, ())) if exclude is not None else set()
    n = index.size - (exclude in index.node_terms)
    scores: dict[str, float] = {}
    get = scores.get
    for term in terms:
        df = index.df(term) - (term in own)
        weight = sharpened(base_idf(df, n)) if df > 0 else 0.0
        if weight <= 0:
            continue
        order = index.ordered(term)
        if term in own:
            order = [i for i in order if i != exclude]
        for nid, rrf in zip(order, _rrf_weights(len(order))):
            scores[nid] = get(nid, 0.0) + weight * rrf
    return scores


def rank(index: SearchIndex, terms: Terms, seen: frozenset[str] = frozenset()) -> list[Hit]:
    """Every node of the graph matching a term, best first (all tiers)."""
    scores = score_terms(index, terms.all())
    if not scores:
        return []
    n = index.size
    matched: dict[str, int] = {}
    rarest: dict[str, float] = {}
    titled: set[str] = set()
    for term in terms.all():
        posting = index.postings.get(term)
        idf = base_idf(len(posting), n) if posting else 0.0
        if idf <= 0:
            continue
        if " " not in term:
            for nid in posting:
                matched[nid] = matched.get(nid, 0) + 1
        for nid in posting:
            if idf > rarest.get(nid, 0.0):
                rarest[nid] = idf
        titled.update(index.titled.get(term, ()))
    hits = [
        Hit(nid, score, matched.get(nid, 0), rarest.get(nid, 0.0), nid in titled, nid in seen)
        for nid, score in scores.items()
    ]
    hits.sort(key=lambda h: (-h.score, h.node_id))
    return hits


def merge_hits(per_level: Mapping[str, list[Hit]]) -> list[tuple[str, Hit]]:
    """One ranking across levels by score; a (level, id) found twice keeps its best."""
    best: dict[Ref, Hit] = {}
    for level, hits in per_level.items():
        for hit in hits:
            held = best.get((level, hit.node_id))
            if held is None or hit.score > held.score:
                best[(level, hit.node_id)] = hit
    order = {level: i for i, level in enumerate(per_level)}
    merged = [(level, hit) for (level, _), hit in best.items()]
    merged.sort(key=lambda lh: (-lh[1].score, order[lh[0]], lh[1].node_id))
    return merged


# -- connections between hits


def _resolve(graphs: Mapping[str, GraphData], level: str, endpoint: str) -> Ref | None:
    """Which node an edge end names: its own graph's first, else another's (a user node)."""
    if endpoint in graphs[level].nodes:
        return (level, endpoint)
    for other, graph in graphs.items():
        if other != level and endpoint in graph.nodes:
            return (other, endpoint)
    return None


def _neighbours(graphs: Mapping[str, GraphData], ref: Ref) -> list[tuple[Ref, str, Edge]]:
    level, node_id = ref
    found = []
    for edge_level, graph in graphs.items():
        # Another graph's edge reaches this node only if it resolves here.
        if edge_level != level and _resolve(graphs, edge_level, node_id) != ref:
            continue
        for edge in graph.incident(node_id):
            other = edge.other(node_id)
            if edge.src == edge.dst or is_artifact(other):
                continue
            target = _resolve(graphs, edge_level, other)
            if target is not None and target != ref:
                found.append((target, edge_level, edge))
    found.sort(key=lambda t: (t[0], t[1], t[2].key))
    return found


def connection_paths(
    graphs: Mapping[str, GraphData], hit_ids: list[Ref], max_hops: int = C.SEARCH_MAX_HOPS
) -> tuple[list[Ref], list[tuple[str, Edge]]]:
    """Shortest paths (≤ max_hops) between each pair of hits: connector nodes and path edges."""
    hits = [h for h in dict.fromkeys(hit_ids) if h[0] in graphs and h[1] in graphs[h[0]].nodes]
    hit_set = set(hits)
    connectors: dict[Ref, None] = {}
    edges: dict[tuple[str, tuple[str, str, str]], tuple[str, Edge]] = {}
    for i, start in enumerate(hits[:-1]):
        targets = set(hits[i + 1:])
        parent: dict[Ref, tuple[Ref, str, Edge] | None] = {start: None}
        frontier, depth = deque([start]), 0
        while frontier and depth < max_hops and not targets <= parent.keys():
            depth += 1
            for _ in range(len(frontier)):
                ref = frontier.popleft()
                for target, level, edge in _neighbours(graphs, ref):
                    if target not in parent:
                        parent[target] = (ref, level, edge)
                        frontier.append(target)
        for target in hits[i + 1:]:
            path, step = [], parent.get(target)
            while step is not None:
                path.append(step)
                step = parent[step[0]]
            for prev, level, edge in reversed(path):
                if prev not in hit_set:
                    connectors.setdefault(prev)
                edges.setdefault((level, edge.key), (level, edge))
    return list(connectors), list(edges.values())
