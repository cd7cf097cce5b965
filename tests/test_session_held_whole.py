"""What a session's context holds whole (the full read shows it as an anchor): shown whole since the
context began, not only cut short, and not by a full read."""

from kg_actors import session_messages as m
from kg_actors.session_actor import HANDLERS, Registry


def apply(registry: Registry, msg: m.SessionMessage):
    return HANDLERS[type(msg)](registry, msg)


def test_held_whole_counts_whole_views_since_the_last_compaction_only():
    registry = Registry({})
    sid = apply(registry, m.Register("/home/u/app", "claude", 1.0)).sid
    apply(registry, m.MarkSeen(sid, [("project", "recalled")], via="file", at=2.0))
    apply(registry, m.MarkSeen(sid, [("project", "cut")], via="file", at=2.0, cut=frozenset({("project", "cut")})))
    apply(registry, m.MarkSeen(sid, [("project", "listed")], via="full_read", at=2.0))
    apply(registry, m.MarkSeen(sid, [("user", "pushed")], via="push", at=2.0))
    assert apply(registry, m.HeldWhole(sid)) == {("project", "recalled"): 2.0, ("user", "pushed"): 2.0}
    apply(registry, m.ResetContext(sid, 3.0))
    assert apply(registry, m.HeldWhole(sid)) == {}
    # Seen whole before the compaction, only cut short after it: the summary may have lost the rest.
    apply(registry, m.MarkSeen(sid, [("project", "recalled")], via="file", at=4.0,
                               cut=frozenset({("project", "recalled")})))
    apply(registry, m.MarkSeen(sid, [("user", "pushed")], via="push", at=4.0))
    assert apply(registry, m.HeldWhole(sid)) == {("user", "pushed"): 4.0}
    forked = apply(registry, m.Fork(sid, "claude-2", "claude", 5.0)).sid  # a fork's context is its parent's
    assert apply(registry, m.HeldWhole(forked)) == {("user", "pushed"): 4.0}
