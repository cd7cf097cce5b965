"""A key cut in two across lines or notes with words around each half ("first half AKIAZ7QRT4", "second half
XKLM2PW9BN"): the seam joins `AKIAZ7QRT4` to `second`, and a key of a fixed length or alphabet (AWS's, npm's,
Google's, SendGrid's) is no longer read in it. So the word of the one part that opens with a provider's prefix is
read glued to each word of the next part, for core/secret_joins.py to hand to the fixed shapes of keys. Only a
word opening with a prefix starts a pair: ordinary text has none, and pairs none."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .secret_names import scrambled
from .secret_shapes import GATES

PAIR_WORDS_MAX = 32  # words of the next part tried after a prefix's word: a key's other half is near its start
_HEADS_MAX = 2  # the last words of a part that open with a prefix: a half ends the part, or nearly
_SEAM_CHARS = 512

# A word opening with a prefix that starts a key (`AKIA`, `npm_`, `SG.`); not one found inside a key (`k_live_`).
_GATED = re.compile(r"(?<!\S)(" + "|".join(sorted((re.escape(g) for gates in GATES.values() for g in gates
                                                     if len(g) >= 3 and g[0].isalnum()), key=len, reverse=True))
                    + r")\S+")


def paired(first: str, second: str) -> Iterator[tuple[str, str]]:
    """Each word of `first` opening with a provider's prefix with each of the first words of `second`, where
    both halves look cut from a random string: a prefix's word of prose (`sk-learn`) and a word after it
    (`ColumnTransformer`) make no key."""
    heads = [m.group() for m in _GATED.finditer(first[-_SEAM_CHARS:]) if _random_half(m.group(), m.group(1))]
    if not heads:
        return
    words = [word for word in second[:_SEAM_CHARS].split()[:PAIR_WORDS_MAX] if _random_half(word)]
    for head in heads[-_HEADS_MAX:]:
        for word in words:
            yield head, word


def _random_half(word: str, gate: str = "") -> bool:
    """Letters and digits mixed (`Z7QRT4`, `XKLM2PW9BN`), or both cases strewn as no name has them."""
    body = word[len(gate):]
    return (any(c.isdigit() for c in body) and any(c.isalpha() for c in body)) or scrambled(body, 8)
