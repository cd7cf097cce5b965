"""surely_fits: a True is jsonschema's True on the tools' schemas; the calls tools get fit without jsonschema."""

import jsonschema
from hypothesis import given, settings
from hypothesis import strategies as st

from kg_actors.core.schema_fit import surely_fits
from kg_actors.http.schemas import SCHEMAS, validation_error

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 300), st.sampled_from([0.0, 1.0, 2.5]),
    st.text(max_size=3), st.sampled_from(["", "user", "project", "maintain", "x" * 64, "x" * 65, "x" * 129]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner,
                                                                                              max_size=2), max_leaves=6)
# One call per tool as agents make them: each example changes, adds or drops one of its fields.
CALLS = {
    "kg_read": {"cwd": "/home/u/p", "more": False},
    "kg_search": {"query": "auth token", "session_id": "abc"},
    "kg_put_node": {"session_id": "s", "level": "project", "id": "a-b-c", "gist": "g", "notes": ["n"],
                    "touches": ["src/a.py:1-2 (f)"]},
    "kg_put_edge": {"session_id": "s", "level": "user", "from": "a", "to": "b", "rel": "uses", "notes": []},
    "kg_rename_node": {"session_id": "s", "old_id": "a", "new_id": "b"},
    "kg_delete_node": {"session_id": "s", "id": "a"},
    "kg_delete_edge": {"session_id": "s", "from": "a", "to": "b", "rel": "uses"},
    "kg_useful": {"session_id": "s", "ids": ["a"], "credits": 2},
    "kg_sync": {"session_id": "s"},
    "kg_progress": {"session_id": "s", "task_id": "t", "state": {"any": [1, {"x": None}]}, "level": "user"},
}


@st.composite
def near_calls(draw):
    tool = draw(st.sampled_from(sorted(CALLS)))
    arguments = dict(CALLS[tool])
    for _ in range(draw(st.integers(1, 2))):
        name = draw(st.sampled_from(sorted(SCHEMAS[tool]["properties"]) + ["extra"]))
        if draw(st.booleans()) and name in arguments:
            del arguments[name]
        else:
            arguments[name] = draw(VALUES | st.lists(SCALARS, max_size=60))
    return tool, arguments


@settings(max_examples=1500, deadline=None)
@given(near_calls())
def test_a_sure_fit_is_a_fit_to_jsonschema(call):
    tool, arguments = call
    errors = list(jsonschema.Draft202012Validator(SCHEMAS[tool]).iter_errors(arguments))
    if surely_fits(SCHEMAS[tool], arguments):
        assert errors == []


def test_calls_as_agents_make_them_fit_without_jsonschema():
    assert sorted(CALLS) == sorted(SCHEMAS)
    for tool, arguments in CALLS.items():
        assert surely_fits(SCHEMAS[tool], arguments) is True, tool
        assert validation_error(tool, arguments) is None


def test_what_does_not_surely_fit_is_worded_by_jsonschema():
    for tool, arguments in (("kg_useful", {"session_id": "s", "ids": ["a"], "credits": True}),
                            ("kg_sync", {"session_id": "x" * 65}), ("kg_useful", {"session_id": "s", "ids": []}),
                            ("kg_read", {"ids": ["a", 1]}), ("kg_read", {"level": "team"})):
        assert surely_fits(SCHEMAS[tool], arguments) is None
        assert validation_error(tool, arguments) is not None
    assert surely_fits(SCHEMAS["kg_useful"], {"session_id": "s", "ids": ["a"], "credits": 1.0}) is None
    assert validation_error("kg_useful", {"session_id": "s", "ids": ["a"], "credits": 1.0}) is None  # 1.0 is an integer
    assert validation_error("kg_read", {"more": "yes"}) == 'more: "yes" is not a boolean (true or false)'
    assert validation_error("kg_search", {}) == "query: is required"
    assert validation_error("kg_read", {"cwd": "/p", "bogus": 1}) == "bogus: is not a parameter of kg_read"
    assert validation_error("kg_put_node", {"session_id": "s", "level": "team", "id": "a", "gist": "g"}) == (
        'level: "team" is not one of ["user", "project", "maintain"]')
