"""A second opinion on prompt recall's hits: how likely each new candidate is to be what the prompt needs.

The hand-written gates (recall.py) read one or two numbers of a hit at a time: its score against a bar,
its evidence, whether it opens the channel. Whether a hit is what a prompt is about shows in several at
once (a lesson met on two rare words of its id by a short question, against one met on a tool's name in a
long task), so a logistic model over the numbers the search already has of each candidate, and its likeness in
meaning to the prompt (core/meaning.py), weighs them together. It was fitted on the blind-written memories of
bench/ (bench/train_recall_gate.py), judged on memories it did not see. It drops a new hit the gates chose that it
thinks unlikely wanted (RECALL_GATE_VETO), brings its likeliest candidate where the gates chose nothing
(RECALL_GATE_BRING), and one beside the hits they chose (RECALL_GATE_BESIDE): recall.decide; bench/RESULTS-recall.md,
pre-registration 28.

FEATURES and their meaning are the model's: change one and refit (the weights name what they were fitted on).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from . import constants as C
from .model import GraphReader
from .recall_bars import chance_scale, evidence, rank, strong
from .recall_gate_weights import BIAS, LIKE_UNKNOWN, RANGES, WEIGHTS
from .search import Hit, SearchIndex
from .terms import analyse

Ref = tuple[str, str]

FEATURES = (
    "score", "ratio_thr", "ratio_best", "lead", "rank", "unseen_rank", "rrank", "matched", "idf", "title",
    "id_share", "nw", "ask", "cov", "evidence", "strong", "top_seen", "q", "rankscore", "idsum", "bigram",
    "titled_terms", "over", "gap12", "id_df", "id_min_df", "gist_len", "notes", "like",
)


def probability(values: Sequence[float]) -> float:
    """The model's probability that a candidate with these FEATURES values is wanted (each value held
    within the range it took in training)."""
    z = BIAS + math.fsum(w * min(max(v, lo), hi) for w, v, (lo, hi) in zip(WEIGHTS, values, RANGES, strict=True))
    return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0


def candidates(hits: list[tuple[str, Hit]], views: Mapping[str, tuple[GraphReader, SearchIndex]],
               n_terms: int, n_words: int, ask_scale: float, question: bool,
               like: Callable[[Ref], float | None] | None = None) -> list[tuple[Ref, list[float]]]:
    """Each new candidate among the ranked `hits` (unseen, with a gist) and its FEATURES values.

    `n_terms`: the prompt's terms; `n_words`: its search words (the query's unigrams); `ask_scale`:
    asks.ask_scale of its text; `question`: whether the text holds a question mark; `like`: a candidate's
    likeness in meaning to the prompt (core/meaning.py), None where it cannot be told (no table): then the
    model reads the mean likeness of its training, which says nothing either way."""
    if not hits:
        return []
    scale = chance_scale(n_words) * ask_scale
    bar = (C.RECALL_SCORE_MULTI if n_terms >= 2 else C.RECALL_SCORE_SINGLE) * scale
    best = hits[0][1].score or 1.0
    top_seen = sum(h.seen for _, h in hits[:3])
    by_rank = sorted(range(len(hits)), key=lambda i: -rank(hits[i][1]))
    rrank = {i: r for r, i in enumerate(by_rank)}
    over = sum(1 for _, h in hits if not h.seen and h.score >= bar)
    unseen = [h for _, h in hits if not h.seen]
    if len(unseen) > 1:
        gap12 = (unseen[0].score - unseen[1].score) / bar
    else:
        gap12 = unseen[0].score / bar if unseen else 0.0
    out: list[tuple[Ref, list[float]]] = []
    new_before = 0
    for r, (lvl, h) in enumerate(hits):
        graph, index = views[lvl]
        node = graph.nodes.get(h.node_id)
        if h.seen or node is None or not node.gist:
            new_before += not h.seen
            continue
        following = hits[r + 1][1].score if r + 1 < len(hits) else 0.0
        id_dfs = [df for df in (index.df(t) for t in set(analyse(h.node_id)[0])) if df]
        values = [h.score, h.score / bar, h.score / best, (h.score - following) / bar, r, new_before, rrank[r],
                  h.matched_terms, h.max_term_idf, float(h.title_match), h.id_share, n_words, ask_scale,
                  h.matched_terms / max(1, n_words), float(evidence(h)), float(strong(h, n_terms, scale)),
                  top_seen, float(question), rank(h) / bar, h.idf_sum, float(h.pair_matched), h.titled_terms,
                  over, gap12, sum(id_dfs) / len(id_dfs) if id_dfs else 0.0, min(id_dfs) if id_dfs else 0.0,
                  len(node.gist), len(node.notes), _likeness(like, (lvl, h.node_id))]
        out.append(((lvl, h.node_id), [float(v) for v in values]))
        new_before += 1
    return out


def _likeness(like: Callable[[Ref], float | None] | None, ref: Ref) -> float:
    value = like(ref) if like is not None else None
    return LIKE_UNKNOWN if value is None else value


def standing(chosen_new: list[Ref], rated: Mapping[Ref, float]) -> list[Ref]:
    """The gates' new hits the model lets stand: all but those it gives less than RECALL_GATE_VETO.
    A hit the model did not rate stands."""
    return [ref for ref in chosen_new if rated.get(ref, 1.0) >= C.RECALL_GATE_VETO]
