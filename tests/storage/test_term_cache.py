"""Debt's terms kept from the last start: used only where a node's gist is the one they were made from."""

import json

import attrs

from kg_actors.core import debt
from kg_actors.core.model import Edge, GraphData, Node
from kg_actors.graph_loading import TERMS_REWRITE_MIN, settle_and_derive
from kg_actors.storage import term_cache

NOW = 1_800_000_000.0
WORDS = ["invoices", "retries", "webhooks", "payments", "ledger", "refunds", "customer"]


def _graph(n: int = 240) -> GraphData:
    g = GraphData("project", "/home/u/shop")
    g.set_node(Node("billing-service", "owns billing", created_ts=NOW))
    for i in range(n):
        words = WORDS[i % len(WORDS)] + (" billing" if i % 7 == 0 else "")  # billing: in a seventh of them
        g.set_node(Node(f"lesson-{i:04d}", f"note {i}: {words} handled carefully", created_ts=NOW - i))
        if i % 7 == 0:
            g.set_edge(Edge("billing-service", f"lesson-{i:04d}", "relates-to"))
    g.take_changes()
    g.commit()
    return g


def test_terms_seeded_from_rows_give_the_same_debt_as_terms_made_afresh():
    made = _graph()
    want = debt.compute_debt(made, NOW)
    assert want.smeared  # the DEBT line names smeared terms here: the rows must carry them right
    rows = debt.term_rows(made)
    seeded = _graph()
    assert debt.seed_terms(seeded, rows) == 0
    assert debt.compute_debt(seeded, NOW) == want


def test_a_row_is_used_only_for_the_gist_it_was_made_from():
    g = _graph()
    rows = debt.term_rows(g)
    rows["lesson-0001"] = ("a gist this node no longer has", ("wrong",), ())
    rows["lesson-0002"] = (g.nodes["lesson-0002"].gist, ("planted",), ())  # same gist: taken as it is
    del rows["lesson-0003"]
    fresh = _graph()
    assert debt.seed_terms(fresh, rows) == 2  # lesson-0001 (gist differs) and lesson-0003 (no row)
    counts = debt._term_state(fresh).df
    assert "wrong" not in counts and counts["planted"] == 1
    # Later changes are counted on top of the seeded counts, as on top of made ones.
    fresh.set_node(attrs.evolve(fresh.nodes["lesson-0002"], gist="now about ledger reconciliation"))
    assert "planted" not in debt._term_state(fresh).df


def test_the_file_round_trips_and_anything_untrusted_is_ignored(tmp_path, monkeypatch):
    graph_file = tmp_path / "graph.json"
    rows = debt.term_rows(_graph(20))
    term_cache.write(graph_file, rows)
    assert term_cache.read(graph_file) == rows
    path = term_cache.cache_path(graph_file)
    assert path.name == "graph.json.terms.jsonl"  # *.jsonl: kept out of the store's commits
    text = path.read_text()
    path.write_text(text[: len(text) // 2])  # torn
    assert term_cache.read(graph_file) == {}
    path.write_text(text.replace(debt.terms_fingerprint(), "other rules"))
    assert term_cache.read(graph_file) == {}
    path.write_text('{"format": 1, "terms": "%s", "rows": [["a", "g", ["x"]]]}' % debt.terms_fingerprint())
    assert term_cache.read(graph_file) == {}  # a row of the wrong shape
    path.unlink()
    assert term_cache.read(graph_file) == {}
    monkeypatch.setattr(debt, "_PROBES", ("different",))  # the stemmer's answers are in the fingerprint
    term_cache.write(graph_file, rows)
    monkeypatch.undo()
    assert term_cache.read(graph_file) == {}


def test_a_load_takes_the_terms_file_and_says_when_it_is_worth_writing_again(tmp_path):
    graph_file = tmp_path / "graph.json"
    first = _graph()
    derived, stale = settle_and_derive(first, NOW, graph_file)
    assert stale and len(first.nodes) > TERMS_REWRITE_MIN  # nothing kept: every node's terms were made
    term_cache.write(graph_file, debt.term_rows(first))
    again = _graph()
    derived_again, stale = settle_and_derive(again, NOW, graph_file)
    assert not stale
    assert debt.debt_line(derived_again.debt(again, NOW)) == debt.debt_line(derived.debt(first, NOW))


def test_the_file_written_in_pieces_is_one_json_document_of_every_row(tmp_path, monkeypatch):
    monkeypatch.setattr(term_cache, "WRITE_ROWS", 7)  # several pieces, the last one short
    g = _graph(40)
    graph_file = tmp_path / "graph.json"
    rows = debt.term_rows(g)
    term_cache.write(graph_file, rows)
    text = term_cache.cache_path(graph_file).read_text(encoding="utf-8")
    assert text.count("\n") == 1 and len(json.loads(text)["rows"]) == len(rows)
    assert term_cache.read(graph_file) == {i: (gist, tuple(s), tuple(n)) for i, (gist, s, n) in rows.items()}
    term_cache.write(graph_file, {})  # no rows at all: still a document
    assert term_cache.read(graph_file) == {}
