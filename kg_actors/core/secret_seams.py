"""Notes (or a gist) that join into a key only where each is a placeholder or prose (core/secrecy.py asks).

A key cut across two notes has a random piece on one side at least. An .env.example's lines
(`STRIPE_SECRET_KEY=sk_test_xxxx…` then `JWT_SECRET=changeme`; `xoxb-your-bot-token` then `ghp_your_token_here`)
and prose naming prefixes (`glpat- personal access tokens …` then `glrt- runner tokens …`) have none: every word
of both is a word, a short number, a bare prefix or a placeholder, so their seam makes no key, whatever shape
the glued text takes.
"""

from __future__ import annotations

import re

from .secret_lookalikes import placeholder

_WORD = re.compile(r"[A-Za-z]+(?:[-_.][A-Za-z]+)*[-_.]?|\d{1,6}")
_URL_PARTS = re.compile(r"[/:@?&#]+")
_TRIM = "\"'`.,;:!?()[]{}<>"


def plain_join(parts: tuple[str, ...]) -> bool:
    """Whether texts glued into one (notes, a field's lines, a state's items) are each all words or placeholders."""
    return len(parts) >= 2 and all(_plain(text) for text in parts)


def prose(text: str) -> bool:
    """Whether a text is all words, short numbers or placeholders: no random piece of a key in it."""
    return _plain(text)


def _plain(text: str) -> bool:
    return all(_plain_word(word) for word in text.split())


def _plain_word(word: str) -> bool:
    name, _, value = word.strip(_TRIM).rpartition("=")  # `JWT_SECRET=changeme`: its value
    value = value.strip(_TRIM) or name.rstrip("=")  # `bG95…TQ=`: base64's padding, no empty value
    # A URL's parts each (`postgres://user:password@localhost:5432/app_dev`): words, no random piece.
    return not value or placeholder(value) or all(not part or _WORD.fullmatch(part) is not None
                                                  for part in _URL_PARTS.split(value))


# A word cut by a seam into two words may still be cut: a sliver of one letter left on a side (`docke` then
# `r login …`) is no word of prose, save these.
_SLIVERS = frozenset(("a", "i"))
_LETTERS = re.compile(r"[A-Za-z]+(?:[-_.][A-Za-z]+)*[-_.]?")  # a word of prose, or a name made of words
_LEFT, _RIGHT = re.compile(r"[A-Za-z0-9_]{1,64}\Z"), re.compile(r"[A-Za-z0-9_]{1,64}")


def cut_at(text: str, seams: tuple[int, ...], words: tuple[str, ...]) -> tuple[int, ...]:
    """The seams of `text` (fields or lines glued) that cut a word apart rather than fall between two: the
    characters on both sides are a word's, and neither side is a word of letters (`-p9r` then `iwmfYSbA6coI`), or a side
    is a sliver (`docke` then `r`), or the glued word holds one of `words` (a secret's word: `pass` then `word`) neither
    side holds. Two words a seam falls between (`admin` then `Change it …`) are read apart, and so is a flag
    (`mysql -u root -p` then `updated: …`): its letter is a whole option, no sliver of a word."""
    out = []
    for at in seams:
        left, right = _LEFT.search(text[max(0, at - 64):at]), _RIGHT.match(text, at)
        if left is None or right is None:
            continue
        a, b = left.group(0), right.group(0)
        flag = len(a) == 1 and text[max(0, at - 2):at - 1] == "-"
        short = a if len(a) == 1 and a.isalpha() and not flag else b if len(b) == 1 and b.isalpha() else None
        if not _LETTERS.fullmatch(a) and not _LETTERS.fullmatch(b) or short is not None and short.lower() not in _SLIVERS:
            out.append(at)  # a random run cut (`-p9r` then `iwmf…`, `781` then `a30d…`), or a word (`docke` then `r`)
            continue
        glued = (a + b).lower()
        if any(w in glued and w not in a.lower() and w not in b.lower() for w in words):
            out.append(at)
    return tuple(out)


def glued_only_at(text: str, seams: tuple[int, ...], cut: tuple[int, ...]) -> str:
    """`text` with a space at each seam that cuts no word: a word cut at one seam is read whole, and the words
    another seam falls between stay apart (`GITHUB_TOK` then `EN … GITHUB_TOKEN` then `updated: …`)."""
    pieces, start = [], 0
    for at in seams:
        pieces.append(text[start:at])
        if at not in cut:
            pieces.append(" ")
        start = at
    return "".join((*pieces, text[start:]))
