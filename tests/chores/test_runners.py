"""Runners: their commands checked against the real CLIs' --help, and the process's life with fake binaries."""

import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import trio

from kg_actors.chores import runners
from kg_actors.core.chores import parse_config

NPM = Path(os.environ.get("KG_TEST_NPM") or "/nonexistent") / "node_modules" / ".bin"  # .ci/run sets it


def _help(*argv):
    return subprocess.run(argv, capture_output=True, text=True, timeout=60).stdout


def _flags(argv):
    return [a for a in argv if a.startswith("-") and a != "-"]


@pytest.mark.skipif(not (NPM / "claude").exists(), reason="Claude Code not installed (KG_TEST_NPM)")
def test_claude_flags_exist_in_its_help():
    text = _help(str(NPM / "claude"), "--help")
    argv = runners.command("claude", "claude", parse_config(b'{"model": "sonnet"}'), "chore", "http://127.0.0.1:1/mcp")
    for flag in _flags(argv):
        assert re.search(rf"(^|[ ,]){re.escape(flag)}\b", text, re.M), flag
    assert "dontAsk" in text and "user, project, local" in text
    assert argv[argv.index("--tools") + 1] == ""  # no built-in tool at all
    allowed = argv[argv.index("--allowedTools") + 1].split(",")
    assert allowed == [f"mcp__kg__{t}" for t in runners.CHORE_TOOLS]


def test_the_claude_runner_denies_by_name_every_kg_tool_its_tier_does_not_use():
    from kg_actors.http.schemas import SCHEMAS

    assert sorted(runners.KG_TOOLS) == sorted(SCHEMAS)  # every tool the server serves
    for tier, tools in (("chore", runners.CHORE_TOOLS), ("pass", runners.PASS_TOOLS)):
        argv = runners.command("claude", "claude", parse_config(b"{}"), tier, "http://127.0.0.1:1/mcp")
        denied = set(argv[argv.index("--disallowedTools") + 1].split(","))
        assert denied == {f"mcp__kg__{t}" for t in set(SCHEMAS) - set(tools)} and denied


class _OneToolCallModel:
    """An Anthropic Messages endpoint (SSE) that records the tools each request offers, asks once for kg_read,
    then ends the turn. No model is called."""

    def __init__(self):
        import http.server
        import threading

        offered = self.offered = []

        class Answer(http.server.BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's names)
                body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)))
                tools = [t.get("name") for t in body.get("tools", [])]
                if not tools:  # a side request (a title...): refused, the run goes on
                    self.send_response(400)
                    self.end_headers()
                    return
                offered.append(tools)
                answered = any(c.get("type") == "tool_result" for m in body.get("messages", [])
                               if isinstance(m.get("content"), list) for c in m["content"])
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.end_headers()
                block = {"type": "text", "text": ""} if answered else \
                    {"type": "tool_use", "id": "toolu_1", "name": "mcp__kg__kg_read", "input": {}}
                delta = {"type": "text_delta", "text": "done"} if answered else \
                    {"type": "input_json_delta", "partial_json": "{}"}
                events = [
                    ("message_start", {"type": "message_start", "message": {
                        "id": "msg_1", "type": "message", "role": "assistant", "model": body.get("model"),
                        "content": [], "stop_reason": None, "usage": {"input_tokens": 1, "output_tokens": 1}}}),
                    ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}),
                    ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
                    ("content_block_stop", {"type": "content_block_stop", "index": 0}),
                    ("message_delta", {"type": "message_delta", "usage": {"output_tokens": 1},
                                       "delta": {"stop_reason": "end_turn" if answered else "tool_use"}}),
                    ("message_stop", {"type": "message_stop"})]
                for name, data in events:
                    self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Answer)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.mark.skipif(not (NPM / "claude").exists(), reason="Claude Code not installed (KG_TEST_NPM)")
def test_the_real_claude_shows_the_model_only_the_chores_kg_tools(tmp_path):
    """Audit: --allowedTools only pre-approved the chore's tools; the model was shown all ten and spent turns on
    calls that were denied."""
    from kg_actors.testing import ServerProcess

    srv = ServerProcess(tmp_path / "kg").start("--no-editor")
    model = _OneToolCallModel()
    try:
        argv = runners.command("claude", str(NPM / "claude"), parse_config(b"{}"), "chore", srv.url + "/mcp")
        env = runners.chore_env({"PATH": os.environ["PATH"], "HOME": str(srv.home),
                                 "ANTHROPIC_BASE_URL": model.url, "ANTHROPIC_API_KEY": "sk-ant-fake"}, "claude")
        subprocess.run(argv, input="one chore", capture_output=True, text=True, env=env, cwd=srv.store,
                       timeout=120)
    finally:
        model.server.shutdown()
        srv.kill()
    assert model.offered, "the model was never asked"
    assert all(sorted(tools) == sorted(f"mcp__kg__{t}" for t in runners.CHORE_TOOLS) for tools in model.offered)


@pytest.mark.skipif(not (NPM / "codex").exists(), reason="Codex not installed (KG_TEST_NPM)")
def test_codex_flags_exist_in_its_help():
    text = _help(str(NPM / "codex"), "exec", "--help")
    argv = runners.command("codex", "codex", parse_config(b'{"codex_model": "gpt-5"}'), "pass", "http://h/mcp")
    for flag in _flags(argv):
        assert re.search(rf"(^|[ ,]){re.escape(flag)}\b", text, re.M), flag
    assert argv[1] == "exec" and "--ephemeral" in argv and argv[argv.index("-s") + 1] == "read-only"
    assert "shell_tool" in _help(str(NPM / "codex"), "features", "list")
    tools = [a for a in argv if "enabled_tools" in a][0]
    assert json.loads(tools.split("=", 1)[1]) == list(runners.PASS_TOOLS)
    assert argv[-1] == "-"  # the prompt is read from stdin


def test_env_drops_the_launching_identity():
    env = runners.chore_env({"PATH": "/bin", "CLAUDECODE": "1", "CLAUDE_CODE_ENTRYPOINT": "cli", "AI_AGENT": "x",
                             "CODEX_THREAD_ID": "t", "CODEX_HOME": "/h", "HOME": "/home/u"}, "codex")
    assert env == {"PATH": "/bin", "CODEX_HOME": "/h", "HOME": "/home/u", "KG_CHORE": "1"}


def test_a_run_carries_its_own_mark_never_an_inherited_one():
    """The mark lets the server count a run's kg calls (its MCP URL, and `kg mcp` through the environment)."""
    inherited = {"PATH": "/bin", "KG_CHORE_RUN": "an-older-runs-mark"}
    assert "KG_CHORE_RUN" not in runners.chore_env(inherited, "antigravity")
    assert runners.chore_env(inherited, "antigravity", "m1")["KG_CHORE_RUN"] == "m1"
    assert runners.marked_url("http://127.0.0.1:9/mcp", "m1") == "http://127.0.0.1:9/mcp?kg_run=m1"


SERVER_ENV = {
    "PATH": "/bin", "HOME": "/home/u", "USER": "u", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm",
    "XDG_CONFIG_HOME": "/home/u/.config", "HTTPS_PROXY": "http://proxy:3128", "SSL_CERT_FILE": "/etc/ca.pem",
    "NODE_EXTRA_CA_CERTS": "/etc/ca.pem", "KG_HOME": "/store", "KG_SESSION_ID": "abc",
    "GITHUB_TOKEN": "ghp_x", "AWS_SECRET_ACCESS_KEY": "aws-x", "NODE_AUTH_TOKEN": "npm-x", "DATABASE_URL": "pg://x",
    "ANTHROPIC_API_KEY": "sk-ant-x", "CLAUDE_CONFIG_DIR": "/home/u/.claude", "OPENAI_API_KEY": "sk-x",
    "CODEX_HOME": "/home/u/.codex", "GEMINI_API_KEY": "g-x",
}


def test_a_run_gets_an_allow_list_of_the_servers_environment_and_its_own_providers_settings_only():
    """Audit: the chore agent got the server's whole environment (GITHUB_TOKEN, AWS and OpenAI keys...)."""
    basics = {"PATH", "HOME", "USER", "LANG", "LC_ALL", "TERM", "XDG_CONFIG_HOME", "HTTPS_PROXY", "SSL_CERT_FILE",
              "NODE_EXTRA_CA_CERTS", "KG_HOME", "KG_CHORE"}
    assert set(runners.chore_env(SERVER_ENV, "claude")) == basics | {"ANTHROPIC_API_KEY", "CLAUDE_CONFIG_DIR"}
    assert set(runners.chore_env(SERVER_ENV, "codex")) == basics | {"OPENAI_API_KEY", "CODEX_HOME"}
    assert set(runners.chore_env(SERVER_ENV, "antigravity")) == basics | {"GEMINI_API_KEY"}


def test_missing_or_not_executable_binary_is_a_refusal(tmp_path):
    assert "missing" in runners.binary_problem(None, "claude")
    assert "missing" in runners.binary_problem(str(tmp_path / "nope"), "codex")
    plain = tmp_path / "claude"
    plain.write_text("#!/bin/sh\n")
    assert "not executable" in runners.binary_problem(str(plain), "claude")
    plain.chmod(0o755)
    assert runners.binary_problem(str(plain), "claude") is None


def _script(path: Path, body: str) -> str:
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return str(path)


def test_a_run_gets_stdin_cwd_env_and_its_output_is_drained(tmp_path):
    rec = tmp_path / "rec"
    binary = _script(tmp_path / "claude", f'cat > {rec}.stdin; pwd > {rec}.cwd; env > {rec}.env\n'
                     'i=0; while [ $i -lt 2000 ]; do echo "line $i of output that fills the pipe"; i=$((i+1)); done\n'
                     'exit 3\n')
    cwd = tmp_path / "store"
    cwd.mkdir()
    result = trio.run(runners.run, [binary, "-p"], b"do one thing", cwd, runners.chore_env({"PATH": os.defpath}, "claude"), 30.0)
    assert result.rc == 3 and not result.timed_out and result.output.endswith("line 1999 of output that fills the pipe\n")
    assert len(result.output) == runners.OUTPUT_TAIL
    assert Path(f"{rec}.stdin").read_text() == "do one thing"
    assert Path(f"{rec}.cwd").read_text().strip() == str(cwd)
    assert "KG_CHORE=1" in Path(f"{rec}.env").read_text()


def test_a_hanging_run_is_killed_with_its_children(tmp_path):
    pids = tmp_path / "pids"
    # The agent ignores SIGTERM and leaves a child that sleeps: both must be gone after the run.
    binary = _script(tmp_path / "codex", f"trap '' TERM; sleep 300 & echo $! > {pids}; echo $$ >> {pids}; wait\n")
    result = trio.run(runners.run, [binary], b"", tmp_path, {"PATH": os.defpath}, 1.0, 0.5)
    assert result.timed_out and result.rc == -9
    child, agent = map(int, pids.read_text().split())
    # Both died with the group (the leash, our child, is reaped). SIGKILL is queued at once but a busy machine
    # may run a killed process a moment longer before it is a zombie: wait for that, boundedly.
    assert _gone_soon(agent) and _gone_soon(child)


def _gone_soon(pid, tries=500):
    for _ in range(tries):  # up to ~5 s of polls; a process still alive after that was not killed
        if _gone(pid):
            return True
        time.sleep(0.01)
    return False


def _gone(pid):
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def test_a_binary_that_cannot_start_is_an_error_not_a_crash(tmp_path):
    result = trio.run(runners.run, [str(tmp_path / "gone")], b"", tmp_path, {}, 5.0)
    assert result.rc is None and "could not start" in result.error


def test_auto_runner_prefers_the_sessions_own_harness(tmp_path):
    for name in ("claude", "codex"):
        _script(tmp_path / name, "exit 0\n")
    env = {"PATH": str(tmp_path)}
    cfg = parse_config(None)
    assert runners.pick_runner(cfg, "codex", env) == "codex"
    assert runners.pick_runner(cfg, None, env) == "claude"
    # A `*_bin` says where that harness's binary is: it does not make another harness's session run it.
    assert runners.pick_runner(parse_config(b'{"codex_bin": "/x/codex"}'), "claude", env) == "claude"
    both = parse_config(b'{"codex_bin": "/x/codex", "claude_bin": "/x/claude"}')
    assert runners.pick_runner(both, "codex", env) == "codex" and runners.pick_runner(both, "claude", env) == "claude"
    assert runners.pick_runner(parse_config(b'{"codex_bin": "/x/codex"}'), None, env) == "codex"  # no own runner
    assert runners.pick_runner(parse_config(b'{"runner": "codex"}'), "claude", env) == "codex"  # pinned
    assert shutil.which("claude", path=env["PATH"]) == runners.find_binary("claude", cfg, env)


def test_a_claude_run_keeps_how_claude_code_signs_in_and_the_clouds_credentials_only_when_it_routes_through_one():
    """Audit: CLAUDE_CODE_* went as the launching session's identity, USE_BEDROCK and the OAuth token with it."""
    bedrock = {**SERVER_ENV, "CLAUDE_CODE_USE_BEDROCK": "1", "AWS_REGION": "us-east-1", "AWS_PROFILE": "dev",
               "CLAUDE_CODE_ENTRYPOINT": "cli", "CLAUDE_CODE_OAUTH_TOKEN": "oat-x", "CLOUD_ML_REGION": "us-east5"}
    env = runners.chore_env(bedrock, "claude")
    assert {"CLAUDE_CODE_USE_BEDROCK", "AWS_REGION", "AWS_PROFILE", "AWS_SECRET_ACCESS_KEY",
            "CLAUDE_CODE_OAUTH_TOKEN"} <= set(env)
    assert "CLAUDE_CODE_ENTRYPOINT" not in env and "CLOUD_ML_REGION" not in env and "GITHUB_TOKEN" not in env
    vertex = runners.chore_env({**SERVER_ENV, "CLAUDE_CODE_USE_VERTEX": "1", "CLOUD_ML_REGION": "us-east5",
                                "GOOGLE_APPLICATION_CREDENTIALS": "/k.json", "AWS_REGION": "us-east-1"}, "claude")
    assert {"CLAUDE_CODE_USE_VERTEX", "CLOUD_ML_REGION", "GOOGLE_APPLICATION_CREDENTIALS"} <= set(vertex)
    assert "AWS_REGION" not in vertex and "AWS_SECRET_ACCESS_KEY" not in vertex
    for said in ("0", "no", "OFF", "False", ""):  # Claude Code takes 1, true, yes, on only
        off = runners.chore_env({**SERVER_ENV, "CLAUDE_CODE_USE_BEDROCK": said}, "claude")
        assert "AWS_SECRET_ACCESS_KEY" not in off, said
    foundry = runners.chore_env({**SERVER_ENV, "CLAUDE_CODE_USE_FOUNDRY": "1", "AZURE_CLIENT_ID": "c",
                                 "AZURE_TENANT_ID": "t", "AZURE_CLIENT_SECRET": "s", "CLAUDE_CODE_CLIENT_CERT": "/c.pem",
                                 "CLAUDE_CODE_CLIENT_KEY": "/k.pem", "CLAUDE_CODE_OAUTH_REFRESH_TOKEN": "r"}, "claude")
    assert {"CLAUDE_CODE_USE_FOUNDRY", "AZURE_CLIENT_ID", "AZURE_TENANT_ID", "AZURE_CLIENT_SECRET",
            "CLAUDE_CODE_CLIENT_CERT", "CLAUDE_CODE_CLIENT_KEY", "CLAUDE_CODE_OAUTH_REFRESH_TOKEN"} <= set(foundry)
    assert "AZURE_CLIENT_SECRET" not in runners.chore_env({**SERVER_ENV, "AZURE_CLIENT_SECRET": "s"}, "claude")
    opted_out = {"DISABLE_TELEMETRY": "1", "DISABLE_ERROR_REPORTING": "1", "API_TIMEOUT_MS": "600000",
                 "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "MAX_THINKING_TOKENS": "1024"}
    assert set(opted_out) <= set(runners.chore_env({**SERVER_ENV, **opted_out}, "claude"))  # the user's opt-outs go too
    codex = runners.chore_env(bedrock, "codex")  # another runner: none of Claude Code's, nor the cloud's
    assert "CLAUDE_CODE_USE_BEDROCK" not in codex and "AWS_REGION" not in codex
