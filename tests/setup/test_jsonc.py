"""JSON with comments as Gemini reads it, and kg's entries cut out of it with the user's comments kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg_actors.setup import SetupError, gemini, jsonc

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
