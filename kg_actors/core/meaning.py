"""How alike in meaning a prompt and a lesson are: static word-piece vectors, summed and compared.

Recall's gates read words: a lesson met on one rare word of an unrelated prompt ("git: undo my last
commit" and a lesson on a course's final commit) looks as good as the one the prompt is about, and a
lesson said in other words is not met at all. A sentence model tells these apart, but runs far too
slowly for a hook. Its knowledge, frozen into one vector per word piece, does not: a text's vector is
the sum of its pieces' vectors (each weighted by how rare the piece is), less the direction every text
shares, and two texts are as alike as the cosine of theirs. A prompt costs ~0.1 ms, a lesson ~0.3 ms
the first time (kept afterwards while its text stays the same).

The table (data/meaning.bin, built by bench/build_meaning.py): each word piece of an uncased BERT
vocabulary passed alone through all-MiniLM-L6-v2 (Apache-2.0), then fitted so that the weighted sums
point where the model's own sentence vectors point over a general corpus (Python's docstrings and
package summaries: no lesson or prompt of bench/), reduced to DIMS and stored as one signed byte per
value with a scale per piece. The file is read at the edge (kg_actors/meaning_table.py) and handed
in; a missing or damaged table leaves every likeness None, and recall's model reads the likeness it
met on average in training in its place (core/recall_gate.py).
A Table keeps what it decoded and the vectors of the last lessons asked: caches, not state.
"""

from __future__ import annotations

import json
import math
import operator
import re
import unicodedata
from array import array
from collections import OrderedDict
from collections.abc import Sequence

MAGIC = b"KGMEANING1\n"
_LONGEST_WORD = 100  # characters: a longer run is no word (BERT's own bound)
_LONGEST_PIECE = 32  # characters, "##" not counted: longer than any piece of the vocabulary (checked at load)
_PUNCT = re.compile(r"[^\w\s]|_")
_HAS_LETTER_OR_DIGIT = re.compile(r"[a-z0-9]")
_KEPT_TEXTS = 4_096  # vectors of lesson texts kept (~0.8 KB each with its key: ~3.5 MB at most; a project holds fewer)
_KEPT_WORDS = 100_000  # words whose pieces are kept
# A text's first pieces tell what it is about: a 20,000-character paste or a long lesson costs no more than ~1 ms
# (the lessons of bench/'s memories hold at most 119 pieces, a prompt of several lines about as many).
_MAX_PIECES = 256

_BIG_ENDIAN = array("f", [1.0]).tobytes() != b"\x00\x00\x80?"

Vector = Sequence[float]


class Table:
    """The word pieces, their weighted vectors (decoded as first used), and the shared direction."""

    def __init__(self, raw: bytes) -> None:
        if not raw.startswith(MAGIC):
            raise ValueError("not a meaning table")
        at = len(MAGIC)
        head_len = int.from_bytes(raw[at:at + 4], "little")
        at += 4
        head = json.loads(raw[at:at + head_len])
        at += head_len
        self.dims: int = head["dims"]
        n: int = head["pieces"]
        pieces = raw[at:at + head["pieces_bytes"]].decode().split("\n")
        at += head["pieces_bytes"]
        if len(pieces) != n:
            raise ValueError("meaning table: piece count disagrees with its header")
        self.index = {p: i for i, p in enumerate(pieces)}
        if max(len(p.removeprefix("##")) for p in pieces) > _LONGEST_PIECE:
            raise ValueError("meaning table: a piece longer than pieces() looks for")
        self._scales = array("f")
        self._scales.frombytes(raw[at:at + 4 * n])
        if _BIG_ENDIAN:
            self._scales.byteswap()  # stored little-endian
        at += 4 * n
        self._values = memoryview(raw[at:at + n * self.dims]).cast("b")
        if len(self._values) != n * self.dims or len(self._scales) != n:
            raise ValueError("meaning table: cut short")
        self.mean: list[float] = [float(x) for x in head["mean"]]
        self.directions: list[list[float]] = [[float(x) for x in d] for d in head["directions"]]
        if len(self.mean) != self.dims or any(len(d) != self.dims for d in self.directions):
            raise ValueError("meaning table: the shared direction's size is not the table's")
        self._rows: dict[int, array[float]] = {}
        self._spelled: dict[str, tuple[int, ...]] = {}  # word -> its pieces (none for punctuation)
        self._kept: OrderedDict[tuple[int, int], Vector | None] = OrderedDict()  # lessons' vectors (kept_vector)

    def row(self, i: int) -> array[float]:
        """Piece i's weighted vector (decoded once: a few thousand pieces are ever used)."""
        got = self._rows.get(i)
        if got is None:
            scale = self._scales[i]
            got = array("f", [scale * v for v in self._values[i * self.dims:(i + 1) * self.dims]])
            self._rows[i] = got
        return got

    def spelled(self, word: str) -> tuple[int, ...]:
        """The pieces of a word of `words` (kept: most words recur); none for punctuation."""
        got = self._spelled.get(word)
        if got is None:
            got = tuple(pieces(word, self.index)) if _HAS_LETTER_OR_DIGIT.search(word) else ()
            if len(self._spelled) >= _KEPT_WORDS:
                self._spelled.clear()
            self._spelled[word] = got
        return got


def packed(pieces: Sequence[str], scales: Sequence[float], values: bytes, mean: Sequence[float],
           directions: Sequence[Sequence[float]], source: str) -> bytes:
    """A table's bytes: MAGIC, the header's length and JSON, the pieces (one per line), each piece's scale
    (float32, little-endian) and its values (len(mean) signed bytes each)."""
    names = "\n".join(pieces).encode()
    head = json.dumps({"dims": len(mean), "pieces": len(pieces), "pieces_bytes": len(names), "mean": list(mean),
                       "directions": [list(d) for d in directions], "source": source}).encode()
    stored = array("f", scales)
    if _BIG_ENDIAN:
        stored.byteswap()
    return MAGIC + len(head).to_bytes(4, "little") + head + names + stored.tobytes() + values


def words(text: str) -> list[str]:
    """BERT's uncased split: lowercase, accents dropped, each punctuation mark a word of its own."""
    text = text.lower()
    if not text.isascii():
        text = "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn")
    return _PUNCT.sub(r" \g<0> ", text).split()


def pieces(word: str, index: dict[str, int]) -> list[int]:
    """The word's pieces, longest first from the left; none for a word the vocabulary cannot spell."""
    if len(word) > _LONGEST_WORD:
        return []
    out: list[int] = []
    start = 0
    while start < len(word):
        end = min(len(word), start + _LONGEST_PIECE)  # no piece is longer: junk costs no square of its length
        while end > start:
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            number = index.get(piece)
            if number is not None:
                out.append(number)
                break
            end -= 1
        else:
            return []
        start = end
    return out


def vector(table: Table, text: str) -> Vector | None:
    """The text's unit vector, the shared direction taken out; None when it holds no known word."""
    rows: list[array[float]] = []
    for w in words(text[: _MAX_PIECES * 8]):
        rows += map(table.row, table.spelled(w))
        if len(rows) >= _MAX_PIECES:
            del rows[_MAX_PIECES:]
            break
    if not rows:
        return None
    summed = [sum(col) for col in zip(*rows)] if len(rows) > 1 else list(rows[0])
    norm = math.sqrt(sum(v * v for v in summed))
    if norm == 0.0:
        return None
    centred = [v / norm - m for v, m in zip(summed, table.mean)]
    for d in table.directions:
        along = sum(map(operator.mul, centred, d))
        centred = [c - along * x for c, x in zip(centred, d)]
    norm = math.sqrt(sum(v * v for v in centred))
    return [v / norm for v in centred] if norm else None


def cosine(a: Vector, b: Vector) -> float:
    return float(sum(map(operator.mul, a, b)))


def kept_vector(held: Table, text: str) -> Vector | None:
    """A lesson's vector, kept while its text is among the last _KEPT_TEXTS asked (by the text's length and
    hash, not the text: a lesson's text is ~300 characters, its vector ~0.6 KB)."""
    kept = held._kept
    key = (len(text), hash(text))
    if key in kept:
        kept.move_to_end(key)
        return kept[key]
    made = vector(held, text)
    got = None if made is None else array("f", made)  # where a list of floats is ~4 KB
    kept[key] = got
    if len(kept) > _KEPT_TEXTS:
        kept.popitem(last=False)
    return got


def lesson_text(node_id: str, gist: str, notes: Sequence[str]) -> str:
    """What of a lesson its meaning is read from: its id's words, its gist and its notes."""
    return " ".join((node_id.replace("-", " ").replace("_", " "), gist, *notes))


class Likeness:
    """One prompt's likeness to lessons: None for every lesson when the prompt or the table has no vector."""

    def __init__(self, text: str | None, held: Table | None) -> None:
        self._table = held if text else None
        self._text = text or ""
        self._prompt: Vector | None = None
        self._made = False  # the prompt's vector is made at the first lesson asked: most prompts ask none

    def __call__(self, node_id: str, gist: str, notes: Sequence[str]) -> float | None:
        if self._table is None:
            return None
        if not self._made:
            self._prompt, self._made = vector(self._table, self._text), True
        if self._prompt is None:
            return None
        lesson = kept_vector(self._table, lesson_text(node_id, gist, notes))
        return None if lesson is None else cosine(self._prompt, lesson)
