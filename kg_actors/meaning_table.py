"""The meaning table that ships in the package (core/meaning.py reads it), read from its file once per process.

Missing or damaged (a broken install, a file cut short), it is None: prompt recall goes on by its words, its
model reading the likeness it met on average in training (core/recall_gate.py).
"""

from __future__ import annotations

import functools
from pathlib import Path

from .core import meaning

TABLE = Path(__file__).resolve().parent / "core" / "data" / "meaning.bin"


def load(path: Path) -> meaning.Table | None:
    """The table in `path`, or None when it cannot be read or is not a whole table."""
    try:
        return meaning.Table(path.read_bytes())
    except (OSError, ValueError, KeyError, TypeError, IndexError, UnicodeDecodeError):
        return None


@functools.cache
def shipped() -> meaning.Table | None:
    """The package's table: ~15 ms to read at the first prompt, kept for the process."""
    return load(TABLE)
