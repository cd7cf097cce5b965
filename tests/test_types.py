"""The actor core, the use cases and the pure core type-check under `mypy --strict`: a request can be followed
across an actor."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The actors, their handles and messages, the use cases, the pure core, and the runtime that wires them.
# Left out: the edges that translate (http/ routes, setup/, storage/, cli.py, config.py), whose untyped
# parts are followed silently.
STRICT_FILES = [
    "kg_actors/core/",
    "kg_actors/conduct/",
    "kg_actors/chores/",
    "kg_actors/harness/tool_calls.py",
    "kg_actors/http/server.py",
    "kg_actors/http/websocket.py",
    "kg_actors/sync/keeper.py",
    *sorted(
        str(path.relative_to(ROOT)) for path in (ROOT / "kg_actors").glob("*.py")
        if path.name not in {"__main__.py", "cli.py", "config.py", "testing.py", "debug_heap.py"}
    ),
]


def test_the_actor_core_passes_mypy_strict():
    pytest.importorskip("mypy")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-incremental", *STRICT_FILES],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
