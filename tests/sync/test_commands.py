"""`kg commit` / `kg sync` / `kg restore` through a running server: what they make of its answer."""

from kg_actors.sync.commands import _answer


def test_a_json_object_is_the_answer():
    assert _answer(b'{"committed": true, "commit": "abc"}', "HTTP 200") == {"committed": True, "commit": "abc"}


def test_anything_else_is_an_error_naming_the_status_and_the_body():
    for raw in (b"[1, 2]", b"7", b"<html>busy</html>", b""):
        out = _answer(raw, "HTTP 502")
        assert set(out) == {"error"}, raw
        assert out["error"].startswith("HTTP 502 with a body that is not a JSON object"), out
        assert repr(raw[:120]) in out["error"]
