"""Taking setup's emptied `[hooks.state]` table out of a Codex config.toml, and only an empty one."""

from __future__ import annotations

from kg_actors.setup.codex import had_trust_table, without_empty_table


def test_an_empty_table_is_taken_out_between_tables_and_at_the_end():
    middle = '# mine\nmodel = "o3"\n\n[hooks.state]\n\n[mcp_servers.mine]\ncommand = "true"\n'
    assert without_empty_table(middle, "hooks.state") == '# mine\nmodel = "o3"\n\n[mcp_servers.mine]\ncommand = "true"\n'
    last = 'model = "o3"\n\n[hooks.state]\n'
    assert without_empty_table(last, "hooks.state") == 'model = "o3"\n'


def test_a_table_holding_anything_or_absent_is_left():
    held = '[hooks.state]\n"other:hook" = { trusted_hash = "x" }\n'
    assert without_empty_table(held, "hooks.state") is None
    assert without_empty_table('model = "o3"\n', "hooks.state") is None
    # `[hooks]` of the user's own, with a key: it stays, only the empty state table goes.
    mine = '[hooks]\nenabled = true\n\n[hooks.state]\n'
    assert without_empty_table(mine, "hooks.state") == '[hooks]\nenabled = true\n'


def test_whether_the_config_had_the_table_before_setup():
    assert not had_trust_table(None) and not had_trust_table(b'model = "o3"\n')
    assert had_trust_table(b"[hooks.state]\n") and had_trust_table(b"not = [toml")


def test_a_bare_header_above_the_tables_own_sub_tables_goes_and_the_sub_tables_stay():
    theirs = '[hooks.state."someone@else:hooks/hooks.json:session_start:0:0"]\ntrusted_hash = "sha256:abc"\n'
    text = 'model = "o3"\n\n[hooks.state]\n\n' + theirs
    assert without_empty_table(text, "hooks.state", drop=False) == 'model = "o3"\n\n' + theirs
    # The user's table, empty: kept unless setup made it.
    assert without_empty_table('model = "o3"\n\n[hooks.state]\n', "hooks.state", drop=False) is None
