"""A stored field withheld from agents stays withheld whatever a write does next.

A field may be withheld for what another field beside it holds: an AWS secret key for its key id in the gist, a
part of a key split across notes for the other part. A write that keeps the field (leaves it unsent, or sends its
marker back: core/withheld.echoed) while it changes the other would leave a text no rule reads as a secret any
more: shown to every agent, and kept in the file. Such a write is refused naming the field, so the writer sends
it without the secret; checked on the node the write leaves, whatever field pair made the secret."""

from __future__ import annotations

import re

from .errors import InvalidInput
from .records import Node
from .withheld import node_shown

_KIND = re.compile(r"\[withheld: holds what looks like (.+); edit it in kg's editor\]")


def _fields(node: Node) -> list[tuple[str, str, str]]:
    """(list name, field, text) of each of a node's text fields."""
    return [("gist", "gist", node.gist), *(("notes", f"notes[{i}]", n) for i, n in enumerate(node.notes)),
            *(("touches", f"touches[{i}]", t) for i, t in enumerate(node.touches))]


def unheld_refusal(old: Node, old_shown: Node, new: Node) -> InvalidInput | None:
    """The refusal of a write leaving `new` where `old` (shown to agents as `old_shown`) had a withheld field whose
    text `new` keeps but no longer withholds; None when there is none (most writes: `old` held nothing)."""
    if old_shown is old:
        return None
    held = {(name, text): shown for (name, _, text), (_, _, shown) in zip(_fields(old), _fields(old_shown))
            if shown != text}
    if not held:
        return None
    shown_new = node_shown(new) or {}
    for (name, field, text), i in zip(_fields(new), [0, *range(len(new.notes)), *range(len(new.touches))]):
        mark = held.get((name, text))
        if mark is None:
            continue
        now = shown_new.get(name)
        if isinstance(now, str) and now != text or isinstance(now, tuple) and now[i] != text:
            continue  # still withheld
        kind = m.group(1) if (m := _KIND.fullmatch(mark)) is not None else "a secret"
        return InvalidInput(field, f"is a stored text withheld from agents as what looks like {kind}; this write "
                                   f"would show it (what made it one no longer beside it): send the {name} without it")
    return None
