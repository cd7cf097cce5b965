"""What the session registry answers to: its messages (results: session_views.py; handle: session_handle.py).

Each message says once what it implies for the registry (class attributes):
`sessions`, which session records it may change (so the next save
re-serializes those, see Registry.note_changed), and `saves_now`, whether
the registry is saved as soon as it is answered.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from . import actor
from .core.seen import Ref
# The results the messages answer with, re-exported: they are part of what the registry answers to.
from .session_views import PushFacts as PushFacts
from .session_views import PushWindow as PushWindow
from .session_views import SessionView as SessionView
from .session_views import Touches as Touches
from .session_views import VoteState as VoteState
from .session_views import WriterInfo as WriterInfo
from .session_views import WriteView as WriteView


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
    deferral = "peek"
    claude_sid: str
    now: float
    push_before_full_read: bool
    peek: bool = False  # answer without moving the watermark (a reply held for later delivery)


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
    now: float


@attrs.frozen
class SetMaintenance(SessionMessage[bool]):
    op = "set_maintenance"
    saves_now = True
    sid: str


@attrs.frozen
class JoinRun(SessionMessage[None]):
    """A call carrying a live run's mark named this session: it is that run's maintenance session."""

    op = "join_run"
    saves_now = True
    sid: str
    run: str


@attrs.frozen
class Expire(SessionMessage[int]):
    op = "expire"
    sessions = Touches.MEMBERSHIP
    now: float
    since: float | None = None  # the wall clock's latest jump (core/clock_guard.py)


# What a session has seen -------------------------------------------------------


@attrs.frozen
class MarkSeen(SessionMessage[None]):
    op = "mark_seen"
    deferral = "hold"
    sid: str
    refs: list[Ref]  # (level, id): the same id at the other level is another node
    via: str
    at: float
    full: bool = False
    # Of `refs`, those whose gist was shown cut short: in the context (never injected again), not seen
    # whole (a write over it is refused, with the node shown, as for a node never seen).
    cut: frozenset[Ref] = frozenset()


@attrs.frozen
class MarkFullRead(SessionMessage[bool]):
    op = "mark_full_read"
    deferral = "hold"
    sid: str
    now: float


@attrs.frozen
class HeldWhole(SessionMessage["dict[Ref, float]"]):
    """What the session's context holds whole now, and when it saw each so: the full read's anchors."""

    op = "held_whole"
    sessions = Touches.NONE
    sid: str


@attrs.frozen
class SetPreloaded(SessionMessage[None]):
    op = "set_preloaded"
    deferral = "hold"
    sid: str
    refs: list[Ref]
    missing: tuple[str, ...] = ()  # the levels whose graph was still loading: not in that preload


@attrs.frozen
class GetWriteView(SessionMessage[WriteView]):
    op = "write_view"
    sessions = Touches.NONE
    sid: str
    level: str
    node_id: str


@attrs.frozen
class OpenWrite(SessionMessage["tuple[SessionView, WriteView]"]):
    """A write's one ask before it is made: the session touched, and what it saw of the node."""

    op = "open_write"
    sid: str
    now: float
    level: str | None  # None: not known yet (a delete that looks its node up asks GetWriteView once found)
    node_id: str


@attrs.frozen
class AfterWrite(SessionMessage["PushWindow | None"]):
    """A write's one ask after it: the nodes marked seen (in full when `full`), and the push window claimed
    at `push_at`."""

    op = "after_write"
    deferral = "peek"  # a reply held for later delivery (Antigravity) claims its push only when acknowledged
    sid: str
    refs: list[Ref]
    via: str
    at: float
    push_at: float | None = None
    peek: bool = False  # answer the push window without marking or moving anything
    full: bool = True  # the write showed the node whole (made it, or gave its notes and touches)


@attrs.frozen
class ForgetGone(SessionMessage[None]):
    """The session knows the node it saw under this id is gone (it deleted it, or a write said so)."""

    op = "forget_gone"
    sid: str
    level: str
    node_id: str


@attrs.frozen
class WhereRenamed(SessionMessage["tuple[str, str] | None"]):
    """Where an id the session knew went (level, new id): renamed by it, or by another after it saw the node.
    `level` None: either level, user first (as a delete looks)."""

    op = "where_renamed"
    sessions = Touches.NONE
    sid: str
    level: str | None
    node_id: str


@attrs.frozen
class ForgetViews(SessionMessage[None]):
    """Nodes replaced from outside (a sync, a restore): no session has seen their new version. Of them, `gone`
    are no longer there: a session that saw one keeps that it did, so its write under the id is refused once
    as built on a deleted node (core/graph_ops.gone_refusal), as after another session's delete. The others'
    sessions remember `why` their view went, so that refusal names the sync or the restore, not a cut gist."""

    op = "forget_views"
    sessions = Touches.ALL
    level: str
    ids: list[str]
    gone: frozenset[str] = frozenset()
    why: str = "sync"  # what replaced them: "sync" (another machine's change) or "restore"


@attrs.frozen
class RenameRef(SessionMessage[None]):
    """Sessions' views of a renamed node follow it: at its level only, and for a project node only in
    that project's sessions (`project_path`; None for the user and maintain graphs)."""

    op = "rename_ref"
    sessions = Touches.ALL
    level: str
    old_id: str
    new_id: str
    project_path: str | None = None
    by: str | None = None  # the renaming session, which knows


# Votes -----------------------------------------------------------------------------


@attrs.frozen
class Like(SessionMessage["str | None"]):
    op = "like"
    saves_now = True
    sid: str
    level: str
    node_id: str
    credits: int | None


@attrs.frozen
class Unlike(SessionMessage[None]):
    op = "unlike"
    sid: str
    level: str
    node_id: str
    credits: int | None


@attrs.frozen
class GetVoteState(SessionMessage[VoteState]):
    op = "vote_state"
    sessions = Touches.NONE
    sid: str
    ids: list[str] = attrs.field(factory=list)  # whose seen_via to answer (never the whole table)


# Other sessions' writes ---------------------------------------------------------------


@attrs.frozen
class SyncWindow(SessionMessage[float]):
    op = "sync_window"
    deferral = "peek"
    sid: str
    now: float
    peek: bool = False


@attrs.frozen
class ClaimPush(SessionMessage["PushWindow | None"]):
    op = "claim_push"
    deferral = "peek"
    sid: str
    now: float
    peek: bool = False


@attrs.frozen
class ReofferPush(SessionMessage[None]):
    """What a hook reply showed that its client gave up on (node id -> write stamp): the next
    claim offers those again, each only if not rewritten or seen since (F38)."""

    op = "reoffer_push"
    sid: str
    items: dict[str, float]


@attrs.frozen
class GetPushFacts(SessionMessage[PushFacts]):
    """What session `sid` has seen of the nodes `refs`, and who the `writers` of them are."""

    op = "push_facts"
    sessions = Touches.NONE
    sid: str
    refs: list[Ref]
    writers: list[str]


# Reply parts ---------------------------------------------------------------------------


@attrs.frozen
class SetPages(SessionMessage["int | None"]):
    """The parts after a reply's first replace what was pending; answers their generation."""

    op = "set_pages"
    deferral = "hold"
    sid: str
    parts: list[str]
    effects: list[dict[str, Any]]


@attrs.frozen
class NextPage(SessionMessage["tuple[str, dict[str, Any], int] | None"]):
    """Pops the first pending part: its text, effects and generation."""

    op = "next_page"
    deferral = "peek"
    sid: str
    peek: bool = False


@attrs.frozen
class ReofferPage(SessionMessage[None]):
    """A part whose reply the client dropped goes back in front of the pending ones, unless
    the session's parts were replaced since (its generation is no longer theirs)."""

    op = "reoffer_page"
    sid: str
    gen: int
    text: str
    effects: dict[str, Any]


# Ambient channels ------------------------------------------------------------------------


@attrs.frozen
class Offer(SessionMessage[frozenset[Ref]]):
    """Of `refs`, those the session has seen or another of its replies is showing now (the caller leaves them
    out); the rest are held for this reply until it is delivered (MarkSeen) or dropped (Unoffer)."""

    op = "offer"
    sessions = Touches.NONE  # held in the registry, never saved
    sid: str
    refs: list[Ref]
    now: float


@attrs.frozen
class Unoffer(SessionMessage[None]):
    op = "unoffer"  # a reply that was never delivered: its gists may be shown again
    sessions = Touches.NONE
    sid: str
    refs: list[Ref]


@attrs.frozen
class ClaimFileRecall(SessionMessage[bool]):
    """One of the session's file recalls, if the window has one left: asked and taken in one message, so
    that parallel Reads of one turn cannot all pass the check before any of them is counted."""

    op = "claim_file_recall"  # drops the session's recall stamps that aged out
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
class HeldIds(SessionMessage[frozenset[str]]):
    """Ids that sessions active since `since` have seen (not maintenance ones): what a chore must not rename."""

    op = "held_ids"
    sessions = Touches.NONE
    since: float


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
