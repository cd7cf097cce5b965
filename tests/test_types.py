"""The actor core, the use cases and the pure core type-check under `mypy --strict`: a request can be followed
across an actor."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The actors, their handles and messages, the use cases, the pure core, the runtime that wires them, and the
# handlers that translate requests for them. Left out, their untyped parts followed silently: the storage
# and git helpers (storage/, sync/ but the keeper), setup/, the editor's own server, cli.py and config.py.
STRICT_FILES = [
    "kg_actors/core/",
    "kg_actors/conduct/",
    "kg_actors/chores/",
    "kg_actors/harness/",
    "kg_actors/http/",
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
