"""Debug only: where a running server's memory goes, on demand.

With KG_DEBUG_HEAP=<folder> in its environment, `kg serve` traces its allocations from the start
(tracemalloc, KG_DEBUG_HEAP_FRAMES frames each, default 1: one frame costs least) and on every
SIGUSR1 writes `<folder>/heap-<n>.snap` (a tracemalloc snapshot taken after a full collection)
and appends a line to `<folder>/heap.jsonl`: the RSS, the traced live heap, what glibc's malloc
holds free, and the collector's counts. RSS growing while the traced heap does not is the
allocator keeping freed memory; the traced heap growing is objects kept, and diffing two
snapshots (`bench/heap_diff.py`) says by which line. Without the variable nothing is traced and
SIGUSR1 keeps its default. A bench tool, never a user setting: tracing slows the server.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import json
import logging
import os
import signal
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import trio

log = logging.getLogger(__name__)
ENV = "KG_DEBUG_HEAP"


def start() -> Path | None:
    """At the server's start: trace from here on when asked to; the folder, or None."""
    folder = os.environ.get(ENV)
    if not folder:
        return None
    frames = int(os.environ.get("KG_DEBUG_HEAP_FRAMES") or 1)
    if frames and not tracemalloc.is_tracing():  # 0: the figures only, no tracing (and no slow-down)
        tracemalloc.start(frames)
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    return path


async def serve(folder: Path) -> None:
    """Write a snapshot on each SIGUSR1 until cancelled."""
    n = 0
    with trio.open_signal_receiver(signal.SIGUSR1) as signals:
        async for _ in signals:
            n += 1
            try:
                dump(folder, n)
            except OSError:
                log.exception("debug heap: snapshot %d not written", n)


def dump(folder: Path, n: int) -> dict[str, Any]:
    gc.collect()  # what is left is live, not garbage waiting for a full collection
    if tracemalloc.is_tracing():
        tracemalloc.take_snapshot().dump(str(folder / f"heap-{n}.snap"))
    traced, peak = tracemalloc.get_traced_memory()
    line = {"n": n, "time": round(time.time(), 1), "rss_kib": rss_kib(), "traced_kib": traced // 1024,
            "traced_peak_kib": peak // 1024, "tracemalloc_overhead_kib": tracemalloc.get_tracemalloc_memory() // 1024,
            "malloc": malloc_stats(), "maps": maps_kib(), "pymalloc": pymalloc_stats(),
            "gc_objects": len(gc.get_objects()), "gc_frozen": gc.get_freeze_count(), "gc_counts": gc.get_count()}
    malloc_info(folder / f"malloc-{n}.xml")
    with open(folder / "heap.jsonl", "a") as f:
        f.write(json.dumps(line) + "\n")
    return line


def rss_kib() -> int:
    try:
        with open("/proc/self/status") as f:
            for row in f:
                if row.startswith("VmRSS:"):
                    return int(row.split()[1])
    except OSError:
        pass
    return 0


def maps_kib() -> dict[str, int]:
    """Where RSS lives: malloc's sbrk heap, anonymous maps (pymalloc's 1 MiB arenas, malloc's big blocks,
    thread stacks), and files mapped (code)."""
    out = {"heap": 0, "anon": 0, "file": 0}
    kind = "file"
    try:
        with open("/proc/self/smaps") as f:
            for row in f:
                head = row.split()
                if not head:
                    continue
                if not head[0].endswith(":"):  # a mapping's first line: range perms offset dev inode [path]
                    path = head[5] if len(head) > 5 else ""
                    kind = "heap" if path == "[heap]" else ("anon" if not path or path.startswith("[") else "file")
                elif head[0] == "Rss:":
                    out[kind] += int(head[1])
    except OSError:
        pass
    return out


def pymalloc_stats() -> dict[str, int]:
    """pymalloc's own arenas (objects up to 512 bytes), read from sys._debugmallocstats' report on fd 2."""
    with tempfile.TemporaryFile("w+") as tmp:
        sys.stderr.flush()
        saved = os.dup(2)
        try:
            os.dup2(tmp.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        tmp.seek(0)
        text = tmp.read()
    keys = {"# arenas allocated current": "arenas", "# bytes in allocated blocks": "used_bytes",
            "# bytes in available blocks": "free_bytes", "# bytes lost to pool headers": "pool_headers"}
    out: dict[str, int] = {}
    for row in text.splitlines():
        for label, key in keys.items():
            if row.startswith(label):
                out[key] = int(row.split("=")[-1].replace(",", "").strip())
    return out


def malloc_info(path: Path) -> None:
    """glibc's malloc_info(3) XML: its free chunks by size, per arena (holes small or large)."""
    name = ctypes.util.find_library("c")
    if not name:
        return
    libc = ctypes.CDLL(name)
    if not hasattr(libc, "malloc_info"):
        return
    libc.fopen.restype = ctypes.c_void_p
    libc.fopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    libc.malloc_info.argtypes = [ctypes.c_int, ctypes.c_void_p]
    libc.fclose.argtypes = [ctypes.c_void_p]
    fp = libc.fopen(str(path).encode(), b"w")
    if fp:
        libc.malloc_info(0, fp)
        libc.fclose(fp)


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
                 "fordblks", "keepcost")]


def malloc_stats() -> dict[str, int] | None:
    """glibc's view (mallinfo2, glibc >= 2.33): heap from sbrk/arenas, in use, held free, in mmaps."""
    name = ctypes.util.find_library("c")
    if not name:
        return None
    libc = ctypes.CDLL(name)
    fn = getattr(libc, "mallinfo2", None)
    if fn is None:
        return None
    fn.restype = _MallInfo2
    mi = fn()
    return {"arena_kib": mi.arena // 1024, "in_use_kib": mi.uordblks // 1024, "free_kib": mi.fordblks // 1024,
            "mmap_kib": mi.hblkhd // 1024}
