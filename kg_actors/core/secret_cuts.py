"""A key cut apart to pass as something else: its characters spaced one apart (`g h p _ R 7 d …`), or its run
cut by hyphens (`ghp_R7dLq2-Vx9NwBz4Kc-…`). Each such run is given back with the cuts taken out, for
core/secrecy.py to read for a provider's shape alone: prose and paths hold such runs (`a b c`,
`state-of-the-art`, `src/my-app-v2`), but none of them makes a provider's key when joined."""

from __future__ import annotations

import re
from collections.abc import Iterator

SPACED_MIN_CHARS = 16  # characters spaced one apart: a key's prefix and a part of its body at least
_SPACED = re.compile(r"(?<!\S)(?:\S ){%d,}\S(?!\S)" % (SPACED_MIN_CHARS - 1))
# Hyphens before, after or doubled are cuts too (`ghp_-R7dL-…-XiOo-`): each class is disjoint from the next, so
# no run is read twice.
_HYPHENATED = re.compile(r"(?<![\w-])-*\w+(?:-+\w+)+-*(?![\w-])")


def cut_runs(text: str) -> Iterator[str]:
    """Each run of `text` cut apart by single spaces or by hyphens, the cuts taken out."""
    for m in _SPACED.finditer(text) if " " in text else ():
        yield m.group(0).replace(" ", "")
    for m in _HYPHENATED.finditer(text) if "-" in text else ():
        yield m.group(0).replace("-", "")
