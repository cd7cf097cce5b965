"""A session's views share its frozen seen and preloaded sets until they change, and always show them
as they stand: after every kind of message that changes either."""

from hypothesis import given, settings
from hypothesis import strategies as st

from kg_actors import session_messages as m
from kg_actors.core.seen import ref
from kg_actors.session_actor import HANDLERS, Registry

IDS = ["a-node", "b-node", "c-node", "d-node"]
REFS = [(level, i) for level in ("user", "project") for i in IDS[:3]]
op = st.one_of(
    st.tuples(st.just("seen"), st.lists(st.sampled_from(REFS), max_size=3)),
    st.tuples(st.just("preload"), st.lists(st.sampled_from(REFS), max_size=3)),
    st.tuples(st.just("reset"), st.just([])),
    st.tuples(st.just("rename"), st.tuples(st.sampled_from(["user", "project"]),
                                           st.lists(st.sampled_from(IDS), min_size=2, max_size=2, unique=True))),
    st.tuples(st.just("touch"), st.just([])),
)


def apply(registry: Registry, msg: m.SessionMessage):
    return HANDLERS[type(msg)](registry, msg)


@settings(max_examples=150, deadline=None)
@given(st.lists(op, max_size=14))
def test_views_show_the_seen_and_preloaded_sets_as_they_stand(ops):
    registry = Registry({})
    sid = apply(registry, m.Register("/home/u/app", "claude", 1.0)).sid
    other = apply(registry, m.Register("/home/u/app", "claude", 1.0)).sid
    apply(registry, m.MarkSeen(other, [("user", "a-node")], via="read", at=1.0))
    for t, (kind, ids) in enumerate(ops, start=2):
        before = apply(registry, m.Touch(sid, float(t)))
        if kind == "seen":
            apply(registry, m.MarkSeen(sid, ids, via="read", at=float(t)))
        elif kind == "preload":
            apply(registry, m.SetPreloaded(sid, ids))
        elif kind == "reset":
            apply(registry, m.ResetContext(sid, float(t)))
        elif kind == "rename":
            level, (old, new) = ids
            apply(registry, m.RenameRef(level, old, new, "/home/u/app" if level == "project" else None))
        for s in (sid, other):
            session = registry.sessions[s]
            view = apply(registry, m.Get(s))
            assert view.seen == frozenset(map(ref, session.seen_via))
            assert view.preloaded == frozenset(session.preloaded_ids)
        after = apply(registry, m.Get(sid))
        if kind == "touch" or (kind == "seen" and set(ids) <= before.seen):
            assert after.seen is before.seen  # nothing new: the same set, not a copy
