"""A key cut apart after its provider's prefix (`ghp_iK2Z WeqhFWCE …`, `AKIA JNRF BWVH …`, `sk-proj-D3.Hy.P3…`),
given back whole for core/secrecy.py to read for the provider's shape.

Prose is cut by spaces everywhere, so joining every such run would make keys of sentences: the prefix is the
anchor. Where a provider's prefix (a gate of core/secret_shapes.py) starts a run, the pieces after it are joined
across cuts (a space, `_`, `.`, `/` or `-`, with a key's own `-` or `_` beside it), as far as the provider's
shape reads them and to a cut, and given back only when those pieces look cut from a random string: pieces that
are all words or numbers are prose ("ghp_ tokens are rotated", "sk-learn pipelines use v2 ColumnTransformer").
A UUID among them is an id (`dapi-<uuid>`), not a key. Words the join read on into after the key (`paste <key>
here`, `<key> for example`) are the sentence's: the key is given back without them, to be judged by its own
pieces (a value ending in `here` or `example` is a placeholder's). Each run is cut into pieces once, whatever
the number of prefixes in it, and each prefix reads a bounded stretch of it: linear in the text."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator

from .secret_shapes import GATES, SHAPES

_L, _R = r"(?<![A-Za-z0-9])", r"(?![A-Za-z0-9])"
JOINED_MAX_CHARS = 256  # of a key's body after its prefix: the longest provider key is shorter
_WORDS_AFTER_MAX = 6  # words of the sentence taken off a key's end: `paste <key> here for the deploy`
_HEAD_MAX_BEFORE = 2  # letters a gate may follow in its run (`s` of `sk_live_`, whose gate is `k_live_`)


def _to_its_body(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """A shape read to where its key's body ends, not refused for a word glued after it by the join."""
    source = pattern.pattern
    return re.compile(source[:-len(_R)] if source.endswith(_R) else source, pattern.flags)


def _shapes_by_gate() -> dict[str, tuple[re.Pattern[str], ...]]:
    """Each prefix that starts a key (a gate starting with a letter, of a case-sensitive shape read from a run's
    start), with the shapes to read after it: its own, and those of the shorter gates it starts with (`sk-ant-`
    is read as Anthropic's and OpenAI's `sk-`, which refuses `ant-` itself)."""
    own: dict[str, list[re.Pattern[str]]] = {}
    for kind, pattern in SHAPES[1:]:
        if pattern.flags & re.IGNORECASE or not pattern.pattern.startswith(_L):
            continue
        for gate in GATES[kind]:
            if gate[0].isalpha():
                own.setdefault(gate, []).append(_to_its_body(pattern))
    return {gate: tuple(p for other, shapes in own.items() if gate.startswith(other) for p in shapes) for gate in own}


_SHAPES_BY_GATE = _shapes_by_gate()
_GATE = re.compile("|".join(re.escape(g) for g in sorted(_SHAPES_BY_GATE, key=len, reverse=True)))
# A cut: one of a space, `.` or `/`, with a key's own `-` or `_` beside it; or one or two of `-` and `_`.
_RUN = re.compile(r"[A-Za-z0-9]+(?:(?:[-_]?[ ./][-_]?|[-_]{1,2})[A-Za-z0-9]+)*")
_PIECE = re.compile(r"[A-Za-z0-9]+")
_PREFIX_NAMES = frozenset(g.rstrip("-_.") for g in _SHAPES_BY_GATE if len(g.rstrip("-_.")) >= 3)
_AFTER_GATE = re.compile(r"[ ./_-]{0,2}(?=[A-Za-z0-9])")  # `ghp_ iK2Z…`, `AKIA JNRF…`: the gate, then a cut
# The rest of a prefix its gate stops short of (`xox` of `xoxb-`, `shp` of `shpat_`), kept with its cut.
_PREFIX_TAIL = re.compile(r"[a-z0-9]{1,5}[-_](?=[A-Za-z0-9])")
# A word or a number: one case, Capitalized or camelCase (`GitHub`, `OpenAI`, `ChatGPT`), capitals as a plural
# (`PATs`, `APIs`), an OS (`iOS`, `macOS`); a short version after it (`v2`, `Python3`).
_WORD = re.compile(r"(?:[a-z]+|[A-Z]+|[A-Z]?[a-z]+(?:[A-Z][a-z]{2,})*|(?:[A-Z][a-z]{2,})+[A-Z]{2,3}|[A-Z]{2,}s|[a-z]{1,5}OS)"
                   r"[0-9]{0,4}|[0-9]+")
_VOWEL = re.compile(r"[aeiouyAEIOUY]")
_CAPITAL_VOWEL = re.compile(r"[AEIOU]")
_CONSONANTS = re.compile(r"[B-DF-HJ-NP-TV-Z]{4}")
_UUID = re.compile(r"[0-9a-fA-F]{8}(?:[-_ ./][0-9a-fA-F]{4}){3}[-_ ./][0-9a-fA-F]{12}")


class _Run:
    """A run of pieces cut apart, from `start` in the text: its pieces, where each stands there and joined; and,
    counted once for the run, how many pieces up to each are short, hold a small letter, or are no word."""

    def __init__(self, text: str, start: int):
        m = _RUN.match(text, start)
        self.start, self.end = start, m.end() if m is not None else start
        self.pieces: list[str] = []
        self.at: list[int] = []  # each piece's start in the text
        self.ends: list[int] = []  # each piece's end in the joined text
        for p in _PIECE.finditer(text, start, self.end):
            self.pieces.append(p.group())
            self.at.append(p.start())
            self.ends.append((self.ends[-1] if self.ends else 0) + len(p.group()))
        self.joined = "".join(self.pieces)
        self._counts: tuple[list[int], ...] = ()

    def offset(self, pos: int) -> tuple[int, int]:
        """The piece holding text position `pos` (a letter or digit of the run), and where `pos` is joined."""
        i = bisect_right(self.at, pos) - 1
        return i, self.ends[i] - len(self.pieces[i]) + pos - self.at[i]

    def prose(self, first: int, last: int) -> bool:
        """Whether pieces `first` to `last` are words or numbers, most longer than two characters (a key cut every
        character or two is no words, though each piece be one). Pieces all in capitals, as AWS's key ids are
        written, are read closer."""
        if not self._counts:  # counted at the first prefix read in the run: each piece once, however many read it
            self._counts = tuple([0] for _ in range(4))
            for p in self.pieces:
                for count, flag in zip(self._counts, (len(p) <= 2, not (p.isupper() or p.isdigit()),
                                                      not _word(p, False), not _word(p, True)), strict=True):
                    count.append(count[-1] + flag)
        short, lower, loose, strict = (count[last + 1] - count[first] for count in self._counts)
        return short * 2 <= last + 1 - first and (loose if lower else strict) == 0


# After a provider's prefix, words of prose: lowercase letters (a vowel in each of four letters or more), a number,
# or a version or a count in a name (`v3`, `api03`, `oauth2`, `30d`, `2nd`); a key's body mixes cases and digits
# all through. The letters a prefix ends with before its cut are the key's type (`xox` `b-`).
_PROSE_WORD = re.compile(r"(?P<letters>[a-z]*)[0-9]{1,4}|[0-9]{1,4}(?P<unit>[a-z]{1,2})|(?P<word>[a-z]+)|[0-9]+")
_PROSE_VOWEL = re.compile(r"[aeiouy]")
_TYPE_LETTERS = re.compile(r"[a-z0-9]{0,4}[-_]")
_NAME_CUTS = re.compile(r"[-_]+")
_BLANK = re.compile(r"\s")
_NAME_MAX = 200  # characters of a name of words after a prefix (a docs slug, a column's name)


def named_in_words(value: str, gate: str) -> bool:
    """Whether `value`, opening with a provider's prefix `gate`, is words cut apart by `-` or `_` after it: a docs
    slug or a column's name (`xoxb-scopes-guide`, `fm1_reference_signal_strength`), not a key."""
    body = value[len(gate):]
    if gate[-1].isalnum() and (kind := _TYPE_LETTERS.match(body)) is not None:
        body = body[kind.end():]
    return words_in_name(body)


def words_in_name(body: str) -> bool:
    """Whether `body` is words of a name cut apart by `-` or `_` (`scopes-guide-v3`, `fine_grained_scopes_2024`,
    `api03-format-notes`): two at least, most longer than two characters, each a word of prose."""
    pieces = [p for p in _NAME_CUTS.split(body) if p]
    return (len(pieces) >= 2 and sum(len(p) <= 2 for p in pieces) * 2 < len(pieces)
            and all(_prose_piece(p) for p in pieces))


def _prose_piece(piece: str) -> bool:
    m = _PROSE_WORD.fullmatch(piece)
    if m is None:
        return False
    letters = m.group("letters") or m.group("word") or ""
    return len(letters) < 4 or _PROSE_VOWEL.search(letters) is not None


def anchored_runs(text: str) -> Iterator[str]:
    """Each key a provider's prefix starts in `text` whose body is cut apart, the cuts taken out."""
    run: _Run | None = None
    last, covered = "", 0
    for gate in _GATE.finditer(text):
        g0, g1 = gate.span()
        if g0 < covered:
            continue  # a prefix inside a key read from an earlier one is that key's (`hf_hf_hf…` is read once)
        head_start, floor = g0, max(0, g0 - _HEAD_MAX_BEFORE - 1)  # one step past the most: a word, not a head
        while head_start > floor and text[head_start - 1].isascii() and text[head_start - 1].isalnum():
            head_start -= 1
        if g0 - head_start > _HEAD_MAX_BEFORE:
            continue  # inside a longer word: no key's prefix (`monkey-`, `leaf_`)
        # Up to the next blank, within _NAME_MAX: a text of prefixes repeated with no blank is read once, not
        # to its end from each of them (quadratic); a longer run of words is no name.
        stop = min(len(text), g0 + _NAME_MAX)
        blank = _BLANK.search(text, g1, stop)
        if (blank is not None or stop == len(text)) and named_in_words(
                text[g0:stop if blank is None else blank.start()], gate.group()):
            continue  # a name of words (`fm1_reference_signal_strength`): the text after it is the sentence's
        heads = [g1]
        if g1 and text[g1 - 1].isalnum() and (tail := _PREFIX_TAIL.match(text, g1)) is not None:
            heads.insert(0, tail.end())
        for head_end in heads:
            after = _AFTER_GATE.match(text, head_end)
            if after is None:
                continue
            body = after.end()
            if run is None or not run.start <= body < run.end:
                run = _Run(text, body)
            head, shapes = text[head_start:head_end], _SHAPES_BY_GATE[gate.group()]
            read = _read(text, head, run, body, shapes, body > head_end)
            found = read[0] if read is not None else None
            if found is None and body > head_end:
                found = _cut_once(text, head, body, shapes)
            if found is not None:
                covered = read[1] if read is not None else body + len(found) - len(head)
                if found != last:  # a text repeating itself gives the same join at every prefix: read once
                    yield found
                last = found
                break


def _read(text: str, head: str, run: _Run, body: int, shapes: tuple[re.Pattern[str], ...],
          cut_at_head: bool) -> tuple[str, int] | None:
    """The prefix and the pieces after it joined, as far as a shape reads them and to a cut, if those pieces
    look cut from a random string; one piece too, cut from the prefix (`ghp_ iK2Z…`). With where its last
    piece ends in the text."""
    first, start = run.offset(body)
    candidate = head + run.joined[start:start + JOINED_MAX_CHARS]
    for shape in shapes:
        m = shape.match(candidate)
        if m is None or m.end() <= len(head):
            continue
        end = start + m.end() - len(head)  # where the match ends, joined
        last = bisect_left(run.ends, end)
        if last == len(run.ends) or run.ends[last] != end:  # not at a cut: read again to the cut before it
            last -= 1
            if last < first or (m := shape.match(candidate, 0, len(head) + run.ends[last] - start)) is None:
                continue
        if last == first and not cut_at_head:
            continue  # one piece glued to its prefix: no cut, read as written by every rule
        if run.prose(first, last) or _UUID.search(text, body, run.at[last] + len(run.pieces[last])):
            continue
        # Words after the key (`paste <key> here`) are the sentence's: off, as far as the shape still reads a key.
        # At most a few: a sentence goes on after a key with a word or two, and each costs a match of the shape
        # (a text of `hf_` repeated read every piece back from each prefix: 60 µs a character).
        for _ in range(_WORDS_AFTER_MAX):
            if not (last > first and _word(run.pieces[last], run.pieces[last].isupper())):
                break
            cut = len(head) + run.ends[last - 1] - start
            shorter = shape.match(candidate, 0, cut)
            if shorter is None or shorter.end() != cut:
                break
            last, m = last - 1, shorter
        return m.group(), run.at[last] + len(run.pieces[last])
    return None


# The word after a prefix's cut as written: a key's own `.`, `_` and `-` kept (`SG. IR6j…_J3Q.UFId…`).
_WORD_AFTER = re.compile(r"[A-Za-z0-9][^\s\"'`,;()<>\[\]{}]{0,%d}" % (JOINED_MAX_CHARS - 1))


def _cut_once(text: str, head: str, body: int, shapes: tuple[re.Pattern[str], ...]) -> str | None:
    """A key cut once, right after its prefix (`SG. IR6j…`, `AIza n1el…_MFja`): the prefix glued to the next word
    as written, read for the shape to its end, when that word is no words of prose. The join of pieces
    (`_read`) drops the key's own `.`, `_` and `-`, which its shape may need."""
    word = _WORD_AFTER.match(text, body)
    if word is None:
        return None
    candidate = head + word.group().rstrip(".:!?")
    for shape in shapes:
        m = shape.match(candidate)
        if m is None or m.end() <= len(head) or m.end() < len(candidate) and candidate[m.end()].isalnum():
            continue
        if not all(_word(p, p.isupper()) for p in _PIECE.findall(candidate, len(head), m.end())):
            return m.group()
    return None


def _word(piece: str, capitals: bool) -> bool:
    """Whether a piece is a word or a number. A word of four letters or more has a vowel (`JNRF`, `BWVH` are cut
    from a random string); among capitals, one of three letters or more has a vowel other than `Y`, no four
    consonants in a row and no digits after it (`PACIFIC`, `NORTHEAST`, not `SPYR`, `TBB`, `LAH4`)."""
    if piece.isdigit() or len(piece) >= 4 and len(set(piece.lower())) == 1 or piece in _PREFIX_NAMES:
        # A number; a placeholder's filler (`whsec_xxxxxxxxxxxxxxxx` then `DATABASE_URL=…`); another provider's
        # prefix named in the same sentence ("… start with glpat- and runner tokens with glrt-").
        return True
    letters = piece.rstrip("0123456789")
    if _WORD.fullmatch(piece) is None:
        return not capitals and _camel_name(piece)
    if capitals and len(letters) >= 3:
        return letters == piece and _CAPITAL_VOWEL.search(piece) is not None and _CONSONANTS.search(piece) is None
    return len(letters) < 4 or _VOWEL.search(letters) is not None


# A hump of a CamelCase name: a word, capitals, or a version (`V2`, `Q3`, `Keys2024`), digits after it.
_HUMP = re.compile(r"[A-Z]?[a-z]+[0-9]*|[A-Z]+[0-9]*(?![a-z])|[0-9]+")


def _camel_name(piece: str) -> bool:
    """Whether a piece is a name made of words (`ValidatorForRotatingKeys2024Q3Release`, `ManagerV2Client`): humps
    of words, most of three letters or more with a vowel in each of four or more. A random string's humps are
    a letter or two (`iK2ZWeqh…`: `i`, `K2`, `Z`, …)."""
    humps = _HUMP.findall(piece)
    if len(humps) < 2 or sum(map(len, humps)) != len(piece):
        return False
    letters = [h.rstrip("0123456789") for h in humps]
    worded = sum(len(w) >= 3 and (len(w) < 4 or _VOWEL.search(w) is not None) for w in letters)
    return worded * 3 >= len(humps) * 2 and all(len(w) < 4 or _VOWEL.search(w) for w in letters)
