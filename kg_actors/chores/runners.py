"""How a maintenance run is launched: which binary, which flags, which environment, and the process's life.

Every flag here was checked against the installed CLIs' `--help` (Claude Code
and Codex, from npm); Antigravity's `agy` is not on a registry here, so its
command follows its documented interface only.

The prompt goes on stdin; cwd is the storage root (no project's CLAUDE.md,
AGENTS.md or .mcp.json is read); the environment drops the launching
session's identity and sets KG_CHORE=1 so the plugin's hooks stand down
inside the run. stdout and stderr are one pipe, drained to its last few
kilobytes; on timeout the whole process group gets SIGTERM, then SIGKILL
after a grace period, and the process is always reaped. The agent runs under
leash.py, which ends its group if the server dies (a kill -9 included).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import time
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from subprocess import PIPE, STDOUT

import attrs
import trio

from ..core.chores import ChoreConfig
from ..storage import user_files
from . import leash

CHORE_TOOLS = ("kg_read", "kg_search", "kg_put_node", "kg_put_edge", "kg_rename_node", "kg_progress")
PASS_TOOLS = CHORE_TOOLS + ("kg_delete_node", "kg_delete_edge", "kg_useful")
KG_TOOLS = PASS_TOOLS + ("kg_sync",)  # every tool the server serves (a test holds this to http/schemas.py)
MCP_NAME = "kg"
GRACE_SECONDS = 5.0
OUTPUT_TAIL = 4000
LEASH = str(Path(__file__).with_name("leash.py"))
# A run's mark, so the server can tell its kg calls from everyone else's (http/run_calls.py counts them):
# on the MCP URL it is given, and in its environment for a runner that reaches kg through `kg mcp` (the shim
# puts it on its requests' URL; shim/__init__.py has its own copy of both names).
RUN_PARAM = "kg_run"
RUN_ENV = "KG_CHORE_RUN"
# The launching session's identity: a run must not pass for it (nor for its harness's child).
_DROP_PREFIXES = ("CLAUDE_CODE_", "ANTIGRAVITY_")
_DROP = frozenset({"CLAUDECODE", "CLAUDE_PID", "CLAUDE_EFFORT", "AI_AGENT", "CODEX_THREAD_ID", "CODEX_SESSION_ID",
                   "CODEX_MANAGED_BY_NPM", "KG_SESSION_ID"})


# What else a run's environment keeps: an allow-list, so the server's other secrets (a GITHUB_TOKEN, cloud
# keys, another provider's key) never reach the agent. The basics a CLI needs, proxies and CA settings, Node's
# own settings (both CLIs run on Node; not NODE_AUTH_TOKEN, an npm secret), kg's own, and the provider keys
# and settings of the runner's CLI only.
_KEEP = frozenset({
    "PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TERM", "COLORTERM", "TMPDIR", "SHELL", "TZ",
    "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "no_proxy", "all_proxy",
    "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE",
    "NODE_OPTIONS", "NODE_EXTRA_CA_CERTS", "NODE_TLS_REJECT_UNAUTHORIZED", "NODE_USE_ENV_PROXY", "NODE_PATH",
})
_KEEP_PREFIXES = ("LC_", "XDG_", "KG_")
_RUNNER_PREFIXES = {"claude": ("ANTHROPIC_", "CLAUDE_"), "codex": ("OPENAI_", "CODEX_"),
                    "antigravity": ("GEMINI_", "GOOGLE_")}
# Claude Code's own settings that say how it signs in (not who launched it): kept beside its provider's, and the
# cloud's credentials when they route it through Bedrock or Vertex (else a run there fails to sign in).
_CLAUDE_SIGN_IN = frozenset({
    "CLAUDE_CODE_OAUTH_TOKEN", "CLAUDE_CODE_OAUTH_REFRESH_TOKEN", "CLAUDE_CODE_CLIENT_CERT", "CLAUDE_CODE_CLIENT_KEY",
    "CLAUDE_CODE_CLIENT_KEY_PASSPHRASE", "CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX", "CLAUDE_CODE_USE_FOUNDRY",
    "CLAUDE_CODE_SKIP_BEDROCK_AUTH", "CLAUDE_CODE_SKIP_VERTEX_AUTH", "CLAUDE_CODE_SKIP_FOUNDRY_AUTH"})
_CLOUDS = {"CLAUDE_CODE_USE_BEDROCK": ("AWS_",), "CLAUDE_CODE_USE_VERTEX": ("GOOGLE_", "CLOUDSDK_", "CLOUD_ML_",
                                                                           "VERTEX_REGION_", "GCLOUD_"),
           "CLAUDE_CODE_USE_FOUNDRY": ("AZURE_",)}
_ON = frozenset(("1", "true", "yes", "on"))  # as Claude Code reads these switches
# The user's own opt-outs and limits for Claude Code (telemetry, error reports, non-essential traffic, timeouts):
# a run made for them keeps them.
_CLAUDE_SETTINGS = frozenset({
    "DISABLE_TELEMETRY", "DISABLE_ERROR_REPORTING", "DISABLE_AUTOUPDATER", "DISABLE_BUG_COMMAND",
    "DISABLE_COST_WARNINGS", "DISABLE_NON_ESSENTIAL_MODEL_CALLS", "DISABLE_PROMPT_CACHING", "API_TIMEOUT_MS",
    "MAX_THINKING_TOKENS", "MCP_TIMEOUT", "MCP_TOOL_TIMEOUT", "BASH_DEFAULT_TIMEOUT_MS", "BASH_MAX_TIMEOUT_MS",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "CLAUDE_CODE_MAX_OUTPUT_TOKENS"})


def marked_url(url: str, mark: str) -> str:
    return f"{url}?{RUN_PARAM}={mark}"


def chore_env(env: Mapping[str, str], runner: str, mark: str | None = None) -> dict[str, str]:
    """The run's environment: the allow-list and its runner's provider settings, less the launching session's
    identity, plus KG_CHORE=1 and the run's mark (none inherited: another run's would count its calls there)."""
    keep: tuple[str, ...] = _KEEP_PREFIXES + _RUNNER_PREFIXES[runner]
    signs_in: frozenset[str] = frozenset()
    if runner == "claude":
        signs_in = _CLAUDE_SIGN_IN | _CLAUDE_SETTINGS
        keep += tuple(p for on, clouds in _CLOUDS.items() if env.get(on, "").strip().lower() in _ON for p in clouds)
    out = {k: v for k, v in env.items() if k in signs_in or ((k in _KEEP or k.startswith(keep))
                                                           and k not in _DROP and not k.startswith(_DROP_PREFIXES))}
    out["KG_CHORE"] = "1"
    out.pop(RUN_ENV, None)
    if mark is not None:
        out[RUN_ENV] = mark
    return out


def find_binary(runner: str, cfg: ChoreConfig, env: Mapping[str, str]) -> str | None:
    """The configured binary (it pins the runner even when wrong: the refusal then says so), else PATH's."""
    pinned = {"claude": cfg.claude_bin, "codex": cfg.codex_bin, "antigravity": cfg.antigravity_bin}[runner]
    if pinned:
        return os.path.expanduser(pinned)
    name = {"claude": "claude", "codex": "codex", "antigravity": "agy"}[runner]
    return shutil.which(name, path=env.get("PATH", os.defpath))


def pick_runner(cfg: ChoreConfig, harness: str | None, env: Mapping[str, str]) -> str:
    """`auto`: the prompting session's own harness when its binary is found (its `*_bin`, else PATH's);
    otherwise a configured binary, then the first installed. A `*_bin` says where that harness's binary
    is: it never makes another harness's session run it (nor spend that harness's quota)."""
    if cfg.runner != "auto":
        return cfg.runner
    order = ["claude", "codex", "antigravity"]
    own = harness if harness in order else None
    if own and find_binary(own, cfg, env):
        return own
    for runner in order:
        if {"claude": cfg.claude_bin, "codex": cfg.codex_bin, "antigravity": cfg.antigravity_bin}[runner]:
            return runner
    return next((r for r in order if find_binary(r, cfg, env)), "claude")


def binary_problem(path: str | None, runner: str) -> str | None:
    if not path:
        return f"{runner} binary missing (not on PATH)"
    if not os.path.isfile(path):
        return f"{runner} binary missing: {path}"
    if not os.access(path, os.X_OK):
        return f"{runner} binary not executable: {path}"
    return None


def command(runner: str, binary: str, cfg: ChoreConfig, tier: str, url: str) -> list[str]:
    tools = PASS_TOOLS if tier == "pass" else CHORE_TOOLS
    if runner == "claude":
        servers = {"mcpServers": {MCP_NAME: {"type": "http", "url": url}}}
        argv = [binary, "-p", "--setting-sources", "user", "--strict-mcp-config",
                "--mcp-config", json.dumps(servers), "--tools", "",
                "--allowedTools", ",".join(f"mcp__{MCP_NAME}__{t}" for t in tools),
                # Allowed only pre-approves: the model would still be shown the other kg tools and spend
                # turns on calls that are denied. A tool denied by name is not shown at all.
                "--disallowedTools", ",".join(f"mcp__{MCP_NAME}__{t}" for t in KG_TOOLS if t not in tools),
                "--permission-mode", "dontAsk", "--no-session-persistence"]
        return argv + (["--model", cfg.model] if cfg.model else [])
    if runner == "codex":
        argv = [binary, "exec", "--ephemeral", "--ignore-user-config", "--skip-git-repo-check",
                "-s", "read-only", "--disable", "shell_tool", "-c", 'web_search="disabled"',
                "-c", f"mcp_servers.{MCP_NAME}.url={json.dumps(url)}",
                "-c", f"mcp_servers.{MCP_NAME}.enabled_tools={json.dumps(list(tools))}",
                "-c", f'mcp_servers.{MCP_NAME}.default_tools_approval_mode="approve"',
                "-c", f'model_reasoning_effort="{"medium" if tier == "pass" else "low"}"']
        return argv + (["-m", cfg.codex_model] if cfg.codex_model else []) + ["-"]
    assert runner == "antigravity"
    argv = [binary, "--agent", AGY_AGENT, "--effort", "medium" if tier == "pass" else "low",
            "--input-format", "stream-json", "--output-format", "stream-json"]
    return argv + (["--model", cfg.antigravity_model] if cfg.antigravity_model else [])


def stdin_for(runner: str, prompt: str) -> bytes:
    if runner == "antigravity":  # its stream-json input: one user event
        return (json.dumps({"event": "user", "message": {"content": prompt}}) + "\n").encode()
    return prompt.encode()


# Antigravity: a tool-less agent whose only reach is the MCP tools its settings grant ------------

AGY_AGENT = "kg-maintainer"
AGY_WORKSPACE = "agy-runner"  # under the storage root: agy finds the agent in its cwd's .agents/
AGY_AGENT_MD = """---
name: kg-maintainer
description: Pays down the knowledge graph's maintenance debt through the kg MCP tools only.
tools: []
---
Use only the kg MCP tools. Do one bounded maintenance task as the prompt says, then stop.
"""


def agy_refusal(cfg_allow_credits: bool, home: Path) -> str | None:
    """Refused while paid credits could be spent, or when the kg tools are not granted."""
    settings = home / ".gemini" / "antigravity-cli" / "settings.json"
    try:
        data = user_files.load_json(settings)
    except (OSError, ValueError):
        return f"antigravity settings unreadable: {settings}"
    if not isinstance(data, dict):
        return f"antigravity settings unreadable: {settings}"
    if data.get("useG1Credits") and not cfg_allow_credits:
        return "antigravity: paid credits could be spent (useG1Credits is on)"
    allowed = json.dumps(data.get("permissions", data.get("allow", [])))
    if "mcp(" not in allowed:
        return "antigravity: the kg MCP tools are not granted in its settings"
    return None


def agy_workspace(root: Path) -> Path:
    return root / AGY_WORKSPACE


def write_agy_agent(root: Path) -> None:
    path = agy_workspace(root) / ".agents" / "agents" / AGY_AGENT / "agent.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != AGY_AGENT_MD:
        path.write_text(AGY_AGENT_MD)


# The process ------------------------------------------------------------------------------

@attrs.frozen
class RunResult:
    rc: int | None  # None: it never started
    elapsed_s: float
    output: str  # the last OUTPUT_TAIL characters of stdout+stderr
    timed_out: bool = False
    error: str | None = None


def _signal_group(pid: int, sig: int) -> None:
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


async def run(argv: list[str], stdin: bytes, cwd: Path, env: Mapping[str, str], timeout: float,
              grace: float = GRACE_SECONDS, on_start: Callable[[int], Awaitable[None]] | None = None) -> RunResult:
    """Run one maintenance agent to its end, or to its timeout: SIGTERM its group, `grace`, SIGKILL.

    The agent runs under leash.py (its group's leader, whose pid `on_start` is told), which ends the
    group if this process dies: a run never outlives its server."""
    started = time.monotonic()
    held, kept = os.pipe()  # the leash holds the read end; this process alone the write end, until the run ends
    try:
        proc = await trio.lowlevel.open_process([sys.executable, "-I", LEASH, str(held), "--", *argv], stdin=PIPE,
                                                stdout=PIPE, stderr=STDOUT, cwd=str(cwd), env=dict(env),
                                                start_new_session=True, pass_fds=(held,))
    except OSError as exc:
        os.close(kept)
        return RunResult(None, 0.0, "", error=f"could not start {argv[0]}: {exc}")
    finally:
        os.close(held)
    try:
        return await _supervise(proc, stdin, timeout, grace, started, on_start)
    finally:
        os.close(kept)


async def _supervise(proc: trio.Process, stdin: bytes, timeout: float, grace: float, started: float,
                     on_start: Callable[[int], Awaitable[None]] | None) -> RunResult:
    tail = bytearray()
    timed_out = False
    drained = trio.Event()

    async def feed() -> None:
        assert proc.stdin is not None
        try:
            await proc.stdin.send_all(stdin)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass  # it exited or closed stdin early: its exit code says what happened
        finally:
            await proc.stdin.aclose()

    async def drain() -> None:
        assert proc.stdout is not None
        async for chunk in proc.stdout:
            tail.extend(chunk)
            del tail[:-OUTPUT_TAIL * 4]
        drained.set()

    try:
        if on_start is not None:
            await on_start(proc.pid)
        async with trio.open_nursery() as pipes:
            pipes.start_soon(feed)
            pipes.start_soon(drain)
            with trio.move_on_after(timeout) as scope:
                await proc.wait()
            if scope.cancelled_caught:
                timed_out = True
                _signal_group(proc.pid, signal.SIGTERM)
                with trio.move_on_after(grace):
                    await proc.wait()
                _signal_group(proc.pid, signal.SIGKILL)  # the group: children the agent left behind too
                await proc.wait()
            else:
                _signal_group(proc.pid, signal.SIGKILL)  # stragglers the agent started and left
            # A grandchild that left the group may still hold the pipe: it gets `grace`, not forever.
            with trio.move_on_after(grace):
                await drained.wait()
            pipes.cancel_scope.cancel()
    finally:
        with trio.CancelScope(shield=True):
            if proc.returncode is None:
                _signal_group(proc.pid, signal.SIGKILL)
                await proc.wait()
    text = tail.decode("utf-8", errors="replace")[-OUTPUT_TAIL:]
    elapsed = round(time.monotonic() - started, 1)
    if proc.returncode == leash.EXEC_FAILED and text.startswith(leash.MARK):
        return RunResult(None, elapsed, "", error="could not start" + text.removeprefix(leash.MARK).rstrip())
    return RunResult(proc.returncode, elapsed, text, timed_out)
