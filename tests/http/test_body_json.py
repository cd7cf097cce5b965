"""Lone surrogates: mended in a body at large, left in a tool call's arguments for the tool boundary to refuse,
and named by their path when refused."""

import json

from kg_actors.http import body_json


def test_a_tool_call_keeps_its_arguments_halves_for_the_refusal_and_the_rest_is_mended():
    raw = (b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "kg_\\ud800put", '
           b'"arguments": {"gist": "a \\ud83d b"}}}')
    out = body_json.mend(raw)
    out.decode("ascii")  # json.dumps escapes what is left: the body still encodes
    value = json.loads(out)
    assert value["params"]["name"] == "kg_\ufffdput" and value["params"]["arguments"]["gist"] == "a \ud83d b"
    assert json.loads(body_json.mend(b'{"prompt": "a \\ud83d b"}'))["prompt"] == "a \ufffd b"


def test_a_half_character_is_named_by_its_path():
    assert body_json.half_character({"gist": "whole \U0001F600", "notes": ["fine"]}) is None
    found = body_json.half_character({"gist": "ok", "notes": ["ok", "a\ud83d"]})
    assert str(found).startswith("notes[1]: holds half of a character (U+D83D, a lone surrogate")
    found = body_json.half_character({"state": {"log": ["x", {"k\udc80": 1}]}})
    assert found is not None and found.field == "state.log[1].k\ufffd"
    str(found).encode()  # the refusal itself encodes


def test_a_utf8_bom_is_dropped_and_utf16_or_32_refused_naming_the_rule():
    assert body_json.utf8_body(b'\xef\xbb\xbf{"a": 1}') == (b'{"a": 1}', None)
    assert body_json.utf8_body(b'{"a": 1}') == (b'{"a": 1}', None)
    for encoding in ("utf-16", "utf-16-le", "utf-32"):
        body, why = body_json.utf8_body('{"a": 1}'.encode(encoding))
        assert why is not None and "not UTF-8" in why and encoding[:6].upper() in why, why
