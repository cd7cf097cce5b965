"""Journal records replayed over a file changed by hand: only a real double edit sets a version aside."""

from kg_actors.core import merge
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
    notice = merge.conflict_notice("user", "n", later_journal.get("_written"), later_journal[merge.CONFLICTS_FIELD])
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
