import pytest

from kg_actors.core import graph_ops as ops
from kg_actors.core.errors import Conflict, InvalidInput, WriteConflict
from kg_actors.core.model import Edge, GraphData, Node

A = ops.Writer(session="aaaa1111")
B = ops.Writer(session="bbbb2222")


def put(graph, node_id, gist="a gist", notes=None, touches=None, now=100.0, writer=A):
    return ops.put_node(graph, "project", node_id, gist, notes, touches, now, writer)


def test_create_then_partial_update_keeps_omitted_fields():
    g = GraphData("project")
    put(g, "auth-token-refresh", notes=["n1"], touches=["src/a.py"])
    r = put(g, "auth-token-refresh", gist="new gist", now=101.0,
            writer=ops.Writer(session="aaaa1111", seen_at=100.0, read_at=100.0))
    assert not r.created and r.changed
    node = g.nodes["auth-token-refresh"]
    assert node.notes == ("n1",) and node.touches == ("src/a.py",) and node.gist == "new gist"
    assert g.versions["node:auth-token-refresh"]["v"] == 2
    assert node.gist_ts == (100.0, 101.0)


def test_long_gist_saved_with_a_note_and_long_ids_refused_only_on_create():
    g = GraphData("project")
    r = put(g, "verbose-gist-node", gist="x" * 301)
    assert any("301 chars" in w for w in r.warnings)
    with pytest.raises(InvalidInput):
        put(g, "one-two-three-four-five-six-seven")
    assert "one-two-three-four-five-six-seven" not in g.nodes


@pytest.mark.parametrize("odd", ["emoji-🚀-rocket-id", "docs/setup-notes", "has a space"])
def test_a_node_a_hand_edit_left_with_an_odd_id_is_edited_but_no_new_one_is_made(odd):
    g = GraphData("project")
    g.set_node(Node(odd, "hand-left"))
    r = put(g, odd, gist="edited", writer=ops.Writer(session=None))
    assert r.changed and g.nodes[odd].gist == "edited"
    with pytest.raises(InvalidInput) as exc:
        put(g, odd.replace("-", "_") + "-new")
    assert exc.value.field == "id" and len(g.nodes) == 1


def test_stored_text_over_the_limits_sent_back_as_it_stands_passes_and_new_text_does_not():
    g = GraphData("project")
    long_note, long_gist = "n" * 30_000, "g" * 25_000
    g.set_node(Node("hand-left-long-node", long_gist, notes=(long_note,)))
    editor = ops.Writer(session=None)
    r = put(g, "hand-left-long-node", gist=long_gist, notes=["added", long_note], writer=editor)
    assert r.changed and g.nodes["hand-left-long-node"].notes == ("added", long_note)
    for gist, notes, field in ((long_gist + "!", None, "gist"), (long_gist, [long_note + "!"], "notes[0]")):
        with pytest.raises(InvalidInput) as exc:
            put(g, "hand-left-long-node", gist=gist, notes=notes, writer=editor)
        assert exc.value.field == field and "at most 20000" in str(exc.value)


def test_stale_write_refused_with_the_node_then_merged_retry_passes():
    g = GraphData("project")
    put(g, "shared-lesson-node", gist="v1", writer=A)
    put(g, "shared-lesson-node", gist="v2 by B", now=110.0, writer=ops.Writer(session="bbbb2222", seen_at=105.0, read_at=105.0))
    with pytest.raises(WriteConflict) as exc:
        put(g, "shared-lesson-node", gist="v3 by A", now=120.0, writer=ops.Writer(session="aaaa1111", seen_at=100.0, read_at=100.0))
    assert "changed by another session" in exc.value.reason and exc.value.node["gist"] == "v2 by B"
    assert g.nodes["shared-lesson-node"].gist == "v2 by B"
    # The refusal counted as a read (the caller records seen_at=120): the retry goes through.
    put(g, "shared-lesson-node", gist="v3 merged", now=121.0, writer=ops.Writer(session="aaaa1111", seen_at=120.0, read_at=120.0))
    assert g.nodes["shared-lesson-node"].gist == "v3 merged"


def test_a_refusal_to_a_session_that_never_saw_the_node_does_not_say_it_last_saw_it():
    g = GraphData("project")
    put(g, "never-seen-lesson", gist="v1", writer=B)
    with pytest.raises(WriteConflict) as exc:
        put(g, "never-seen-lesson", gist="mine", now=120.0, writer=ops.Writer(session="aaaa1111", guard=True))
    assert exc.value.reason == "this session has not been shown it yet (it was last written by another session)"
    # Shown only cut short: the refusal says so, not that someone changed it.
    with pytest.raises(WriteConflict) as exc:
        put(g, "never-seen-lesson", gist="mine", now=121.0, writer=ops.Writer(session="aaaa1111", shown_cut=True))
    assert exc.value.reason == "this session has seen its gist only cut short (…), never whole"
    assert exc.value.node["gist"] == "v1"
    # A whole view a sync or a restore replaced (the gist is in the context still): said as what it is.
    for why, said in (("sync", "changed on another machine"), ("restore", "put back as it was at an earlier commit")):
        with pytest.raises(WriteConflict) as exc:
            put(g, "never-seen-lesson", gist="mine", now=122.0,
                writer=ops.Writer(session="aaaa1111", shown_cut=True, replaced_from=why))
        assert exc.value.reason.startswith(said) and exc.value.node["gist"] == "v1"


def test_a_write_to_an_id_renamed_since_the_session_saw_it_is_refused_with_the_renamed_node():
    g = GraphData("project")
    put(g, "refresh-window-lesson", gist="sliding window", notes=["n1"], writer=B)
    ops.rename_local(g, "refresh-window-lesson", "jwt-refresh-window", 110.0, B)
    # A saw the node (its view followed the rename) and writes under the old id: no second node.
    with pytest.raises(WriteConflict) as exc:
        put(g, "refresh-window-lesson", gist="10 min window", now=120.0,
            writer=ops.Writer(session="aaaa1111", renamed_to="jwt-refresh-window"))
    c = exc.value
    assert c.gone == "refresh-window-lesson" and c.node_id == "jwt-refresh-window"
    assert c.node is not None and c.node["gist"] == "sliding window" and c.node["notes"] == ["n1"]
    assert "'refresh-window-lesson' was renamed to 'jwt-refresh-window'" in c.reason and c.written_ts == 100.0
    assert set(g.nodes) == {"jwt-refresh-window"}
    # Renamed on, then deleted: nothing to show, and the refusal says writing again makes it anew.
    del g.nodes["jwt-refresh-window"]
    with pytest.raises(WriteConflict) as exc:
        put(g, "refresh-window-lesson", now=121.0,
            writer=ops.Writer(session="aaaa1111", renamed_to="jwt-refresh-window"))
    assert exc.value.node is None and "has since been deleted" in exc.value.reason
    # The refusal settled the session's view (the caller forgets it): the same write then makes the node.
    assert put(g, "refresh-window-lesson", now=122.0, writer=A).created


def test_a_write_to_an_id_deleted_since_the_session_saw_it_is_refused_once():
    g = GraphData("user")
    put(g, "deploy-freeze-rule", writer=B)
    ops.delete_node(g, "deploy-freeze-rule", "user", B)
    seen = ops.Writer(session="aaaa1111", seen_at=100.0, read_at=100.0)
    with pytest.raises(WriteConflict) as exc:
        ops.put_node(g, "user", "deploy-freeze-rule", "back again", None, None, 120.0, seen)
    assert exc.value.node is None and exc.value.gone == "deploy-freeze-rule" and exc.value.level == "user"
    assert "'deploy-freeze-rule' was deleted after this session last saw it" in exc.value.reason
    assert "deploy-freeze-rule" not in g.nodes
    # Unchecked writers (the editor, an unguarded write) and a session that never saw it create it freely.
    for writer in (ops.Writer(session=None, seen_at=100.0), ops.Writer(session="aaaa1111", seen_at=100.0, guard=False),
                   ops.Writer(session="cccc3333")):
        assert ops.put_node(g, "user", "deploy-freeze-rule", "back", None, None, 121.0, writer).created
        ops.delete_node(g, "deploy-freeze-rule")


def test_partial_view_refused_when_replacing_unread_notes():
    g = GraphData("project")
    put(g, "noted-lesson-node", notes=["case one"], writer=B)
    with pytest.raises(WriteConflict) as exc:
        put(g, "noted-lesson-node", notes=["mine"], now=120.0, writer=ops.Writer(session="aaaa1111", seen_at=110.0))
    assert "replaces notes" in exc.value.reason
    # A gist-only write built on a current view is fine.
    put(g, "noted-lesson-node", gist="g2", now=121.0, writer=ops.Writer(session="aaaa1111", seen_at=110.0))


def test_trimming_notes_the_session_read_in_their_current_form_goes_through():
    g = GraphData("project")
    put(g, "trimmed-lesson-node", notes=["a", "b"], writer=A)
    # Another session trims what it has read: no refusal, first time.
    put(g, "trimmed-lesson-node", notes=["a"], now=101.0,
        writer=ops.Writer(session="bbbb2222", seen_at=100.0, read_at=100.0))
    assert g.nodes["trimmed-lesson-node"].notes == ("a",)


def test_note_credit_for_a_case_added_to_another_sessions_lesson():
    g = GraphData("project")
    put(g, "lesson-by-a-node", notes=["a"], writer=A)
    r = put(g, "lesson-by-a-node", notes=["a", "b's case"], now=130.0,
            writer=ops.Writer(session="bbbb2222", seen_at=120.0, read_at=120.0, may_credit=True))
    assert r.note_credit and g.nodes["lesson-by-a-node"].useful_ts == (130.0,)
    r = put(g, "lesson-by-a-node", notes=["a", "b's case", "own"], now=131.0,
            writer=ops.Writer(session="aaaa1111", seen_at=131.0, read_at=131.0, may_credit=True))
    assert not r.note_credit  # the author adding to their own lesson is no endorsement


def test_writing_an_archived_node_makes_it_active_but_not_in_maintenance():
    g = GraphData("project")
    put(g, "sleepy-node-here")
    import attrs
    g.set_node(attrs.evolve(g.nodes["sleepy-node-here"], archived=True))
    r = put(g, "sleepy-node-here", gist="again", now=101.0,
            writer=ops.Writer(session="aaaa1111", maintenance=True, seen_at=101.0, read_at=101.0))
    assert not r.promoted and g.nodes["sleepy-node-here"].archived
    assert g.versions["node:sleepy-node-here"]["used_ts"] == 100.0  # maintenance keeps the activity time
    r = put(g, "sleepy-node-here", gist="again2", now=102.0, writer=ops.Writer(session="aaaa1111", seen_at=102.0))
    assert r.promoted and g.nodes["sleepy-node-here"].active


def test_instance_of_repeat_credit_is_dated_and_idempotent():
    g = GraphData("project")
    put(g, "old-lesson-node", now=100.0)
    put(g, "new-case-node", now=200.0)
    assert ops.repeat_credit(g, "old-lesson-node", 200.0)
    assert not ops.repeat_credit(g, "old-lesson-node", 200.0)
    assert g.nodes["old-lesson-node"].useful_ts == (200.0,)
    assert not ops.repeat_credit(g, "new-case-node", 100.0)  # an older case repeats nothing


def test_rename_moves_node_versions_and_collapses_edges():
    g = GraphData("project")
    put(g, "old-name-node")
    put(g, "other-node-here")
    g.set_edge(Edge("old-name-node", "other-node-here", "uses", ("x",)))
    g.set_edge(Edge("other-node-here", "old-name-node", "calls"))
    count = ops.rename_local(g, "old-name-node", "new-name-node", 150.0, A)
    assert count == 2 and "old-name-node" not in g.nodes
    assert g.nodes["new-name-node"].created_ts == 100.0
    assert ("new-name-node", "other-node-here", "uses") in g.edges
    assert g.versions["node:new-name-node"]["v"] == 2
    with pytest.raises(Conflict):
        ops.rename_local(g, "new-name-node", "other-node-here", 151.0, A)


def test_read_promotes_and_rescues_orphaned_neighbours():
    import attrs
    g = GraphData("project")
    put(g, "archived-hub-node")
    put(g, "orphan-leaf-node")
    g.set_edge(Edge("orphan-leaf-node", "archived-hub-node", "part-of"))
    g.set_node(attrs.evolve(g.nodes["archived-hub-node"], archived=True))
    g.set_node(attrs.evolve(g.nodes["orphan-leaf-node"], archived=True, orphaned_ts=150.0))
    promoted, rescued = ops.record_read(g, "archived-hub-node", 200.0)
    assert promoted and rescued == ["orphan-leaf-node"]
    assert g.nodes["archived-hub-node"].active and g.nodes["orphan-leaf-node"].state == "archived"


def test_progress_trail_keeps_the_last_twenty_and_server_time():
    g = GraphData("user")
    for i in range(25):
        stored = ops.set_progress(g, "scout", {"step": i, "last_ts": -1, "big": "x" * 500, "items": list(range(20))}, 1000.0 + i)
    assert stored["last_ts"] == 1024.0 and stored["step"] == 24
    trail = stored["_trail"]
    assert len(trail) == 20 and trail[0]["step"] == 5
    assert len(trail[-1]["big"]) == 240 and len(trail[-1]["items"]) == 8
    with pytest.raises(InvalidInput):
        ops.set_progress(g, "scout", ["not", "a", "dict"], 1.0)


def test_maintenance_credit_returns_an_orphan_to_the_archive():
    import attrs
    g = GraphData("project")
    put(g, "credited-node-here")
    g.set_node(attrs.evolve(g.nodes["credited-node-here"], archived=True, orphaned_ts=150.0))
    assert ops.endorse(g, "credited-node-here", 200.0, 3) == "unorphaned"
    node = g.nodes["credited-node-here"]
    assert node.state == "archived" and node.useful_ts == (200.0,) * 3 and node.credited_ts == (200.0,)


@pytest.mark.parametrize("entry", [5, "7", None, {"v": "x"}, {"ts": 1.0}, {"v": "7"}])
def test_a_versions_entry_of_another_shape_counts_as_none_and_the_node_stays_writable(entry):
    """A hand-edited or foreign `_meta.versions` entry once made every update and rename of its node raise."""
    g = GraphData.from_json({"nodes": {"keep-me": {"id": "keep-me", "gist": "g"}},
                             "_meta": {"versions": {"node:keep-me": entry}}}, "project")
    put(g, "keep-me", gist="rewritten", now=101.0, writer=ops.Writer(session="aaaa1111", seen_at=100.0, read_at=100.0))
    assert g.versions["node:keep-me"]["v"] == (8 if entry == {"v": "7"} else 1)
    ops.rename_local(g, "keep-me", "kept-still", 102.0, A)
    assert g.versions["node:kept-still"]["v"] == (9 if entry == {"v": "7"} else 2)


def test_a_user_graph_keeps_where_its_renamed_ids_went_and_a_project_follows_them_at_load():
    from kg_actors.core.model import Edge, GraphData, Node
    user = GraphData("user")
    user.set_node(Node("a-lesson", "g"))
    writer = ops.Writer(session=None)
    ops.rename_local(user, "a-lesson", "b-lesson", 1.0, writer)
    ops.rename_local(user, "b-lesson", "c-lesson", 2.0, writer)
    renamed = user.extra_meta[ops.RENAMED_KEY]
    assert renamed == {"a-lesson": "b-lesson", "b-lesson": "c-lesson"} and user.meta_changed
    project = GraphData("project", "/home/u/p")
    project.set_node(Node("local-node", "g"))
    project.set_edge(Edge("local-node", "a-lesson", "applies"))  # never rewired: the server stopped
    project.set_edge(Edge("local-node", "gone-for-good", "applies"))
    rewired, removed = ops.clean_dangling(project, frozenset(user.nodes), renamed, 3.0)
    assert rewired == [("a-lesson", "c-lesson")] and removed == [("local-node", "gone-for-good", "applies")]
    assert set(project.edges) == {("local-node", "c-lesson", "applies")}
    # Renamed back: the id is a node again and nothing redirects from it.
    ops.rename_local(user, "c-lesson", "a-lesson", 4.0, writer)
    assert "a-lesson" not in user.extra_meta[ops.RENAMED_KEY]


def test_an_edge_s_notes_by_another_session_are_kept_when_a_session_puts_its_own():
    """Edges have no seen-tracking: a session putting notes on an edge another wrote never saw theirs.
    They stay and the new ones join them; the same session, or maintenance, replaces its notes."""
    g = GraphData("project")
    for node_id in ("auth-module", "session-store"):
        g.set_node(Node(node_id, f"the {node_id}"))
    a, b = A, B
    ops.put_edge(g, "auth-module", "session-store", "reads", ["A: token check assumes a session"], 1.0, a)
    edge, _ = ops.put_edge(g, "auth-module", "session-store", "reads", ["B: init order matters"], 2.0, b)
    assert edge.notes == ("A: token check assumes a session", "B: init order matters")
    edge, _ = ops.put_edge(g, "auth-module", "session-store", "reads", ["B: init order matters, twice"], 3.0, b)
    assert edge.notes == ("B: init order matters, twice",)  # b wrote last: its own notes, replaced
    tidy = ops.Writer(session="cccc3333", maintenance=True)
    ops.put_edge(g, "auth-module", "session-store", "reads", ["merged"], 4.0, a)
    edge, _ = ops.put_edge(g, "auth-module", "session-store", "reads", ["merged and trimmed"], 5.0, tidy)
    assert edge.notes == ("merged and trimmed",)
