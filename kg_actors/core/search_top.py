"""The best few of a query without walking every holder of its common terms.

`score_terms` walks each term's whole order: at 10,000 nodes a common word has
thousands of holders, and a kg_search paid for all of them to show fifteen.
A holder's share of a term falls with its rank (weight / (60 + rank)), so the
first `depth` holders of each term bound everyone below them: a node not met
in a term within `depth` gets at most weight / (60 + depth) from it. Walk each
term to a depth, then score exactly (every term, in query order, as
`score_terms` adds them) each node whose bound still reaches the best
`limit`; stop once no node left out can reach them, else go twice as deep,
on from where the walk stopped. The scores kept are summed in query order as
the full walk sums them (bit-identical), so the best `limit` and their ties
are the same nodes in the same order.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from typing import Protocol

from . import rrf

START_DEPTH = 128  # the first walk per term; a term held by fewer is walked whole at once
_MARGIN = 1e-9  # bounds are sums in another order than the scores: a hair of room for rounding
# Times `limit`: more nodes than this to score one by one (a rank look-up per term each), and the
# walk goes on deeper instead. With the walk going on from where it stopped, 128 and 8 gave the
# lowest p99 over 2,000 bench queries at N = 10,000 (0.99 -> 0.66 ms against 64 and 32 walking
# afresh; the mean alike); 4 forces deep walks that cost more than the look-ups.
_EXACT_MAX = 8

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
    walk = _Walk(index, live)
    while depth < most:
        walk.deepen(depth)
        found = walk.settle(limit)
        if found is not None:
            return found, index.matching(t for t, _, _ in live)
        depth *= 2
    return None


class _Walk:
    """Each term's first holders, walked `depth` deep so far: what they give each node met."""

    def __init__(self, index: Ranked, live: Live):
        self.index = index
        self.live = live
        self.depth = 0
        self.lower: dict[str, float] = {}  # node -> what the terms it was met in give it
        self.met: dict[str, int] = {}  # node -> bit per term it was met in
        self.ranks: list[dict[str, int]] = [{} for _ in live]  # per term, the rank of each node met in it

    def deepen(self, depth: int) -> None:
        """Walk each term on to `depth` (ranks from the last depth on: what was walked stays)."""
        shares = rrf.weights(depth + 1)
        lower, met = self.lower, self.met
        get, got = lower.get, met.get
        start = self.depth
        for bit, ((term, weight, _), ranks) in enumerate(zip(self.live, self.ranks)):
            ranked = self.index.ordered(term, depth)
            flag = 1 << bit
            for rank in range(start, len(ranked)):
                nid = ranked[rank]
                ranks[nid] = rank
                lower[nid] = get(nid, 0.0) + weight * shares[rank]
                met[nid] = got(nid, 0) | flag
        self.depth = depth

    def settle(self, limit: int) -> dict[str, float] | None:
        """The exact scores the best `limit` need, if the walk so far settles them."""
        depth, lower, met = self.depth, self.lower, self.met
        shares = rrf.weights(depth + 1)
        # What a term can still give a node not met in it: its share at rank `depth` (0 if walked whole).
        tail = [weight * shares[depth] if df > depth else 0.0 for _, weight, df in self.live]
        if len(lower) <= limit:
            return None  # fewer met than wanted, and terms walked only in part: go deeper
        kth = heapq.nlargest(limit, lower.values())[-1]
        if sum(tail) >= kth - _MARGIN:
            return None  # a node met nowhere yet could still reach the best
        full = (1 << len(self.live)) - 1
        wanted: list[str] = []  # may reach the best: scored exactly, in query order
        lookups = 0  # of them, met in some terms only: their other ranks are looked up
        missing: dict[int, float] = {}  # per set of terms met: the most the others can still add
        for nid, low in lower.items():
            mask = met[nid]
            if mask == full:
                if low >= kth - _MARGIN:
                    wanted.append(nid)
                continue
            extra = missing.get(mask)
            if extra is None:
                extra = missing[mask] = sum(t for bit, t in enumerate(tail) if not mask >> bit & 1)
            if low + extra >= kth - _MARGIN:
                wanted.append(nid)
                lookups += 1
        if lookups > _EXACT_MAX * limit:
            return None  # deeper is cheaper than scoring these one by one
        return self._scores(wanted)

    def _scores(self, wanted: list[str]) -> dict[str, float]:
        """The nodes' scores, summed term by term in query order as `score_terms` sums them; where a
        node was not met in a term walked only in part, its rank there is looked up (a pass per term)."""
        looked_up: list[dict[str, int]] = []
        deepest = self.depth
        for (term, _, df), known in zip(self.live, self.ranks):
            looked = {}
            if df > self.depth:
                looked = self.index.ranks_of(term, [nid for nid in wanted if nid not in known])
                deepest = max(deepest, *looked.values()) if looked else deepest
            looked_up.append(looked)
        shares = rrf.weights(deepest + 1)
        found = list(zip([weight for _, weight, _ in self.live], self.ranks, looked_up))
        out = {}
        for nid in wanted:
            score = 0.0
            for weight, known, looked in found:
                rank = known.get(nid)
                if rank is None:
                    rank = looked.get(nid)
                if rank is not None:
                    score = score + weight * shares[rank]
            out[nid] = score
        return out
