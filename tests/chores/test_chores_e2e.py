"""A real `kg serve` with chores on: a human prompt dispatches a chore to a fake `claude` on PATH that records
what it was given and acts through the real MCP tools; the next prompt is refused for spacing, with the reason."""

import json
import os
import re
import sys
import time
from pathlib import Path

import anyio
import httpx
import pytest
from mcp import Client

from kg_actors.chores import gauge_files
from kg_actors.testing import ServerProcess, session_of

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from hook_helpers import Harness, post  # noqa: E402

FAKE_CLAUDE = """#!{python}
import json, os, re, sys
USAGE = {usage!r}
rec = {rec!r}
MODE = {mode!r}  # write: reads then stamps kg_progress; read: kg_read only; none: never reaches kg
if sys.argv[1:4] == ["-p", "/usage", "--output-format"]:  # agy's /usage: answered locally
    print(json.dumps(USAGE))
    sys.exit(0)
import anyio
from mcp import Client
from kg_actors.testing import session_of
prompt = sys.stdin.read()
if "--input-format" in sys.argv:  # agy's stream-json: one user event
    prompt = json.loads(prompt)["message"]["content"]
json.dump({{"argv": sys.argv[1:], "env": dict(os.environ), "stdin": prompt, "cwd": os.getcwd()}}, open(rec, "w"))
if MODE == "none":  # a CLI that could not sign in, and says so, yet exits 0
    print("Invalid API key · Please run /login")
    sys.exit(0)
targets = re.search(r"Targets: (.*)\\.", prompt).group(1).split(", ")
cwd = re.search(r'cwd="([^"]+)"', prompt).group(1)
if "--agent" in sys.argv:  # agy reaches kg through its plugin's `kg mcp` (the real shim), in the run's environment
    import subprocess
    shim = subprocess.Popen([sys.executable, "-m", "kg_actors", "mcp"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    def call(n, name, args):
        shim.stdin.write(json.dumps({{"jsonrpc": "2.0", "id": n, "method": "tools/call",
                                      "params": {{"name": name, "arguments": args}}}}) + "\\n")
        shim.stdin.flush()
        return json.loads(shim.stdout.readline())["result"]["content"][0]["text"]
    sid = session_of(call(1, "kg_read", {{"cwd": cwd, "ids": targets, "maintenance": True}}))
    if MODE == "write":
        call(2, "kg_progress", {{"session_id": sid, "task_id": "chore", "level": "project",
                                 "state": {{"kind": "gist", "targets": targets, "done": targets}}}})
    shim.stdin.close()
    shim.wait()
    print("chore done")
    sys.exit(0)
if "--mcp-config" in sys.argv:  # claude
    url = json.loads(sys.argv[sys.argv.index("--mcp-config") + 1])["mcpServers"]["kg"]["url"]
else:  # codex: -c mcp_servers.kg.url="..."
    url = json.loads(next(a for a in sys.argv if a.startswith("mcp_servers.kg.url=")).split("=", 1)[1])

async def main():
    async with Client(url) as c:
        got = await c.call_tool("kg_read", {{"cwd": cwd, "ids": targets, "maintenance": True}})
        text = got.content[0].text
        sid = session_of(text)
        if MODE == "read":
            return
        await c.call_tool("kg_progress", {{"session_id": sid, "task_id": "chore", "level": "project",
                                            "state": {{"kind": "gist", "targets": targets, "done": targets}}}})
anyio.run(main)
print("chore done")
"""


AGY_USAGE = {"command": {"name": "usage", "data": {"groups": [{"name": "Gemini models", "buckets": [
    {"window": "five_hour", "remaining_fraction": 0.9, "reset_time": time.time() + 3600},
    {"window": "weekly", "remaining_fraction": 0.7, "reset_time": time.time() + 86400}]}]}}}


def _wait_for(path: Path, event: str, count: int = 1, timeout: float = 60.0) -> list[dict]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists():
            records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
            if sum(r.get("event") == event for r in records) >= count:
                return records
        time.sleep(0.05)
    raise AssertionError(f"no {event!r} in {path}: {path.read_text() if path.exists() else 'no log'}")


async def _seed(srv: ServerProcess, project: str) -> str:
    async with Client(srv.url + "/") as c:
        got = await c.call_tool("kg_read", {"cwd": project})
        sid = session_of(got.content[0].text)
        await c.call_tool("kg_put_node", {"session_id": sid, "level": "project", "id": "deploy-pipeline-steps",
                                          "gist": "Deploys go through the staging gate first. " * 10})
        return sid


def _server(tmp_path, name: str, chores_json: str, mode: str = "write") -> tuple[ServerProcess, Path]:
    """A server with a fake `name` (claude or codex) first on PATH, acting as `mode` says, and chores.json as given."""
    fakebin = tmp_path / "bin"
    fakebin.mkdir()
    rec = tmp_path / f"{name}-run.json"
    fake = fakebin / name
    fake.write_text(FAKE_CLAUDE.format(python=sys.executable, rec=str(rec), usage=AGY_USAGE, mode=mode))
    fake.chmod(0o755)
    srv = ServerProcess(tmp_path / "srv", {"PATH": f"{fakebin}:{os.environ['PATH']}", "KG_CHORES": "1",
                                           "CLAUDECODE": "1", "CLAUDE_CODE_ENTRYPOINT": "cli"})
    srv.store.mkdir(parents=True, exist_ok=True)
    (srv.store / "chores.json").write_text(chores_json)
    return srv, rec


def _quota_left(srv: ServerProcess) -> None:
    """A fresh Claude Code quota reading with room left (12% of the 5-hour window, 20% of the week)."""
    frame = {"rate_limits": {"five_hour": {"used_percentage": 12, "resets_at": time.time() + 3600},
                             "seven_day": {"used_percentage": 20, "resets_at": time.time() + 86400}}}
    gauge_files.record_claude(srv.store, frame, time.time())


def _session(srv: ServerProcess, kind: str = "claude") -> tuple[str, Harness]:
    """Serve; a project whose one node has an oversized gist (debt above the floor); a started session in it."""
    srv.start("--no-editor")
    project = srv.project("app")
    anyio.run(_seed, srv, project)
    h = Harness(srv, project, kind=kind)
    assert h.start().json is not None  # the SessionStart hook answered (a preload)
    return project, h


def test_a_prompt_dispatches_a_chore_to_the_runner_and_spacing_refuses_the_next(tmp_path):
    srv, rec = _server(tmp_path, "claude", json.dumps({"enabled": True, "timeout_s": 60}))
    _quota_left(srv)
    try:
        project, h = _session(srv)
        reply = h.prompt("how do deploys reach production?")
        assert reply.rc == 0 and reply.json is not None  # the reply came; the decision runs after it
        log = srv.store / "chores.jsonl"
        records = _wait_for(log, "done")
        dispatch = next(r for r in records if r["event"] == "dispatch")
        assert dispatch["tier"] == "chore" and dispatch["kind"] == "gist"
        assert dispatch["targets"] == ["deploy-pipeline-steps"] and dispatch["runner"] == "claude"
        done = next(r for r in records if r["event"] == "done")
        assert done["rc"] == 0 and "chore done" in done["output"], done["output"]
        run = json.loads(rec.read_text())
        assert run["argv"][:3] == ["-p", "--setting-sources", "user"] and "--strict-mcp-config" in run["argv"]
        assert run["env"]["KG_CHORE"] == "1" and "CLAUDECODE" not in run["env"]
        assert "CLAUDE_CODE_ENTRYPOINT" not in run["env"]
        assert run["cwd"] == str(srv.store) and "Category: gist" in run["stdin"]
        h.prompt("and the rollback?")
        records = _wait_for(log, "skip")
        assert next(r for r in records if r["event"] == "skip")["reason"].startswith("spacing: ")
    finally:
        srv.kill()


def test_a_codex_session_runs_its_chore_through_codex_gated_on_its_rollout(tmp_path):
    srv, rec = _server(tmp_path, "codex", json.dumps({"enabled": True, "timeout_s": 60}))
    try:
        project, h = _session(srv, "codex")
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
        with open(h.transcript, "a") as f:  # Codex's token_count event, as its rollout has it
            f.write(json.dumps({"timestamp": stamp, "type": "event_msg", "payload": {
                "type": "token_count", "info": None, "rate_limits": {
                    "primary": {"used_percent": 12.0, "window_minutes": 300, "resets_at": int(time.time()) + 9000},
                    "secondary": {"used_percent": 30.0, "window_minutes": 10080,
                                  "resets_at": int(time.time()) + 300000}}}}) + "\n")
        h.prompt("how do deploys reach production?")
        records = _wait_for(srv.store / "chores.jsonl", "done")
        dispatch = next(r for r in records if r["event"] == "dispatch")
        assert dispatch["runner"] == "codex" and dispatch["gauge"]["source"] == "codex"
        assert dispatch["gauge"]["five_hour_pct"] == 12.0
        done = next(r for r in records if r["event"] == "done")
        assert done["rc"] == 0 and "chore done" in done["output"]
        run = json.loads(rec.read_text())
        argv = run["argv"]
        assert argv[:2] == ["exec", "--ephemeral"] and argv[argv.index("-s") + 1] == "read-only"
        assert argv[argv.index("--disable") + 1] == "shell_tool" and 'web_search="disabled"' in argv
        assert argv[-1] == "-" and "Category: gist" in run["stdin"] and run["env"]["KG_CHORE"] == "1"
    finally:
        srv.kill()


def test_a_corrupt_chores_json_leaves_chores_off_and_every_hook_answering(tmp_path):
    srv, rec = _server(tmp_path, "claude", '{"enabled": true,')
    try:
        project, h = _session(srv)
        for text in ("first prompt about deploys", "second prompt about deploys"):
            assert h.prompt(text).rc == 0
        assert h.read(project + "/README.md").rc == 0
        assert srv.health() is not None
        # Off, with the warning in the server's log, and no decision logged, no run.
        deadline = time.monotonic() + 10
        while "chores.json is not valid JSON" not in srv.log.read_text() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "chores.json is not valid JSON" in srv.log.read_text()
        assert not (srv.store / "chores.jsonl").exists() and not rec.exists()
    finally:
        srv.kill()


def test_the_antigravity_runner_through_its_documented_interface(tmp_path):
    """agy is not on a registry here: this checks the documented interface only (a fake agy answers /usage and
    runs the tool-less kg-maintainer agent from stream-json on stdin)."""
    srv, rec = _server(tmp_path, "agy", json.dumps({"enabled": True, "runner": "antigravity", "timeout_s": 60}))
    settings = srv.home / ".gemini" / "antigravity-cli" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"useG1Credits": True, "permissions": {"allow": ["mcp(knowledge-graph_kg/*)"]}}))
    try:
        project, h = _session(srv)
        h.prompt("how do deploys reach production?")
        records = _wait_for(srv.store / "chores.jsonl", "skip")
        assert records[-1]["reason"] == "antigravity: paid credits could be spent (useG1Credits is on)"
        assert records[-1]["gauge"] == {"source": "antigravity", "five_hour_pct": 10.0, "seven_day_pct": 30.0,
                                        "age_s": 0.0}
        settings.write_text(json.dumps({"useG1Credits": False, "permissions": {"allow": ["mcp(knowledge-graph_kg/*)"]}}))
        # A changed chores.json is decided afresh at once (else a refusal stands for a minute).
        (srv.store / "chores.json").write_text(json.dumps({"enabled": True, "runner": "antigravity", "timeout_s": 61}))
        h.prompt("and the rollback?")
        records = _wait_for(srv.store / "chores.jsonl", "done")
        done = next(r for r in records if r["event"] == "done")
        assert done["runner"] == "antigravity" and done["rc"] == 0, done
        # Its calls went through `kg mcp`, which passed the run's mark on: they count as the run's.
        assert (done["outcome"], done["kg_calls"], done["kg_writes"]) == ("ok", 2, 1), done
        argv = json.loads(rec.read_text())["argv"]
        assert argv[:2] == ["--agent", "kg-maintainer"] and "stream-json" in argv
        agent = (srv.store / "agy-runner" / ".agents" / "agents" / "kg-maintainer" / "agent.md").read_text()
        assert "tools: []" in agent and json.loads(rec.read_text())["cwd"] == str(srv.store / "agy-runner")
    finally:
        srv.kill()


def test_a_gemini_prompt_dispatches_a_chore_too(tmp_path):
    """Any harness's human prompt is a trigger: Gemini CLI's BeforeAgent hook hands it over like Claude Code's."""
    import urllib.request

    srv, rec = _server(tmp_path, "claude", json.dumps({"enabled": True, "timeout_s": 60, "runner": "claude"}))
    _quota_left(srv)

    def gemini(event: str, body: dict) -> dict:
        req = urllib.request.Request(f"{srv.url}/api/gemini/{event}", json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as resp:
            return json.loads(resp.read())

    try:
        srv.start("--no-editor")
        project = srv.project("app")
        anyio.run(_seed, srv, project)
        base = {"session_id": "gemini-1", "cwd": project, "transcript_path": str(tmp_path / "gemini-1.json")}
        gemini("SessionStart", {**base, "hook_event_name": "SessionStart", "source": "startup"})
        gemini("BeforeAgent", {**base, "hook_event_name": "BeforeAgent", "prompt": "how do deploys reach production?"})
        records = _wait_for(srv.store / "chores.jsonl", "dispatch")
        dispatch = next(r for r in records if r["event"] == "dispatch")
        assert dispatch["targets"] == ["deploy-pipeline-steps"] and dispatch["runner"] == "claude"
    finally:
        srv.kill()


def test_an_antigravity_prompt_reaches_the_chore_supervisor_and_is_told_its_budget(tmp_path):
    srv, rec = _server(tmp_path, "agy", json.dumps({"enabled": True, "runner": "antigravity", "timeout_s": 60}))
    usage = {"command": {"name": "usage", "data": {"groups": [{"name": "Gemini models", "buckets": [
        {"window": "five_hour", "remaining_fraction": 0.1, "reset_time": time.time() + 3600}]}]}}}
    fake = tmp_path / "bin" / "agy"
    fake.write_text(FAKE_CLAUDE.format(python=sys.executable, rec=str(rec), usage=usage, mode="write"))
    conv = "agy-conv-1"
    transcript = srv.home / ".gemini" / "antigravity-cli" / "conversations" / conv / "transcript.jsonl"
    transcript.parent.mkdir(parents=True)
    transcript.touch()

    def hook(event: str, **extra) -> dict:
        body = {"conversationId": conv, "workspacePaths": [project], "transcriptPath": str(transcript),
                "modelName": "gemini-3-pro", **extra}
        r = post(srv, f"/api/antigravity/hook/{event}", body)
        assert r.status_code == 200, r.text
        return r.json()

    def ask(text: str) -> str:
        """The user's request, then the turn's first model call: what every packet delivered said."""
        with open(transcript, "a") as f:
            f.write(json.dumps({"type": "USER_INPUT", "content": f"<USER_REQUEST>\n{text}\n</USER_REQUEST>"}) + "\n")
        said, invocation = [], 0
        while (out := hook("PreInvocation", invocationNum=invocation))["delivery_id"] is not None:
            said.append(out["output"]["injectSteps"][0]["systemMessage"]["systemMessage"])
            post(srv, "/api/antigravity/ack", {"conversationId": conv, "delivery_id": out["delivery_id"]})
            invocation = 1
        return "\n".join(said)

    try:
        srv.start("--no-editor")
        project = srv.project("app")
        hook("SessionStart")
        first = ask("how do deploys reach production?")
        # The prompt reached the supervisor, which read Antigravity's own gauge (and refused: 90% used).
        records = _wait_for(srv.store / "chores.jsonl", "skip")
        assert records[-1]["gauge"]["source"] == "antigravity" and records[-1]["gauge"]["five_hour_pct"] == 90.0
        assert "Budget:" not in first  # agy /usage is read after the reply, never by the hook
        deadline = time.monotonic() + 30
        told = ""
        while "Budget:" not in told and time.monotonic() < deadline:
            told = ask("and the rollback?")
        assert "Budget: 5-hour quota at 90%" in told and "Wrap up now" in told
        assert "Budget:" not in ask("and after that?")  # told once
    finally:
        srv.kill()


def test_a_configured_codex_bin_does_not_make_a_claude_sessions_chore_run_codex(tmp_path):
    """`codex_bin` names where Codex is, for Codex sessions: a Claude Code session's chore still runs Claude."""
    codex = tmp_path / "elsewhere" / "codex"
    codex.parent.mkdir()
    codex.write_text("#!/bin/sh\necho codex ran > " + str(tmp_path / "codex-ran") + "\n")
    codex.chmod(0o755)
    srv, rec = _server(tmp_path, "claude", json.dumps({"enabled": True, "timeout_s": 60, "codex_bin": str(codex)}))
    _quota_left(srv)
    try:
        project, h = _session(srv)
        h.prompt("how do deploys reach production?")
        records = _wait_for(srv.store / "chores.jsonl", "done")
        dispatch = next(r for r in records if r["event"] == "dispatch")
        assert dispatch["runner"] == "claude" and dispatch["gauge"]["source"] == "claude"
        assert json.loads(rec.read_text())["argv"][0] == "-p" and not (tmp_path / "codex-ran").exists()
    finally:
        srv.kill()


@pytest.mark.parametrize("mode, outcome, calls, writes", [
    ("write", "ok", 2, 1),  # kg_read, then its kg_progress stamp
    ("read", "no change", 1, 0),  # it looked, and wrote nothing
    ("none", "no kg call", 0, 0),  # a sign-in failure that exits 0 never reached kg
])
def test_a_runs_outcome_says_whether_it_reached_kg_and_wrote(tmp_path, mode, outcome, calls, writes):
    """Exit 0 is not "ok": the server counts the kg calls each run makes (its MCP URL names the run) and its
    writes; the run's line in chore_runs.jsonl and the Budget tab's endpoint say what it did."""
    srv, rec = _server(tmp_path, "claude", json.dumps({"enabled": True, "timeout_s": 60}), mode)
    _quota_left(srv)
    try:
        project, h = _session(srv)
        # The user's own session calls kg meanwhile: none of it is the run's.
        h.prompt("how do deploys reach production?")
        anyio.run(_seed, srv, project)
        records = _wait_for(srv.store / "chore_runs.jsonl", "done")
        done = next(r for r in records if r["event"] == "done")
        assert done["rc"] == 0 and done["outcome"] == outcome, done
        assert (done["kg_calls"], done["kg_writes"]) == (calls, writes)
        got = httpx.get(srv.url + "/api/chores", params={"level": "project", "project_path": project}).json()
        assert [r["outcome"] for r in got["runs"]] == [outcome]
        if mode == "none":
            assert "Please run /login" in got["runs"][0]["detail"]
        argv = json.loads(rec.read_text())["argv"]
        url = json.loads(argv[argv.index("--mcp-config") + 1])["mcpServers"]["kg"]["url"]
        assert "kg_run=" in url and url.split("kg_run=")[1] not in (srv.store / "chores.jsonl").read_text()
    finally:
        srv.kill()
