"""Real git in temp dirs: an environment that never reads or writes the user's git config, and small asks."""

from __future__ import annotations

import subprocess
from pathlib import Path

from kg_actors.storage import git_read


def git_env(base: Path, machine: str = "machine-a") -> dict:
    home = base / "home"
    home.mkdir(parents=True, exist_ok=True)
    return {
        "HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
        "GIT_AUTHOR_NAME": f"tester on {machine}", "GIT_AUTHOR_EMAIL": f"tester@{machine}.invalid",
        "GIT_COMMITTER_NAME": f"tester on {machine}", "GIT_COMMITTER_EMAIL": f"tester@{machine}.invalid",
        "KG_MACHINE": machine,
    }


def git(root: Path, *args: str, env: dict | None = None, check: bool = True) -> str:
    proc = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, env=env, timeout=60)
    if check:
        assert proc.returncode == 0, f"git {args} failed: {proc.stderr}"
    return proc.stdout


def bare_repo(path: Path, env: dict) -> Path:
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(path)], check=True, env=env, timeout=60)
    return path


def committed_graph(root: Path, rel: str = "user.json", rev: str = "HEAD", env: dict | None = None) -> dict:
    """The graph whose file is `rel` as commit `rev` holds it (its mirror folder, or the file in an old commit)."""
    key = git_read.legacy_key(rel)
    assert key is not None, rel
    graph = git_read.graph_at(root, git(root, "rev-parse", rev, env=env).strip(), key)
    assert graph is not None, f"{rev} holds no graph {key}"
    return graph
