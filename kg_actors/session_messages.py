"""What the session registry answers to: its messages, their results, and the handle callers hold.

Each message says once what it implies for the registry (class attributes):
`sessions`, which session records it may change (so the next save
re-serializes those, see Registry.note_changed), and `saves_now`, whether
the registry is saved as soon as it is answered.
"""

from __future__ import annotations

import enum
from typing import Any, ClassVar

import attrs

from . import actor


class Touches(enum.Enum):
    """Which stored session records a message may change."""

    NONE = "none"  # reads, or state kept elsewhere (tool events, hooks seen): nothing to save
    OWN = "own"  # the session it names (`sid`) or answers with (a SessionView)
    ALL = "all"  # any of them
    MEMBERSHIP = "membership"  # which sessions exist, not what any kept one holds


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


@attrs.frozen
class WriteView:
    """What write arbitration needs to know of a session and one node."""

    seen_at: float | None
    read_at: float | None
    may_credit: bool
    maintenance: bool


@attrs.frozen
class VoteState:
    likes: int
    credits: int
    maintenance: bool
    seen_via: dict[str, str]


@attrs.frozen
class WriterInfo:
    """Who a session is, as far as deciding which of its writes are pushed to whom."""

    project_path: str | None
    maintenance: bool


@attrs.frozen
class PushWindow:
    """A claimed push: what was written after `since` and not seen, for session `sid`."""

    since: float
    seen_at: dict[str, float]
    project_path: str | None
    sid: str
    writers: dict[str, WriterInfo]
    again: dict[str, float] = attrs.field(factory=dict)  # shown in a reply its client gave up on: id -> stamp


@attrs.frozen
class SessionMessage(actor.Message[actor.R]):
    sessions: ClassVar[Touches] = Touches.OWN
    saves_now: ClassVar[bool] = False




# Lifecycle -------------------------------------------------------------------


@attrs.frozen
class Register(SessionMessage[SessionView]):
    op = "register"
    saves_now = True
    project_path: str | None
    harness: str
    now: float
    claude_sid: str | None = None


@attrs.frozen
class Get(SessionMessage["SessionView | None"]):
    op = "get"
    sessions = Touches.NONE
    sid: str


@attrs.frozen
class Touch(SessionMessage[SessionView]):
    op = "touch"
    sid: str
    now: float
    harness: str | None = None


@attrs.frozen
class Attach(SessionMessage[SessionView]):
    op = "attach"
    saves_now = True
    sid: str
    project_path: str | None


@attrs.frozen
class FindByClaude(SessionMessage["SessionView | None"]):
    op = "find_by_claude"
    sessions = Touches.NONE
    claude_sid: str


@attrs.frozen
class OpenHook(SessionMessage["tuple[SessionView | None, PushWindow | None]"]):
    op = "open_hook"  # claims the push window: moves the session's push watermark
    claude_sid: str
    now: float
    push_before_full_read: bool


@attrs.frozen
class FindByProject(SessionMessage["SessionView | None"]):
    op = "find_by_project"
    sessions = Touches.NONE
    project_path: str | None


@attrs.frozen
class Bind(SessionMessage[SessionView]):
    op = "bind"
    saves_now = True
    sid: str
    claude_sid: str
    harness: str


@attrs.frozen
class Fork(SessionMessage[SessionView]):
    op = "fork"
    saves_now = True
    sid: str
    claude_sid: str | None
    harness: str
    now: float


@attrs.frozen
class ResetContext(SessionMessage[SessionView]):
    op = "reset_context"
    saves_now = True
    sid: str


@attrs.frozen
class SetMaintenance(SessionMessage[bool]):
    op = "set_maintenance"
    saves_now = True
    sid: str


@attrs.frozen
class Expire(SessionMessage[int]):
    op = "expire"
    sessions = Touches.MEMBERSHIP
    now: float


# What a session has seen -------------------------------------------------------


@attrs.frozen
class MarkSeen(SessionMessage[None]):
    op = "mark_seen"
    sid: str
    ids: list[str]
    via: str
    at: float
    full: bool = False


@attrs.frozen
class MarkFullRead(SessionMessage[bool]):
    op = "mark_full_read"
    sid: str
    now: float


@attrs.frozen
class SetPreloaded(SessionMessage[None]):
    op = "set_preloaded"
    sid: str
    ids: list[str]


@attrs.frozen
class GetWriteView(SessionMessage[WriteView]):
    op = "write_view"
    sessions = Touches.NONE
    sid: str
    level: str
    node_id: str


@attrs.frozen
class ForgetViews(SessionMessage[None]):
    """Nodes replaced from outside (a sync, a restore): no session has seen their new version."""

    op = "forget_views"
    sessions = Touches.ALL
    ids: list[str]


@attrs.frozen
class RenameRef(SessionMessage[None]):
    op = "rename_ref"
    sessions = Touches.ALL
    old_id: str
    new_id: str


# Votes -----------------------------------------------------------------------------


@attrs.frozen
class Like(SessionMessage["str | None"]):
    op = "like"
    saves_now = True
    sid: str
    node_id: str
    credits: int | None


@attrs.frozen
class Unlike(SessionMessage[None]):
    op = "unlike"
    sid: str
    node_id: str
    credits: int | None


@attrs.frozen
class GetVoteState(SessionMessage[VoteState]):
    op = "vote_state"
    sessions = Touches.NONE
    sid: str


# Other sessions' writes ---------------------------------------------------------------


@attrs.frozen
class SyncWindow(SessionMessage[float]):
    op = "sync_window"
    sid: str
    now: float


@attrs.frozen
class ClaimPush(SessionMessage["PushWindow | None"]):
    op = "claim_push"
    sid: str
    now: float


@attrs.frozen
class ReofferPush(SessionMessage[None]):
    """What a hook reply showed that its client gave up on (node id -> write stamp): the next
    claim offers those again, each only if not rewritten or seen since (F38)."""

    op = "reoffer_push"
    sid: str
    items: dict[str, float]


@attrs.frozen
class Writers(SessionMessage["dict[str, WriterInfo]"]):
    op = "writers"
    sessions = Touches.NONE


# Reply parts ---------------------------------------------------------------------------


@attrs.frozen
class SetPages(SessionMessage[None]):
    op = "set_pages"
    sid: str
    parts: list[str]
    effects: list[dict[str, Any]]


@attrs.frozen
class NextPage(SessionMessage["tuple[str, dict[str, Any]] | None"]):
    op = "next_page"
    sid: str


# Ambient channels ------------------------------------------------------------------------


@attrs.frozen
class FileRecallAllowed(SessionMessage[bool]):
    op = "file_recall_allowed"  # drops the session's recall stamps that aged out
    sid: str
    now: float


@attrs.frozen
class NoteFileRecall(SessionMessage[None]):
    op = "note_file_recall"
    sid: str
    now: float


@attrs.frozen
class ToolEvent(SessionMessage["dict[str, Any]"]):
    op = "tool_event"
    sessions = Touches.NONE  # tool_events.json, saved with the registry but apart from sessions.json
    path: str
    key: str
    harness_sid: str
    now: float


@attrs.frozen
class ClaimNudge(SessionMessage[bool]):
    op = "claim_nudge"
    sessions = Touches.NONE
    path: str
    key: str
    kg_sid: str
    now: float


@attrs.frozen
class ActivityDays(SessionMessage["frozenset[str]"]):
    op = "activity_days"
    sessions = Touches.NONE
    path: str


@attrs.frozen
class NoteHook(SessionMessage[None]):
    op = "note_hook"
    sessions = Touches.NONE  # hooks_seen lives in memory only
    harness: str
    project_path: str | None


@attrs.frozen
class HookSeen(SessionMessage[bool]):
    op = "hook_seen"
    sessions = Touches.NONE
    harness: str
    project_path: str | None


@attrs.frozen
class RecentProject(SessionMessage["str | None"]):
    """The project the editor opens on: that of the most recently active session."""

    op = "recent_project"
    sessions = Touches.NONE


@attrs.frozen
class Save(SessionMessage[None]):
    """Write what is dirty (the tick's, and the tests')."""

    op = "save"
    sessions = Touches.NONE
    now: float | None = None


BY_NAME: dict[str, type[SessionMessage[Any]]] = actor.by_name(SessionMessage, list(globals().values()))


@attrs.frozen
class SessionHandle:
    """What callers hold: one typed method per message; the mailbox stays private."""

    _mailbox: actor.Mailbox[SessionMessage[Any]]

    async def tell(self, message: SessionMessage[Any]) -> None:
        """For updates whose answer a hook reply need not wait for (a mark of what was shown)."""
        await self._mailbox.tell(message)

    def close(self) -> None:
        """Stop taking messages; the registry saves what is dirty and exits."""
        self._mailbox.send.close()

    # Lifecycle
    async def register(self, project_path: str | None, harness: str, now: float,
                       claude_sid: str | None = None) -> SessionView:
        return await self._mailbox.ask(Register(project_path, harness, now, claude_sid))

    async def get(self, sid: str) -> SessionView | None:
        return await self._mailbox.ask(Get(sid))

    async def touch(self, sid: str, now: float, harness: str | None = None) -> SessionView:
        return await self._mailbox.ask(Touch(sid, now, harness))

    async def attach(self, sid: str, project_path: str | None) -> SessionView:
        return await self._mailbox.ask(Attach(sid, project_path))

    async def find_by_claude(self, claude_sid: str) -> SessionView | None:
        return await self._mailbox.ask(FindByClaude(claude_sid))

    async def open_hook(self, claude_sid: str, now: float,
                        push_before_full_read: bool) -> tuple[SessionView | None, PushWindow | None]:
        return await self._mailbox.ask(OpenHook(claude_sid, now, push_before_full_read))

    async def find_by_project(self, project_path: str | None) -> SessionView | None:
        return await self._mailbox.ask(FindByProject(project_path))

    async def bind(self, sid: str, claude_sid: str, harness: str) -> SessionView:
        return await self._mailbox.ask(Bind(sid, claude_sid, harness))

    async def fork(self, sid: str, claude_sid: str | None, harness: str, now: float) -> SessionView:
        return await self._mailbox.ask(Fork(sid, claude_sid, harness, now))

    async def reset_context(self, sid: str) -> SessionView:
        return await self._mailbox.ask(ResetContext(sid))

    async def set_maintenance(self, sid: str) -> bool:
        return await self._mailbox.ask(SetMaintenance(sid))

    async def expire(self, now: float) -> int:
        return await self._mailbox.ask(Expire(now))

    async def save(self, now: float | None = None) -> None:
        await self._mailbox.ask(Save(now))

    # What a session has seen
    async def mark_seen(self, sid: str, ids: list[str], via: str, at: float, full: bool = False) -> None:
        await self._mailbox.ask(MarkSeen(sid, ids, via, at, full))

    async def mark_full_read(self, sid: str, now: float) -> bool:
        return await self._mailbox.ask(MarkFullRead(sid, now))

    async def set_preloaded(self, sid: str, ids: list[str]) -> None:
        await self._mailbox.ask(SetPreloaded(sid, ids))

    async def write_view(self, sid: str, level: str, node_id: str) -> WriteView:
        return await self._mailbox.ask(GetWriteView(sid, level, node_id))

    async def forget_views(self, ids: list[str]) -> None:
        await self._mailbox.ask(ForgetViews(ids))

    async def rename_ref(self, old_id: str, new_id: str) -> None:
        await self._mailbox.ask(RenameRef(old_id, new_id))

    # Votes
    async def like(self, sid: str, node_id: str, credits: int | None) -> str | None:
        return await self._mailbox.ask(Like(sid, node_id, credits))

    async def unlike(self, sid: str, node_id: str, credits: int | None) -> None:
        await self._mailbox.ask(Unlike(sid, node_id, credits))

    async def vote_state(self, sid: str) -> VoteState:
        return await self._mailbox.ask(GetVoteState(sid))

    # Other sessions' writes
    async def sync_window(self, sid: str, now: float) -> float:
        return await self._mailbox.ask(SyncWindow(sid, now))

    async def claim_push(self, sid: str, now: float) -> PushWindow | None:
        return await self._mailbox.ask(ClaimPush(sid, now))

    async def reoffer_push(self, sid: str, items: dict[str, float]) -> None:
        await self._mailbox.ask(ReofferPush(sid, items))

    async def writers(self) -> dict[str, WriterInfo]:
        return await self._mailbox.ask(Writers())

    # Reply parts
    async def set_pages(self, sid: str, parts: list[str], effects: list[dict[str, Any]]) -> None:
        await self._mailbox.ask(SetPages(sid, parts, effects))

    async def next_page(self, sid: str) -> tuple[str, dict[str, Any]] | None:
        return await self._mailbox.ask(NextPage(sid))

    # Ambient channels
    async def file_recall_allowed(self, sid: str, now: float) -> bool:
        return await self._mailbox.ask(FileRecallAllowed(sid, now))

    async def note_file_recall(self, sid: str, now: float) -> None:
        await self._mailbox.ask(NoteFileRecall(sid, now))

    async def tool_event(self, path: str, key: str, harness_sid: str, now: float) -> dict[str, Any]:
        return await self._mailbox.ask(ToolEvent(path, key, harness_sid, now))

    async def claim_nudge(self, path: str, key: str, kg_sid: str, now: float) -> bool:
        return await self._mailbox.ask(ClaimNudge(path, key, kg_sid, now))

    async def activity_days(self, path: str) -> frozenset[str]:
        return await self._mailbox.ask(ActivityDays(path))

    async def note_hook(self, harness: str, project_path: str | None) -> None:
        await self._mailbox.ask(NoteHook(harness, project_path))

    async def hook_seen(self, harness: str, project_path: str | None) -> bool:
        return await self._mailbox.ask(HookSeen(harness, project_path))

    async def recent_project(self) -> str | None:
        return await self._mailbox.ask(RecentProject())
