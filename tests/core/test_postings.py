"""The compact postings read exactly as the dict per term they replaced (term → {node id: packed})."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kg_actors.core.postings import Postings
from kg_actors.core.search import SearchIndex, node_postings
from kg_actors.core.model import Node

IDS = [f"node-{i}" for i in range(6)]
TERMS = ["alpha", "beta", "alpha beta", "gamma"]

op_strategy = st.tuples(st.lists(st.sampled_from(TERMS), min_size=1, max_size=3, unique=True),
                        st.sampled_from(IDS), st.integers(0, 2**33))


def _check(postings: Postings, model: dict[str, dict[str, int]], names: list[str]) -> None:
    assert set(postings) == set(model) and len(postings) == len(model)
    for term, holders in model.items():
        posting = postings[term]
        assert dict(posting.items()) == holders and dict(posting) == holders
        assert list(posting) == sorted(holders, key=names.index)  # the order the ids were first numbered
        assert len(posting) == postings.df(term) == len(holders)
        for node_id in IDS:
            assert posting.get(node_id) == holders.get(node_id)
            assert (node_id in posting) == (node_id in holders)
    assert postings.df("absent") == 0 and postings.get("absent") is None


@settings(max_examples=200, deadline=None)
@given(st.lists(op_strategy, max_size=40))
def test_adds_and_removes_read_as_the_dict_model(ops):
    names: list[str] = []
    numbers: dict[str, int] = {}
    postings = Postings(names, numbers)
    model: dict[str, dict[str, int]] = {}
    for terms, node_id, packed in ops:
        if node_id not in numbers:
            numbers[node_id] = len(names)
            names.append(node_id)
        held = [t for t in terms if node_id in model.get(t, {})]
        emptied = postings.remove(numbers[node_id], held)
        for term in held:
            del model[term][node_id]
        assert emptied == [t for t in held if not model[t]]
        for term in emptied:
            del model[term]
        adding = {t: packed + i for i, t in enumerate(terms) if t not in held}
        assert postings.add(numbers[node_id], adding) == [t for t in adding if t not in model]
        for term, value in adding.items():
            model.setdefault(term, {})[node_id] = min(value, 2**32 - 1)
        _check(postings, model, names)


WORDS = ["rate", "limit", "store", "retry", "queue", "cache"]
node_strategy = st.builds(
    Node, id=st.sampled_from(["rate-limit", "store-x", "n1", "n2"]),
    gist=st.lists(st.sampled_from(WORDS), max_size=5).map(" ".join),
    notes=st.lists(st.lists(st.sampled_from(WORDS), max_size=4).map(" ".join), max_size=2).map(tuple),
)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(node_strategy, st.sampled_from(["rate-limit", "n1"])), max_size=12))
def test_the_index_holds_each_nodes_postings_and_orders_holders_by_count_then_id(edits):
    index = SearchIndex()
    live: dict[str, Node] = {}
    for edit in edits:
        index.ordered("rate"), index.ordered("limit")  # sorted orders kept through the edits
        if isinstance(edit, Node):
            index.update_node(edit)
            live[edit.id] = edit
        else:
            index.remove_node(edit)
            live.pop(edit, None)
    model: dict[str, dict[str, int]] = {}
    for node in live.values():
        for term, packed in node_postings(node).items():
            model.setdefault(term, {})[node.id] = packed
    assert {term: dict(posting.items()) for term, posting in index.postings.items()} == model
    for term, holders in model.items():
        assert index.df(term) == len(holders)
        assert index.ordered(term) == sorted(holders, key=lambda i: (-(holders[i] >> 1), i))


def test_numbers_and_counts_too_wide_for_the_narrow_arrays_turn_them_wide():
    far = 2**21  # past the narrow arrays' 20 bits of number
    names = ["n0", "n1", *[""] * (far - 2), "n2"]
    postings = Postings(names, {"n0": 0, "n1": 1, "n2": far})
    postings.add(0, {"a": 5, "b": 5})
    postings.add(1, {"a": 7, "b": 2**13})  # b: a count past 12 bits
    assert postings["a"]._values.typecode == "I" and postings["b"]._values.typecode == "Q"
    postings.add(far, {"a": 1})
    postings.compact()
    assert dict(postings["a"].items()) == {"n0": 5, "n1": 7, "n2": 1} and postings["a"]._values.typecode == "Q"
    assert dict(postings["b"].items()) == {"n0": 5, "n1": 2**13}
    assert postings.remove(1, ["a", "b"]) == []
    assert dict(postings["a"]) == {"n0": 5, "n2": 1} and dict(postings["b"]) == {"n0": 5}
    assert postings.remove(0, ["b"]) == ["b"] and "b" not in postings
