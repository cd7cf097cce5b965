"""The per-write indexes a hook reads: touches by file, nodes by write time."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg_actors.core.model import GraphData, Node
from kg_actors.core.touches import TouchIndex, touch_key
from kg_actors.core.written import WrittenLog

HOME = "/home/u"
ROOT = "/home/u/app"


def project(*nodes: Node) -> GraphData:
    graph = GraphData("project")
    graph.project_path = ROOT
    for node in nodes:
        graph.set_node(node)
    return graph


def test_touch_forms_meet_at_one_file():
    graph = project(
        Node("a", "g", touches=("src/x.py:10-20 (parse)",)),
        Node("b", "g", touches=("~/app/src/x.py",)),
        Node("c", "g", touches=("/home/u/app/src/x.py#top", "https://example.org/src/x.py")),
        Node("d", "g", touches=("src/x.py",), orphaned_ts=5.0),
    )
    index = TouchIndex.build(graph, HOME)
    # The orphaned node too: file recall reaches every tier (spec 000 "Recall at the file").
    assert sorted(index.get(ROOT + "/src/x.py")) == ["a", "b", "c", "d"]
    assert index.get(ROOT + "/src/y.py") == []


def test_user_level_touches_resolve_only_absolute_and_home():
    graph = GraphData("user")
    graph.set_node(Node("a", "g", touches=("src/x.py", "~/notes.md")))
    index = TouchIndex.build(graph, HOME)
    assert index.get(HOME + "/notes.md") == ["a"]
    assert index.get(ROOT + "/src/x.py") == []


@pytest.mark.parametrize("touch", ["Makefile", "Makefile:12-20 (deploy target)", "Makefile:deploy", "Makefile#deploy",
                                   "`Makefile`", "Makefile (deploy target)", "./Makefile", "~/app/Makefile"])
def test_a_root_level_file_without_folder_or_extension_is_named_in_every_form(touch):
    assert touch_key(touch, ROOT, HOME) == ROOT + "/Makefile"


@pytest.mark.parametrize("touch", ["Makefile", "LICENSE:1-3"])
def test_a_bare_file_name_resolves_only_in_a_project_graph(touch):
    assert touch_key(touch, None, HOME) is None  # the user graph has no root to place it under


@pytest.mark.parametrize("touch", ["Makefile deploy target", "redis cache", "https://x.org/Makefile", "Make*",
                                   "..", "-", "42", "", "-rf", "Make$FILE"])
def test_prose_urls_globs_and_non_names_name_no_file(touch):
    assert touch_key(touch, ROOT, HOME) is None


def test_file_recall_finds_a_node_touching_a_root_level_dockerfile():
    graph = project(Node("a", "g", touches=("Dockerfile",)), Node("b", "g", touches=("LICENSE:1-3 (header)",)),
                    Node("c", "g", touches=("build/Dockerfile",)))
    index = TouchIndex.build(graph, HOME)
    assert index.get(ROOT + "/Dockerfile") == ["a"] and index.get(ROOT + "/LICENSE") == ["b"]
    assert index.get(ROOT + "/build/Dockerfile") == ["c"]


def test_written_since_is_strict_and_oldest_first():
    graph = project(
        Node("a", "g", written={"by": "s1", "ts": 30.0}),
        Node("b", "g", written={"by": "s2", "ts": 10.0}),
        Node("c", "g"),
        Node("d", "g", written={"by": "s1", "ts": 20.0}),
    )
    log = WrittenLog.build(graph)
    assert log.since(10.0) == ["d", "a"]
    assert log.since(0) == ["b", "d", "a"]
    log.update_node(Node("b", "g2", written={"by": "s3", "ts": 40.0}))
    assert log.since(15.0) == ["d", "a", "b"]
    log.remove_node("a")
    assert log.since(0) == ["d", "b"]


def test_a_write_applied_after_a_window_opened_is_in_that_window():
    """Stamped at 10 when its request started, applied at 25 behind queued writes: a reader
    whose window opened at 20 must still get it, once (it leaves the windows after 25)."""
    log = WrittenLog.build(project(Node("a", "g", written={"by": "s1", "ts": 15.0})))
    log.update_node(Node("late", "g", written={"by": "s2", "ts": 10.0}), applied=25.0)
    assert log.since(20.0) == ["late"]
    assert log.since(25.0) == []
    assert log.since(0) == ["a", "late"]
    log.update_node(Node("late", "g, re-rated", written={"by": "s2", "ts": 10.0}), applied=40.0)
    assert log.since(25.0) == []  # the same write (a state change, a vote) is not news again


PATHS = ["src/a.py", "src/a.py:3-9 (f)", "~/app/src/a.py", "/etc/hosts", "docs/b.md", "https://x.org/a"]
node_strategy = st.builds(
    Node,
    id=st.sampled_from(["n1", "n2", "n3", "n4"]),
    gist=st.just("g"),
    touches=st.lists(st.sampled_from(PATHS), max_size=3).map(tuple),
    orphaned_ts=st.one_of(st.none(), st.just(1.0)),
    written=st.one_of(st.none(), st.builds(lambda ts, by: {"ts": ts, "by": by},
                                           st.integers(0, 5).map(float), st.sampled_from(["s1", "s2"]))),
)
edit_strategy = st.one_of(st.tuples(st.just("set"), node_strategy),
                          st.tuples(st.just("del"), st.sampled_from(["n1", "n2", "n3", "n4"])))


@settings(max_examples=200, deadline=None)
@given(st.lists(node_strategy, max_size=4), st.lists(edit_strategy, max_size=12))
def test_incremental_indexes_equal_fresh_builds(initial, edits):
    graph = project(*initial)
    touches, written = TouchIndex.build(graph, HOME), WrittenLog.build(graph)
    for op, arg in edits:
        if op == "set":
            graph.set_node(arg)
            touches.update_node(arg)
            written.update_node(arg)
        else:
            graph.del_node(arg)
            touches.remove_node(arg)
            written.remove_node(arg)
    fresh_touches, fresh_written = TouchIndex.build(graph, HOME), WrittenLog.build(graph)
    for path in {ROOT + "/src/a.py", "/etc/hosts", ROOT + "/docs/b.md"}:
        assert sorted(touches.get(path)) == sorted(fresh_touches.get(path))
    for ts in (-1.0, 0.0, 2.0, 4.5):
        assert written.since(ts) == fresh_written.since(ts)
