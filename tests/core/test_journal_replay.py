"""Journal records replayed over a file changed by hand: only a real double edit sets a version aside."""

import attrs

from kg_actors.core import merge
from kg_actors.core.conflict_notice import conflict_notice
from kg_actors.core.journal_replay import BEFORE, UNCHANGED, content_sum, reconcile
from kg_actors.core.model import Edge, GraphData, Node

ORIGINAL = {"id": "n", "gist": "original"}


def _record(written, before=ORIGINAL):
    return {"n": {"n": written}, "e": [], "v": {}, "p": {}, BEFORE: {"n": content_sum(before)}}


def test_a_write_records_the_checksum_of_each_touched_node_as_it_was_before():
    graph = GraphData("user")
    graph.set_node(Node.from_json("n", ORIGINAL))
    graph.take_changes()
    graph.set_node(Node.from_json("n", {"id": "n", "gist": "second"}))
    graph.set_node(Node.from_json("n", {"id": "n", "gist": "third"}))  # one record: the first prior counts
    graph.set_node(Node.from_json("new", {"id": "new", "gist": "made"}))
    record = graph.take_changes()
    assert record[BEFORE] == {"n": content_sum(ORIGINAL), "new": None}
    graph.set_edge(Edge("n", "new", "r"))
    assert BEFORE not in graph.take_changes()  # no node touched: no checksums


def test_a_record_over_the_node_its_writer_saw_applies_as_written():
    record = _record({"id": "n", "gist": "agent"})
    assert reconcile(record, lambda i: dict(ORIGINAL), 100.0, 200.0) is record


def test_a_record_without_checksums_applies_as_written():
    record = {"n": {"n": {"id": "n", "gist": "agent"}}}
    assert reconcile(record, lambda i: {"id": "n", "gist": "hand"}, 100.0, 200.0) is record


def test_the_version_written_last_wins_and_the_other_is_set_aside():
    agent = {"id": "n", "gist": "agent", "_written": {"ts": 150.0, "by": "s1"}}
    hand = {"id": "n", "gist": "hand"}
    later_file = reconcile(_record(agent), lambda i: dict(hand), 160.0, 200.0)["n"]["n"]
    assert later_file["gist"] == "hand" and later_file["_written"]["ts"] == 160.0
    [other] = later_file[merge.CONFLICTS_FIELD]
    assert other["gist"] == "agent" and other[merge.FILE_AND_JOURNAL] is True
    later_journal = reconcile(_record(agent), lambda i: dict(hand), 140.0, 200.0)["n"]["n"]
    assert later_journal["gist"] == "agent"
    assert [o["gist"] for o in later_journal[merge.CONFLICTS_FIELD]] == ["hand"]
    notice = conflict_notice("user", "n", later_journal.get("_written"), later_journal[merge.CONFLICTS_FIELD])
    assert notice.startswith("CHANGED IN ITS FILE AND ITS JOURNAL")


def test_a_record_that_changed_no_content_keeps_the_hand_edit_with_its_stamps():
    stamped = {**ORIGINAL, "_last_read_ts": 170.0}
    kept = reconcile(_record(stamped), lambda i: {"id": "n", "gist": "hand"}, 160.0, 200.0)["n"]["n"]
    assert kept == {"id": "n", "gist": "hand", "_last_read_ts": 170.0}


def test_a_delete_against_an_edit_keeps_the_edit_either_way():
    hand = {"id": "n", "gist": "hand"}
    assert reconcile(_record(None), lambda i: dict(hand), 160.0, 200.0)["n"]["n"] == hand
    agent = {"id": "n", "gist": "agent", "_written": {"ts": 150.0}}
    assert reconcile(_record(agent), lambda i: None, 160.0, 200.0)["n"]["n"] == agent


def test_a_change_of_stamps_alone_is_marked_unchanged_and_keeps_a_hand_edit_under_its_stamps():
    graph = GraphData("user")
    graph.set_node(Node.from_json("n", ORIGINAL))
    graph.take_changes()
    graph.set_node(Node.from_json("n", {**ORIGINAL, "_last_read_ts": 170.0}))  # a read stamp
    record = graph.take_changes()
    assert record[BEFORE] == {"n": UNCHANGED}
    kept = reconcile(record, lambda i: {"id": "n", "gist": "hand"}, 160.0, 200.0)["n"]["n"]
    assert kept == {"id": "n", "gist": "hand", "_last_read_ts": 170.0}
    assert reconcile(record, lambda i: None, 160.0, 200.0)["n"]["n"] is None  # deleted there: stays deleted
    assert reconcile(record, lambda i: dict(ORIGINAL), 160.0, 200.0)["n"]["n"] == record["n"]["n"]


def _replayed(records, file_node, file_ts):
    """The node after `records` replayed, one by one, over a file holding `file_node` (as the load does)."""
    node = file_node
    for record in records:
        node = reconcile(record, lambda i: node, file_ts, 300.0)["n"]["n"]
    return node


def _write_then_stamp(gist, ts, stamp):
    """A content write of `gist` over ORIGINAL, then a stamp-only record of it (a read or a kg_useful)."""
    graph = GraphData("user")
    graph.set_node(Node.from_json("n", ORIGINAL))
    graph.take_changes()
    written = {"id": "n", "gist": gist, "_written": {"ts": ts, "by": "s1"}}
    graph.set_node(Node.from_json("n", written))
    first = graph.take_changes()
    graph.set_node(Node.from_json("n", {**written, **stamp}))
    second = graph.take_changes()
    assert second[BEFORE] == {"n": UNCHANGED}
    return [first, second]


def test_a_stamp_after_the_journal_write_that_won_keeps_the_hand_version_set_aside():
    for stamp in ({"_last_read_ts": 170.0}, {"_useful_ts": [170.0]}):
        node = _replayed(_write_then_stamp("agent", 150.0, stamp), {"id": "n", "gist": "hand"}, 140.0)
        assert node["gist"] == "agent" and all(node[k] == v for k, v in stamp.items())
        assert [(o["gist"], o[merge.FILE_AND_JOURNAL]) for o in node[merge.CONFLICTS_FIELD]] == [("hand", True)]


def test_a_stamp_after_a_journal_write_the_hand_edit_beat_keeps_that_write_set_aside():
    for stamp in ({"_last_read_ts": 155.0}, {"_useful_ts": [155.0]}):
        node = _replayed(_write_then_stamp("agent", 150.0, stamp), {"id": "n", "gist": "hand"}, 160.0)
        assert node["gist"] == "hand" and node["_written"]["ts"] == 160.0  # dated by the file, not the write
        assert all(node[k] == v for k, v in stamp.items())
        assert [o["gist"] for o in node[merge.CONFLICTS_FIELD]] == ["agent"]


def test_a_stamp_only_record_never_changes_content_nor_set_aside_versions():
    aside = [{"gist": "older", merge.FILE_AND_JOURNAL: True}]
    live = {"id": "n", "gist": "hand", "_written": {"ts": 160.0}, "_orphaned_ts": 120.0, merge.CONFLICTS_FIELD: aside}
    written = {"id": "n", "gist": "agent", "_written": {"ts": 150.0}, "_last_read_ts": 170.0}
    record = {"n": {"n": written}, "e": [], "v": {}, "p": {}, BEFORE: {"n": UNCHANGED}}
    kept = reconcile(record, lambda i: dict(live), 160.0, 200.0)["n"]["n"]
    # The record's stamps and state (revived: no _orphaned_ts), the file's content, date and set-aside versions.
    assert kept == {"id": "n", "gist": "hand", "_written": {"ts": 160.0}, "_last_read_ts": 170.0,
                    merge.CONFLICTS_FIELD: aside}


def _renamed(old_node):
    """The record of renaming `old_node` ("old") to "new" (graph_ops.rename_local's del and set)."""
    graph = GraphData("project")
    graph.set_node(Node.from_json("old", old_node))
    graph.take_changes()
    node = graph.nodes["old"]
    graph.del_node("old")
    graph.set_node(attrs.evolve(node, id="new"))
    return graph.take_changes()


def test_a_rename_of_a_node_changed_by_hand_is_one_node_under_the_new_id_with_the_other_version_aside():
    original = {"id": "old", "gist": "original", "_created_ts": 100.0, "_written": {"ts": 100.0, "by": "s1"}}
    record = _renamed(original)
    hand = {**original, "gist": "fixed by hand"}
    nodes = reconcile(record, lambda i: dict(hand) if i == "old" else None, 160.0, 300.0)["n"]
    assert nodes["old"] is None  # the rename stands: no second node under the old id
    new = nodes["new"]
    assert new["id"] == "new" and new["gist"] == "fixed by hand" and new["_created_ts"] == 100.0
    [other] = new[merge.CONFLICTS_FIELD]
    assert other["gist"] == "original" and other[merge.FILE_AND_JOURNAL] is True
    assert reconcile(record, lambda i: dict(original) if i == "old" else None, 160.0, 300.0) is record
    # Deleted by hand: the renamed node stays (a delete against an edit keeps the edit).
    assert reconcile(record, lambda i: None, 160.0, 300.0)["n"] == record["n"]


def test_a_rename_carries_the_versions_set_aside_under_the_old_id_to_the_new_one():
    aside = [{"gist": "agent", merge.FILE_AND_JOURNAL: True}]
    record = _renamed({"id": "old", "gist": "agent", "_written": {"ts": 150.0}})
    live = {"id": "old", "gist": "hand", "_written": {"ts": 160.0}, merge.CONFLICTS_FIELD: aside}
    new = reconcile(record, lambda i: dict(live) if i == "old" else None, 160.0, 300.0)["n"]["new"]
    assert new["gist"] == "hand" and new["id"] == "new"
    assert [o["gist"] for o in new[merge.CONFLICTS_FIELD]] == ["agent"]
