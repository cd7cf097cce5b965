"""The near-duplicate probe's scoring, bounded: only the nodes that could still reach the hint's floor.

The hint needs the best-scoring node, and only when it scores at least a floor. Scoring every probe
term down to the scan depth (as `search.score_terms` does) walks ~200 holders of each common
term, most of whom could never reach that floor. Here the terms go rarest first (the heaviest
weight first), each term's holders scanned whole, until what the terms left could add to a node
not seen yet (each at most weight / 60, rank 0's share) is below the floor. From then on only the
nodes seen so far that could still reach it are followed, by looking up their rank in each
remaining term (a bisect in the term's kept order), and dropped as soon as they cannot.

The survivors' scores are then summed exactly as `score_terms` sums them (term by term in probe
order, from 0.0), so the best node, its ties and its ratio are bit for bit what the full scoring
gives: a node left out scores below the floor, and so does every node when none survives.
"""

from __future__ import annotations

from collections.abc import Generator

from . import rrf
from .search import SearchIndex, node_postings, term_weight

# Bounds are compared with this much slack, so a float's last bit never drops a node that reaches the floor.
_SLACK = 1e-9


def weights(index: SearchIndex, probe: tuple[str, ...], exclude: str) -> list[tuple[int, str, float]]:
    """(position, term, weight) of the probe terms some node other than `exclude` holds."""
    own = node_postings(index.nodes[exclude]) if exclude in index.nodes else {}
    n = index.size - (exclude in index.nodes)
    out = []
    for pos, term in enumerate(probe):
        df = index.df(term) - (term in own)
        weight = term_weight(df, n)
        if weight > 0:
            out.append((pos, term, weight))
    return out


def _scan(index: SearchIndex, term: str, depth: int, exclude: str) -> list[str]:
    """The term's first `depth` + 1 holders with `exclude` taken out: what score_terms ranks."""
    return [i for i in index.ordered(term, depth + 1) if i != exclude]


def _ranks(index: SearchIndex, term: str, nodes: set[str], depth: int, exclude: str) -> dict[str, int]:
    """Each of `nodes`' rank in `_scan`'s list, for those in it, without making the list: a rare term's list
    is short (made); a common one's kept order is looked up for these nodes alone (`ranks_of`)."""
    if term not in index.orders:
        return {nid: r for r, nid in enumerate(_scan(index, term, depth, exclude)) if nid in nodes}
    excluded = index.rank_of(term, exclude)
    ranks = {}
    for nid, pos in index.ranks_of(term, nodes).items():
        if pos <= depth:
            ranks[nid] = pos - (excluded is not None and excluded < pos)
    return ranks


def probe_steps(index: SearchIndex, probe: tuple[str, ...], exclude: str, depth: int, floor: float,
                per_step: int, weighted: list[tuple[int, str, float]] | None = None
                ) -> Generator[None, None, dict[str, float]]:
    """Scores, as score_terms(index, probe, exclude, depth) gives them, of every node scoring `floor`
    or more (and maybe a few just under); yields after every `per_step` terms. `weighted`: the probe's
    `weights`, where the caller has them already."""
    found = weights(index, probe, exclude) if weighted is None else weighted
    terms = sorted(found, key=lambda t: (-t[2], t[0]))
    shares = rrf.weights(depth + 1)
    rest = [0.0] * (len(terms) + 1)  # rest[i]: the most the terms after the i-th can add to any node
    for i in range(len(terms) - 1, -1, -1):
        rest[i] = rest[i + 1] + terms[i][2] * shares[0]
    reach = floor * (1 - _SLACK)
    parts: dict[str, list[tuple[int, float]]] = {}  # node -> (probe position, its term's share)
    partial: dict[str, float] = {}
    live: set[str] | None = None  # None while whole terms are scanned; then the nodes followed
    for i, (pos, term, weight) in enumerate(terms):
        if i and i % per_step == 0:
            yield
        left = rest[i + 1] * (1 + _SLACK)
        if live is None:
            for r, nid in enumerate(_scan(index, term, depth, exclude)):
                share = weight * shares[r]
                parts.setdefault(nid, []).append((pos, share))
                partial[nid] = partial.get(nid, 0.0) + share
            if left < reach:  # a node not seen yet can no longer reach the floor
                live = {nid for nid, s in partial.items() if s + left >= reach}
        else:
            for nid, r in _ranks(index, term, live, depth, exclude).items():
                share = weight * shares[r]
                parts[nid].append((pos, share))
                partial[nid] += share
            live = {nid for nid in live if partial[nid] + left >= reach}
        if live is not None and not live:
            break
    followed = partial.keys() if live is None else live
    return {nid: _sum_in_order(parts[nid]) for nid in followed if partial[nid] >= reach}


def _sum_in_order(parts: list[tuple[int, float]]) -> float:
    """The shares added as score_terms adds them: in probe order, from 0.0."""
    total = 0.0
    for _, share in sorted(parts):
        total = total + share
    return total
