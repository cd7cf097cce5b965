"""Issue #14: Gemini CLI beside Claude Code and Codex, checked against the real CLI from npm (no model).

`kg setup --only gemini` writes hooks and the kg MCP server into the user's
~/.gemini/settings.json; the real `gemini mcp list` reads that file (its own
config loading) and names the server; the hook script, fed Gemini-shaped
payloads, prints exactly one JSON object in Gemini's hook schema, or nothing;
`kg uninstall` takes our entries out and leaves the user's.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from hook_helpers import hook_env, mcp_call, node, project_graph, recall_log
from npm_clients import client_env, npm_bin

from kg_actors.testing import ServerProcess, write_store

REPO = Path(__file__).resolve().parents[2]
KG = str(Path(sys.executable).with_name("kg"))


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    server = ServerProcess(tmp_path_factory.mktemp("gemini"))
    root = Path(server.project("gem-proj"))
    (root / "src").mkdir(parents=True, exist_ok=True)
    (root / "src" / "cache.py").write_text("# cache\n")
    write_store(server.store, None, {"gem-proj": project_graph(str(root), [
        node("cache-warmup-order", "warm the cache after migrations, never before", touches=["src/cache.py"],
             _archived=True),
        node("deploy-checklist", "run the smoke suite before every deploy")])})
    # The project is trusted, as Gemini needs it to be to run kg's tools; gem-proj/vendor is not.
    (server.home / ".gemini").mkdir(parents=True, exist_ok=True)
    (server.home / ".gemini" / "trustedFolders.json").write_text(json.dumps(
        {str(root): "TRUST_FOLDER", str(root / "vendor"): "DO_NOT_TRUST"}))
    server.start()
    yield server
    server.stop()


def kg(args: list[str], env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([KG, *args], env=env, capture_output=True, text=True, timeout=120)


def test_setup_writes_settings_the_real_gemini_cli_accepts_and_uninstall_removes_ours(srv, tmp_path):
    gemini = npm_bin("gemini")
    home = tmp_path / "home"
    (home / ".gemini").mkdir(parents=True)
    user_hook = {"matcher": "write_file", "hooks": [{"type": "command", "command": "echo {}", "name": "mine"}]}
    (home / ".gemini" / "settings.json").write_text(json.dumps({"hooks": {"AfterTool": [user_hook]},
                                                                 "ui": {"theme": "Default"}}))
    # The store setup writes into kg's entry is the running server's: a shim refuses a server of another store.
    env = {**client_env(home), "KG_HOME": str(srv.store), "KG_HTTP_PORT": str(srv.port),
           "PATH": f"{Path(gemini).parent}:/usr/bin:/bin"}
    out = kg(["setup", "--only", "gemini", "--yes"], env)
    assert out.returncode == 0, out.stdout + out.stderr
    settings = json.loads((home / ".gemini" / "settings.json").read_text())
    assert settings["ui"] == {"theme": "Default"} and user_hook in settings["hooks"]["AfterTool"]
    assert set(settings["hooks"]) == {"SessionStart", "BeforeAgent", "AfterTool"}
    assert settings["mcpServers"]["kg"]["args"][-1] == "mcp"
    script = settings["hooks"]["SessionStart"][0]["hooks"][0]["command"].split()[1]
    assert Path(script).is_file() and (Path(script).parent / "kg_env").is_file()
    listed = subprocess.run([gemini, "mcp", "list"], env=env, capture_output=True, text=True, timeout=120,
                            cwd=home, stdin=subprocess.DEVNULL)
    # Gemini CLI runs no MCP server in a folder the user has not trusted: setup leaves that to the user.
    assert listed.returncode == 0 and re.search(r"kg: .* mcp \(stdio\)", listed.stdout + listed.stderr), listed.stderr
    (home / ".gemini" / "trustedFolders.json").write_text(json.dumps({str(home): "TRUST_FOLDER"}))
    listed = subprocess.run([gemini, "mcp", "list"], env={**env, "KG_HTTP_PORT": str(srv.port),
                                                          "KG_HOME": str(srv.store)},
                            capture_output=True, text=True, timeout=120, cwd=home, stdin=subprocess.DEVNULL)
    assert re.search(r"✓ kg: .* - Connected", listed.stdout + listed.stderr), listed.stdout + listed.stderr
    assert kg(["setup", "--only", "gemini", "--yes"], env).stdout.count("up to date") == 1
    assert "ok    Gemini CLI: kg hooks and MCP entry in its settings" in kg(["doctor"], env).stdout
    gone = kg(["uninstall", "--yes"], env)
    assert gone.returncode == 0, gone.stdout + gone.stderr
    after = json.loads((home / ".gemini" / "settings.json").read_text())
    assert "mcpServers" not in after and after["hooks"] == {"AfterTool": [user_hook]}
    assert "FAIL  Gemini CLI: not wired" in kg(["doctor"], env).stdout


def run_hook(srv: ServerProcess, event: str, payload: dict, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(["sh", str(REPO / "hooks" / "gemini.sh"), event], input=json.dumps(payload).encode(),
                          env=hook_env(srv, **env), capture_output=True, timeout=30)


def one_object(proc: subprocess.CompletedProcess, event: str) -> str:
    assert proc.returncode == 0 and proc.stderr == b""
    lines = proc.stdout.decode().splitlines()
    assert len(lines) == 1, proc.stdout
    out = json.loads(lines[0])
    assert set(out) <= {"hookSpecificOutput", "systemMessage"}
    assert out["hookSpecificOutput"]["hookEventName"] == event
    return out["hookSpecificOutput"]["additionalContext"]


def test_the_hook_script_answers_gemini_events_in_gemini_s_schema(srv):
    root = str(srv.home / "gem-proj")
    sid = str(uuid.uuid4())
    chats = srv.home / ".gemini" / "tmp" / "gem-proj" / "chats"
    chats.mkdir(parents=True, exist_ok=True)
    base = {"session_id": sid, "transcript_path": str(chats / f"session-{sid}.json"), "cwd": root,
            "timestamp": "2026-12-01T10:00:00.000Z"}
    context = one_object(run_hook(srv, "SessionStart", {**base, "hook_event_name": "SessionStart",
                                                        "source": "startup"}), "SessionStart")
    assert "deploy-checklist" in context and "session_id: " in context
    reminder = one_object(run_hook(srv, "BeforeAgent", {**base, "hook_event_name": "BeforeAgent",
                                                        "prompt": "how do we warm the cache?"}), "BeforeAgent")
    assert "kg_read" in reminder  # before the full read, the prompt hook reminds
    recall = one_object(run_hook(srv, "AfterTool", {
        **base, "hook_event_name": "AfterTool", "tool_name": "read_file",
        "tool_input": {"file_path": root + "/src/cache.py"}, "tool_response": {"llmContent": "# cache"}}), "AfterTool")
    assert "cache-warmup-order" in recall


@pytest.mark.parametrize("event,payload", [
    ("AfterModel", {"session_id": "s"}),
    ("BeforeAgent", {"conversationId": "agy-shaped", "invocationNum": 0}),
    ("AfterTool", {"session_id": "never-started", "tool_name": "read_file", "tool_input": {"file_path": 3}}),
])
def test_the_hook_script_prints_nothing_for_what_is_not_gemini_s_or_not_known(srv, event, payload):
    proc = run_hook(srv, event, payload)
    assert proc.returncode == 0 and proc.stdout == b"" and proc.stderr == b""


def test_in_a_folder_gemini_does_not_trust_the_preload_says_the_tools_are_off_and_prompts_do_not_nag(srv):
    folder = srv.home / "gem-proj" / "vendor"  # DO_NOT_TRUST, inside the trusted project (the longer rule wins)
    folder.mkdir(parents=True, exist_ok=True)
    sid = str(uuid.uuid4())
    chats = srv.home / ".gemini" / "tmp" / "vendor" / "chats"
    chats.mkdir(parents=True, exist_ok=True)
    base = {"session_id": sid, "transcript_path": str(chats / f"session-{sid}.json"), "cwd": str(folder),
            "timestamp": "2026-12-01T10:00:00.000Z"}
    context = one_object(run_hook(srv, "SessionStart", {**base, "hook_event_name": "SessionStart",
                                                        "source": "startup"}), "SessionStart")
    assert "KG MEMORY PRELOADED" in context  # the memory is still shown
    assert "REQUIRED before substantive work" not in context and "OFF in this folder" in context
    assert "trustedFolders.json" in context and "TRUST_FOLDER" in context
    prompt = run_hook(srv, "BeforeAgent", {**base, "hook_event_name": "BeforeAgent", "prompt": "warm the cache?"})
    assert prompt.returncode == 0 and prompt.stdout == b"" and prompt.stderr == b""  # no full-read nag
    # Gemini's own override, as the hook saw it, trusts the folder: the instruction and the reminder are back.
    sid2 = str(uuid.uuid4())
    again = {**base, "session_id": sid2, "transcript_path": str(chats / f"session-{sid2}.json")}
    context = one_object(run_hook(srv, "SessionStart", {**again, "hook_event_name": "SessionStart",
                                                        "source": "startup"}, GEMINI_CLI_TRUST_WORKSPACE="true"),
                         "SessionStart")
    assert "REQUIRED before substantive work" in context and "OFF in this folder" not in context
    reminder = one_object(run_hook(srv, "BeforeAgent", {**again, "hook_event_name": "BeforeAgent", "prompt": "hi?"},
                                   GEMINI_CLI_TRUST_WORKSPACE="true"), "BeforeAgent")
    assert "kg_read" in reminder


POOL_LINES = {line.partition(" ")[2] for line in (REPO / "hooks" / "reminders.txt").read_text().splitlines()
              if line and not line.startswith("#")}


def gemini_session(srv: ServerProcess, folder: Path, **env: str) -> tuple[dict, str]:
    """A started Gemini session in `folder` and its kg session id (from the preload)."""
    sid = str(uuid.uuid4())
    chats = srv.home / ".gemini" / "tmp" / folder.name / "chats"
    chats.mkdir(parents=True, exist_ok=True)
    base = {"session_id": sid, "transcript_path": str(chats / f"session-{sid}.json"), "cwd": str(folder),
            "timestamp": "2026-12-01T10:00:00.000Z"}
    context = one_object(run_hook(srv, "SessionStart", {**base, "hook_event_name": "SessionStart",
                                                        "source": "startup"}, **env), "SessionStart")
    return base, re.search(r"session_id: (\S+)", context).group(1)


def test_after_the_full_read_a_prompt_the_server_has_nothing_for_gets_a_line_of_the_shared_pools(srv):
    base, kg_sid = gemini_session(srv, srv.home / "gem-proj")
    mcp_call(srv, "kg_read", {"session_id": kg_sid})
    said = set()
    for _ in range(3):
        said.add(one_object(run_hook(srv, "BeforeAgent", {**base, "hook_event_name": "BeforeAgent",
                                                          "prompt": "hello there"}), "BeforeAgent"))
    assert said <= POOL_LINES and said  # the same lines prompt.sh gives Claude Code


def test_in_a_folder_gemini_does_not_trust_there_is_no_pool_line_either(srv):
    folder = srv.home / "gem-proj" / "vendor"
    folder.mkdir(parents=True, exist_ok=True)
    base, kg_sid = gemini_session(srv, folder)
    mcp_call(srv, "kg_read", {"session_id": kg_sid})  # made some other way: Gemini runs no kg tool here
    prompt = run_hook(srv, "BeforeAgent", {**base, "hook_event_name": "BeforeAgent", "prompt": "hello there"})
    assert prompt.returncode == 0 and prompt.stdout == b"" and prompt.stderr == b""


@pytest.mark.parametrize("fifo", ["GEMINI_CLI_TRUSTED_FOLDERS_PATH", "GEMINI_CLI_HOME"])
def test_a_fifo_for_a_trust_file_is_unsure_and_trusted_and_strands_no_server_thread(srv, tmp_path, fifo):
    # open() of a FIFO waits for a writer for ever: each hook held a server worker thread until none was left.
    import os

    folder = srv.home / "gem-proj" / "vendor"  # DO_NOT_TRUST in the real rules
    folder.mkdir(parents=True, exist_ok=True)
    if fifo == "GEMINI_CLI_HOME":
        (tmp_path / ".gemini").mkdir()
        os.mkfifo(tmp_path / ".gemini" / "settings.json")
        os.mkfifo(tmp_path / ".gemini" / "trustedFolders.json")
        env = {"GEMINI_CLI_HOME": str(tmp_path)}
    else:
        os.mkfifo(tmp_path / "rules.json")
        env = {"GEMINI_CLI_TRUSTED_FOLDERS_PATH": str(tmp_path / "rules.json")}
    for _ in range(3):
        base, _kg_sid = gemini_session(srv, folder, **env)  # a preload in time: the read did not wait
    context = one_object(run_hook(srv, "SessionStart", {**base, "session_id": str(uuid.uuid4()),
                                                        "hook_event_name": "SessionStart", "source": "startup"},
                                  **env), "SessionStart")
    assert "REQUIRED before substantive work" in context and "OFF in this folder" not in context  # unsure: trusted
    assert "USER GRAPH" in mcp_call(srv, "kg_read", {"session_id": _kg_sid})  # the tools still answer



def test_a_resumed_gemini_session_gets_its_preload_again_and_is_asked_to_read_again(srv):
    # Gemini stores a conversation without its <hook_context> parts: after `gemini --resume` the preload was gone
    # from the model's request, while kg said it "remains in context" (found by an outside audit of real turns).
    base, kg_sid = gemini_session(srv, srv.home / "gem-proj")
    mcp_call(srv, "kg_read", {"session_id": kg_sid})
    resumed = one_object(run_hook(srv, "SessionStart", {**base, "hook_event_name": "SessionStart",
                                                        "source": "resume"}), "SessionStart")
    assert "KG MEMORY PRELOADED" in resumed and "deploy-checklist" in resumed, resumed
    assert f"session_id: {kg_sid}" in resumed  # the same kg session, its writes and seen lessons its own
    assert "remains in context" not in resumed
    # The full read in the resumed history named the preloaded lessons by id alone: it is asked for again.
    reminder = one_object(run_hook(srv, "BeforeAgent", {**base, "hook_event_name": "BeforeAgent",
                                                        "prompt": "what next"}), "BeforeAgent")
    assert "kg_read" in reminder


def test_a_prompt_gemini_sends_after_its_session_start_text_is_searched_by_the_typed_words_alone(srv):
    # Gemini puts the SessionStart hook's text ahead of the first prompt (`<hook_context>...</hook_context>` and a
    # blank line), and BeforeAgent's `prompt` carries it: kg searched its own words as if typed (19 extra terms,
    # a threshold raised from 0.01472 to 0.0368).
    base, kg_sid = gemini_session(srv, srv.home / "gem-proj")
    mcp_call(srv, "kg_read", {"session_id": kg_sid})
    said = (f"<hook_context>KG memory session resumed — session_id: {kg_sid} (pass it to every kg_* call). The memory "
            "preload earlier in this conversation remains in context; kg_sync(session_id) fetches the changes other "
            "sessions made since.</hook_context>\n\nWhy does the nebula deploy hang at the upload step?")
    run_hook(srv, "BeforeAgent", {**base, "hook_event_name": "BeforeAgent", "prompt": said})
    mine = [r for r in recall_log(srv) if r.get("kg_session") == kg_sid and "terms" in r]
    assert mine and mine[-1]["terms"] == ["nebula", "deploy", "hang", "upload", "step"], mine
