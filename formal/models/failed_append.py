"""A write is acknowledged only when durable, across a disk that fails and recovers, and a crash.

Models: `graph_actor._apply` (a write changes memory and queues its record), the actor loop's
`_resync` before its next message when `status["journal_failed"]` (memory := what is on disk,
then a `Resync` item), `_request_fold` (a snapshot queued), the writer task
`graph_writer.run_writer` (`_flush`: append+fsync then ack, or on OSError refuse this record
and every one after it until the `Resync`; `_fold`: write_atomic+journal.remove, skipped while
refusing, `save_failed` on OSError), the disk failing or recovering between any two steps
(ENOSPC/EROFS: storage/faults.py), and a crash at any step followed by `load_graph` (JSON, then
the journal replayed). Folds are one atomic step here: their inner steps are durability.py's.

Bounds: 2 nodes, 3 writes, 1 fold, 2 disk changes (fail, recover), one crash.
Invariants:
- acknowledged: after a crash, every acknowledged write is loaded (or a later write of its node);
- never refused-and-kept: a refused write is never on disk, and once the actor has resynced it
  is not in memory either;
- quiescent: with nothing queued and no resync due, memory is what a load would give.
`make(refuse=False)` is the design we left (a failed append still acknowledged the write): its
shortest counterexample breaks "quiescent" (3 steps: the write is acknowledged, memory holds it,
the disk does not); one crash later it breaks "acknowledged" too.
"""

from __future__ import annotations

import attrs

from ..explore import Model
from . import actor_writes

NODES = 2
WRITES = 3
FOLDS = 1
DISK_CHANGES = 2


@attrs.frozen
class S:
    memory: tuple[int, ...] = (0,) * NODES
    queue: tuple = ()  # ("w", node, write) | ("fold", snapshot) | ("resync",)
    json: tuple[int, ...] = (0,) * NODES
    journal: tuple = ()  # (node, write) records
    disk_ok: bool = True
    disk_changes: int = 0
    refusing: bool = False  # the writer's state: records are refused until a resync item
    journal_failed: bool = False  # the actor's cue to resync before its next message
    acked: frozenset = frozenset()
    refused: frozenset = frozenset()
    issued: int = 0
    folds: int = 0
    crashed: tuple[int, ...] | None = None  # what the load after the crash gave


def load(s: S) -> tuple[int, ...]:
    values = list(s.json)
    for node, write in s.journal:
        values[node] = write
    return tuple(values)


def make(refuse: bool) -> Model:
    def steps(s: S):
        if s.crashed is not None:
            return
        if s.journal_failed and refuse:
            # The actor's loop resyncs before it takes its next message.
            yield "actor: resync from disk", attrs.evolve(s, memory=load(s), queue=(*s.queue, ("resync",)),
                                                          journal_failed=False)
        else:
            yield from actor_writes(s, NODES, WRITES, FOLDS)
        if s.queue:
            yield from _writer(s, refuse)
        if s.disk_changes < DISK_CHANGES:
            yield ("disk fails" if s.disk_ok else "disk recovers",
                   attrs.evolve(s, disk_ok=not s.disk_ok, disk_changes=s.disk_changes + 1))
        yield "crash", attrs.evolve(s, crashed=load(s))

    return Model(f"failed_append(refuse={refuse})", S(), steps, {
        "acknowledged": _acknowledged,
        "never refused-and-kept": _refused_gone,
        "quiescent": lambda s: s.crashed is not None or s.queue or s.journal_failed or s.memory == load(s),
    })


def _writer(s: S, refuse: bool):
    head, rest = s.queue[0], s.queue[1:]
    if head[0] == "resync":
        yield "writer: resync", attrs.evolve(s, queue=rest, refusing=False)
    elif head[0] == "w":
        _, node, w = head
        if s.refusing:
            yield f"writer: refuse n{node}={w} (after a failed one)", attrs.evolve(s, queue=rest,
                                                                                  refused=s.refused | {(node, w)})
        elif s.disk_ok:
            yield f"append+fsync n{node}={w}, ack", attrs.evolve(s, queue=rest, journal=(*s.journal, (node, w)),
                                                                  acked=s.acked | {(node, w)})
        elif refuse:
            yield f"append n{node}={w} fails: refused", attrs.evolve(s, queue=rest, refusing=True, journal_failed=True,
                                                                     refused=s.refused | {(node, w)})
        else:
            yield f"append n{node}={w} fails: acked anyway", attrs.evolve(s, queue=rest, acked=s.acked | {(node, w)})
    else:
        if s.refusing:
            yield "fold skipped (refusing)", attrs.evolve(s, queue=rest)
        elif s.disk_ok:
            yield "fold: JSON written, journal removed", attrs.evolve(s, queue=rest, json=head[1], journal=())
        else:
            yield "fold fails (stays due)", attrs.evolve(s, queue=rest)


def _acknowledged(s: S) -> bool:
    return s.crashed is None or all(s.crashed[node] >= w for node, w in s.acked)


def _refused_gone(s: S) -> bool:
    on_disk = set(s.journal) | {(n, w) for n, w in enumerate(s.json)}
    if s.refused & on_disk:
        return False
    if s.journal_failed or s.crashed is not None:
        return True  # the actor has not resynced yet: memory may still show it
    return not any(s.memory[node] == w for node, w in s.refused)


MODELS = [make(refuse=False), make(refuse=True)]
EXPECTED = {"failed_append(refuse=False)": "quiescent", "failed_append(refuse=True)": None}
