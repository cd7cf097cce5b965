"""Loading a graph for its actor: the JSON file (`.prev` when it is unreadable), then its journal, then settling it.

Runs in worker threads, before an actor owns the graph (a start, a reload) or while the actor
waits for it (`graph_actor._resync`, after a refused append).
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from .core import charge, compaction, debt, hand_edits, not_finite, search
from .core import constants as C
from .core.model import GraphData
from .core.journal_replay import reconcile
from .core.steps import run_steps
from .derived import Derived, build_derived
from .storage import file_seen, files, journal, read_refusals, term_cache
from .term_process import TermChild

log = logging.getLogger(__name__)
SERVED_EMPTY = " Until then it is served empty and refuses changes."  # a graph of its own; doctor words a twin's

# Fewer nodes than this (or a twentieth of the graph) made anew at a start: not worth rewriting the terms file.
TERMS_REWRITE_MIN = 100


def load_graph(path: Path, kind: str, project_path: str | None,
               set_aside: list[Path] | None = None, read_only: bool = False,
               kept_damaged: list[Path] | None = None) -> tuple[GraphData, int]:
    """Read a graph (JSON, `.prev` fallback, then its journal). Runs in a worker thread. `set_aside` gets
    where an unreadable file was moved when its previous save was read instead, `kept_damaged` where a
    copy of a journal with damaged lines is kept (its readable records are replayed).

    `read_only`: a look from outside the graph's actor (the editor's project list), which must change
    nothing on disk: an unreadable file, a journal to set aside or a fold to complete are left for the
    actor's load, which says what it did (a look that moved the file aside hid the fall-back from it).

    The derived indexes are built here too, before any other task can see the
    graph, so the actor never stalls the event loop building them.

    A file or folder that cannot be opened (a directory in a journal's place, no permission) raises
    files.Unreadable naming it, as a torn file does: the graph is served empty refusing changes, not failed.
    """
    try:
        return _load_graph(path, kind, project_path, set_aside, read_only, kept_damaged)
    except OSError as exc:
        where = exc.filename or path
        if (refused := read_refusals.said(Path(where), exc)) is not None:  # a journal it may not read: waited for
            raise files.Unavailable(Path(where), *refused) from exc
        raise files.Unreadable(f"{where} cannot be read ({exc.strerror or exc}): make it readable by the server "
                               "or move it aside.") from exc


def _load_graph(path: Path, kind: str, project_path: str | None, set_aside: list[Path] | None,
                read_only: bool, kept_damaged: list[Path] | None) -> tuple[GraphData, int]:
    repaired: dict[Path, list[str]] = {}  # per file parsed (a `.prev` is parsed to see that it reads)

    def build(raw: object, reading: files.Reading) -> GraphData:
        if not isinstance(raw, dict):
            raise files.Unreadable(f"{path}: holds a JSON {type(raw).__name__}, not a graph object")
        twice = hand_edits.set_aside_twice(raw, reading.twice, time.time())
        said = (not_finite.left_out(raw) if reading.not_finite else []) + hand_edits.malformed(raw.get("nodes")) + twice
        repaired[reading.path] = reading.repairs + said
        return GraphData.from_json(raw, kind)

    fell_back: list[Path] = []
    loaded = files.load_json(path, build, fell_back, set_aside, read_only)
    graph = loaded if loaded is not None else GraphData(kind)
    read_from = fell_back[0] if fell_back else files.real_file(path)
    if repaired.get(read_from) and not read_only:
        _keep_repaired(read_from, repaired[read_from])
    if graph.dropped_on_load:  # said, not silent: the next save leaves them out
        log.warning("%s: %d edge(s) name no from, to and rel and are left out: %s", path.name,
                    len(graph.dropped_on_load), ", ".join(graph.dropped_on_load[:5]))
    jpath = journal.journal_path(path)
    pending = journal.recovered(jpath) if read_only else None  # what `recover` would put in place, where it is
    if not read_only:
        journal.recover(jpath)  # a fold cut short by a crash between its renames
    damaged: list[int] = []
    if pending is not None:
        replayed = journal.read(pending)
    elif fell_back and jpath.exists():
        # The file its records were appended over is lost; they are answered writes, newer than `.prev`:
        # replayed over it (each sets a node, an edge or a version whole) they keep what the journal holds.
        log.warning("%s: replaying its journal over %s (the file it was written on is unreadable)",
                    jpath.name, fell_back[0].name)
        replayed = journal.read(jpath, damaged)
    elif journal.belongs(jpath):
        replayed = journal.read(jpath, damaged)
    elif not file_seen.is_previous_save(path):
        # The file was changed after these writes (a hand edit): they were answered "saved", and are replayed
        # over it as it now is; a node both changed keeps the version written last (core/journal_replay.py).
        if not read_only:
            log.warning("%s was changed since its journal began (a hand edit): the journal's records are replayed "
                        "over it as it now is", path.name)
        replayed = journal.read(jpath, damaged)
    elif read_only:
        replayed = []  # the load sets it aside: disk wins
    else:
        # The file is its previous save again (put back by hand: a roll-back): disk wins, the writes are kept aside.
        dropped, aside = journal.set_aside(jpath)
        log.warning("%s is its previous save again (a roll-back): disk wins; %d change(s) of the journal were set "
                    "aside in %s", path.name, dropped, aside.name)
        replayed = []
    if damaged and not read_only:
        # Answered changes are lost with those lines: the journal is kept as it is for a look by hand (the
        # next fold removes it), and the load says so.
        try:
            copy = journal.keep_damaged(jpath)
            log.error("%s: line(s) %s could not be read (their changes are lost); the journal is kept as %s",
                      jpath.name, ", ".join(map(str, damaged[:10])), copy.name)
        except OSError as exc:
            copy = jpath
            log.error("%s: line(s) %s could not be read (their changes are lost), and no copy could be kept: %s",
                      jpath.name, ", ".join(map(str, damaged[:10])), exc)
        if kept_damaged is not None:
            kept_damaged.append(copy)
    applied = 0
    file_ts, now = (st.st_mtime if (st := file_seen.stat_of(path)) else 0.0), time.time()
    for n, record in enumerate(replayed):
        try:
            if not fell_back:  # over `.prev`, the records are newer than every node they touch
                record = reconcile(record, lambda i: node.to_json() if (node := graph.nodes.get(i)) else None,
                                   file_ts, now)
            graph.apply_record(record)
            graph.commit()
            applied += 1
        except Exception as exc:  # a record that parses but is not one: skip it, keep the rest
            graph.rollback()
            log.warning("%s: skipping journal record %d of %d (%r): not a change record",
                        jpath.name, n + 1, len(replayed), exc)
    graph.take_changes()
    graph.commit()
    if kind == "project" and project_path and graph.project_path != project_path:
        graph.project_path = project_path
        graph.meta_changed = True
    if repaired.get(read_from) and not read_only:
        # Saved whole at the next save as it was read (UTF-8, the repairs made): until then the file on disk
        # is one a commit refuses and the next load repairs again. The original is kept (.repaired).
        graph.meta_changed = True
    return graph, applied


def look_on_disk(path: Path, kind: str) -> list[tuple[str, str]]:
    """What the next load of this graph would find wrong, changing nothing (`kg doctor`, for a graph the
    server has not loaded, or any with the server down): (what, why) each, `what` "file", "journal_damaged",
    "journal_unreadable" or "journal_dropped"; "file_unavailable" for a permission or a disk error (its why,
    a NUL, then its fix); "file_values" for a NaN or Infinity the load leaves out (a warning: nothing is lost)."""
    said: list[tuple[str, str]] = []

    def build(raw: object, reading: files.Reading) -> GraphData:
        if not isinstance(raw, dict):
            raise files.Unreadable(f"{path}: holds a JSON {type(raw).__name__}, not a graph object")
        if reading.not_finite:
            said.extend(("file_values", f"{path}: {line}") for line in not_finite.left_out(raw))
        return GraphData.from_json(raw, kind)

    fell_back: list[Path] = []
    reads = False
    try:
        if (why := files.dangling(path, files.real_file(path))) is not None:
            raise files.Unreadable(why)
        if not files.is_there(files.real_file(path)):  # a new graph's journal alone, or a file lost beside its `.prev`
            raise files.Unreadable(f"{path} is missing")
        files.parse(path, build)
        reads = True
    except files.Unavailable as exc:  # not damage: the fix is a permission or the disk, said as such
        said.append(("file_unavailable", f"{exc.why}; until it reads the graph is not served\0{exc.fix}"))
        return said
    except files.Unreadable as exc:
        try:
            files.load_json(path, build, fell_back, read_only=True)
            if fell_back:
                said.append(("file", f"{exc}: the next start serves {fell_back[0].name}, its previous save (what "
                                      "was written after it is missing there)"))
        except files.Unreadable as none:
            said.append(("file", f"{none}{SERVED_EMPTY}"))
    if not fell_back and (evidence := file_seen.missing_at_start(path)):
        said.append(("file", f"{path} is missing though {evidence}: the next start serves the graph without it "
                             "(its journal's answered changes replayed), so lessons of its last save are missing"))
    jpath = journal.journal_path(path)
    if not jpath.exists():
        return said
    damaged: list[int] = []
    try:
        records = journal.read(jpath, damaged)
    except OSError as exc:  # a folder in its place, no permission: the journal is what the next start trips on
        said.append(("journal_unreadable", f"{jpath} cannot be read ({exc.strerror or exc}): make it readable by the "
                                        "server or move it aside; until then the graph is served empty and "
                                        "refuses changes"))
        return said
    if damaged:
        said.append(("journal_damaged", f"{jpath}: line(s) {', '.join(map(str, damaged[:10]))} could not be read: the "
                                "answered change(s) they held are lost at the next start"))
    if records and (reads or not fell_back) and journal.recovered(jpath) is None and not journal.belongs(jpath) \
            and file_seen.is_previous_save(path):  # a file changed otherwise gets them replayed over it
        on = f"a later version of {path.name} than its previous save, put back there (a roll-back)"
        said.append(("journal_dropped", f"{jpath}: {len(records)} answered change(s) were made on top of {on}: "
                                        f"the next start sets them aside (in {jpath.name}.dropped) instead of "
                                        "replaying them"))
    return said


def _keep_repaired(source: Path, said: list[str]) -> None:
    """A file read other than as written (by hand, most often): said per node, and kept as it was, since the
    next save writes what was read."""
    for line in said:
        log.warning("%s: %s", source.name, line)
    try:
        log.error("%s was read with %d repair(s) (above); the file as it was is kept as %s", source.name,
                  len(said), files.keep_repaired(source).name)
    except OSError as exc:
        log.error("%s was read with %d repair(s) (above), and no copy of it as it was could be kept: %s",
                  source.name, len(said), exc)


def settle(graph: GraphData, now: float, runs: int = 10, charges: charge.ChargeIndex | None = None) -> int:
    """Compact a freshly loaded graph that is over its budget, or that shows no gist with archived nodes
    to bring back, until nothing acts.

    A store written elsewhere may be far over (thousands of anchors); settling it
    here, in a worker thread before the actor starts, spares the first write.
    One with no node active (every node archived by hand, then a start) is refilled
    here too: its first reads, a session's start among them, showed no gist at all
    until the tick. Any other graph within its budget is left as it is until a write or
    the tick, which refill it below the ceiling: a level with gists in view reads as
    one the compactor has not caught up with yet (and tests model a large level's
    archive with a small level's, which a refill on every load would empty).
    `charges`, when given, is the graph's charge index, kept current through the runs.
    """
    budget = C.MAX_CHARS_PER_LEVEL
    if charges is None:
        charges = charge.ChargeIndex.build(graph)  # kept across the runs: each starts where the last left off
    level = charge.fast_charge(graph, charges)
    blank = not charges.active and bool(charges.archived) and level < int(budget * C.COMPACTION_TARGET_RATIO)
    if level <= budget and charges.anchor_chars <= budget * C.ARCHIVED_BUDGET_RATIO and not blank:
        return 0
    for run in range(runs):
        plan = run_steps(compaction.plan_steps(graph, now, charges=charges))
        compaction.commit(graph, plan)
        charges.update(graph, plan.moves, ())
        if not plan.result.acted:
            return run
    return runs


def settle_and_derive(graph: GraphData, now: float, path: Path | None = None,
                      terms: TermChild | None = None) -> tuple[Derived, bool]:
    """Settle a loaded graph and build its derived state in one worker-thread hop, with one charge index
    for both (settling keeps it current; a second build over the settled level costs little, ~1 ms).

    With the graph's `path`, debt's terms come from the last start's where its nodes' gists are the
    same (storage/term_cache.py), or from `terms`, a child that worked them out meanwhile
    (term_process.py); the bool says whether they should be written down (again).
    """
    charges = charge.ChargeIndex.build(graph)
    settle(graph, now, charges=charges)
    stale = False
    if path is not None:
        made = debt.seed_terms(graph, terms.rows(len(graph.nodes)) if terms is not None else term_cache.read(path))
        stale = terms is not None or made > max(TERMS_REWRITE_MIN, len(graph.nodes) // 20)
    return build_derived(graph, now, charges), stale


def load_fresh(path: Path, kind: str, project_path: str | None, now: float) -> tuple[GraphData, Derived]:
    """The graph as stored, with its derived indexes and search index built (a resync)."""
    graph, _ = load_graph(path, kind, project_path)
    derived = build_derived(graph, now)
    derived.index = search.SearchIndex.build(graph)
    return graph, derived


def reads_as_graph(path: Path, kind: str) -> bool:
    """Whether the file reads as a graph as a load takes it (no `.prev` fall-back): a save's look at a file
    changed under the server (storage/file_seen.py). Worker thread."""
    def build(raw: object, reading: files.Reading) -> GraphData:
        if not isinstance(raw, dict):
            raise files.Unreadable(f"{path}: holds a JSON {type(raw).__name__}, not a graph object")
        return GraphData.from_json(raw, kind)

    return file_seen.reads_as(path, build)
