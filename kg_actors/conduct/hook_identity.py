"""Who a hook call is from: its session (found by the harness's session id), harness and project root.

The first ask also claims the session's push window, so a prompt or tool
reply costs one registry round trip before it can answer. A harness session
not yet bound is claimed by transcript evidence only when the transcript
names an unbound KG session: never guessed.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Iterable
from collections.abc import Set as AbstractSet
from typing import Any, Protocol, TypeVar

import attrs
import trio

from .. import reply_effects
from .. import session_messages as sm
from ..core.errors import InvalidInput
from ..core.seen import Ref
from ..harness import profiles, transcripts
from ..session_messages import SessionView
from ..storage import layout as L
from .floor import Floor
from .read_views import LevelView
from .sync import push_notice


@attrs.frozen
class Resolved:
    """Who a hook call is from; `push_claimed`: its push window was claimed with the lookup."""

    view: SessionView | None
    harness: profiles.Harness
    root: str | None
    push_window: sm.PushWindow | None = None
    push_claimed: bool = False
    loading: bool = False  # its graphs were loading: the push window was peeked at, not claimed


def hook_root(floor: Floor, cwd: object, strict: bool = True, fresh: bool = False) -> str | None:
    """The project folder of a hook's cwd (None: user-only).

    SessionStart is strict (a cwd outside home is refused, as kg_read refuses
    it) and `fresh` (the folder may have become a linked worktree since); the
    prompt and tool hooks are lenient and take a cached answer, so a session
    that wandered outside home is not answered with an error on every event.
    """
    if not cwd:
        return None
    try:
        return floor.bindings.root_for(cwd, fresh)
    except (InvalidInput, ValueError, OSError) as exc:  # ValueError: a NUL byte in the path
        if not strict:
            return None
        if isinstance(exc, InvalidInput):
            raise
        raise InvalidInput("cwd", "is not a usable path") from None


def from_subagent(payload: dict[str, Any]) -> bool:
    """A Claude Code subagent's tool call: it carries the main session's id and its own `agent_id`. What it
    is shown goes into the subagent's context, not the session's: marked seen (and counted against the file
    recall window) it would keep those lessons from the session itself, so it gets none."""
    return bool(text_field(payload, "agent_id"))


def text_field(payload: dict[str, Any], name: str) -> str:
    """A payload's string field, or "" (a hook payload is whatever the harness sent)."""
    value = payload.get(name)
    return value if isinstance(value, str) else ""


def object_field(payload: dict[str, Any], name: str) -> dict[str, Any]:
    value = payload.get(name)
    return value if isinstance(value, dict) else {}


def harness_of(payload: dict[str, Any]) -> profiles.Harness:
    return profiles.of_payload(payload)


async def from_transcript(floor: Floor, transcript_path: object, root: str | None) -> SessionView | None:
    """The KG session a transcript names, when it is bound to the same project."""
    path = transcripts.safe_transcript(transcript_path if isinstance(transcript_path, str) else None, L.home())
    if path is None:
        return None
    try:
        if os.stat(path).st_size == 0:
            return None  # a new session's empty transcript: nothing to recover, no thread to wait for
    except OSError:
        return None
    sid = await trio.to_thread.run_sync(transcripts.recover_sid, path)
    if sid is None:
        return None
    candidate = await floor.sessions.get(sid=sid)
    if candidate is None or candidate.project_path != root:
        return None
    return candidate


async def graphs_loading(floor: Floor, root: str | None) -> bool:
    """Whether the user graph or the project graph of `root` is loading (seconds for a big one at a start)."""
    loading = floor.directory.is_loading
    return loading("user") or (root is not None and loading(await floor.directory.project_key(root)))


async def resolve(floor: Floor, payload: dict[str, Any], push_before_full_read: bool = True,
                  loading_peeks: bool = False) -> Resolved:
    """The hook's session, harness and project root, and the claimed push window when there is one.
    `loading_peeks`: while its graphs load (`Resolved.loading`), the window is only looked at, not claimed:
    the caller answers without recall or pushes then, and what was written comes with a later reply."""
    harness = harness_of(payload)
    root = hook_root(floor, payload.get("cwd"), strict=False)
    claude_sid = payload.get("session_id") if isinstance(payload.get("session_id"), str) else None
    if not claude_sid:
        return Resolved(None, harness, root)
    loading = loading_peeks and await graphs_loading(floor, root)
    view, window = await floor.sessions.open_hook(claude_sid=claude_sid, now=floor.clock(),
                                                  push_before_full_read=push_before_full_read, peek=loading)
    claimed = view is not None
    if view is None:
        candidate = await from_transcript(floor, payload.get("transcript_path"), root)
        # Only an unbound session may be claimed by transcript evidence: never guess.
        if candidate is not None and candidate.claude_sid is None:
            view = await floor.sessions.bind(sid=candidate.sid, claude_sid=claude_sid, harness=harness.name)
    if view is not None and floor.hook_notes.first(harness.name, view.project_path):
        # Told, not asked: nothing waits for it.
        await floor.sessions.tell(sm.NoteHook(harness=harness.name, project_path=view.project_path))
    return Resolved(view, harness, root, window, claimed, loading)


async def views_of(floor: Floor, view: SessionView | None) -> list[LevelView]:
    """The session's graphs (user, then project) as the floor's read views."""
    return floor.views.of(await floor.levels_of(view))


async def push_for(floor: Floor, call: Resolved, shown: Iterable[Ref] = ()) -> str | None:
    """Other sessions' writes for a hook reply, read from the read views; none that the reply's own recall
    shows (`shown`): a gist comes once in a session, and twice in one reply was the plainest breach of it."""
    assert call.view is not None
    return await push_notice(floor, call.view.sid, call.view, window=call.push_window, claimed=call.push_claimed,
                             skip=frozenset(shown))


async def session_state(floor: Floor, sid: str | None, project_path: str | None) -> SessionView | None:
    """For prompt hooks older than the payload contract: a session by id, else the newest of a project."""
    if sid:
        return await floor.sessions.get(sid=sid)
    if project_path:
        root = hook_root(floor, project_path, strict=False)
        return await floor.sessions.find_by_project(project_path=root) if root else None
    return None


async def seen_once_sent(floor: Floor, seen: sm.MarkSeen) -> None:
    """What a hook reply shows counts as seen once the reply is sent (rest_hooks collects the effects); a
    reply never delivered lets go of what `held_for_this_reply` held for it."""
    async def mark() -> None:
        await floor.sessions.tell(seen)

    async def let_go() -> None:
        await floor.sessions.unoffer(sid=seen.sid, refs=list(seen.refs))

    await reply_effects.once_delivered(mark, let_go)


class Shows(Protocol):
    @property
    def shown(self) -> tuple[tuple[str, str], ...]: ...


D = TypeVar("D", bound=Shows)
HOLD_TRIES = 4


async def held_for_this_reply(floor: Floor, sid: str, seen: AbstractSet[Ref], now: float,
                              decide: Callable[[AbstractSet[Ref]], Awaitable[D]], nothing: Callable[[D], D]) -> D:
    """`decide`'s choice of gists, none of which another reply of this session is showing: parallel hooks of
    one turn decide from the same seen set, and each injected the same gist. What is held stays held until
    the reply is delivered (seen) or dropped (`seen_once_sent`); `nothing(decision)` when no choice holds."""
    decision = await decide(seen)
    for _ in range(HOLD_TRIES):
        refs = list(decision.shown)
        if not refs:
            return decision
        taken = await floor.sessions.offer(sid=sid, refs=refs, now=now)
        if not taken:
            return decision
        mine = [r for r in refs if r not in taken]
        if mine:
            await floor.sessions.unoffer(sid=sid, refs=mine)  # chosen again below, with what is taken left out
        seen = seen | taken
        decision = await decide(seen)
    return nothing(decision)
