"""Issue #12 end to end: recall before a shell command runs, recall from every tier, and bad input.

The real hook scripts against a real `kg serve`: `hooks/pre_tool.sh` on Claude Code's PreToolUse
(Bash) and Codex's (its shell tool, an argv list) brings the lessons that name the command as
additionalContext, never a permission decision; `hooks/prompt.sh` brings orphaned lessons without
promoting them. Hostile prompts and commands get a quick, silent, non-5xx answer.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from hook_helpers import Harness, mcp_call, node, post, project_graph, recall_log, run_hook, user_graph

from kg_actors.core import constants as C
from kg_actors.testing import ServerProcess, write_store

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    server = ServerProcess(tmp_path_factory.mktemp("pretool"))
    root = server.project("deploy-proj")
    filler = [node(f"filler-topic-{i}", f"convention number {i} about logging and lint rules") for i in range(20)]
    write_store(server.store, user_graph([node("prefer-small-commits", "commit one logical change at a time")]), {
        "deploy-proj": project_graph(root, [
            node("make-deploy-needs-context", "make deploy reads KUBE_CONTEXT and refuses prod without CONFIRM=1",
                 _archived=True),
            node("release-script-tag-changelog", "bumps the version, writes the changelog and pushes the tag",
                 touches=["scripts/release.sh"], _archived=True),
            node("npm-publish-provenance", "npm publish runs only from CI with provenance", _archived=True),
            node("pgbouncer-prepared-statements", "behind pgbouncer in transaction mode prepared statements "
                 "must be off", _archived=True, _orphaned_ts=time.time() - 86_400),
            *filler,
        ])})
    server.start()
    yield server
    server.kill()


def pre_tool(h: Harness, tool: str, tool_input: dict, **extra):
    payload = {**h._base("PreToolUse"), "tool_name": tool, "tool_input": tool_input,
               "tool_use_id": f"toolu_{time.monotonic_ns()}", **extra}
    return run_hook("pre_tool", payload, h.env)


def test_hooks_json_wires_pre_tool_use_for_bash():
    hooks = json.loads((REPO / "hooks" / "hooks.json").read_text())["hooks"]
    (entry,) = hooks["PreToolUse"]
    assert entry["matcher"] == "Bash"
    assert entry["hooks"][0]["command"].endswith('hooks/pre_tool.sh"') and entry["hooks"][0]["timeout"] <= 5
    assert (REPO / "hooks" / "pre_tool.sh").exists()


def test_a_lesson_naming_the_command_arrives_before_it_runs_once(srv):
    h = Harness(srv, srv.project("deploy-proj"))
    h.start()
    run = pre_tool(h, "Bash", {"command": "make deploy ENV=prod", "description": "Deploy"})
    assert run.rc == 0
    out = run.json
    assert out["hookSpecificOutput"]["hookEventName"] == "PreToolUse"
    assert "permissionDecision" not in json.dumps(out)  # it informs; it never allows, denies or asks
    assert "updatedInput" not in json.dumps(out)
    assert "- [project] make-deploy-needs-context: make deploy reads KUBE_CONTEXT" in run.context
    assert len(run.context) <= C.COMMAND_RECALL_CHAR_BUDGET
    # Never a gist twice in a session; commands nothing names are silent.
    assert pre_tool(h, "Bash", {"command": "make deploy ENV=staging"}).out == ""
    for command in ("ls -la", "git status", "pytest -q", "cat scripts/release.sh"):
        assert pre_tool(h, "Bash", {"command": command}).out == ""
    # The script, named in a lesson's touches.
    assert "release-script-tag-changelog" in pre_tool(h, "Bash", {"command": "./scripts/release.sh 2.4.0"}).context
    # The node stays archived: recall informs, it does not promote.
    text = mcp_call(srv, "kg_search", {"query": "make deploy context", "session_id": h.kg_sid})
    assert "make-deploy-needs-context (project, archived, seen)" in text
    records = [r for r in recall_log(srv) if r.get("kg_session") == h.kg_sid and r["reason"] == "command_recall"]
    assert [r["outcome"] for r in records][:2] == ["injected", "all_seen"]


def test_a_secret_on_the_command_line_never_reaches_the_recall_log(srv):
    h = Harness(srv, srv.project("deploy-proj"))
    h.start()
    secrets = ["Qw7rT5yU3iO1pA9s", "Tg6Yh8Uj0Ik2Ol4Pm7Nb", "Xk3v9QmZ2aB7qLp0Wn4Tz", "AKIAQ7ZT3MXKD5RWN2PB",
               "sunflowerlagoon"]
    for command in (f"sshpass -p {secrets[0]} ssh deploy@host", f"redis-cli -a {secrets[1]} get k",
                    f"vercel --token {secrets[2]} deploy", f"deployctl {secrets[3]} push",
                    f"sshpass -p {secrets[4]} ssh deploy@host", "make deploy ENV=prod"):
        assert pre_tool(h, "Bash", {"command": command}).rc == 0
    records = [r for r in recall_log(srv) if r.get("kg_session") == h.kg_sid and r["reason"] == "command_recall"]
    logged = json.dumps(records).lower()
    assert records and not [s for s in secrets if s.lower() in logged]
    assert "sshpass <withheld>" in logged
    assert "make deploy" in logged  # a subcommand a lesson names is kept: it is in the memory already


def test_codex_shell_commands_as_argv_lists(srv):
    codex = Harness(srv, srv.project("deploy-proj"), kind="codex")
    codex.start()
    run = pre_tool(codex, "shell", {"command": ["bash", "-lc", "cd web && npm publish --access public"],
                                    "workdir": codex.cwd})
    assert "npm-publish-provenance: npm publish runs only from CI" in run.context
    assert "permissionDecision" not in run.out


def test_unknown_sessions_and_other_tools_get_nothing(srv):
    stranger = Harness(srv, srv.project("deploy-proj"))  # never started
    assert pre_tool(stranger, "Bash", {"command": "make deploy"}).out == ""
    h = Harness(srv, srv.project("deploy-proj"))
    h.start()
    assert pre_tool(h, "Read", {"file_path": "/etc/hosts"}).out == ""
    assert pre_tool(h, "Bash", {"command": 42}).out == ""


def test_prompt_recall_brings_an_orphaned_lesson_without_promoting_it(srv):
    h = Harness(srv, srv.project("deploy-proj"))
    h.start()
    h.full_read()
    run = h.prompt("why do prepared statements break behind pgbouncer in transaction mode?")
    assert "- [project] pgbouncer-prepared-statements: behind pgbouncer" in run.context
    text = mcp_call(srv, "kg_search", {"query": "pgbouncer prepared statements", "session_id": h.kg_sid})
    assert "pgbouncer-prepared-statements (project, orphaned, seen)" in text


BAD_PROMPTS = {
    "a 20,000-character paste": "\n".join(f"2026-11-30T10:{i % 60:02d}:01Z level=error msg=\"make deploy failed\" "
                                          f"pod=api-{i:05x} pgbouncer=down" for i in range(400))[:20_000],
    "binary junk": bytes(range(256)).decode("latin-1") * 40,
    "only emoji": "🔥🚀💥🤔" * 200,
    "only a path": "/home/me/deploy-proj/scripts/release.sh",
    "pasted output around nothing": "$ make deploy\nmake: *** [Makefile:42: deploy] Error 1\n",
}


@pytest.mark.parametrize("name", sorted(BAD_PROMPTS))
def test_bad_input_is_quick_silent_and_never_5xx(srv, name):
    h = Harness(srv, srv.project("deploy-proj"))
    h.start()
    h.full_read()
    text = BAD_PROMPTS[name]
    # The bounds tell a hang from an answer (bench/hooks_bad_input.py times them): a loaded CI machine is slow.
    start = time.monotonic()
    r = post(srv, "/api/prompt_context", {**h._base("UserPromptSubmit"), "prompt": text})
    assert r.status_code < 500 and time.monotonic() - start < 3.0
    assert r.json() == {}  # silence: the hook falls back to its own line
    start = time.monotonic()
    r = post(srv, "/api/pre_tool", {**h._base("PreToolUse"), "tool_name": "Bash", "tool_input": {"command": text}})
    assert r.status_code < 500 and time.monotonic() - start < 3.0
    run = h.prompt(text)
    assert run.rc == 0 and (run.out == "" or run.is_pool_line)


@pytest.mark.parametrize("body", [b"\xff\xfe\x00junk", b"{", b"[]", b'{"tool_name": "Bash", "tool_input": "x"}'])
def test_pre_tool_payloads_that_are_not_hook_json(srv, body):
    r = post(srv, "/api/pre_tool", body)
    assert r.status_code < 500
