import json

from kg_actors.setup.recorded_env import recorded_ports


def _plugin(tmp_path, env):
    mcp = tmp_path / "kg-memory" / ".mcp.json"
    mcp.parent.mkdir()
    mcp.write_text(json.dumps({"mcpServers": {"kg": {"command": "kg", "env": env}}}))
    return mcp


def test_the_ports_setup_wrote_fill_only_what_the_environment_leaves_unset(tmp_path):
    mcp = _plugin(tmp_path, {"KG_HOME": "/s", "KG_HTTP_PORT": "33571", "KG_EDITOR_PORT": "33572"})
    assert recorded_ports(tmp_path, {}) == ({"KG_HTTP_PORT": "33571", "KG_EDITOR_PORT": "33572"}, mcp)
    assert recorded_ports(tmp_path, {"KG_HTTP_PORT": "9000"}) == ({"KG_EDITOR_PORT": "33572"}, mcp)
    assert recorded_ports(tmp_path, {"KG_HTTP_PORT": "1", "KG_EDITOR_PORT": "2"}) == ({}, None)


def test_no_plugin_or_a_torn_one_records_nothing(tmp_path):
    assert recorded_ports(tmp_path / "missing", {}) == ({}, None)
    (tmp_path / "kg-memory").mkdir()
    (tmp_path / "kg-memory" / ".mcp.json").write_text("{torn")
    assert recorded_ports(tmp_path, {}) == ({}, None)


def test_a_plugin_file_that_is_a_fifo_records_nothing_and_is_not_waited_on(tmp_path):
    import os

    (tmp_path / "kg-memory").mkdir()
    os.mkfifo(tmp_path / "kg-memory" / ".mcp.json")
    assert recorded_ports(tmp_path, {}) == ({}, None)
