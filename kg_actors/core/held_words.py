"""A query's Chinese runs as the words the graphs hold (cjk.held_segments), cut at search time.

A Chinese clause is one run ("线上发布出问题了"), and looked up whole it finds nothing unless a lesson
holds that very clause. The indexes a query is about to be looked up in know every stretch their
lessons hold: such a run is cut into the longest of those, each then a term (kg_search) or a prompt
word (recall) of its own. Terms of the other scripts, and runs the graphs hold whole, stay as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from . import cjk, constants as C
from .search import SearchIndex
from .terms import Terms


def holder(indexes: Iterable[SearchIndex]) -> Callable[[str], bool]:
    """Whether any of `indexes` holds a term."""
    held = tuple(indexes)
    return lambda term: any(index.df(term) > 0 for index in held)


def _cut(words: Iterable[str], held: Callable[[str], bool]) -> dict[str, None]:
    out: dict[str, None] = {}
    for word in words:
        for part in cjk.held_segments(word, held) if cjk.is_han(word) else (word,):
            out.setdefault(part)
    return out


def cut_terms(terms: Terms, indexes: Iterable[SearchIndex]) -> Terms:
    """kg_search's terms with each Chinese run in the words the graphs hold (a run none of them does
    finds nothing as it is, and goes)."""
    if not any(map(cjk.is_han, terms.unigrams)):
        return terms
    return Terms(tuple(_cut(terms.unigrams, holder(indexes)))[: C.SEARCH_MAX_UNIGRAMS], terms.bigrams)


def cut_words(words: list[str], indexes: Iterable[SearchIndex]) -> list[str]:
    """A prompt's search words with each Chinese run in the words the graphs hold, each a word."""
    if not any(map(cjk.is_han, words)):
        return words
    return list(_cut(words, holder(indexes)))[: C.RECALL_MAX_TERMS]
