"""The texts a key split across lines or notes makes whole again, for core/secrecy.py to read.

A gist's line breaks are folded into spaces when it is stored (plain_text.fold_gist), so a key written across
two lines is stored as two words: the folded gist is read as stored, and each field with its line breaks
(and the blanks around them) taken out. Two consecutive notes are read joined without a separator, at their
seam only: the end of the one and the start of the other. Joined texts are read for the fixed shapes of keys
alone (a provider's prefix, a JWT, a URL's password, a random value after `password=`), so that ordinary
text does not start matching where two lines meet.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import attrs

from .plain_text import fold_gist

_BREAK = re.compile(r"[ \t]*[\r\n\u2028\u2029]+[ \t]*")  # a line break with the blanks around it
_BLANK = re.compile(r"\s")
SEAM_CHARS = 512  # of each side of two notes' seam: a key is shorter, and a long note costs no more


@attrs.frozen
class Joined:
    field: str  # named as the refusal says it
    text: str
    as_stored: bool  # the text as stored (the folded gist): read with every rule, not the shapes alone


def joined_texts(gist: object, notes: list[object] | None, name: str = "notes") -> Iterator[Joined]:
    """The texts a node's (or an edge's) fields make whole: a gist as stored and without its line breaks, a
    note without its line breaks, the seam of the gist and the first note and of each two consecutive notes."""
    parts: list[tuple[str, str]] = []
    if isinstance(gist, str) and gist:
        folded, changed = fold_gist(gist)
        if changed:
            yield Joined("gist", folded, True)
            yield Joined("gist", _BREAK.sub("", gist), False)
        parts.append(("gist", gist))
    for i, note in enumerate(notes or ()):
        if isinstance(note, str) and note:
            unbroken = _BREAK.sub("", note)
            if unbroken != note:
                yield Joined(f"{name}[{i}]", unbroken, False)
            parts.append((f"{name}[{i}]", note))
    for (first, a), (second, b) in zip(parts, parts[1:]):
        yield Joined(f"{first} joined to {second}", _tail(_BREAK.sub("", a)) + _head(_BREAK.sub("", b)), False)


def _tail(text: str) -> str:
    """The end of `text` at its seam, blanks off; a long one's from a word's start (no key begins mid-word)."""
    end = text.rstrip()[-SEAM_CHARS:]
    blank = _BLANK.search(end) if len(end) == SEAM_CHARS else None
    return end[blank.end():] if blank else end


def _head(text: str) -> str:
    return text.lstrip()[:SEAM_CHARS]
