"""The registry's seen tables are keyed by level and id: a mark, a rename or a forget at one level leaves
the other level's node of that id as it was, and a project node's rename moves only that project's views."""

from kg_actors import session_messages as m
from kg_actors.session_actor import HANDLERS, Registry
from kg_actors.session_records import Session


def apply(registry: Registry, msg: m.SessionMessage):
    return HANDLERS[type(msg)](registry, msg)


def stamps(registry: Registry, sid: str, node_id: str) -> dict[str, float | None]:
    return {lvl: apply(registry, m.GetWriteView(sid, lvl, node_id)).seen_at for lvl in ("user", "project")}


def test_marks_renames_and_forgets_stay_at_their_level_and_a_project_rename_in_its_project():
    registry = Registry({})
    here, there = (apply(registry, m.Register(p, "claude", 1.0)).sid for p in ("/home/u/app", "/home/u/other"))
    for sid in (here, there):
        apply(registry, m.MarkSeen(sid, [("project", "old-lesson"), ("user", "old-lesson")], "read", 2.0))
    assert stamps(registry, here, "old-lesson") == {"user": 2.0, "project": 2.0}
    apply(registry, m.MarkSeen(here, [("user", "old-lesson")], "read", 3.0))
    assert stamps(registry, here, "old-lesson") == {"user": 3.0, "project": 2.0}

    apply(registry, m.RenameRef("project", "old-lesson", "new-lesson", "/home/u/app"))
    assert stamps(registry, here, "new-lesson") == {"user": None, "project": 2.0}
    assert stamps(registry, here, "old-lesson") == {"user": 3.0, "project": None}
    assert stamps(registry, there, "old-lesson") == {"user": 2.0, "project": 2.0}  # its project's node stays
    assert ("project", "new-lesson") in apply(registry, m.Get(here)).seen

    apply(registry, m.RenameRef("user", "old-lesson", "new-lesson"))
    assert stamps(registry, there, "new-lesson") == {"user": 2.0, "project": None}
    assert stamps(registry, there, "old-lesson") == {"user": None, "project": 2.0}

    apply(registry, m.ForgetViews("project", ["old-lesson", "new-lesson"]))
    assert stamps(registry, there, "new-lesson") == {"user": 2.0, "project": None}
    assert stamps(registry, here, "new-lesson") == {"user": 3.0, "project": None}
    votes = apply(registry, m.GetVoteState(here, ["new-lesson"]))
    assert votes.seen_via == {("user", "new-lesson"): "read", ("project", "new-lesson"): "read"}


def test_a_vote_is_for_one_levels_node_and_a_vote_stored_before_levels_still_counts():
    registry = Registry({})
    sid = apply(registry, m.Register("/home/u/app", "claude", 1.0)).sid
    assert apply(registry, m.Like(sid, "user", "shared-lesson", None)) is None
    assert apply(registry, m.Like(sid, "project", "shared-lesson", None)) is None  # another node
    assert apply(registry, m.Like(sid, "user", "shared-lesson", None)) == "already liked this session"
    assert apply(registry, m.GetWriteView(sid, "project", "shared-lesson")).may_credit is False
    apply(registry, m.RenameRef("project", "shared-lesson", "renamed-lesson", "/home/u/app"))
    assert apply(registry, m.Like(sid, "project", "renamed-lesson", None)) == "already liked this session"
    assert apply(registry, m.Like(sid, "project", "shared-lesson", None)) is None
    registry.sessions[sid].liked_ids.append("old-vote")  # a sessions.json written before levels
    assert apply(registry, m.Like(sid, "project", "old-vote", None)) == "already liked this session"
    assert apply(registry, m.GetWriteView(sid, "user", "old-vote")).may_credit is False


def test_a_view_a_sync_replaced_is_remembered_as_such_until_the_node_is_seen_again_and_across_a_restart():
    registry = Registry({})
    sid, other = (apply(registry, m.Register("/home/u/app", "claude", 1.0)).sid for _ in range(2))
    apply(registry, m.MarkSeen(sid, [("user", "synced-lesson"), ("user", "restored-lesson")], "read", 2.0))
    apply(registry, m.ForgetViews("user", ["synced-lesson", "never-seen-lesson"]))
    apply(registry, m.ForgetViews("user", ["restored-lesson"], why="restore"))
    view = apply(registry, m.GetWriteView(sid, "user", "synced-lesson"))
    assert (view.seen_at, view.replaced_from) == (None, "sync")
    assert apply(registry, m.GetWriteView(sid, "user", "restored-lesson")).replaced_from == "restore"
    assert apply(registry, m.GetWriteView(sid, "user", "never-seen-lesson")).replaced_from is None
    assert apply(registry, m.GetWriteView(other, "user", "synced-lesson")).replaced_from is None  # had no view
    stored = Session.from_json(sid, registry.sessions[sid].to_json())  # as sessions.json keeps it
    assert stored.replaced_from == {"user:synced-lesson": "sync", "user:restored-lesson": "restore"}
    apply(registry, m.MarkSeen(sid, [("user", "synced-lesson")], "read", 3.0))
    view = apply(registry, m.GetWriteView(sid, "user", "synced-lesson"))
    assert (view.seen_at, view.replaced_from) == (3.0, None)


def test_a_push_knows_a_node_whose_view_a_sync_took_was_seen_before():
    # A rewrite synced in was pushed as "(new)" to the session that had read the node: the sync dropped its view.
    registry = Registry({})
    sid = apply(registry, m.Register("/home/u/app", "claude", 1.0)).sid
    apply(registry, m.MarkSeen(sid, [("project", "synced-lesson")], "read", 2.0))
    apply(registry, m.ForgetViews("project", ["synced-lesson"]))
    refs = [("project", "synced-lesson"), ("project", "never-seen-lesson"), ("user", "synced-lesson")]
    facts = apply(registry, m.GetPushFacts(sid, refs, []))
    assert facts.seen_at == {} and facts.replaced == {("project", "synced-lesson")}
