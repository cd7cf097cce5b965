"""A NaN or an Infinity in a graph file is left out where it stands and named; the node around it is kept."""

from __future__ import annotations

import json

from kg_actors.core import hand_edits, not_finite
from kg_actors.core.records import Node


def test_each_non_finite_number_is_left_out_and_named_where_it_was():
    raw = json.loads('{"nodes": {"a": {"id": "a", "gist": "g", "_useful_ts": [NaN, 5], "_created_ts": Infinity,'
                     ' "extra": {"deep": [-Infinity, 1]}}}, "_meta": {"stamp": NaN}}')
    said = not_finite.left_out(raw)
    assert raw == {"nodes": {"a": {"id": "a", "gist": "g", "_useful_ts": [5], "extra": {"deep": [1]}}}, "_meta": {}}
    assert said == ["'_meta.stamp' held NaN, not a JSON number: left out",
                    "node 'a': _created_ts held Infinity, not a JSON number: left out",
                    "node 'a': _useful_ts[0] held NaN, not a JSON number: left out",
                    "node 'a': extra.deep[0] held -Infinity, not a JSON number: left out"]
    assert not_finite.left_out({"nodes": {"b": {"_created_ts": 1.5}}}) == []


def test_a_time_of_1e999_is_no_time_and_is_named_as_read():
    raw = json.loads('{"b": {"id": "b", "gist": "g", "_created_ts": 1e999, "_gist_ts": [1e999, 7],'
                     ' "_last_read_ts": "1e999"}}')
    node = Node.from_json("b", raw["b"])
    assert node.created_ts is None and node.gist_ts == (7.0,) and node.last_read_ts is None
    assert hand_edits.malformed(raw) == ["node 'b': _created_ts held inf, read as nothing (left out); "
                                         "_gist_ts held [inf, 7], read as [7.0]; "
                                         "_last_read_ts held '1e999', read as nothing (left out)"]
