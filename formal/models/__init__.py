"""One module a protocol; each names the handlers it models, its bounds and its invariants."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs


def actor_writes(s: Any, nodes: int, writes: int, folds: int) -> Iterator[tuple[str, Any]]:
    """The graph actor's side of the writer models (`_apply`, `_request_fold`): each node's next write
    (memory changes, its record is queued for the writer) while fewer than `writes` were issued, and a
    fold request (a snapshot of memory queued) while fewer than `folds` were. `s` has the fields
    memory, queue, issued and folds."""
    if s.issued < writes:
        for node in range(nodes):
            write = s.issued + 1
            memory = tuple(write if i == node else v for i, v in enumerate(s.memory))
            yield f"write n{node}={write}", attrs.evolve(s, memory=memory, queue=(*s.queue, ("w", node, write)),
                                                        issued=write)
    if s.folds < folds:
        yield "fold requested", attrs.evolve(s, queue=(*s.queue, ("fold", s.memory)), folds=s.folds + 1)


def acknowledged_survive(s: Any) -> bool:
    """After a crash whose load gave ("loaded", values): every acknowledged (node, write) is there, or
    a later write of that node. `s` has the fields crashed and acked."""
    if s.crashed is None or s.crashed[0] != "loaded":
        return True
    values = s.crashed[1]
    return all(values[node] >= write for node, write in s.acked)
