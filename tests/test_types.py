"""The actor core type-checks under `mypy --strict`: a request can be followed across an actor."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STRICT_FILES = [
    "kg_actors/actor.py",
    "kg_actors/derived.py",
    "kg_actors/graph_actor.py",
    "kg_actors/graph_load.py",
    "kg_actors/delivery.py",
    "kg_actors/graph_messages.py",
    "kg_actors/graph_writer.py",
    "kg_actors/session_actor.py",
    "kg_actors/session_messages.py",
    "kg_actors/session_records.py",
]


def test_the_actor_core_passes_mypy_strict():
    pytest.importorskip("mypy")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-incremental", *STRICT_FILES],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
