"""Long replies in parts cut at line ends, each carrying the effects of what it shows.

A reply is built as lines, each with the effects its delivery causes (a node
counts as seen when the part showing it is delivered). `split` cuts the lines
into parts no longer than the client keeps whole, in the client's unit, and
adds the continuation footer to every part but the last.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

FOOTER_RESERVE = 300
NOTHING_PENDING = "Nothing more to read: the last kg_read reply was complete (or a newer read replaced it)."

Effects = dict[str, list[Any]]
Line = tuple[str, Effects | None]


def merge(into: Effects, more: Effects | None) -> None:
    for key, values in (more or {}).items():
        into.setdefault(key, []).extend(values)


def footer(i: int, n: int, sid: str) -> str:
    return (
        f"\n\n[KG reply part {i} of {n} — it continues. Call kg_read(session_id='{sid}', more=true) "
        f"for part {i + 1}; the reply is complete only after part {n}.]"
    )


def _cut(line: str, room: int, measure: Callable[[str], int]) -> int:
    """Longest prefix of `line` (in characters) that measures within `room`."""
    lo, hi = 0, len(line)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if measure(line[:mid]) <= room:
            lo = mid
        else:
            hi = mid - 1
    return max(lo, 1)


def _starts_block(line: str) -> bool:
    """A line that opens a block (a node's `▸ id`, a header), not one of a block's indented lines."""
    return bool(line) and not line[0].isspace()


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


class _Blocks:
    """Which lines open a block. Under a list heading (a line at the margin ending in `:`, as the full read's
    `ACTIVE:`) each item is a block of its own, with the lines indented under it (its edges): the heading
    with every item under it went whole into the next part, and left the part before it nearly empty."""

    def __init__(self) -> None:
        self.heading = False
        self.item_indent: int | None = None

    def opens(self, line: str) -> bool:
        if _starts_block(line):
            self.heading, self.item_indent = line.rstrip().endswith(":"), None
            return True
        if not self.heading or not line.strip():
            return False
        if self.item_indent is None:
            self.item_indent = _indent(line)
        return _indent(line) == self.item_indent


def split(lines: list[Line], limit: int | None, measure: Callable[[str], int], sid: str) -> list[tuple[str, Effects]]:
    """The parts, each within `limit`. A block (a line and the indented lines under it: a node's gist, notes,
    edges) goes whole into the next part rather than be cut, when it fits in one: a part that began in the
    middle of a lesson showed notes with no id above them."""
    text = "\n".join(line for line, _ in lines)
    if limit is None or measure(text) <= limit:
        effects: Effects = {}
        for _, eff in lines:
            merge(effects, eff)
        return [(text, effects)]
    room = limit - FOOTER_RESERVE
    parts: list[list[tuple[str, Effects | None, int]]] = [[]]  # each line with its effects and its cost
    used = 0
    block = 0  # where the current part's last block starts
    blocks = _Blocks()
    for line, eff in lines:
        cost = measure(line) + 1
        while cost > room:  # one line longer than a part: cut it at the longest prefix that fits
            if parts[-1]:
                parts.append([])
            head_len = _cut(line, room - 1, measure)
            parts[-1].append((line[:head_len], None, 0))
            parts.append([])
            line = line[head_len:]
            cost = measure(line) + 1
            used, block = 0, 0
        opens = blocks.opens(line)
        if opens:
            block = len(parts[-1])
        if used + cost > room and parts[-1]:
            moved: list[tuple[str, Effects | None, int]] = []
            if line.strip() and not opens and 0 < block \
                    and sum(c for _, _, c in parts[-1][block:]) + cost <= room:
                moved = parts[-1][block:]
                del parts[-1][block:]
            parts.append(moved)
            used, block = sum(c for _, _, c in moved), 0
        parts[-1].append((line, eff, cost))
        used += cost
    kept = [p for p in parts if p]
    n = len(kept)
    out = []
    for i, part in enumerate(kept):
        effects = {}
        for _, eff, _ in part:
            merge(effects, eff)
        out.append(("\n".join(line for line, _, _ in part) + (footer(i + 1, n, sid) if i + 1 < n else ""), effects))
    return out
