"""The best few of a query without walking every holder of its common terms.

`score_terms` walks each term's whole order: at 10,000 nodes a common word has
thousands of holders, and a kg_search paid for all of them to show fifteen.
A holder's share of a term falls with its rank (weight / (60 + rank)), so the
first `depth` holders of each term bound everyone below them: a node not met
in a term within `depth` gets at most weight / (60 + depth) from it. Walk each
term to a depth, then score exactly (every term, in query order, as
`score_terms` adds them) each node whose bound still reaches the best
`limit`; stop once no node left out can reach them, else go twice as deep.
The scores kept are bit-identical to the full walk's, so the best `limit`
and their ties are the same nodes in the same order.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from typing import Protocol

from . import rrf

START_DEPTH = 64  # the first walk per term; a term held by fewer is walked whole at once
_MARGIN = 1e-9  # bounds are sums in another order than the scores: a hair of room for rounding
# Times `limit`: more nodes than this to score one by one, and the walk goes deeper instead
# (measured at N = 10,000: 8-64 alike; 1-2 force deep walks that cost more than the full one).
_EXACT_MAX = 32

Live = list[tuple[str, float, int]]  # (term, weight, holders) of each term that counts, in query order


class Ranked(Protocol):
    """What this needs of a SearchIndex."""

    def ordered(self, term: str, limit: int | None = None) -> list[str]: ...
    def ranks_of(self, term: str, node_ids: Iterable[str]) -> dict[str, int]: ...
    def matching(self, terms: Iterable[str]) -> int: ...


def best_scores(index: Ranked, live: Live, limit: int,
                start_depth: int = START_DEPTH) -> tuple[dict[str, float], int] | None:
    """Exact scores (as `score_terms` gives them) of every node that can be among the best `limit` or
    tie the last of them, and how many nodes match at all; None when walking every holder is about as
    cheap (few holders, or ties that only the whole walk settles): the caller should."""
    if limit < 1:
        return None
    most = max((df for _, _, df in live), default=0)
    depth = max(start_depth, limit)
    if sum(df for _, _, df in live) <= 4 * depth * max(1, len(live)):
        return None
    while depth < most:
        found = _at_depth(index, live, limit, depth)
        if found is not None:
            return found, index.matching(t for t, _, _ in live)
        depth *= 2
    return None


def _at_depth(index: Ranked, live: Live, limit: int, depth: int) -> dict[str, float] | None:
    """The exact scores the best `limit` need, if walking each term `depth` deep settles them."""
    shares = rrf.weights(depth + 1)
    lower: dict[str, float] = {}
    met: dict[str, int] = {}  # node -> bit per term it was met in
    ranks: list[dict[str, int]] = []  # per term, the rank of each node met in it
    get, got = lower.get, met.get
    for bit, (term, weight, _) in enumerate(live):
        ranked = index.ordered(term, depth)
        ranks.append(dict(zip(ranked, range(len(ranked)))))
        flag = 1 << bit
        for nid, share in zip(ranked, shares):
            lower[nid] = get(nid, 0.0) + weight * share
            met[nid] = got(nid, 0) | flag
    # What a term can still give a node not met in it: its share at rank `depth` (0 if walked whole).
    tail = [weight * shares[depth] if df > depth else 0.0 for _, weight, df in live]
    unmet = sum(tail)
    if len(lower) <= limit:
        return None  # fewer met than wanted, and terms walked only in part: go deeper
    kth = heapq.nlargest(limit, lower.values())[-1]
    if unmet >= kth - _MARGIN:
        return None  # a node met nowhere yet could still reach the best
    full = (1 << len(live)) - 1
    exact: dict[str, float] = {}
    partial: list[str] = []  # met in some terms only, and may still reach the best: scored one by one
    missing: dict[int, float] = {}  # per set of terms met: the most the others can still add
    for nid, low in lower.items():
        mask = met[nid]
        if mask == full:
            if low >= kth - _MARGIN:
                exact[nid] = low  # met in every term: summed in query order already
        else:
            extra = missing.get(mask)
            if extra is None:
                extra = missing[mask] = sum(t for bit, t in enumerate(tail) if not mask >> bit & 1)
            if low + extra >= kth - _MARGIN:
                partial.append(nid)
    if len(partial) > _EXACT_MAX * limit:
        return None  # deeper is cheaper than scoring these one by one
    exact.update(_scores(index, live, ranks, depth, partial))
    return exact


def _scores(index: Ranked, live: Live, ranks: list[dict[str, int]], depth: int,
            partial: list[str]) -> dict[str, float]:
    """The nodes' scores, summed term by term in query order as `score_terms` sums them; where a
    node was not met in a term walked only in part, its rank there is looked up (a pass per term)."""
    found = []
    for (term, _, df), known in zip(live, ranks):
        if df > depth:
            looked = index.ranks_of(term, [nid for nid in partial if nid not in known])
            found.append(known | looked if looked else known)
        else:
            found.append(known)
    shares = rrf.weights(max((max(got.values(), default=0) for got in found), default=0) + 1)
    weights = [weight for _, weight, _ in live]
    out = {}
    for nid in partial:
        score = 0.0
        for weight, got in zip(weights, found):
            rank = got.get(nid)
            if rank is not None:
                score = score + weight * shares[rank]
        out[nid] = score
    return out
