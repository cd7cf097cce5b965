"""The fast indent=2 writer writes exactly what json.dumps(indent=2, ensure_ascii=False) writes."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from kg_actors.storage import files
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


def test_a_number_past_a_floats_range_is_noted_as_no_json_number(tmp_path):
    # json reads 1e999 as infinity without calling parse_constant: the builder was told nothing and kept it.
    noted = []
    for text, flagged in (('{"a": 1e999}', True), ('{"a": [-2.5E+400]}', True), ('{"a": NaN}', True),
                          ('{"a": 1.5e300, "b": 10, "c": "1e999"}', False)):
        path = tmp_path / "g.json"
        path.write_text(text)
        files.parse(path, lambda value, reading: noted.append(reading.not_finite) or value)
        assert noted[-1] is flagged, text
