"""What uninstall says of the MCP server entry named kg (entry_kept.judged, files.changes_said): pure."""

from kg_actors.setup.entry_kept import judged
from kg_actors.setup.files import changes_said

KG = {"command": "/usr/bin/kg", "args": ["mcp"], "env": {"KG_HTTP_PORT": "8765", "KG_EDITOR_PORT": "8766"}}
MINE = {"command": "/usr/bin/kg", "args": ["mcp"], "env": {"KG_HTTP_PORT": "8765", "MY_EXTRA": "1"}, "timeout": 30000}


def test_what_the_user_added_or_changed_is_named_and_not_what_their_entry_only_lacks():
    assert changes_said(MINE, KG) == "env MY_EXTRA, timeout"
    changed = {**KG, "env": {**KG["env"], "KG_HTTP_PORT": "9000"}}
    assert changes_said(changed, KG) == "env KG_HTTP_PORT"


def test_an_entry_that_only_lacks_something_of_setups_says_without_it():
    assert changes_said({**KG, "env": {"KG_HTTP_PORT": "8765"}}, KG) == "without env KG_EDITOR_PORT"
    assert changes_said({"command": "/usr/bin/kg", "args": ["mcp"]}, KG) == "without env"


def test_an_entry_there_before_setup_stays_whether_or_not_it_changed_since():
    assert judged(MINE, KG, KG, "f: mcpServers.kg", before=MINE) == (
        False, "f: mcpServers.kg: yours, there before kg setup: left as it was")
    take, said = judged({**MINE, "timeout": 5}, KG, KG, "f: mcpServers.kg", before=MINE)
    assert not take and said is not None and "before kg setup" in said and "left as it is" in said
    assert judged(KG, KG, KG, "f: mcpServers.kg", before=KG)[0] is False  # kg's very entry, added by hand


def test_an_entry_setup_wrote_and_the_user_changed_is_taken_out_naming_what_they_added():
    take, said = judged(MINE, KG, KG, "f: mcpServers.kg")
    assert take and said == "f: mcpServers.kg: kg's entry, with your changes to it (env MY_EXTRA, timeout), taken out"
    assert judged(KG, KG, KG, "f: mcpServers.kg") == (True, None)
