"""Prompt words a hit holds only inside a compound of other words: "mode" in StrictMode for "dark mode".

Search counts a compound's parts (StrictMode is strict, mode; WebGL is web, gl) so that "autoscaler"
finds HorizontalPodAutoscaler. For a rare word that is right. For a generic one it is chance: a prompt
about dark mode for the web UI met a lesson on React's StrictMode and WebGL on "mode" and "web",
words the lesson never says as words of its own. A word is borrowed so when the node holds it only
inside compounds, the word is common in the graph (under RECALL_MIN_SOLO_IDF), and the node does not
hold the very pair the prompt says around it ("strict mode" meets StrictMode). A hit whose every
matched word is borrowed is no candidate (recall.decide); one word of its own and it is left as
search ranked it (a narrower rule changed no decision of bench/'s 48 splits but this kind).
"""

from __future__ import annotations

from collections.abc import Mapping

from . import constants as C
from .model import GraphReader, Node
from .search import Hit, SearchIndex, base_idf, indexed_notes
from .search_concepts import Concept, concepts
from .terms import Terms, analyse, is_bigram

Ref = tuple[str, str]


class Borrowed:
    """Whether a hit holds every prompt word it matched only inside compounds of other words. Asked by the
    gates for the few hits that clear the score bar and show evidence, so a prompt reads the text of a
    handful of nodes at most."""

    def __init__(self, views: Mapping[str, tuple[GraphReader, SearchIndex]], query: Terms,
                 words: Mapping[str, int] | None = None):
        self.views, self.query, self.words = views, query, words
        self._groups: dict[str, list[Concept]] = {}

    def __call__(self, level: str, hit: Hit) -> bool:
        if hit.max_term_idf >= C.RECALL_MIN_SOLO_IDF:
            return False  # a rare word matched: not chance, whatever its form
        graph, index = self.views[level]
        node = graph.nodes.get(hit.node_id)
        if node is None:
            return False
        if level not in self._groups:
            self._groups[level] = [g for g in concepts(index, self.query, self.words) if not is_bigram(g[0][0])]
        n, nid = index.size, hit.node_id
        held = [found for found in ([t for t, _ in g if _holds(index, t, nid)] for g in self._groups[level]) if found]
        if not held:
            return False
        alone, inside = word_forms(node)
        return all(_borrowed(t, alone, inside, index, n, nid, self.query) for terms in held for t in terms)


def _borrowed(term: str, alone: set[str], inside: set[str], index: SearchIndex, n: int, nid: str,
              query: Terms) -> bool:
    if term in alone or term not in inside or base_idf(index.df(term), n) >= C.RECALL_MIN_SOLO_IDF:
        return False
    # The prompt's own pair around the word, held by the node: the same compound, not another one.
    return not any(term in pair.split() and _holds(index, pair, nid) for pair in query.bigrams)


def _holds(index: SearchIndex, term: str, nid: str) -> bool:
    posting = index.postings.get(term)
    return posting is not None and posting.get(nid) is not None


def word_forms(node: Node) -> tuple[set[str], set[str]]:
    """The stems a node says as words of their own (its id's words count so), and those it holds
    inside a compound token (camelCase, snake_case, dotted, hyphenated, a path)."""
    alone = set(analyse(node.id)[0])
    inside: set[str] = set()
    for text in (node.gist, *indexed_notes(node.notes), *node.touches):
        for raw in text.split():
            stems = analyse(raw)[0]
            (alone if len(stems) == 1 else inside).update(stems)
    return alone, inside
