"""Issue #14: the Antigravity adapter end to end, with payloads of the documented shapes.

A real `kg serve`; the real hook script (harnesses/antigravity/hooks/kg-agy.sh)
fed Antigravity's camelCase payloads; MCP calls that carry Antigravity's
conversation `_meta`. A large reply becomes a receipt and arrives through the
next PreInvocation in packets of at most 40,000 bytes; nothing it implies is
recorded until the hook acknowledges the packet; a checkpoint resets the queue.
(Antigravity's CLI is not on a registry here: no real agy runs in these tests.)
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest
from e2e_helpers import wait_until
from hook_helpers import MCP_HEADERS, hook_env, node, post, project_graph, user_graph

from kg_actors.core import delivery as D
from kg_actors.core.recall import FULL_READ_REMINDER
from kg_actors.testing import ServerProcess, stored_sessions, write_store

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "harnesses" / "antigravity" / "hooks" / "kg-agy.sh"
AGY_UA = "Go-http-client/1.1 (kg mcp)"


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    server = ServerProcess(tmp_path_factory.mktemp("agy"))
    root = Path(server.project("agy-proj"))
    (root / "src").mkdir(parents=True, exist_ok=True)
    (root / "src" / "auth.py").write_text("# auth\n")
    # Up to three bytes a character: the full read is larger than one 40,000-byte packet.
    nodes = [node(f"lesson-{n:03d}-about-topic", f"lesson {n}: " + "un résumé détaillé, écrit à la main " * 6)
             for n in range(160)]
    # Longer than any gap the preload leaves: file recall, not the preload, is what shows it.
    nodes.append(node("auth-refresh-window", "JWT refresh uses a sliding window " + "of fifteen minutes " * 30,
                      _archived=True, touches=["src/auth.py"]))
    user = user_graph([node(f"habit-{n:03d}-of-the-user", "利用者の一般的な好みと作業の進め方について " * 5)
                       for n in range(120)])
    write_store(server.store, user, {"agy-proj": project_graph(str(root), nodes)})
    server.start()
    yield server
    server.stop()


class Conversation:
    """One Antigravity CLI conversation in the project: its id, transcript and hook payloads."""

    def __init__(self, srv: ServerProcess):
        self.srv = srv
        self.id = str(uuid.uuid4())
        self.root = str(srv.home / "agy-proj")
        folder = srv.home / ".gemini" / "antigravity-cli" / "conversations" / self.id
        folder.mkdir(parents=True, exist_ok=True)
        self.transcript = folder / "transcript.jsonl"
        self.transcript.touch()
        self.env = hook_env(srv)

    def payload(self, **extra) -> dict:
        return {"conversationId": self.id, "workspacePaths": [self.root], "transcriptPath": str(self.transcript),
                "modelName": "gemini-3-pro", **extra}

    def script(self, event: str, payload: dict | None = None) -> subprocess.CompletedProcess:
        return subprocess.run(["sh", str(SCRIPT), event], input=json.dumps(payload or self.payload()).encode(),
                              env=self.env, capture_output=True, timeout=30, cwd=SCRIPT.parent.parent)

    def hook(self, event: str, payload: dict | None = None) -> dict:
        """The endpoint alone: a hook that never acknowledges."""
        r = post(self.srv, f"/api/antigravity/hook/{event}", payload or self.payload())
        assert r.status_code == 200, r.text
        return r.json()

    def ack(self, delivery_id: object) -> int:
        r = post(self.srv, "/api/antigravity/ack", {"conversationId": self.id, "delivery_id": delivery_id})
        assert r.status_code == 200, r.text
        return r.json()["acknowledged"]

    def user(self, text: str) -> None:
        with open(self.transcript, "a") as f:
            f.write(json.dumps({"type": "USER_INPUT", "content": f"<USER_REQUEST>\n{text}\n</USER_REQUEST>"}) + "\n")

    def checkpoint(self) -> None:
        with open(self.transcript, "a") as f:
            f.write(json.dumps({"type": "CHECKPOINT", "content": "summary of the conversation so far"}) + "\n")

    def mcp(self, tool: str, **args) -> str:
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": tool, "arguments": args,
                           "_meta": {"antigravity.google/conversation_id": self.id}}}
        r = httpx.post(self.srv.url + "/", json=body, headers={**MCP_HEADERS, "User-Agent": AGY_UA}, timeout=30)
        result = r.json()["result"]
        assert not result.get("isError"), result
        return "\n".join(c["text"] for c in result["content"])

    def state(self) -> dict:
        sid = self.session()
        return httpx.get(self.srv.url + "/api/session_state", params={"session_id": sid}).json()

    def session(self) -> str:
        """Read from the store, not asked with a `resume` SessionStart: a resume of a session no preload
        reached preloads it (and would count as the acknowledgement the tests look for)."""
        def stored() -> str | None:  # saved right after the conversation's first hook is answered
            sids = [sid for sid, s in stored_sessions(self.srv.store).items() if s.get("claude_sid") == self.id]
            assert len(sids) <= 1, sids
            return sids[0] if sids else None

        return wait_until(stored, what="the conversation's session stored")

    def drain(self) -> tuple[list[str], list[dict]]:
        """PreInvocation until the queue is empty, acknowledging each packet: the texts and the replies."""
        texts, replies = [], []
        for _ in range(50):
            out = self.hook("PreInvocation", self.payload(invocationNum=1))
            if out["delivery_id"] is None:
                return texts, replies
            replies.append(out)
            texts.append(out["output"]["injectSteps"][0]["systemMessage"]["systemMessage"])
            self.ack(out["delivery_id"])
        raise AssertionError("the queue never drained")


def sessions(srv: ServerProcess) -> set[str]:
    return set(stored_sessions(srv.store))


def injected(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 0 and proc.stderr == b""
    lines = proc.stdout.decode().splitlines()
    assert len(lines) == 1, proc.stdout
    out = json.loads(lines[0])
    assert list(out) == ["injectSteps"]
    return out["injectSteps"][0]["systemMessage"]["systemMessage"]


def test_the_hook_script_preloads_at_session_start_through_preinvocation_and_acknowledges(srv):
    c = Conversation(srv)
    start = c.script("SessionStart")
    assert start.returncode == 0 and start.stdout == b""  # SessionStart cannot inject: the preload waits
    text = injected(c.script("PreInvocation", c.payload(invocationNum=0)))
    assert text.startswith("KG context — preload:") and "session_id: " in text
    assert c.state()["preloaded_count"] > 0  # the script acknowledged: the preload counts
    assert c.script("PreInvocation", c.payload(invocationNum=1)).stdout == b""  # nothing left to deliver


def test_a_preload_never_acknowledged_is_not_recorded_and_comes_again(srv):
    c = Conversation(srv)
    first = c.hook("PreInvocation", c.payload(invocationNum=0))  # a new conversation: preload queued
    again = c.hook("PreInvocation", c.payload(invocationNum=1))
    assert first["delivery_id"] is not None and again["delivery_id"] != first["delivery_id"]
    assert again["output"] == first["output"]
    assert c.state()["preloaded_count"] == 0  # no ack: the session was not told it was preloaded
    assert c.ack(first["delivery_id"]) == 0  # a replaced packet acks nothing
    assert c.ack(again["delivery_id"]) == 1
    assert c.state()["preloaded_count"] > 0


def test_a_large_mcp_reply_is_queued_chunked_and_recorded_only_on_ack(srv):
    c = Conversation(srv)
    c.drain()  # the preload
    receipt = c.mcp("kg_read", cwd=c.root)
    assert D.size(receipt) <= D.INLINE_BYTES and "queued" in receipt
    assert c.state()["full_read_done"] is False
    out = c.hook("PreInvocation", c.payload(invocationNum=1))
    assert out["delivery_id"] is not None and c.state()["full_read_done"] is False  # shown, not acknowledged
    assert c.ack(out["delivery_id"]) == 0  # the first packet completes nothing: the read goes on
    assert c.state()["full_read_done"] is False
    packets = [out] + c.drain()[1]
    texts = [p["output"]["injectSteps"][0]["systemMessage"]["systemMessage"] for p in packets]
    assert all(D.size(t) <= D.HOOK_BYTES for t in texts)
    assert len(texts) >= 2 and D.CONTINUES in texts[0]  # the read is larger than one packet
    assert c.state()["full_read_done"] is True
    assert "I have recalled KG Memories" in "".join(texts)


def test_a_small_reply_stays_inline_and_counts_at_once(srv):
    c = Conversation(srv)
    c.drain()
    text = c.mcp("kg_search", query="JWT sliding window")
    assert "auth-refresh-window" in text and D.size(text) <= D.INLINE_BYTES
    assert c.hook("PreInvocation", c.payload(invocationNum=1))["delivery_id"] is None
    # Seen at once: reading the file it names recalls nothing new.
    c.hook("PostToolUse", c.payload(toolCall={"name": "view_file", "args": {"AbsolutePath": c.root + "/src/auth.py"}}))
    texts, _ = c.drain()
    assert not any("auth-refresh-window" in t for t in texts)


def test_a_checkpoint_resets_the_queue_and_preloads_again(srv):
    c = Conversation(srv)
    c.drain()
    c.mcp("kg_read", cwd=c.root)
    stale = c.hook("PreInvocation", c.payload(invocationNum=1))
    c.checkpoint()
    fresh = c.hook("PreInvocation", c.payload(invocationNum=1))
    text = fresh["output"]["injectSteps"][0]["systemMessage"]["systemMessage"]
    assert text.startswith("KG context — preload:") and "kg_read" not in text.split("\n", 1)[0]
    assert c.ack(stale["delivery_id"]) == 0
    texts, _ = c.drain()
    assert not any("KG context — kg_read" in t for t in texts)  # the queued read was dropped
    assert c.state()["full_read_done"] is False


def test_file_recall_after_view_file_waits_for_the_next_preinvocation(srv):
    c = Conversation(srv)
    c.drain()
    done = c.script("PostToolUse", c.payload(stepIdx=4, toolCall={
        "name": "view_file", "args": {"AbsolutePath": c.root + "/src/auth.py"}}))
    assert done.returncode == 0 and done.stdout == b""  # PostToolUse cannot inject
    text = injected(c.script("PreInvocation", c.payload(invocationNum=1)))
    assert "KG context — file recall" in text and "auth-refresh-window" in text


def test_a_new_user_request_in_the_transcript_gets_the_prompt_hook_s_answer(srv):
    c = Conversation(srv)
    c.drain()
    assert c.hook("PreInvocation", c.payload(invocationNum=0))["delivery_id"] is None  # no new request
    c.user("how does the JWT refresh sliding window work?")
    assert c.hook("PreInvocation", c.payload(invocationNum=1))["delivery_id"] is None  # not a turn's first call
    c.user("and where is it configured?")
    out = c.hook("PreInvocation", c.payload(invocationNum=0))
    # Before the full read, the prompt hook's answer is the reminder to make it.
    assert FULL_READ_REMINDER in out["output"]["injectSteps"][0]["systemMessage"]["systemMessage"]


def test_a_large_reply_without_hooks_is_refused_with_the_setup_hint(srv):
    c = Conversation(srv)  # no hook ever came from this conversation
    text = c.mcp("kg_read", cwd=c.root)
    assert "kg setup" in text and D.size(text) <= D.INLINE_BYTES


@pytest.mark.parametrize("path,body", [
    ("/api/antigravity/hook/NoSuchEvent", {"conversationId": "c1"}),
    ("/api/antigravity/hook/PreInvocation", {"session_id": "s", "transcript_path": "/x.jsonl", "cwd": "/tmp",
                                              "hook_event_name": "UserPromptSubmit", "prompt": "hi"}),
    ("/api/antigravity/hook/PreInvocation", {"conversationId": "c2", "transcriptPath": "/home/u/.gemini/antigravity/ide.jsonl"}),
    ("/api/antigravity/hook/PostToolUse", {"conversationId": "c3", "toolCall": "not an object"}),
    ("/api/antigravity/ack", {"conversationId": "never-seen", "delivery_id": 12345}),
    ("/api/antigravity/ack", {"conversationId": "x", "delivery_id": "12"}),
])
def test_bad_input_is_answered_quickly_silently_and_records_nothing(srv, path, body):
    before = sessions(srv)
    start = time.monotonic()
    r = post(srv, path, body)
    assert r.status_code == 200 and time.monotonic() - start < 3  # a hang, not a speed (bench times it)
    assert r.json() in ({"output": {}, "delivery_id": None}, {"acknowledged": 0})
    assert sessions(srv) == before  # no session registered (a session is saved as soon as it is)


def test_the_script_prints_nothing_for_an_unknown_event_or_a_claude_payload(srv):
    c = Conversation(srv)
    assert c.script("Stop").stdout == b""
    claude = {"session_id": "x", "transcript_path": "/tmp/x.jsonl", "cwd": c.root, "hook_event_name": "PreToolUse"}
    assert c.script("PreInvocation", claude).stdout == b""
    down = subprocess.run(["sh", str(SCRIPT), "PreInvocation"], input=json.dumps(c.payload()).encode(),
                          env={**c.env, "KG_HTTP_PORT": "1"}, capture_output=True, timeout=30)
    assert down.returncode == 0 and down.stdout == b""


def test_kg_setup_installs_the_package_with_agy_and_uninstall_removes_it(tmp_path):
    """No real agy here: a stand-in on PATH records what setup asks of it (the package it is handed)."""
    home, bin_dir, calls = tmp_path / "home", tmp_path / "bin", tmp_path / "agy-calls"
    home.mkdir()
    bin_dir.mkdir()
    agy = bin_dir / "agy"
    agy.write_text(f'#!/bin/sh\nprintf "%s\\n" "$*" >> "{calls}"\n')
    agy.chmod(0o755)
    env = {"HOME": str(home), "KG_HOME": str(tmp_path / "store"), "PATH": f"{bin_dir}:/usr/bin:/bin",
           "LANG": "C.UTF-8"}
    kg = str(Path(sys.executable).with_name("kg"))
    out = subprocess.run([kg, "setup", "--only", "antigravity", "--yes"], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    (line,) = calls.read_text().splitlines()
    verb, package = line.rsplit(" ", 1)
    assert verb == "plugin install"
    package = Path(package)
    assert json.loads((package / "plugin.json").read_text())["name"] == "kg-memory"
    hooks = json.loads((package / "hooks.json").read_text())["kg-memory"]
    assert set(hooks) == {"SessionStart", "PreInvocation", "PostToolUse"}
    assert "multi_replace_file_content" in hooks["PostToolUse"][0]["matcher"]
    server = json.loads((package / "mcp_config.json").read_text())["mcpServers"]["kg"]
    assert Path(server["command"]).is_absolute() and server["args"][-1] == "mcp"
    assert "KG_HOME" in (package / "hooks" / "kg_env").read_text()
    assert (package / "hooks" / "kg-agy.sh").stat().st_mode & 0o111
    again = subprocess.run([kg, "setup", "--only", "antigravity", "--yes"], env=env, capture_output=True, text=True,
                           timeout=120)
    assert "up to date" in again.stdout and len(calls.read_text().splitlines()) == 1
    gone = subprocess.run([kg, "uninstall", "--yes"], env=env, capture_output=True, text=True, timeout=120)
    assert gone.returncode == 0, gone.stdout + gone.stderr
    assert calls.read_text().splitlines()[-1] == "plugin uninstall kg-memory"


def test_archived_nodes_read_in_a_queued_reply_are_promoted_only_when_it_is_acknowledged(srv):
    from e2e_helpers import graph, nodes_by_id

    c = Conversation(srv)
    c.drain()
    project = nodes_by_id(graph(srv, project_path=c.root)["project"])
    archived = sorted(i for i, n in project.items() if n.get("_archived") and i.startswith("lesson-"))[:25]
    assert len(archived) == 25
    receipt = c.mcp("kg_read", ids=archived)
    assert "queued" in receipt
    out = c.hook("PreInvocation", c.payload(invocationNum=1))
    still = nodes_by_id(graph(srv, project_path=c.root)["project"])
    assert all(still[i].get("_archived") for i in archived)  # shown, not acknowledged: nothing promoted
    c.ack(out["delivery_id"])
    c.drain()
    after = nodes_by_id(graph(srv, project_path=c.root)["project"])
    assert not any(after[i].get("_archived") for i in archived)


def test_a_checkpoint_after_the_full_read_gives_a_fresh_core_preload_not_a_resumed_note(srv):
    c = Conversation(srv)
    first, _ = c.drain()  # the preload, delivered and acknowledged
    c.mcp("kg_read", cwd=c.root)
    c.drain()  # the full read, delivered
    assert c.state()["full_read_done"] is True
    c.checkpoint()
    out = c.hook("PreInvocation", c.payload(invocationNum=3))
    text = out["output"]["injectSteps"][0]["systemMessage"]["systemMessage"]
    # A checkpoint's summary keeps no gists: the core comes again, as after Claude Code's compaction.
    assert "remains in context" not in text and "resumed" not in text
    assert "KG MEMORY PRELOADED" in text and "lesson-" in text
    assert D.size(text) <= 10_000 + len("KG context — preload:\n") + 200  # the preload within Antigravity's limit
    c.ack(out["delivery_id"])
    assert c.state()["preloaded_count"] > 0


def test_after_a_restart_a_conversation_never_given_its_preload_gets_one_not_a_resumed_note(srv):
    c = Conversation(srv)
    assert c.hook("PreInvocation", c.payload(invocationNum=0))["delivery_id"] is not None  # never acknowledged
    srv.stop()
    srv.start()
    out = c.hook("PreInvocation", c.payload(invocationNum=1))
    text = out["output"]["injectSteps"][0]["systemMessage"]["systemMessage"]
    assert "remains in context" not in text and "KG MEMORY PRELOADED" in text
    # One that was given its preload is told it stands.
    c.ack(out["delivery_id"])
    srv.stop()
    srv.start()
    again = c.hook("PreInvocation", c.payload(invocationNum=1))
    assert "remains in context" in again["output"]["injectSteps"][0]["systemMessage"]["systemMessage"]


def test_after_the_full_read_a_request_the_server_has_nothing_for_gets_a_line_of_the_shared_pools(srv):
    pool_lines = {line.partition(" ")[2] for line in (REPO / "hooks" / "reminders.txt").read_text().splitlines()
                  if line and not line.startswith("#")}
    c = Conversation(srv)
    c.drain()
    c.mcp("kg_read", cwd=c.root)
    c.drain()
    assert c.state()["full_read_done"] is True
    c.user("hello there")
    text = injected(c.script("PreInvocation", c.payload(invocationNum=0)))
    assert text.splitlines()[-1] in pool_lines and len(text.splitlines()) == 2, text  # its header, then the line
    assert c.hook("PreInvocation", c.payload(invocationNum=1))["delivery_id"] is None  # the script acknowledged it
