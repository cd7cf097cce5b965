"""Clients we did not write, installed from the npm registry by .ci/run into $KG_TEST_NPM.

Outside CI, a test that needs one is skipped when the folder is missing; in CI
(CI=true) a missing client is a failure, so a broken install cannot pass as green.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

NODE = shutil.which("node")


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
