"""Each common term's rank order, kept by the writes, reads as a fresh sort of its holders (count desc, id)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg_actors.core.model import Node
from kg_actors.core.search import SearchIndex, node_postings
from kg_actors.core.term_order import TermOrders

IDS = [f"n{i}" for i in range(8)]
WIDE_NUMBER = 2**21  # past the narrow arrays' 20 bits of number


_NAMES = [*IDS, *[""] * (WIDE_NUMBER - len(IDS)), "wide"]  # built once: two million entries


def _names() -> tuple[list[str], dict[str, int]]:
    return _NAMES, {**{name: i for i, name in enumerate(IDS)}, "wide": WIDE_NUMBER}


op_strategy = st.tuples(st.sampled_from([*IDS, "wide"]), st.one_of(st.integers(0, 6), st.just(2**13), st.just(2**31)))


@settings(max_examples=150, deadline=None)
@given(st.lists(op_strategy, max_size=40), st.integers(1, 4))
def test_inserts_and_removes_read_as_a_sort_of_the_holders(ops, least):
    names, numbers = _names()
    orders = TermOrders(names, least)
    model: dict[str, int] = {}  # id -> count
    for node_id, count in ops:
        if node_id in model:  # a change of count is a remove and an insert, as the index does it
            orders.remove("t", numbers[node_id], model.pop(node_id)) if "t" in orders else None
        elif "t" in orders:
            orders.insert("t", numbers[node_id], count)
            model[node_id] = count
        else:
            model[node_id] = count
            if len(model) >= least:
                orders.put("t", [(numbers[i], c) for i, c in model.items()])
        if "t" in orders:
            want = sorted(model, key=lambda i: (-model[i], i))
            assert orders.ids("t") == want
            assert orders.ids("t", 3) == want[:3]
            assert len(model) >= least
        else:
            assert orders.ids("t") is None


def test_removing_a_holder_not_there_is_an_error_not_a_silent_miss():
    names, numbers = _names()
    orders = TermOrders(names, 1)
    orders.put("t", [(0, 2), (1, 3)])
    with pytest.raises(KeyError):
        orders.remove("t", 0, 3)  # held, but with another count
    orders.remove("t", 0, 2)
    assert orders.ids("t") == [names[1]]
    orders.remove("t", 1, 3)
    assert "t" not in orders  # fewer than `least` left: the order goes


WORDS = ["rate", "limit", "store", "retry", "queue", "cache"]
node_strategy = st.builds(
    Node, id=st.sampled_from(["rate-limit", "store-x", "n1", "n2", "n3", "a-b"]),
    gist=st.lists(st.sampled_from(WORDS), max_size=5).map(" ".join),
    notes=st.lists(st.lists(st.sampled_from(WORDS), max_size=4).map(" ".join), max_size=2).map(tuple),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(node_strategy, max_size=4),
       st.lists(st.one_of(node_strategy, st.sampled_from(["rate-limit", "n1", "n3"])), max_size=14),
       st.integers(1, 3), st.integers(1, 4))
def test_the_index_keeps_each_common_terms_order_through_writes(initial, edits, least, bits_min):
    from kg_actors.core.model import GraphData
    graph = GraphData("project")
    for node in initial:
        graph.set_node(node)
    index = SearchIndex.build(graph, order_min=least, bits_min=bits_min)
    for edit in edits:
        if isinstance(edit, Node):
            graph.set_node(edit)
            index.update_node(edit)
        else:
            graph.del_node(edit) if edit in graph.nodes else None
            index.remove_node(edit)
    model: dict[str, dict[str, int]] = {}
    for node in graph.nodes.values():
        for term, packed in node_postings(node).items():
            model.setdefault(term, {})[node.id] = packed >> 1
    fresh = SearchIndex.build(graph, order_min=least, bits_min=bits_min)
    # The orders kept are exactly those of the terms held by `least` nodes or more, never more or fewer.
    assert set(index.orders.terms()) == {t for t, h in model.items() if len(h) >= least} == set(fresh.orders.terms())
    for term, holders in model.items():
        want = sorted(holders, key=lambda i: (-holders[i], i))
        assert index.ordered(term) == fresh.ordered(term) == want
        assert index.ordered(term, 2) == want[:2]
    assert index.ordered("absent") == []
    # How many nodes hold any of some terms: common terms by their bitmaps, the rest one by one, as a set says.
    for k in range(len(WORDS)):
        terms = [*WORDS[k:k + 3], "absent"]
        want = {i for t in terms for i in model.get(t, {})}
        assert index.matching(terms) == fresh.matching(terms) == len(want)
    for term in index.orders.terms():  # a bitmap, where kept, holds the order's holders exactly
        bits = index.orders.bits(term)
        assert bits is not None or len(model[term]) < bits_min
        if bits is not None:
            held = {n for n in range(len(bits) * 8) if bits[n >> 3] >> (n & 7) & 1}
            assert held == set(index.orders.numbers(term))


def test_an_order_past_two_byte_numbers_widens_and_stays_in_rank_order():
    """Numbers are two bytes while they fit (half the memory); a holder numbered past 65,535 widens them."""
    names = [f"n{i:06d}" for i in range(70_000)]
    orders = TermOrders(names, least=2)
    orders.put("redis", [(5, 3), (9, 1), (7, 3)])
    assert vars(orders)["_held"]["redis"].numbers.typecode == "H"
    orders.insert("redis", 69_999, 2)
    orders.insert("redis", 65_536, 3)
    assert orders.ids("redis") == ["n000005", "n000007", "n065536", "n069999", "n000009"]
    orders.remove("redis", 65_536, 3)
    assert orders.ids("redis") == ["n000005", "n000007", "n069999", "n000009"]
