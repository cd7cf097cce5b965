"""Driving the real hook scripts the way Claude Code and Codex do, against a real `kg serve`.

A hook is `sh hooks/<script>.sh` with the harness's JSON payload on stdin and
the server's HOME and KG_HTTP_PORT in its environment; what it prints is what
the harness would add to the conversation. Transcripts are written where each
harness keeps them (Claude Code under ~/.claude/projects, Codex rollouts under
~/.codex/sessions), with the lines a real session would have put there.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path

import attrs
import httpx

from kg_actors.core.recall import FULL_READ_REMINDER
from kg_actors.testing import ServerProcess

REPO = Path(__file__).resolve().parents[2]
HOOKS = REPO / "hooks"
VENV_BIN = Path(sys.executable).parent
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"
PRELOAD_SID = re.compile(r"session_id: ([0-9a-f]{8}) \(pass")
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
CLAUDE_UA = "claude-code/2.1.294 (kg mcp)"
CODEX_UA = "codex-mcp-client/0.160.0 (kg mcp)"
POOL_PREFIX = "KG: "


@attrs.frozen
class HookRun:
    out: str
    err: str
    rc: int
    seconds: float

    @property
    def json(self) -> dict | None:
        """The one JSON object a hook prints, or None when it printed nothing."""
        text = self.out.strip()
        if not text:
            return None
        assert "\n" not in text, f"a hook prints one line, got: {self.out!r}"
        return json.loads(text)

    @property
    def context(self) -> str:
        """The text the harness adds to the conversation ("" when the hook said nothing)."""
        out = self.json or {}
        return (out.get("hookSpecificOutput") or {}).get("additionalContext", "")

    @property
    def message(self) -> str:
        return (self.json or {}).get("systemMessage", "")

    @property
    def is_pool_line(self) -> bool:
        """The prompt hook's own reminder (the server answered that it had nothing to say)."""
        return self.context.startswith(POOL_PREFIX) and "\n" not in self.context

    @property
    def is_reminder(self) -> bool:
        return self.context == FULL_READ_REMINDER


def hook_env(srv: ServerProcess, path: str = SYSTEM_PATH, **extra: str) -> dict:
    """What a harness passes a hook: HOME and the port; PATH without the venv unless asked."""
    return {"HOME": str(srv.home), "KG_HTTP_PORT": str(srv.port), "KG_HOME": str(srv.store),
            "KG_EDITOR_PORT": str(srv.editor_port), "PATH": path, "LANG": "C.UTF-8", **extra}


def run_hook(name: str, payload: dict | bytes | str, env: dict, timeout: float = 30.0) -> HookRun:
    if isinstance(payload, dict):
        data = json.dumps(payload).encode()
    elif isinstance(payload, str):
        data = payload.encode()
    else:
        data = payload
    start = time.monotonic()
    proc = subprocess.run(["sh", str(HOOKS / f"{name}.sh")], input=data, env=env, capture_output=True,
                          timeout=timeout, cwd=env.get("HOME"))
    return HookRun(proc.stdout.decode(errors="replace"), proc.stderr.decode(errors="replace"), proc.returncode,
                   time.monotonic() - start)


class Harness:
    """One harness session (Claude Code or Codex) in one project: its id, transcript and hook payloads."""

    def __init__(self, srv: ServerProcess, cwd: str, kind: str = "claude", sid: str | None = None,
                 transcript: Path | None = None):
        self.srv = srv
        self.cwd = cwd
        self.kind = kind
        self.sid = sid or str(uuid.uuid4())
        self.transcript = transcript or (claude_transcript(srv.home, cwd, self.sid) if kind == "claude"
                                         else codex_rollout(srv.home, self.sid))
        self.env = hook_env(srv)
        self.kg_sid: str | None = None

    def _base(self, event: str) -> dict:
        base = {"session_id": self.sid, "transcript_path": str(self.transcript), "cwd": self.cwd,
                "hook_event_name": event}
        if self.kind == "codex":
            base.update(model="gpt-5-codex", turn_id=str(uuid.uuid4()))
        else:
            base["permission_mode"] = "default"
        return base

    def start(self, source: str = "startup", env: dict | None = None) -> HookRun:
        run = run_hook("session_start", {**self._base("SessionStart"), "source": source}, env or self.env)
        found = PRELOAD_SID.search(run.context) or re.search(r"session_id: ([0-9a-f]{8})", run.context)
        if found:
            self.kg_sid = found.group(1)
            self.record(run.context)  # the harness keeps what the hook added in its transcript
        return run

    def prompt(self, text: str, env: dict | None = None) -> HookRun:
        self.record_user(text)
        return run_hook("prompt", {**self._base("UserPromptSubmit"), "prompt": text}, env or self.env)

    def tool(self, name: str, tool_input: dict, response: object = None, env: dict | None = None,
             **extra) -> HookRun:
        payload = {**self._base("PostToolUse"), "tool_name": name, "tool_input": tool_input,
                   "tool_response": response if response is not None else {"success": True},
                   "tool_use_id": f"toolu_{uuid.uuid4().hex[:20]}", **extra}
        return run_hook("tool_event", payload, env or self.env)

    def read(self, path: str) -> HookRun:
        return self.tool("Read", {"file_path": path}, {"type": "text", "file": {"filePath": path, "content": "…"}})

    def shell(self, command, **tool_input) -> HookRun:
        return self.tool("Bash", {"command": command, **tool_input}, {"stdout": "…", "stderr": "", "exit_code": 0})

    def mcp(self, tool: str, ua: str | None = None, **args) -> str:
        if self.kg_sid and "session_id" not in args and "cwd" not in args:
            args["session_id"] = self.kg_sid
        text = mcp_call(self.srv, tool, args, ua or (CODEX_UA if self.kind == "codex" else CLAUDE_UA))
        self.record(text)
        return text

    def full_read(self) -> str:
        text = self.mcp("kg_read")
        assert "I have recalled KG Memories" in text, text
        return text

    def record(self, text: str) -> None:
        """A line the harness writes to its transcript for something the session was shown."""
        with open(self.transcript, "a") as f:
            if self.kind == "codex":
                f.write(json.dumps({"timestamp": "2026-11-30T10:00:00Z", "type": "response_item",
                                    "payload": {"type": "message", "role": "user",
                                                "content": [{"type": "input_text", "text": text}]}}) + "\n")
            else:
                f.write(json.dumps({"type": "attachment", "sessionId": self.sid, "cwd": self.cwd,
                                    "attachment": {"type": "hook_additional_context", "content": [text]}}) + "\n")

    def record_user(self, text: str) -> None:
        with open(self.transcript, "a") as f:
            f.write(json.dumps({"type": "user", "sessionId": self.sid,
                                "message": {"role": "user", "content": text}}) + "\n")


def claude_transcript(home: Path, cwd: str, sid: str) -> Path:
    folder = home / ".claude" / "projects" / cwd.replace("/", "-")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{sid}.jsonl"
    path.touch()
    return path


def codex_rollout(home: Path, thread_id: str) -> Path:
    folder = home / ".codex" / "sessions" / "2026" / "11" / "30"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"rollout-2026-11-30T10-00-00-{thread_id}.jsonl"
    path.write_text(json.dumps({"timestamp": "2026-11-30T10:00:00Z", "type": "session_meta",
                                "payload": {"id": thread_id, "cwd": "", "originator": "codex_cli_rs"}}) + "\n")
    return path


def mcp_call(srv: ServerProcess, tool: str, args: dict, ua: str = CLAUDE_UA) -> str:
    """One tools/call over the MCP endpoint (stateless JSON), as the `kg mcp` shim forwards it."""
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": args}}
    r = httpx.post(srv.url + "/", json=body, headers={**MCP_HEADERS, "User-Agent": ua}, timeout=30)
    r.raise_for_status()
    result = r.json()["result"]
    text = "\n".join(c["text"] for c in result["content"] if c.get("type") == "text")
    assert not result.get("isError"), f"{tool}({args}) failed: {text}"
    return text


def post(srv: ServerProcess, path: str, body: bytes | dict, timeout: float = 10) -> httpx.Response:
    data = json.dumps(body).encode() if isinstance(body, dict) else body
    return httpx.post(srv.url + path, content=data, headers={"Content-Type": "application/json"}, timeout=timeout)


def recall_log(srv: ServerProcess) -> list[dict]:
    srv.logs_written()
    path = srv.store / "recall.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def node(node_id: str, gist: str, days_old: float = 40, **extra) -> dict:
    return {"id": node_id, "gist": gist, "_created_ts": time.time() - days_old * 86_400, **extra}


def project_graph(path: str, nodes: list[dict], edges: list[tuple[str, str, str]] = ()) -> dict:
    return {"nodes": {n["id"]: n for n in nodes},
            "edges": {f"{a}->{b}:{rel}": {"from": a, "to": b, "rel": rel} for a, b, rel in edges},
            "_meta": {"versions": {}, "project_path": path, "namespace": {"kind": "project", "owner": None}}}


def user_graph(nodes: list[dict]) -> dict:
    return {"nodes": {n["id"]: n for n in nodes}, "edges": {},
            "_meta": {"versions": {}, "namespace": {"kind": "user", "owner": None}}}
