"""The directory of graph actors: graph key -> handle, started on demand.

Keys are `user`, `maintain` and `project:<slug>`. The first ask for a key
starts its actor in the actors' nursery; concurrent asks for the same key wait
for that one start (the claim is taken synchronously, so two loads of one
graph cannot race). It also remembers which folder each project root maps to.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import trio

from .core import constants as C, debt, gone_ids, graph_ops
from .core.errors import Conflict, KGError, StorageRefused
from .core.model import GraphData
from .graph_actor import run_graph_actor
from .graph_handle import GraphHandle
from .graph_loading import load_graph, reads_as_graph, settle_and_derive
from .hook_priority import YieldToHooks
from .project_evidence import Unweighed
from .project_folders import ProjectFolders
from .storage import file_seen, files, kept_aside, removed_edges, same_project, term_cache
from .storage import layout as L
from .storage.journal import journal_path
from .term_process import TermChild
from .twin_folders import merge_other_folder

log = logging.getLogger(__name__)


class _Load:
    """One load of a graph in progress: those who wait for it learn its own outcome."""

    def __init__(self) -> None:
        self.done = trio.Event()
        self.error: BaseException | None = None
        self.scope = trio.CancelScope()  # a stop cuts the load short: its graph would be thrown away


def level_of(key: str) -> str:
    return "project" if key.startswith("project:") else key


class GraphDirectory:
    def __init__(self, lay: L.Layout, nursery: trio.Nursery, orphan_grace_days: float = 365,
                 clock: Callable[[], float] = time.time, yield_to_hooks: YieldToHooks | None = None):
        self.layout = lay
        self.clock = clock
        self.yield_to_hooks = yield_to_hooks  # the graph actors' one seam with hook_priority.py
        self.orphan_grace_days = orphan_grace_days
        self._nursery = nursery
        self._handles: dict[str, GraphHandle] = {}
        self._starting: dict[str, _Load] = {}
        self.folders = ProjectFolders(lay, self._touched)
        self._refusals: dict[str, str | None] = {}  # key -> why its graph refuses changes (file unreadable)
        self._fell_back: dict[str, Path] = {}  # key -> where its unreadable file went (its previous save loaded)
        self._damaged: dict[str, Path] = {}  # key -> the copy of its journal whose damaged lines were skipped
        self._dropped: dict[str, Path] = {}  # key -> a journal of its set aside at a roll-back
        self._missing: dict[str, str] = {}  # key -> what says its file, missing at its load, existed
        # The user lessons memory held (and those taken away before) as a reload began: what the file it loads
        # lacks of them is noted taken away (gone_ids), as a `kg restore` notes it.
        self._held_before: dict[str, list[str]] = {}
        self._waiting: dict[str, files.Unavailable] = {}  # key -> why its file did not read at its load (not damage)
        self.closing = False
        self._after_loads: set[trio.CancelScope] = set()  # work a load left running beside its actor

    # Project identity (project_folders.py) ---------------------------------
    async def project_key(self, root: str) -> str:
        """`root`'s graph key. A folder's first decision may weigh evidence (a gone graph's touched files, read
        from its file and looked for in `root`: a second for a big one): that is read in a worker thread, so
        the hooks of other sessions are answered meanwhile (project_evidence.py)."""
        known = self.folders.decided(root)
        if known is not None:
            return known
        ev = self.folders.evidence(root)
        while True:  # decided on the loop, which owns what it binds; each answer it lacks is weighed off it
            try:
                return self.folders.project_key(root, ev)
            except Unweighed as need:
                await trio.to_thread.run_sync(need.weigh)

    def binding_note(self, root: str) -> str | None:
        """The one line a session opening `root` is told about its store folder's choice, once a run."""
        return self.folders.notes.pop(root, None)

    def root_of(self, key: str) -> str | None:
        return self.folders.root_of.get(key.removeprefix("project:"))

    def has_graph_for(self, root: str) -> bool:
        return self.folders.has_graph_for(root, lambda slug: f"project:{slug}" in self._handles)

    def _touched(self, slug: str) -> set[str] | None:
        """The relative files a loaded graph's lessons touch (its file may lack the latest); None: not loaded."""
        handle = self._handles.get(f"project:{slug}")
        if handle is None:
            return None
        return same_project.relative_files(t for n in handle.snapshot().nodes.values() for t in n.touches)

    def is_stored(self, key: str) -> bool:
        """A graph loaded, or stored on disk (its file or a journal not yet folded into one)."""
        path = self.layout.graph_file(key)
        return key in self._handles or L.there(path) or L.there(journal_path(path))

    def last_written(self, key: str) -> float | None:
        """When the graph's file or its journal last changed (None: neither exists)."""
        path = self.layout.graph_file(key)
        times = []
        for p in (path, journal_path(path)):
            try:
                times.append(p.stat().st_mtime)
            except OSError:  # not there, or in a folder the server may not read
                pass
        return max(times, default=None)

    def has_project_graph(self, root: str) -> bool:
        """For the home folder alone (bindings.py, on the loop without awaiting): decided here, evidence
        weighed where asked (only a gone folder of the home folder's own name has any to weigh)."""
        return L.there(self.layout.project_graph(self.folders.project_key(root).removeprefix("project:")))

    # Actors ----------------------------------------------------------------
    def loaded(self) -> list[GraphHandle]:
        return list(self._handles.values())

    def unreadable(self, key: str) -> str | None:
        """Why a loaded graph refuses changes (its file could not be read), or None."""
        return self._refusals.get(key)

    def set_aside(self, key: str) -> Path | None:
        """The unreadable file set aside when this graph was loaded from its previous save, while it is there."""
        aside = self._fell_back.get(key)
        return aside if aside is not None and os.path.lexists(aside) else None

    def fell_back(self, key: str) -> str | None:
        """Said while the unreadable file set aside at this graph's load is still there: its previous
        save was served, so what was written after that save is not in it."""
        aside = self._fell_back.get(key)
        if aside is None or not os.path.lexists(aside):  # a symlink loop set aside is there, though exists() says no
            return None
        if loop := kept_aside.loop_said(aside):
            return (f"its file was a symlink loop at a start and its previous save was loaded: what was written "
                    f"after that save is missing. The loop is kept as {aside}: {loop.split(': ', 1)[1]} (remove "
                    "it); `kg restore` brings back a committed version.")
        return (f"its file could not be read at a start and its previous save was loaded: what was "
                f"written after that save is missing. The unreadable file is kept as {aside} (remove it once "
                "looked at); `kg restore` brings back a committed version.")

    def journal_damaged(self, key: str) -> str | None:
        """Said while the copy of a journal kept at this graph's load (lines of it could not be read) is there."""
        copy = self._damaged.get(key)
        if copy is None or not os.path.lexists(copy):
            return None
        return (f"lines of its journal could not be read at a start: the changes they held are missing. The "
                f"journal is kept as {copy} (remove it once looked at).")

    def journal_dropped(self, key: str) -> str | None:
        """Said while a journal set aside at a roll-back (its graph file put back to its previous save) is there."""
        aside = self._dropped.get(key)
        if aside is None or not os.path.lexists(aside):
            return None
        return (f"answered changes made before its file was put back to its previous save (a roll-back) are not "
                f"served: they are kept in {aside}, one change per line (nodes under \"n\"). Write again what is "
                "wanted, then remove the file.")

    def file_missing(self, key: str) -> str | None:
        """Said for the rest of the server's run when the graph's file was missing at its load (file_seen.py)."""
        said = self._missing.get(key)
        if said is None:
            return None
        return (f"its file {self.layout.graph_file(key)} was missing at this server's start, though {said}: "
                "the graph was loaded without it, so lessons of its last save may be missing; `kg restore` brings "
                "back a committed version")

    def loaded_keys(self) -> list[str]:
        return list(self._handles)

    def troubles(self) -> dict[str, dict[str, str | None]]:
        """The loaded graphs that refuse changes (an unreadable file, a store that refused their last change)
        or were read from their previous save, with why and the files concerned: /health gives them, so
        `kg doctor` and `kg status` can name them."""
        out: dict[str, dict[str, str | None]] = {}
        for key, handle in self._handles.items():
            file, graph = str(self.layout.graph_file(key)), self.root_of(key) or key
            if waited := self._waiting.get(key):
                out[key] = {"kind": "unavailable", "file": file, "graph": graph, "kept": None, "fix": waited.fix,
                            "why": f"{waited.why}. Until then none of it is shown and every change to it is refused"}
            elif why := self.unreadable(key):
                out[key] = {"kind": "unreadable", "why": why, "file": file, "graph": graph, "kept": None}
            elif why := self.fell_back(key):
                out[key] = {"kind": "fell_back", "why": why, "file": file, "graph": graph,
                            "kept": str(self._fell_back[key])}
            elif why := self.journal_damaged(key):
                out[key] = {"kind": "journal_damaged", "why": why, "file": file, "graph": graph,
                            "kept": str(self._damaged[key])}
            elif why := self.journal_dropped(key):
                out[key] = {"kind": "journal_dropped", "why": why, "file": file, "graph": graph,
                            "kept": str(self._dropped[key])}
            elif why := handle.store_refusal:
                out[key] = {"kind": "not_saved", "why": f"{why}. Reads answer; every change is refused (NOT "
                            "WRITTEN) until the store takes one.", "file": file, "graph": graph, "kept": None}
            elif failed := handle.fold_failure():
                out[key] = {"kind": "not_folded", "file": file, "graph": graph, "kept": None,
                            "why": f"{file} could not be saved ({failed}): every change is kept in its journal "
                                   f"{file}.journal, which grows until a save succeeds (retried on the tick)"}
            elif why := self.file_missing(key):
                out[key] = {"kind": "file_missing", "why": why, "file": file, "graph": graph, "kept": None}
            elif (edited := handle.hand_edited()) and handle.hand_edit_rolls_back():
                out[key] = {"kind": "hand_edited", "file": file, "graph": graph, "kept": None, "rolled_back": "yes",
                            "why": f"{edited} was put back to its previous save by hand under the server: it is "
                                   "not saved over; a reload or a restart takes it as a roll-back and sets the "
                                   "writes since aside (in its journal's .dropped file), not replayed"}
            elif edited:
                out[key] = {"kind": "hand_edited", "file": file, "graph": graph, "kept": None,
                            "why": f"{edited} was changed by hand under the server: it is not saved over, and the "
                                   "writes since are kept in its journal"}
        return out

    async def get(self, key: str) -> GraphHandle:
        while True:
            handle = self._handles.get(key)
            if handle is not None and key in self._waiting and not self.closing:
                if not await trio.to_thread.run_sync(files.opens, self._waiting[key].path):
                    return handle
                if self._handles.get(key) is not handle:
                    continue  # another ask got here first: its load is the one to wait for
                # The file reads now (a permission fixed, a share back): loaded whole, as at a start.
                log.warning("graph %s: %s reads now; loading it", key, self._waiting.pop(key).path)
                del self._handles[key]

                async def stop(old: GraphHandle = handle) -> None:
                    await old.discard()  # it took no change: nothing to save

                return await self._load(key, stop)
            if handle is not None:
                return handle
            if self.closing:
                raise KGError("the server is shutting down")
            started = self._starting.get(key)
            if started is None:
                break
            await started.done.wait()
            if started.error is not None:  # this load's own failure: an older one is no answer to it
                raise KGError(f"graph {key} could not be loaded: {started.error}")
        return await self._load(key)

    def is_loading(self, key: str) -> bool:
        """A load of this graph is in progress (a hook answers without it rather than wait seconds)."""
        return key in self._starting

    async def get_within(self, key: str, seconds: float) -> GraphHandle | None:
        """The graph if it is loaded within `seconds`, else None while its load goes on in the actors'
        nursery: a hook may not wait out a large graph's first load (seconds), and a load run in the
        hook's own task would be thrown away when it gave up."""
        if key not in self._handles and key not in self._starting and not self.closing:
            # Claimed here, before any await: asks in the same tick wait for this load, not start their own.
            load = self._starting[key] = _Load()
            self._nursery.start_soon(self._load_unwaited, key, load)
        with trio.move_on_after(seconds):
            return await self.get(key)
        return None

    async def _load_unwaited(self, key: str, load: _Load) -> None:
        try:
            await self._load(key, load=load)
        except KGError:
            pass  # logged by `_load`; those who wait for it are told, and the next ask loads it again

    async def _load(self, key: str, before: Callable[[], Awaitable[None]] | None = None,
                    load: _Load | None = None) -> GraphHandle:
        # The claim is taken before the first await: concurrent asks wait for this load.
        if load is None:
            load = self._starting[key] = _Load()
        try:
            with load.scope:
                if before is not None:
                    await before()
                handle = await self._start(key)
                self._handles[key] = handle
                return handle
            raise KGError("the server is shutting down")  # only a stop cancels `scope`
        except Exception as exc:
            load.error = exc
            if self.closing:  # what cut it short is the stop, not the graph: no traceback at ERROR
                log.info("the load of graph %s was cut short: the server is stopping", key)
                raise KGError("the server is shutting down") from None
            log.exception("could not load graph %s", key)
            raise KGError(f"graph {key} could not be loaded: {exc}") from exc
        finally:
            if self._starting.get(key) is load:
                del self._starting[key]
            load.done.set()

    async def _start(self, key: str) -> GraphHandle:
        level = level_of(key)
        path = self.layout.graph_file(key)
        root = self.root_of(key) if level == "project" else None
        kind = {"user": "user", "maintain": "maintain"}.get(level, "project")
        refusal = None
        # A big file's DEBT terms are worked out by a child on the other core while this one reads and settles.
        terms = await trio.to_thread.run_sync(TermChild.start, path)
        aside: list[Path] = []
        damaged: list[Path] = []
        try:
            try:
                if said := await trio.to_thread.run_sync(file_seen.missing_at_start, path):
                    self._missing[key] = said
                    log.error("graph %s: %s is missing though %s: loaded without it", key, path, said)
                graph, replayed = await trio.to_thread.run_sync(
                    lambda: load_graph(path, kind, root, aside, kept_damaged=damaged))
                # Files set aside, by this load or an earlier one, hold lessons not served: named while they exist.
                kept = await trio.to_thread.run_sync(kept_aside.beside, path)
                for held, kind, made in ((self._fell_back, "unreadable", aside), (self._damaged, "damaged", damaged),
                                         (self._dropped, "dropped", [])):
                    if found := (made[0] if made else kept.get(kind)):
                        held[key] = found
                    else:
                        held.pop(key, None)
            except (files.Unreadable, OSError) as exc:  # OSError: a folder it may not look into
                # One bad file costs only what it holds: the graph is served empty and refuses changes,
                # so nothing is written over the file the user restores.
                refusal = (f"{exc} Until then this graph is served empty and refuses changes; after restoring, "
                           "reload it (GET /api/graph/read?reload=true) or restart the server.")
                if isinstance(exc, files.Unavailable):  # not damage: its next use once it reads loads it
                    refusal = (f"{exc} Until then none of this graph is shown and every change to it is refused "
                               "(nothing is written over the file).")
                    self._waiting[key] = exc
                log.error("graph %s: %s", key, refusal)
                graph, replayed = GraphData(kind, root), 0
            self._refusals[key] = refusal
            before = self._held_before.pop(key, [])
            if refusal is None and (taken := [i for i in before if i not in graph.nodes]):
                # A project's edges to them stay (_clean_dangling), for an undo or a restore that brings them back.
                gone_ids.remember(graph, taken)
            # Abandoned when a stop cuts the load short: settling a store moved over takes seconds, and its
            # result would be thrown away (the thread works on this load's own objects only, and writes nothing).
            derived, terms_stale = await trio.to_thread.run_sync(
                settle_and_derive, graph, self.clock(), path, terms if refusal is None else None,
                abandon_on_cancel=True)
        finally:
            if terms is not None:
                terms.close()  # collected by settle_and_derive, or not needed after all
        if replayed:
            log.info("%s: replayed %d journal record(s)", key, replayed)
        if level == "project" and graph.project_path:
            self.folders.root_of.setdefault(key.removeprefix("project:"), graph.project_path)
        handle: GraphHandle = await self._nursery.start(run_graph_actor, key, level, path, graph, derived, self.orphan_grace_days,
                                            self.yield_to_hooks, self.clock, refusal)
        if refusal is not None:
            return handle
        try:
            await self._settle_in(key, level, graph, handle, path, terms_stale)
        except BaseException:
            await handle.close()  # a load that fails (or a stop cuts short) here leaves no actor running unowned
            raise
        return handle

    async def _settle_in(self, key: str, level: str, graph: GraphData, handle: GraphHandle, path: Path,
                         terms_stale: bool) -> None:
        """What a load does once its actor runs: a second folder merged in, dangling edges cleaned."""
        if level == "project" and graph.project_path:
            # A second folder of this project's graph (kg-memory's, beside ours): merged in before anyone reads it.
            await merge_other_folder(self.layout, handle, key.removeprefix("project:"), graph.project_path,
                                     self.clock())
        user_in = level != "project" or "user" in self._handles
        if not user_in:
            with trio.move_on_after(C.PROJECT_WAITS_FOR_USER):
                await self.get("user")
                user_in = True
        if not user_in:
            # The user graph still loading (a big one): this graph serves now, and its edges to user nodes
            # are cleaned once the user's are known, so a session's preload is not held for the user's load.
            later = trio.CancelScope()
            self._after_loads.add(later)
            self._nursery.start_soon(self._clean_later, key, level, handle, later)
        else:
            await self._clean_dangling(key, level, handle)
        if terms_stale:
            scope = trio.CancelScope()  # held from now: a stop before the task first runs cancels it all the same
            self._after_loads.add(scope)
            self._nursery.start_soon(_keep_terms, handle, path, scope, self._after_loads)

    async def _clean_later(self, key: str, level: str, handle: GraphHandle, scope: trio.CancelScope) -> None:
        with scope:
            try:
                await self._clean_dangling(key, level, handle)
            except KGError:
                pass  # the actor or the user graph's load stopped first: the next load cleans
            finally:
                self._after_loads.discard(scope)

    async def _clean_dangling(self, key: str, level: str, handle: GraphHandle) -> None:
        """Edges whose bare-id endpoint names no node go on load; a project may name user nodes."""
        outside: frozenset[str] = frozenset()
        renamed: dict[str, str] = {}
        if level == "project":
            user = await self.get("user")
            if self._refusals.get("user") or "user" in self._fell_back or "user" in self._missing:
                # An unreadable user graph names no nodes, and one served from its previous save (a stand-in)
                # or begun empty in place of a lost file lacks those written since: the project's edges to
                # them must stay.
                return
            outside = await user.node_ids()
            if not outside:
                return  # no user lessons at all (its file moved aside, or lost): a restore brings them back
            # Nor does an edge go whose end is a user lesson a change took away (a delete, a restore): the
            # change may be undone, and a restore of the user graph puts back its lessons, not this edge.
            outside = outside | gone_ids.of(user.snapshot().extra_meta)
            renames = user.snapshot().extra_meta.get(graph_ops.RENAMED_KEY)
            renamed = dict(renames) if isinstance(renames, dict) else {}
        try:
            removed = await handle.clean_dangling(outside_ids=outside, renamed=renamed, now=self.clock())
            if removed:  # what they held (notes) is kept beside the graph, never dropped without a copy
                path = self.layout.graph_file(key)
                kept = await trio.to_thread.run_sync(removed_edges.keep, path, removed)
                for line in removed_edges.said(key, removed, kept):
                    log.warning("%s", line)
        except StorageRefused as exc:
            # A full or read-only disk: the graph is still served (a session opening a new project keeps
            # its memory); its first write is refused the same way until the disk takes it.
            log.warning("graph %s: its load's clean-up was not saved: %s", key, exc)

    async def reload(self, key: str, stopped: Callable[[], Awaitable[None]] | None = None) -> GraphHandle:
        """Disk wins: stop the actor without a final save and load the graph from disk again.

        What the actor acknowledged is on disk already (the journal), and is replayed; a
        graph file replaced from outside since the journal began (a restore) gets none
        of it: the load sets that journal aside and logs what it dropped. `stopped` runs
        between the two, while no change to the graph is taken (a restore writes its file then).
        """
        handle = await self.get(key)
        self._waiting.pop(key, None)  # loaded again now: a file still refused is waited for again
        if self._refusals.get(key) is None:
            await self._keep_memory_over_damage(key, handle)
            if key == "user":  # a hand restore (user.prev copied over user.json) takes lessons away too
                held = handle.snapshot()
                self._held_before[key] = [*sorted(gone_ids.of(held.extra_meta)), *held.nodes]
        del self._handles[key]

        async def discard() -> None:
            await handle.discard()
            if stopped is not None:
                await stopped()

        return await self._load(key, discard)

    async def _keep_memory_over_damage(self, key: str, handle: GraphHandle) -> None:
        """Before a reload: a file no load reads (a FIFO, a symlink loop, removed, not a graph) is damage, and
        memory is written back over it by a save, as the save tick does (graph_file_watch.py); a hand edit is
        not saved over. Without it the load fell back on `.prev` and the journal, which lack the last save's
        lessons, and the next save made that loss for good. Refused when the file still does not read.
        `whole`: a save queued behind any the tick began, so the file is in place when this returns."""
        await handle.fold(whole=True)
        path = self.layout.graph_file(key)
        if not await trio.to_thread.run_sync(reads_as_graph, path, handle.snapshot().kind):
            raise Conflict(f"graph {key} was not reloaded: {path} does not read as a graph and what memory holds "
                           "could not be written over it (the server's log says why); the graph is served as "
                           "memory holds it")

    async def remove_project(self, slug: str, now: float, check: Callable[[int], None] | None = None) -> Path:
        """Unload a project's actor (its last changes saved first) and move its folder to the store's
        trash, while every ask for the graph waits; returns where the folder went.

        `check(node count)` may refuse (raise) once the claim is held: a write that landed since the
        caller looked is counted.
        """
        key = f"project:{slug}"
        while key in self._starting:
            await self._starting[key].done.wait()
        load = self._starting[key] = _Load()  # asks for this graph wait until the folder is gone
        try:
            handle = self._handles.get(key)
            if handle is not None and check is not None:
                check(len((await handle.current()).graph.nodes))
            self._handles.pop(key, None)
            if handle is not None:
                await handle.fold()
                await handle.discard()  # the actor stops; writes it took meanwhile are in the journal
            dest = await trio.to_thread.run_sync(L.move_to_trash, self.layout, slug, now)
            self.folders.forget(slug)
            return dest
        finally:
            if self._starting.get(key) is load:
                del self._starting[key]
            load.done.set()

    async def stop_all(self) -> None:
        """Close every mailbox; each actor folds what is dirty and exits."""
        self.closing = True
        for scope in [*(load.scope for load in self._starting.values()), *self._after_loads]:
            scope.cancel()
        for handle in list(self._handles.values()):
            await handle.close()
        self._handles.clear()


async def _keep_terms(handle: GraphHandle, path: Path, scope: trio.CancelScope, scopes: set[trio.CancelScope]) -> None:
    """Once the start's burst is over (the search index is in), write debt's terms down for the next start.
    A stop before then drops it (stop_all cancels `scope`, one of `scopes`): the index it waits for never
    comes, and the wait held the stop to its grace period (10 s); the next start works them out again."""
    with scope:
        try:
            await handle.view()
            snapshot = handle.snapshot()
            await trio.to_thread.run_sync(lambda: term_cache.write(path, debt.term_rows(snapshot)))
        except KGError:
            return  # the actor stopped first
        finally:
            scopes.discard(scope)
