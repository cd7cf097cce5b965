"""The actor core and the use cases type-check under `mypy --strict`: a request can be followed across an actor."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STRICT_FILES = [
    "kg_actors/conduct/",
    "kg_actors/core/replies.py",
    "kg_actors/harness/tool_calls.py",
    "kg_actors/actor.py",
    "kg_actors/chores/messages.py",
    "kg_actors/deferral.py",
    "kg_actors/delivery_actor.py",
    "kg_actors/delivery_messages.py",
    "kg_actors/derived.py",
    "kg_actors/compaction_schedule.py",
    "kg_actors/graph_actor.py",
    "kg_actors/graph_handle.py",
    "kg_actors/graph_loading.py",
    "kg_actors/index_process.py",
    "kg_actors/reply_effects.py",
    "kg_actors/peers.py",
    "kg_actors/graph_messages.py",
    "kg_actors/hook_priority.py",
    "kg_actors/http/server.py",
    "kg_actors/http/websocket.py",
    "kg_actors/graph_writer.py",
    "kg_actors/session_actor.py",
    "kg_actors/session_handle.py",
    "kg_actors/session_messages.py",
    "kg_actors/session_views.py",
    "kg_actors/tool_events.py",
    "kg_actors/session_records.py",
]


def test_the_actor_core_passes_mypy_strict():
    pytest.importorskip("mypy")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-incremental", *STRICT_FILES],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
