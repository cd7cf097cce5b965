"""Prompt recall's ranking: each prompt word a concept, found by the word, its family, or a near-synonym.

The same RRF core as search.py (per term, holders ranked by field-weighted count, sharpened
IDF / (60 + rank)), with one change: a prompt word is a *concept* whose alternatives are its
stem-family members held in the graph (weight C.RECALL_FAMILY_WEIGHT) and its related terms
(core/expand.py, weight C.RECALL_RELATED_WEIGHT). Per concept a node earns its best
alternative, never the sum: a lesson that says both "postgres" and "database" is not counted
twice for the prompt's "db". A concept found only through an alternative still counts as a
matched term for the gates; its score is what keeps it weaker than the word itself.

Everything looked up is precomputed: the family map lives in the SearchIndex (kept per write),
the related table at import; a prompt costs the postings of its few alternatives.
"""

from __future__ import annotations

import heapq

from . import constants as C
from .expand import family, related
from .search import Hit, SearchIndex, _rrf_weights, base_idf, in_title, sharpened
from .terms import Terms, is_bigram

Concept = tuple[tuple[str, float], ...]  # (term, factor): the word itself first, at 1.0


def concepts(index: SearchIndex, terms: Terms) -> list[Concept]:
    """The query's concepts: each unigram with its family and related stems the graph holds; pairs alone."""
    out: list[Concept] = []
    postings = index.postings
    # A term of the graph stands for one prompt word only: "concurrency and parallelism" must not
    # credit a node's one "parallel" twice. The prompt's own words come first.
    claimed = set(terms.unigrams)
    for term in terms.unigrams:
        alts: dict[str, float] = {term: 1.0}
        if term.isalpha():
            for kin in sorted(index.families.get(family(term), ())):
                alts.setdefault(kin, C.RECALL_FAMILY_WEIGHT)
            for other in related(term):
                if other in postings:
                    alts.setdefault(other, C.RECALL_RELATED_WEIGHT)
                for kin in sorted(index.families.get(family(other), ())):
                    alts.setdefault(kin, C.RECALL_RELATED_WEIGHT)
        found = [(t, f) for t, f in alts.items() if t in postings and (f == 1.0 or t not in claimed)]
        found = found[: C.RECALL_MAX_ALTERNATIVES]
        claimed.update(t for t, _ in found)
        if found:
            out.append(tuple(found))
    out += [((pair, 1.0),) for pair in terms.bigrams if pair in postings]
    return out


def score_concepts(index: SearchIndex, groups: list[Concept], depth: int | None) -> dict[str, float]:
    """RRF scores, each concept adding a node's best alternative (see `search.score_terms` for depth)."""
    n = index.size
    scores: dict[str, float] = {}
    for group in groups:
        best: dict[str, float] = {}
        for term, factor in group:
            weight = sharpened(base_idf(index.df(term), n)) * factor
            order = index.ordered(term, None if depth is None else depth + 1)
            for nid, rrf in zip(order, _rrf_weights(len(order))):
                value = weight * rrf
                if value > best.get(nid, 0.0):
                    best[nid] = value
        for nid, value in best.items():
            scores[nid] = scores.get(nid, 0.0) + value
    return scores


def concept_hits(index: SearchIndex, terms: Terms, seen: frozenset[str], limit: int,
                 depth: int | None = None) -> list[Hit]:
    """The best `limit` nodes for the query's concepts, with what the gates read of each."""
    groups = concepts(index, terms)
    scores = score_concepts(index, groups, depth)
    best = heapq.nsmallest(limit, scores, key=lambda nid: (-scores[nid], nid))
    n = index.size
    hits = []
    for nid in best:
        matched, rarest, titled = 0, 0.0, False
        for group in groups:
            hit_here = False
            for term, factor in group:
                packed = index.postings[term].get(nid)
                if packed is None:
                    continue
                hit_here = True
                titled = titled or in_title(packed)
                rarest = max(rarest, base_idf(index.df(term), n) * factor)
            matched += hit_here and not is_bigram(group[0][0])
        hits.append(Hit(nid, scores[nid], matched, rarest, titled, nid in seen))
    return hits
