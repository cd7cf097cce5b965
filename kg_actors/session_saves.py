"""sessions.json written off the registry's loop: records detached on the loop, encoded and written in a thread.

At 32 sessions that have seen 1,000 nodes each busy session's JSON is ~170 KB (its seen and read
maps), and every one changes between two save ticks: encoding them on the loop was a ~150 ms step
every 30 s, and the registry then waited for the file, so every hook and tool call in flight
waited out both (bench/RESULTS-soak.md). Now the registry only detaches each changed record (a
shallow copy of its maps, microseconds a session) and goes on; a worker thread encodes the
records one by one (the loop gets the interpreter between two) and writes the file.

A part is (sid, text) for a session held as last saved, or (sid, record) for one to encode.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .storage import files

Part = tuple[str, "str | dict[str, Any]"]


def detached(record: dict[str, Any]) -> dict[str, Any]:
    """A session's record (Session.to_json) that the registry may go on changing meanwhile: its
    top-level maps and lists copied (their values are strings, numbers and records never changed
    in place), so a thread can encode it while the loop writes to the live ones."""
    return {k: dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v for k, v in record.items()}


def _pieces(parts: list[Part], made: dict[str, str]) -> Iterator[str]:
    yield "{"
    for i, (sid, part) in enumerate(parts):
        text = part if isinstance(part, str) else json.dumps(part, ensure_ascii=False)
        if not isinstance(part, str):
            made[sid] = text
        yield f"{', ' if i else ''}{json.dumps(sid, ensure_ascii=False)}: "
        yield text
    yield "}"


def encode(parts: list[Part]) -> tuple[str, dict[str, str]]:
    """The file's text (as files.dump_json(..., indent=None) would write it) and each encoded record's text."""
    made: dict[str, str] = {}
    return "".join(_pieces(parts, made)), made


def write(path: Path, parts: list[Part]) -> dict[str, str]:
    """Encode and write atomically, piece by piece (the ~6 MB file is never held whole); each encoded
    record's text, for the registry to keep. A worker thread's work: raises OSError on failure."""
    made: dict[str, str] = {}
    files.write_atomic_chunks(path, _pieces(parts, made), False)
    return made
