"""Rename a node, and rewire what points at it.

A user node's rename rewires the edges every project graph holds to it
(each project's actor in turn, after the user graph's own); it is refused
when a project owns a node with the new id that such edges would then reach.
A project node may not take the id of a user node its edges already reach.
Sessions' views of the old node move to the new id, at its level only.
"""

from __future__ import annotations


import attrs

from ..core import graph_ops, held_names, ids, secrecy
from ..core.errors import Conflict, InvalidInput, KGError, NotFound
from ..core.model import GraphReader
from ..graph_handle import GraphHandle
from ..storage import layout as L
from .floor import Floor
from .write import refuse_held


@attrs.frozen
class Renamed:
    level: str
    rewired: int
    skipped: list[dict[str, str]]


def _rename_probe(graph: GraphReader, old_id: str, new_id: str) -> tuple[bool, bool, bool]:
    return old_id in graph.nodes, new_id in graph.nodes, graph.degree(old_id) > 0


async def _all_projects(floor: Floor) -> list[tuple[str, GraphHandle]]:
    """Every project graph on disk, loaded (a user rename must rewrite them all)."""
    keys = {f"project:{slug}" for slug in floor.layout.project_slugs()}
    keys.update(k for k in floor.directory.loaded_keys() if k.startswith("project:"))
    return [(k, await floor.graph(k)) for k in sorted(keys)]


async def rename(floor: Floor, sid: str | None, old_id: str, new_id: str, level: str | None,
                 project_path: str | None = None) -> Renamed:
    opened = await floor.open_write(sid, level, old_id if isinstance(old_id, str) else "") if sid is not None else None
    view, wv = opened if opened is not None else (None, None)
    ids.check_lookup_id(old_id, "old_id")  # a hand edit's odd id is renamed to a good one; new_id takes the rules
    ids.check_node_id(new_id, "new_id")
    ids.check_new_id_words(new_id, "new_id")
    secrecy.refuse_secret_names([("new_id", new_id)])
    if old_id == new_id:
        raise InvalidInput("new_id", f"'{new_id}' is unchanged — nothing to rename")
    lvl, handle, node = await floor.locate(view, old_id, level, project_path)
    # An id holding a key's shape (a hand edit's) is no agent's to name: found or not, the answer is the same,
    # or a guess of the key would be confirmed (and act). The editor (no session) is where the user fixes it.
    if node is None or handle is None or lvl is None or sid is not None and held_names.name_held(old_id):
        ids.check_existing_id(old_id, "old_id")  # a path named instead of a node is told so
        raise NotFound(f"node '{ids.shown(old_id)}' not found" + ("" if level else " in the user or project graph")
                       + await floor.maintain_hint(old_id, level, "a maintain node must name its level: "
                                                                  "pass level='maintain'"))
    await refuse_held(floor, wv, "rename", old_id)
    writer = graph_ops.Writer(session=sid, maintenance=wv is not None and wv.maintenance)
    now = floor.clock()
    projects: list[tuple[str, GraphHandle]] = []
    if lvl == "user":
        projects = await _all_projects(floor)
        captured = []
        for key, ph in projects:
            graph = (await ph.current()).graph
            owns_old, owns_new, refs = _rename_probe(graph, old_id, new_id)
            if refs and not owns_old and owns_new:
                # Named by its folder, as the project rename's refusal and kg_read name a project; the store's
                # folder name only when its graph records none.
                captured.append(graph.project_path or key.removeprefix("project:"))
        if captured:
            many = len(captured) > 1
            raise Conflict(
                f"renaming user node '{old_id}' to '{new_id}' would redirect edges of project{'s' * many} "
                f"{', '.join(captured)}, which own{'' if many else 's'} a node '{new_id}'; choose another id"
            )
    elif lvl == "project":
        user = await floor.graph("user")
        if await user.get_node(node_id=new_id) is not None and await handle.references(node_id=new_id):
            # Spec 003: the refusal names the projects involved (here, the one being renamed in).
            project = view.project_path if view is not None else project_path
            raise Conflict(
                f"'{new_id}' is a user node that edges of project {project} already reach; renaming to it "
                "would redirect them; choose another id"
            )
    rewired = await handle.rename_local(old_id=old_id, new_id=new_id, now=now, writer=writer)
    skipped = []
    for key, ph in projects:
        if why := floor.directory.unreadable(key):  # served empty: what it links to is not known
            skipped.append({"graph": key, "reason": f"its file could not be read: {why}; once it loads, its "
                                                    "edges to the old id follow the rename"})
            continue
        if aside := floor.directory.set_aside(key):  # its previous save is rewired below; the file set aside is not
            skipped.append({"graph": key, "reason": f"its file could not be read when it was loaded, so its previous "
                                                    f"save is served and was rewired; the unreadable file, kept as "
                                                    f"{aside}, was not, and edges to '{old_id}' written after that "
                                                    "save are only in it", "rewired": "partly"})
        owns_old, owns_new, refs = _rename_probe((await ph.current()).graph, old_id, new_id)
        if not refs:
            continue
        if owns_old:
            skipped.append({"graph": key, "reason": "local-node"})
            continue
        try:
            rewired += await ph.rewire(old_id=old_id, new_id=new_id, now=now, writer=writer)
        except KGError as exc:
            skipped.append({"graph": key, "reason": str(exc)})
    project = None
    if lvl == "project":  # its views move in that project's sessions only
        project = view.project_path if view is not None else L.project_root(project_path, "project_path")
    await floor.sessions.rename_ref(level=lvl, old_id=old_id, new_id=new_id, project_path=project, by=sid)
    floor.publish({"type": "node_renamed", "level": lvl, "from": old_id, "to": new_id, "source_session": sid,
                   "project_path": view.project_path if view else project_path})
    return Renamed(lvl, rewired, skipped)
