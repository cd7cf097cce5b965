"""kg-memory 0.17 (the reference) holds kg's port, as after a user moves from it without stopping it: every
command names it and says how to stop it; none takes its /health for ours, none crashes on its fields, and
`kg mcp` never quietly serves the agent from it."""

from __future__ import annotations

import os

from e2e_helpers import kg
from other_programs import kg_memory_like
from test_shim import INITIALIZE, RawShim, _jsonrpc_lines, _request

from kg_actors.server_probe import OtherServer, probe_health
from kg_actors.testing import free_port


def _env(tmp_path, port: int) -> dict:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return dict(os.environ, HOME=str(home), KG_HOME=str(tmp_path / "store"), KG_HTTP_PORT=str(port),
                KG_EDITOR_PORT=str(free_port()))


def test_status_doctor_start_and_stop_name_kg_memory_and_how_to_stop_it(tmp_path):
    with kg_memory_like() as port:
        env = _env(tmp_path, port)
        status, doctor, start, stop = (kg([cmd], env) for cmd in ("status", "doctor", "start", "stop"))
        assert probe_health(f"http://127.0.0.1:{port}") is not None  # still up: nothing here stopped it
    held = f"the port {port} is held by kg-memory 0.17.0 (pid {os.getpid()}), another memory server, not this kg's"
    fix = f"stop it with its own `kg stop` (kg-memory's kg, not this one), or `kill {os.getpid()}`"
    for out in (status, doctor, start, stop):
        assert "Traceback" not in out.stderr, out.stderr
    assert status.returncode == 3 and held in status.stdout and fix in status.stdout, status.stdout
    assert doctor.returncode == 1 and f"FAIL  port: 127.0.0.1:{port}: {held}" in doctor.stdout, doctor.stdout
    assert f"fix: {fix}" in doctor.stdout and "kg stop && kg start" not in doctor.stdout, doctor.stdout
    assert start.returncode == 1 and f"kg: not started: {held}: {fix}" in start.stderr, start.stdout + start.stderr
    assert not (tmp_path / "store" / "server.pid").exists()
    assert stop.returncode == 1 and f"kg: not stopping it: {held}: {fix}" in stop.stderr, stop.stdout + stop.stderr


def test_a_health_of_another_shape_is_never_taken_for_kgs_whatever_its_fields_hold():
    cases = [({"loaded_graphs": 2, "transport": "streamable-http", "version": "0.17.0"}, "kg-memory 0.17.0"),
             ({"loaded_graphs": 2, "transport": "streamable-http", "version": ["x"]}, "kg-memory (version unknown)"),
             ({"loaded_graphs": ["user"], "storage": 5, "version": "0.1.0"}, "another program"),
             ({"loaded_graphs": ["user", 3], "storage": "/s", "version": "0.1.0"}, "another program"),
             ({"loaded_graphs": ["user"], "storage": "/s", "version": "0.1.0", "editor": "up"}, "another program"),
             ({"status": "ok"}, "another program")]
    for health, name in cases:
        other = OtherServer(health, None)
        assert other.name == name and other.pid is None, health
    assert OtherServer({"pid": 42}, None).pid == 42 and OtherServer({"pid": "42"}, None).pid is None


def test_kg_mcp_refuses_to_serve_the_agent_from_kg_memory_and_says_so(tmp_path):
    with kg_memory_like() as port:
        shim = RawShim(_env(tmp_path, port))
        shim.send(INITIALIZE)
        shim.send(_request(2, "tools/call", {"name": "kg_read", "arguments": {"cwd": str(tmp_path)}}))
        by_id = _jsonrpc_lines(shim.finish())
    assert set(by_id) == {1, 2}, "every request gets a reply"
    # The handshake is the shim's own (the client's start goes on); the call, which needs the memory, is refused.
    assert by_id[1]["result"]["serverInfo"]["name"] == "kg-memory", by_id[1]
    for msg in [by_id[2]]:
        text = msg["error"]["message"]
        assert f"127.0.0.1:{port} is kg-memory 0.17.0" in text and "kg-memory's kg, not this one" in text, text
