"""What the server reads back from a stored pass or chore task (core/pass_marks.py), on the shape
core/graph_ops.set_progress stores and on the older one."""

from kg_actors.core import graph_ops as ops
from kg_actors.core.model import GraphData
from kg_actors.core.pass_marks import completed_ts, declined_ids

NOW = 1_800_000_000.0


def _stored(*states: dict, start: float = NOW) -> dict:
    g = GraphData("project", "/home/u/app")
    for n, state in enumerate(states):
        ops.set_progress(g, "maintain", state, start + n)
    return g.progress["maintain"]


def test_declined_ids_are_read_from_the_stored_flat_task_and_its_trail():
    stored = _stored({"cursor": "b", "declined": ["first-node"]}, {"cursor": "c", "declined": "second-node, third"})
    assert "state" not in stored and "_trail" in stored  # the shape a write leaves
    assert declined_ids(stored) == {"first-node", "second-node", "third"}


def test_declined_ids_of_the_older_shape_and_of_nothing():
    progress = {"state": {"declined": ["a-node"]}, "trail": [{"state": {"declined": "b-node, c-node"}}, "junk"]}
    assert declined_ids(progress) == {"a-node", "b-node", "c-node"}
    assert declined_ids(None) == frozenset() and declined_ids({"declined": 7}) == frozenset()


def test_only_a_completed_pass_is_a_stamp():
    assert completed_ts(_stored({"cursor": "b"}, {"cursor": "c"})) is None  # saved its cursor and died
    assert completed_ts(_stored({"cursor": "b"}, {"cursor": "done"})) == NOW + 1
    # A new pass under way after a completed one: the completion in the trail still counts, not the cursor.
    assert completed_ts(_stored({"cursor": "done"}, {"cursor": "b"}, {"cursor": "c"})) == NOW
    assert completed_ts({"state": {"cursor": "done"}, "last_ts": NOW}) == NOW  # the older shape
    assert completed_ts({"cursor": "done", "last_ts": True}) is None and completed_ts("junk") is None
