"""The records a graph holds: frozen nodes and edges, in the reference file's shape.

Unknown fields ride along in `extra`, so a store written by kg-memory loads
and saves without loss.
"""

from __future__ import annotations

import json
import math
from datetime import datetime, timezone
from typing import Any

import attrs

EdgeKey = tuple[str, str, str]

_NODE_FIELDS = frozenset({
    "id", "gist", "notes", "touches", "_created_ts", "_archived", "_orphaned_ts", "_last_read_ts",
    "_useful_ts", "_credited_ts", "_gist_ts", "_written", "_recurrence_ts",
})
_EDGE_FIELDS = frozenset({"from", "to", "rel", "notes"})


def _floats(values: Any) -> tuple[float, ...]:
    if not values or not isinstance(values, list | tuple):  # absent, most often: no work
        return ()
    if all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in values):
        return tuple(map(float, values))
    # A hand edit's times as text ("1796000000.5", an ISO date) are times, as `_created_ts`'s are.
    return tuple(t for t in map(_opt_float, values) if t is not None)


def _strings(values: Any) -> tuple[str, ...]:
    if not values or not isinstance(values, list | tuple):
        # A hand-edited file's `"notes": "one note"` is kept as one note, not dropped (the next save would lose it).
        return (values,) if isinstance(values, str) and values else ()
    # A note that is not text (an object, a number) is kept as its JSON, not as Python's repr.
    return tuple(v if isinstance(v, str) else json.dumps(v, ensure_ascii=False) for v in values)


def texts_read(raw: Any) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """A stored node's (gist, notes, touches) as a load reads them: what a scan of the file must check, so
    that what it finds nothing in is what the loaded node holds (a list gist joined, a lone note a note)."""
    if not isinstance(raw, dict):
        return (raw if isinstance(raw, str) else "", (), ())
    gist = raw.get("gist", "")
    return (gist if isinstance(gist, str) else _text(gist), _strings(raw.get("notes")), _strings(raw.get("touches")))


def notes_read(values: Any) -> tuple[str, ...]:
    """An edge's stored notes as a load reads them."""
    return _strings(values)


def _opt_float(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value) if math.isfinite(value) else None  # NaN or 1e999: no time, and no JSON
    if not isinstance(value, str):
        return None
    try:
        number = float(value)  # "1796000000.5", as a hand edit may leave it
    except ValueError:
        pass
    else:
        return number if math.isfinite(number) else None
    try:
        stamp = datetime.fromisoformat(value)  # "2024-01-01T00:00:00": UTC when it names no zone
    except ValueError:
        return None
    return (stamp if stamp.tzinfo else stamp.replace(tzinfo=timezone.utc)).timestamp()


def _text(value: Any) -> str:
    """A gist that is not text, as text: `null` is none (not "None"), a list its parts joined."""
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return " ".join(map(str, value))
    return str(value)


def _flag(value: Any) -> bool:
    """`"_archived": "false"` is false: a hand edit's text, not Python's truth of any non-empty string."""
    if isinstance(value, str):
        return value.strip().lower() in ("true", "1", "yes")
    return bool(value)


def _extra(raw: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    """The fields a record does not know, in the file's order (they are written back as they came)."""
    if raw.keys() <= known:
        return {}
    return {k: v for k, v in raw.items() if k not in known}


@attrs.frozen
class Node:
    id: str
    gist: str
    notes: tuple[str, ...] = ()
    touches: tuple[str, ...] = ()
    created_ts: float | None = None
    archived: bool = False
    orphaned_ts: float | None = None
    last_read_ts: float | None = None
    useful_ts: tuple[float, ...] = ()
    credited_ts: tuple[float, ...] = ()
    gist_ts: tuple[float, ...] = ()
    written: dict[str, Any] | None = attrs.field(default=None, eq=False)
    recurrence_ts: tuple[float, ...] = ()
    extra: dict[str, Any] = attrs.field(factory=dict, eq=False)

    @property
    def orphaned(self) -> bool:
        return self.orphaned_ts is not None

    @property
    def state(self) -> str:
        if self.orphaned_ts is not None:
            return "orphaned"
        return "archived" if self.archived else "active"

    @property
    def active(self) -> bool:
        return not self.archived and self.orphaned_ts is None

    @classmethod
    def from_json(cls, node_id: str, raw: dict[str, Any]) -> Node:
        get = raw.get  # 10,000 of these at a start: positional, and the absent fields cost no call
        written = get("_written")
        return cls(
            node_id, gist if (gist := get("gist", "")).__class__ is str else _text(gist),
            _strings(get("notes")), _strings(get("touches")), _opt_float(get("_created_ts")),
            archived if (archived := get("_archived", False)).__class__ is bool else _flag(archived),
            _opt_float(get("_orphaned_ts")),
            _opt_float(get("_last_read_ts")), _floats(get("_useful_ts")), _floats(get("_credited_ts")),
            _floats(get("_gist_ts")), dict(written) if isinstance(written, dict) else None,
            _floats(get("_recurrence_ts")), _extra(raw, _NODE_FIELDS),
        )

    def moved(self, archived: bool, orphaned_ts: float | None) -> Node:
        """`attrs.evolve(self, archived=..., orphaned_ts=...)` at a fraction of its cost: compaction
        moves thousands of nodes when it settles a store over its budget."""
        return Node(self.id, self.gist, self.notes, self.touches, self.created_ts, archived, orphaned_ts,
                    self.last_read_ts, self.useful_ts, self.credited_ts, self.gist_ts, self.written,
                    self.recurrence_ts, self.extra)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "gist": self.gist}
        if self.notes:
            out["notes"] = list(self.notes)
        if self.touches:
            out["touches"] = list(self.touches)
        if self.created_ts is not None:
            out["_created_ts"] = self.created_ts
        if self.archived:
            out["_archived"] = True
        if self.orphaned_ts is not None:
            out["_orphaned_ts"] = self.orphaned_ts
        if self.last_read_ts is not None:
            out["_last_read_ts"] = self.last_read_ts
        for name, values in (
            ("_useful_ts", self.useful_ts), ("_credited_ts", self.credited_ts),
            ("_gist_ts", self.gist_ts), ("_recurrence_ts", self.recurrence_ts),
        ):
            if values:
                out[name] = list(values)
        if self.written is not None:
            out["_written"] = dict(self.written)
        out.update(self.extra)
        return out

    def content(self) -> dict[str, Any]:
        """What a model sees of a node: the fields a write can set."""
        return {"id": self.id, "gist": self.gist, "notes": list(self.notes), "touches": list(self.touches)}


@attrs.frozen
class Edge:
    src: str
    dst: str
    rel: str
    notes: tuple[str, ...] = ()
    extra: dict[str, Any] = attrs.field(factory=dict, eq=False)

    @property
    def key(self) -> EdgeKey:
        return (self.src, self.dst, self.rel)

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Edge:
        return cls(str(raw["from"]), str(raw["to"]), str(raw["rel"]), _strings(raw.get("notes")),
                   _extra(raw, _EDGE_FIELDS))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"from": self.src, "to": self.dst, "rel": self.rel}
        if self.notes:
            out["notes"] = list(self.notes)
        out.update(self.extra)
        return out

    def other(self, node_id: str) -> str:
        return self.dst if self.src == node_id else self.src


def edge_storage_key(key: EdgeKey) -> str:
    return f"{key[0]}->{key[1]}:{key[2]}"
