"""A schema problem names its rule however long the value: the value is previewed, never the rule cut."""

from kg_actors.core.schema_words import PREVIEW_MAX, cut_message, preview, rule_words
from kg_actors.http.schemas import validation_error

PUT = {"session_id": "s", "level": "project", "id": "many-notes-node2", "gist": "g"}


def test_long_values_keep_their_rule():
    cases = [
        ("kg_put_node", {**PUT, "touches": [f"src/f{i}.py" for i in range(201)]},
         "touches: has 201 items; at most 200"),
        ("kg_read", {"session_id": "s", "ids": [f"node-{i}" for i in range(201)]}, "ids: has 201 items; at most 200"),
        ("kg_useful", {"session_id": "s", "ids": [f"node-{i}" for i in range(51)]}, "ids: has 51 items; at most 50"),
        ("kg_search", {"query": "q" * 4_001}, "query: has 4,001 characters; at most 4,000"),
        ("kg_sync", {"session_id": "x" * 65}, "session_id: has 65 characters; at most 64"),
    ]
    for tool, arguments, expected in cases:
        problem = validation_error(tool, arguments)
        assert problem is not None and problem.startswith(expected), problem
        assert len(problem) < len(expected) + PREVIEW_MAX + 20, problem  # the value is a preview, not echoed


def test_a_node_s_notes_over_the_most_it_keeps_get_advice_not_the_bare_count():
    problem = validation_error("kg_put_node", {**PUT, "notes": [f"n{i}" for i in range(201)]})
    assert problem is not None and problem.startswith("notes: has 201 items; at most 200, the most notes a node keeps")
    assert "fold related notes" in problem and "split the subject into linked nodes" in problem
    assert "n200" not in problem  # the advice, not the value


def test_each_keyword_the_schemas_use_is_worded():
    vote = {"session_id": "s", "ids": ["a"]}
    assert validation_error("kg_useful", {**vote, "ids": []}) == "ids: is empty; at least 1 item"
    assert validation_error("kg_search", {"query": ""}) == "query: is empty; at least 1 character"
    assert validation_error("kg_useful", {**vote, "credits": 7}) == "credits: 7 is more than the maximum of 3"
    assert validation_error("kg_useful", {**vote, "credits": 0}) == "credits: 0 is less than the minimum of 1"
    assert validation_error("kg_useful", {**vote, "credits": "2"}) == 'credits: "2" is not an integer'
    assert validation_error("kg_read", {"ids": ["a", 1]}) == "ids[1]: 1 is not a string"  # as the store names an item
    assert validation_error("kg_read", {"ids": ["a", ""]}) == "ids[1]: is empty; at least 1 character"
    assert validation_error("kg_read", {"ids": ["a", "  "]}) == 'ids[1]: "  " is blank; it needs a character other than a space'
    assert validation_error("kg_read", {"ids": ["a", " b "]}) is None  # looked up as sent (not found, said so)
    long_level = validation_error("kg_put_node", {**PUT, "level": "x" * 5_000})
    assert long_level is not None and long_level.endswith('is not one of ["user", "project", "maintain"]')
    assert len(long_level) < 150


def test_preview_and_the_fallback_cut_keep_the_end():
    assert preview("short") == '"short"'
    assert preview("x" * 500) == '"' + "x" * (PREVIEW_MAX - 1) + "…"
    assert preview(list(range(100))).startswith("[0, 1, 2") and len(preview(list(range(100)))) == PREVIEW_MAX + 1
    assert rule_words("uniqueItems", True, [1, 1]) is None  # not a keyword of ours: jsonschema's message, cut
    message = "[" + "1, " * 500 + "1] has non-unique elements"
    cut = cut_message(message)
    assert len(cut) <= 200 and cut.endswith("has non-unique elements") and cut.startswith("[1, 1")
    assert cut_message("short message") == "short message"
    assert rule_words("type", ["string", "null"], 3) == "3 is not a string or null"
    assert rule_words("pattern", "^a", "b") == '"b" does not match the pattern "^a"'
