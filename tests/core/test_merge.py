"""The three-way graph merge: one-sided changes merge cleanly, both-sided ones keep both versions."""

from __future__ import annotations

import copy

from kg_actors.core.conflict_notice import conflict_notice
from kg_actors.core.merge import CONFLICTS_FIELD, merge_graphs, merge_node

NOW = 1_800_000_000.0


def node(node_id: str, gist: str, ts: float, **extra) -> dict:
    return {"id": node_id, "gist": gist, "_created_ts": 1000.0, "_written": {"ts": ts, "by": "s1"}, **extra}


def graph(*nodes: dict, edges: dict | None = None, progress: dict | None = None, versions: dict | None = None) -> dict:
    meta = {"versions": versions or {}, "namespace": {"kind": "user", "owner": None}}
    if progress is not None:
        meta["progress"] = progress
    return {"nodes": {n["id"]: n for n in nodes}, "edges": edges or {}, "_meta": meta}


def edge(src: str, dst: str, rel: str, *notes: str) -> tuple[str, dict]:
    out = {"from": src, "to": dst, "rel": rel}
    if notes:
        out["notes"] = list(notes)
    return f"{src}->{dst}:{rel}", out


def test_changes_on_one_side_each_merge_cleanly():
    base = graph(node("a", "A", 1), node("b", "B", 1), node("c", "C", 1))
    ours = copy.deepcopy(base)
    theirs = copy.deepcopy(base)
    ours["nodes"]["a"] = node("a", "A ours", 5)
    ours["nodes"]["new-ours"] = node("new-ours", "N1", 5)
    theirs["nodes"]["b"] = node("b", "B theirs", 6)
    del theirs["nodes"]["c"]
    theirs["nodes"]["new-theirs"] = node("new-theirs", "N2", 6)
    out = merge_graphs(base, ours, theirs, NOW)
    nodes = out.merged["nodes"]
    assert out.conflicts == ()
    assert nodes["a"]["gist"] == "A ours" and nodes["b"]["gist"] == "B theirs"
    assert "c" not in nodes
    assert {"new-ours", "new-theirs"} <= set(nodes)


def test_same_node_changed_on_both_sides_keeps_the_later_and_sets_the_other_aside():
    base = graph(node("a", "A", 1))
    ours = graph(node("a", "A written here, earlier", 10))
    theirs = graph(node("a", "A written there, later", 20))
    out = merge_graphs(base, ours, theirs, NOW)
    merged = out.merged["nodes"]["a"]
    assert merged["gist"] == "A written there, later"
    assert [c.node_id for c in out.conflicts] == ["a"] and out.conflicts[0].kept_side == "theirs"
    (aside,) = merged[CONFLICTS_FIELD]
    assert aside["gist"] == "A written here, earlier" and aside["_written"]["ts"] == 10
    assert aside["_set_aside_ts"] == NOW
    # The other way round, the other side wins: the rule is the timestamp, not the side.
    out2 = merge_graphs(base, theirs, ours, NOW)
    assert out2.merged["nodes"]["a"]["gist"] == "A written there, later"


def test_merge_is_symmetric_in_content():
    base = graph(node("a", "A", 1), node("b", "B", 1))
    ours = graph(node("a", "A1", 10), node("b", "B1", 30))
    theirs = graph(node("a", "A2", 20), node("b", "B2", 20))
    one = merge_graphs(base, ours, theirs, NOW).merged
    two = merge_graphs(base, theirs, ours, NOW).merged
    assert one["nodes"] == two["nodes"]


def test_delete_against_edit_keeps_the_edit():
    base = graph(node("a", "A", 1), node("b", "B", 1))
    ours = graph(node("a", "A edited", 5))  # b deleted here
    theirs = graph(node("b", "B edited", 5))  # a deleted there
    out = merge_graphs(base, ours, theirs, NOW)
    assert out.merged["nodes"]["a"]["gist"] == "A edited"
    assert out.merged["nodes"]["b"]["gist"] == "B edited"
    # Each kept with the delete set aside beside it, so its readers are told (deleted on an unnamed machine).
    assert [(c.node_id, c.kept_side) for c in out.conflicts] == [("a", "ours"), ("b", "theirs")]
    assert out.merged["nodes"]["a"][CONFLICTS_FIELD][0]["deleted_on"] == ""


def test_read_stamps_and_scores_merge_by_max_and_union_not_by_conflict():
    base = graph(node("a", "A", 1, _useful_ts=[100.0], _last_read_ts=100.0))
    ours = graph(node("a", "A", 1, _useful_ts=[100.0, 200.0], _last_read_ts=300.0, _archived=True))
    theirs = graph(node("a", "A", 1, _useful_ts=[100.0, 250.0], _last_read_ts=200.0))
    out = merge_graphs(base, ours, theirs, NOW)
    merged = out.merged["nodes"]["a"]
    assert out.conflicts == ()
    assert merged["_useful_ts"] == [100.0, 200.0, 250.0]
    assert merged["_last_read_ts"] == 300.0
    assert merged["_archived"] is True  # changed on one side only
    assert CONFLICTS_FIELD not in merged


def test_stamps_merge_even_when_content_changed_on_one_side():
    base = graph(node("a", "A", 1))
    ours = graph(node("a", "A", 1, _useful_ts=[500.0]))
    theirs = graph(node("a", "A rewritten", 9, _last_read_ts=900.0))
    merged = merge_graphs(base, ours, theirs, NOW).merged["nodes"]["a"]
    assert merged["gist"] == "A rewritten" and merged["_useful_ts"] == [500.0] and merged["_last_read_ts"] == 900.0


def test_archive_state_changed_on_both_sides_keeps_the_more_alive():
    base = graph(node("a", "A", 1, _archived=True))
    ours = graph(node("a", "A", 1))  # promoted here
    theirs = graph(node("a", "A", 1, _archived=True, _orphaned_ts=50.0))  # orphaned there
    merged = merge_graphs(base, ours, theirs, NOW).merged["nodes"]["a"]
    assert "_archived" not in merged and "_orphaned_ts" not in merged


def test_both_sides_created_the_same_id_without_common_history():
    ours = graph(node("a", "mine", 10))
    theirs = graph(node("a", "yours", 5), node("b", "B", 5))
    out = merge_graphs(None, ours, theirs, NOW)
    assert out.merged["nodes"]["a"]["gist"] == "mine"
    assert out.merged["nodes"]["a"][CONFLICTS_FIELD][0]["gist"] == "yours"
    assert out.merged["nodes"]["b"]["gist"] == "B"


def test_same_change_on_both_sides_is_no_conflict():
    base = graph(node("a", "A", 1))
    ours = graph(node("a", "A2", 10))
    theirs = graph(node("a", "A2", 12))
    out = merge_graphs(base, ours, theirs, NOW)
    assert out.conflicts == () and out.merged["nodes"]["a"]["_written"]["ts"] == 12


def test_a_resolved_conflict_stays_resolved():
    aside = {"gist": "old", "_set_aside_ts": 5.0}
    base = graph(node("a", "A", 1, _conflicts=[aside]))
    ours = graph(node("a", "A merged by hand", 10))  # resolved here: the field is gone
    theirs = graph(node("a", "A", 1, _conflicts=[aside], _useful_ts=[7.0]))
    merged = merge_graphs(base, ours, theirs, NOW).merged["nodes"]["a"]
    assert CONFLICTS_FIELD not in merged and merged["gist"] == "A merged by hand"


def test_edges_merge_by_key_with_notes_kept_from_both():
    k1, e1 = edge("a", "b", "uses")
    k2, e2 = edge("a", "c", "uses")
    base = graph(node("a", "A", 1), node("b", "B", 1), node("c", "C", 1), edges={k1: e1, k2: e2})
    ours = copy.deepcopy(base)
    theirs = copy.deepcopy(base)
    ours["edges"][k1] = edge("a", "b", "uses", "seen here")[1]
    theirs["edges"][k1] = edge("a", "b", "uses", "seen there")[1]
    del theirs["edges"][k2]
    k3, e3 = edge("b", "src/x.py", "in")
    ours["edges"][k3] = e3
    merged = merge_graphs(base, ours, theirs, NOW).merged["edges"]
    assert sorted(merged[k1]["notes"]) == ["seen here", "seen there"]
    assert k2 not in merged and k3 in merged


def test_edge_notes_merge_three_way_so_a_note_removed_on_either_side_stays_gone():
    # Notes replace the stored list: a note both sides replaced came back as a third, and nothing said so.
    k1, e1 = edge("a", "b", "uses", "WRONG: needs v1 api", "kept everywhere")
    base = graph(node("a", "A", 1), node("b", "B", 1), edges={k1: e1}, versions={"edge:" + k1: {"v": 1, "ts": 1.0}})
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    ours["edges"][k1] = edge("a", "b", "uses", "needs v2 api (ours)", "kept everywhere")[1]
    theirs["edges"][k1] = edge("a", "b", "uses", "kept everywhere", "needs v2 api (theirs)")[1]
    ours["_meta"]["versions"]["edge:" + k1] = {"v": 2, "ts": 5.0}
    theirs["_meta"]["versions"]["edge:" + k1] = {"v": 2, "ts": 6.0}  # theirs wrote last: its order leads
    for one, other in ((ours, theirs), (theirs, ours)):  # both machines come to the same list
        merged = merge_graphs(base, one, other, NOW)
        assert merged.merged["edges"][k1]["notes"] == ["kept everywhere", "needs v2 api (theirs)", "needs v2 api (ours)"]
        assert merged.conflicts == ()
    # Removed on one side, unchanged on the other: gone. Every note removed on one side, one added on the
    # other: only the addition. Every note removed on both: no notes field left.
    ours["edges"][k1] = edge("a", "b", "uses", "needs v2 api (ours)")[1]
    theirs["edges"][k1] = edge("a", "b", "uses", "WRONG: needs v1 api", "kept everywhere", "an addition")[1]
    assert merge_graphs(base, ours, theirs, NOW).merged["edges"][k1]["notes"] == ["an addition", "needs v2 api (ours)"]
    ours["edges"][k1] = edge("a", "b", "uses")[1]
    theirs["edges"][k1] = {**edge("a", "b", "uses", "kept everywhere")[1], "extra": 1}
    assert "notes" not in merge_graphs(base, ours, theirs, NOW).merged["edges"][k1]


def test_edges_of_a_node_deleted_by_the_merge_go():
    k1, e1 = edge("a", "b", "uses")
    base = graph(node("a", "A", 1), node("b", "B", 1), edges={k1: e1})
    ours = graph(node("a", "A", 1), edges={k1: e1})  # b deleted here with... the edge kept by mistake
    theirs = copy.deepcopy(base)
    merged = merge_graphs(base, ours, theirs, NOW).merged
    assert "b" not in merged["nodes"] and k1 not in merged["edges"]


def test_a_delete_wins_against_an_edge_written_to_or_from_the_node_on_the_other_side():
    # The edge brought the deleted node back, told as nothing but an added node: wiring is no vote to keep it.
    base = graph(node("a", "A", 1), node("b", "B", 1))
    ours = graph(node("a", "A", 1))  # b deleted here
    k1, e1 = edge("a", "b", "uses", "written there")
    k2, e2 = edge("b", "a", "depends-on")
    theirs = graph(node("a", "A", 1), node("b", "B", 1), edges={k1: e1, k2: e2})  # edges to and from b there
    for one, other in ((ours, theirs), (theirs, ours)):
        out = merge_graphs(base, one, other, NOW, ("machine-a", "machine-b"))
        assert set(out.merged["nodes"]) == {"a"} and out.merged["edges"] == {} and out.conflicts == ()


def test_a_node_deleted_on_one_side_and_rewritten_on_the_other_is_kept_saying_where_it_was_deleted():
    base = graph(node("a", "A", 1), node("b", "B", 1))
    ours = graph(node("b", "B", 1))  # a deleted here, on machine-a
    theirs = graph(node("a", "A rewritten there", 5), node("b", "B", 1))
    out = merge_graphs(base, ours, theirs, NOW, ("machine-a", "machine-b"))
    kept = out.merged["nodes"]["a"]
    assert kept["gist"] == "A rewritten there"
    assert kept[CONFLICTS_FIELD] == [{"deleted_on": "machine-a", "changed_on": "machine-b", "_set_aside_ts": NOW}]
    assert [(c.node_id, c.kept_side) for c in out.conflicts] == [("a", "theirs")]
    # The other way round (the merge made on the machine that rewrote it), the same is said.
    out = merge_graphs(base, theirs, ours, NOW, ("machine-b", "machine-a"))
    assert out.merged["nodes"]["a"][CONFLICTS_FIELD][0]["deleted_on"] == "machine-a"
    assert out.conflicts[0].kept_side == "ours"


def test_a_node_deleted_on_one_side_and_renamed_on_the_other_is_kept_under_the_new_id_saying_so():
    base = graph(node("a", "A", 1), node("b", "B", 1))
    ours = graph(node("b", "B", 1))  # a deleted here
    theirs = graph(node("a-renamed", "A", 1), node("b", "B", 1))  # renamed there: its creation stamp kept
    theirs["nodes"]["b"]["_created_ts"] = 2000.0
    ours["nodes"]["b"]["_created_ts"] = base["nodes"]["b"]["_created_ts"] = 2000.0
    for one, other, machines in ((ours, theirs, ("machine-a", "machine-b")), (theirs, ours, ("machine-b", "machine-a"))):
        out = merge_graphs(base, one, other, NOW, machines)
        assert set(out.merged["nodes"]) == {"a-renamed", "b"}
        (aside,) = out.merged["nodes"]["a-renamed"][CONFLICTS_FIELD]
        assert aside == {"deleted_on": "machine-a", "changed_on": "machine-b", "_set_aside_ts": NOW, "deleted_as": "a"}
        assert [c.node_id for c in out.conflicts] == ["a-renamed"]


def test_the_notice_of_a_node_kept_against_a_delete_names_both_machines_and_how_to_delete_it():
    aside = {"deleted_on": "machine-a", "changed_on": "machine-b", "_set_aside_ts": NOW, "deleted_as": "old-id"}
    notice = conflict_notice("user", "new-id", {"ts": NOW}, [aside])
    assert notice is not None and notice.startswith("DELETED ON ONE MACHINE, CHANGED ON ANOTHER: 'new-id' (user)")
    assert "deleted on machine-a (deleted there as 'old-id') and kept because machine-b changed it" in notice
    assert "kg_delete_node 'new-id'" in notice and "CHANGED ON ANOTHER MACHINE" not in notice
    unnamed = conflict_notice("user", "n", None, [{"deleted_on": "", "changed_on": "", "_set_aside_ts": NOW}])
    assert "deleted on another machine and kept because the other machine changed it" in (unnamed or "")
    # Beside a version a write/write conflict set aside, each is listed.
    mixed = conflict_notice("user", "n", None, [{"gist": "theirs", "_written": {"ts": 5.0}}, aside])
    assert "CHANGED ON ANOTHER MACHINE" in (mixed or "") and "gist: theirs" in (mixed or "")
    assert "deleted on machine-a" in (mixed or "") and "kg_delete_node" in (mixed or "")


def test_progress_keeps_the_later_record_and_both_trails():
    p0 = {"done": 1, "last_ts": 10.0, "_trail": [{"_ts": 10.0, "done": 1}]}
    p1 = {"done": 2, "last_ts": 20.0, "_trail": [{"_ts": 10.0, "done": 1}, {"_ts": 20.0, "done": 2}]}
    p2 = {"done": 5, "last_ts": 30.0, "_trail": [{"_ts": 10.0, "done": 1}, {"_ts": 30.0, "done": 5}]}
    out = merge_graphs(graph(progress={"t": p0}), graph(progress={"t": p1}), graph(progress={"t": p2}), NOW)
    merged = out.merged["_meta"]["progress"]["t"]
    assert merged["done"] == 5
    assert [i["_ts"] for i in merged["_trail"]] == [10.0, 20.0, 30.0]


def test_versions_changed_on_both_sides_move_past_both():
    base = graph(node("a", "A", 1), versions={"node:a": {"v": 2, "ts": 1}})
    ours = graph(node("a", "A1", 10), versions={"node:a": {"v": 3, "ts": 10}})
    theirs = graph(node("a", "A2", 20), versions={"node:a": {"v": 5, "ts": 20}})
    merged = merge_graphs(base, ours, theirs, NOW).merged["_meta"]["versions"]
    assert merged["node:a"]["v"] == 6 and merged["node:a"]["ts"] == 20


def test_unknown_fields_ride_along():
    base = graph(node("a", "A", 1, color="blue"))
    base["_meta"]["_future"] = {"k": 1}
    base["top_level_thing"] = 1
    ours = copy.deepcopy(base)
    theirs = copy.deepcopy(base)
    theirs["nodes"]["a"]["color"] = "red"
    merged = merge_graphs(base, ours, theirs, NOW).merged
    assert merged["nodes"]["a"]["color"] == "red"
    assert merged["_meta"]["_future"] == {"k": 1} and merged["top_level_thing"] == 1


def test_merge_node_reports_no_conflict_when_only_one_side_changed_content():
    merged, conflict = merge_node("a", node("a", "A", 1), node("a", "A", 1, _last_read_ts=3.0), node("a", "B", 2), NOW)
    assert conflict is None and merged["gist"] == "B" and merged["_last_read_ts"] == 3.0


def test_a_node_renamed_on_one_side_and_edited_on_the_other_is_one_node_with_the_edit():
    base = graph(node("old-name", "A lesson", 1), node("b", "B", 1), edges=dict([edge("b", "old-name", "uses")]))
    ours = graph(node("new-name", "A lesson", 1), node("b", "B", 1), edges=dict([edge("b", "new-name", "uses")]),
                 versions={"node:new-name": {"v": 2, "ts": 5}})
    theirs = graph(node("old-name", "A lesson, sharpened there", 6, notes=["a note"]), node("b", "B", 1),
                   edges=dict([edge("b", "old-name", "uses", "why b uses it"), edge("old-name", "c-file", "touches")]),
                   versions={"node:old-name": {"v": 2, "ts": 6}})
    for a, b in ((ours, theirs), (theirs, ours)):  # either side may be the one that renamed
        out = merge_graphs(base, a, b, NOW)
        nodes, edges = out.merged["nodes"], out.merged["edges"]
        assert "old-name" not in nodes and out.conflicts == ()
        assert nodes["new-name"]["gist"] == "A lesson, sharpened there" and nodes["new-name"]["id"] == "new-name"
        assert nodes["new-name"]["notes"] == ["a note"]
        assert set(edges) == {"b->new-name:uses", "new-name->c-file:touches"}
        assert edges["b->new-name:uses"]["notes"] == ["why b uses it"]
        assert "node:old-name" not in out.merged["_meta"]["versions"]


def test_a_rename_against_an_edit_on_both_sides_sets_one_version_aside_under_the_new_id():
    base = graph(node("old-name", "A lesson", 1))
    ours = graph(node("new-name", "A lesson, edited after the rename", 9))
    theirs = graph(node("old-name", "A lesson, edited under the old id", 6))
    out = merge_graphs(base, ours, theirs, NOW)
    assert set(out.merged["nodes"]) == {"new-name"}
    (conflict,) = out.conflicts
    assert conflict.node_id == "new-name" and conflict.kept_side == "ours"
    assert out.merged["nodes"]["new-name"][CONFLICTS_FIELD][0]["gist"] == "A lesson, edited under the old id"


def test_a_node_renamed_on_both_sides_to_two_ids_is_one_node_under_the_later_rename():
    # Both ids lived on, alike, and the sync called them "added": nobody was told of the other name.
    base = graph(node("old-name", "A lesson", 1), node("b", "B", 1), edges=dict([edge("b", "old-name", "uses")]))
    # A rename need not write the node: the later rename is told by its version stamp (ours, at 9).
    ours = graph(node("ours-name", "A lesson", 1), node("b", "B", 1), edges=dict([edge("b", "ours-name", "uses")]),
                 versions={"node:ours-name": {"v": 2, "ts": 9}})
    theirs = graph(node("theirs-name", "A lesson", 1), node("b", "B", 1),
                   edges=dict([edge("b", "theirs-name", "uses"), edge("theirs-name", "c-file", "touches")]),
                   versions={"node:theirs-name": {"v": 2, "ts": 7}})
    for a, b in ((ours, theirs), (theirs, ours)):  # both machines come to the same node
        out = merge_graphs(base, a, b, NOW)
        nodes, edges = out.merged["nodes"], out.merged["edges"]
        assert set(nodes) == {"ours-name", "b"}, set(nodes)
        assert set(edges) == {"b->ours-name:uses", "ours-name->c-file:touches"}
        assert "node:theirs-name" not in out.merged["_meta"]["versions"]
        (conflict,) = out.conflicts
        (aside,) = nodes["ours-name"][CONFLICTS_FIELD]
        assert conflict.node_id == "ours-name" and aside["renamed_to"] == "theirs-name"
    notice = conflict_notice("user", "ours-name", None, [aside])
    assert "renamed to 'theirs-name' there" in notice


def test_nodes_born_in_one_batch_are_not_taken_for_a_rename():
    # Two ids gone and two new ones with the same creation stamp: nothing says which became which.
    base = graph(node("a", "A", 1), node("b", "B", 1))
    ours = graph(node("a2", "A", 1), node("b2", "B", 1))
    theirs = graph(node("a", "A edited", 6), node("b", "B", 1))
    out = merge_graphs(base, ours, theirs, NOW)
    assert set(out.merged["nodes"]) == {"a", "a2", "b2"}  # as before: the edit kept, nothing folded


def test_a_delete_against_a_node_only_read_or_scored_on_the_other_side_stands():
    # A session's read, an endorsement or compaction moving the node is use, not an edit: the lesson one
    # machine deleted must not come back because the other machine's session looked at it.
    base = graph(node("a", "A", 1, _last_read_ts=100.0), node("b", "B", 1), node("c", "C", 1))
    ours = graph(node("a", "A", 1, _last_read_ts=300.0), node("c", "C", 1, _useful_ts=[400.0], _archived=True))
    theirs = graph(node("b", "B", 1))  # a and c deleted there; b deleted here
    for one, two in ((ours, theirs), (theirs, ours)):
        out = merge_graphs(base, one, two, NOW)
        assert set(out.merged["nodes"]) == set() and out.conflicts == ()
    # An edit of its content still keeps it.
    edited = graph(node("a", "A edited", 5, _last_read_ts=300.0))
    assert merge_graphs(base, edited, graph(), NOW).merged["nodes"]["a"]["gist"] == "A edited"


def test_the_projects_folder_on_this_machine_stands_whatever_the_other_machine_recorded():
    base = graph(node("a", "A", 1))
    base["_meta"]["project_path"] = "/home/a/proj"
    ours = copy.deepcopy(base)  # unchanged here since the common commit
    theirs = copy.deepcopy(base)
    theirs["_meta"]["project_path"] = "/home/b/proj"  # the other machine's own folder
    assert merge_graphs(base, ours, theirs, NOW).merged["_meta"]["project_path"] == "/home/a/proj"
    del ours["_meta"]["project_path"]  # a graph recording no folder here takes the one it is given
    assert merge_graphs(base, ours, theirs, NOW).merged["_meta"]["project_path"] == "/home/b/proj"


def test_an_edge_the_other_side_wrote_to_a_node_deleted_here_is_set_aside_beside_its_end_that_stays():
    k_old, e_old = edge("a", "b", "uses")  # as both sides last had it: goes with b, unsaid
    base = graph(node("a", "A", 1), node("b", "B", 1), edges={k_old: e_old})
    ours = graph(node("a", "A", 1))  # b deleted here
    k_new, e_new = edge("b", "a", "depends-on", "why it depends")
    theirs = graph(node("a", "A", 1), node("b", "B", 1), edges={k_old: e_old, k_new: e_new})
    for one, other, deleted_on in ((ours, theirs, "machine-a"), (theirs, ours, "machine-b")):
        merged = merge_graphs(base, one, other, NOW, ("machine-a", "machine-b")).merged
        assert set(merged["nodes"]) == {"a"} and merged["edges"] == {}
        assert merged["nodes"]["a"][CONFLICTS_FIELD] == [{"dropped_edge": k_new, "gone_node": "b", "gone_on": deleted_on,
                                                          "_set_aside_ts": NOW, "notes": ["why it depends"]}]
        notice = conflict_notice("user", "a", None, merged["nodes"]["a"][CONFLICTS_FIELD])
        assert "EDGE DROPPED BY A SYNC" in notice and k_new in notice and "why it depends" in notice, notice
        assert f"deleted on {deleted_on}" in notice and k_old not in notice, notice


def test_two_machines_of_one_host_name_are_recorded_apart_and_said_as_this_one_or_the_other():
    from kg_actors.core.merge_deletes import machine, told_apart

    assert told_apart(("vm", "other"), ("a1", "b2")) == ("vm", "other")  # names tell them apart already
    assert told_apart(("vm", "vm"), ("a1", "")) == ("vm", "vm")  # the other's id unknown (an older kg's commits)
    ours, theirs = told_apart(("vm", "vm"), ("a1", "b2"))
    assert (machine(ours, "?", "a1"), machine(theirs, "?", "a1")) == ("this machine", "another machine named vm")
    assert (machine(ours, "?", "b2"), machine(theirs, "?", "b2")) == ("another machine named vm", "this machine")
    assert machine("box [x]", "?", "a1") == "another machine named box" and machine("", "fallback") == "fallback"


def test_a_delete_stands_against_a_copy_that_only_dropped_an_empty_list():
    # kg-memory 0.17 wrote "notes": [] and "touches": []; the copy written here has neither, the same lesson.
    base = graph(node("a", "A", 1, notes=[], touches=[]), node("b", "B", 1, notes=[]))
    ours = graph(node("a", "A", 1), node("b", "B", 1, notes=["a note written here"]))
    theirs = graph()  # both deleted there
    out = merge_graphs(base, ours, theirs, NOW)
    assert list(out.merged["nodes"]) == ["b"]  # a real edit still keeps its node
    assert [c.node_id for c in out.conflicts] == ["b"]
