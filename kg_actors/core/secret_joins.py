"""The texts a key split across lines or notes makes whole again, for core/secrecy.py to read.

A gist's line breaks are folded into spaces when it is stored (plain_text.fold_gist), so a key written across
two lines is stored as two words: the folded gist is read as stored, and each field with its line breaks
(and the blanks around them) taken out. Two consecutive notes are read joined without a separator, at their
seam only: the end of the one and the start of the other; so are runs of up to four, the notes between read
whole when each is a short piece (no blank in it), and two notes around one that interrupts them. Joined texts are read for the fixed shapes of keys
alone (a provider's prefix, a JWT, a URL's password, a random value after `password=`), so that ordinary
text does not start matching where two lines meet. Each glued text comes with its seams as spaces too, where
keys cut apart after their prefix are read (core/secret_anchors.py): a field's last word glued to the next
one's first is no piece of a key (`sk_test_YOUR_KEY_HERE` then `restart the worker` make no `HERErestart`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import accumulate

import attrs

from .plain_text import fold_gist
from .secret_pairs import Words, chained, words_of

# A line break with the blanks around it. The blanks before it are tried only from the start of their run (a
# match tried at each blank of a long run without a break, read to the run's end each time, cost its square).
_BREAK = re.compile(r"(?:(?<![ \t])[ \t]+)?[\r\n\u2028\u2029]+[ \t]*")
_BLANK = re.compile(r"\s")
SEAM_CHARS = 512  # of each side of two notes' seam: a key is shorter, and a long note costs no more
JOINED_MAX_PARTS = 4  # consecutive fields read as one key: a key in more pieces is no accident of writing
PIECE_MAX_CHARS = 64  # a note read whole between two seams: a piece of a key, not a sentence
FILLER_MAX_WORDS = 3  # a note a key's pieces are read around: a pointer (`(see below)`), not a sentence


@attrs.frozen
class Joined:
    field: str  # named as the refusal says it
    text: str
    as_stored: bool  # the text as stored (the folded gist): read with every rule, not the shapes alone
    spaced: str  # the text with a space at each seam (a line break taken out, two fields met)
    # The texts glued (lines of a field, or whole fields): each a placeholder or prose, they make no key
    # (core/secret_seams.py), whichever way they were glued.
    parts: tuple[str, ...] = ()
    seams: tuple[int, ...] = ()  # where in `text` two fields or lines were glued (core/secret_seams.cut_at)


def joined_texts(gist: object, notes: list[object] | None, name: str = "notes") -> Iterator[Joined]:
    """The texts a node's (or an edge's) fields make whole: a gist as stored and without its line breaks, a
    note without its line breaks, the seam of the gist and the first note and of each two consecutive notes."""
    parts: list[tuple[str, str]] = []
    if isinstance(gist, str) and gist:
        folded, changed = fold_gist(gist)
        if changed:
            yield Joined("gist", folded, True, folded)
            yield Joined("gist", _BREAK.sub("", gist), False, _BREAK.sub(" ", gist), tuple(_BREAK.split(gist)),
                         _glued_at(gist))
            yield from _lines_paired("gist", gist)
        parts.append(("gist", gist))
    for i, note in enumerate(notes or ()):
        if isinstance(note, str) and note:
            unbroken = _BREAK.sub("", note)
            if unbroken != note:
                yield Joined(f"{name}[{i}]", unbroken, False, _BREAK.sub(" ", note), tuple(_BREAK.split(note)),
                             _glued_at(note))
                yield from _lines_paired(f"{name}[{i}]", note)
            parts.append((f"{name}[{i}]", note))
    glued = [(field, _BREAK.sub("", text), _BREAK.sub(" ", text)) for field, text in parts]
    whole = dict(parts)
    spaced_parts = [(field, spaced) for field, _, spaced in glued]
    words: dict[int, Words] = {}  # each part's, read once
    # Fewest fields first: a key cut across two of them is named by those two, not with a third before them.
    for span in range(1, JOINED_MAX_PARTS):
        for i, j in ((i, i + span) for i in range(len(glued) - span)):
            (first, a, a_spaced), (last, b, b_spaced) = glued[i], glued[j]
            for between in _betweens(glued[i + 1:j]):
                fields = " joined to ".join((first, *(f for f, _, _ in between), last))
                pieces = [_tail(a), *(t for _, t, _ in between), _head(b)]
                yield Joined(fields, "".join(pieces), False,
                             " ".join((_tail(a_spaced), *(t for _, _, t in between), _head(b_spaced))),
                             tuple(whole[f] for f in (first, *(f for f, _, _ in between), last)),
                             tuple(accumulate(len(p) for p in pieces[:-1])))
        yield from _chains(spaced_parts, span, words)


def _glued_at(text: str) -> tuple[int, ...]:
    """Where in `text` with its line breaks taken out each break stood."""
    out, cut = [], 0
    for m in _BREAK.finditer(text):
        out.append(m.start() - cut)
        cut += m.end() - m.start()
    return tuple(out)


def _lines_paired(field: str, text: str) -> Iterator[Joined]:
    lines = [(field, line) for line in _BREAK.split(text)]
    words: dict[int, Words] = {}
    for span in range(1, JOINED_MAX_PARTS):
        yield from _chains(lines, span, words)


def _chains(parts: list[tuple[str, str]], span: int, words: dict[int, Words]) -> Iterator[Joined]:
    """Parts `span` apart with words around each part of a key (secret_pairs.py), those between them each a part
    of it too, or all of them but one, which interrupts it (`["first half …", "(see below)", "second half …"]`).
    `words`: each part's, read once for every span, and only where needed (most parts give no head)."""

    def of(k: int) -> Words:
        if k not in words:
            words[k] = words_of(parts[k][1])
        return words[k]

    for i, j in ((i, i + span) for i in range(len(parts) - span)):
        if not of(i).heads or not of(j).first:
            continue
        middle = list(range(i + 1, j))
        for kept in [middle, *([m for m in middle if m != skipped] for skipped in middle)]:
            fields = " joined to ".join(dict.fromkeys((parts[i][0], *(parts[k][0] for k in kept), parts[j][0])))
            texts = tuple(parts[k][1] for k in (i, *kept, j))
            for text, spaced in chained([of(i), *(of(k) for k in kept), of(j)]):
                yield Joined(fields, text, False, spaced, texts)


def _betweens(middle: list[tuple[str, str, str]]) -> Iterator[list[tuple[str, str, str]]]:
    """What may stand between two notes' seam in a key: the notes between, each a piece of it (short, no
    blank; one alone may hold a blank, a header's own: `Authorization: Beare`, `r <half>`, `<half>`), or all of
    them but one, which interrupts the key (`[half, "middle", half]`)."""
    pieces = [bool(text) and len(text) <= PIECE_MAX_CHARS and not _BLANK.search(text) for _, text, _ in middle]
    if all(pieces):
        yield middle
    for skipped in range(len(middle)):
        # Only filler interrupts a key (`(see below)`, `a note between`): a sentence between two fields ends the
        # one and starts the other (`mysql -u root -p`, `then type it at the prompt, …`, `updated: …`).
        if len(middle[skipped][1].split()) <= FILLER_MAX_WORDS and all(
                piece for k, piece in enumerate(pieces) if k != skipped):
            yield [part for k, part in enumerate(middle) if k != skipped]
    if not all(pieces) and len(middle) == 1 and len(middle[0][1]) <= PIECE_MAX_CHARS:
        yield middle  # after the key around it: one short note between, blanks and all (`Beare`, `r <half>`, `<half>`)


def _tail(text: str) -> str:
    """The end of `text` at its seam, blanks off; a long one's from a word's start (no key begins mid-word)."""
    end = text.rstrip()[-SEAM_CHARS:]
    blank = _BLANK.search(end) if len(end) == SEAM_CHARS else None
    return end[blank.end():] if blank else end


def _head(text: str) -> str:
    return text.lstrip()[:SEAM_CHARS]
