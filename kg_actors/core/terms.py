"""Words into search terms: one tokenizer for queries, node fields and prompts.

A token is a whitespace-separated chunk; its parts are its runs of letters and
digits (so `claude.md-cleanup` gives claude, md, cleanup), each stemmed with
Snowball English so word forms meet (schedule ≈ scheduling ≈ scheduler). A
token of several parts also stands for itself as an exact "composite" term.
Adjacent stems pair into bigrams `"a b"`; the space keeps them apart from
unigrams in one term namespace (stems and composites never hold a space).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any
from functools import lru_cache

import attrs
import snowballstemmer

from . import cjk, constants as C

# The spec splits on ./_- only; token matching must also see past prose
# punctuation ("window;", "(scheduler)"), which substring matching never had
# to. Every non-alphanumeric separates parts; ./_- stay the common case.
_EDGES = re.compile(r"^[\W_]+|[\W_]+$")
_SEPARATORS = re.compile(r"[\W_]+")

STOPWORDS = frozenset("""
a about above after again against all also am an and any are as at be because been before being
below between both but by can could did do does doing done down during each else few for from
further get got had has have having he her here hers him his how i if in into is it its itself
just let like make may me might more most much must my no nor not now of off on once only or other
our ours out over own please same shall she should so some such than that the their theirs them
then there these they this those through to too under until up upon us use used using very via
want was we were what when where which while who whom why will with within without would yes yet
you your yours okay ok thanks thank hey hi hello sure maybe really still even well need needs
""".split())

# Idle stemmers: a Snowball stemmer keeps state while it works, so each call takes one of its own
# (index builds run in a worker thread beside the loop). list.pop and append are atomic.
_idle_stemmers: list[Any] = []


@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """Snowball English stem of a lowercase word (cached: vocabularies repeat)."""
    try:
        stemmer = _idle_stemmers.pop()
    except IndexError:
        stemmer = snowballstemmer.stemmer("english")
    try:
        stemmed: str = stemmer.stemWord(word)
    finally:
        _idle_stemmers.append(stemmer)
    return stemmed


STOP_STEMS = frozenset(stem(w) for w in STOPWORDS) | STOPWORDS


def is_stopword(term: str) -> bool:
    return term in STOP_STEMS


def _file_name(token: str) -> str:
    """`src/x/rate_limit.py:10-20` → `rate_limit.py`: what a path is called."""
    return _EDGES.sub("", token.rsplit("/", 1)[-1].split(":", 1)[0])


@lru_cache(maxsize=1 << 17)
def _token(raw: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """One lowercase token's stems and composites (cached: indexing repeats words)."""
    token = _EDGES.sub("", raw)
    pieces = [p for p in _SEPARATORS.split(token) if p]
    stems = tuple(stem(p) for p in pieces if len(p) >= 2)
    if len(pieces) < 2:
        return stems, ()
    composites = [token]
    if "/" in token:
        name = _file_name(token)
        if name != token and len(_SEPARATORS.split(name)) > 1:
            composites.append(name)
    return stems, tuple(composites)


# A hump inside a word: getUserByEmail, HorizontalPodAutoscaler, XMLHttpRequest (not a path's).
HUMP = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def _word(raw: str, index: bool = False) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A token as written: a camelCase identifier also counts by its parts (like snake_case does),
    with the whole identifier kept as its composite, so "autoscaler" finds HorizontalPodAutoscaler.
    Most tokens have no capital: they go straight to the one shared cache. Chinese, Japanese and
    Korean in it count by cjk.py's words: every stretch of them in a node (`index`), the words of a query."""
    if cjk.has_any(raw):
        return _mixed(raw, index)
    lowered = raw.lower()
    if raw == lowered or "/" in raw:
        return _token(lowered)
    return _camel(raw, lowered)


def _mixed(raw: str, index: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A token holding Chinese, Japanese or Korean: its Latin parts as any token's, its runs in those
    scripts as cjk.py's terms (whole terms, never paired: they are no stems). Uncached, as cjk.indexed is."""
    stems: list[str] = []
    composites: list[str] = []
    for i, part in enumerate(cjk.SPLIT.split(raw)):
        if i % 2:  # the split's captured group: a run of those scripts
            composites += cjk.indexed(part) if index else cjk.asked(part)
        elif part:
            part_stems, part_composites = _word(part)
            stems += part_stems
            composites += part_composites
    return tuple(stems), tuple(composites)


@lru_cache(maxsize=1 << 14)
def _camel(raw: str, lowered: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    if not HUMP.search(raw):
        return _token(lowered)
    stems, composites = _token(HUMP.sub("_", raw).lower())
    whole = stem(_EDGES.sub("", lowered))  # as the word alone, lowercase, is analysed: either form finds it
    return stems, (whole, *(c for c in composites[1:] if c != whole))


# A one-character word: a digit or a letter standing alone, or as a kebab/snake part ("topic 5", "plan-b",
# "node_7"), never a piece of "e.g." or "user's". Stems take two characters or more, so without these a query's
# "5" was dropped. Articles, "I" and the letters contractions leave ("don t") say nothing.
_SHORT_SPLIT = re.compile(r"[-_]+")
_SHORT_UNSAID = frozenset("aistdm")
# A letter named with `++` or `#` (c++, c#, f#) is a language: a term of its own, not the letter ("c++" found
# "the C build" first). Prose punctuation around it goes, as around any word.
_SHORT_NAMED = re.compile(r"[^\w+#]*([a-z](?:\+\+|#))[^\w+#]*")


@lru_cache(maxsize=1 << 15)
def _shorts(lowered: str) -> tuple[str, ...]:
    out = []
    for part in _SHORT_SPLIT.split(lowered):
        if named := _SHORT_NAMED.fullmatch(part):
            out.append(named.group(1))
            continue
        part = _EDGES.sub("", part)
        if len(part) == 1 and part.isascii() and part.isalnum() and part not in _SHORT_UNSAID:
            out.append(part)
    return tuple(dict.fromkeys(out))


def analyse(text: str, index: bool = False, short: bool = False) -> tuple[list[str], list[str]]:
    """The stems of `text` in order, and its composite tokens (`index`: as a node's field is indexed), with its
    one-character words among them (`short`: search's, never recall's, which is tuned without them)."""
    stems: list[str] = []
    composites: list[str] = []
    for raw in text.split():
        token_stems, token_composites = _word(raw, index)
        stems += token_stems
        composites += token_composites
        if short:
            composites += _shorts(raw.lower())
    return stems, composites


# Function words never pair: "the scheduler" only re-counts "scheduler", and
# such pairs would be most of the index (and its largest postings). Words that
# change meaning in a pair ("not null", "use after free") are not in this list.
_UNPAIRED = frozenset("""
a an the of to in on at by for from with as into onto over under about is are was were be been
being am it its this that these those and or but if then so than he she they we you i me my our
your his her their them us him do does did has have had will would can could should shall may
might must there here which who whom whose what when where why how
""".split())
_UNPAIRED_STEMS = frozenset(stem(w) for w in _UNPAIRED)


def surface_forms(text: str) -> dict[str, str]:
    """Each unigram term of `text` → the first word that produced it (to show people)."""
    forms: dict[str, str] = {}
    for raw in text.split():
        lowered = raw.lower()
        camel = "/" not in raw and HUMP.search(raw) is not None
        token = _EDGES.sub("", HUMP.sub("_", raw).lower() if camel else lowered)
        for piece in _SEPARATORS.split(token):
            if len(piece) >= 2:
                forms.setdefault(stem(piece), piece)
        for i, composite in enumerate(_word(raw)[1]):
            # A camelCase word's composite is its stem: show the word as written, lowercase.
            forms.setdefault(composite, _EDGES.sub("", lowered) if camel and i == 0 else composite)
    return forms


def bigrams(stems: list[str]) -> Iterator[str]:
    """Adjacent stem pairs; a repeated, tiny or function-word pair says nothing."""
    for a, b in zip(stems, stems[1:]):
        if (
            a != b and len(a) + len(b) >= C.SEARCH_BIGRAM_MIN_CHARS
            and a not in _UNPAIRED_STEMS and b not in _UNPAIRED_STEMS
        ):
            yield f"{a} {b}"


def is_bigram(term: str) -> bool:
    return " " in term


@attrs.frozen
class Terms:
    unigrams: tuple[str, ...]
    bigrams: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.unigrams or self.bigrams)

    def all(self) -> tuple[str, ...]:
        return self.unigrams + self.bigrams


def query_terms(text: str, short: bool = False) -> Terms:
    """A query's terms: unigrams in first-seen order, then adjacent pairs, capped (`short`: with its
    one-character words, as a search asks; recall does not)."""
    unigrams: dict[str, None] = {}
    pairs: dict[str, None] = {}
    previous: list[str] = []
    # Word by word so a huge query stops as soon as both caps are full.
    for word in text.split():
        stems, composites = analyse(word, short=short)
        for term in stems + composites:
            if len(unigrams) < C.SEARCH_MAX_UNIGRAMS:
                unigrams.setdefault(term)
        for pair in bigrams(previous[-1:] + stems):
            if len(pairs) < C.SEARCH_MAX_BIGRAMS:
                pairs.setdefault(pair)
        if stems:
            previous = stems
        if len(unigrams) >= C.SEARCH_MAX_UNIGRAMS and len(pairs) >= C.SEARCH_MAX_BIGRAMS:
            break
    return Terms(tuple(unigrams), tuple(pairs))


def field_counts(fields: Iterable[tuple[int, bool, Iterable[str]]]) -> tuple[dict[str, int], set[str]]:
    """Weighted term counts over (weight, is_title, texts) fields, and the title terms.

    Each text is its own run: a pair never bridges two notes or two touches.
    """
    counts: dict[str, int] = {}
    title: set[str] = set()
    for weight, is_title, texts in fields:
        for text in texts:
            stems, composites = analyse(text, index=True, short=True)
            for term in (*stems, *composites, *bigrams(stems)):
                counts[term] = counts.get(term, 0) + weight
                if is_title:
                    title.add(term)
    return counts, title
