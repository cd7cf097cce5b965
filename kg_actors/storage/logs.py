"""Decision logs (recall.jsonl, useful.jsonl, chores.jsonl): one compact JSON line each.

Past its size a log is rotated once to `<name>.prev`. Logging never raises:
a full disk must not fail the request that the line describes.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any, BinaryIO

log = logging.getLogger(__name__)

TAIL_CHUNK = 64 * 1024


def append_jsonl(path: Path, records: list[dict[str, Any]], max_bytes: int) -> None:
    try:
        data = "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in records)
        raw = data.encode("utf-8", "replace")
        try:
            size = path.stat().st_size
        except FileNotFoundError:
            size = 0
        if size and size + len(raw) > max_bytes:
            os.replace(path, path.with_name(path.name + ".prev"))
        with open(path, "a+b") as f:
            _cut_torn_tail(f, path)
            f.write(raw)
    except OSError as exc:
        log.warning("could not append to %s: %s", path, exc)


def _cut_torn_tail(f: BinaryIO, path: Path) -> None:
    """A last line without its newline (a crash mid-append) is cut, so the next record is not glued to it."""
    end = f.seek(0, os.SEEK_END)
    if end == 0:
        return
    f.seek(end - 1)
    if f.read(1) == b"\n":
        return
    pos = end
    while pos > 0:
        start = max(0, pos - TAIL_CHUNK)
        f.seek(start)
        newline = f.read(pos - start).rfind(b"\n")
        if newline >= 0:
            f.truncate(start + newline + 1)
            break
        pos = start
    else:
        f.truncate(0)
    log.warning("%s: a torn last line (%d bytes) was cut before appending", path, end - f.seek(0, os.SEEK_END))


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Every object line of a log and of its rotated `.prev`, oldest file first (worker thread).

    A torn or foreign line is skipped: a reader never fails on what a crash left.
    """
    out: list[dict[str, Any]] = []
    for part in (path.with_name(path.name + ".prev"), path):
        try:
            lines = part.read_bytes().split(b"\n")
        except OSError:
            continue
        for line in lines:
            try:  # each line decoded alone: one cut inside a multi-byte character costs that line only
                record = json.loads(line.decode("utf-8"))
            except (ValueError, RecursionError):
                continue
            if isinstance(record, dict):
                out.append(record)
    return out
