"""The handle callers hold on the session registry: one typed method per message; the mailbox stays private.

Produced only by run_session_registry (session_actor.py).
"""

from __future__ import annotations

from typing import Any

import attrs

from . import actor
from . import session_messages as m
from .core.seen import Ref
from .session_messages import PushFacts, PushWindow, SessionView, VoteState, WriteView


@attrs.frozen
class SessionHandle:
    """What callers hold: one typed method per message; the mailbox stays private."""

    _mailbox: actor.Mailbox[m.SessionMessage[Any]]
    # What the saver (session_saver.py) says failed, until a save succeeds: "file", "save_failed", "fold_failed".
    save_status: dict[str, str] = attrs.field(factory=dict)

    def save_trouble(self) -> dict[str, str] | None:
        """sessions.json's failing save as /health names it (kg status, doctor), or None."""
        file, status = self.save_status.get("file", "sessions.json"), self.save_status
        if failed := status.get("save_failed"):
            return {"kind": "not_saved", "file": file,
                    "why": f"{file} and its journal could not be saved ({failed}): the sessions changed since are "
                           "kept in memory alone (retried on the tick; a stop now loses them)"}
        if failed := status.get("fold_failed"):
            return {"kind": "not_folded", "file": file,
                    "why": f"{file} could not be saved whole ({failed}): every session is kept in its journal "
                           f"{file}.journal, which grows until a save succeeds"}
        return None

    async def tell(self, message: m.SessionMessage[Any]) -> None:
        """For updates whose answer a hook reply need not wait for (a mark of what was shown)."""
        await self._mailbox.tell(message)

    def close(self) -> None:
        """Stop taking messages; the registry saves what is dirty and exits."""
        self._mailbox.send.close()

    # Lifecycle
    async def register(self, project_path: str | None, harness: str, now: float,
                       claude_sid: str | None = None) -> SessionView:
        return await self._mailbox.ask(m.Register(project_path, harness, now, claude_sid))

    async def get(self, sid: str) -> SessionView | None:
        return await self._mailbox.ask(m.Get(sid))

    async def touch(self, sid: str, now: float, harness: str | None = None) -> SessionView:
        return await self._mailbox.ask(m.Touch(sid, now, harness))

    async def attach(self, sid: str, project_path: str | None) -> SessionView:
        return await self._mailbox.ask(m.Attach(sid, project_path))

    async def find_by_claude(self, claude_sid: str) -> SessionView | None:
        return await self._mailbox.ask(m.FindByClaude(claude_sid))

    async def open_hook(self, claude_sid: str, now: float, push_before_full_read: bool,
                        peek: bool = False) -> tuple[SessionView | None, PushWindow | None]:
        return await self._mailbox.ask(m.OpenHook(claude_sid, now, push_before_full_read, peek))

    async def find_by_project(self, project_path: str | None) -> SessionView | None:
        return await self._mailbox.ask(m.FindByProject(project_path))

    async def bind(self, sid: str, claude_sid: str, harness: str) -> SessionView:
        return await self._mailbox.ask(m.Bind(sid, claude_sid, harness))

    async def fork(self, sid: str, claude_sid: str | None, harness: str, now: float) -> SessionView:
        return await self._mailbox.ask(m.Fork(sid, claude_sid, harness, now))

    async def reset_context(self, sid: str, now: float) -> SessionView:
        return await self._mailbox.ask(m.ResetContext(sid, now))

    async def set_maintenance(self, sid: str) -> bool:
        return await self._mailbox.ask(m.SetMaintenance(sid))

    async def join_run(self, sid: str, run: str) -> None:
        await self._mailbox.ask(m.JoinRun(sid, run))

    async def expire(self, now: float, since: float | None = None) -> int:
        return await self._mailbox.ask(m.Expire(now, since))

    async def save(self, now: float | None = None) -> None:
        await self._mailbox.ask(m.Save(now))

    # What a session has seen
    async def mark_seen(self, sid: str, refs: list[Ref], via: str, at: float, full: bool = False,
                        cut: frozenset[Ref] = frozenset()) -> None:
        await self._mailbox.ask(m.MarkSeen(sid, refs, via, at, full, cut))

    async def mark_full_read(self, sid: str, now: float) -> bool:
        return await self._mailbox.ask(m.MarkFullRead(sid, now))

    async def held_whole(self, sid: str) -> dict[Ref, float]:
        return await self._mailbox.ask(m.HeldWhole(sid))

    async def set_preloaded(self, sid: str, refs: list[Ref], missing: tuple[str, ...] = ()) -> None:
        await self._mailbox.ask(m.SetPreloaded(sid, refs, missing))

    async def write_view(self, sid: str, level: str, node_id: str) -> WriteView:
        return await self._mailbox.ask(m.GetWriteView(sid, level, node_id))

    async def open_write(self, sid: str, now: float, level: str | None,
                         node_id: str) -> tuple[SessionView, WriteView]:
        return await self._mailbox.ask(m.OpenWrite(sid, now, level, node_id))

    async def after_write(self, sid: str, refs: list[Ref], via: str, at: float,
                          push_at: float | None = None, peek: bool = False, full: bool = True) -> PushWindow | None:
        return await self._mailbox.ask(m.AfterWrite(sid, refs, via, at, push_at, peek, full))

    async def forget_gone(self, sid: str, level: str, node_id: str) -> None:
        await self._mailbox.ask(m.ForgetGone(sid, level, node_id))

    async def where_renamed(self, sid: str, level: str | None, node_id: str) -> tuple[str, str] | None:
        return await self._mailbox.ask(m.WhereRenamed(sid, level, node_id))

    async def forget_views(self, level: str, ids: list[str], gone: frozenset[str] = frozenset(),
                           why: str = "sync") -> None:
        await self._mailbox.ask(m.ForgetViews(level, ids, gone, why))

    async def rename_ref(self, level: str, old_id: str, new_id: str, project_path: str | None = None,
                         by: str | None = None) -> None:
        await self._mailbox.ask(m.RenameRef(level, old_id, new_id, project_path, by))

    # Votes
    async def like(self, sid: str, level: str, node_id: str, credits: int | None) -> str | None:
        return await self._mailbox.ask(m.Like(sid, level, node_id, credits))

    async def unlike(self, sid: str, level: str, node_id: str, credits: int | None) -> None:
        await self._mailbox.ask(m.Unlike(sid, level, node_id, credits))

    async def vote_state(self, sid: str, ids: list[str] | None = None) -> VoteState:
        return await self._mailbox.ask(m.GetVoteState(sid, list(ids or ())))

    # Other sessions' writes
    async def sync_window(self, sid: str, now: float, peek: bool = False) -> float:
        return await self._mailbox.ask(m.SyncWindow(sid, now, peek))

    async def claim_push(self, sid: str, now: float, peek: bool = False) -> PushWindow | None:
        return await self._mailbox.ask(m.ClaimPush(sid, now, peek))

    async def reoffer_push(self, sid: str, items: dict[str, float]) -> None:
        await self._mailbox.ask(m.ReofferPush(sid, items))

    async def push_facts(self, sid: str, refs: list[Ref], writers: list[str]) -> PushFacts:
        return await self._mailbox.ask(m.GetPushFacts(sid, refs, writers))

    # Reply parts
    async def set_pages(self, sid: str, parts: list[str], effects: list[dict[str, Any]]) -> int | None:
        return await self._mailbox.ask(m.SetPages(sid, parts, effects))

    async def next_page(self, sid: str, peek: bool = False) -> tuple[str, dict[str, Any], int] | None:
        return await self._mailbox.ask(m.NextPage(sid, peek))

    async def reoffer_page(self, sid: str, gen: int, text: str, effects: dict[str, Any]) -> None:
        await self._mailbox.ask(m.ReofferPage(sid, gen, text, effects))

    # Ambient channels
    async def offer(self, sid: str, refs: list[Ref], now: float) -> frozenset[Ref]:
        return await self._mailbox.ask(m.Offer(sid, refs, now))

    async def unoffer(self, sid: str, refs: list[Ref]) -> None:
        await self._mailbox.ask(m.Unoffer(sid, refs))

    async def claim_file_recall(self, sid: str, now: float) -> bool:
        return await self._mailbox.ask(m.ClaimFileRecall(sid, now))

    async def tool_event(self, path: str, key: str, harness_sid: str, now: float) -> dict[str, Any]:
        return await self._mailbox.ask(m.ToolEvent(path, key, harness_sid, now))

    async def claim_nudge(self, path: str, key: str, kg_sid: str, now: float) -> bool:
        return await self._mailbox.ask(m.ClaimNudge(path, key, kg_sid, now))

    async def activity_days(self, path: str) -> frozenset[str]:
        return await self._mailbox.ask(m.ActivityDays(path))

    async def note_hook(self, harness: str, project_path: str | None) -> None:
        await self._mailbox.ask(m.NoteHook(harness, project_path))

    async def hook_seen(self, harness: str, project_path: str | None) -> bool:
        return await self._mailbox.ask(m.HookSeen(harness, project_path))

    async def recent_project(self) -> str | None:
        return await self._mailbox.ask(m.RecentProject())

    async def held_ids(self, since: float) -> frozenset[str]:
        return await self._mailbox.ask(m.HeldIds(since))
