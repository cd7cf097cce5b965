"""A session's record as sessions.json stores it, and reading that file back."""

from __future__ import annotations

import heapq
import logging
import os
import secrets
import sys
from pathlib import Path
from typing import Any

import attrs

from . import session_saves
from .core import constants as C
from .core import seen, session_cap
from .storage import files, kept_aside

log = logging.getLogger(__name__)

# Keys a stored session may hold that are not carried over: `drop_pending` served a refusal
# (trimming notes the session had read) that spec 003 does not have; `seen_ids` is read (a file of
# before seen_via, or kg-memory's) but no longer written: it was seen_via's keys a second time.
_NOT_CARRIED = frozenset({"seen_ids", "drop_pending", "bare_kept"})
# kg-memory's (the reference's) own seen tables, keyed by bare node id: read into ours once (_by_level), and
# kept as read, to be written back beside ours, so kg-memory run again on this store finds its sessions as it
# left them (they were written back empty). "bare_kept" marks a record whose bare tables were read so before.
BARE_TABLES = ("seen_ids", "seen_via", "seen_at", "read_at")


@attrs.define
class Session:
    sid: str
    start_ts: float
    last_activity: float
    project_path: str | None = None
    scope: str | None = None  # "user" for a user-only session
    harness: str = "claude-code"
    claude_sid: str | None = None
    forked_from: str | None = None
    op_count: int = 0
    # What the session has seen, keyed by ref ("user:some-id", core/seen.py): in its context now (how
    # it came to see it), when it last viewed it, when it last read it in full.
    seen_via: dict[str, str] = attrs.field(factory=dict)
    seen_at: dict[str, float] = attrs.field(factory=dict)
    read_at: dict[str, float] = attrs.field(factory=dict)
    preloaded_ids: list[str] = attrs.field(factory=list)
    context_from: float | None = None  # the last compaction's reset: a view stamped before it is not in context
    # A preload reply reached the agent (its hook did not give up): the agent knows this session's id.
    preload_given: bool = False
    preload_missing: list[str] = attrs.field(factory=list)  # levels still loading at that preload: not in it
    full_read_ts: float | None = None
    liked_ids: list[str] = attrs.field(factory=list)
    maintenance: bool = False
    # The maintenance run (its mark, chores/runners.py) whose calls made this its session: its pass credits
    # count for the run, whichever of its sessions gives them (session_votes.py).
    run: str | None = None
    maintenance_credits: int = 0
    credited_ids: list[str] = attrs.field(factory=list)  # refs a maintenance pass credited (once each)
    last_synced_ts: float | None = None
    pushed_ts: float | None = None
    push_again: dict[str, float] = attrs.field(factory=dict)  # pushed in a reply never delivered: id -> stamp
    pages: list[str] = attrs.field(factory=list)
    page_effects: list[dict[str, Any]] = attrs.field(factory=list)
    page_gen: int = 0  # bumped whenever the pending parts are replaced: a dropped part comes back only under its own
    file_recall_ts: list[float] = attrs.field(factory=list)
    # Nodes this session saw that another session renamed since (ref -> new id): a write under the old id
    # makes a second node, and its reply says where the lesson went.
    renamed_away: dict[str, str] = attrs.field(factory=dict)
    # Nodes this session renamed itself (ref -> new id): only a delete under the old id is told where it went
    # (a write there makes a new node, as the session that renamed it means).
    renamed_here: dict[str, str] = attrs.field(factory=dict)
    # Nodes whose view this session lost to a change from outside (ref -> "sync" | "restore"): a write
    # refused until it sees them again is told what replaced them.
    replaced_from: dict[str, str] = attrs.field(factory=dict)
    extra: dict[str, Any] = attrs.field(factory=dict)
    bare: dict[str, Any] = attrs.field(factory=dict)  # BARE_TABLES as kg-memory left them, never changed here

    def follow_rename(self, old: str, new: str, new_id: str, by_another: bool) -> None:
        """The views of a renamed node move from ref `old` to `new`. A session that saw the node and did not
        rename it remembers where it went, the session that renamed it too (the newest RENAMED_AWAY_KEPT of
        each); the newest rename of an id is the one kept."""
        level, _ = seen.ref(old)
        for went in (self.renamed_away, self.renamed_here):
            went.pop(new, None)  # the id is a node again
            for k, to in went.items():  # a lesson renamed away from this session has moved on again
                if seen.key(level, to) == old and seen.ref(k)[0] == level:
                    went[k] = new_id
        kept, other = (self.renamed_away, self.renamed_here) if by_another else (self.renamed_here, self.renamed_away)
        other.pop(old, None)
        if not by_another or old in self.seen_at or old in self.seen_via:
            kept.pop(old, None)
            kept[old] = new_id  # newest last
            for stale in list(kept)[: max(0, len(kept) - C.RENAMED_AWAY_KEPT)]:
                del kept[stale]  # oldest first
        for table in (self.seen_at, self.read_at):
            if old in table:
                table[new] = max(table.pop(old), table.get(new, 0.0))
        if old in self.replaced_from:
            self.replaced_from[new] = self.replaced_from.pop(old)
        if old in self.seen_via:
            self.seen_via.setdefault(new, self.seen_via.pop(old))
        self.liked_ids = [new if i == old else i for i in self.liked_ids]
        self.preloaded_ids = [new if i == old else i for i in self.preloaded_ids]

    def forget_gone(self, k: str) -> None:
        """The node once seen under ref `k` is known gone (this session deleted it, or was refused a write
        that said it was renamed or deleted): what it saw there no longer stands in the way of a write."""
        for table in (self.seen_at, self.read_at, self.renamed_away, self.renamed_here, self.replaced_from):
            table.pop(k, None)

    def held_whole(self) -> dict[seen.Ref, float]:
        """What the context holds whole now, and when it was last seen so: shown since the context began, not
        only cut short, and by something other than a full read (one asked again shows its own gists again)."""
        since = self.context_from if self.context_from is not None else float("-inf")
        return {seen.ref(k): self.seen_at[k] for k, via in self.seen_via.items()
                if via != "full_read" and self.seen_at.get(k, since) > since}

    def trim_seen(self, kept: int) -> bool:
        """Keep the `kept` nodes last shown (seen_via is in the order they were last shown) and the
        `kept` newest view stamps; True when the context marks changed. Trimmed past a slack only: a
        long session at the bound sorts its stamps once every `kept // 8` marks, not at every one."""
        over = kept + kept // 8
        trimmed = len(self.seen_via) > over
        if trimmed:
            for k in list(self.seen_via)[: len(self.seen_via) - kept]:
                del self.seen_via[k]
        for table in (self.seen_at, self.read_at):
            if len(table) > over:
                newest = dict(heapq.nlargest(kept, table.items(), key=lambda kv: kv[1]))
                for k in [k for k in table if k not in newest]:
                    del table[k]
        for k in list(self.replaced_from)[: max(0, len(self.replaced_from) - over)]:
            del self.replaced_from[k]  # oldest first: a lost view's cause is a hint, not worth the room
        return trimmed

    @property
    def bound(self) -> bool:
        return self.project_path is not None or self.scope == "user"

    def to_json(self) -> dict[str, Any]:
        out = attrs.asdict(self, recurse=False)
        out.pop("sid")
        extra = out.pop("extra")
        bare = out.pop("bare")
        out.update(extra)
        for name, table in bare.items():
            out[name] = list(table) if name == "seen_ids" else {**table, **out[name]}
        if bare:
            out["bare_kept"] = True
        return out

    @classmethod
    def from_json(cls, sid: str, raw: dict[str, Any]) -> Session:
        names = {f.name for f in attrs.fields(cls)} - {"sid", "extra"}
        known = {k: v for k, v in raw.items() if k in names}
        extra = {k: v for k, v in raw.items() if k not in names and k not in _NOT_CARRIED}
        known.setdefault("start_ts", 0.0)
        known.setdefault("last_activity", known["start_ts"])
        known.setdefault("preload_given", bool(known.get("preloaded_ids")))  # stored before it was kept
        for name in ("renamed_away", "renamed_here", "replaced_from"):
            if not (isinstance(known.get(name, {}), dict) and all(isinstance(v, str) for v in known.get(name, {}).values())):
                del known[name]  # a hand edit's: a hint only, not worth a session
        session = cls(sid=sid, extra=extra, **known)
        session.bare = _bare_tables(raw)
        if raw.get("bare_kept") is not True:  # kg-memory's, or an older kg's: its bare context marks, read once
            for k in raw.get("seen_ids") or []:
                session.seen_via.setdefault(k, "unknown")
        else:
            session.seen_via = {k: v for k, v in session.seen_via.items() if seen.keyed(k)}
        _by_level(session)
        session.trim_seen(C.SEEN_KEPT)  # a file written before the bound
        _share_strings(session)
        return session


def _bare_tables(raw: dict[str, Any]) -> dict[str, Any]:
    """The entries of a record's seen tables keyed by bare node id (kg-memory's), each of the type it reads."""
    out: dict[str, Any] = {}
    ids = raw.get("seen_ids")
    if isinstance(ids, list) and (bare := [k for k in ids if isinstance(k, str) and not seen.keyed(k)]):
        out["seen_ids"] = bare
    for name in BARE_TABLES[1:]:
        table = raw.get(name)
        kind = str if name == "seen_via" else (int, float)
        kept = {k: v for k, v in table.items() if not seen.keyed(k) and isinstance(v, kind)
                and not isinstance(v, bool)} if isinstance(table, dict) else {}
        if kept:
            out[name] = kept
    return out


def _share_strings(s: Session) -> None:
    """The seen tables' refs and routes as the one string each that every session shares (mark_seen interns
    them too): as read from the file, each route was a string of its own, ~11 KB a session of 220 nodes."""
    s.seen_via = {sys.intern(k): sys.intern(v) if type(v) is str else v for k, v in s.seen_via.items()}
    s.seen_at = {sys.intern(k): t for k, t in s.seen_at.items()}
    s.read_at = {sys.intern(k): t for k, t in s.read_at.items()}


def _by_level(s: Session) -> None:
    """A record written before the seen tables were keyed by level holds bare node ids: which level's
    node it saw is not known. Its context marks count at both levels (the gist is in the context; at
    worst the other level's node of that id is not recalled until the next compaction). Its view
    stamps are dropped, as forget_views drops them: counted at both levels, they would let a write
    replace the other level's node unseen, the lost lesson arbitration is there to prevent; dropped,
    a write is refused once, with the node shown, and the retry goes through. A pending part's bare
    "seen" marks go too (their gists may be recalled again)."""
    for k in [k for k in s.seen_via if not seen.keyed(k)]:
        via = s.seen_via.pop(k)
        for level in ("user", "project"):
            s.seen_via.setdefault(seen.key(level, k), via)
    s.seen_at = {k: t for k, t in s.seen_at.items() if seen.keyed(k)}
    s.read_at = {k: t for k, t in s.read_at.items() if seen.keyed(k)}
    for effects in s.page_effects:
        if isinstance(effects, dict) and effects.get("seen"):
            effects["seen"] = [r for r in effects["seen"] if not isinstance(r, str)]


def new_sid(taken: dict[str, Any]) -> str:
    while True:
        sid = secrets.token_hex(C.SESSION_ID_HEX // 2)
        if sid not in taken:
            return sid


def _an_object(value: Any, reading: files.Reading) -> dict[str, Any]:
    if value is not None and not isinstance(value, dict):
        raise files.Unreadable(f"{reading.path}: holds a JSON {type(value).__name__}, not an object of sessions")
    return value or {}


def load_sessions(path: Path, now: float) -> dict[str, Session]:
    return loaded_sessions(path, now)[0]


def loaded_sessions(path: Path, now: float, since: float | None = None) -> tuple[dict[str, Session], int]:
    """The sessions to keep of sessions.json and its journal, and how many records of them were let go:
    unreadable ones, a day idle, and past SESSIONS_KEPT the least recently active (core/session_cap.py),
    as the tick would let them go (the reference drops the expired at load too)."""
    try:
        # Torn, or not an object: sessions.prev (the save before) stands in, as for a graph file.
        raw = files.load_json(path, _an_object, graph=False) or {}
    except (files.Unreadable, OSError) as exc:
        # Kept aside before the first save writes over it: the sessions it held, for a look by hand (named
        # apart from a file sessions.prev stood in for, so kg doctor says which start lost its sessions).
        aside = files.unused_name(path.with_name(path.name + kept_aside.SESSIONS_STARTED_EMPTY))
        try:
            os.replace(path, aside)
        except OSError:
            aside = path
        # Sessions are this machine's alone and never committed: nothing restores them, and none is needed.
        log.error("sessions file unreadable (%s); starting with no sessions (each starts afresh at its next hook; "
                  "no lesson is in this file, and kg restore does not hold it); the file is kept as %s", exc,
                  aside.name)
        raw = {}
    raw = session_saves.replayed(path, raw)
    stamps: dict[str, float] = {}
    for sid, rec in raw.items():
        stamp = rec.get("last_activity", rec.get("start_ts", 0.0)) if isinstance(rec, dict) else None
        if isinstance(stamp, (int, float)) and not isinstance(stamp, bool):
            stamps[sid] = stamp
        elif isinstance(rec, dict):
            log.warning("dropping unreadable session %s: its last_activity %r is not a time", sid, stamp)
    # Decided on the stamps alone: a record let go is not made into a session first.
    gone = set(session_cap.to_let_go(stamps, now, C.SESSION_TTL_SECONDS, C.SESSIONS_KEPT, C.SESSION_SPARED_SECONDS,
                                     since))
    out = {}
    for sid in stamps:
        if sid in gone:
            continue
        try:
            out[sid] = Session.from_json(sid, raw[sid])
        except (TypeError, ValueError, AttributeError) as exc:  # AttributeError: a table not an object
            log.warning("dropping unreadable session %s: %s", sid, exc)
    if gone:
        log.info("%d sessions let go at load (a day idle, or past the %d kept)", len(gone), C.SESSIONS_KEPT)
    return out, len(raw) - len(out)
