"""Durability of a graph's journal and snapshot across a crash at any step.

Models: `graph_actor._apply` (a write changes memory, then hands its record to
the writer), `graph_actor._request_fold` (a fold hands the writer a snapshot
of memory), the writer task `graph_actor._writer` (one item at a time, in
queue order: `_flush` appends records and fsyncs before acknowledging,
`_fold` runs `files.write_atomic` then `journal.remove`), and the load after
a crash, `graph_loading.load_graph` (the JSON, its `.prev` when the JSON is
missing or unreadable, then the journal replayed, a torn line skipped).

A write sets one node to a new value (writes are numbered; a later write of
a node has a larger number). The disk holds the JSON, `.prev`, the temp file
and the journal; a crash may come between any two system calls, and inside
one that writes in place (an append, a copy), leaving a torn tail.

Since 2026-12-03 a fold's file is written while appends go on (fold_beside_appends.py models
that); a fold with nothing appended after its snapshot is still the sequence modelled here.

Bounds: 2 nodes, 3 writes, 2 folds, one crash.
Invariants, checked in every state after the crash:
- acknowledged: every acknowledged write survives (its node holds it or a later write);
- loadable: the graph loads (the JSON or `.prev` parses);
- no torn file: no graph file of record (JSON, `.prev`) is left unreadable.
"""

from __future__ import annotations


import attrs

from ..explore import Model
from . import acknowledged_survive, actor_writes

NODES = 2
WRITES = 3
FOLDS = 2
TORN = "torn"


@attrs.frozen
class Disk:
    json: tuple[int, ...] | None = None  # node values as folded (0: never written), None: no file yet
    prev: tuple[int, ...] | str | None = None
    tmp: tuple[int, ...] | str | None = None
    journal: tuple = ()  # records (node, write) and perhaps a torn last line


@attrs.frozen
class S:
    memory: tuple[int, ...] = (0,) * NODES
    queue: tuple = ()  # the writer's items: ("w", node, write) or ("fold", snapshot)
    pc: int = 0  # how far the writer is into the fold at the head of the queue
    disk: Disk = Disk()
    acked: frozenset = frozenset()  # (node, write) acknowledged to a caller
    issued: int = 0
    folds: int = 0
    crashed: tuple | None = None  # after the crash: ("loaded", values) or ("unloadable",)


def make(atomic_prev: bool) -> Model:
    """`atomic_prev`: `.prev` is replaced by a rename (as files.write_atomic does now) rather than
    rewritten in place by a copy (as it did): a crash mid-copy left a torn `.prev`."""

    def steps(s: S):
        if s.crashed is not None:
            return
        yield from actor_writes(s, NODES, WRITES, FOLDS)
        if s.queue:
            yield from _writer_steps(s, atomic_prev)
        yield from _crashes(s, atomic_prev)

    return Model(f"durability(atomic_prev={atomic_prev})", S(), steps, {
        "acknowledged": acknowledged_survive,
        "loadable": lambda s: s.crashed is None or s.crashed[0] == "loaded",
        "no torn file": lambda s: s.crashed is None or TORN not in (s.disk.json, s.disk.prev),
    })


def _writer_steps(s: S, atomic_prev: bool):
    head, rest = s.queue[0], s.queue[1:]
    d = s.disk
    if head[0] == "w":
        _, node, write = head
        disk = attrs.evolve(d, journal=(*d.journal, (node, write)))
        yield f"append+fsync n{node}={write}, ack", attrs.evolve(s, queue=rest, disk=disk,
                                                                  acked=s.acked | {(node, write)})
        return
    snapshot = head[1]
    if s.pc == 0:
        yield "fold: temp written+fsynced", attrs.evolve(s, pc=1, disk=attrs.evolve(d, tmp=snapshot))
    elif s.pc == 1:
        # The old JSON becomes .prev (skipped when there is none).
        yield "fold: .prev kept", attrs.evolve(s, pc=2, disk=attrs.evolve(d, prev=d.json if d.json is not None else d.prev))
    elif s.pc == 2:
        yield "fold: temp renamed over JSON", attrs.evolve(s, pc=3, disk=attrs.evolve(d, json=d.tmp, tmp=None))
    else:
        yield "fold: journal removed", attrs.evolve(s, pc=0, queue=rest, disk=attrs.evolve(d, journal=()))


def _crashes(s: S, atomic_prev: bool):
    d = s.disk
    variants = [("crash", d)]
    if s.queue and s.queue[0][0] == "w":
        variants.append(("crash mid-append", attrs.evolve(d, journal=(*d.journal, TORN))))
    if s.queue and s.queue[0][0] == "fold" and s.pc == 1 and d.json is not None and not atomic_prev:
        variants.append(("crash mid-copy to .prev", attrs.evolve(d, prev=TORN)))
    for label, disk in variants:
        yield label, attrs.evolve(s, disk=disk, crashed=_load(disk))


def _load(d: Disk) -> tuple:
    base = d.json
    if base is None or base == TORN:
        base = d.prev if d.prev is not None else (None if d.json is None else TORN)
    if base == TORN:
        return ("unloadable",)
    values = list(base if base is not None else (0,) * NODES)
    for record in d.journal:
        if record != TORN:
            node, write = record
            values[node] = write
    return ("loaded", tuple(values))


MODELS = [make(atomic_prev=False), make(atomic_prev=True)]
EXPECTED = {"durability(atomic_prev=False)": "no torn file", "durability(atomic_prev=True)": None}
