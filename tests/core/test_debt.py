import datetime as dt
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg_actors.core import graph_ops as ops
from kg_actors.core.anchors import parse_touch, touch_paths
from kg_actors.core.debt import (_STATES, TERMS_PER_STEP, _term_state, _term_state_steps, compute_debt, debt_dict,
                                 debt_line, level_for, smeared_terms)
from kg_actors.core.lift import is_instance_id, lift_clusters
from kg_actors.core.model import Edge, GraphData, Node

DAY = 86_400.0
NOW = dt.datetime(2026, 3, 10, 12, 0, tzinfo=dt.UTC).timestamp()
HIGH_TAIL = " — worth a /kg-maintain pass (or a maintenance subagent) now"


def graph(*nodes: Node, edges=(), project_path=None) -> GraphData:
    g = GraphData("project" if project_path else "user", project_path)
    for node in nodes:
        g.set_node(node)
    for src, dst, *rel in edges:
        g.set_edge(Edge(src, dst, rel[0] if rel else "relates-to"))
    return g


def n(node_id, gist="a short gist", **kw) -> Node:
    return Node(id=node_id, gist=gist, **kw)


def linked(*ids, extra=()) -> GraphData:
    """Nodes all joined to one hub `core-hub`, so none counts as unconnected."""
    nodes = [n("core-hub"), *(i if isinstance(i, Node) else n(i) for i in ids)]
    return graph(*nodes, edges=[(x.id, "core-hub") for x in nodes[1:]] + list(extra))


def maintained(g: GraphData, days_ago: float) -> GraphData:
    ops.set_progress(g, "maintain", {"cursor": "done"}, NOW - days_ago * DAY)
    return g


# -- factors


def test_oversized_counts_non_archived_gists_over_300():
    g = linked(n("big-one", "x" * 301), n("at-limit", "x" * 300), n("old-big", "y" * 900, archived=True))
    d = compute_debt(g, NOW)
    assert d.oversized == 1
    assert d.nodes == 3  # core-hub, big-one, at-limit: the archived node is out


def test_unconnected_counts_active_nodes_in_no_edge():
    g = graph(
        n("alone-node"), n("linked-a"), n("linked-b", archived=True), n("quiet-archive", archived=True),
        edges=[("linked-a", "linked-b")],
    )
    d = compute_debt(g, NOW)
    # linked-a's only edge goes to an archived node: still an edge.
    assert d.unconnected == 1
    g.set_edge(Edge("alone-node", "src/a.py", "touches"))
    assert compute_debt(g, NOW).unconnected == 0


def test_long_ids_count_six_words_or_a_date_but_not_five_words():
    g = linked(
        "one-two-three-four-five", "one-two-three-four-five-six", "deploy-notes-2026-03",
        n("seven-word-archived-id-is-not-counted", archived=True),
    )
    d = compute_debt(g, NOW)
    assert d.long_ids == 2
    assert d.long_id_examples == ("one-two-three-four-five-six", "deploy-notes-2026-03")


def test_long_ids_exclude_lift_cluster_members_and_lifted_episodes():
    g = linked(
        n("incident-2026-01-02-db", touches=("src/db.py",)),
        n("incident-2026-01-09-db", touches=("src/db.py:40-60 (pool)",)),
        "outage-2026-02-01-cache",  # dated, linked only to the hub: not in a cluster
        "postmortem-2026-02-05-dns",
        "dns-ttl-lesson",
        extra=[("postmortem-2026-02-05-dns", "dns-ttl-lesson", "instance-of")],
    )
    d = compute_debt(g, NOW)
    assert d.lift_clusters == (("incident-2026-01-02-db", "incident-2026-01-09-db"),)
    assert d.long_ids == 1 and d.long_id_examples == ("outage-2026-02-01-cache",)


def test_dangling_counts_entries_and_nodes_of_active_nodes_only():
    g = linked(
        n("a-node", touches=("src/gone.py:1-2", "src/also-gone.py", "src/here.py")),
        n("b-node", touches=("src/gone.py:1-2",)),
        n("c-node", touches=("src/gone.py:1-2",), archived=True),
    )
    missing = {"src/gone.py:1-2", "src/also-gone.py"}
    d = compute_debt(g, NOW, missing_touches=missing)
    assert (d.dangling_touches, d.dangling_nodes) == (3, 2)
    assert compute_debt(g, NOW).dangling_touches == 0


# -- lift clusters


@pytest.mark.parametrize("node_id,expected", [
    ("session-notes", True), ("weekly-reviews", True), ("deploy-2026-01-05", True), ("retro-week3", True),
    ("sprint2-plan", True), ("day4-findings", True), ("iter12-results", True),
    ("runner-config", False), ("weekday-parser", False), ("auth-token-refresh", False), ("status_page", True),
])
def test_instance_shaped_ids(node_id, expected):
    assert is_instance_id(node_id) is expected


def test_lift_links_on_shared_touch_direct_edge_and_three_shared_neighbours():
    g = graph(
        n("session-2026-03-01", touches=("src/a.py:1-5",)), n("session-2026-03-02", touches=("src/a.py (x)",)),
        n("retro-week3"), n("retro-week4"),
        n("standup-day1"), n("standup-day2"), n("n1"), n("n2"), n("n3"),
        n("audit-day1"), n("audit-day2"), n("m1"), n("m2"),
        n("ordinary-subject", touches=("src/a.py",)),
        edges=[
            ("retro-week3", "retro-week4"),
            *[(s, x) for s in ("standup-day1", "standup-day2") for x in ("n1", "n2", "n3")],
            *[(s, x) for s in ("audit-day1", "audit-day2") for x in ("m1", "m2")],
        ],
    )
    clusters, _ = lift_clusters(g)
    assert sorted(clusters) == [
        ["retro-week3", "retro-week4"], ["session-2026-03-01", "session-2026-03-02"],
        ["standup-day1", "standup-day2"],
    ]


def test_lifted_instances_and_archived_ones_are_left_out():
    g = graph(
        n("retro-week3"), n("retro-week4"), n("retro-week5", archived=True), n("lesson-x"),
        edges=[("retro-week3", "retro-week4"), ("retro-week4", "retro-week5"),
               ("retro-week4", "lesson-x", "instance-of")],
    )
    assert lift_clusters(g)[0] == []
    g.del_edge(("retro-week4", "lesson-x", "instance-of"))
    assert lift_clusters(g)[0] == [["retro-week3", "retro-week4"]]


def test_clusters_cut_to_five_from_the_best_linked_member():
    ids = [f"session-day{i}" for i in range(1, 8)]
    chain = list(zip(ids, ids[1:]))
    g = graph(*(n(i) for i in ids), edges=chain + [("session-day4", "session-day1"), ("session-day4", "session-day7")])
    clusters, everyone = lift_clusters(g)
    assert clusters == [["session-day4", "session-day1", "session-day3", "session-day5", "session-day7"]]
    assert everyone == set(ids)
    d = compute_debt(g, NOW)
    assert d.lift_members == 5


def test_a_touch_every_session_shares_links_nothing():
    ids = [f"session-day{i}" for i in range(1, 11)]
    g = graph(*(n(i, touches=("CLAUDE.md",)) for i in ids))
    assert lift_clusters(g)[0] == []
    g.set_node(n("session-day3", touches=("CLAUDE.md", "src/x.py")))
    g.set_node(n("session-day8", touches=("CLAUDE.md", "src/x.py")))
    assert lift_clusters(g)[0] == [["session-day3", "session-day8"]]


# -- smeared terms


def fillers(count: int, start: int = 0) -> list[Node]:
    return [n(f"f{i}", f"unique{i}x words") for i in range(start, start + count)]


def test_smeared_term_found_with_hub_word_and_count():
    nodes = [n("billing-service", "owns invoices"), *(n(f"mention{i}", f"the billing path {i}") for i in range(7))]
    g = graph(*nodes, *fillers(40 - len(nodes)))
    smears = smeared_terms(g)
    assert [(s.term, s.count, s.hub) for s in smears] == [("billing", 8, "billing-service")]


def test_store_is_not_smeared_by_nodes_that_say_restore():
    hub = n("store-layout", "how the store is laid out")
    restore = [n(f"mention{i}", f"restore from backup {i}") for i in range(9)]
    g = graph(hub, *restore, *fillers(30))
    assert smeared_terms(g) == []
    stores = [n(f"mention{i}", f"write to the store {i}") for i in range(9)]
    g = graph(hub, *stores, *fillers(30))
    assert [(s.term, s.count) for s in smeared_terms(g)] == [("store", 10)]


def test_smear_needs_an_undated_hub_and_a_frequency_between_floor_and_quarter():
    mentions = [n(f"mention{i}", f"billing rule {i}") for i in range(7)]
    assert smeared_terms(graph(n("billing-2026-01-01", "billing day"), *mentions, *fillers(32))) == []
    assert smeared_terms(graph(n("billing-service"), *mentions[:4], *fillers(35))) == []  # df 5 < 6
    crowd = [n(f"mention{i}", f"billing rule {i}") for i in range(12)]
    assert smeared_terms(graph(n("billing-service"), *crowd, *fillers(27))) == []  # 13 > 40/4


def test_smear_drops_slug_terms_counts_all_tiers_and_picks_best_connected_hub():
    mentions = [n(f"mention{i}", f"billing rule {i}", archived=i % 2 == 0) for i in range(6)]
    g = graph(
        n("billing-api"), n("billing-service"), n("other-a"), n("other-b"), *mentions, *fillers(30),
        edges=[("billing-service", "other-a"), ("billing-service", "other-b"), ("billing-api", "other-a")],
    )
    assert [(s.term, s.count, s.hub) for s in smeared_terms(g)] == [("billing", 8, "billing-service")]
    assert smeared_terms(g, slug="billing-app") == []
    g.project_path = "/home/u/code/billing"
    assert compute_debt(g, NOW).smeared == ()
    assert len(compute_debt(g, NOW, slug="other").smeared) == 1


def test_smear_keeps_top_three_by_frequency_and_follows_gist_edits():
    nodes = []
    for word, df in (("alpha", 6), ("bravo", 7), ("carbon", 8), ("delta", 9)):
        nodes.append(n(f"{word}-hub"))
        nodes += [n(f"{word[0]}{i}", f"{word}s matter {i}") for i in range(df - 1)]
    g = graph(*nodes, *fillers(40 - len(nodes)))
    assert [(s.term, s.count) for s in smeared_terms(g)] == [("delta", 9), ("carbon", 8), ("bravo", 7)]
    for i in range(5):
        g.set_node(n(f"d{i}", "rewritten gist"))
    assert [s.term for s in smeared_terms(g)] == ["carbon", "bravo", "alpha"]


def test_deleting_mentions_drops_the_smear():
    nodes = [n("billing-service"), *(n(f"mention{i}", f"the billing path {i}") for i in range(7))]
    g = graph(*nodes, *fillers(32))
    assert [s.count for s in smeared_terms(g)] == [8]
    for i in range(3):
        g.del_node(f"mention{i}")
    assert smeared_terms(g) == []  # 5 holders left, under the floor of 6
    g.set_node(n("mention0", "billing again"))
    assert [s.count for s in smeared_terms(g)] == [6]


WORDS = ["billing", "store", "restore", "ledger", "parser", "cache"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 45), st.sets(st.sampled_from(WORDS), max_size=3), st.booleans()),
                max_size=40))
def test_incremental_term_counts_match_a_fresh_count(edits):
    g = graph(*(n(f"{WORDS[i % 6]}-hub" if i < 6 else f"f{i}", "ledger cache" if i % 5 == 0 else "x")
                for i in range(40)))
    smeared_terms(g)
    for index, words, delete in edits:
        node_id = f"{WORDS[index % 6]}-hub" if index < 6 else f"f{index}"
        if delete:
            g.del_node(node_id)
        else:
            g.set_node(n(node_id, " ".join(sorted(words)) or "plain"))
        clone = _copy(g)
        assert smeared_terms(g) == smeared_terms(clone)
        assert _term_state(g).df == _term_state(clone).df
        assert _term_state(g).named == _term_state(clone).named  # the namers index, patched and fresh


def test_a_burst_of_new_nodes_is_worked_out_in_steps_and_seen_only_whole():
    g = graph(*(n(f"f{i}", "ledger cache") for i in range(10)))
    first = _term_state(g)
    for i in range(2 * TERMS_PER_STEP + 5):
        g.set_node(n(f"cache-note-{i}", "cache ledger parser"))
    steps = _term_state_steps(g)
    next(steps)
    next(steps)  # two pauses in: the graph's state is still the last whole one
    assert _STATES[g.lineage] is first
    with pytest.raises(StopIteration) as done:
        next(steps)
    assert done.value.value.df == _term_state(_copy(g)).df and _STATES[g.lineage] is done.value.value


def _copy(g: GraphData) -> GraphData:
    clone = GraphData(g.kind, g.project_path)
    for node in g.nodes.values():
        clone.set_node(node)
    for edge in g.edges.values():
        clone.set_edge(edge)
    return clone


# -- staleness and activity


def test_only_the_maintain_stamp_resets_staleness():
    g = linked("plain-node")
    assert compute_debt(g, NOW).untended_days is None
    ops.set_progress(g, "chore", {"step": 1}, NOW)
    ops.set_progress(g, "refactor-auth", {"step": 1}, NOW)
    g.set_node(n("plain-node", last_read_ts=NOW, useful_ts=(NOW,)))
    d = compute_debt(g, NOW)
    assert d.never_maintained and d.staleness == 1.0
    g.progress["maintain"] = {"step": "started"}  # no stamp: not a stamped pass
    assert compute_debt(g, NOW).never_maintained
    ops.set_progress(g, "maintain", {"cursor": "c", "counts": {"a": 1}}, NOW)  # a pass under way, or dead
    assert compute_debt(g, NOW).never_maintained
    maintained(g, 7)
    d = compute_debt(g, NOW)
    assert d.untended_days == pytest.approx(7.0) and d.staleness == pytest.approx(0.5)
    assert "untended 7d" in debt_line(d)
    ops.set_progress(g, "maintain", {"cursor": "b"}, NOW)  # the next pass's first cursor: no stamp
    assert compute_debt(g, NOW).untended_days == pytest.approx(7.0)
    d = compute_debt(maintained(linked("plain-node"), 30), NOW)
    assert d.staleness == 1.0 and "untended 14d" in debt_line(d)
    maintained(g, 0)
    assert compute_debt(g, NOW).score == 0.0


def test_activity_counts_distinct_utc_days_in_the_last_seven():
    def at(day, hour):
        return dt.datetime(2026, 3, day, hour, tzinfo=dt.UTC).timestamp()

    g = linked(
        n("read-today-a", last_read_ts=at(10, 1)), n("read-today-b", last_read_ts=at(10, 11)),
        n("read-mar4", last_read_ts=at(4, 0)),  # oldest day of the window
        n("read-mar3", last_read_ts=at(3, 23)),  # inside 7×24 h but a day too old
        n("read-archived", last_read_ts=at(9, 5), archived=True),
        n("read-future", last_read_ts=at(11, 5)),
    )
    assert compute_debt(g, NOW).active_days == 3
    d = compute_debt(g, NOW, activity_days={"2026-03-10", "2026-03-07", "2026-03-01", "garbage"})
    assert d.active_days == 4 and d.activity == 1.0


# -- score and line


def test_score_follows_the_formula():
    g = graph(
        n("a-node", "x" * 301, last_read_ts=NOW - 1), n("b-node", last_read_ts=NOW - DAY),
        n("c-node", touches=("src/gone.py",)), n("one-two-three-four-five-six"),
        n("z-archived", "y" * 500, archived=True),
        edges=[("a-node", "b-node")],
    )
    maintained(g, 3.5)
    d = compute_debt(g, NOW, missing_touches={"src/gone.py"})
    assert (d.nodes, d.oversized, d.unconnected, d.long_ids, d.dangling_nodes, d.active_days) == (4, 1, 2, 1, 1, 2)
    assert d.deficit == pytest.approx(1 / 4 + 0.5 * 2 / 4 + 0.5 / 4 + 0.5 / 4)
    expected = 0.25 * (0.4 + 0.6 * 0.5) * (0.25 + 0.75 * 0.75)
    assert d.score == round(expected, 2) == 0.14 and d.level == "LOW"


def test_empty_graph_has_zero_deficit():
    d = compute_debt(GraphData("user"), NOW)
    assert d.deficit == 0.0 and d.score == 0.1 and d.level == "LOW"


def test_line_low():
    d = compute_debt(maintained(linked("plain-node"), 7), NOW)
    assert debt_line(d) == (
        "DEBT: LOW (0.05) — 0 oversized gist(s), 0 long id(s), 0 unconnected, 0 dangling touch(es), "
        "0 lift cluster(s), untended 7d, active 0/7d"
    )


def test_line_med_has_no_call_to_action():
    g = maintained(graph(n("lonely-node", "x" * 400)), 20)
    d = compute_debt(g, NOW)
    assert d.level == "MED"
    assert debt_line(d) == (
        "DEBT: MED (0.40) — 1 oversized gist(s), 0 long id(s), 0 unconnected, 0 dangling touch(es), "
        "0 lift cluster(s), untended 14d, active 0/7d"  # a graph's only node is never unconnected
    )


def test_line_high_with_smeared_clause_and_call_to_action():
    nodes = [n("billing-service", "x" * 301), *(n(f"mention{i}", f"the billing path {i}") for i in range(7))]
    g = graph(*nodes, *fillers(40 - len(nodes)))
    days = {f"2026-03-0{d}" for d in (5, 6, 7, 8)}
    d = compute_debt(g, NOW, activity_days=days)
    assert d.level == "HIGH"
    assert debt_line(d) == (
        "DEBT: HIGH (0.70) — 1 oversized gist(s), 0 long id(s), 40 unconnected, 0 dangling touch(es), "
        "0 lift cluster(s), never maintained, active 4/7d — smeared: billing×8→billing-service" + HIGH_TAIL
    )


def test_smeared_clause_on_a_low_line_and_levels_at_the_thresholds():
    nodes = [n("billing-service"), *(n(f"mention{i}", f"the billing path {i}") for i in range(7))]
    d = compute_debt(graph(*nodes, *fillers(32)), NOW)
    assert debt_line(d).endswith("never maintained, active 0/7d — smeared: billing×8→billing-service")
    assert HIGH_TAIL not in debt_line(d)
    base = debt_dict(d)
    assert json.loads(json.dumps(base)) == base
    assert base["smeared"] == [{"term": "billing", "count": 8, "hub": "billing-service"}]
    assert base["line"] == debt_line(d) and base["never_maintained"] is True
    assert [level_for(s) for s in (0.5, 0.49, 0.3, 0.29)] == ["HIGH", "MED", "MED", "LOW"]


# -- touches


def test_touch_path_forms():
    g = graph(
        n("a-node", touches=(
            "src/a.py:10-20 (anchor)", "~/x.md", "/abs/y.txt#frag", "https://example.com/a.py",
            "src/**/*.py", "the auth flow", "README.md:Install", "lib/m.py:func_name", "v1.2",
            "./docs/../docs/guide.md", "~other/z.md",
        )),
        n("old-node", touches=("src/archived.py",), archived=True),
        project_path="/proj",
    )
    got = [(t, p) for _, t, p in touch_paths(g, home="/home/u")]
    assert got == [
        ("src/a.py:10-20 (anchor)", "/proj/src/a.py"), ("~/x.md", "/home/u/x.md"),
        ("/abs/y.txt#frag", "/abs/y.txt"), ("README.md:Install", "/proj/README.md"),
        ("lib/m.py:func_name", "/proj/lib/m.py"), ("./docs/../docs/guide.md", "/proj/docs/guide.md"),
    ]
    assert {nid for nid, _, _ in touch_paths(g, home="/home/u")} == {"a-node"}
    no_root = [p for _, _, p in touch_paths(g, home="/home/u", project_root_exists=False)]
    assert no_root == ["/home/u/x.md", "/abs/y.txt"]
    assert [p for _, _, p in touch_paths(g)] == [
        "/proj/src/a.py", "/abs/y.txt", "/proj/README.md", "/proj/lib/m.py", "/proj/docs/guide.md",
    ]
    g.project_path = None
    assert [p for _, _, p in touch_paths(g, home="/h")] == ["/h/x.md", "/abs/y.txt"]


@pytest.mark.parametrize("touch,path", [
    ("`src/a.py`", "src/a.py"), ("Makefile", None), ("config.yaml", "config.yaml"), ("www.x.org/a", None),
    ("", None), ("   ", None), ("docs/", "docs/"), ("file:///etc/hosts", None), ("a.verylongextension", None),
])
def test_parse_touch(touch, path):
    assert parse_touch(touch) == path


def test_debt_nodes_name_the_nodes_behind_every_factor_the_score_counts():
    from kg_actors.core.debt import debt_nodes

    g = graph(n("billing-service-hub", "x" * 320, touches=["src/gone.py"]), n("a-very-long-node-id-of-many-words"),
              n("linked-one"), n("linked-two"), edges=[("linked-one", "linked-two", "related-to")],
              project_path="/home/u/shop")
    missing = frozenset({"src/gone.py"})
    d = compute_debt(g, NOW, missing_touches=missing)
    behind = debt_nodes(g, missing)
    assert behind["oversized"] == ["billing-service-hub"] and d.oversized == 1
    assert behind["unconnected"] == ["a-very-long-node-id-of-many-words", "billing-service-hub"]
    assert d.unconnected == 2
    assert behind["long_ids"] == ["a-very-long-node-id-of-many-words"] and d.long_ids == 1
    assert behind["dangling"] == ["billing-service-hub"] and d.dangling_nodes == 1
    assert behind["dangling_touches"] == {"billing-service-hub": ["src/gone.py"]}
    assert behind["lift_clusters"] == [list(c) for c in d.lift_clusters]


def test_a_lone_node_in_a_graph_of_one_is_no_debt_and_no_chore():
    """Nothing to link a graph's only active node to: not unconnected, and no chore asks to link it."""
    from kg_actors.core.chore_pick import pick_chore

    g = graph(n("only-lesson"), n("gone-lesson", archived=True))
    d = compute_debt(g, NOW)
    assert (d.unconnected, d.deficit) == (0, 0.0)
    assert pick_chore(g, frozenset(), NOW) is None
    g.set_node(n("second-lesson"))
    assert compute_debt(g, NOW).unconnected == 2  # two can be linked to each other
    assert pick_chore(g, frozenset(), NOW).kind == "edge"


def test_health_and_debt_count_apart_the_nodes_they_call_unlinked_and_say_which():
    """HEALTH counts over what the read shows (an edge to an orphaned node is hidden); DEBT over every edge (spec 000's
    factor: active nodes with no edge). One word for both read as one count that disagreed with itself (89 vs 27)."""
    from kg_actors.core import reads, render

    g = graph(n("alone-node"), n("tied-to-orphan"), n("linked-a"), n("linked-b"), n("old-orphan", archived=True, orphaned_ts=NOW - DAY),
              edges=[("tied-to-orphan", "old-orphan"), ("linked-a", "linked-b")])
    health = reads.health_line(g, render.plan_level(g))
    debt = debt_line(compute_debt(g, NOW))
    assert "2 with no edge shown (50%)" in health, health  # alone-node, and tied-to-orphan: its one edge is hidden
    assert "1 unconnected" in debt and "unconnected" not in health, (health, debt)  # alone-node alone
