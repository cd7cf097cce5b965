"""Prompt recall's ranking: each prompt word a concept, found by the word, its family, or a near-synonym.

The same RRF core as search.py (per term, holders ranked by field-weighted count, sharpened
IDF / (60 + rank)), with two changes: a prompt word is a *concept* whose alternatives are its
stem-family members held in the graph (weight C.RECALL_FAMILY_WEIGHT) and its related terms
(core/expand.py, weight C.RECALL_RELATED_WEIGHT). Per concept a node earns its best
alternative, never the sum: a lesson that says both "postgres" and "database" is not counted
twice for the prompt's "db". A concept found only through an alternative still counts as a
matched term for the gates; its score is what keeps it weaker than the word itself. And a pair
of prompt words adds only what it is worth over its two words (score_concepts): a phrase counts once.

Everything looked up is precomputed: the family map lives in the SearchIndex (kept per write),
the related table at import; a prompt costs the postings of its few alternatives.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from collections.abc import Set as AbstractSet

from . import constants as C
from .expand import family, related
from . import rrf
from .search import Hit, SearchIndex, base_idf, in_title, term_weight
from .terms import Terms, analyse, is_bigram

Concept = tuple[tuple[str, float], ...]  # (term, factor): the word itself first, at 1.0


def concepts(index: SearchIndex, terms: Terms, words: Mapping[str, int] | None = None) -> list[Concept]:
    """The query's concepts: each unigram with its family and related stems the graph holds; pairs alone.

    `words` (term -> the number of the prompt word that brought it): the terms one word brought
    (the parts, the whole and the inner pairs of "GitHub", "vite.config.ts", "deleted_at") are one
    concept, its best alternative counting, as a word with several stems is one thing said once.
    """
    out = _concepts(index, terms)
    if not words:
        return out
    merged: dict[int, list[tuple[str, float]]] = {}
    alone: list[Concept] = []
    for group in out:
        number = words.get(group[0][0])
        if number is None:
            alone.append(group)
        else:
            merged.setdefault(number, []).extend(group)
    return [_distinct(group) for group in merged.values()] + alone


def _distinct(group: list[tuple[str, float]]) -> Concept:
    """A merged concept's alternatives, each term once at its best factor, the first term first."""
    best: dict[str, float] = {}
    for term, factor in group:
        if factor > best.get(term, 0.0):
            best[term] = factor
    return tuple(best.items())


def _concepts(index: SearchIndex, terms: Terms) -> list[Concept]:
    out: list[Concept] = []
    postings = index.postings
    # A term of the graph stands for one prompt word only: "concurrency and parallelism" must not
    # credit a node's one "parallel" twice. The prompt's own words come first.
    claimed = set(terms.unigrams)
    for term in terms.unigrams:
        alts: dict[str, float] = {term: 1.0}
        if term.isalpha():
            for kin in _kin(index, term):
                alts.setdefault(kin, C.RECALL_FAMILY_WEIGHT)
            for other in related(term):
                alts.setdefault(other, C.RECALL_RELATED_WEIGHT)
                for kin in _kin(index, other):
                    alts.setdefault(kin, C.RECALL_RELATED_WEIGHT)
        found = [(t, f) for t, f in alts.items() if t in postings and (f == 1.0 or t not in claimed)]
        found = found[: C.RECALL_MAX_ALTERNATIVES]
        claimed.update(t for t, _ in found)
        if found:
            out.append(tuple(found))
    out += [((pair, 1.0),) for pair in terms.bigrams if pair in postings]
    return out


def _kin(index: SearchIndex, term: str) -> list[str]:
    """The stems of the graph in `term`'s family: its key (when held) and those indexed under it."""
    key = family(term)
    kin = sorted(index.families.get(key, ()))
    return [key, *kin] if key in index.postings else kin


def score_concepts(index: SearchIndex, groups: list[Concept], depth: int | None) -> dict[str, float]:
    """RRF scores, each concept adding a node's best alternative (see `search.score_terms` for depth).

    A pair the prompt says ("run terraform") and its two words are one phrase: a node holding the pair
    earns what the pair is worth over what it already earned for those words, not both. A pair is rare
    because pairs are, so its weight is a rare word's; counted on top of its words it let a phrase a
    node says in passing ("... a running Terraform job") outweigh the lesson the prompt is about
    (issue #12: the largest group of misses is a sibling lesson shown instead of the one needed)."""
    n = index.size
    scores: dict[str, float] = {}
    get = scores.get
    pairs = [g for g in groups if _is_pair(g)]
    in_pairs = {w for g in pairs for w in g[0][0].split(" ")}
    earned: dict[str, dict[str, float]] = {}  # a word of a pair -> what each node earned for its concept
    for group in groups:
        if _is_pair(group):
            continue
        best = _best_alternatives(index, group, depth, n)  # each node's best alternative
        for nid, value in best.items():
            scores[nid] = get(nid, 0.0) + value
        for term, factor in group:
            if factor == 1.0 and term in in_pairs:
                earned.setdefault(term, best)
    for group in pairs:
        first, second = group[0][0].split(" ", 1)
        words = (earned.get(first, _NONE), earned.get(second, _NONE))
        for nid, value in _best_alternatives(index, group, depth, n).items():
            more = value - words[0].get(nid, 0.0) - words[1].get(nid, 0.0)
            if more > 0:
                scores[nid] = get(nid, 0.0) + more
    return scores


_NONE: dict[str, float] = {}


def _is_pair(group: Concept) -> bool:
    return len(group) == 1 and is_bigram(group[0][0])


def _best_alternatives(index: SearchIndex, group: Concept, depth: int | None, n: int) -> dict[str, float]:
    """Per node, the best alternative's RRF share of a concept (its first `depth` holders of each)."""
    best: dict[str, float] = {}
    held = best.get
    for term, factor in group:
        weight = term_weight(index.df(term), n) * factor  # every term here is held (concepts)
        # An alternative's deep holders add little (factor / (60 + rank)): scan fewer of them.
        scan = depth if factor == 1.0 or depth is None else min(depth, C.RECALL_ALT_DEPTH)
        order = index.ordered(term, None if scan is None else scan + 1)
        if len(group) == 1:
            return {nid: weight * share for nid, share in zip(order, rrf.weights(len(order)))}
        for nid, share in zip(order, rrf.weights(len(order))):
            value = weight * share
            if value > held(nid, 0.0):
                best[nid] = value
    return best


def concept_hits(index: SearchIndex, terms: Terms, seen: AbstractSet[str], limit: int,
                 depth: int | None = None, words: Mapping[str, int] | None = None) -> list[Hit]:
    """The best `limit` nodes for the query's concepts, with what the gates read of each."""
    groups = concepts(index, terms, words)
    scores = score_concepts(index, groups, depth)
    if limit < len(scores):  # the limit-th best score, then everything tied with it: ties go by id
        floor = heapq.nlargest(limit, scores.values())[-1]
        best = [nid for nid, score in scores.items() if score >= floor]
    else:
        best = list(scores)
    best.sort(key=lambda nid: (-scores[nid], nid))
    del best[limit:]
    n = index.size
    hits = []
    for nid in best:
        matched, rarest, titled = 0, 0.0, False
        idf_sum, titled_terms, pair = 0.0, 0, False
        named: set[str] = set()
        for group in groups:
            hit_here = False
            for term, factor in group:
                packed = index.postings[term].get(nid)
                if packed is None:
                    continue
                named.add(term)
                titled = titled or in_title(packed)
                idf = base_idf(index.df(term), n) * factor
                rarest = max(rarest, idf)
                if not hit_here:  # the concept's first term the node holds
                    titled_terms += in_title(packed)
                    if is_bigram(term):
                        pair = True
                    else:
                        idf_sum += idf
                hit_here = True
            matched += hit_here and not is_bigram(group[0][0])
        hits.append(Hit(nid, scores[nid], matched, rarest, titled, nid in seen, id_share(index, nid, named),
                        idf_sum, titled_terms, pair))
    return hits


def id_share(index: SearchIndex, node_id: str, named: AbstractSet[str]) -> float:
    """How much of a node's id the query names, each id word weighed by its IDF: a prompt that says
    "metric routing" names all of metric-routing-rule's telling words, one that says "metric" a third."""
    n = index.size
    total = got = 0.0
    for term in set(analyse(node_id)[0]):
        df = index.df(term)
        if df:
            weight = base_idf(df, n)
            total += weight
            if term in named:
                got += weight
    return got / total if total else 0.0
