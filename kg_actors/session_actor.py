"""SessionRegistry: the one owner of every agent session's state.

Theory of operation. Sessions are records keyed by an 8-hex id: the bound
project, the harness, what the session has been shown (`seen_at`) and read in
full (`read_at`), its votes, its maintenance flag, its sync and push
watermarks and undelivered reply parts. Write arbitration asks it what a
session saw; pushes ask it what a session has not been told. Every `op_*` is
synchronous; the record store is saved to `sessions.json` (atomically) after
changes that must survive a restart, and on the tick. Sessions idle for 24 h
expire on the tick.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from pathlib import Path
from typing import Any

import attrs
import trio

from . import actor
from .core import capture
from .core import constants as C
from .core.errors import KGError, SessionUnknown
from .storage import files

log = logging.getLogger(__name__)

# Ops that change no session (their state is elsewhere, or they only read), and ops that may
# change any number of sessions (what the next save must re-serialize, see Registry.note_changed).
_LEAVE_SESSIONS = frozenset({"note_hook", "tool_event", "claim_nudge", "expire", "get", "find_by_project",
                             "find_by_claude", "write_view", "vote_state", "writers", "hook_seen",
                             "activity_days", "recent_project"})
_TOUCH_ALL_SESSIONS = frozenset({"rename_ref"})
# Ops after which the registry is saved at once, before its next message (the rest wait for the tick).
_SAVE_NOW = frozenset({"register", "attach", "set_maintenance", "like", "bind", "fork", "reset_context"})


# Keys a stored session may hold that are not carried over: `drop_pending` served a refusal
# (trimming notes the session had read) that spec 003 does not have.
_NOT_CARRIED = frozenset({"seen_ids", "drop_pending"})


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
    seen_via: dict[str, str] = attrs.field(factory=dict)
    seen_at: dict[str, float] = attrs.field(factory=dict)
    read_at: dict[str, float] = attrs.field(factory=dict)
    preloaded_ids: list[str] = attrs.field(factory=list)
    full_read_ts: float | None = None
    liked_ids: list[str] = attrs.field(factory=list)
    maintenance: bool = False
    maintenance_credits: int = 0
    last_synced_ts: float | None = None
    pushed_ts: float | None = None
    pages: list[str] = attrs.field(factory=list)
    page_effects: list[dict] = attrs.field(factory=list)
    file_recall_ts: list[float] = attrs.field(factory=list)
    extra: dict = attrs.field(factory=dict)

    @property
    def bound(self) -> bool:
        return self.project_path is not None or self.scope == "user"

    def to_json(self) -> dict:
        out = attrs.asdict(self, recurse=False)
        out.pop("sid")
        extra = out.pop("extra")
        out["seen_ids"] = list(self.seen_via)
        out.update(extra)
        return out

    @classmethod
    def from_json(cls, sid: str, raw: dict) -> Session:
        names = {f.name for f in attrs.fields(cls)} - {"sid", "extra"}
        known = {k: v for k, v in raw.items() if k in names}
        extra = {k: v for k, v in raw.items() if k not in names and k not in _NOT_CARRIED}
        known.setdefault("start_ts", 0.0)
        known.setdefault("last_activity", known["start_ts"])
        session = cls(sid=sid, extra=extra, **known)
        for node_id in raw.get("seen_ids") or []:
            session.seen_via.setdefault(node_id, "unknown")
        return session


@attrs.frozen
class SessionView:
    """An immutable copy of what handlers need to know about a session."""

    sid: str
    project_path: str | None
    scope: str | None
    harness: str
    maintenance: bool
    full_read_ts: float | None
    start_ts: float
    preloaded: frozenset[str]
    seen: frozenset[str]
    likes: int
    claude_sid: str | None

    @property
    def bound(self) -> bool:
        return self.project_path is not None or self.scope == "user"


def new_sid(taken: dict) -> str:
    while True:
        sid = secrets.token_hex(C.SESSION_ID_HEX // 2)
        if sid not in taken:
            return sid


class Registry:
    def __init__(self, sessions: dict[str, Session]):
        self.sessions = sessions
        self.dirty = False
        # Per project: tool-event counters and nudge throttles (tool_events.json), loaded on first use.
        self.tool_events: dict[str, dict] = {}
        self.tool_events_dirty: set[str] = set()
        self.hooks_seen: dict[str, set[str]] = {}  # harness name -> project roots its hooks reached
        # sessions.json is re-serialized per session that changed since the last save: all of
        # it was ~40 ms at 60 sessions (their seen maps), a stall of every reply in flight.
        self._saved_json: dict[str, str] = {}  # sid -> its JSON as last saved
        self._changed: set[str] | None = None  # sids changed since; None: every one

    def note_changed(self, op: str, args: dict, result: Any) -> None:
        """After a message that may have changed sessions: which ones the next save re-serializes."""
        if op in _LEAVE_SESSIONS or self._changed is None:
            return
        sids = {args["sid"]} if isinstance(args.get("sid"), str) else set()
        sids.update(v.sid for v in (result if isinstance(result, tuple) else (result,)) if isinstance(v, SessionView))
        if op in _TOUCH_ALL_SESSIONS or not sids:
            self._changed = None  # not known which: all of them
        else:
            self._changed |= sids

    def _get(self, sid: str) -> Session:
        session = self.sessions.get(sid)
        if session is None:
            raise SessionUnknown(f"session_id '{sid}' is unknown")
        return session

    @staticmethod
    def view(s: Session) -> SessionView:
        return SessionView(
            s.sid, s.project_path, s.scope, s.harness, s.maintenance, s.full_read_ts, s.start_ts,
            frozenset(s.preloaded_ids), frozenset(s.seen_via), len(s.liked_ids), s.claude_sid,
        )

    # Lifecycle -------------------------------------------------------------
    def op_register(self, project_path: str | None, harness: str, now: float, claude_sid: str | None = None) -> SessionView:
        sid = new_sid(self.sessions)
        s = Session(sid, now, now, project_path=project_path, scope=None if project_path else "user",
                    harness=harness, claude_sid=claude_sid, last_synced_ts=now, pushed_ts=now)
        self.sessions[sid] = s
        return self.view(s)

    def op_get(self, sid: str) -> SessionView | None:
        s = self.sessions.get(sid)
        return None if s is None else self.view(s)

    def op_touch(self, sid: str, now: float, harness: str | None = None) -> SessionView:
        s = self._get(sid)
        s.op_count += 1
        s.last_activity = now
        if harness and harness != s.harness:
            s.harness = harness
        return self.view(s)

    def op_attach(self, sid: str, project_path: str | None) -> SessionView:
        s = self._get(sid)
        s.project_path = project_path
        s.scope = None if project_path else "user"
        return self.view(s)

    def op_find_by_claude(self, claude_sid: str) -> SessionView | None:
        """The KG session bound to a harness session id (one KG session per harness session)."""
        best = None
        for s in self.sessions.values():
            if s.claude_sid == claude_sid and (best is None or s.start_ts > best.start_ts):
                best = s
        return None if best is None else self.view(best)

    def op_open_hook(self, claude_sid: str, now: float, push_before_full_read: bool) -> tuple[SessionView | None, dict | None]:
        """A hook's first ask: its session and, when the reply may carry pushes, their window.

        One message instead of two: under load every ask costs the hook two scheduling rounds.
        """
        view = self.op_find_by_claude(claude_sid)
        if view is None or (view.full_read_ts is None and not push_before_full_read):
            return view, None
        return view, self.op_claim_push(view.sid, now)

    def op_find_by_project(self, project_path: str | None) -> SessionView | None:
        """The newest session of a project (GET /api/session_state from hooks older than the payload contract)."""
        best = None
        for s in self.sessions.values():
            if s.project_path == project_path and s.bound and (best is None or s.start_ts > best.start_ts):
                best = s
        return None if best is None else self.view(best)

    def op_recent_project(self) -> str | None:
        """The project of the most recently active session, maintenance runs aside (the editor opens on it)."""
        best = max((s for s in self.sessions.values() if s.project_path and not s.maintenance),
                   key=lambda s: s.last_activity, default=None)
        return None if best is None else best.project_path

    def op_bind(self, sid: str, claude_sid: str, harness: str) -> SessionView:
        s = self._get(sid)
        s.claude_sid, s.harness = claude_sid, harness
        return self.view(s)

    def op_fork(self, sid: str, claude_sid: str | None, harness: str, now: float) -> SessionView:
        """A resumed or forked conversation gets its own copy of the session's state."""
        parent = self._get(sid)
        child = Session.from_json(new_sid(self.sessions), json.loads(json.dumps(parent.to_json())))
        child.start_ts = child.last_activity = now
        child.op_count = 0
        child.forked_from = sid
        child.claude_sid = claude_sid
        child.harness = harness
        child.pages, child.page_effects = [], []
        self.sessions[child.sid] = child
        return self.view(child)

    def op_reset_context(self, sid: str) -> SessionView:
        """After a compaction the summary kept only part of what was shown: start the context state over."""
        s = self._get(sid)
        s.seen_via.clear()
        s.preloaded_ids = []
        s.full_read_ts = None
        s.pages, s.page_effects = [], []
        # seen_at/read_at stay: they date the session's views for write arbitration.
        s.extra["context_resets"] = int(s.extra.get("context_resets", 0)) + 1
        return self.view(s)

    def op_set_maintenance(self, sid: str) -> bool:
        s = self._get(sid)
        was, s.maintenance = s.maintenance, True
        return not was

    # What a session has seen -------------------------------------------------
    def op_mark_seen(self, sid: str, ids: list[str], via: str, at: float, full: bool = False) -> None:
        s = self.sessions.get(sid)
        if s is None:
            return
        for node_id in ids:
            # seen_via: what is in the session's context now (reset by a compaction);
            # seen_at/read_at: when it last viewed each node (kept, for write arbitration).
            s.seen_via.setdefault(node_id, via)
            s.seen_at[node_id] = max(at, s.seen_at.get(node_id, 0.0))
            if full:
                s.read_at[node_id] = max(at, s.read_at.get(node_id, 0.0))

    def op_mark_full_read(self, sid: str, now: float) -> bool:
        s = self._get(sid)
        first, s.full_read_ts = s.full_read_ts is None, s.full_read_ts or now
        return first

    def op_set_preloaded(self, sid: str, ids: list[str]) -> None:
        self._get(sid).preloaded_ids = list(ids)

    def op_write_view(self, sid: str, level: str, node_id: str) -> dict:
        s = self._get(sid)
        return {
            "seen_at": s.seen_at.get(node_id), "read_at": s.read_at.get(node_id),
            "may_credit": node_id not in s.liked_ids and len(s.liked_ids) < C.MAX_LIKES_PER_SESSION,
            "maintenance": s.maintenance,
        }

    def op_forget_views(self, ids: list[str]) -> None:
        """Nodes replaced from outside (a sync, a restore): every session's view of them is stale,
        so arbitration refuses a write until the session has seen the new version."""
        for s in self.sessions.values():
            for node_id in ids:
                s.seen_at.pop(node_id, None)
                s.read_at.pop(node_id, None)

    def op_rename_ref(self, old_id: str, new_id: str) -> None:
        for s in self.sessions.values():
            for table in (s.seen_at, s.read_at):
                if old_id in table:
                    table[new_id] = max(table.pop(old_id), table.get(new_id, 0.0))
            if old_id in s.seen_via:
                s.seen_via.setdefault(new_id, s.seen_via.pop(old_id))
            s.liked_ids = [new_id if i == old_id else i for i in s.liked_ids]
            s.preloaded_ids = [new_id if i == old_id else i for i in s.preloaded_ids]

    # Votes -------------------------------------------------------------------
    def op_like(self, sid: str, node_id: str, credits: int | None) -> str | None:
        """Record a vote or credit; the refusal reason, or None when it counts."""
        s = self._get(sid)
        if credits is not None:
            left = C.MAINTENANCE_CREDITS_PER_PASS - s.maintenance_credits
            if credits > left:
                return f"pass total reached — {C.MAINTENANCE_CREDITS_PER_PASS} credits per pass, {left} left"
            s.maintenance_credits += credits
            return None
        if node_id in s.liked_ids:
            return "already liked this session"
        if len(s.liked_ids) >= C.MAX_LIKES_PER_SESSION:
            return f"hard cap reached — {C.MAX_LIKES_PER_SESSION} nodes already endorsed this session"
        s.liked_ids.append(node_id)
        return None

    def op_unlike(self, sid: str, node_id: str, credits: int | None) -> None:
        """Undo a vote whose node turned out missing."""
        s = self._get(sid)
        if credits is not None:
            s.maintenance_credits -= credits
        elif node_id in s.liked_ids:
            s.liked_ids.remove(node_id)

    def op_vote_state(self, sid: str) -> dict:
        s = self._get(sid)
        return {"likes": len(s.liked_ids), "credits": s.maintenance_credits, "maintenance": s.maintenance,
                "seen_via": dict(s.seen_via)}

    # Other sessions' writes -------------------------------------------------------
    def op_sync_window(self, sid: str, now: float) -> float:
        """kg_sync: the watermark to report from; it moves to now."""
        s = self._get(sid)
        since = s.last_synced_ts if s.last_synced_ts is not None else s.start_ts
        s.last_synced_ts = now
        return since

    def op_claim_push(self, sid: str, now: float) -> dict | None:
        s = self.sessions.get(sid)
        if s is None:
            return None
        since = max(x for x in (s.start_ts, s.last_synced_ts, s.pushed_ts) if x is not None)
        s.pushed_ts = now
        # The writers come along: one message instead of two on every hook reply.
        return {"since": since, "seen_at": dict(s.seen_at), "project_path": s.project_path, "sid": sid,
                "writers": self.op_writers()}

    def op_writers(self) -> dict[str, dict]:
        """Who each known session is: for deciding which writes are pushed to whom."""
        return {sid: {"project_path": s.project_path, "maintenance": s.maintenance} for sid, s in self.sessions.items()}

    # Reply parts ---------------------------------------------------------------
    def op_set_pages(self, sid: str, parts: list[str], effects: list[dict]) -> None:
        s = self._get(sid)
        s.pages, s.page_effects = list(parts), list(effects)

    def op_next_page(self, sid: str) -> tuple[str, dict] | None:
        s = self._get(sid)
        if not s.pages:
            return None
        return s.pages.pop(0), s.page_effects.pop(0) if s.page_effects else {}

    # Ambient channels ------------------------------------------------------------
    def op_file_recall_allowed(self, sid: str, now: float) -> bool:
        s = self._get(sid)
        s.file_recall_ts = [t for t in s.file_recall_ts if now - t < C.FILE_RECALL_WINDOW_SECONDS]
        return len(s.file_recall_ts) < C.FILE_RECALL_MAX_PER_WINDOW

    def op_note_file_recall(self, sid: str, now: float) -> None:
        self._get(sid).file_recall_ts.append(now)

    def _events(self, path: str) -> dict:
        events = self.tool_events.get(path)
        if events is None:
            try:
                raw = files.load_json(Path(path))
            except (files.Unreadable, OSError):
                raw = None
            events = raw if isinstance(raw, dict) else {}
            self.tool_events[path] = events
        return events

    def op_tool_event(self, path: str, key: str, harness_sid: str, now: float) -> dict:
        """Count a read or fetch of `key`; the target's record as it stands now."""
        record = capture.count_event(self._events(path), key, harness_sid, now)
        self.tool_events_dirty.add(path)
        return dict(record)

    def op_claim_nudge(self, path: str, key: str, kg_sid: str, now: float) -> bool:
        """Whether a nudge for `key` may go to this session now; if so, it is recorded."""
        events = self._events(path)
        record = events.get("events", {}).get(key)
        if record is None or not capture.throttle_allows(events, record, kg_sid, now):
            return False
        capture.record_nudge(events, record, kg_sid, now)
        self.tool_events_dirty.add(path)
        return True

    def op_activity_days(self, path: str) -> frozenset[str]:
        return frozenset(
            time.strftime("%Y-%m-%d", time.gmtime(r["last_ts"]))
            for r in self._events(path).get("events", {}).values() if isinstance(r.get("last_ts"), int | float)
        )

    def op_note_hook(self, harness: str, project_path: str | None) -> None:
        self.hooks_seen.setdefault(harness, set()).add(project_path or "")

    def op_hook_seen(self, harness: str, project_path: str | None) -> bool:
        """Whether a hook of `harness` reached the server for the project (a preloaded session counts:
        it survives a restart in sessions.json)."""
        if (project_path or "") in self.hooks_seen.get(harness, set()):
            return True
        return any(s.harness == harness and s.project_path == project_path and s.preloaded_ids
                   for s in self.sessions.values())

    def dirty_tool_events(self, now: float) -> list[tuple[Path, bytes]]:
        out = []
        for path in sorted(self.tool_events_dirty):
            capture.prune(self.tool_events[path], now)
            out.append((Path(path), files.dump_json(self.tool_events[path], indent=None)))
        self.tool_events_dirty.clear()
        return out

    # Tick ------------------------------------------------------------------------
    def op_expire(self, now: float) -> int:
        old = [sid for sid, s in self.sessions.items() if now - s.last_activity > C.SESSION_TTL_SECONDS]
        for sid in old:
            del self.sessions[sid]
        return len(old)

    def snapshot(self) -> bytes:
        """sessions.json's bytes (as files.dump_json(..., indent=None) would write them)."""
        changed, self._changed = self._changed, set()
        fresh = {}
        for sid, s in self.sessions.items():
            held = self._saved_json.get(sid)
            fresh[sid] = held if held is not None and changed is not None and sid not in changed else \
                json.dumps(s.to_json(), ensure_ascii=False)
        self._saved_json = fresh  # expired sessions drop out here
        body = ", ".join(f"{json.dumps(sid, ensure_ascii=False)}: {text}" for sid, text in fresh.items())
        return ("{" + body + "}").encode("utf-8")


@attrs.frozen
class SessionHandle:
    _mailbox: actor.Mailbox

    async def ask(self, op: str, **args: Any) -> Any:
        return await self._mailbox.ask(op, **args)

    async def tell(self, op: str, **args: Any) -> None:
        """For updates whose answer a hook reply need not wait for (a mark of what was shown)."""
        await self._mailbox.tell(op, **args)

    async def save(self, now: float) -> None:
        await self._mailbox.ask("save", now=now)

    def close(self) -> None:
        """Stop taking messages; the registry saves what is dirty and exits."""
        self._mailbox.send.close()


def load_sessions(path: Path, now: float) -> dict[str, Session]:
    try:
        raw = files.load_json(path) or {}
    except (files.Unreadable, OSError) as exc:
        log.error("sessions file unreadable (%s); starting with no sessions", exc)
        raw = {}
    out = {}
    for sid, rec in raw.items() if isinstance(raw, dict) else ():
        if not isinstance(rec, dict):
            continue
        try:
            s = Session.from_json(sid, rec)
        except (TypeError, ValueError) as exc:
            log.warning("dropping unreadable session %s: %s", sid, exc)
            continue
        if now - s.last_activity <= C.SESSION_TTL_SECONDS:
            out[sid] = s
    return out


async def run_session_registry(
    path: Path, sessions: dict[str, Session], *, task_status: trio.TaskStatus[SessionHandle] = trio.TASK_STATUS_IGNORED,
) -> None:
    registry = Registry(sessions)
    mailbox = actor.Mailbox("session registry")
    task_status.started(SessionHandle(mailbox))

    async def save() -> None:
        data = registry.snapshot()
        try:
            await trio.to_thread.run_sync(files.write_atomic, path, data, False)
            registry.dirty = False
        except OSError as exc:
            log.error("could not save %s: %s (retried on the tick)", path, exc)

    async def handle(req: actor.Request) -> None:
        if req.op == "save":
            if registry.dirty:
                await save()
            for event_path, data in registry.dirty_tool_events(req.args.get("now", time.time())):
                try:
                    await trio.to_thread.run_sync(files.write_atomic, event_path, data, False)
                except OSError as exc:
                    log.error("could not save %s: %s", event_path, exc)
            req.reply.set(None)
            return
        try:
            result = getattr(registry, "op_" + req.op)(**req.args)
        except KGError as exc:
            req.reply.fail(exc)
            return
        except Exception as exc:  # one bad message must not take the registry down
            log.exception("session registry: %s failed", req.op)
            req.reply.fail(KGError(f"internal error while handling {req.op}: {exc!r}"))
            return
        if req.op not in ("get", "find_by_project", "write_view", "vote_state", "writers", "hook_seen",
                          "activity_days", "tool_event", "claim_nudge"):
            registry.dirty = True
            registry.note_changed(req.op, req.args, result)
        req.reply.set(result)
        if req.op in _SAVE_NOW:
            # Saved before the next message, but after the answer: a SessionStart hook must not
            # wait out an fsync (10-40 ms under write load) for a session it is about to use.
            await save()

    try:
        # Every message is quick, so what is queued is handled in one round.
        async for first in mailbox.receive:
            for req in mailbox.burst(first):
                await handle(req)
        if registry.dirty:
            await save()
    finally:
        mailbox.drain_stopped()
