"""A large graph's first search index, built in a real child process: the same index a thread builds,
and a thread's when the child cannot give one."""

import logging
import sys

import pytest
import trio

from kg_actors import index_process
from kg_actors.core import constants as C
from kg_actors.core.model import Edge, GraphData, Node
from kg_actors.core.search import SearchIndex, parse_query, top_hits


def _graph() -> GraphData:
    g = GraphData("project")
    words = ["redis", "cache", "billing", "ledger", "postgres", "deploy", "helm", "ruff", "lint", "token"]
    for i in range(120):
        a, b = words[i % 10], words[(i * 7) % 10]
        g.set_node(Node(f"{a}-{b}-{i}", f"The {a} setup decides how {b} behaves ({i})", (f"note on {b} and {a}",),
                        (f"src/{a}/{b}_{i}.py",), archived=i % 3 == 0))
    g.set_node(Node("billing-2024-05-01", "billing outage episode, dated"))
    g.set_edge(Edge("redis-redis-0", "cache-helm-1", "relates_to"))
    return g


def _fields(index: SearchIndex) -> dict:
    orders = {t: (list(o.numbers), o.counts, o.sizes) for t, o in vars(index.orders)["_held"].items()}
    return {"names": index._names, "postings": dict(index.postings), "titles": index.title_counts,
            "hubs": dict(index.hub_namers), "families": index.families, "orders": orders, "gen": index.gen}


@pytest.fixture
def in_a_process(monkeypatch):
    monkeypatch.setattr(C, "INDEX_PROCESS_MIN_NODES", 1)


async def test_the_child_builds_the_index_a_thread_builds_and_the_parent_keeps_its_own_nodes(in_a_process, caplog):
    snapshot = _graph().snapshot()
    with caplog.at_level(logging.WARNING):
        index = await index_process.build(snapshot)
    assert caplog.records == []  # the child answered: no fallback
    assert _fields(index) == _fields(SearchIndex.build(snapshot))
    assert all(index.nodes[i] is snapshot.nodes[i] for i in snapshot.nodes)
    hits, _ = top_hits(index, parse_query("redis cache"), frozenset(), 5)
    assert hits and "redis" in hits[0].node_id


async def test_writes_after_the_snapshot_are_caught_up_by_sync(in_a_process):
    graph = _graph()
    snapshot = graph.snapshot()
    graph.set_node(Node("kafka-consumer-lag", "Kafka consumer lag alerts fire at 10,000 messages"))
    graph.del_node("redis-redis-0")
    index = await index_process.build(snapshot)
    index.sync(graph)
    assert _fields(index)["postings"] == _fields(SearchIndex.build(graph))["postings"]
    assert "kafka-consumer-lag" in index.nodes and "redis-redis-0" not in index.nodes


@pytest.mark.parametrize("child", ["/nonexistent/python", "/bin/true", "/bin/false"])
async def test_a_child_that_cannot_answer_falls_back_to_a_thread(in_a_process, monkeypatch, caplog, child):
    """Cannot start, answers nothing, exits non-zero: the index still comes, the same one."""
    snapshot = _graph().snapshot()
    monkeypatch.setattr(sys, "executable", child)
    with caplog.at_level(logging.WARNING):
        index = await index_process.build(snapshot)
    assert any("building the index in a thread" in r.getMessage() for r in caplog.records)
    assert _fields(index) == _fields(SearchIndex.build(snapshot))


async def test_a_small_graph_builds_in_a_thread_without_a_child(monkeypatch, caplog):
    snapshot = _graph().snapshot()
    monkeypatch.setattr(sys, "executable", "/nonexistent/python")  # a child would fail, and say so
    with caplog.at_level(logging.WARNING):
        index = await index_process.build(snapshot)
    assert len(snapshot.nodes) < C.INDEX_PROCESS_MIN_NODES and caplog.records == []
    assert _fields(index) == _fields(SearchIndex.build(snapshot))


async def test_an_index_of_other_nodes_is_refused_and_built_in_a_thread(in_a_process, monkeypatch, caplog):
    snapshot = _graph().snapshot()
    sent = index_process.texts_of
    monkeypatch.setattr(index_process, "texts_of", lambda nodes: sent(list(nodes)[1:]))  # one node short
    with caplog.at_level(logging.WARNING):
        index = await index_process.build(snapshot)
    assert any("other nodes" in r.getMessage() for r in caplog.records)
    assert _fields(index) == _fields(SearchIndex.build(snapshot))


async def test_a_stuck_child_is_killed_and_the_thread_builds_it(in_a_process, monkeypatch, caplog, tmp_path,
                                                                 autojump_clock):
    """A child that never answers: killed at the deadline (the autojump clock reaches it at once)."""
    snapshot = _graph().snapshot()
    script = tmp_path / "stuck.sh"
    script.write_text("#!/bin/sh\nexec sleep 1000\n")
    script.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(script))
    with caplog.at_level(logging.WARNING):
        index = await index_process.build(snapshot)
    assert any("TooSlowError" in r.getMessage() for r in caplog.records)
    assert _fields(index) == _fields(SearchIndex.build(snapshot))


async def test_one_child_at_a_time(in_a_process, monkeypatch, autojump_clock):
    """Large projects opened together queue for the child (each one's builds whole, none falls back)."""
    running, most = [0], [0]

    async def child(graph):
        running[0] += 1
        most[0] = max(most[0], running[0])
        await trio.sleep(5)  # the autojump clock: no real wait
        running[0] -= 1
        return SearchIndex.build(graph)

    monkeypatch.setattr(index_process, "_built_by_child", child)
    snapshots = [_graph().snapshot() for _ in range(3)]
    built: list[SearchIndex] = []

    async def one(snapshot):
        built.append(await index_process.build(snapshot))

    async with trio.open_nursery() as nursery:
        for snapshot in snapshots:
            nursery.start_soon(one, snapshot)
    assert most[0] == 1 and len(built) == 3


async def test_the_child_s_index_holds_one_string_per_term_and_the_graph_s_own_ids(in_a_process):
    """Each table's key for a term is the postings' own string, and the index numbers the graph's id
    strings: a copy per table and per id was ~4 MiB of a 10,000-node index (bench/RESULTS-soak.md)."""
    snapshot = _graph().snapshot()
    index = await index_process.build(snapshot)
    terms = {t: t for t in index.postings}
    others = [*vars(index.orders)["_held"], *index.hub_namers, *index.title_counts]
    assert others and all(t is terms[t] for t in others)
    assert all(a is b for a, b in zip(index._names, snapshot.nodes, strict=True))
    assert all(index._names[n] is i for i, n in index._numbers.items())
