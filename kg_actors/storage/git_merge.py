"""The merge step of a sync: graphs merged per node in this process, everything else by git.

Git would run the merge driver once per file changed on both sides, a Python
start each; with the graphs kept as buckets that is a dozen starts for one sync.
So the graph parts are merged here first, in one process: the parts either side
changed since the merge base are read in one `git cat-file --batch`, merged with
`core.merge` (one-sided changes come out as they are), and edges into nodes the
merge deleted are dropped, as the whole-file merge does. Then `git merge
--no-commit` merges the rest of the tree (its driver for graph parts told to keep
ours: the parts are overwritten with ours next), the merged parts are written
and staged, and the merge is committed. A graph one side still holds as a
single file (a commit made before the mirror, or by kg-memory 0.17) is merged
whole, once, and leaves the index as the folder takes its place.

Criss-cross histories (more than one merge base) are merged against the first
base: the per-node rules never lose a version, they may set aside one more.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable
import tempfile
import time
from pathlib import Path
from typing import Any

import attrs

from ..core.held_secrets import Held
from ..core.merge import (
    Conflict, MergeResult, fold_double_rename, fold_rename, follow_renames, kept_against_delete,
    merge_graphs, set_aside, version_ts,
)
from ..core.merge_deletes import Machines
from ..core.merge_dropped import drop_edges
from ..core.merge_renames import double_renames, renames_against_deletes, renames_between
from . import git as G
from . import git_read as R
from . import clean_history, merge_machines, old_layout, shards, unpushed
from .machine_id import machine_id
from .merge_machines import NOBODY, Who


@attrs.frozen
class Plan:
    """The merged parts of each graph, and the graph files that leave the index."""

    parts: dict[str, dict[str, dict[str, Any]]]  # graph key -> part -> merged value
    whole: frozenset[str]  # graph keys merged whole: their folder is rewritten entirely
    conflicts: tuple[Conflict, ...]
    withheld: dict[str, list[Held]] = attrs.Factory(dict)  # graph key -> their versions left out for a secret


def _ids(value: dict[str, Any] | None) -> set[str]:
    return set(shards._mapping((value or {}).get("nodes")))


def plan(root: Path, base: str | None, ours: str, theirs: str, now: float, who: Who = NOBODY) -> Plan:
    """The merge of every graph (ValueError naming a part that is not a graph). `who`: who wrote ours and
    theirs (per file), for what a node kept against a delete says."""
    lay_b, lay_o, lay_t = R.layouts(root, base), R.layouts(root, ours), R.layouts(root, theirs)
    out: dict[str, dict[str, dict[str, Any]]] = {}
    whole: set[str] = set()
    conflicts: list[Conflict] = []
    withheld: dict[str, list[Held]] = {}
    changed_o = R.changed(root, base, ours, shards.ROOT)
    changed_t = R.changed(root, base, theirs, shards.ROOT)
    touched: dict[str, set[str]] = {}
    for rel in changed_o + changed_t:
        found = shards.split_path(rel)
        if found:
            touched.setdefault(found[0], set()).add(found[1])
    for key in sorted(set(lay_o) | set(lay_t)):
        kinds = {lay_b.get(key), lay_o.get(key), lay_t.get(key)}
        if "legacy" in kinds:
            merged = _merge_whole(root, key, (base, lay_b), (ours, lay_o), (theirs, lay_t), now=now,
                                  withheld=withheld.setdefault(key, []), machines=who.default)
            out[key] = shards.split(merged.merged)
            whole.add(key)
            conflicts += merged.conflicts
        elif key in touched:
            out[key], set_aside = _merge_parts(root, key, sorted(touched[key]), base, ours, theirs, now,
                                               withheld.setdefault(key, []), who)
            conflicts += set_aside
    return Plan(out, frozenset(whole), tuple(conflicts), {k: v for k, v in withheld.items() if v})


def _merge_whole(root: Path, key: str, *sides: tuple[str | None, dict[str, str]], now: float,
                 withheld: list[Held], machines: Machines) -> MergeResult:
    graphs = []
    for rev, lay in sides:
        graphs.append(R.graph_at(root, rev, key) if rev and key in lay else None)
    base, ours, theirs = graphs
    # Another machine's version holding a secret: its newest one without it stands in, else ours.
    theirs, held = clean_history.keep_out_since(root, sides[0][0], sides[2][0] or "", clean_history.graph_reader(
        root, key), base, ours, theirs)
    withheld += held
    return merge_graphs(base, ours or {}, theirs or {}, now, machines)


def _merge_parts(root: Path, key: str, parts: list[str], base: str | None, ours: str, theirs: str,
                 now: float, withheld: list[Held],
                 who: Who) -> tuple[dict[str, dict[str, Any]], list[Conflict]]:
    folder = shards.folder(key)
    revs = [r for r in (base, ours, theirs) if r]
    raw = R.blobs(root, [f"{r}:{folder}/{p}" for r in revs for p in parts])

    def side(rev: str | None, part: str) -> dict[str, Any] | None:
        data = raw.get(f"{rev}:{folder}/{part}") if rev else None
        return None if data is None else shards.parse(data, f"{folder}/{part} in {rev[:12]}")  # type: ignore[index]

    merged: dict[str, dict[str, Any]] = {}
    conflicts: list[Conflict] = []
    sides: list[tuple[dict[str, Any] | None, dict[str, Any] | None, dict[str, Any] | None]] = []
    for part in parts:
        b, o, t = side(base, part), side(ours, part), side(theirs, part)
        # Another machine's version holding a secret: its newest one without it stands in, else ours.
        t, held = clean_history.keep_out_since(root, base, theirs, clean_history.part_reader(root, folder, part), b, o, t)
        withheld += held
        result = merge_graphs(b, o or {}, t or {}, now, who.at(f"{folder}/{part}"))
        merged[part] = result.merged
        conflicts += result.conflicts
        sides.append((b, o, t))
    conflicts += _carry_renames(merged, sides, now)
    conflicts += _renamed_against_deletes(merged, sides, lambda i: who.of_node(key, i), now)
    deleted: set[str] = set()
    for part, (_, o, t) in zip(parts, sides, strict=True):
        deleted |= (_ids(o) | _ids(t)) - _ids(merged[part])
    if deleted:
        _drop_edges(root, f"{ours}:{folder}", merged, sides, deleted, lambda i: who.of_node(key, i), now)
    return merged, conflicts


def _drop_edges(root: Path, at: str, merged: dict[str, dict[str, Any]], sides: list[tuple[Any, Any, Any]],
                deleted: set[str], machines: Callable[[str], Machines], now: float) -> None:
    """An edge into a node the merge deleted goes too (its bucket is its other end's); one the other machine
    wrote is set aside beside its end that stays (core/merge_dropped.py). That end's bucket, when neither side
    changed it (then ours is every side's), is read from `at` (our commit's folder) and joins the merge."""
    base_edges, o_nodes = _every_part(sides, 0, "edges"), _every_part(sides, 1, "nodes")
    aside: list[tuple[str, dict[str, Any]]] = []
    for value in merged.values():
        kept, found = drop_edges(shards._edges_of(value), base_edges, deleted,
                                 lambda i: machines(i)[1] if i in o_nodes else machines(i)[0], now)
        if found or len(kept) != len(shards._edges_of(value)):
            value["edges"] = kept
        aside += found
    for node_id, entry in aside:
        part = shards.bucket(node_id)
        if part not in merged:
            raw = R.blobs(root, [f"{at}/{part}"]).get(f"{at}/{part}")
            if raw is None:
                continue
            merged[part] = shards.parse(raw, f"{at}/{part}")
        nodes = shards._mapping(merged[part].get("nodes"))
        if isinstance(nodes.get(node_id), dict):
            nodes[node_id] = set_aside(nodes[node_id], entry)


def _renamed_against_deletes(merged: dict[str, dict[str, Any]], sides: list[tuple[Any, Any, Any]],
                             machines: Callable[[str], Machines], now: float) -> list[Conflict]:
    """A node one side renamed and the other deleted, across buckets (no bucket's own merge sees both ids): the
    renamed node, which each bucket's merge kept as new, is told it was deleted there (core/merge_deletes.py)."""
    b_nodes, o_nodes, t_nodes = (_every_part(sides, i, "nodes") for i in range(3))
    found = renames_against_deletes(set(b_nodes) | set(o_nodes) | set(t_nodes), b_nodes, o_nodes, t_nodes)
    conflicts = []
    for new_id, (old_id, side) in found.items():
        if shards.bucket(old_id) == shards.bucket(new_id):
            continue  # merged in one bucket, where merge_graphs saw both
        for value in merged.values():
            nodes = shards._mapping(value.get("nodes"))
            if new_id in nodes:
                deleted_by = "theirs" if side == "ours" else "ours"
                nodes[new_id], conflict = kept_against_delete(new_id, nodes[new_id], deleted_by, machines(old_id), now,
                                                              old_id)
                conflicts.append(conflict)
    return conflicts


def _every_part(sides: list[tuple[Any, Any, Any]], i: int, *path: str) -> dict[str, Any]:
    """One side's (0 base, 1 ours, 2 theirs) map at `path` ("nodes"; "_meta", "versions"), over every part."""
    out: dict[str, Any] = {}
    for trio in sides:
        value: Any = trio[i] or {}
        for name in path:
            value = shards._mapping(value).get(name)
        out.update(shards._mapping(value))
    return out


def _carry_renames(merged: dict[str, dict[str, Any]], sides: list[tuple[Any, Any, Any]], now: float) -> list[Conflict]:
    """A rename on one side against the old id kept on the other, across buckets (the old id's and the
    new one's differ, so neither bucket's own merge could see it): the node and the edges naming the old
    id move to the new one, as `merge_graphs` does inside one file. Every bucket they land in changed on
    one side (the new node's, the old id's, the rewired edges' other ends'), so it is among those merged
    here; were one not, nothing is moved rather than a bucket written from part of its content."""
    b_nodes, o_nodes, t_nodes = (_every_part(sides, i, "nodes") for i in range(3))
    every = set(b_nodes) | set(o_nodes) | set(t_nodes)
    found = renames_between(every, b_nodes, o_nodes, t_nodes)
    found = {old: to for old, to in found.items() if shards.bucket(old) != shards.bucket(to[0])}
    doubles = {old: ids for old, ids in double_renames(every, b_nodes, o_nodes, t_nodes).items()
               if len({shards.bucket(i) for i in (old, *ids)}) > 1}
    if not found and not doubles:
        return []
    nodes: dict[str, Any] = {}
    edges: dict[str, Any] = {}
    versions: dict[str, Any] = {}
    for value in merged.values():
        nodes.update(shards._mapping(value.get("nodes")))
        edges.update(shards._edges_of(value))
        versions.update(shards._mapping(shards._mapping(value.get("_meta")).get("versions")))
    conflicts = []
    for old_id, (new_id, side) in found.items():
        nodes.pop(old_id, None)
        versions.pop("node:" + old_id, None)
        nodes[new_id], conflict = fold_rename(old_id, new_id, side, b_nodes, o_nodes, t_nodes, now)
        if conflict is not None:
            conflicts.append(conflict)
    renamed = {old: to[0] for old, to in found.items()}
    o_versions, t_versions = (_every_part(sides, i, "_meta", "versions") for i in (1, 2))
    for old_id, pair in doubles.items():
        at = (version_ts(o_versions, "node:" + pair[0]), version_ts(t_versions, "node:" + pair[1]))
        keep, drop, node, conflict = fold_double_rename(old_id, pair, b_nodes, o_nodes, t_nodes, now, at)
        for gone in (old_id, drop):
            nodes.pop(gone, None)
            versions.pop("node:" + gone, None)
        nodes[keep] = node
        conflicts.append(conflict)
        renamed.update({old_id: keep, drop: keep})
    for key in follow_renames(edges, renamed):
        versions.pop("edge:" + key, None)
    parts = shards.split({"nodes": nodes, "edges": edges, "_meta": {"versions": versions}})
    parts.pop(shards.META)
    if not parts.keys() <= merged.keys():
        return []
    for part in merged:
        if part != shards.META:  # meta.json holds no node: its merge (progress, renamed ids) stands
            merged[part] = parts.get(part) or {"nodes": {}, "edges": {}, "_meta": {"versions": {}}}
    return conflicts


def merge(root: Path, theirs_ref: str, message: str, remote: str) -> dict[str, list[Held]]:
    """Merge `theirs_ref` (fetched) into HEAD and commit; GitError (nothing changed) when it cannot. What of
    theirs was left out for holding a secret, by graph key."""
    ours = G.head(root)
    theirs = G.run(root, "rev-parse", "--verify", theirs_ref + "^{commit}").stdout.strip()
    if ours is None:
        G.run(root, "merge", "-q", "--ff-only", theirs)
        return {}
    if G.run(root, "merge-base", "--is-ancestor", theirs, ours, check=False).returncode == 0:
        return {}  # nothing of theirs we lack
    undone = f"merging {G.shown(remote)!r} failed and was undone (nothing changed here)"
    if G.run(root, "merge-base", "--is-ancestor", ours, theirs, check=False).returncode == 0:
        # Theirs is ours and more: taken as it is, unless it brings a version holding a secret. Then a merge
        # commit holds ours of those entries instead (a fast-forward would have taken them whole).
        bases = [ours]
    else:
        bases = G.run(root, "merge-base", "--all", ours, theirs, check=False).stdout.split()
    try:
        who = merge_machines.who(root, ours, theirs, G.hostname(), machine_id(root, make=True))
        result = plan(root, bases[0] if bases else None, ours, theirs, time.time(), who)
    except ValueError as exc:  # their graph part unreadable, or of the wrong shape: never read as deletes
        raise G.GitError(f"{undone}: {exc}; fix that file on the remote (or revert the commit there that broke "
                         "it), then kg sync again") from None
    if bases == [ours] and not result.withheld:
        G.run(root, "merge", "-q", "--ff-only", theirs)
        return {}
    legacy = {R.legacy_rel(k) for k in result.parts} | {R.legacy_rel(k) for k in result.whole}
    # A graph file of record git may touch on the way (one side still tracks it): ours again after. So too this
    # machine's own files theirs still tracks (a kg-memory 0.17 store's sessions.json, server.log, recall.jsonl):
    # git writes over an ignored file without a word.
    theirs_files = set(G.run(root, "ls-tree", "-r", "-z", "--name-only", theirs).stdout.split("\0"))
    local_here = G.kg_ignored(root, tracked=False) & theirs_files
    kept = {rel: (root / rel).read_bytes() for rel in legacy | local_here if (root / rel).exists()}
    try:
        proc = G.run(root, "-c", f"merge.{G.DRIVER}.driver=true", "merge", "-q", "--no-commit", "--no-ff",
                     "-X", "no-renames", "--allow-unrelated-histories", theirs, check=False, ident=True)
        _put_back(root, kept)
        if not (root / ".git" / "MERGE_HEAD").exists():
            said = [ln for ln in (proc.stderr + proc.stdout).strip().splitlines() if not ln.startswith("hint:")]
            detail = " / ".join(said[-4:])
            raise G.GitError(f"{undone}: {detail or f'git merge exit {proc.returncode}'}")
        # Machine-local files the merge brought (theirs tracks them): ours stay, one this machine lacked goes (another
        # machine's server.pid or sessions are not this one's); none stays in the index.
        local = G.kg_ignored(root, tracked=True) - legacy
        for rel in local - kept.keys():
            (root / rel).unlink(missing_ok=True)
        unmerged = [n for n in G.run(root, "diff", "--name-only", "-z", "--diff-filter=U").stdout.split("\0") if n]
        folders = {shards.folder(k) for k in result.parts}
        stuck = [n for n in unmerged if n not in legacy | local and not any(n.startswith(f + "/") for f in folders)]
        if stuck:
            raise G.GitError(f"{undone}: {', '.join(stuck[:5])} changed on both sides and is no graph part; "
                             "merge it by hand (git merge) and run kg sync again")
        for key, parts in result.parts.items():
            shards.write_folder(root, key, parts, only=None if key in result.whole else set(parts))
        # -f: the index holds their version of a file whose bytes are ours again (put back above). Neither step
        # without a path: git refuses `rm` with none, and `add` of a mirror two stores without a lesson lack.
        if legacy | local:
            G.run(root, "rm", "-q", "--cached", "-f", "--ignore-unmatch", "--", *sorted(legacy | local))
        if (root / shards.ROOT).exists():
            G.run(root, "add", "-A", "--", shards.ROOT)
        G.run(root, "commit", "-q", "--no-verify", "-m", message, ident=True)
        return result.withheld
    except BaseException:
        if (root / ".git" / "MERGE_HEAD").exists():
            aborted = G.run(root, "merge", "--abort", check=False)
            if aborted.returncode != 0:
                # --abort refuses files put back since ("not uptodate"): forget the merge, and the index goes
                # back to HEAD; the working tree is left as it is and our graph files are put back below.
                G.run(root, "merge", "--quit", check=False)
                G.run(root, "reset", "-q", check=False)
        _put_back(root, kept)
        raise


def _put_back(root: Path, kept: dict[str, bytes]) -> None:
    for rel, data in kept.items():
        shards.write_if_changed(root / rel, data)


@attrs.frozen
class MergeOutcome:
    before: str | None
    after: str | None
    changed: tuple[str, ...]  # files the merge changed, relative to the store
    pushed: bool
    push_error: str | None
    fetched: bool
    withheld: dict[str, list[Held]] = attrs.Factory(dict)  # their versions left out for a secret, by graph key
    squashed: str | None = None  # unpushed commits holding a secret, made one (unpushed.py): what was done


@attrs.frozen
class Fetched:
    """What `fetch` brought: the remote's URL, the branch synced with there, and whether the remote
    has that branch yet (then FETCH_HEAD holds it)."""
    url: str
    name: str
    before: str | None
    has_branch: bool
    legacy: tuple[str, ...] = ()  # the graph files of record the branch still holds (kg-memory 0.17, an older kg)


def fetch(root: Path, remote: str) -> Fetched:
    """Fetch the remote's branch the store syncs with (`branch_to_sync`). Network only: the store's files
    and refs stay as they are, so it may be abandoned at any moment (a remote that never answers holds no
    shutdown)."""
    check_remote(remote)
    reason = G.busy(root)
    if reason:
        raise G.GitError(reason)
    ours = G.branch(root)
    before = G.head(root)
    url = _remote_url(root, remote)
    branches, remote_head = _heads(root, remote, url)
    name = branch_to_sync(remote, ours, branches, remote_head)
    has_branch = name is not None  # a remote with no branch at all has nothing to merge: the push fills it
    legacy: tuple[str, ...] = ()
    if name is not None:
        G.run(root, "fetch", "-q", url, f"refs/heads/{name}", network=True)
        _check_holds_memory(root, remote, name)
        legacy = old_layout.graph_files(root, "FETCH_HEAD")
    return Fetched(url, name or ours, before, has_branch, legacy)


def probe(root: Path, remote: str) -> None:
    """GitError unless `remote` answers and holds kg memory (or nothing): asked before a store that is no
    repository yet becomes one, so that a typo, or a repository of something else, makes no repository,
    ignore file or commit. `root` need not be a repository (a URL or a path only: a remote's name belongs to
    a repository's config). The branch's top is fetched alone (depth 1) into a throwaway repository."""
    check_remote(remote)
    branches, head = _heads(root, remote, remote)
    name = branch_to_sync(remote, "main", branches, head)  # a new repository's branch is main (G.init)
    if name is None:
        return
    with tempfile.TemporaryDirectory(prefix="kg-probe-") as scratch:
        G.run(Path(scratch), "init", "-q", "--bare")
        G.run(Path(scratch), "fetch", "-q", "--depth", "1", remote, f"refs/heads/{name}", network=True)
        _check_holds_memory(Path(scratch), remote, name)


def _heads(root: Path, remote: str, url: str) -> tuple[dict[str, str], str | None]:
    """The remote's branches ({name: commit}) and the branch its HEAD names (None when unborn or unsaid)."""
    if url.startswith("-"):
        raise G.GitError(G.shown(f"the remote {remote!r} names {url!r}, which is not a URL or a path"))
    proc = G.run(root, "ls-remote", "--symref", url, "HEAD", "refs/heads/*", check=False, network=True)
    if proc.returncode != 0:
        raise G.GitError(G.shown(f"cannot fetch from {remote!r}: {_cause(proc.stderr or '')} "
                                 "(is the remote right and reachable?)"))
    branches: dict[str, str] = {}
    head = None
    for line in proc.stdout.splitlines():
        value, _, ref = line.partition("\t")
        if value.startswith("ref: ") and ref == "HEAD":
            head = value.removeprefix("ref: ").removeprefix("refs/heads/")
        elif ref.startswith("refs/heads/"):
            branches[ref.removeprefix("refs/heads/")] = value
    return branches, head


# What git adds to every failure to reach a remote, whatever its cause: said once at most, after the cause.
_BOILERPLATE = ("Could not read from remote repository", "Please make sure you have the correct access rights",
                "and the repository exists")


def _cause(stderr: str) -> str:
    """Git's own reason a remote could not be read ("does not appear to be a git repository", "Connection
    refused", "Permission denied"): its lines other than the advice it gives for every such failure."""
    lines = [ln.strip() for ln in stderr.strip().splitlines() if ln.strip() and not ln.startswith("hint:")]
    cause = [ln for ln in lines if not any(b in ln for b in _BOILERPLATE)]
    return " / ".join((cause or lines)[-3:]) or "unknown error"


def branch_to_sync(remote: str, ours: str, branches: dict[str, str], head: str | None) -> str | None:
    """The remote's branch to merge and push to; None for a remote with no branch (it gets ours).

    Our branch when the remote has it. Else, decided so: kg-memory 0.17 stores are repositories made by a
    plain `git init` (branch `master`) and ours start on `main`, so a remote without our branch is synced
    on the branch its HEAD names (else its only branch, else a `main` or `master` it has): a 0.17 store's
    remote and a new store then exchange memory on that one branch, and neither store renames its own
    (an upgraded 0.17 store stays on `master`). What that branch holds is checked before anything is
    merged or pushed: a remote that is not kg memory is refused, on whatever branch (a non-empty remote
    was taken for an empty one and got a `main` holding the whole store)."""
    if ours in branches:
        return ours
    if not branches:
        return None
    only = next(iter(branches)) if len(branches) == 1 else None
    for name in (head, only, "main", "master"):
        if name and name in branches:
            return name
    listed = ", ".join(sorted(branches)[:5]) + (", ..." if len(branches) > 5 else "")
    raise G.GitError(G.shown(f"{remote!r} has branches ({listed}) but none named {ours} and no HEAD naming one: "
                             "not pushing the store beside them. Give an empty repository, or one that kg sync filled"))


# What the top of a kg store's repository holds (the mirror, and the graph files an older kg committed);
# what a new hosted repository starts with besides (README.md, LICENSE, LICENSE.txt, COPYING, ...).
_STORE_MARKERS = frozenset({"shards", "user.json", "maintain.json", "projects"})
_STARTER_NAMES = frozenset({"readme", "license", "licence", "copying"})


def _check_holds_memory(root: Path, remote: str, name: str) -> None:
    """Refuse to merge the store into a branch that holds something else (a dotfiles repository given
    by mistake): its files would land in the store, and the store in it at the push. A new repository's
    README or LICENSE is no objection."""
    top = [n for n in G.run(root, "ls-tree", "--name-only", "-z", "FETCH_HEAD").stdout.split("\0") if n]
    if all(_a_store_holds(name) for name in top) or _holds_graphs(root, top):
        return
    shown = ", ".join(top[:5]) + (", ..." if len(top) > 5 else "")
    raise G.GitError(G.shown(f"{remote!r} branch {name} holds no kg memory ({shown}): not merging the store into "
                             "it. Give an empty repository, or one that kg sync filled"))


def _holds_graphs(root: Path, top: list[str]) -> bool:
    """Whether FETCH_HEAD holds a kg graph (a mirror folder, or a graph file an older kg committed): then it is
    kg memory, whatever stands beside it (a backup copy an older build pushed, a note added by hand), and is
    merged; those files stay as they are."""
    if "user.json" in top or "maintain.json" in top:
        return True
    wanted = [d for d in ("shards", "projects") if d in top]
    if not wanted:
        return False
    names = R.names(root, "FETCH_HEAD", *(f"{d}/" for d in wanted), "shards/projects/", recursive=False)
    if {"shards/user", "shards/maintain"} & set(names) or any(n.startswith("shards/projects/") for n in names):
        return True
    graphs = [f"FETCH_HEAD:{n}/graph.json" for n in names if n.startswith("projects/")]
    return any(data is not None for data in R.blobs(root, graphs).values())


def _a_store_holds(name: str) -> bool:
    """Whether a name at a repository's top is one a kg store's repository holds: the mirror or an older
    store's graph files, its ignore files, what an older kg committed of its machine-local files (a kg-memory
    0.17 store's sessions.json, server.log), or a new hosted repository's README or LICENSE. One name of
    anything else (a `src/` beside a `projects/`) is another project's repository."""
    return (name in _STORE_MARKERS or name in (".gitignore", ".gitattributes")
            or name.lower().split(".", 1)[0] in _STARTER_NAMES
            or any(fnmatch.fnmatch(name, pattern.strip("/")) for pattern in G.UNTRACKED_PATTERNS))


def merge_fetched(root: Path, remote: str, fetched: Fetched) -> MergeOutcome:
    """Merge what `fetch` brought into our branch (per node); what it changed. Not pushed yet."""
    # Before the merge: what the push would send must not hold a secret an older kg committed.
    squashed = unpushed.squash_held(root, "FETCH_HEAD" if fetched.has_branch else None, time.time())
    withheld: dict[str, list[Held]] = {}
    if fetched.has_branch:
        withheld = merge(root, "FETCH_HEAD",
                         f"kg: sync with {G.shown(remote)} on {G.hostname()}\n\n"
                         f"{G.machine_lines(machine_id(root, make=True))}", remote)
    before, after = fetched.before, G.head(root)
    changed: tuple[str, ...] = ()
    if before and after and before != after:
        # Without --no-renames a shard emptied here and a like one filled there read as one rename, named
        # by its new path only: the old node's removal never reached the graph (a renamed node came back).
        names = G.run(root, "diff", "--name-only", "-z", "--no-renames", before, after).stdout
        changed = tuple(n for n in names.split("\0") if n)
    elif before is None and after:
        changed = tuple(n for n in G.run(root, "ls-tree", "-r", "-z", "--name-only", after).stdout.split("\0") if n)
    return MergeOutcome(before, after, changed, False, None, fetched.has_branch, withheld, squashed)


def push(root: Path, fetched: Fetched, outcome: MergeOutcome, all_upgraded: bool = False) -> MergeOutcome:
    """Push our branch to the remote; the outcome with how that went. Network only, as `fetch`. Refused while it
    would take from the branch graph files a kg-memory 0.17 machine reads (old_layout.py), unless `all_upgraded`."""
    refused = None if all_upgraded else old_layout.refusal(root, fetched.url, fetched.name, fetched.legacy)
    if refused is not None:
        return attrs.evolve(outcome, pushed=False, push_error=refused)
    done = G.run(root, "push", "-q", fetched.url, f"HEAD:refs/heads/{fetched.name}", check=False, network=True)
    push_error = None
    if done.returncode != 0:
        # git's hints go: they suggest `git pull`, which leaves the graphs behind HEAD (git_head.py).
        lines = [ln for ln in (done.stderr or "").strip().splitlines() if not ln.startswith("hint:")]
        if any("[rejected]" in ln and ("fetch first" in ln or "non-fast-forward" in ln) for ln in lines):
            push_error = (f"{G.shown(fetched.url)} branch {fetched.name} moved on while this sync merged (another "
                          "machine pushed first); run `kg sync` again: it merges that too and pushes")
        else:
            said = [ln.strip() for ln in lines if ln.startswith("remote:")][:3]  # the remote's own reason
            push_error = G.shown(" / ".join(said + [ln for ln in lines[-2:] if ln.strip() not in said])
                                 or f"exit {done.returncode}")
    return attrs.evolve(outcome, pushed=done.returncode == 0, push_error=push_error)


def fetch_merge_push(root: Path, remote: str, all_upgraded: bool = False) -> MergeOutcome:
    """Fetch `remote`, merge its branch (ours, or the one `branch_to_sync` names) into ours, push the result."""
    fetched = fetch(root, remote)
    return push(root, fetched, merge_fetched(root, remote, fetched), all_upgraded)


def check_remote(remote: str) -> None:
    """Refuse what is no remote before anything is done for it (git init, a commit)."""
    if not remote.strip() or remote.lstrip().startswith("-"):
        # git would take "--upload-pack=..." for an option of its own and run it.
        raise G.GitError(G.shown(f"{remote!r} is not a remote: give a URL, a path or a configured remote's name"))


def _remote_url(root: Path, remote: str) -> str:
    """A configured remote's URL, or `remote` itself (a URL or path)."""
    if "://" in remote:  # a URL is no remote's name (nor, holding a password, ever on a command line)
        return remote
    proc = G.run(root, "remote", "get-url", remote, check=False)
    return proc.stdout.strip() if proc.returncode == 0 and proc.stdout.strip() else remote
