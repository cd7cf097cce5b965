"""The real Codex CLI lists kg's tools for its session however the kg server is when it starts: down (`kg mcp`
starts it) or hung. Codex asks tools/list once per session, with `_meta` in its params; an error for it (what
`kg mcp` gave while it forwarded that request and the server took over a second) left the whole session without
a kg tool, even once the server answered (found by an outside audit of the shim with real clients).

A stand-in for the OpenAI Responses API records the tools each model request carries; no model is called.
"""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from e2e_helpers import KG, kg
from npm_clients import client_env, npm_bin
from other_programs import silent

from kg_actors.testing import ServerProcess, free_port

KG_TOOLS = {"kg_read", "kg_search", "kg_put_node", "kg_put_edge"}  # among the ten; each a name Codex lists
MAX_CALLS = 40  # shell calls a turn makes at most while it waits for kg's tools


def _names(tools: object) -> set[str]:
    """Every tool name in a Responses request's tools (Codex nests an MCP server's under its namespace)."""
    found: set[str] = set()
    for tool in tools if isinstance(tools, list) else []:
        if isinstance(tool, dict):
            found.add(str(tool.get("name")))
            found |= _names(tool.get("tools"))
    return found


@contextmanager
def responses_model() -> Iterator[tuple[str, list[set[str]]]]:
    """A Responses endpoint: it asks for shell calls (each makes another model request) until a request offers kg's
    tools or MAX_CALLS were made, then ends the turn; yields its base URL and the tool names of each request."""
    offered: list[set[str]] = []

    class Answer(http.server.BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (http.server's names)
            body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)) or b"{}")
            if not self.path.endswith("/responses"):
                self.send_response(404)
                self.end_headers()
                return
            offered.append(_names(body.get("tools")))
            calls = sum(isinstance(i, dict) and i.get("type") == "function_call_output" for i in body.get("input", []))
            # The turn goes on until kg's tools are offered (a loaded machine starts `kg mcp` after Codex's first
            # requests: late tools join a later one), bounded by a count.
            done = KG_TOOLS <= offered[-1] or calls >= MAX_CALLS
            item = ({"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                     "content": [{"type": "output_text", "text": "done", "annotations": []}]} if done else
                    {"type": "function_call", "id": f"fc_{calls}", "call_id": f"call_{calls}", "name": "exec_command",
                     "arguments": json.dumps({"cmd": "true"}), "status": "completed"})
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            usage = {"input_tokens": 1, "input_tokens_details": None, "output_tokens": 1,
                     "output_tokens_details": None, "total_tokens": 2}
            for event in ({"type": "response.created", "response": {"id": "resp_1"}},
                          {"type": "response.output_item.done", "output_index": 0, "item": item},
                          {"type": "response.completed", "response": {"id": "resp_1", "usage": usage}}):
                self.wfile.write(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode())
            self.close_connection = True

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Answer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", offered
    finally:
        server.shutdown()
        server.server_close()


def _codex_session(home: Path, model_url: str, kg_env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """One `codex exec` turn with kg's MCP server (`kg mcp`, set to `kg_env`) and the stand-in model."""
    (home / ".codex").mkdir(parents=True, exist_ok=True)
    env_lines = "".join(f'{key} = "{value}"\n' for key, value in kg_env.items())
    (home / ".codex" / "config.toml").write_text(
        'model_provider = "stub"\nmodel = "gpt-5"\n'
        f'[mcp_servers.kg]\ncommand = "{KG}"\nargs = ["mcp"]\n[mcp_servers.kg.env]\n{env_lines}'
        f'[model_providers.stub]\nname = "stub"\nbase_url = "{model_url}"\nwire_api = "responses"\n'
        'env_key = "OPENAI_API_KEY"\nsupports_websockets = false\n')
    work = home / "work"
    work.mkdir(exist_ok=True)
    return subprocess.run([npm_bin("codex"), "exec", "--skip-git-repo-check", "hi"], cwd=work,
                          env=client_env(home, OPENAI_API_KEY="sk-dummy"), capture_output=True, text=True, timeout=120)


def _kg_tools_listed(offered: list[set[str]], run: subprocess.CompletedProcess[str]) -> None:
    assert offered, f"codex never asked the model:\n{run.stderr[-3000:]}"
    # Tools that arrive late join the next request; tools that failed never come: some request must have them.
    assert any(KG_TOOLS <= names for names in offered), (offered, run.stderr[-3000:])


def test_codex_started_with_the_kg_server_down_lists_kg_tools(tmp_path):
    npm_bin("codex")
    fresh = ServerProcess(tmp_path / "cold")  # its store and free ports; not started: `kg mcp` starts it
    kg_env = {"HOME": str(fresh.home), "KG_HOME": str(fresh.store), "KG_HTTP_PORT": str(fresh.port),
              "KG_EDITOR_PORT": str(free_port())}
    try:
        with responses_model() as (url, offered):
            run = _codex_session(tmp_path / "home", url, kg_env)
        _kg_tools_listed(offered, run)
    finally:
        kg(["stop"], dict(os.environ, **kg_env))


def test_codex_started_with_a_hung_kg_server_lists_kg_tools(tmp_path):
    npm_bin("codex")
    with silent() as (port, _), responses_model() as (url, offered):
        run = _codex_session(tmp_path / "home", url, {"KG_HOME": str(tmp_path / "store"), "KG_HTTP_PORT": str(port)})
    _kg_tools_listed(offered, run)

