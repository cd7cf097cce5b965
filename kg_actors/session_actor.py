"""SessionRegistry: the one owner of every agent session's state.

Theory of operation. Sessions are records keyed by an 8-hex id: the bound
project, the harness, what the session has been shown (`seen_at`) and read in
full (`read_at`), each node named by level and id (core/seen.py), its votes,
its maintenance flag, its sync and push watermarks and undelivered reply
parts. Write arbitration asks it what a session saw; pushes ask it what a
session has not been told. Every handler is synchronous; the record store is
saved to `sessions.json` (atomically) after changes that must survive a
restart, and on the tick. Sessions idle for 24 h expire on the tick and at load, and past
SESSIONS_KEPT the least recently active go (a hook counts as activity).
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections.abc import Callable, Set as AbstractSet
from pathlib import Path
from typing import Any

import trio

from . import actor, session_follow, session_saves
from . import session_messages as m
from .core import constants as C
from .core import session_cap
from .core.errors import KGError
from .core.pmap import PMap
from .core.seen import Ref, Refs, key, ref
from .session_handle import SessionHandle
from .session_messages import SessionView, Touches
from .session_ambient import AmbientChannels
from .session_votes import PassCredits, Votes
from .session_moves import NodeMoves
from .session_index import HarnessIds
from .session_records import Session, load_sessions, new_sid
from .session_saver import Saver
from .tool_events import ToolEvents

__all__ = ["Registry", "Session", "SessionHandle", "SessionView", "load_sessions", "run_session_registry"]

log = logging.getLogger(__name__)

class Registry(AmbientChannels, Votes, NodeMoves):
    def __init__(self, sessions: dict[str, Session], let_go: int = 0):
        self.sessions = sessions
        self.dirty = False
        # Sessions let go (at load, on the tick) that sessions.json still holds: the saver's next fold
        # leaves them out (the journal's appends never do).
        self.let_go = let_go
        self.tool_events = ToolEvents()  # per project: tool-event counters and nudge throttles
        self.hooks_seen: dict[str, set[str]] = {}  # harness name -> project roots its hooks reached
        # A save appends the sessions that changed since the last one to sessions.json's journal
        # (session_saves.py): all of them was a SessionStart's cost growing with the sessions kept.
        # Loaded, the sessions are what the file and its journal hold: none is changed yet (every one was
        # appended again by the first save after each start).
        self._changed: set[str] | None = set()  # sids changed since; None: every one
        # Per session, what its views share until it changes: the preloaded ids, and what it has seen as
        # a persistent map each mark_seen evolves (a long session has seen thousands of nodes, every call
        # asks for a view: O(ids marked) a change, where a frozenset was O(all it saw)).
        self._frozen: dict[str, tuple[frozenset[str], PMap[str, None], AbstractSet[Ref]]] = {}
        self._offered: dict[str, dict[str, float]] = {}  # sid -> gists its undelivered hook replies show
        self._harness_ids = HarnessIds(sessions)
        self._runs: dict[str, PassCredits] = {}  # per maintenance run, its pass's credits (session_votes.py)

    def note_changed(self, msg: m.SessionMessage[Any], result: object) -> None:
        """After a message that may have changed sessions: which ones the next save re-serializes."""
        if msg.sessions in (Touches.NONE, Touches.MEMBERSHIP) or self._changed is None:
            return  # a removed session drops out of the snapshot by itself
        sid = getattr(msg, "sid", None)
        sids = {sid} if isinstance(sid, str) else set()
        sids.update(v.sid for v in (result if isinstance(result, tuple) else (result,)) if isinstance(v, SessionView))
        if msg.sessions is Touches.ALL:
            self._changed = None
        else:
            self._changed |= sids  # none for a hook whose session is not known: nothing changed

    def view(self, s: Session) -> SessionView:
        frozen = self._frozen.get(s.sid)
        if frozen is None:
            seen = PMap(dict.fromkeys(s.seen_via))
            frozen = self._frozen[s.sid] = (frozenset(s.preloaded_ids), seen, Refs(seen.keys()))
        return SessionView(
            s.sid, s.project_path, s.scope, s.harness, s.maintenance, s.full_read_ts, s.start_ts,
            frozen[0], frozen[2], len(s.liked_ids), s.claude_sid, s.preload_given, tuple(s.preload_missing),
        )

    # Lifecycle -------------------------------------------------------------
    def register(self, msg: m.Register) -> SessionView:
        project_path, harness, now, claude_sid = msg.project_path, msg.harness, msg.now, msg.claude_sid
        sid = new_sid(self.sessions)
        s = Session(sid, now, now, project_path=project_path, scope=None if project_path else "user",
                    harness=harness, claude_sid=claude_sid, last_synced_ts=now, pushed_ts=now)
        self.sessions[sid] = s
        self._harness_ids.add(s)
        return self.view(s)

    def get(self, msg: m.Get) -> SessionView | None:
        s = self.sessions.get(msg.sid)
        return None if s is None else self.view(s)

    def touch(self, msg: m.Touch) -> SessionView:
        sid, now, harness = msg.sid, msg.now, msg.harness
        s = self._get(sid)
        s.op_count += 1
        s.last_activity = now
        if harness and harness != s.harness:
            s.harness = harness
        return self.view(s)

    def attach(self, msg: m.Attach) -> SessionView:
        sid, project_path = msg.sid, msg.project_path
        s = self._get(sid)
        s.project_path = project_path
        s.scope = None if project_path else "user"
        return self.view(s)

    def find_by_claude(self, msg: m.FindByClaude) -> SessionView | None:
        return self._find_by_claude(msg.claude_sid)

    def _find_by_claude(self, claude_sid: str) -> SessionView | None:
        """The KG session bound to a harness session id (one KG session per harness session)."""
        best = self._harness_ids.newest(claude_sid, self.sessions)
        return None if best is None else self.view(best)

    def open_hook(self, msg: m.OpenHook) -> tuple[SessionView | None, m.PushWindow | None]:
        """A hook's first ask: its session and, when the reply may carry pushes, their window.

        One message instead of two: under load every ask costs the hook two scheduling rounds.
        """
        claude_sid, now, push_before_full_read = msg.claude_sid, msg.now, msg.push_before_full_read
        view = self._find_by_claude(claude_sid)
        if view is not None and not view.given:
            view = self._follow(claude_sid, view.sid) or view
        if view is not None and not msg.peek:
            # A hook is the session at work (its agent may call no tool for a while): it counts as activity
            # for the expiry and for which sessions past SESSIONS_KEPT go first.
            s = self.sessions[view.sid]
            s.last_activity = max(s.last_activity, now)
        if view is None or (view.full_read_ts is None and not push_before_full_read):
            return view, None
        return view, self._claim_push(view.sid, now, msg.peek)

    def _follow(self, claude_sid: str, sid: str) -> SessionView | None:
        """The harness session moves to the session its agent opened itself (session_follow.py), if any."""
        bound = self.sessions[sid]
        other = session_follow.to_follow(bound, self.sessions.values())
        if other is None:
            return None
        self._harness_ids.discard(bound)
        bound.claude_sid = None
        other.claude_sid, other.harness = claude_sid, bound.harness
        self._harness_ids.add(other)
        if self._changed is not None:
            self._changed.add(bound.sid)  # the one answered with is noted by note_changed
        return self.view(other)

    def find_by_project(self, msg: m.FindByProject) -> SessionView | None:
        """The newest session of a project (GET /api/session_state from hooks older than the payload contract)."""
        best = None
        for s in self.sessions.values():
            if s.project_path == msg.project_path and s.bound and (best is None or s.start_ts > best.start_ts):
                best = s
        return None if best is None else self.view(best)

    def recent_project(self, msg: m.RecentProject) -> str | None:
        """The project of the most recently active session, maintenance runs aside (the editor opens on it)."""
        best = max((s for s in self.sessions.values() if s.project_path and not s.maintenance),
                   key=lambda s: s.last_activity, default=None)
        return None if best is None else best.project_path

    def bind(self, msg: m.Bind) -> SessionView:
        sid, claude_sid, harness = msg.sid, msg.claude_sid, msg.harness
        s = self._get(sid)
        self._harness_ids.discard(s)
        s.claude_sid, s.harness = claude_sid, harness
        self._harness_ids.add(s)
        return self.view(s)

    def fork(self, msg: m.Fork) -> SessionView:
        """A resumed or forked conversation gets its own copy of the session's state."""
        sid, claude_sid, harness, now = msg.sid, msg.claude_sid, msg.harness, msg.now
        parent = self._get(sid)
        child = Session.from_json(new_sid(self.sessions), json.loads(json.dumps(parent.to_json())))
        child.start_ts = child.last_activity = now
        child.op_count = 0
        child.forked_from = sid
        child.claude_sid = claude_sid
        child.harness = harness
        child.pages, child.page_effects = [], []
        self.sessions[child.sid] = child
        self._harness_ids.add(child)
        return self.view(child)

    def reset_context(self, msg: m.ResetContext) -> SessionView:
        """After a compaction the summary kept only part of what was shown: start the context state over."""
        s = self._get(msg.sid)
        s.seen_via.clear()
        s.context_from = msg.now
        s.preloaded_ids = []
        self._frozen.pop(s.sid, None)
        s.full_read_ts = None
        s.pages, s.page_effects = [], []
        s.page_gen += 1  # a part in flight from before the reset stays dropped
        # seen_at/read_at stay: they date the session's views for write arbitration.
        s.extra["context_resets"] = int(s.extra.get("context_resets", 0)) + 1
        return self.view(s)

    def set_maintenance(self, msg: m.SetMaintenance) -> bool:
        s = self._get(msg.sid)
        was, s.maintenance = s.maintenance, True
        return not was

    def join_run(self, msg: m.JoinRun) -> None:
        s = self._get(msg.sid)
        s.maintenance = True
        if s.run != msg.run:
            s.run = msg.run
            self._joined(s)

    # What a session has seen -------------------------------------------------
    def mark_seen(self, msg: m.MarkSeen) -> None:
        sid, refs, via, at, full = msg.sid, msg.refs, msg.via, msg.at, msg.full
        s = self.sessions.get(sid)
        if s is None:
            return
        new: dict[str, None] = {}
        held = self._offered.get(sid)
        for level, node_id in refs:
            # Keyed by level and id (core/seen.py): the same id at the other level is another node.
            # Every session keys these by the same refs: one string each, not one per session (soak).
            k = sys.intern(key(level, node_id))
            if held:
                held.pop(k, None)  # shown now: seen from here on
            if via == "write":
                s.renamed_away.pop(k, None)  # the write's reply said where the renamed lesson went, once
            # seen_via: what is in the session's context now (reset by a compaction);
            # seen_at/read_at: when it last viewed each node (kept, for write arbitration).
            if k not in s.seen_via:
                s.seen_via[k] = via
                new[k] = None
            else:
                s.seen_via[k] = s.seen_via.pop(k)  # last shown last: the bound lets the longest unshown go
            if (level, node_id) in msg.cut:
                continue  # in the context, but not seen whole: no view to build a write on
            s.seen_at[k] = max(at, s.seen_at.get(k, 0.0))
            s.replaced_from.pop(k, None)  # seen again: what replaced its old view is known
            if full:
                s.read_at[k] = max(at, s.read_at.get(k, 0.0))
        frozen = self._frozen.get(sid)
        if s.trim_seen(C.SEEN_KEPT):
            self._frozen.pop(sid, None)  # made again from what is kept, at the next view
        elif new and frozen is not None:
            seen = frozen[1].evolve(new)
            self._frozen[sid] = (frozen[0], seen, Refs(seen.keys()))

    def mark_full_read(self, msg: m.MarkFullRead) -> bool:
        s = self._get(msg.sid)
        first, s.full_read_ts = s.full_read_ts is None, s.full_read_ts or msg.now
        return first

    def held_whole(self, msg: m.HeldWhole) -> dict[Ref, float]:
        return self._get(msg.sid).held_whole()

    def set_preloaded(self, msg: m.SetPreloaded) -> None:
        """Told once the preload's reply is delivered (never for one its hook gave up on)."""
        s = self._get(msg.sid)
        s.preloaded_ids = [key(lvl, i) for lvl, i in msg.refs]
        s.preload_given = True
        s.preload_missing = list(msg.missing)
        self._frozen.pop(msg.sid, None)

    def write_view(self, msg: m.GetWriteView) -> m.WriteView:
        """What the session saw of the node at `level` (never of the other level's node of that id)."""
        sid, node_id, k = msg.sid, msg.node_id, key(msg.level, msg.node_id)
        s = self._get(sid)
        may_credit = k not in s.liked_ids and node_id not in s.liked_ids and len(s.liked_ids) < C.MAX_LIKES_PER_SESSION
        # A mark without a view stamp is a cut gist's (mark_seen), or a record's of before levels ("unknown").
        shown_cut = k not in s.seen_at and s.seen_via.get(k, "unknown") != "unknown"
        return m.WriteView(s.seen_at.get(k), s.read_at.get(k), may_credit, s.maintenance, s.renamed_away.get(k),
                           shown_cut, None if k in s.seen_at else s.replaced_from.get(k))

    def open_write(self, msg: m.OpenWrite) -> tuple[SessionView, m.WriteView]:
        view = self.touch(m.Touch(msg.sid, msg.now))
        # No level yet: no views (key ":id" is no node's); the caller asks again once it found the node.
        return view, self.write_view(m.GetWriteView(msg.sid, msg.level or "", msg.node_id))

    def after_write(self, msg: m.AfterWrite) -> m.PushWindow | None:
        if not msg.peek:
            self.mark_seen(m.MarkSeen(msg.sid, msg.refs, msg.via, msg.at, full=msg.full))
        return None if msg.push_at is None else self._claim_push(msg.sid, msg.push_at, msg.peek)

    # Other sessions' writes -------------------------------------------------------
    def sync_window(self, msg: m.SyncWindow) -> float:
        """kg_sync: the watermark to report from; it moves to now."""
        sid, now = msg.sid, msg.now
        s = self._get(sid)
        since = s.last_synced_ts if s.last_synced_ts is not None else s.start_ts
        if not msg.peek:
            s.last_synced_ts = max(now, s.last_synced_ts or now)
        return since

    def claim_push(self, msg: m.ClaimPush) -> m.PushWindow | None:
        return self._claim_push(msg.sid, msg.now, msg.peek)

    def _claim_push(self, sid: str, now: float, peek: bool = False) -> m.PushWindow | None:
        s = self.sessions.get(sid)
        if s is None:
            return None
        since = max(x for x in (s.start_ts, s.last_synced_ts, s.pushed_ts) if x is not None)
        if not peek:  # a claim replayed late (a held reply acknowledged) never moves the watermark back
            s.pushed_ts = max(now, s.pushed_ts or now)
            # What a client gave up on comes again as items, not as its window: that window may overlap
            # one in flight, whose writes would then go out twice (formal/models/push_delivery.py).
            again, s.push_again = s.push_again, {}
        else:
            again = dict(s.push_again)
        return m.PushWindow(since, s.project_path, sid, again)

    def reoffer_push(self, msg: m.ReofferPush) -> None:
        s = self.sessions.get(msg.sid)
        if s is not None:
            s.push_again.update(msg.items)

    def push_facts(self, msg: m.GetPushFacts) -> m.PushFacts:
        s = self.sessions.get(msg.sid)
        seen = s.seen_at if s is not None else {}
        lost = s.replaced_from if s is not None else {}
        writers = {sid: m.WriterInfo(w.project_path, w.maintenance)
                   for sid in msg.writers if (w := self.sessions.get(sid)) is not None}
        return m.PushFacts({r: seen[k] for r in msg.refs if (k := key(*r)) in seen}, writers,
                           frozenset(r for r in msg.refs if key(*r) in lost))

    # Reply parts ---------------------------------------------------------------
    def set_pages(self, msg: m.SetPages) -> int:
        sid, parts, effects = msg.sid, msg.parts, msg.effects
        s = self._get(sid)
        s.pages, s.page_effects = list(parts), list(effects)
        s.page_gen += 1
        return s.page_gen

    def next_page(self, msg: m.NextPage) -> tuple[str, dict[str, Any], int] | None:
        s = self._get(msg.sid)
        if not s.pages:
            return None
        if msg.peek:
            return s.pages[0], s.page_effects[0] if s.page_effects else {}, s.page_gen
        return s.pages.pop(0), s.page_effects.pop(0) if s.page_effects else {}, s.page_gen

    def reoffer_page(self, msg: m.ReofferPage) -> None:
        """formal/models/dropped_reply.py: handed back under its own generation only."""
        s = self.sessions.get(msg.sid)
        if s is None or s.page_gen != msg.gen:
            return
        s.pages.insert(0, msg.text)
        s.page_effects.insert(0, msg.effects)

    # Chores ----------------------------------------------------------------------
    def held_ids(self, msg: m.HeldIds) -> frozenset[str]:
        """What live sessions have seen, at any level: a chore never renames it."""
        return frozenset(ref(k)[1] for s in self.sessions.values() if s.last_activity >= msg.since
                         and not s.maintenance for k in s.seen_via)

    # Tick ------------------------------------------------------------------------
    def expire(self, msg: m.Expire) -> int:
        """Sessions a day idle go, and the least recently active past SESSIONS_KEPT (core/session_cap.py)."""
        old = session_cap.to_let_go({sid: s.last_activity for sid, s in self.sessions.items()}, msg.now,
                                    C.SESSION_TTL_SECONDS, C.SESSIONS_KEPT, C.SESSION_SPARED_SECONDS, msg.since)
        for sid in old:
            self._harness_ids.discard(self.sessions.pop(sid))
            self._frozen.pop(sid, None)
            self._offered.pop(sid, None)
        self.let_go += len(old)
        for sid, s in self.sessions.items():
            if msg.now - s.last_activity > C.SESSION_SPARED_SECONDS:
                # A view's sets of a session idle a while: made again if it comes back (about half of
                # what an idle session held in memory).
                self._frozen.pop(sid, None)
        return len(old)

    def snapshot(self) -> bytes:
        """sessions.json's bytes as a fold would write them (as files.dump_json(..., indent=None) would)."""
        return session_saves.encode(self.all_parts()).encode("utf-8")

    def all_parts(self) -> list[session_saves.Part]:
        """Every session's record, detached (a fold's, encoded in a thread while the registry goes on)."""
        return [(sid, session_saves.detached(s.to_json())) for sid, s in self.sessions.items()]

    def changed_parts(self) -> list[session_saves.Part]:
        """The records of the sessions changed since the last call, detached, for the journal."""
        changed, self._changed = self._changed, set()
        return [(sid, session_saves.detached(s.to_json())) for sid, s in self.sessions.items()
                if changed is None or sid in changed]

    def unsaved(self, parts: list[session_saves.Part]) -> None:
        """An append that failed: its sessions are changed still (saved by the next one)."""
        if self._changed is not None:
            self._changed.update(sid for sid, _ in parts)
        self.dirty = True


# How the registry answers each message (Save is the loop's own).
HANDLERS: dict[type[m.SessionMessage[Any]], Callable[[Registry, Any], object]] = {
    m.Register: Registry.register, m.Get: Registry.get, m.Touch: Registry.touch, m.Attach: Registry.attach,
    m.FindByClaude: Registry.find_by_claude, m.OpenHook: Registry.open_hook,
    m.FindByProject: Registry.find_by_project, m.Bind: Registry.bind, m.Fork: Registry.fork,
    m.ResetContext: Registry.reset_context, m.SetMaintenance: Registry.set_maintenance,
    m.JoinRun: Registry.join_run,
    m.Expire: Registry.expire, m.MarkSeen: Registry.mark_seen, m.MarkFullRead: Registry.mark_full_read,
    m.SetPreloaded: Registry.set_preloaded, m.HeldWhole: Registry.held_whole, m.GetWriteView: Registry.write_view,
    m.OpenWrite: Registry.open_write, m.AfterWrite: Registry.after_write,
    m.RenameRef: Registry.rename_ref, m.ForgetViews: Registry.forget_views, m.ForgetGone: Registry.forget_gone,
    m.WhereRenamed: Registry.where_renamed,
    m.Like: Registry.like, m.Unlike: Registry.unlike,
    m.GetVoteState: Registry.vote_state, m.SyncWindow: Registry.sync_window, m.ClaimPush: Registry.claim_push,
    m.GetPushFacts: Registry.push_facts,
    m.ReofferPush: Registry.reoffer_push,
    m.SetPages: Registry.set_pages, m.NextPage: Registry.next_page,
    m.ReofferPage: Registry.reoffer_page,
    m.Offer: Registry.offer, m.Unoffer: Registry.unoffer,
    m.ClaimFileRecall: Registry.claim_file_recall,
    m.ToolEvent: Registry.tool_event, m.ClaimNudge: Registry.claim_nudge,
    m.ActivityDays: Registry.activity_days, m.NoteHook: Registry.note_hook, m.HookSeen: Registry.hook_seen, m.RecentProject: Registry.recent_project,
    m.HeldIds: Registry.held_ids,
}


async def run_session_registry(
    path: Path, sessions: dict[str, Session], clock: Callable[[], float] = time.time, let_go: int = 0,
    *, task_status: trio.TaskStatus[SessionHandle] = trio.TASK_STATUS_IGNORED,
) -> None:
    registry = Registry(sessions, let_go)
    mailbox = actor.Mailbox[m.SessionMessage[Any]]("session registry")
    door = SessionHandle(mailbox)
    task_status.started(door)

    saver = Saver(path, registry, door.save_status)  # one writer of the file: saves are asked of it in order
    to_saver = saver.inbox

    async def save() -> None:
        saved = trio.Event()
        to_saver.send_nowait((None, saved.set))
        await saved.wait()

    async def handle(msg: m.SessionMessage[Any]) -> None:
        if isinstance(msg, m.Save):  # the tick's: the registry goes on answering while the file is written
            reply = msg.reply
            to_saver.send_nowait((msg.now if msg.now is not None else clock(), lambda: reply.set(None)))
            return
        try:
            result = HANDLERS[type(msg)](registry, msg)
        except KGError as exc:
            msg.reply.fail(exc)
            return
        except Exception as exc:  # one bad message must not take the registry down
            log.exception("session registry: %s failed", msg.op)
            msg.reply.fail(KGError(f"internal error while handling {msg.op}: {exc!r}"))
            return
        if msg.sessions is not Touches.NONE:
            registry.dirty = True
            registry.note_changed(msg, result)
        if msg.saves_now:
            # Answered once the file holds it, while the registry goes on answering the others: the
            # registry itself waiting for the file held every hook behind it for as long as the whole
            # sessions.json took to write (at 5,000 sessions, ~0.3 s); only this asker waits now.
            answer = msg.reply
            to_saver.send_nowait((None, lambda: answer.set(result)))
        else:
            msg.reply.set(result)

    try:
        async with trio.open_nursery() as saving:  # the saves asked for: finished before the registry ends
            saving.start_soon(saver.run, saving)
            # Every message is quick, so what is queued is handled in one round.
            async for first in mailbox.receive:
                for msg in mailbox.burst(first):
                    await handle(msg)
            await save()  # what is dirty at the end (nothing: no write)
            await saver.last_fold(saving)
            to_saver.close()
    finally:
        mailbox.drain_stopped()
