"""A graph part of the wrong shape is refused naming the entry and the rule, never read as holding nothing."""

from __future__ import annotations

import json

import pytest

from kg_actors.storage import shards


def _parse(value: object) -> dict:
    return shards.parse(json.dumps(value).encode(), "shards/user/9/9c.json in 32b3cce05a56")


@pytest.mark.parametrize(("value", "said"), [
    ({"nodes": [{"id": "a"}]}, '"nodes" must be an object of nodes by id, and is a list'),
    ({"nodes": {"a": ["not", "a", "node"]}}, "node 'a' must be an object, and is a list"),
    ({"edges": {"a->b:r": "oops"}}, "edge 'a->b:r' must be an object, and is a string"),
    ({"edges": [{"from": "a", "to": "b"}]}, "edge #1 must name its rel"),
    ({"edges": 3}, '"edges" must be an object of edges by key, and is a number'),
    ({"_meta": {"versions": []}}, '"_meta.versions" must be an object, and is a list'),
])
def test_a_part_of_the_wrong_shape_is_refused_naming_the_file_the_entry_and_the_rule(value, said):
    with pytest.raises(ValueError) as exc:
        _parse(value)
    assert str(exc.value).startswith("shards/user/9/9c.json in 32b3cce05a56 is not a graph's shape: "), exc.value
    assert said in str(exc.value)


def test_a_graph_of_either_layout_reads_as_it_is():
    old = {"nodes": {"a": {"id": "a", "gist": "g"}}, "edges": [{"from": "a", "to": "b", "rel": "r"}], "_meta": {}}
    assert _parse(old) == old
    meta = {"nodes": {}, "edges": {}, "_meta": {"versions": {}, "progress": {}}}
    assert _parse(meta) == meta


def test_an_id_holding_a_secret_is_named_masked():
    token = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"
    with pytest.raises(ValueError) as exc:
        _parse({"nodes": {f"deploy-{token}": []}})
    assert token not in str(exc.value) and "must be an object" in str(exc.value)
