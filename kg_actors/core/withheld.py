"""What an agent is shown of a stored field that holds a secret: a marker in its place, never the secret.

Every write refuses a secret (secrecy.py), but a graph file is plain JSON a person, a script or an older kg
may edit (held_secrets.py names what it finds at load). The file keeps such a field as written until the
user edits it; every reply to an agent (reads, searches, the preload, recalls) shows the marker instead,
and the node's other fields as usual. The editor, the user's own view, shows the field as written so it
can be fixed there.

Checking a node costs ~0.3 ms, more than a hook reply may pay for every node it renders, so a Mask keeps
each node's answer while its text is the text checked: the memo of a pure function (`withheld_fields`),
so whoever fills an entry fills it with the same answer. It lives on the graph's Lineage (one per graph,
shared by every snapshot of it): the graph's actor marks a node written through kg clean (the write
refused any secret) and hands it the answer of the load's background scan (held_scan.py), which a node's
first showing then looks up instead of checking (filling 10,000 entries at once held the loop ~30 ms).
Before that answer, a reply checks what it renders (~0.1 ms a node, once): no unscanned field is shown.
"""

from __future__ import annotations

import re

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from .errors import InvalidInput

from .joined_held import joined_held
from .records import Edge, EdgeKey, Node, edge_storage_key
from .secrecy import SecretRefused, find, parts_held
from .secret_aws import beside as aws_beside


def marker(kind: str) -> str:
    """What an agent sees in place of a field holding a secret: what it looks like, and where it is fixed."""
    return f"[withheld: holds what looks like {kind}; edit it in kg's editor]"


_MARKER = re.compile(r"\[withheld: holds what looks like [^\]\n]{1,200}; edit it in kg's editor\]")
MARKER_SENT = "is the marker kg shows in place of a withheld secret; send the field's text"
MARKER_WITHIN = "holds the marker kg shows in place of a withheld secret; send the field's own text without it"


def refuse_markers(name: str, values: Iterable[str], stored: Iterable[str] = ()) -> None:
    """A field sent as a marker where it stands for no stored field (another field, a new node, a second copy),
    or holding one among words of its own: refused, as storing it would keep a text that looks like a withheld
    secret. `stored`: the texts the same field holds as stored (one a hand edit left so stays as it is)."""
    kept = set(stored)
    for i, value in enumerate(values):
        if value not in kept and "[withheld: " in value and (found := _MARKER.search(value)) is not None:
            whole = found.group() == value.strip()
            raise InvalidInput(name if name == "gist" else f"{name}[{i}]", MARKER_SENT if whole else MARKER_WITHIN)


def withheld_fields(fields: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Each named text field that holds what looks like a secret, with the secret's kind (never the secret)."""
    out: dict[str, str] = {}
    for name, text in fields:
        if text and (found := find(text)) is not None:
            out[name] = found.kind
    return out


def _items(values: tuple[str, ...], kinds: list[str | None]) -> tuple[str, ...]:
    return tuple(v if kind is None else marker(kind) for v, kind in zip(values, kinds))


def node_shown(node: Node) -> dict[str, Any] | None:
    """The fields of `node` an agent is shown otherwise (marker in place of each one holding a secret), or
    None when it holds none."""
    fields = [("gist", node.gist), *((f"n{i}", n) for i, n in enumerate(node.notes)),
              *((f"t{i}", t) for i, t in enumerate(node.touches))]
    held = withheld_fields(fields)
    alone = frozenset("gist" if f == "gist" else f"notes[{f[1:]}]" for f in held if f[0] != "t")
    for field, kind in joined_held(node.gist, node.notes, alone=alone).items():  # a key split across fields: each part
        held.setdefault("gist" if field == "gist" else f"n{field[6:-1]}", kind)
    alone = frozenset(f"touches[{f[1:]}]" for f in held if f[0] == "t")
    for field, kind in joined_held(None, node.touches, "touches", alone=alone).items():  # as across notes
        held.setdefault(f"t{field[8:-1]}", kind)
    for field, found in aws_beside(fields).items():  # a key id in one field, its secret key in another
        held.setdefault(field, found.kind)
    for field, kind in parts_held(f for f in fields if f[0] not in held).items():  # a part with words around it
        held[field] = kind
    if not held:
        return None
    out: dict[str, Any] = {}
    if "gist" in held:
        out["gist"] = marker(held["gist"])
    for name, values in (("notes", node.notes), ("touches", node.touches)):
        kinds = [held.get(f"{name[0]}{i}") for i in range(len(values))]
        if any(kinds):
            out[name] = _items(values, kinds)
    return out


def notes_shown(notes: tuple[str, ...]) -> tuple[str, ...] | None:
    """An edge's notes as an agent is shown them, or None when none holds a secret."""
    held = withheld_fields((str(i), n) for i, n in enumerate(notes))
    for field, kind in joined_held(None, notes, alone=frozenset(f"notes[{f}]" for f in held)).items():  # a key split across notes: each part
        held.setdefault(field[6:-1], kind)
    for field, found in aws_beside((str(i), n) for i, n in enumerate(notes)).items():
        held.setdefault(field, found.kind)
    held |= parts_held((str(i), n) for i, n in enumerate(notes) if str(i) not in held)
    return None if not held else _items(notes, [held.get(str(i)) for i in range(len(notes))])


def visible(node: Node, shown: Node) -> Node:
    """`node` with only the fields an agent is shown as stored (`shown`: Mask.node's): what search and recall
    may find it by, so that no withheld word counts towards its rank."""
    return attrs.evolve(node, gist=node.gist if shown.gist == node.gist else "",
                        notes=tuple(n for n, s in zip(node.notes, shown.notes) if n == s),
                        touches=tuple(t for t, s in zip(node.touches, shown.touches) if t == s))


def _same_text(a: Node, b: Node) -> bool:
    return a.gist == b.gist and a.notes == b.notes and a.touches == b.touches


class Mask:
    """Per node (and edge): the version last checked and what an agent is shown of it (None: as stored);
    and the last scan's answer, looked up at a node's first showing (installing it costs nothing then)."""

    __slots__ = ("_nodes", "_edges", "_scan")

    def __init__(self) -> None:
        self._nodes: dict[str, tuple[Node, dict[str, Any] | None]] = {}
        self._edges: dict[EdgeKey, tuple[tuple[str, ...], tuple[str, ...] | None]] = {}
        self._scan: tuple[Mapping[str, Node], Mapping[EdgeKey, Edge], frozenset[tuple[str, str]]] | None = None

    def _scanned_clean(self, node: Node) -> bool:
        if self._scan is None or ("node", node.id) in self._scan[2]:
            return False
        seen = self._scan[0].get(node.id)
        return seen is not None and (seen is node or _same_text(seen, node))

    def _entry(self, node: Node) -> dict[str, Any] | None:
        hit = self._nodes.get(node.id)
        if hit is not None and hit[0] is node:
            return hit[1]
        if hit is None or not _same_text(hit[0], node):
            hit = (node, None if self._scanned_clean(node) else node_shown(node))
        self._nodes[node.id] = (node, hit[1])  # the newest version: the next look is an identity check
        return hit[1]

    def node(self, node: Node) -> Node:
        """`node` as an agent is shown it."""
        shown = self._entry(node)
        return node if shown is None else attrs.evolve(node, **shown)

    def gist(self, node: Node) -> str:
        shown = self._entry(node)
        return node.gist if shown is None else shown.get("gist", node.gist)

    def edge(self, edge: Edge) -> Edge:
        if not edge.notes:
            return edge
        hit = self._edges.get(edge.key)
        if hit is None or hit[0] != edge.notes:
            seen = self._scan[1].get(edge.key) if self._scan is not None else None
            clean = (seen is not None and seen.notes == edge.notes and self._scan is not None
                     and ("edge", edge_storage_key(edge.key)) not in self._scan[2])
            hit = (edge.notes, None if clean else notes_shown(edge.notes))
            self._edges[edge.key] = hit
        return edge if hit[1] is None else attrs.evolve(edge, notes=hit[1])

    def held_ids(self) -> set[str]:
        """The nodes known to hold a secret: the scan's answer and what a reply's check found since."""
        found = {key for what, key in self._scan[2] if what == "node"} if self._scan is not None else set()
        return found | {node_id for node_id, (_, shown) in self._nodes.items() if shown is not None}

    def visible(self, node: Node) -> Node | None:
        """`node` without its fields holding a secret when it is known to hold one, else None. A lookup for any
        other node (a search index asks at each write): only a node known held is checked."""
        hit = self._nodes.get(node.id)
        scan = self._scan[2] if self._scan is not None else frozenset()
        if (hit is None or hit[1] is None) and ("node", node.id) not in scan:
            return None
        shown = self.node(node)
        return None if shown is node else visible(node, shown)

    def clean(self, node: Node) -> None:
        """`node` holds no secret: a write through kg refused any."""
        self._nodes[node.id] = (node, None)

    def scanned(self, nodes: Mapping[str, Node], edges: Mapping[EdgeKey, Edge], held: Iterable[tuple[str, str]]
                ) -> None:
        """A scan's answer over these versions (a snapshot's maps, kept as they are): all clean but `held`
        ((what, key) pairs: "node", its id; "edge", `from->to:rel`). A node shown later with the text the scan
        saw needs no check of its own; one held, or changed since in a way kg did not check, is checked."""
        self._scan = (nodes, edges, frozenset(held))


def echoed(stored: Node, shown: Node, gist: str, notes: tuple[str, ...] | None, touches: tuple[str, ...] | None
           ) -> tuple[str, tuple[str, ...] | None, tuple[str, ...] | None, tuple[str, ...]]:
    """A write's fields with each one sent back equal to the marker shown for a stored field put back as stored
    (an agent resends the node as it was shown it: the marker is no text to store, and the field is the user's
    to fix in the editor). Matched by the marker's text, in order, to the stored fields it stood for, wherever
    it was sent. With the names of the sent fields so kept."""
    kept: list[str] = []
    if gist != stored.gist and gist == shown.gist:
        gist = stored.gist
        kept.append("gist")
    out = []
    for name, sent, was, as_shown in (("notes", notes, stored.notes, shown.notes),
                                      ("touches", touches, stored.touches, shown.touches)):
        if sent is None or was == as_shown:
            out.append(sent)
            continue
        held: dict[str, list[str]] = {}
        for value, mark in zip(was, as_shown):
            if value != mark:
                held.setdefault(mark, []).append(value)
        items = []
        for i, value in enumerate(sent):
            if held.get(value):
                items.append(held[value].pop(0))
                kept.append(f"{name}[{i}]")
            else:
                items.append(value)
        out.append(tuple(items))
    if kept:  # a field put back as stored is read with those sent: a new secret key beside a kept key id
        notes_now, touches_now = (stored.notes if out[0] is None else out[0]), (
            stored.touches if out[1] is None else out[1])
        for field, found in aws_beside([("gist", gist), *((f"notes[{i}]", n) for i, n in enumerate(notes_now)),
                                        *((f"touches[{i}]", t) for i, t in enumerate(touches_now))]).items():
            if field not in kept and (field == "gist" or (notes if field[0] == "n" else touches) is not None):
                raise SecretRefused(field, found)
    return gist, out[0], out[1], tuple(kept)


def echoed_note(kept: tuple[str, ...]) -> str:
    """The reply's line for fields sent back as their marker: kept as stored, and still withheld."""
    return (f"note: {', '.join(kept)} {'was' if len(kept) == 1 else 'were'} sent as the marker shown for a stored "
            "note, gist or touch: the stored text is kept as it is (still withheld from agents; the user fixes it "
            "in kg's editor)")
