"""A fold written while the appends go on, and the load after a crash at any step.

Models `graph_writer.run_writer` as it is now: `Written` items appended and acknowledged
(`_flush`) while a fold's file is written in another task (`_stage`: `graph_file.stage_snapshot`,
the temp file written and fsynced), the fold marking where the journal ended at its snapshot
(`journal.end`); then, with nothing appended meanwhile, `journal.fold_in`: the records appended
after the mark written to `<journal>.tmp` under a header naming the temp file and fsynced, `.prev`
kept, the temp renamed over the JSON, the `.tmp` renamed over the journal (or the journal removed
when nothing was appended). The load is `graph_loading.load_graph`: `journal.recover` (a `.tmp`
naming the JSON in place becomes the journal, any other is dropped), then the journal replayed if
its header names the JSON in place, else set aside (the check that keeps a restore's file).

A write sets one node to a new value (numbered: a later write is larger). Each JSON file version
has an identity (its fold's number), which a journal header names. A crash may come between any
two steps; appends and the fold's file writing interleave in every order.

Bounds: 2 nodes, 3 writes, 2 folds, one crash.
Invariants, checked in every state after the crash: every acknowledged write survives; the
graph loads.

The designs not taken are explored beside it: removing the journal after the fold as before
(`keep=False`: a write acknowledged while the file was written is lost), and no `recover` at load
(`recover=False`: a crash between the two renames leaves a journal naming the old file, set aside).
"""

from __future__ import annotations

import attrs

from ..explore import Model
from . import acknowledged_survive, actor_writes

NODES = 2
WRITES = 3
FOLDS = 2


@attrs.frozen
class Disk:
    json: tuple | None = None  # (values, identity) as folded; None: no file yet
    tmp: tuple | None = None  # the fold's staged file: (values, identity)
    journal: tuple | None = None  # (base identity, records); None: no journal
    jtmp: tuple | None = None  # the fold's journal, (base identity, records), before its rename


@attrs.frozen
class S:
    memory: tuple[int, ...] = (0,) * NODES
    queue: tuple = ()  # the writer's items: ("w", node, write) or ("fold", values)
    fold: tuple | None = None  # (values, mark, pc): pc 0 writing the file, 1 staged, 2.. fold_in
    disk: Disk = Disk()
    acked: frozenset = frozenset()
    issued: int = 0
    folds: int = 0
    staged: int = 0  # files staged so far: each is a new identity (size, mtime_ns and inode on disk)
    crashed: tuple | None = None


def make(keep: bool = True, recover: bool = True) -> Model:
    def steps(s: S):
        if s.crashed is not None:
            return
        yield from actor_writes(s, NODES, WRITES, FOLDS)
        yield from _writer(s, keep)
        yield from _stager(s)
        yield "crash", attrs.evolve(s, crashed=_load(s.disk, recover))

    name = f"fold_beside_appends(keep={keep}, recover={recover})"
    return Model(name, S(), steps, {
        "acknowledged": acknowledged_survive,
        "loadable": lambda s: s.crashed is None or s.crashed[0] == "loaded",
    })


def _writer(s: S, keep: bool):
    d = s.disk
    if s.fold is not None and s.fold[2] >= 1:
        yield from _fold_in(s, keep)  # the writer's next step once the file is staged: nothing appended meanwhile
        return
    if not s.queue:
        return
    head, rest = s.queue[0], s.queue[1:]
    if head[0] == "w":
        _, node, write = head
        base, records = d.journal if d.journal is not None else (_identity(d.json), ())
        disk = attrs.evolve(d, journal=(base, (*records, (node, write))))
        yield f"append+fsync n{node}={write}, ack", attrs.evolve(s, queue=rest, disk=disk,
                                                                  acked=s.acked | {(node, write)})
    elif s.fold is None:  # one fold at a time
        mark = len(d.journal[1]) if d.journal is not None else 0
        yield "fold: journal end marked", attrs.evolve(s, queue=rest, fold=(head[1], mark, 0))


def _stager(s: S):
    if s.fold is not None and s.fold[2] == 0:
        values, mark, _ = s.fold
        yield "fold: temp written+fsynced", attrs.evolve(s, fold=(values, mark, 1), staged=s.staged + 1,
                                                         disk=attrs.evolve(s.disk, tmp=(values, s.staged + 1)))


def _fold_in(s: S, keep: bool):
    d = s.disk
    values, mark, pc = s.fold
    kept = d.journal[1][mark:] if d.journal is not None else ()
    if pc == 1:
        jtmp = (d.tmp[1], kept) if keep and kept else None
        yield "fold: kept records to journal.tmp+fsync", attrs.evolve(s, fold=(values, mark, 2),
                                                                      disk=attrs.evolve(d, jtmp=jtmp))
    elif pc == 2:
        yield "fold: temp renamed over JSON", attrs.evolve(s, fold=(values, mark, 3),
                                                           disk=attrs.evolve(d, json=d.tmp, tmp=None))
    else:
        journal = d.jtmp if d.jtmp is not None else None
        yield "fold: journal.tmp renamed over journal (or journal removed)", attrs.evolve(
            s, fold=None, disk=attrs.evolve(d, journal=journal, jtmp=None))


def _identity(json: tuple | None) -> int | None:
    return None if json is None else json[1]


def _load(d: Disk, recover: bool) -> tuple:
    journal = d.journal
    if recover and d.jtmp is not None and d.jtmp[0] == _identity(d.json):
        journal = d.jtmp
    values = list(d.json[0] if d.json is not None else (0,) * NODES)
    if journal is not None and journal[0] == _identity(d.json):
        for node, write in journal[1]:
            values[node] = write
    return ("loaded", tuple(values))


MODELS = [make(), make(keep=False), make(recover=False)]
EXPECTED = {
    "fold_beside_appends(keep=True, recover=True)": None,
    "fold_beside_appends(keep=False, recover=True)": "acknowledged",
    "fold_beside_appends(keep=True, recover=False)": "acknowledged",
}
