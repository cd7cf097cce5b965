"""`kg commit`, `kg sync [REMOTE]`, `kg restore --at WHEN [GRAPH]`, `kg init-git`: ask the server that owns
the store (so the work goes through its actors), or do it on the files when none runs."""

from __future__ import annotations

import json
import os
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, TypeVarTuple

from ..storage import git as G
from ..storage import held_on_disk, layout as L, work_trees
from ..storage.lock import StorageBusy
from . import common, offline, waiting

if TYPE_CHECKING:
    from pathlib import Path

    from ..config import Config

REQUEST_TIMEOUT = 600.0

R = TypeVar("R")
Ts = TypeVarTuple("Ts")


def _post(config: Config, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    req = urllib.request.Request(f"{config.url}{path}", data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=REQUEST_TIMEOUT) as r:
            return r.status, _answer(r.read(), f"HTTP {r.status}")
    except urllib.error.HTTPError as exc:
        return exc.code, _answer(exc.read(), str(exc))


def _answer(raw: bytes, status: str) -> dict[str, Any]:
    """The server's JSON object; an error naming the status when the body is anything else (not our server)."""
    try:
        out = json.loads(raw)
    except ValueError:
        out = None
    if isinstance(out, dict):
        return out
    return {"error": f"{status} with a body that is not a JSON object: {raw[:120]!r}"}


def _via_server(config: Config, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """The server's answer; SystemExit with the message when it refused, does not answer here, or is
    stopped or hung (looked at before and while waiting: a sync may rightly take minutes)."""
    try:
        status, out = waiting.ask(lambda: _post(config, path, body), lambda: waiting.server_stuck(config))
    except waiting.ServerStuck as exc:
        if exc.sent:
            print(f"kg: no answer yet, and none will come: {exc.why}. What was asked is done only if it "
                  "resumes; kg status then shows the store", file=sys.stderr)
        else:
            print(f"kg: not done: {exc.why}", file=sys.stderr)
        raise SystemExit(1) from None
    except OSError as exc:
        print(f"kg: a server owns {config.root} but does not answer at {config.url} ({exc}); "
              "set KG_HTTP_PORT to its port, or stop it (kg stop) and retry", file=sys.stderr)
        raise SystemExit(1) from None
    if status != 200:
        print(f"kg: {out.get('error') or out}", file=sys.stderr)
        raise SystemExit(1)
    return out


def _offline(fn: Callable[[*Ts], R], *args: *Ts) -> R | None:
    """Run an offline step; None when a server owns the store (then ask it)."""
    try:
        return fn(*args)
    except StorageBusy:
        return None
    except G.GitError as exc:
        print(f"kg: {exc}", file=sys.stderr)
        raise SystemExit(1) from None


def cmd_commit(config: Config) -> int:
    out = _offline(offline.commit, config.root, time.time())
    if out is None:
        out = _via_server(config, "/api/store/commit", {})
    if out.get("reason"):
        print(f"kg: {out['reason']}")
        return 1
    _say_taken_in(out)
    print(f"kg: committed {out['commit'][:12]}" if out.get("committed") else "kg: nothing to commit")
    _say_left_out(out, synced=False)
    return 0


def _say_left_out(out: dict[str, Any], synced: bool) -> None:
    """The projects a commit or sync left out, and why (on stderr: the rest went through)."""
    for key, found in sorted((out.get("left_out") or {}).items()):
        print(f"kg: {held_on_disk.describe_left_out(key, found, synced)}", file=sys.stderr)


def _say_taken_in(out: dict[str, Any]) -> None:
    """Commits that reached the store's branch outside kg (a `git pull` by hand), taken in before the commit."""
    for key, summary in sorted((out.get("taken_in") or {}).items()):
        if not (common.changed_anything(summary) or summary.get("conflicts") or summary.get("kept")
                or summary.get("dropped")):
            continue  # a graph the commits touched with no node or edge changed
        print(f"kg: taken in from commits made outside kg (a git pull by hand?): {key}: {common.describe(summary)}")
        if summary.get("conflicts"):
            print(f"  {key}: changed there and here, both versions kept (later one in use; the other is shown on "
                  f"the next read and in the editor): {', '.join(summary['conflicts'])}")
        _say_kept(key, summary)


def _say_kept(key: str, summary: dict[str, Any]) -> None:
    if summary.get("kept"):
        print(f"  {key}: deleted on one machine but changed on the other, so kept (said on the next read and in "
              f"the editor; kg_delete_node deletes it after all): {', '.join(summary['kept'])}")
    if summary.get("dropped"):
        here = all("deleted on this machine)" in said for said in summary["dropped"])
        print(f"  {key}: edge(s) dropped with a node deleted on {'this' if here else 'the other'} machine (each kept "
              f"aside with its notes beside "
              f"its end that stayed: shown on the next read of that node and in the editor; kg_put_edge writes it "
              f"again to another node): {', '.join(summary['dropped'])}")


def cmd_sync(config: Config, remote: str | None, remember: bool, all_upgraded: bool = False) -> int:
    remote = _here(remote) if remote else common.sync_remote(config.root)
    if not remote:
        print("kg: which remote? `kg sync REMOTE` (a URL or path; --remember saves it as sync_remote in "
              f"{config.root / common.CONFIG_FILE}, then the server syncs on every autocommit)", file=sys.stderr)
        return 2
    out = _offline(offline.sync, config.root, remote, time.time(), all_upgraded)
    if out is None:
        out = _via_server(config, "/api/store/sync", {"remote": remote, "all_upgraded": all_upgraded})
    if remember:  # only a remote that answered: a typo kept would fail every autocommit's sync
        common.set_sync_remote(config.root, remote)
    _say_taken_in(out)
    if out.get("squashed"):
        print(f"kg: {out['squashed']}")
    done = "fetched and merged from" if out.get("push_error") else "synced with"
    print(f"kg: {done} {G.shown(remote)}" + (" (the store is now a git repository)" if out.get("initialised") else ""))
    said = False
    for key, summary in sorted((out.get("graphs") or {}).items()):
        if not (common.changed_anything(summary) or summary.get("conflicts") or summary.get("kept")
                or summary.get("dropped")):
            continue  # a graph whose files the merge touched with no node or edge changed (its own, sent back)
        said = True
        print(f"  {key}: {common.describe(summary)}")
        if summary.get("conflicts"):
            print(f"  {key}: changed on both machines, both versions kept (later one in use; the other is "
                  f"shown on the next read and in the editor): {', '.join(summary['conflicts'])}")
        _say_kept(key, summary)
    for key, held in sorted((out.get("withheld") or {}).items()):
        said = True
        print(f"  {common.describe_withheld(key, held)}")
    if not said:
        print("  nothing new from the remote")
    _say_left_out(out, synced=True)
    if out.get("push_error"):
        print(f"kg: the merge is kept here, but the push was refused: {out['push_error']}", file=sys.stderr)
        return 1
    return 0


def _here(remote: str) -> str:
    """A relative path to a repository, made absolute: git runs in the store's folder, and found none
    there (or another of that name), nor would a remembered one outlive this folder."""
    if os.path.isabs(remote) or "://" in remote or remote.startswith("-") or not os.path.exists(remote):
        return remote
    return os.path.abspath(remote)


def _graph_key(root: Path, graph: str) -> tuple[str, str]:
    """(the graph's key, what names it to the server): a project folder given as a path (`.`, `~/repo/sub`)
    names the project the server files a session there under, its absolute root."""
    if graph in ("user", "maintain"):
        return graph, graph
    layout = L.Layout(root)
    name = graph.removeprefix("project:")
    path_like = name.startswith(("/", "~", ".")) or os.sep in name  # a graph folder's name holds none of these
    if path_like or (not layout.project_graph(name).exists() and os.path.isdir(name)):
        folder = project_of_folder(layout, L.project_root(os.path.abspath(os.path.expanduser(name)), "graph"))
        try:
            slug = L.choose_slug(layout, folder)
        except L.Shut as shut:  # its own read then names the folder it may not enter
            slug = shut.slug
        return f"project:{slug}", folder
    return f"project:{name}", graph


def project_of_folder(layout: L.Layout, folder: str) -> str:
    """The project root a folder binds to, by the server's own lookup (work_trees.project_of)."""
    if not os.path.isdir(folder):
        return folder

    def has_own_graph(sub: str) -> bool:  # a graph stored for that exact folder
        if layout.project_graph(L.hashed_slug(sub)).exists():
            return True
        names = (L.base_slug(sub), L.reference_slug(sub), *L.earlier_slugs(sub))  # ours, 0.17's, an older kg's
        return any(name is not None and layout.project_graph(name).exists()
                   and L.recorded_project_path(layout.project_graph(name)) == sub for name in names)

    return work_trees.project_of(folder, str(L.home()), has_own_graph)


def cmd_restore(config: Config, at: str, graph: str) -> int:
    try:
        key, named = _graph_key(config.root, graph)
    except Exception as exc:
        print(f"kg: {exc}", file=sys.stderr)
        return 2
    out = _offline(offline.restore, config.root, key, at, time.time())
    if out is None:
        out = _via_server(config, "/api/store/restore", {"at": at, "graph": named})
    print(f"kg: {out['graph']} restored to {out['commit'][:12]}: {out['text']}")
    return 0


def cmd_init_git(config: Config) -> int:
    try:
        print(f"kg: {offline.ensure_repository(config.root)}")
    except G.GitError as exc:
        print(f"kg: {exc}", file=sys.stderr)
        return 1
    return 0
