"""The long-lived heap.

A graph loaded and indexed is hundreds of thousands of objects that live as
long as the server. Python's full collections walk every one of them (0.3-0.5 s
at 10,000 nodes, a stall every reply in flight waits out), so once a big lot is
in place it is frozen: left out of the collector's scans. Frozen objects are
still freed by reference counting when they are dropped; only a reference
cycle among them would outlive its use, and graph data holds none.
"""

from __future__ import annotations

import ctypes
import gc
from collections.abc import Callable

FULL_COLLECTION_EVERY = 100  # middle-generation collections between two full ones (Python: 10)
M_ARENA_MAX = -8  # glibc's mallopt parameter


def tune() -> None:
    """At start: full collections ten times rarer than Python's default, and one malloc arena.

    What is left unfrozen still takes a full collection tens of milliseconds;
    young collections stay as often as ever, so short-lived garbage goes at once.
    """
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)
    one_malloc_arena()


def one_malloc_arena() -> bool:
    """glibc's malloc gives each thread that allocates its own arena (up to 8 per core) and keeps what
    is freed in each for reuse by that arena only: a graph parsed in one worker thread, settled in
    another and indexed in a third leaves each arena's peak resident. Under the GIL threads allocate one
    at a time anyway, so one arena costs no waiting; at 10,000 nodes it is ~30 MiB less peak RSS
    (bench/RESULTS.md). Call before threads start; False where the C library is not glibc."""
    try:
        return bool(ctypes.CDLL(None).mallopt(M_ARENA_MAX, 1))  # the process's own symbols: its C library
    except (OSError, AttributeError, TypeError):
        return False


def _malloc_trim() -> Callable[[int], int] | None:
    try:
        return ctypes.CDLL(None).malloc_trim  # the process's own symbols: its C library
    except (OSError, AttributeError):  # not glibc: its allocator's own rules apply
        return None


_MALLOC_TRIM = _malloc_trim()


def trim() -> None:
    """After each save tick: the free memory glibc's malloc holds goes back to the system.

    Replies, JSON bodies and a save's buffers over 512 bytes are malloc's, not Python's small-object
    allocator's, and trio's worker threads each get an arena of their own; what they free stays in
    the arenas' free lists, reused or not. A soak's untraced server held 19-26 MiB so, growing
    with the run (bench/RESULTS-soak.md); malloc_trim(0) gives back every whole free page.
    """
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)


def freeze_loaded() -> None:
    """After loading a graph or a library: what is alive now stays alive."""
    gc.freeze()


_paused = False


def pause_collector() -> None:
    """At the start of `kg serve`, before its imports: no collection until the first load is in.

    The imports and the project loaded at start make ~200,000 objects that live as long as the
    server; with the collector on, its young and middle collections walked them over and over (~0.1 s
    of a start's CPU in imports alone, more in the load). `resume_collector` ends the pause.
    """
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume_collector() -> None:
    """The first load is in: what is alive now is frozen (as freeze_loaded) and collection resumes.

    Frozen, because the first collection after the pause would otherwise walk every object made
    during it. The cyclic garbage the imports left (~7,000 small objects) is frozen with them.
    A no-op unless `pause_collector` paused it (an in-process server in tests never does).
    """
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()
