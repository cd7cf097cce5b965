"""The session registry's ambient channels: what hook replies may show a session, and the hooks' traces.

A part of the registry (its class is `Registry`'s base), kept apart to keep the actor's module small: the
state is the registry's own, touched only by its loop. Parallel hooks of one turn hold the gists their
replies show (`offer`), file recall's window is claimed in one message, tool events are counted, and the
harnesses whose hooks reached a project are remembered.
"""

from __future__ import annotations

from typing import Any

from . import session_messages as m
from .core import constants as C
from .core.errors import SessionUnknown
from .core.seen import Ref, key
from .session_records import Session
from .tool_events import ToolEvents


class AmbientChannels:
    sessions: dict[str, Session]
    tool_events: ToolEvents
    hooks_seen: dict[str, set[str]]  # harness name -> project roots its hooks reached
    _offered: dict[str, dict[str, float]]  # sid -> gists its undelivered hook replies show (their seen keys)

    def _get(self, sid: str) -> Session:
        session = self.sessions.get(sid)
        if session is None:
            raise SessionUnknown(f"session_id '{sid}' is unknown")
        return session

    def offer(self, msg: m.Offer) -> frozenset[Ref]:
        """Parallel hooks of one turn (Claude Code's parallel Reads) decide from the same seen set: the first
        to offer a gist holds it, the others leave it out (each injected it: a gist twice in a session)."""
        s = self.sessions.get(msg.sid)
        if s is None:
            return frozenset()
        held = self._offered.setdefault(msg.sid, {})
        for k in [k for k, t in held.items() if msg.now - t > C.OFFER_HOLD_SECONDS]:
            del held[k]  # a reply whose fate never came back (a crash mid-request)
        taken = frozenset(r for r in msg.refs if (k := key(*r)) in s.seen_via or k in held)
        held.update((key(*r), msg.now) for r in msg.refs if r not in taken)
        return taken

    def unoffer(self, msg: m.Unoffer) -> None:
        held = self._offered.get(msg.sid, {})
        for r in msg.refs:
            held.pop(key(*r), None)

    def claim_file_recall(self, msg: m.ClaimFileRecall) -> bool:
        sid, now = msg.sid, msg.now
        s = self._get(sid)
        s.file_recall_ts = [t for t in s.file_recall_ts if now - t < C.FILE_RECALL_WINDOW_SECONDS]
        if len(s.file_recall_ts) >= C.FILE_RECALL_MAX_PER_WINDOW:
            return False
        s.file_recall_ts.append(now)
        return True

    def tool_event(self, msg: m.ToolEvent) -> dict[str, Any]:
        """Count a read or fetch of `key`; the target's record as it stands now."""
        return self.tool_events.count(msg.path, msg.key, msg.harness_sid, msg.now)

    def claim_nudge(self, msg: m.ClaimNudge) -> bool:
        """Whether a nudge for `key` may go to this session now; if so, it is recorded."""
        return self.tool_events.claim_nudge(msg.path, msg.key, msg.kg_sid, msg.now)

    def activity_days(self, msg: m.ActivityDays) -> frozenset[str]:
        return self.tool_events.activity_days(msg.path)

    def note_hook(self, msg: m.NoteHook) -> None:
        harness, project_path = msg.harness, msg.project_path
        self.hooks_seen.setdefault(harness, set()).add(project_path or "")

    def hook_seen(self, msg: m.HookSeen) -> bool:
        """Whether a hook of `harness` reached the server for the project (a preloaded session counts:
        it survives a restart in sessions.json)."""
        harness, project_path = msg.harness, msg.project_path
        if (project_path or "") in self.hooks_seen.get(harness, set()):
            return True
        return any(s.harness == harness and s.project_path == project_path and s.preloaded_ids
                   for s in self.sessions.values())
