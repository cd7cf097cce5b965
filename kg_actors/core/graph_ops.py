"""Writes to one graph, as pure transitions: check everything, then commit.

Each function validates its whole request before it changes anything, so an
illegal request raises a domain error and leaves the graph as it was. The
optimistic arbitration of spec 000 "Concurrency" lives here: a write built on
a stale or partial view is refused with the node as it stands.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set
from typing import Any, cast

import attrs

from . import constants as C
from . import gone_ids, held_progress, held_secrets, ids, maintenance_guards, plain_text, schema_words, withheld
from . import withheld_kept
from .merge import CONFLICTS_FIELD
from .merge_dropped import without_dropped
from .errors import Conflict, InvalidInput, NotFound, WriteConflict
from .renamed_ids import RENAMED_KEY as RENAMED_KEY, remember_rename, renamed_target
from .model import Edge, EdgeKey, GraphData, Node, dangling_edges, edge_version_key, node_version_key, version_number


@attrs.frozen
class Writer:
    """Who writes, and what they last saw of the node they write."""

    session: str | None  # None: the editor (stamped, unchecked)
    maintenance: bool = False
    seen_at: float | None = None
    read_at: float | None = None
    guard: bool = True
    may_credit: bool = False  # not yet voted for this node, under the cap
    shown_cut: bool = False  # no view to build on: its gist was shown only cut short ("…")
    renamed_to: str | None = None  # another session renamed the node this session saw under this id
    replaced_from: str | None = None  # the session's view of it was lost to a "sync" or a "restore"


@attrs.frozen
class PutNodeResult:
    node: Node
    created: bool
    changed: bool
    promoted: bool
    note_credit: bool
    warnings: tuple[str, ...]
    hints: tuple[str, ...] = ()
    kept_held: bool = False  # a stored field holding a secret kept as it is (a marker sent back)


def _clean_list(values: Sequence[str] | None, field: str, limit: int,
                check: Callable[[str, str], None] = plain_text.check_text,
                stored: Sequence[str] = (), of_node: bool = False) -> tuple[str, ...] | None:
    """`stored`: the node's items as they stand; one sent back as it is passes (the rules are for new text: a
    hand edit's 30,000-character note must not block every save of its node)."""
    if values is None:
        return None
    if len(values) > C.LIST_MAX_ITEMS:
        raise InvalidInput(field, schema_words.notes_full(len(values), C.LIST_MAX_ITEMS) if of_node
                           else f"has {len(values)} items; at most {C.LIST_MAX_ITEMS}")
    kept = frozenset(stored)
    for i, v in enumerate(values):
        if not isinstance(v, str):
            raise InvalidInput(f"{field}[{i}]", "must be a string")
        if v in kept:
            continue
        if len(v) > limit:
            raise InvalidInput(f"{field}[{i}]", f"is {len(v)} characters; at most {limit}")
        check(v, f"{field}[{i}]")
    return tuple(values)


def check_gist(gist: object, stored: str | None = None) -> str:
    if not isinstance(gist, str) or not gist.strip():
        raise InvalidInput("gist", "must be a non-empty string")
    if gist == stored:  # sent back as it stands: the limit is for new text
        return gist
    if len(gist) > C.GIST_HARD_LIMIT:
        raise InvalidInput("gist", f"is {len(gist)} characters; at most {C.GIST_HARD_LIMIT} (soft target {C.GIST_SOFT_LIMIT})")
    plain_text.check_text(gist, "gist")
    return gist


def bump_version(graph: GraphData, vkey: str, now: float, writer: Writer) -> None:
    found = graph.versions.get(vkey)
    old = found if isinstance(found, dict) else {}  # an entry of another shape counts as none
    entry = {"v": version_number(old) + 1, "ts": now, "session": writer.session}
    if writer.maintenance:
        # Maintenance is not use: carry the prior activity time forward.
        prior = old.get("used_ts", old.get("ts"))
        if prior is not None:
            entry["used_ts"] = prior
    graph.set_version(vkey, entry)


def _refusal(graph: GraphData, level: str, node: Node, notes: Sequence[str] | None, touches: Sequence[str] | None,
             w: Writer) -> WriteConflict | None:
    conflict = _conflict(level, node, notes, touches, w)
    if conflict is not None:
        conflict.written_ts = (node.written or {}).get("ts")
        conflict.node = graph.lineage.mask.node(node).content()  # as an agent is shown it (core/withheld.py)
    return conflict


def _conflict(level: str, node: Node, notes: Sequence[str] | None, touches: Sequence[str] | None,
              w: Writer) -> WriteConflict | None:
    written = node.written or {}
    by, wts = written.get("by"), written.get("ts")
    foreign = bool(written) and by != w.session and isinstance(wts, int | float)
    wts = cast(float, wts)  # read only when foreign
    if foreign and (w.seen_at is None or w.seen_at < wts):
        who = "in the visual editor" if by is None else "by another session"  # the editor's writes are unowned
        return WriteConflict(level, node.id, node.content(), _unseen_reason(who, w))
    read_current = w.read_at is not None and not (foreign and w.read_at < wts)
    for name, sent, stored in (("notes", notes, node.notes), ("touches", touches, node.touches)):
        if sent is not None and stored and sent != stored and not read_current:
            return WriteConflict(level, node.id, node.content(), f"this write replaces {name} this session has not read")
    # Spec 003 refuses only these two. A write that leaves out notes the session read in their
    # current form is a deliberate trim (merging and pruning are what maintenance does), not a loss.
    return None


def gone_refusal(graph: GraphData, level: str, node_id: str, w: Writer) -> WriteConflict | None:
    """A write to an id that names no node, but named one this session saw: it is built on that node,
    renamed or deleted since (by another session, a chore or the visual editor), and would make a second
    copy of a lesson or bring a deleted one back unknowingly. Refused once, with the renamed node as it
    stands; the refusal is the session's view of the change, so the same write again makes the node."""
    shown = ids.shown(node_id)
    if w.renamed_to is not None:
        target = graph.nodes.get(w.renamed_to)
        if target is not None:
            reason = (f"'{shown}' was renamed to '{target.id}' after this session saw it (by another session, or "
                      f"on another machine and brought by `kg sync`); to change that lesson, write '{target.id}' "
                      f"(shown below). Sending this write again makes a second node '{shown}' beside it")
            return WriteConflict(level, target.id, graph.lineage.mask.node(target).content(), reason, (target.written or {}).get("ts"),
                                 gone=node_id)
        return WriteConflict(level, node_id, None, (
            f"'{shown}' was renamed to '{ids.shown(w.renamed_to)}' after this session last saw it, and that node "
            f"has since been deleted; sending this write again makes '{shown}' anew"), gone=node_id)
    if w.seen_at is not None:  # it stood when the session saw it whole, and is not here now
        return WriteConflict(level, node_id, None, (
            f"'{shown}' was deleted after this session last saw it (by another session, the visual editor, "
            f"a chore or a sync from another machine); if it should come back, sending this write again makes it "
            f"anew"), gone=node_id)
    return None


def _unseen_reason(who: str, w: Writer) -> str:
    """Why a node last written elsewhere is not the session's to replace: what it saw of it (with no
    whole view, a change since is not known, and may not have been made: the node may be as it was)."""
    if w.seen_at is not None:
        return f"changed {who} after this session last saw it"
    if w.replaced_from == "sync":
        return "changed on another machine (it came in through `kg sync`) after this session last saw it"
    if w.replaced_from == "restore":
        return "put back as it was at an earlier commit (`kg restore`) after this session last saw it"
    if w.shown_cut:
        return "this session has seen its gist only cut short (…), never whole"
    return f"this session has not been shown it yet (it was last written {who})"


def put_node(
    graph: GraphData, level: str, node_id: str, gist: str, notes: Sequence[str] | None,
    touches: Sequence[str] | None, now: float, writer: Writer,
) -> PutNodeResult:
    # The id rules bind a new id: a node a hand edit left with one no write takes is still edited.
    if node_id not in graph.nodes:
        ids.check_node_id(node_id)
    old = graph.nodes.get(node_id)
    # A gist is one line: its line breaks fold into spaces (the lesson is kept, and the reply says so).
    gist, folded = plain_text.fold_gist(check_gist(gist, old.gist if old else None))
    notes_t = _clean_list(notes, "notes", C.NOTE_HARD_LIMIT, plain_text.check_note, old.notes if old else (), True)
    touches_t = _clean_list(touches, "touches", C.ENDPOINT_MAX_LEN * 4, plain_text.check_touch,
                            old.touches if old else ())
    warnings: list[str] = [plain_text.GIST_FOLDED_NOTE] if folded else []
    echo: tuple[str, ...] = ()
    if old is not None:  # a marker sent back as shown keeps the stored field it stood for (core/withheld.py)
        gist, notes_t, touches_t, echo = withheld.echoed(old, graph.lineage.mask.node(old), gist, notes_t, touches_t)
        if echo:
            warnings.append(withheld.echoed_note(echo))
    for name, sent, was in (("gist", (gist,), (old.gist,) if old else ()), ("notes", notes_t, old.notes if old else ()),
                            ("touches", touches_t, old.touches if old else ())):
        withheld.refuse_markers(name, sent or (), was)  # one left standing for no stored field
    if touches_t is not None and len(set(touches_t)) < len(touches_t):
        touches_t = tuple(dict.fromkeys(touches_t))  # the first of each, in order
        warnings.append(plain_text.TOUCHES_REPEATED_NOTE)
    if old is None:
        ids.check_new_id_words(node_id)
        gone = gone_refusal(graph, level, node_id, writer) if writer.guard and writer.session is not None else None
        if gone is not None:
            raise gone
    elif writer.guard and writer.session is not None:
        refusal = _refusal(graph, level, old, notes_t, touches_t, writer)
        if refusal is not None:
            raise refusal
    if old is not None and writer.maintenance and writer.session is not None and gist != old.gist:
        churn = maintenance_guards.churn_refusal(node_id, old.gist_ts, now, old.created_ts)
        if churn is not None:
            raise churn
    if len(gist) > C.GIST_SOFT_LIMIT:
        warnings.append(
            f"note: gist is {len(gist)} chars; gists scan best ≤{C.GIST_SOFT_LIMIT}. "
            "Move detail into notes and keep the gist to the one claim."
        )
    nudge = ids.id_nudge(node_id)
    if nudge:
        warnings.append(nudge)

    kept = {n: v for n, v, sent in (("notes", old.notes, notes_t), ("touches", old.touches, touches_t))
            if sent is None} if old is not None else {}
    if kept and (held := held_secrets.kept_refusal("node", kept)) is not None:
        raise held  # a stored field a hand edit gave a secret is not kept by a write that left it unsent
    if old is not None and (unheld := withheld_kept.unheld_refusal(old, graph.lineage.mask.node(old), attrs.evolve(
            old, gist=gist, notes=old.notes if notes_t is None else notes_t,
            touches=old.touches if touches_t is None else touches_t))) is not None:
        raise unheld  # a withheld field kept while what made it one goes: it would be shown

    # -- commit
    new_notes = notes_t if notes_t is not None else (old.notes if old else ())
    new_touches = touches_t if touches_t is not None else (old.touches if old else ())
    stamp = {"ts": now, "by": writer.session}
    if old is None:
        node = Node(id=node_id, gist=gist, notes=new_notes, touches=new_touches, created_ts=now,
                    gist_ts=(now,), written=stamp)
        graph.set_node(node)
        bump_version(graph, node_version_key(node_id), now, writer)
        return PutNodeResult(node, True, True, False, False, tuple(warnings))

    changed = (gist, new_notes, new_touches) != (old.gist, old.notes, old.touches)
    prior = old.written or {}
    # The lesson's author is whoever first wrote it; later writers are recorded as `by`.
    author = prior.get("author", prior.get("by"))
    written = old.written
    if changed:
        written = dict(stamp)
        if author is not None and author != writer.session:
            written["author"] = author
    gist_ts = old.gist_ts
    if gist != old.gist:
        gist_ts = (old.gist_ts + (now,))[-C.GIST_TS_MAX:]
    promote = not old.active and not writer.maintenance
    note_credit = (
        not writer.maintenance and writer.may_credit and writer.session is not None
        and len(new_notes) > len(old.notes) and author is not None and author != writer.session
    )
    node = attrs.evolve(
        # Versions a sync set aside are resolved by this write (the writer was shown them on its read).
        old, gist=gist, notes=new_notes, touches=new_touches, written=written, gist_ts=gist_ts,
        extra={k: v for k, v in old.extra.items() if k != CONFLICTS_FIELD},
        archived=False if promote else old.archived,
        orphaned_ts=None if promote else old.orphaned_ts,
        useful_ts=old.useful_ts + ((now,) if note_credit else ()),
    )
    graph.set_node(node)
    if changed or promote or note_credit:
        # A save that changes nothing is no new version: another editor tab's edit of this one still goes in.
        bump_version(graph, node_version_key(node_id), now, writer)
    return PutNodeResult(node, False, changed, promote, note_credit, tuple(warnings), kept_held=bool(echo))


def _unnamed_in(graph: GraphData, end: str, known_elsewhere: Set[str]) -> str | None:
    """Where a bare-id end names no node (None: it names one, or is a file, always kept)."""
    if ids.is_artifact(end) or end in graph.nodes or end in known_elsewhere:
        return None
    return "this project's graph or the user graph" if graph.kind == "project" else f"the {graph.kind} graph"


def missing_endpoint(graph: GraphData, field: str, end: str, known_elsewhere: Set[str]) -> NotFound | None:
    """Spec 000 removes, on load, an edge whose bare-id end names no node. Spec 003 does not check ends when
    written (an agent may write the edge before its node): `put_edge` keeps it and says so (`unnamed_end`), the
    editor's form refuses it (a person picks an end that exists)."""
    if (where := _unnamed_in(graph, end, known_elsewhere)) is None:
        return None
    return NotFound(  # said to a person at the editor, whose form alone refuses such an end
        f"{field}: '{end}' names no node in {where}; an edge to it would be removed at the next load. The "
        f"Search box finds the node you meant (or add it first with + Node); a file end is written as a path "
        f"(with / or ~, e.g. ./{end})", field
    )


def unnamed_end(graph: GraphData, field: str, end: str, known_elsewhere: Set[str]) -> str | None:
    """What the reply says of an edge written with a bare-id end that names no node yet."""
    if (where := _unnamed_in(graph, end, known_elsewhere)) is None:
        return None
    return (f"{field}: '{end}' names no node in {where} yet: write it with kg_put_node, or the edge is removed at "
            f"the next load (kg_search(query='{end}') finds the node you meant; a file is written as a path, "
            f"e.g. ./{end})")


def put_edge(
    graph: GraphData, src: str, dst: str, rel: str, notes: Sequence[str] | None, now: float, writer: Writer,
    known_elsewhere: Set[str] = frozenset(), refuse_unnamed: bool = False,
) -> tuple[Edge, tuple[str, ...]]:
    """`known_elsewhere`: bare ids this graph's edges may also name (a project's: its user nodes). With what the
    reply says of an end that names no node yet (refused instead with `refuse_unnamed`)."""
    ids.check_endpoint(src, "from")
    ids.check_endpoint(dst, "to")
    ids.check_two_ends(src, dst)  # a write's rule only: a loop a graph file holds is loaded as it is
    ids.check_rel(rel)
    notes_t = _clean_list(notes, "notes", C.NOTE_HARD_LIMIT, plain_text.check_note)
    said = []
    for field, end in (("from", src), ("to", dst)):
        if refuse_unnamed and (missing := missing_endpoint(graph, field, end, known_elsewhere)) is not None:
            raise missing
        if (unnamed := unnamed_end(graph, field, end, known_elsewhere)) is not None:
            said.append(unnamed)
    old = graph.edges.get((src, dst, rel))
    withheld.refuse_markers("notes", notes_t or (), old.notes if old else ())
    kept = notes_t if notes_t is not None else (old.notes if old else ())
    if old is not None and old.notes and notes_t is not None and writer.guard and writer.session is not None \
            and not writer.maintenance and _last_writer(graph, old.key) != writer.session:
        # Another's notes on this edge were never shown to this session (edges have no seen-tracking):
        # they stay, and the new ones join them. Maintenance may replace them.
        # One holding a secret (a hand edit) does not stay: this write is how it goes.
        kept = (*held_secrets.without_secrets(old.notes), *(n for n in notes_t if n not in old.notes))
    elif notes_t is None and old is not None and (held := held_secrets.kept_refusal("edge", {"notes": old.notes})):
        raise held
    edge = Edge(src, dst, rel, kept, old.extra if old else {})
    graph.set_edge(edge)
    for end in (src, dst):  # a sync's notice that it dropped this very edge is done: the edge stands again
        node = graph.nodes.get(end)
        if node is not None and (rest := without_dropped(node.extra, src, dst, rel)) is not None:
            graph.set_node(attrs.evolve(node, extra=rest))
    bump_version(graph, edge_version_key(edge.key), now, writer)
    return edge, tuple(said)


def _last_writer(graph: GraphData, key: EdgeKey) -> object:
    entry = graph.versions.get(edge_version_key(key))
    return entry.get("session") if isinstance(entry, dict) else None


def repeat_credit(graph: GraphData, target_id: str, case_ts: float) -> bool:
    """Credit a lesson for a newer case linked to it by instance-of (idempotent)."""
    target = graph.nodes.get(target_id)
    if target is None or target.created_ts is None or case_ts <= target.created_ts:
        return False
    if case_ts in target.recurrence_ts:
        return False
    graph.set_node(attrs.evolve(
        target, useful_ts=target.useful_ts + (case_ts,), recurrence_ts=target.recurrence_ts + (case_ts,)
    ))
    return True


def delete_node(graph: GraphData, node_id: str, level: str = "", writer: Writer | None = None) -> int:
    node = graph.nodes.get(node_id)
    if node is None:
        raise NotFound(f"node '{ids.shown(node_id)}' not found")
    if writer is not None and writer.guard and writer.session is not None:
        # A session deletes only the version it has seen: another's rewrite since would go unread, and lost.
        stale = _refusal(graph, level, node, None, None, writer)
        if stale is not None:
            raise stale
    keys = [e.key for e in graph.incident(node_id)]
    for key in keys:
        graph.del_edge(key)
        graph.set_version(edge_version_key(key), None)
    graph.del_node(node_id)
    graph.set_version(node_version_key(node_id), None)
    if graph.kind == "user":  # a project's edges to it stay: a restore may bring it back (core/gone_ids.py)
        gone_ids.remember(graph, [node_id])
    return len(keys)


def delete_edge(graph: GraphData, key: EdgeKey) -> bool:
    if graph.del_edge(key) is None:
        return False
    graph.set_version(edge_version_key(key), None)
    return True


def record_read(graph: GraphData, node_id: str, now: float) -> tuple[bool, list[str]]:
    """A full node read by a working session: stamp, promote, rescue orphaned neighbours."""
    node = graph.nodes.get(node_id)
    if node is None:
        return False, []
    promoted = not node.active
    graph.set_node(attrs.evolve(node, last_read_ts=now, archived=False, orphaned_ts=None))
    rescued = []
    if promoted:
        for edge in list(graph.incident(node_id)):
            other = graph.nodes.get(edge.other(node_id))
            if other is not None and other.orphaned:
                graph.set_node(attrs.evolve(other, orphaned_ts=None, archived=True))
                rescued.append(other.id)
    return promoted, rescued


def endorse(graph: GraphData, node_id: str, now: float, credits: int | None) -> str:
    """An endorsement (one stamp) or a maintenance credit (1-3 stamps; an orphan returns to the archive)."""
    node = graph.nodes[node_id]
    if credits is None:
        graph.set_node(attrs.evolve(node, useful_ts=node.useful_ts + (now,)))
        return node.state
    unorphan = node.orphaned
    graph.set_node(attrs.evolve(
        node, useful_ts=node.useful_ts + (now,) * credits, credited_ts=node.credited_ts + (now,),
        orphaned_ts=None, archived=True if unorphan else node.archived,
    ))
    return "unorphaned" if unorphan else node.state


def _trail_value(value: object) -> object:
    clip = C.PROGRESS_TRAIL_CLIP
    if isinstance(value, str):
        return value[:clip]
    if isinstance(value, bool | int | float) or value is None:
        return value
    if isinstance(value, list):
        return [str(v)[:clip] if not isinstance(v, int | float | bool) else v for v in value[: C.PROGRESS_TRAIL_LIST_ITEMS]]
    return str(value)[:clip]


def set_progress(graph: GraphData, task_id: str, state: dict[str, Any], now: float) -> dict[str, Any]:
    if not isinstance(state, dict):
        raise InvalidInput("state", "must be an object")
    old = graph.progress.get(task_id) or {}
    # What a hand edit left in the trail is not carried over: the state a write leaves holds no secret.
    trail = held_progress.trail_kept(list(old.get("_trail") or []))
    entry: dict[str, Any] = {"_ts": round(now, 3)}
    entry.update({k: _trail_value(v) for k, v in state.items() if k not in ("_trail", "last_ts")})
    trail = (trail + [entry])[-C.PROGRESS_TRAIL_MAX:]
    stored = {k: v for k, v in state.items() if k != "_trail"}
    stored["last_ts"] = now
    stored["_trail"] = trail
    graph.set_progress(task_id, stored)
    return stored


def rename_local(graph: GraphData, old_id: str, new_id: str, now: float, writer: Writer) -> int:
    """Move a node to a new id in its own graph and rewire this graph's edges."""
    node = graph.nodes.get(old_id)
    if node is None:
        raise NotFound(f"node '{ids.shown(old_id)}' not found")
    if new_id in graph.nodes:
        raise Conflict(f"new_id: '{new_id}' already exists in this graph; pick a free id, or to merge, fold one "
                       "node's words into the other and delete the leftover", "new_id")
    graph.del_node(old_id)
    graph.set_node(attrs.evolve(node, id=new_id))
    if graph.kind == "user":
        remember_rename(graph, old_id, new_id)
    old_v, new_v = node_version_key(old_id), node_version_key(new_id)
    if old_v in graph.versions:
        graph.set_version(new_v, graph.versions[old_v])
        graph.set_version(old_v, None)
    bump_version(graph, new_v, now, writer)
    return rewire(graph, old_id, new_id, now, writer)


def clean_dangling(graph: GraphData, outside_ids: Set[str], renamed: Mapping[str, object],
                   now: float) -> tuple[list[tuple[str, str]], list[EdgeKey]]:
    """Spec 000: an edge whose bare-id end names no node here nor in `outside_ids` (a project's user
    nodes) goes on load; one to a user node renamed while this graph waited for its rewiring (the
    server stopped between the two) is rewired instead. The (old, new) ids rewired, the edges removed."""
    def exists(end: str) -> bool:
        return end in graph.nodes or end in outside_ids
    rewired = []
    removed = dangling_edges(graph, outside_ids)
    for end in dict.fromkeys(e for key in removed for e in key[:2] if not exists(e)):
        target = renamed_target(renamed, end, exists)
        if target is not None:
            rewire(graph, end, target, now, Writer(session=None, maintenance=True))
            rewired.append((end, target))
    if rewired:  # a second pass over the edges only when some moved
        removed = dangling_edges(graph, outside_ids)
    for key in removed:
        delete_edge(graph, key)
    return rewired, removed


def rewire(graph: GraphData, old_id: str, new_id: str, now: float, writer: Writer) -> int:
    """Point every edge endpoint named `old_id` at `new_id`; collapsed edges keep both notes."""
    count = 0
    for edge in list(graph.incident(old_id)):
        graph.del_edge(edge.key)
        graph.set_version(edge_version_key(edge.key), None)
        src = new_id if edge.src == old_id else edge.src
        dst = new_id if edge.dst == old_id else edge.dst
        count += (edge.src == old_id) + (edge.dst == old_id)
        existing = graph.edges.get((src, dst, edge.rel))
        notes = edge.notes
        if existing is not None:
            notes = existing.notes + tuple(n for n in edge.notes if n not in existing.notes)
        moved = attrs.evolve(edge, src=src, dst=dst, notes=notes)
        graph.set_edge(moved)
        bump_version(graph, edge_version_key(moved.key), now, writer)
    return count
