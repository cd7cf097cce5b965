"""A key cut in two or three across lines, notes or a state's items with words around each part ("first half
AKIAZ7QRT4", "second half XKLM2PW9BN"; "part one npm_…", "part two …", "part three …"; or a note between them):
the seam joins `AKIAZ7QRT4` to `second`, and a key of a fixed length or alphabet is no longer read in it. So the
word of the first part that may start a key is read glued to a word of each next part that may continue one, for
core/secret_joins.py to hand to the fixed shapes of keys.

Which words may start a key is a rule of the word, not of a provider: one opening with a provider's prefix
(`npm_…`, `dckr_pat_…`, `AKIA…`) whose rest is no word of prose (`sk-learn` is a package), or one random as a
key's part is (letters and digits mixed, both cases strewn: `SK72a2baef…`, `6458370709:AAe0zk…`,
`MDWxscOax5UF…`, `https://hooks.slack.com/services/T5KKI5`); the words that continue one are random so too.
Ordinary text has few such words and pairs none, and a glued text is read only when it holds what a key's shape
must (a provider's prefix or gate, a Discord token's two dots): each part's words are few and read once."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from itertools import product

import attrs

from .secret_anchors import words_in_name
from .secret_names import scrambled
from .secret_shapes import GATES, SHAPES

PAIR_WORDS_MAX = 8  # random words of a later part tried after a head: a key's part is near its start
_HEADS_MAX = 2  # the last words of a part that may start a key: a part ends the part, or nearly
_MIDDLE_WORDS_MAX = 2  # words of a part between the first and the last tried as the key's middle
_SEAM_CHARS = 512
_WORD_MAX = 256

_BLIND = {kind for kind, pattern in SHAPES if pattern.flags & re.IGNORECASE}
# A word opening with a prefix that starts a key (`AKIA`, `npm_`, `SG.`); not one found inside a key (`k_live_`).
_GATED = re.compile(r"(" + "|".join(sorted((re.escape(g) for kind, gates in GATES.items() if kind not in _BLIND
                                            for g in gates if len(g) >= 3 and g[0].isalnum()), key=len, reverse=True))
                    + r")")
# What a glued text must hold for a key's shape to be read in it: a gate of a shape, or a Discord token's dots.
_ANY_GATE = re.compile("|".join(re.escape(g) for kind, gates in GATES.items() if kind not in _BLIND for g in gates))
_ANY_BLIND_GATE = re.compile("|".join(re.escape(g) for kind, gates in GATES.items() if kind in _BLIND for g in gates))
_PROSE_BODY = re.compile(r"[a-z]{2,}|[A-Z][a-z]+")  # `sk-learn`, `ghp_Tokens`: a prefix's word of prose
_CASE_TURN = re.compile(r"[a-z][A-Z]")
_DIGIT, _LETTER = re.compile(r"[0-9]"), re.compile(r"[A-Za-z]")
_TRIM = "\"'`()[]{}<>,;"


@attrs.frozen
class Words:
    """What a part offers a key cut across parts, read once: its last words that may start a key, its random
    words, and those near its start."""

    heads: tuple[str, ...]
    randoms: tuple[str, ...]
    first: tuple[str, ...]


_NONE = Words((), (), ())
# A word random as a key's part has a letter beside a digit or a small letter before a capital; prose mostly not.
_MAYBE = re.compile(r"[A-Za-z][0-9]|[0-9][A-Za-z]|[a-z][A-Z]")


def words_of(text: str) -> Words:
    if _MAYBE.search(text) is None and _GATED.search(text) is None:
        return _NONE  # prose, the most of any text: read once, by two scans
    tail = _words(text[-_SEAM_CHARS:])[-_HEADS_MAX * 4:]
    start = [w for w in _words(text[:_SEAM_CHARS]) if _random_part(w)][:PAIR_WORDS_MAX]
    randoms = start if len(text) <= _SEAM_CHARS else [w for w in _words(text) if _random_part(w)]
    return Words(tuple(w for w in tail if _may_start(w))[-_HEADS_MAX:], tuple(randoms), tuple(start))


def chained(parts: Sequence[Words]) -> Iterator[tuple[str, str]]:
    """Each key a run of parts (two to four, in order) may make with words around each: (the glued text, the
    same with a space at each seam). The first part gives one of its last words that may start a key, each part
    between one of its random words, the last one of its first random words."""
    if not parts[0].heads or not parts[-1].first:
        return
    middles = [part.randoms[-_MIDDLE_WORDS_MAX:] for part in parts[1:-1]]
    for head in parts[0].heads:
        for middle in product(*middles):
            for word in parts[-1].first:
                glued = head + "".join(middle) + word
                if _ANY_GATE.search(glued) or _ANY_BLIND_GATE.search(glued.lower()) or glued.count(".") >= 2:
                    yield glued, " ".join((head, *middle, word))


def _words(text: str) -> list[str]:
    return [w for w in (word.strip(_TRIM) for word in text.split()) if 0 < len(w) <= _WORD_MAX]


def _may_start(word: str) -> bool:
    """Whether a word may start a key: it opens with a provider's prefix and its rest is no word of prose
    (`AKIAET`, `npm_vXEw…`; not `sk-learn`), or it is random as a key's part."""
    gated = _GATED.match(word)
    if gated is not None:
        body = word[gated.end():]
        return not words_in_name(body) and (_random_part(body) or not _PROSE_BODY.search(body))
    if "://" in word and _GATED.search(word) is not None:
        return True  # a URL that is its own key, cut (`https://hooks.slack.com/services/TKQDIX`, then its rest)
    return _random_part(word)


def _random_part(word: str) -> bool:
    """Letters and digits mixed (`Z7QRT4`, `XKLM2PW9BN`), or both cases strewn as no name has them (`VnCPsdAl`:
    two turns from small to capital, where `GitHub` or `OpenAI` have one)."""
    if word.isalpha() and (word.islower() or word[1:].islower()):
        return False  # a word of prose, the most of any text: no test below can hold
    return (((_DIGIT.search(word) is not None and _LETTER.search(word) is not None) or len(_CASE_TURN.findall(word)) >= 2
             or scrambled(word, 8)) and not words_in_name(word))  # `expiry-30d-policy`, `test-12`: a name
