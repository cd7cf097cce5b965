"""The long-lived heap.

A graph loaded and indexed is hundreds of thousands of objects that live as
long as the server. Python's full collections walk every one of them (0.3-0.5 s
at 10,000 nodes, a stall every reply in flight waits out), so once a big lot is
in place it is frozen: left out of the collector's scans. Frozen objects are
still freed by reference counting when they are dropped; only a reference
cycle among them would outlive its use, and graph data holds none.
"""

from __future__ import annotations

import gc

FULL_COLLECTION_EVERY = 100  # middle-generation collections between two full ones (Python: 10)


def tune() -> None:
    """At start: full collections ten times rarer than Python's default.

    What is left unfrozen still takes a full collection tens of milliseconds;
    young collections stay as often as ever, so short-lived garbage goes at once.
    """
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)


def freeze_loaded() -> None:
    """After loading a graph or a library: what is alive now stays alive."""
    gc.freeze()
