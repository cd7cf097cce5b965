"""Clients we did not write, installed from the npm registry by .ci/run into $KG_TEST_NPM.

Outside CI, a test that needs one is skipped when the folder is missing; in CI
(CI=true) a missing client is a failure, so a broken install cannot pass as green.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

NODE = shutil.which("node")
JS = Path(__file__).with_name("js")
CLIENT_TIMEOUT = 60


def npm_root() -> Path:
    root = os.environ.get("KG_TEST_NPM")
    if root and (Path(root) / "node_modules").is_dir() and NODE:
        return Path(root)
    message = ("the npm clients are not installed: run `npm install --prefix DIR @modelcontextprotocol/sdk "
               "@anthropic-ai/claude-code @openai/codex` and set KG_TEST_NPM=DIR (.ci/run does)")
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def npm_bin(name: str) -> str:
    path = npm_root() / "node_modules" / ".bin" / name
    if not path.exists():
        pytest.fail(f"{name} is missing from {path.parent}")
    return str(path)


def client_env(home: Path, **extra: str) -> dict[str, str]:
    """A clean environment for a client run: its own HOME, no API key, no telemetry, nothing of ours."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("ANTHROPIC_", "CLAUDE", "OPENAI_", "CODEX_", "KG_"))}
    env.update(HOME=str(home), DISABLE_AUTOUPDATER="1", DISABLE_TELEMETRY="1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
               NO_COLOR="1", **extra)
    return env


def ts_client(srv, tmp_path: Path, mode: str, target: str, node_id: str) -> dict:
    """Run js/ts_client.mjs (the TypeScript MCP SDK: list, open a session, write, read back); what it saw."""
    script = npm_root() / "ts_client.mjs"  # beside node_modules, so its imports resolve to the installed SDK
    shutil.copyfile(JS / "ts_client.mjs", script)
    env = client_env(srv.home, KG_HTTP_PORT=str(srv.port), KG_HOME=str(srv.store))
    out = subprocess.run(["node", str(script), mode, target, srv.project(f"ts-{mode}"), node_id],
                         env=env, capture_output=True, text=True, timeout=CLIENT_TIMEOUT, cwd=tmp_path)
    assert out.returncode == 0, f"the TypeScript SDK client failed:\n{out.stderr[-3000:]}"
    return json.loads(out.stdout.strip().splitlines()[-1])
