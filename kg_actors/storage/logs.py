"""Decision logs (recall.jsonl, useful.jsonl, chores.jsonl): one compact JSON line each.

Past its size a log is rotated once to `<name>.prev`. Logging never raises:
a full disk must not fail the request that the line describes.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


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
        with open(path, "ab") as f:
            f.write(raw)
    except OSError as exc:
        log.warning("could not append to %s: %s", path, exc)


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Every object line of a log and of its rotated `.prev`, oldest file first (worker thread).

    A torn or foreign line is skipped: a reader never fails on what a crash left.
    """
    out: list[dict[str, Any]] = []
    for part in (path.with_name(path.name + ".prev"), path):
        try:
            lines = part.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            continue
        for line in lines:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict):
                out.append(record)
    return out
