"""A key cut apart to pass as something else: its characters spaced one apart (`g h p _ R 7 d …`) or in groups
of a fixed width (`sk_l ive_ Aouh …`), or its run cut by hyphens (`ghp_R7dLq2-Vx9NwBz4Kc-…`). Each such run is given back with the cuts taken out, for
core/secrecy.py to read for a provider's shape alone: prose and paths hold such runs (`a b c`,
`state-of-the-art`, `src/my-app-v2`), but none of them makes a provider's key when joined.

Joining is a guess that a key was cut on purpose, so a hyphenated run is joined only when it looks cut from a
random string: words cut apart (`ASIA-PACIFIC-NORTHEAST`, `MAX-RETRY-COUNT`, `sk-learn-2024-pipeline-guide`)
join into a key's shape by chance, and a UUID after a prefix (`SK-123e4567-e89b-…`) is an id, not a key."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .secret_anchors import anchored_runs, named_in_words, words_in_name

SPACED_MIN_CHARS = 16  # characters spaced one apart: a key's prefix and a part of its body at least
_SPACED = re.compile(r"(?<!\S)(?:\S ){%d,}\S(?!\S)" % (SPACED_MIN_CHARS - 1))
# A key written in groups of a fixed width from its first character (`fold -w4`, a PDF's or a chat's copy, a
# key read out: `sk_l ive_ Aouh lf7E …`), the prefix cut too; the last group may be shorter. Prose of words of
# one length (`the cat sat`) joins into no provider's shape.
_GROUPED = tuple(re.compile(r"(?<!\S)(?:\S{%d} ){%d,}\S{1,%d}(?!\S)" % (width, -(-SPACED_MIN_CHARS // width) - 1, width))
                 for width in range(2, 9))
_BLANKS = re.compile(r"[ \t]{2,}|\t")  # a run read once: linear
_WORDS_BEFORE = 3  # words of the groups' width before a key (`api key` then `sk_ liv …`), read past
# Hyphens before, after or doubled are cuts too (`ghp_-R7dL-…-XiOo-`): each class is disjoint from the next, so
# no run is read twice.
_HYPHENATED = re.compile(r"(?<![\w-])-*\w+(?:-+\w+)+-*(?![\w-])")
_UUID = re.compile(r"(?<![0-9a-fA-F])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
                   r"(?![0-9a-fA-F])")
# A piece of prose between cuts: a word in one case, a Capitalized or camelCase one (humps of two letters at
# least: `AbCd` is random), or a number. A piece of a random string mixes classes as these do not.
_WORD = re.compile(r"[a-z]+|[A-Z]+|[0-9]+|[A-Z]?[a-z]+(?:[A-Z][a-z]{2,})*")
_CUTS = re.compile(r"[-_]+")
# Docs and package names after OpenAI's and Anthropic's prefix (`sk-learn-2024-pipeline-guide`): words.
_SK_PREFIX = re.compile(r"sk-(?:ant-|proj-|svcacct-|admin-)?")



def cut_runs(text: str, anchored_in: str | None = None) -> Iterator[str]:
    """Each run of `text` cut apart by single spaces, or by hyphens from a random string, and each key cut apart
    after its provider's prefix (core/secret_anchors.py) in `anchored_in` (`text` where not given: a text glued
    across fields is given with its seams as cuts), the cuts taken out."""
    if "\t" in text or "  " in text:  # groups split by tabs or runs of spaces (`sk_l\tive_\t…`) as by one space
        text = _BLANKS.sub(" ", text)
    for m in _SPACED.finditer(text) if " " in text else ():
        yield m.group(0).replace(" ", "")
    for grouped in _GROUPED if " " in text else ():
        for m in grouped.finditer(text):
            groups = m.group(0).split(" ")
            for skipped in range(min(_WORDS_BEFORE, len(groups) - 1) + 1):  # `the api key sk_ liv e_A …`
                run = "".join(groups[skipped:])
                if len(run) >= SPACED_MIN_CHARS:  # shorter holds no key; prose's pairs of words were 9 in 10 reads
                    yield run
    for m in _HYPHENATED.finditer(text) if "-" in text else ():
        run = m.group(0)
        if not words_only(run) and not _UUID.search(run):
            yield run.replace("-", "")
    yield from anchored_runs(text if anchored_in is None else anchored_in)


def words_only(text: str) -> bool:
    """Whether `text` is words cut apart by hyphens or underscores: two pieces at least, each a word or a number,
    most of them longer than a character (a key cut after each character is no words)."""
    pieces = [p for p in _CUTS.split(text) if p]
    return (len(pieces) >= 2 and all(_WORD.fullmatch(p) for p in pieces)
            and sum(len(p) == 1 for p in pieces) * 2 <= len(pieces))


def worded_key(value: str, gates: tuple[str, ...] = ()) -> bool:
    """Whether a value read as a key by its prefix is words cut apart after it: a docs or package name
    (`sk-learn-2024-pipeline-guide`, `xoxb-scopes-guide`, a column `fm1_reference_signal_strength`). After `sk-`
    any words; after another provider's prefix (`gates`, read as its own key's shape) words as prose has them."""
    m = _SK_PREFIX.match(value)
    if m is not None:  # `sk-learn-2024-pipeline-guide`, `sk-ant-api03-format-notes`
        return words_only(value[m.end():]) or words_in_name(value[m.end():])
    gate = max((g for g in gates if value.startswith(g)), key=len, default=None)
    return gate is not None and named_in_words(value, gate)
