"""JSON with comments as Gemini reads it, and kg's entries cut out of it with the user's comments kept."""

from __future__ import annotations

import difflib
import json
from pathlib import Path

import pytest

from kg_actors.setup import SetupError, gemini, jsonc, opencode

PATH = Path("/home/u/.gemini/settings.json")
OURS = gemini.wanted(Path("/s/setup/marketplace/kg-memory"), ["/usr/bin/kg"], {"KG_HOME": "/s"})
KG_GROUP = '{"hooks": [{"type": "command", "name": "kg-memory-SessionStart", "command": ' \
           '"sh /s/setup/marketplace/kg-memory/hooks/gemini.sh SessionStart", "timeout": 20000}]}'
KG_SERVER = '{"command": "/usr/bin/kg", "args": ["mcp"], "env": {"KG_HOME": "/s"}}'


def test_comments_are_blanked_outside_strings_only_and_offsets_stay():
    text = '{"url": "http://x//y", /* a\nb */ "n": 1} // end'
    blank = jsonc.blank_comments(text)
    assert len(blank) == len(text) and blank.count("\n") == 1
    assert jsonc.loads(text) == {"url": "http://x//y", "n": 1}


def test_trailing_commas_are_read_as_opencode_reads_them_and_commas_in_strings_stay():
    text = '{"a": [1, 2, /* c */ ], "s": ",}", "t": "\\\\", // end\n}'
    assert json.loads(jsonc.without_trailing_commas(jsonc.blank_comments(text))) == {"a": [1, 2], "s": ",}", "t": "\\"}
    with pytest.raises(ValueError):  # a missing value is no trailing comma
        json.loads(jsonc.without_trailing_commas('{"a": [1, , ]}'))


def test_uninstall_cuts_only_kgs_entries_and_keeps_every_comment():
    settings = f'''// my Gemini settings
{{
  "theme": "dark", // keep me
  "hooks": {{
    /* kg first, mine after */
    "SessionStart": [
      {KG_GROUP},
      {{"hooks": [{{"type": "command", "command": "echo mine"}}]}} // my hook
    ],
    "BeforeAgent": [{KG_GROUP.replace("SessionStart", "BeforeAgent")}]
  }},
  "mcpServers": {{
    "kg": {KG_SERVER}, // kg's
    "other": {{"command": "o"}}
  }}
}}
'''
    out = gemini.removed(settings.encode(), PATH).decode()
    assert out == '''// my Gemini settings
{
  "theme": "dark", // keep me
  "hooks": {
    /* kg first, mine after */
    "SessionStart": [
      {"hooks": [{"type": "command", "command": "echo mine"}]} // my hook
    ]
  },
  "mcpServers": {
    // kg's
    "other": {"command": "o"}
  }
}
''', out
    assert gemini.removed(out.encode(), PATH) is None  # nothing of ours left


def test_a_file_holding_only_kgs_entries_and_comments_keeps_the_comments():
    settings = f'{{\n  // wired by kg setup\n  "hooks": {{"SessionStart": [{KG_GROUP}]}},\n  "mcpServers": {{"kg": {KG_SERVER}}}\n}}\n'
    out = gemini.removed(settings.encode(), PATH).decode()
    assert jsonc.loads(out) == {} and "// wired by kg setup" in out


def test_setup_refuses_to_rewrite_a_file_with_comments_and_reads_it_as_gemini_does():
    settings = b'{\n  // mine\n  "theme": "dark"\n}\n'
    assert gemini.current(settings, PATH) == {"theme": "dark"}
    with pytest.raises(SetupError, match="it holds comments"):
        gemini.merged(settings, OURS, PATH)


OC_PATH = Path("/home/u/.config/opencode/opencode.json")
OC_ENTRY = {"type": "local", "command": ["/usr/bin/kg", "mcp"], "enabled": True}
OPENCODE_LAYOUTS = [
    '{\n  // mine\n  "theme": "x",\n  "mcp": {\n    "other": {"type": "remote"}, // theirs\n  },\n}\n',
    '{\n  // mine\n  "theme": "x" // the last, no comma\n}\n',
    '{\r\n\t/* crlf, tabs */\r\n\t"mcp": {\r\n\t}\r\n}\r\n',
    '{"mcp": {}, /* one line */ "theme": "x",}',
    '// top\n{"mcp": {"a": {"type": "remote"}, "b": {"type": "remote"}}} // after\n',
    '{\n    "mcp": {"a": {"type": "remote"},},\n    // four spaces\n    "theme": "x",\n}',
    '\ufeff{\n  // a BOM before the comments (OpenCode reads it)\n  "theme": "x",\n}\n',
]


@pytest.mark.parametrize("text", OPENCODE_LAYOUTS)
def test_mcp_kg_goes_into_an_opencode_jsonc_file_as_added_text_and_comes_out_the_same(text):
    before, _ = opencode.as_opencode_reads(text.encode(), OC_PATH)
    out = opencode.merged(text.encode(), OC_ENTRY, OC_PATH).decode()
    after, commented = opencode.as_opencode_reads(out.encode(), OC_PATH)
    assert commented and after == {**before, "mcp": {**before.get("mcp", {}), "kg": OC_ENTRY}}
    assert out.count("\r\n") == out.count("\n") if "\r\n" in text else "\r" not in out  # their line ends
    ops = difflib.SequenceMatcher(None, text, out, autojunk=False).get_opcodes()
    assert {op for op, *_ in ops} <= {"equal", "insert"}, out  # text added only: not a byte of theirs changed
    assert opencode.removed(out.encode(), OC_PATH, text.encode(), True) == text.encode(), out


def test_an_older_setups_mcp_kg_in_an_opencode_jsonc_file_is_replaced_not_doubled():
    text = '{\n  // mine\n  "mcp": {\n    "kg": {"type": "local", "command": ["/old/kg", "mcp"]},\n  },\n}\n'
    out = opencode.merged(text.encode(), OC_ENTRY, OC_PATH).decode()
    assert out.count('"kg"') == 1 and "// mine" in out
    assert opencode.as_opencode_reads(out.encode(), OC_PATH)[0] == {"mcp": {"kg": OC_ENTRY}}


def test_text_added_to_a_jsonc_file_is_written_as_typed_in_the_files_shallowest_indent():
    entry = {**OC_ENTRY, "environment": {"KG_HOME": "/home/zoé/kg"}}
    text = '{"a": {\n      "b": 1}, // nested first, deeper\n  "c": [] // mine\n}\n'
    out = opencode.merged(text.encode(), entry, OC_PATH).decode()
    assert "/home/zoé/kg" in out and "\\u00e9" not in out
    assert '"c": [], // mine\n  "mcp": {\n    "kg": {\n      "type": "local",' in out, out
