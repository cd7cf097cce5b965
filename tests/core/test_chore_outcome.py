"""A run's outcome from its exit and its kg calls: "ok" only when it wrote."""

import pytest

from kg_actors.core.chore_outcome import Tally, detail, outcome, wrote


@pytest.mark.parametrize("rc, timed_out, calls, writes, said", [
    (0, False, 3, 1, "ok"),
    (0, False, 2, 0, "no change"),
    (0, False, 0, 0, "no kg call"),
    (0, False, None, None, "ok"),  # a line from before calls were counted: its exit is all there is
    (2, False, 4, 2, "exit 2"),
    (-15, True, 1, 0, "timed out"),
])
def test_outcome(rc, timed_out, calls, writes, said):
    assert outcome(rc, timed_out, calls, writes) == said


def test_what_counts_as_a_write():
    assert wrote("kg_put_node", {}, False) and wrote("kg_rename_node", None, False)
    assert not wrote("kg_put_node", {}, True)  # refused: nothing written
    assert not wrote("kg_read", {"cwd": "/x"}, False) and not wrote("kg_search", {"query": "q"}, False)
    assert wrote("kg_progress", {"task_id": "chore", "state": {"done": ["a"]}}, False)
    assert not wrote("kg_progress", {"task_id": "chore"}, False)  # without a state it reads the trail
    assert Tally().add(False).add(True) == Tally(2, 1)


def test_detail_names_the_counts_or_the_output_alone():
    assert detail("Please run /login\n", 0, 0) == "Please run /login"
    assert detail("done", 3, 1) == "3 kg calls, 1 write; done"
    assert detail("", 1, 0) == "1 kg call, 0 writes"
    assert detail("x" * 500, None, None) == "x" * 200
