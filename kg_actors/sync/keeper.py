"""StoreKeeper: the server's git work on its store (commit, sync, restore), one at a time, off the loop.

Theory of operation. The keeper is an actor: its mailbox takes jobs (a commit,
a sync, a restore, and the runtime's tick, so no fold rewrites a graph file
while git works on it) and runs each to completion before the next. A job asks every loaded
graph actor to fold its journal into the JSON (so a commit never holds half a
write), then runs git in a worker thread: the Trio loop, and with it every
hook and tool reply, goes on meanwhile. After a merge, each loaded graph whose
file changed absorbs the change through its actor (no restart); writes that
landed during the sync are merged in, not lost, and sessions' views of the
changed nodes are forgotten so arbitration sees the new versions. A failure is
a clear message; the autocommit loop logs each distinct failure once and tries
again next time. The server keeps serving the last good state throughout.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import attrs
import trio

from .. import actor, held_scan
from ..core.model import snapshot_to_json
from ..graph_loading import load_graph
from ..storage import files, journal
from ..storage import git as G
from ..storage import commit_process, git_head, git_merge, git_read, held_on_disk, mirror
from ..storage.layout import Layout
from ..storage.machine_id import machine_id
from . import common, rebuild, restore_undo

if TYPE_CHECKING:
    from ..directory import GraphDirectory
    from ..session_handle import SessionHandle

log = logging.getLogger(__name__)
T = TypeVar("T")
Summary = dict[str, Any]  # what a job answers: JSON-ready, for /health and the `kg` commands

MERGE_DEADLINE = 300.0  # seconds a sync's merge-and-absorb may take once started (shielded from shutdown)


async def _network(fn: Callable[..., T], *args: Any) -> T:
    """A git step that only talks to the remote: abandoned on cancel, its git stopped with it."""
    try:
        return await trio.to_thread.run_sync(fn, *args, abandon_on_cancel=True)
    except trio.Cancelled:
        G.stop_all()
        raise


@attrs.frozen
class Job(actor.Message[Any]):
    """A store job: an async callable, run when no other one runs."""

    op = "job"
    run: Callable[[], Awaitable[Any]]


class StoreKeeper:
    def __init__(self, layout: Layout, directory: GraphDirectory, sessions: SessionHandle,
                 clock: Callable[[], float], publish: Callable[[dict[str, Any]], None] | None = None):
        self.layout = layout
        self.root: Path = layout.root
        self.directory = directory
        self.sessions = sessions
        self.clock = clock
        self.publish = publish
        self._mailbox = actor.Mailbox[Job]("store keeper")
        self._last_problem: str | None = None
        self.rides_tick = False  # commits wait for the save tick's fold (see `run`)
        self._due = False  # a commit waits for the next tick
        self.autocommits = 0  # attempts, for /health
        self.last: Summary = {}

    # The actor ---------------------------------------------------------------------------
    async def serve(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Run jobs one at a time until `close`; whatever is left is answered with an error."""
        task_status.started()
        try:
            async for job in self._mailbox.receive:
                try:
                    job.reply.set(await job.run())
                except Exception as exc:  # the caller gets it; the keeper goes on
                    job.reply.fail(exc)
        finally:
            self._mailbox.drain_stopped()

    async def exclusive(self, job: Callable[[], Awaitable[T]]) -> T:
        """Run `job` (an async callable) when no other store job runs."""
        done: T = await self._mailbox.ask(Job(job))
        return done

    def close(self) -> None:
        self._mailbox.send.close()

    # The autocommit loop ---------------------------------------------------------------
    async def run(self, interval: float, tick_interval: float = float("inf")) -> None:
        """Commit (and sync when `sync_remote` is set) every `interval` seconds; never raises.

        When the save tick comes at least as often as commits (30 s against 900 s by default), a
        commit due waits for the tick and rides its fold (`after_tick`): a 10,000-node fold is
        ~0.2 s of the server's CPU, which a commit of its own would add beside the hook replies."""
        if interval <= 0:
            return
        self.rides_tick = tick_interval <= interval
        while True:
            await trio.sleep(interval)
            await self.autocommit()

    @property
    def commit_due(self) -> bool:
        """A commit waits for the next save tick's fold, which must then save every graph."""
        return self._due

    def status(self) -> Summary:
        return {"problem": self._last_problem, "autocommits": self.autocommits, "last": self.last}

    async def autocommit(self) -> Summary:
        self.autocommits += 1
        if not G.is_repo(self.root):  # one stat: cheap enough for the loop, and no thread to wait on
            return {"committed": False, "reason": G.init_hint(self.root)}
        remote = await trio.to_thread.run_sync(common.sync_remote, self.root)
        if not remote and self.rides_tick:
            self._due = True
            return {"committed": False, "reason": "due: committed after the next save tick's fold"}
        try:
            out = await (self.sync(remote) if remote else self.commit())
        except G.GitError as exc:
            self.problem(str(exc))
            return {"error": str(exc)}
        except Exception as exc:  # a boundary: the loop goes on
            log.exception("autocommit failed")
            self.problem(repr(exc))
            return {"error": repr(exc)}
        if out.get("push_error"):
            self.problem(f"push to {G.shown(str(remote))!r} refused: {out['push_error']}")
        else:
            self._recovered()
        return out

    async def after_tick(self, folded: bool) -> None:
        """Inside the tick's job, right after its fold: the commit that is due, if any. Never raises.

        `folded` says every loaded graph was saved to its file; otherwise the commit waits for a
        tick that saves them all (a commit never holds half a write)."""
        if not self._due:
            return
        if not folded:
            self.problem("a graph could not be saved to its file; the commit waits for a save that works")
            return
        self._due = False
        try:
            if await self._take_in_moved():
                await self._fold_all()
            sha = await self._commit_in_child("auto-save")
        except G.GitError as exc:
            self.problem(str(exc))
            return
        except Exception as exc:  # a boundary: the tick goes on
            log.exception("autocommit failed")
            self.problem(repr(exc))
            return
        self.last = {"commit": sha, "ts": self.clock()}
        self._recovered()

    def problem(self, message: str) -> None:
        if message != self._last_problem:
            log.warning("git: %s (retried on the next autocommit)", message)
        self._last_problem = message

    def _recovered(self) -> None:
        if self._last_problem is not None:
            log.info("git: working again after: %s", self._last_problem)
        self._last_problem = None

    # Operations ------------------------------------------------------------------------
    async def _fold_all(self) -> None:
        for handle in self.directory.loaded():
            if not await handle.fold():
                if edited := handle.hand_edited():  # not saved over: its journal holds the writes since
                    raise G.GitError(f"{edited} was changed by hand under the server; reload it first (kg stop && "
                                     "kg start, or GET /api/graph/read?reload=true) so the writes since are in it")
                raise G.GitError(f"graph {handle.key} could not be saved to its file; not committing half a write")

    async def commit(self, what: str = "auto-save") -> Summary:
        return await self._told(self.exclusive(lambda: self._commit(what)))

    async def _told(self, job: Awaitable[Summary]) -> Summary:
        """A commit or sync asked for by hand: its refusal is the store's problem until one works (/health's
        git.problem, which `kg doctor` shows), as an autocommit's is."""
        try:
            out = await job
        except G.GitError as exc:
            self.problem(str(exc))
            raise
        if not out.get("push_error"):
            self._recovered()
        return out

    async def _commit(self, what: str) -> Summary:
        if not await trio.to_thread.run_sync(G.is_repo, self.root):
            return {"committed": False, "reason": G.init_hint(self.root)}
        taken_in = await self._take_in_moved()
        await self._fold_all()
        sha = await self._commit_in_child(what)
        self.last = {"commit": sha, "ts": self.clock()}
        return {"committed": sha is not None, "commit": sha, "taken_in": taken_in,
                "left_out": await trio.to_thread.run_sync(common.left_out, self.root)}

    async def _take_in_moved(self) -> Summary:
        """Commits that reached HEAD outside kg (a `git pull` by hand), taken in as a merge is: each graph they
        changed absorbs them through its actor, per node, with the writes here since kept (a commit from the
        stale graph files reverted them). Then the mirror is rewritten whole from the graph files at the commit.
        {} when HEAD is where kg left it; MovedOutside (nothing done) when HEAD no longer holds kg's commit."""
        moved = await trio.to_thread.run_sync(G.moved_forward, self.root)
        if moved is None:
            return {}
        before, after = moved
        changed = await trio.to_thread.run_sync(git_read.changed, self.root, before, after)
        outcome = git_merge.MergeOutcome(before, after, tuple(changed), False, None, False)
        try:
            found = await trio.to_thread.run_sync(rebuild.changes, self.root, before, outcome.changed)
        except ValueError as exc:  # read before any graph takes a part of them in
            raise common.moved_unreadable(self.root, before, after, exc) from None
        taken_in = await self._absorb(outcome, load=True, found=found)
        await self._fold_all()  # what was taken in is in the graph files before kg records it as held
        for key in taken_in:
            await trio.to_thread.run_sync(mirror.forget, self.root, key)
        await trio.to_thread.run_sync(git_head.remember, self.root, after)
        log.info("git: took in commits made outside kg (%s..%s): %s", before[:12], after[:12], sorted(taken_in))
        return taken_in

    async def _commit_in_child(self, what: str) -> str | None:
        """A commit (held_on_disk.commit) in a child process (storage/commit_process.py): its CPU leaves the
        loop's lock alone."""
        proc = await trio.run_process(commit_process.command(self.root, self.clock(), what), check=False,
                                      capture_stdout=True, capture_stderr=True)
        return commit_process.parse(proc.stdout, proc.stderr, proc.returncode)

    async def sync(self, remote: str, all_upgraded: bool = False) -> Summary:
        """Commit, fetch, merge (per node), push; then the loaded graphs absorb what the merge changed.
        `all_upgraded`: push even to a branch kg-memory 0.17 machines read (storage/old_layout.py)."""
        return await self._told(self.exclusive(lambda: self._sync(remote, all_upgraded)))

    async def _sync(self, remote: str, all_upgraded: bool = False) -> Summary:
        git_merge.check_remote(remote)
        await self._fold_all()
        await held_scan.refuse_sync(self.root)  # a secret here is never pushed
        if not await trio.to_thread.run_sync(G.is_repo, self.root):  # a remote that does not answer: no repository
            await _network(git_merge.probe, self.root, remote)
        created = await trio.to_thread.run_sync(G.init, self.root)
        taken_in = await self._take_in_moved()
        await self._fold_all()
        await self._commit_in_child("save before sync")
        # Fetch and push are network only, and a remote that never answers must not hold a shutdown (git's
        # own timeout is minutes): abandoned on cancel, they leave the store as it was. The merge and the
        # graphs' absorbing of it run whole once begun.
        fetched = await _network(git_merge.fetch, self.root, remote)
        with trio.CancelScope(shield=True) as scope:
            scope.deadline = trio.current_time() + MERGE_DEADLINE
            outcome = await trio.to_thread.run_sync(git_merge.merge_fetched, self.root, remote, fetched)
            absorbed = await self._absorb(outcome)
            await trio.to_thread.run_sync(git_head.remember, self.root, outcome.after)  # its graphs hold it now
        outcome = await _network(git_merge.push, self.root, fetched, outcome, all_upgraded)
        summary = {
            "remote": G.shown(remote), "initialised": created, "fetched": outcome.fetched, "before": outcome.before,
            "after": outcome.after, "pushed": outcome.pushed, "push_error": outcome.push_error,
            "graphs": absorbed, "taken_in": taken_in, "withheld": common.withheld_json(outcome.withheld),
            "squashed": outcome.squashed, "left_out": await trio.to_thread.run_sync(common.left_out, self.root),
        }
        self.last = {"sync": summary, "ts": self.clock()}
        return summary

    async def _absorb(self, outcome: git_merge.MergeOutcome, load: bool = False,
                      found: dict[str, rebuild.GraphChange] | None = None) -> Summary:
        """`load`: a graph no actor holds is loaded to absorb the change, not rebuilt from it (its file may hold
        writes the merge's commits lack: commits pulled by hand were made without them). `found`: the changes,
        read already."""
        out: dict[str, Any] = {}
        loaded = {h.key: h for h in self.directory.loaded()}
        if found is None:
            found = await trio.to_thread.run_sync(rebuild.changes, self.root, outcome.before, outcome.changed)
        for key, change in found.items():
            handle = loaded.get(key)
            if handle is None and load and self.layout.graph_file(key).exists():
                handle = await self.directory.get(key)
            if handle is None:  # no actor holds it: its file is rebuilt from the merge
                await trio.to_thread.run_sync(rebuild.rebuild, self.root, change)
            else:  # the actor takes the change in (and saves it by its own path)
                # The mirror's record first: the next commit compares the file with the merged folder.
                await trio.to_thread.run_sync(rebuild.record_merge, self.root, change)
                ids = await handle.absorb(base=change.base or {}, merged=change.merged, now=self.clock())
                if ids:
                    held = (await handle.current()).graph.nodes  # as the absorb left it
                    gone = {i for i in ids if i not in held}
                    # A node the merge renamed (on the other machine, or on both): sessions that saw it under
                    # the old id are told where it went, as after a rename here; then its views go stale.
                    nodes = [(c or {}).get("nodes") or {} for c in (change.base, change.merged)]
                    moved = common.renamed_by_merge(nodes[0], {k: v for k, v in nodes[1].items() if k in held}, gone)
                    for old_id, new_id in moved.items():
                        await self.sessions.rename_ref(level=handle.level, old_id=old_id, new_id=new_id,
                                                       project_path=self.directory.root_of(key))
                    await self.sessions.forget_views(level=handle.level, ids=list(ids), gone=frozenset(gone))
                if self.publish is not None:  # content from another machine: open tabs re-read the graph
                    self.publish({"type": "graph_replaced", "level": handle.level,
                                  "project_path": self.directory.root_of(key)})
            out[key] = change.summary(machine_id(self.root))
        return out

    async def restore(self, key: str, at: str) -> Summary:
        """Put graph `key` back as it was at commit or date `at`, through the actor (disk wins)."""
        return await self.exclusive(lambda: self._restore(key, at))

    async def _restore(self, key: str, at: str) -> Summary:
        if not await trio.to_thread.run_sync(G.is_repo, self.root):
            raise G.GitError(G.init_hint(self.root))
        # What was written since the last commit is committed first: a restore is then undone by another
        # (the `.prev` alone kept one save, and the next restore or save wrote over it), and `now` is the
        # present. A commit that fails stops the restore (nothing unsaved is written over), unless a graph
        # file is not a graph at all.
        await self._take_in_moved()
        await self._fold_all()
        uncommitted = None
        try:
            await self._commit_in_child("save before restore")
        except G.UnreadableGraph as exc:  # a file that is no graph: putting one back is how it is fixed
            uncommitted = str(exc)
        before = await trio.to_thread.run_sync(G.head, self.root)
        # git dated the commit just made by the wall clock: `now` reaches it.
        commit = await trio.to_thread.run_sync(G.resolve, self.root, at, max(self.clock(), time.time()))
        exists = key in ("user", "maintain") or self.layout.graph_file(key).exists()
        restored = await trio.to_thread.run_sync(common.graph_then, self.root, commit, key, exists)
        undoing, undone = await trio.to_thread.run_sync(restore_undo.undone_base, self.root, key, commit, exists)
        handle = await self.directory.get(key)
        await handle.fold()  # the file's `.prev` then holds everything up to now
        path, root = self.layout.graph_file(key), self.directory.root_of(key)
        found: dict[str, Any] = {}
        wanted = restored  # None: the graph had no node then

        async def put_back() -> None:
            # The actor is stopped and the graph's asks wait: every change it acknowledged is on disk (the
            # file and its journal), and none is taken before the restored file is loaded. A dump from the
            # running actor missed what it acknowledged after it, which the reload then set aside.
            current, found["aside"] = await trio.to_thread.run_sync(
                common.stored_or_aside, path, lambda p: _as_stored(p, key, root))
            found["current"] = current
            if found["aside"] is not None:
                log.warning("%s restored over a file that did not read as a graph, kept as %s", key, found["aside"])
            then = common.emptied(current) if wanted is None else wanted
            if undoing:  # the undo of a restore: what was written since it stays
                then = restore_undo.unapply(undone, current, then, self.clock())
            found["restored"] = common.put_back(key, current, then, self.clock())
            await trio.to_thread.run_sync(lambda: files.write_atomic(path, files.dump_json(found["restored"])))
            # A restore is a roll-back: the journal's writes (in `current` above) are not replayed over it.
            dropped, aside = await trio.to_thread.run_sync(journal.set_aside, journal.journal_path(path))
            if dropped:
                log.warning("%s restored: %d change(s) of its journal were set aside in %s", key, dropped, aside.name)

        await self.directory.reload(key, put_back)
        await trio.to_thread.run_sync(restore_undo.record, self.root, key, before, commit)
        current, restored = found["current"], found["restored"]
        summary = common.changes(current, restored)
        ids = summary["added"] + summary["removed"] + summary["changed"]
        if ids:
            await self.sessions.forget_views(level=handle.level, ids=ids, gone=frozenset(summary["removed"]),
                                             why="restore")
        if self.publish is not None:  # an open editor tab re-reads the graph (it kept showing the old one)
            self.publish({"type": "graph_replaced", "level": handle.level, "project_path": self.directory.root_of(key)})
        return {"graph": key, "commit": commit, "before": before, **summary,
                "text": common.describe_restore(summary, before, commit, uncommitted, key, undoing)
                + common.aside_said(found["aside"])}

    async def shutdown_commit(self) -> None:
        """At shutdown, after the actors folded: one commit, bounded, never raising."""
        try:
            if await trio.to_thread.run_sync(G.is_repo, self.root):
                # Abandoned at the grace deadline: a hung git must not keep the server from exiting.
                await trio.to_thread.run_sync(held_on_disk.commit, self.root, self.clock(), "save at shutdown",
                                              abandon_on_cancel=True)
        except G.GitError as exc:
            self.problem(f"commit at shutdown: {exc}")  # a line of its own: the last word on what was not saved
        except Exception:
            log.exception("git: commit at shutdown failed")


def _as_stored(path: Path, key: str, root: str | None) -> dict[str, Any]:
    """Graph `key` as its file and journal hold it (what its stopped actor acknowledged), as `dump` gives it."""
    kind = key if key in ("user", "maintain") else "project"
    graph, _ = load_graph(path, kind, root, read_only=True)
    return snapshot_to_json(graph.snapshot_json())
