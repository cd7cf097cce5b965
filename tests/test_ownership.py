"""One owner per state: nothing outside the graph actor changes a graph or its derived state.

Readers hold frozen snapshots (tests/core/test_snapshot.py shows they cannot
change); these tests read the package's source so no module can start
reaching for the live objects again.
"""

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "kg_actors"

# What changes a GraphData or a Derived in place.
MUTATING_METHODS = {
    "set_node", "del_node", "set_edge", "del_edge", "set_version", "set_progress", "del_progress",
    "apply_record", "commit", "rollback", "take_changes", "take_load_changes", "forget_changes",
    "node_changed", "most_connected", "install_recent", "set_debt_inputs", "update_node", "remove_node", "sync",
}
# The pure functions of core/ that change the graph they are given (the actor calls them on its own).
MUTATING_FUNCTIONS = {
    "graph_ops": {"put_node", "put_edge", "delete_node", "delete_edge", "record_read", "endorse", "set_progress",
                  "rename_local", "rewire", "repeat_credit", "bump_version"},
    "compaction": {"compact", "commit", "prune_orphans"},
    "absorb": {"absorb"},
}
# The owner (and its own repairs, called from its loop), and the loading of a graph nobody holds yet
# (it becomes the owner's).
OWNERS = {"graph_actor.py", "graph_recovery.py", "graph_loading.py", "derived.py", "directory.py"}
LIVE_TYPES = {"GraphData", "Derived", "GraphState"}


def _outside_owners():
    for path in PKG.rglob("*.py"):
        rel = path.relative_to(PKG)
        if rel.parts[0] == "core" or str(rel) in OWNERS:
            continue
        yield str(rel), ast.parse(path.read_text())


def test_no_module_outside_the_actor_calls_a_mutating_method():
    offenders = []
    for rel, tree in _outside_owners():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            name, owner = node.func.attr, node.func.value
            if isinstance(owner, ast.Name) and name in MUTATING_FUNCTIONS.get(owner.id, ()):
                offenders.append(f"{rel}:{node.lineno} {owner.id}.{name}")
            elif name in MUTATING_METHODS and not isinstance(owner, ast.Name | ast.Attribute):
                continue  # e.g. a call's result: not a graph held by name
            elif name in MUTATING_METHODS and _names_a_graph(owner):
                offenders.append(f"{rel}:{node.lineno} .{name}")
    assert offenders == []


def _names_a_graph(owner: ast.expr) -> bool:
    """A receiver whose name says it is a graph, its derived state or an index of it."""
    text = ast.unparse(owner).lower()
    return any(word in text for word in ("graph", "derived", "index", "written", "state"))


def test_no_module_outside_the_actor_names_its_live_types():
    offenders = []
    for rel, tree in _outside_owners():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = {a.name for a in node.names} & LIVE_TYPES
                if names:
                    offenders.append(f"{rel}:{node.lineno} imports {sorted(names)}")
    assert offenders == []


def test_the_graph_handle_lends_no_live_object():
    from kg_actors import graph_handle, graph_messages

    source = Path(graph_handle.__file__).read_text() + Path(graph_messages.__file__).read_text()
    assert "GraphData" not in source and "Derived" not in source
    assert not hasattr(graph_messages, "View") and not hasattr(graph_messages, "Call")
