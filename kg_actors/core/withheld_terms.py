"""A search or recall hit found only by words a withheld field holds: dropped, so that a query cannot confirm a
guessed secret (querying the token finds the node it is in).

The index keeps every field's words: checking each node for secrets as it is indexed would cost ~10 times the
indexing (~0.5 ms a node against ~0.05), and a large graph's index is built in a child before the load's scan
(held_scan.py) has answered. So the check is made where the two meet, on the hits a reply would show: a hit
on a node the Mask flags (withheld.py: checked once, or the scan's answer) stands only when a query word is in
what an agent is shown of it.
"""

from __future__ import annotations

from collections.abc import Iterable

from .model import GraphReader, Node
from .search import SearchIndex, node_postings
from .withheld import visible


def _shown_words(node: Node, shown: Node) -> set[str]:
    return set(node_postings(visible(node, shown)))


def by_withheld_words(graph: GraphReader, node_id: str, terms: Iterable[str]) -> bool:
    """Whether a hit on `node_id` matches none of `terms` in what an agent is shown of the node."""
    node = graph.nodes.get(node_id)
    if node is None:
        return False
    shown = graph.lineage.mask.node(node)
    if shown is node:
        return False
    words = _shown_words(node, shown)
    return not any(term in words for term in terms)


def withheld_only(graph: GraphReader, index: SearchIndex, terms: Iterable[str]) -> frozenset[str]:
    """Every node of `graph` that `terms` find only by a withheld field's words: left out of a reply's count
    and its list alike, so that neither tells a right guess from a wrong one. Each holder of a term is looked
    at once (a node the Mask knows clean costs a lookup)."""
    terms = list(terms)
    out: set[str] = set()
    looked: set[str] = set()
    for term in terms:
        if index.df(term) == 0:
            continue
        for node_id in index.ordered(term):
            if node_id not in looked:
                looked.add(node_id)
                if by_withheld_words(graph, node_id, terms):
                    out.add(node_id)
    return frozenset(out)

