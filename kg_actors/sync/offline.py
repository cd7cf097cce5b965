"""`kg commit|sync|restore|init-git` on a store no server owns: the same steps, on the files directly.

Each holds the store's lock for its whole run (a server cannot start in the
middle), folds any journal a killed server left into its JSON first (so a
commit holds whole writes), and removes lock files a killed git left behind.
`ensure_repository` is the one call `kg setup` needs to offer `git init`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..storage import files, graph_file, journal, lock
from ..storage import git as G
from ..storage import git_head, git_merge, git_read, held_on_disk, mirror, shards
from ..storage.layout import Layout
from ..storage.machine_id import machine_id
from . import common, rebuild, restore_undo

if TYPE_CHECKING:
    from ..storage.graph_text import Indexed

log = logging.getLogger(__name__)


@contextmanager
def owned(root: Path) -> Iterator[Layout]:
    """Hold the store's lock (StorageBusy when a server owns it)."""
    fd = lock.claim(root)
    try:
        if G.is_repo(root):
            G.clear_stale_locks(root)
        yield Layout(root)
    finally:
        lock.release(fd)


def fold_journals(layout: Layout) -> list[str]:
    """Fold every journal left beside a graph into its JSON (what a server does at start, then at once)."""
    folded = []
    keys = ["user", "maintain"] + [f"project:{s}" for s in layout.project_slugs()]
    for key in keys:
        path = layout.graph_file(key)
        jpath = journal.journal_path(path)
        if not jpath.exists():
            continue
        from ..graph_loading import load_graph  # only with a journal to fold: the import costs a CPU tenth

        graph, _ = load_graph(path, "project" if key.startswith("project:") else key, None)
        graph_file.write_snapshot(path, graph.snapshot_json())
        journal.remove(jpath)
        folded.append(key)
    return folded


def take_in_moved(layout: Layout, now: float) -> dict[str, Any]:
    """Commits that reached HEAD outside kg (a `git pull` by hand), taken into the graph files per node, with
    the writes here since kept (the sync's merge rules: base, the commit kg last made; ours, the graph file;
    theirs, HEAD), as a server's actors take them in (sync/keeper.py); what each graph got."""
    root = layout.root
    moved = G.moved_forward(root)
    if moved is None:
        return {}
    from ..core.merge import merge_graphs  # only when there is something to take in

    before, after = moved
    changed = git_read.changed(root, before, after)
    keys = {found[0] for rel in changed if (found := shards.split_path(rel))}
    keys |= {key for rel in changed if (key := git_read.legacy_key(rel))}
    out = {}
    try:
        read = {key: (git_read.graph_at(root, after, key), git_read.graph_at(root, before, key)) for key in sorted(keys)}
    except ValueError as exc:
        raise common.moved_unreadable(root, before, after, exc) from None
    for key, (theirs, base) in read.items():
        if theirs is None:
            continue
        path = layout.graph_file(key)
        ours = files.load_json(path) if path.exists() else None
        merged = theirs if ours is None else merge_graphs(base, ours, theirs, now).merged
        path.parent.mkdir(parents=True, exist_ok=True)
        files.write_atomic(path, files.dump_json(merged))
        mirror.forget(root, key)
        out[key] = {**common.changes(ours, merged), **common.new_conflicts(ours, merged)}
    git_head.remember(root, after)
    return out


def repository_state(root: Path) -> tuple[bool, str]:
    """For `kg setup`/`kg doctor`: (is the store a git repository, a line saying so and what to do)."""
    if G.is_repo(root):
        return True, f"{root} is a git repository: committed every autocommit interval and at shutdown"
    return False, G.init_hint(root)


def ensure_repository(root: Path, now: float | None = None) -> str:
    """Make the store a git repository with its ignore file and merge driver, and commit what is there.

    For `kg setup` and `kg init-git`. With a server running it sets the repository up and leaves the
    first commit to the server (`kg commit`, or its autocommit); the message says which happened.
    """
    now = time.time() if now is None else now
    try:
        with owned(root) as layout:
            created = G.init(root)
            fold_journals(layout)
            take_in_moved(layout, now)
            try:
                sha = held_on_disk.commit(root, now, "first commit" if created else "commit")
            except held_on_disk.SecretHeld as exc:  # the repository is there: only its commit waits
                raise held_on_disk.SecretHeld(f"{root} {'is now' if created else 'is already'} a git repository; "
                                              f"{exc}") from None
    except lock.StorageBusy:
        created = G.init(root)
        return (f"{root} is {'now' if created else 'already'} a git repository; the running server commits it "
                "(run `kg commit` to commit now)")
    state = "is now" if created else "is already"
    return f"{root} {state} a git repository" + (f"; committed {sha[:12]}" if sha else "; nothing new to commit")


def commit(root: Path, now: float) -> dict[str, Any]:
    with owned(root) as layout:
        if not G.is_repo(root):
            return {"committed": False, "reason": G.init_hint(root)}
        fold_journals(layout)
        taken_in = take_in_moved(layout, now)
        sha = held_on_disk.commit(root, now, "commit")
    return {"committed": sha is not None, "commit": sha, "taken_in": taken_in, "left_out": common.left_out(root)}


def sync(root: Path, remote: str, now: float, all_upgraded: bool = False) -> dict[str, Any]:
    git_merge.check_remote(remote)
    with owned(root) as layout:
        fold_journals(layout)
        held_on_disk.refuse_sync(root)  # a secret here (a hand edit) is never committed and pushed
        if not G.is_repo(root):  # a remote that does not answer makes no repository of the store
            git_merge.probe(root, remote)
        created = G.init(root)
        taken_in = take_in_moved(layout, now)
        # What the commit read of each graph file: the rebuild starts from it.
        parsed: dict[str, dict[str, Any] | Indexed] = {}
        held_on_disk.commit(root, now, "save before sync", keep=parsed)
        outcome = git_merge.fetch_merge_push(root, remote, all_upgraded)
        graphs = {}
        for key, change in rebuild.changes(root, outcome.before, outcome.changed).items():
            rebuild.rebuild(root, change, parsed.get(key))
            graphs[key] = change.summary(machine_id(root))
        git_head.remember(root, outcome.after)  # the graph files hold the merge now
    return {"remote": G.shown(remote), "initialised": created, "fetched": outcome.fetched, "before": outcome.before,
            "after": outcome.after, "pushed": outcome.pushed, "push_error": outcome.push_error, "graphs": graphs,
            "taken_in": taken_in, "withheld": common.withheld_json(outcome.withheld),
            "squashed": outcome.squashed, "left_out": common.left_out(root)}


def restore(root: Path, key: str, at: str, now: float) -> dict[str, Any]:
    with owned(root) as layout:
        if not G.is_repo(root):
            raise G.GitError(G.init_hint(root))
        # As through the server (sync/keeper.py): what was written since the last commit is committed
        # first, so the restore is undone by another; a commit that fails stops it (unless a graph file is
        # no graph: putting one back is its fix).
        fold_journals(layout)
        take_in_moved(layout, now)
        uncommitted = None
        try:
            held_on_disk.commit(root, now, "save before restore")
        except G.UnreadableGraph as exc:
            uncommitted = str(exc)
        before = G.head(root)
        sha = G.resolve(root, at, max(now, time.time()))  # git dated that commit by the wall clock, after `now`
        path = layout.graph_file(key)
        exists = path.exists() or key in ("user", "maintain")
        then = common.graph_then(root, sha, key, exists)
        undoing, undone = restore_undo.undone_base(root, key, sha, exists)
        current, aside = common.stored_or_aside(path, files.load_json) if path.exists() else (None, None)
        then = common.emptied(current) if then is None else then
        if undoing:  # the undo of a restore: what was written since it stays
            then = restore_undo.unapply(undone, current, then, now)
        restored = common.put_back(key, current, then, now)
        files.write_atomic(path, files.dump_json(restored))
        restore_undo.record(root, key, before, sha)
    summary = common.changes(current, restored)
    return {"graph": key, "commit": sha, "before": before, **summary,
            "text": common.describe_restore(summary, before, sha, uncommitted, key, undoing) + common.aside_said(aside)}
