"""The DEBT terms a child works out from the graph file: the server's own rows, or none and the server's work."""

import subprocess
import sys
import time
from pathlib import Path

from kg_actors.core import debt
from kg_actors.core.model import GraphData, Node
from kg_actors.graph_loading import settle_and_derive
from kg_actors.storage import term_cache
from kg_actors.storage.graph_file import write_snapshot
from kg_actors import term_process
from kg_actors.term_process import TermChild, file_rows

real_seed = debt.seed_terms

NOW = 1_800_000_000.0
# A count of nodes whose work would take the server long enough that the child is always waited for
# (a loaded machine's child may take seconds to start): these tests are about what it answers.
PATIENT = 1_000_000


def _as_sets(rows: dict) -> dict:
    """Rows compared as what they hold: a row's tuples come from sets, in each process's own hash order."""
    return {i: (gist, frozenset(stems), frozenset(names)) for i, (gist, stems, names) in rows.items()}


def _graph() -> GraphData:
    g = GraphData("project")
    for i in range(30):
        g.set_node(Node(f"retry-budget-{i}", f"Retries share one budget per request; attempt {i} waits longer"))
    g.set_node(Node("2026-01-02-incident", "A dated id names nothing: the outage postmortem"))
    g.set_node(Node("unicode-ÉTÉ", "Café names: lowercased, stemmed, then counted"))
    g.set_node(Node("empty-gist", ""))
    g.take_changes()
    return g


def _stored(tmp_path: Path, graph: GraphData) -> Path:
    path = tmp_path / "graph.json"
    write_snapshot(path, graph.snapshot_json())
    return path


def test_the_child_gives_each_node_the_rows_the_server_makes_itself(tmp_path):
    graph = _graph()
    child = TermChild.start(_stored(tmp_path, graph), min_bytes=0)
    assert child is not None
    rows = child.rows(PATIENT)
    assert _as_sets(rows) == _as_sets({i: (n.gist, *debt.node_terms(i, n.gist)) for i, n in graph.nodes.items()})
    assert debt.seed_terms(graph, rows) == 0  # nothing left to make


def test_a_node_written_after_the_file_is_made_by_the_server_alone(tmp_path):
    graph = _graph()
    path = _stored(tmp_path, graph)
    graph.set_node(Node("retry-budget-3", "Rewritten since the file: a journal's write"))
    graph.set_node(Node("new-since-the-file", "Created after the last save"))
    rows = TermChild.start(path, min_bytes=0).rows(PATIENT)
    assert debt.seed_terms(graph, rows) == 2


def test_no_child_where_a_terms_file_has_them_or_the_file_is_small(tmp_path):
    graph = _graph()
    path = _stored(tmp_path, graph)
    assert TermChild.start(path, min_bytes=path.stat().st_size + 1) is None
    term_cache.write(path, debt.term_rows(graph))
    assert TermChild.start(path, min_bytes=0) is None
    assert TermChild.start(tmp_path / "no-such-graph.json", min_bytes=0) is None


def test_a_child_that_fails_gives_no_rows_and_is_gone(tmp_path):
    path = tmp_path / "graph.json"
    path.write_text("{ not json")
    child = TermChild.start(path, min_bytes=0)
    assert child is not None
    assert child.rows(PATIENT) == {}
    assert child._proc.returncode not in (None, 0)


def test_a_child_closed_unread_is_stopped(tmp_path):
    child = TermChild.start(_stored(tmp_path, _graph()), min_bytes=0)
    child.close()
    assert child._proc.returncode is not None
    child.close()  # twice is harmless


def test_settling_with_a_child_gives_the_same_debt_and_asks_for_a_terms_file(tmp_path, monkeypatch):
    monkeypatch.setattr(term_process, "SECONDS_PER_NODE", 1.0)  # the child's rows, however slow its start
    seeded = []
    monkeypatch.setattr(debt, "seed_terms", lambda g, rows: seeded.append(len(rows)) or real_seed(g, rows))
    graph, alone = _graph(), _graph()
    path = _stored(tmp_path, graph)
    derived, stale = settle_and_derive(graph, NOW, path, TermChild.start(path, min_bytes=0))
    assert seeded == [len(graph.nodes)]  # every node's terms came from the child
    assert stale  # the next start takes them from the file, without a child
    reference, _ = settle_and_derive(alone, NOW)
    assert derived.debt(graph, NOW) == reference.debt(alone, NOW)


def test_file_rows_read_ids_and_gists_as_the_model_does(tmp_path):
    path = tmp_path / "graph.json"
    path.write_text('{"nodes": {"7": {"gist": 12}, "x": "not a node", "no-gist": {}}}')
    assert _as_sets(file_rows(path)) == _as_sets({"7": ("12", *debt.node_terms("7", "12")),
                                                  "no-gist": ("", *debt.node_terms("no-gist", ""))})


def test_a_child_not_done_within_the_servers_own_cost_is_stopped_and_gives_no_rows():
    """On a busy machine the child may be slow: the start waits for it no longer than the work would take."""
    stuck = TermChild(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                                       stdout=subprocess.PIPE))
    started = time.monotonic()
    assert stuck.rows(1) == {}  # one node's worth: the 50 ms floor
    assert time.monotonic() - started < 10
    assert stuck._proc.returncode is not None  # killed, not left running
