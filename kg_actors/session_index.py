"""Which KG sessions each harness session id is bound to, kept by the registry as it binds them.

Every hook names its harness session (Claude Code's `session_id`, a Codex thread): finding the KG
session by a scan of every session cost each hook O(sessions) (at 5,000 live sessions most of a
hook's time). The registry adds a session here when it binds one and drops it when it expires.
"""

from __future__ import annotations

from collections.abc import Mapping

from .session_records import Session


class HarnessIds:
    def __init__(self, sessions: Mapping[str, Session]):
        self._sids: dict[str, set[str]] = {}
        for s in sessions.values():
            self.add(s)

    def add(self, s: Session) -> None:
        if s.claude_sid:
            self._sids.setdefault(s.claude_sid, set()).add(s.sid)

    def discard(self, s: Session) -> None:
        held = self._sids.get(s.claude_sid or "")
        if held is not None:
            held.discard(s.sid)
            if not held:
                del self._sids[s.claude_sid or ""]

    def newest(self, claude_sid: str, sessions: Mapping[str, Session]) -> Session | None:
        """The newest session bound to `claude_sid` (one KG session per harness session; a fork is newer)."""
        best = None
        for sid in self._sids.get(claude_sid, ()):
            s = sessions.get(sid)
            if s is not None and s.claude_sid == claude_sid and (best is None or s.start_ts > best.start_ts):
                best = s
        return best
