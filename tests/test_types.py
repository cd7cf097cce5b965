"""The package type-checks under `mypy --strict`: a request can be followed across an actor, and a change that
breaks a caller's types fails here."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The whole package and the shim: the actors, their handles and messages, the use cases, the pure core, the
# handlers, the storage and git helpers, setup and the command line.
STRICT_FILES = ["kg_actors/", "shim/"]


def test_the_package_passes_mypy_strict():
    pytest.importorskip("mypy")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-incremental", *STRICT_FILES],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
