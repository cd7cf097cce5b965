import re

import pytest

from kg_actors.core import ids
from kg_actors.core.errors import InvalidInput


@pytest.mark.parametrize("value,field_rule", [
    ("", "non-empty"), ("a/b", "path separator"), ("-lead", "start with"), ("x" * 129, "at most 128"),
    ("has space", "letters, digits"), (5, "non-empty string"),
])
def test_bad_node_ids_name_the_field_and_rule(value, field_rule):
    with pytest.raises(InvalidInput) as exc:
        ids.check_node_id(value)
    assert exc.value.field == "id" and field_rule in exc.value.rule


def test_word_count_counts_a_date_as_one_word():
    assert ids.id_words("auth-token-refresh") == 3
    assert ids.id_words("release-2026-09-14-notes") == 3
    assert ids.id_words("a.b_c-d") == 2


def test_seven_words_refused_six_nudged_dates_nudged():
    with pytest.raises(InvalidInput):
        ids.check_new_id_words("one-two-three-four-five-six-seven")
    ids.check_new_id_words("one-two-three-four-five-six")
    assert "6 words" in ids.id_nudge("one-two-three-four-five-six")
    assert "date" in ids.id_nudge("deploy-notes-2026-09")
    assert ids.id_nudge("auth-token-refresh") is None


def test_endpoints_and_rels():
    assert ids.check_endpoint("~/src/a.py", "to") == "~/src/a.py"
    assert ids.is_artifact("src/a.py") and not ids.is_artifact("a-node")
    # An endpoint that cannot be a node id can only name a file.
    assert ids.is_artifact(".env") and ids.is_artifact("_build") and not ids.is_artifact("README.md")
    assert ids.check_endpoint(".github/workflows/ci.yml", "to") == ".github/workflows/ci.yml"
    with pytest.raises(InvalidInput) as exc:
        ids.check_rel("bad rel")
    assert exc.value.field == "rel"
    with pytest.raises(InvalidInput):
        ids.check_endpoint("x" * 257, "from")


@pytest.mark.parametrize("src,dst,what", [
    ("cache-warmup-order", "cache-warmup-order", "node"),
    ("src/app.py", "src/app.py", "file"),
    ("src/app.py", "./src/app.py", "file"),
    ("~/notes/a.md", "~/notes/../notes/a.md", "file"),
    (".env", "./.env", "file"),
])
def test_an_edge_to_itself_is_refused_naming_to_and_from(src, dst, what):
    with pytest.raises(InvalidInput, match=f"^to: '{re.escape(dst)}' is the same {what} as from") as refused:
        ids.check_two_ends(src, dst)
    assert refused.value.field == "to"


@pytest.mark.parametrize("src,dst", [("cache-warmup-order", "cache-warmup"), ("src/app.py", "src/app.pyc"),
                                     ("src/app.py", "lib/app.py"), ("app-py", "./app-py")])
def test_two_different_ends_pass(src, dst):
    ids.check_two_ends(src, dst)
