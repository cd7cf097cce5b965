"""The store a kg entry in an agent's file was set up with, read from the entry itself."""

from __future__ import annotations

from pathlib import Path

from kg_actors.setup.leftovers import elsewhere, stores_named


def test_the_store_is_read_from_the_plugin_folder_or_the_entrys_environment():
    assert stores_named('[marketplaces.kg-local]\nsource = "/a/setup/marketplace"\n') == {"/a"}
    assert stores_named('"command": "sh /b/setup/marketplace/kg-memory/hooks/gemini.sh BeforeAgent"') == {"/b"}
    assert stores_named('{"env": {"KG_HOME": "/c", "KG_HTTP_PORT": "1"}}') == {"/c"}
    assert stores_named('{"mcpServers": {"other": {"command": "x"}}}') == set()


def test_only_other_stores_are_named_with_their_files(tmp_path):
    mine, theirs, none = tmp_path / "mine.json", tmp_path / "theirs.json", tmp_path / "absent.json"
    mine.write_text('{"env": {"KG_HOME": "/here"}}')
    theirs.write_text('{"env": {"KG_HOME": "/there"}}')
    assert elsewhere([mine, theirs, none], Path("/here")) == {"/there": [theirs]}


def test_a_store_whose_path_has_spaces_or_escaped_letters_is_named_whole():
    settings = '{"hooks": {"BeforeAgent": [{"command": "sh \'/h/home 14 \\u00fc/.knowledge-graph/setup/marketplace/kg-memory/hooks/gemini.sh\' BeforeAgent"}]}}'
    assert stores_named(settings) == {"/h/home 14 ü/.knowledge-graph"}
    toml = '[marketplaces.kg-local]\nsource = "/h/home 14 \\u00fc/.knowledge-graph/setup/marketplace"\n'
    assert stores_named(toml) == {"/h/home 14 ü/.knowledge-graph"}
    assert stores_named('{"mcpServers": {"kg": {"env": {"KG_HOME": "/h/my store"}}}}') == {"/h/my store"}
