"""The session registry's record of nodes that moved: renamed, deleted or replaced from outside.

A part of the registry (`Registry`'s base), kept apart to keep the actor's module small: the state is the
registry's own, touched only by its loop. Each is for one level's node (core/seen.py).
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from . import session_messages as m
from .core.pmap import PMap
from .core.seen import Ref, key
from .session_records import Session


class NodeMoves:
    sessions: dict[str, Session]
    # The registry's frozen views of what each session has seen: a rename drops them.
    _frozen: dict[str, tuple[frozenset[str], PMap[str, None], AbstractSet[Ref]]]

    def forget_gone(self, msg: m.ForgetGone) -> None:
        s = self.sessions.get(msg.sid)
        if s is not None:
            s.forget_gone(key(msg.level, msg.node_id))

    def where_renamed(self, msg: m.WhereRenamed) -> tuple[str, str] | None:
        s = self.sessions.get(msg.sid)
        for level in (msg.level,) if msg.level is not None else ("user", "project"):
            k = key(level, msg.node_id)
            if s is not None and (to := s.renamed_away.get(k) or s.renamed_here.get(k)) is not None:
                return level, to
        return None

    def forget_views(self, msg: m.ForgetViews) -> None:
        """Nodes replaced from outside (a sync, a restore): every session's view of them is stale,
        so arbitration refuses a write until the session has seen the new version, and says what replaced it."""
        for s in self.sessions.values():
            for node_id in msg.ids:
                k = key(msg.level, node_id)
                if node_id not in msg.gone:  # a view of a node gone is what refuses a write bringing it back
                    if s.seen_at.pop(k, None) is not None:
                        s.replaced_from[k] = msg.why
                s.read_at.pop(k, None)

    def rename_ref(self, msg: m.RenameRef) -> None:
        """The views of the renamed node move; the other level's node of either id is another node."""
        old, new = key(msg.level, msg.old_id), key(msg.level, msg.new_id)
        self._frozen.clear()
        for s in self.sessions.values():
            if msg.level == "project" and s.project_path != msg.project_path:
                continue  # another project's node of that id
            s.follow_rename(old, new, msg.new_id, by_another=s.sid != msg.by)
