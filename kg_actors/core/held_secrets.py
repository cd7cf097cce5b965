"""Secrets in stored entries that no checked write put there: a hand-edited graph file, another machine's
version arriving by sync, an older kg's store.

Every write refuses a secret (core/secrecy.py), but a graph file is plain JSON that a person, a script or
another machine's kg may change. Pure: each finding names the entry, the field and the kind of secret,
never the secret itself; the callers decide (a sync leaves the version out, a load and `kg doctor` say so,
a sync's commit is refused).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from .errors import InvalidInput
from .held_names import masked_names
from .held_progress import TASK_ID, progress_fields
from .joined_held import JOINT, joined_held
from .records import notes_read, texts_read
from .secrecy import check_fields, find, name_finding
from .secret_aws import beside as aws_beside
from .secret_findings import Finding
from .secret_fragments import fragments_in

Json = dict[str, Any]


def _pairs(value: Iterable[Iterable[str]]) -> tuple[tuple[str, str], ...]:
    """(field, kind) pairs however they came (a child's JSON gives lists)."""
    return tuple((str(a), str(b)) for a, b in value)


@attrs.frozen
class Held:
    """One stored entry holding a secret: a node (`key` its id) or an edge (`key` as `from->to:rel`)."""

    what: str  # "node" | "edge" | "progress" (a task's state) | "project" (its folder's name: `key`, `shown` masked)
    key: str
    field: str  # "gist", "notes[2]", "touches[0]"; a name: "id", "rel", "from", "to"
    kind: str  # the kind of secret, as the write refusal names it ("a GitHub token")
    shown: str = ""  # the key as said, when a name in it holds the secret: that name masked
    # The entry's other fields holding one, (field, kind) each: a user who fixed only the first would be
    # refused again. A tuple of pairs however it came (a child's JSON gives lists).
    more: tuple[tuple[str, str], ...] = attrs.field(default=(), converter=_pairs)
    # A sync's: the commit of the other machine's history whose version of the entry, the newest there without
    # a secret, was taken in its place ("" when there is none, and this machine's version stands).
    earlier: str = ""

    def fields(self) -> tuple[tuple[str, str], ...]:
        """Each (field, kind) of the entry holding one."""
        return ((self.field, self.kind), *self.more)

    def fields_said(self) -> str:
        return ", ".join(f"{field} (holds {kind})" for field, kind in self.fields())

    def said(self) -> str:
        if self.shown and self.what == "edge":  # the edge's key, then which part of it holds the key
            part = "its rel" if self.field == "rel" else f"its {self.field} end"
            return f"edge '{self.shown}' ({part} holds {self.kind})"
        if self.shown:  # the key itself holds it: never said whole
            return f"{self.what} {self.field} '{self.shown}' (holds {self.kind})"
        return f"{self.what} '{self.key}' {self.fields_said()}"

    def agents_see(self) -> str:
        if self.what == "project":
            return "its graph is served as any other"
        return ("agents are not shown the entry at all (its name holds it)" if self.shown
                else "agents are shown a marker in its place")

    def fix(self) -> str:
        if self.what == "project":
            return FOLDER_FIX
        if self.what == "progress":
            return (PROGRESS_NAME_FIX if self.shown else "edit its state in kg's editor (Progress) or with kg_progress, "
                    "sending the state without the secret")
        if self.shown:  # no tool reaches an entry agents are never shown: the user's editor does
            return "rename or delete it in kg's editor"
        return f"edit it in the editor or with {tools_for([self])}, sending the field without the secret"

    def to_json(self) -> Json:
        out: Json = {"what": self.what, "key": self.key, "field": self.field, "kind": self.kind}
        if self.more:
            out["more"] = [list(pair) for pair in self.more]
        if self.earlier:
            out["earlier"] = self.earlier
        return {**out, "shown": self.shown} if self.shown else out


FOLDER_FIX = ("rename the project folder so its name holds no key, then give it its graph: `kg stop`, in the store's "
              "projects/ folder move the graph's folder to the new folder's name, `kg start`, and open a session in "
              "the renamed folder (its graph then records the new path; kg doctor names the graph's folder)")


# No tool removes a task: its entry is taken out of the graph file by hand, with no server writing the file.
PROGRESS_NAME_FIX = ("with the server stopped (`kg stop`), remove the task from `_meta.progress` in the graph file, "
                     "then `kg start`")


def tools_for(held: Iterable[Held]) -> str:
    """The tool that edits what holds a secret, worded by what that is: kg_put_edge for an edge, kg_progress for a
    task's state."""
    whats = {h.what for h in held} - {"project"}
    tools = [tool for what, tool in (("node", "kg_put_node"), ("edge", "kg_put_edge"), ("progress", "kg_progress"))
             if what in whats]
    if len(tools) <= 1:
        return tools[0] if tools else "kg_put_node"
    named = {"kg_put_node": "a node", "kg_put_edge": "an edge", "kg_progress": "a task's state"}
    return " or ".join(f"{tool} ({named[tool]})" for tool in tools)


def _listed(name: str, values: Any) -> list[tuple[str, str]]:
    return [(f"{name}[{i}]", v) for i, v in enumerate(notes_read(values))]  # as a load reads them


def node_fields(node: Any) -> list[tuple[str, str]]:
    """A stored node's text fields a write checks (gist, notes, touches), as a load reads them: what is found
    clean here is shown to agents unchecked (core/withheld.py)."""
    gist, notes, touches = texts_read(node)
    return [("gist", gist), *((f"notes[{i}]", n) for i, n in enumerate(notes)),
            *((f"touches[{i}]", t) for i, t in enumerate(touches))]


def first_in(fields: list[tuple[str, str]]) -> tuple[str, Finding] | None:
    return check_fields(fields)


def _name(text: object) -> Finding | None:
    """A name (id, rel, edge end) holding a key's shape, by the rule a write refuses it (refuse_secret_names)."""
    return name_finding(text) if isinstance(text, str) and text else None


def _masked(text: str) -> str:
    found = _name(text)
    return text if found is None else found.preview


def in_node(node_id: str, node: Any) -> Held | None:
    if (named := _name(node_id)) is not None:
        return Held("node", node_id, "id", named.kind, _masked(node_id))
    gist, notes, touches = texts_read(node)
    return _every("node", node_id, node_fields(node), gist, notes, touches)


def in_edge(key: str, edge: Any) -> Held | None:
    ends = (edge.get("from"), edge.get("to"), edge.get("rel")) if isinstance(edge, dict) else (None, None, None)
    for field, name in (("rel", ends[2]), ("from", ends[0]), ("to", ends[1])):
        if (named := _name(name)) is not None:
            shown = f"{_masked(str(ends[0]))}->{_masked(str(ends[1]))}:{_masked(str(ends[2]))}"
            return Held("edge", key, field, named.kind, shown)
    listed = notes_read(edge.get("notes") if isinstance(edge, dict) else None)
    return _every("edge", key, _listed("notes", listed), None, listed)


def _every(what: str, key: str, fields: list[tuple[str, str]], gist: object, notes: Sequence[str],
           touches: Sequence[str] = ()) -> Held | None:
    """Every field holding a secret, in the order of the fields: alone, a key split across several (named as
    one, `notes[1] joined to notes[2]`), or a part of one with words around it, each by the rule a write
    refuses it by."""
    found: dict[str, str] = {name: hit.kind for name, text in fields if text and (hit := find(text)) is not None}
    alone = frozenset(found)
    order = {name: i for i, (name, _) in enumerate(fields)}
    # A key split across fields (the fields it spans named as one), as withheld.py shows them: beside a field
    # holding one alone, no other unless a key's block (BEGIN..END lines) holds both, named whole.
    joint = joined_held(gist, tuple(notes), alone=alone - _touches(alone))
    touched = joined_held(None, tuple(touches), "touches", alone=frozenset(_touches(alone)))  # as across notes
    for part in (joint, touched):
        if part:
            for field in part:
                found.pop(field, None)
            found[JOINT.join(sorted(part, key=lambda f: order.get(f, 0)))] = next(iter(part.values()))
    joint |= touched
    for field, hit in aws_beside(fields).items():  # a key id in one field, its secret key in another
        if field not in found and field not in joint:
            found[field] = hit.kind
    for field, kind, _ in fragments_in((n, t) for n, t in fields if n not in found and n not in joint):
        found[field] = kind
    if not found:
        return None
    pairs = sorted(found.items(), key=lambda fk: order.get(fk[0].split(JOINT)[0], 0))
    return Held(what, key, pairs[0][0], pairs[0][1], more=tuple(pairs[1:]))


def _touches(fields: Iterable[str]) -> set[str]:
    return {f for f in fields if f.startswith("touches[")}


def _mapping(value: Any) -> Json:
    return value if isinstance(value, dict) else {}


def _edges(graph: Json) -> Json:
    edges = graph.get("edges")
    if isinstance(edges, list):  # an old file's edge list
        return {f"{e.get('from')}->{e.get('to')}:{e.get('rel')}": e for e in edges if isinstance(e, dict)}
    return _mapping(edges)


def in_folder(graph: Any) -> Held | None:
    """A project graph whose recorded folder's path holds a key's shape (`~/ghp_…`, named so by the user): the
    graph works, but the path is in its file, which a commit records and a sync pushes."""
    meta = graph.get("_meta") if isinstance(graph, dict) else None
    path = meta.get("project_path") if isinstance(meta, dict) else None
    if (named := _name(path)) is None:
        return None
    assert isinstance(path, str)
    shown = masked_names(path)
    shown = named.preview if _name(shown) is not None else shown  # a key masked_names does not see whole
    return Held("project", shown, "folder", named.kind, shown)


def in_progress(task_id: str, state: Any) -> Held | None:
    """A task's stored state (or its id) holding a secret, by the rule a write refuses it by."""
    fields = progress_fields(task_id, state)
    if not fields:
        return None
    if fields[0][0] == TASK_ID:  # the name holds it: said masked, never whole
        return Held("progress", task_id, TASK_ID, fields[0][1].kind, fields[0][1].preview)
    return Held("progress", task_id, fields[0][0], fields[0][1].kind, more=[(f, hit.kind) for f, hit in fields[1:]])


def held_in(graph: Any) -> Iterator[Held]:
    """Every node, edge and task's progress state of a graph's stored JSON that holds a secret (one finding each)."""
    if not isinstance(graph, dict):
        return
    for node_id, node in _mapping(graph.get("nodes")).items():
        if (found := in_node(str(node_id), node)) is not None:
            yield found
    for key, edge in _edges(graph).items():
        if (found := in_edge(str(key), edge)) is not None:
            yield found
    for task_id, state in _progress(graph).items():
        if (found := in_progress(str(task_id), state)) is not None:
            yield found


def _progress(graph: Json) -> Json:
    return _mapping(_mapping(graph.get("_meta")).get("progress"))


# (section, key) -> (the entry, its version entry or None, the commit holding them): an entry of another
# machine's history without the secret its newest version holds (storage/clean_history.py finds them).
Earlier = Mapping[tuple[str, str], tuple[Any, Any, str]]


def keep_out(base: Json | None, ours: Json | None, theirs: Json | None,
             earlier: Earlier | None = None) -> tuple[Json | None, list[Held]]:
    """`theirs` (another machine's version of a graph or one of its parts) with each node and edge it changed
    into one holding a secret put back as `ours` holds it (absent when ours has none: a node new from there
    is left out), with its version entry; and what was left out. A merge of the result then keeps the local
    version of those entries, and nothing of the incoming one is stored, shown or pushed again.

    `earlier` names, for such an entry, the newest version the other machine's history holds without the secret:
    that one is theirs instead. Ours in its place would read, once pushed, as a change made after every version
    there: a third machine's edit the secret was added to was reverted on every machine, nothing set aside."""
    if not isinstance(theirs, dict):
        return theirs, []
    earlier = earlier or {}
    base, ours = _mapping(base), _mapping(ours)
    held: list[Held] = []
    left_out: set[str] = set()  # nodes new from there, left out: their own edges go with them
    out = dict(theirs)
    versions_t = dict(_mapping(_mapping(theirs.get("_meta")).get("versions")))
    versions_o = _mapping(_mapping(ours.get("_meta")).get("versions"))
    for section, prefix, check in (("nodes", "node:", in_node), ("edges", "edge:", in_edge)):
        mine, there = (_mapping(ours.get(section)), _mapping(theirs.get(section))) if section == "nodes" else (
            _edges(ours), _edges(theirs))
        before = _mapping(base.get(section)) if section == "nodes" else _edges(base)
        kept = dict(there)
        for key, value in there.items():
            if value == before.get(key) or value == mine.get(key):
                continue  # not changed there: what is held here already stands
            found = check(str(key), value)
            ends = {value.get("from"), value.get("to")} if section == "edges" and isinstance(value, dict) else set()
            if found is None and not (ends & left_out and key not in mine):
                continue
            if found is not None and (section, key) in earlier:
                entry, version, commit = earlier[section, key]
                held.append(attrs.evolve(found, earlier=commit))
                kept[key] = entry
                if version is not None:
                    versions_t[prefix + key] = version
                else:
                    versions_t.pop(prefix + key, None)
                continue
            if found is not None:
                held.append(found)
            if key in mine:
                kept[key] = mine[key]
            else:
                kept.pop(key)
                if section == "nodes":
                    left_out.add(key)
            if prefix + key in versions_o:
                versions_t[prefix + key] = versions_o[prefix + key]
            else:
                versions_t.pop(prefix + key, None)
        if kept != there:
            out[section] = kept
    if held or left_out:
        out["_meta"] = {**_mapping(theirs.get("_meta")), "versions": versions_t}
    progress = _progress_kept(_progress(base), _progress(ours), _progress(theirs), held)
    if progress is not None:
        out["_meta"] = {**_mapping(out.get("_meta")), "progress": progress}
    return out, held


def _progress_kept(base: Json, ours: Json, theirs: Json, held: list[Held]) -> Json | None:
    """Their tasks' states with each one changed there into one holding a secret put back as ours holds it (left
    out when ours has none), each named in `held`; None when none was."""
    kept = dict(theirs)
    for task_id, state in theirs.items():
        if state == base.get(task_id) or state == ours.get(task_id):
            continue
        if (found := in_progress(str(task_id), state)) is not None:
            held.append(found)
            if task_id in ours:
                kept[task_id] = ours[task_id]
            else:
                kept.pop(task_id)
    return kept if kept != theirs else None


def kept_refusal(what: str, kept: dict[str, Any]) -> InvalidInput | None:
    """A write that keeps a stored field it did not send (`kept`: name -> the stored list) must not keep a
    secret in it (a hand edit put it there): refused naming the stored item, so the writer sends the field
    without it. The node or edge a write leaves is what must be free of secrets."""
    for name, values in kept.items():
        found = first_in(_listed(name, values)) or next(iter(aws_beside(_listed(name, values)).items()), None)
        joined = joined_held(None, list(values), name) if found is None else {}
        if found is not None or joined:  # a key split across stored notes is kept by none either
            field, kind = (found[0], found[1].kind) if found is not None else (JOINT.join(joined), next(iter(
                joined.values())))
            return InvalidInput(name, f"{field} of the stored {what} holds what looks like {kind} "
                                      f"(secrets are never kept in memory); send the {name} without it")
    return None


def without_secrets(values: tuple[str, ...]) -> tuple[str, ...]:
    """Stored items a write carries over unsent, less those holding a secret (a write that sent its own list)."""
    joined = joined_held(None, list(values))  # each piece of a key split across them too
    joined |= {f: hit.kind for f, hit in aws_beside(_listed("notes", values)).items()}  # and a key beside its id
    return tuple(v for i, v in enumerate(values) if first_in([("", v)]) is None and f"notes[{i}]" not in joined)
