"""Entries whose name holds a secret a hand edit left: a node's id, an edge's rel or one of its ends (an end may
be a file path, `scripts/ghp_….sh`). A write refuses these (secrecy.refuse_secret_names); a graph file edited by
hand may still hold one.

A field is shown to agents as a marker (withheld.py), but a name cannot be: the agent would read, link and
write to the marker as if it were the id. So such an entry is left out of every agent-facing reply (a node
with the edges that reach it; an edge whose rel or end holds one), and a line says how many are withheld
until fixed in the editor, where the user sees them as written. Memoized: a name is checked once.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .records import Edge
from .secrecy import name_finding

NAMES_CHECKED_MAX = 1 << 16  # names remembered; a miss costs ~10 µs


@lru_cache(maxsize=NAMES_CHECKED_MAX)
def name_held(name: str) -> bool:
    """Whether a node id, rel or edge end holds a provider key's shape or a part of one (the rule a write
    refuses it by)."""
    return name_finding(name) is not None


def edge_held(edge: Edge) -> bool:
    return _key_held(edge.key)


@lru_cache(maxsize=NAMES_CHECKED_MAX)
def _key_held(key: tuple[str, str, str]) -> bool:  # one look-up an edge: a full read visits each edge twice
    return name_held(key[2]) or name_held(key[0]) or name_held(key[1])


def withheld_line(count: int) -> str:
    """What an agent is told of the entries left out (never their names)."""
    return (f"({count} entr{'y' if count == 1 else 'ies'} withheld: a name holds what looks like a secret; "
            "the user fixes them in kg's editor)")


_NAME_PART = re.compile(r"[A-Za-z0-9_+=.\-]{16,}")  # a key's shape runs on, with no space or quote in it


def masked_names(text: str) -> str:
    """`text` (a log line naming ids, rels, paths) with each run of it shaped like a provider's key shown as a
    write's refusal shows one (`ghp_… (40 characters)`): a log is read by `kg logs`, and by agents."""
    return _NAME_PART.sub(lambda m: _masked(m.group()), text)


@lru_cache(maxsize=NAMES_CHECKED_MAX)
def _masked(part: str) -> str:
    found = name_finding(part)
    return part if found is None else found.preview

