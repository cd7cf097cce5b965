"""The gates' arithmetic for prompt recall: the score bars, what counts as evidence, what opens the
channel, and the order of hits that passed (recall.py decides with these; recall_gate.py reads them too).
"""

from __future__ import annotations

from . import constants as C
from .search import Hit


def evidence(hit: Hit) -> bool:
    """More than a chance word: two prompt terms, a near-unique term, or a term in its own id or gist."""
    return hit.matched_terms >= 2 or hit.max_term_idf >= C.RECALL_MIN_SOLO_IDF or hit.title_match


def names_its_id(hit: Hit) -> bool:
    """The prompt names every word of the hit's id (by IDF; a word's stem family counts). What a prompt
    of one word needs: one everyday word ("database", "pool") meets some lesson's gist by chance, and
    says too little of what is asked; one that is a lesson's id asks for that lesson."""
    return hit.id_share >= 1.0 - 1e-9


def rank(hit: Hit) -> float:
    """What orders the hits that passed the gates: the score, raised for each further prompt term
    matched. Fused ranks give a node first for one word as much as one matching three words lower
    down; what the prompt is about is the latter more often (issue #12: "what cutting a new version
    involve, is there a script" picked a lesson on one word of its id over the release script's).
    A hit whose id the prompt names ranks higher too, by its id_share (recall_mixed5..8: "a metric
    routing entry for the checkout_latency series" picked a lesson on latency over metric-routing-rule).
    The gates still read the plain score, so this never opens the channel."""
    return hit.score * (1 + C.RECALL_TERM_BONUS * (hit.matched_terms - 1)) * (1 + C.RECALL_ID_BONUS * hit.id_share)


def strong(hit: Hit, n_terms: int, scale: float) -> bool:
    """Enough to open the channel: named in its id or gist by two prompt terms (by the one, for a
    one-word prompt), or scoring more than any one term can give (1/60 at rank 0), times the
    prompt's chance_scale."""
    return (hit.title_match and hit.matched_terms >= min(2, n_terms)) or hit.score >= C.RECALL_SCORE_STRONG * scale


def chance_scale(n_words: int, per_word: float | None = None) -> float:
    """How much more score a prompt's hit needs for each search word beyond the first few.

    Every word of a prompt is a chance to meet some node near the top of that word's holders: a
    long, chatty prompt puts two or three everyday words ("build", "default", "change") into some
    lesson's id or gist by chance, and fused ranks add them up. What a hit must score to be more
    than chance grows with the words the prompt brings: 5% more for each word over six (a prompt
    of 26 search words asks twice a short one's score)."""
    step = C.RECALL_CHANCE_PER_WORD if per_word is None else per_word
    return 1.0 + step * max(0, n_words - C.RECALL_CHANCE_FREE_WORDS)


def multi_bar(n_words: int) -> tuple[float, float]:
    """The score bar of a prompt of several terms and the chance scale it was drawn with.

    Two curves, and the lower holds: the plain bar rising 5% a search word over six, and a bar of
    few words that starts lower and climbs faster (RECALL_SCORE_FEW, RECALL_CHANCE_FEW_PER_WORD;
    they meet near 14 words). A prompt of a few words that paraphrases its lesson meets it with
    one or two terms at modest ranks, and in so few words chance has little room; over 14 words
    the plain bar's slope holds (issue #12: pre-registration 23, bench/RESULTS-recall.md)."""
    plain, few = chance_scale(n_words), chance_scale(n_words, C.RECALL_CHANCE_FEW_PER_WORD)
    if C.RECALL_SCORE_FEW * few < C.RECALL_SCORE_MULTI * plain:
        return C.RECALL_SCORE_FEW * few, few
    return C.RECALL_SCORE_MULTI * plain, plain
