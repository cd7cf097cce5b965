"""The fast indent=2 writer writes exactly what json.dumps(indent=2, ensure_ascii=False) writes."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from kg_actors.storage.files import dump_json

leaves = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text()
values = st.recursive(leaves, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                      max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(values)
def test_same_bytes_as_json_dumps(value):
    assert dump_json(value) == json.dumps(value, ensure_ascii=False, indent=2).encode("utf-8")


def test_same_bytes_on_a_graph_with_awkward_text():
    graph = {"nodes": {"a": {"id": "a", "gist": "é \u2028 \"q\" \n\t\\ 😀", "notes": [], "x": {},
                             "_ts": 1e-7, "n": -3, "b": True, "z": None, "deep": [[1, {"k": []}]]}},
             "edges": {}, "_meta": {"versions": {"node:a": {"v": 1, "ts": 1796000000.123456}}}}
    assert dump_json(graph) == json.dumps(graph, ensure_ascii=False, indent=2).encode("utf-8")
    assert dump_json(graph, indent=None) == json.dumps(graph, ensure_ascii=False).encode("utf-8")
