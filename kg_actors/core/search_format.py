"""The kg_search reply: top hits in full, the paths between them, more one-liners.

Capped at SEARCH_CHAR_BUDGET. The trim ladder drops further matches first
(lowest first), then the connections section, then notes from the
lowest-ranked hit upwards, then cuts top gists (the lowest-ranked first, each
to GIST_CUT_TO at least, saying so); what is still over (ids of thousands of
characters, loaded from a hand-edited file) is cut at the cap. A hit whose
notes were cut says how many and where they are, because being shown marks it
seen and later searches skip its notes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import accumulate

from . import constants as C
from .model import Edge, Node
from .plain_text import note_item, one_line
from .render import edge_line, node_line
from .search import Hit, Ref

BEST_EFFORT = "[no session_id — project results best-effort across all loaded graphs]"
CONNECTIONS_HEADER = "CONNECTIONS between hits:"
MORE_HEADER = "MORE MATCHES:"
GIST_CUT_TO = 300  # characters of a top gist kept when gists must be cut to fit the cap
GIST_CUT = "… (gist cut to fit the reply: kg_read it)"
CUT_AT_CAP = "\n… (reply cut at its cap: kg_read the ids above for the rest)"


def _echo(query: str) -> str:
    query = " ".join(query.split())
    if len(query) > C.SEARCH_QUERY_ECHO_MAX:
        return query[: C.SEARCH_QUERY_ECHO_MAX - 1] + "…"
    return query


def _more_line(node: Node) -> str:
    """A further match as one line; archived and orphaned ones are flagged like top hits (spec 003:
    search flags them, so a node read can bring them back)."""
    tier = "orphaned" if node.orphaned else "archived" if node.archived else None
    return node_line(f"{node.id} [{tier}]" if tier else node.id, node.gist)


def _lines_size(lines: Sequence[str]) -> int:
    return sum(len(line) for line in lines) + max(len(lines) - 1, 0)


class _HitBlock:
    """One top hit; `kept` notes shown, the rest summed up in one pointer line."""

    def __init__(self, level: str, hit: Hit, node: Node):
        flags = "".join((
            ", archived" if node.archived and not node.orphaned else "",
            ", orphaned" if node.orphaned else "",
            ", seen" if hit.seen else "",
        ))
        self.head = [f"▸ {one_line(node.id)} ({level}{flags})", f"  gist: {one_line(node.gist)}"]
        # A seen hit is a gist reminder: its notes stay one node read away.
        self.notes = [] if hit.seen else [note_item(note) for note in node.notes]
        self._prefix = [0, *accumulate(len(n) + 1 for n in self.notes)]
        self.kept = len(self.notes)
        self.cut = False  # the gist shown is cut short: the node is in context, not seen whole

    def _tail(self) -> list[str]:
        dropped = len(self.notes) - self.kept
        if not self.notes:
            return []
        if self.kept == 0:
            return [f"  notes: {dropped} not shown — kg_read it"]
        more = [f"    … {dropped} more note(s) — kg_read it"] if dropped else []
        return ["  notes:", *more]

    def size(self) -> int:
        return _lines_size(self.head + self._tail()) + self._prefix[self.kept]

    def cut_gist(self, over: int) -> bool:
        """Shorten the gist by up to `over` characters, keeping GIST_CUT_TO; whether it could."""
        gist = self.head[1]
        keep = max(len("  gist: ") + GIST_CUT_TO, len(gist) - over - len(GIST_CUT))
        if keep >= len(gist) - len(GIST_CUT):
            return False
        self.head[1] = gist[:keep] + GIST_CUT
        self.cut = True
        return True

    def lines(self) -> list[str]:
        tail = self._tail()
        if self.kept == 0:
            return self.head + tail
        return self.head + tail[:1] + self.notes[: self.kept] + tail[1:]


def format_search(
    query: str,
    ranked: Sequence[tuple[str, Hit]],
    nodes: Mapping[Ref, Node],
    connectors: Sequence[Ref] = (),
    path_edges: Sequence[tuple[str, Edge]] = (),
    *,
    best_effort: bool = False,
    total: int | None = None,
    budget: int = C.SEARCH_CHAR_BUDGET,
) -> tuple[str, list[Ref], frozenset[Ref]]:
    """The reply text, the (level, id) of every node it shows (to mark seen), and those of them whose
    gist it cut short (in context, not seen whole: spec 000 refuses a write built on a part).

    `ranked` is `merge_hits` output (it may stop after the top+more hits when
    `total` says how many matched); `nodes` must hold the nodes of those hits
    and of the connectors (a missing one is left out).
    """
    suffix = f" {BEST_EFFORT}" if best_effort else ""
    shown_hits = [(lvl, h) for lvl, h in ranked if (lvl, h.node_id) in nodes]
    if not shown_hits:
        return f"No nodes found matching '{_echo(query)}'{suffix}", [], frozenset()
    top = shown_hits[: C.SEARCH_TOP_K]
    more = shown_hits[C.SEARCH_TOP_K: C.SEARCH_TOP_K + C.SEARCH_MORE_K]
    total = len(ranked) if total is None else total
    header = f"Found {total} match(es) for '{_echo(query)}' — top {len(top)}:{suffix}"
    blocks = [_HitBlock(lvl, h, nodes[(lvl, h.node_id)]) for lvl, h in top]
    linked = [ref for ref in connectors if ref in nodes]
    connections = [node_line(ref[1], nodes[ref].gist) for ref in linked]
    connections += [edge_line(edge) for _, edge in path_edges]
    more_lines = [_more_line(nodes[(lvl, h.node_id)]) for lvl, h in more]

    def size() -> int:
        parts = [len(header), *(b.size() for b in blocks)]
        if connections:
            parts.append(_lines_size([CONNECTIONS_HEADER, *connections]))
        if more_lines:
            parts.append(_lines_size([MORE_HEADER, *more_lines]))
        return sum(parts) + 2 * (len(parts) - 1)  # blank line between sections

    while size() > budget:
        if more_lines:
            more_lines.pop()
        elif connections:
            connections = []
        elif trimmable := [b for b in blocks if b.kept > 0]:
            trimmable[-1].kept -= 1
        elif not any(b.cut_gist(size() - budget) for b in reversed(blocks)):
            break  # only ids and the shortest gists left: cut at the cap below

    sections = [[header], *(b.lines() for b in blocks)]
    shown = [(lvl, h.node_id) for lvl, h in top]
    gist_lines = {ref: b.head[1] for ref, b in zip(shown, blocks)}
    cut = {ref for ref, b in zip(shown, blocks) if b.cut}
    if connections:
        sections.append([CONNECTIONS_HEADER, *connections])
        gist_lines.update((ref, node_line(ref[1], nodes[ref].gist)) for ref in linked if ref not in gist_lines)
        shown += [ref for ref in linked if ref not in shown]
    if more_lines:
        sections.append([MORE_HEADER, *more_lines])
        more_refs = [(lvl, h.node_id) for lvl, h in more[: len(more_lines)]]
        gist_lines.update((ref, line) for ref, line in zip(more_refs, more_lines) if ref not in gist_lines)
        shown += more_refs
    text = "\n\n".join("\n".join(lines) for lines in sections)
    if len(text) > budget:
        text = text[: budget - len(CUT_AT_CAP)]
        cut |= {ref for ref, line in gist_lines.items() if line not in text}  # its gist ran past the cap
        text += CUT_AT_CAP
    return text, shown, frozenset(cut)
