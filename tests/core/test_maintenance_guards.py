"""The write-path guards of a maintenance session (spec 000 "Chores"), as pure decisions with `now` passed in."""

from kg_actors.core import chore_pick, maintenance_guards as G
from kg_actors.core.model import GraphData, Node

NOW = 1_800_000_000.0
DAY = 86_400.0


def test_a_gist_changed_more_than_twice_in_30_days_is_churning_and_older_stamps_do_not_count():
    # The first stamp is the node's writing, no change: written and changed twice is not "more than twice".
    assert not G.churning([NOW - 3 * DAY, NOW - 2 * DAY, NOW - DAY], NOW)
    assert G.churning([NOW - 4 * DAY, NOW - 3 * DAY, NOW - 2 * DAY, NOW - DAY], NOW)
    assert not G.churning([NOW - 40 * DAY, NOW - 31 * DAY, NOW - 2 * DAY, NOW - DAY], NOW)  # one left the window
    assert G.churning([NOW - 40 * DAY, NOW - 30 * DAY, NOW - 2 * DAY, NOW - DAY], NOW)  # the window's edge counts
    refusal = G.churn_refusal("some-node", [NOW - 4 * DAY, NOW - 3 * DAY, NOW - 2 * DAY, NOW - DAY], NOW)
    assert refusal is not None and "changed 3 times in the last 30 days" in str(refusal)
    assert "written" not in str(refusal)
    assert G.churn_refusal("some-node", [NOW - 40 * DAY] * 5, NOW) is None


def test_a_first_stamp_after_the_creation_or_a_cut_list_is_a_change():
    three = [NOW - 3 * DAY, NOW - 2 * DAY, NOW - DAY]
    assert not G.churning(three, NOW, created_ts=NOW - 3 * DAY)  # stamped at its creation: its writing
    assert G.churning(three, NOW, created_ts=NOW - 90 * DAY)  # a node from before stamps: three rewrites
    full = [NOW - 50 * DAY] * 5 + three  # cut to its last 8: its writing is gone, each kept stamp a change
    assert G.gist_changes(full, NOW) == 3


def test_held_refusal_names_the_action_and_the_rule():
    assert G.held_refusal("rename", "free-node", {"held-node"}) is None
    text = str(G.held_refusal("delete", "held-node", {"held-node"}))
    assert text.startswith("not deleted: 'held-node' is held by a live session") and "last 4 hours" in text


def test_the_chore_picker_and_the_write_path_share_one_churn_rule():
    g = GraphData(kind="project")
    g.set_node(Node(id="n", gist="g", gist_ts=(NOW - 4 * DAY, NOW - 3 * DAY, NOW - 2 * DAY, NOW - DAY)))
    assert chore_pick.churning(g, "n", NOW) == G.churning(g.nodes["n"].gist_ts, NOW) is True
