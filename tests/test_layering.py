"""Conventions that are tests do not rot: the dependency rules of DESIGN.md."""

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "kg_actors"
FORBIDDEN_IN_CORE = {
    "trio", "anyio", "quart", "quart_trio", "hypercorn", "mcp", "starlette", "httpx", "trio_websocket",
    "socket", "subprocess", "asyncio", "shutil", "tempfile", "urllib", "http", "pathlib",
}
# Who may open a nursery: the root, the actors (their own writer tasks), the
# websocket endpoint (one forwarder task per open socket, scoped to that socket)
# and the HTTP server (its accept loop and one task per connection).
NURSERY_OWNERS = {"runtime.py", "graph_actor.py", "session_actor.py", "http/ws.py", "editor/server.py",
                  "chores/supervisor.py", "http/listener.py",
                  "chores/runners.py"}  # a run's stdin feeder and stdout drainer, scoped to the supervisor's job


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_core_imports_no_trio_http_or_io():
    offenders = {}
    for path in (PKG / "core").rglob("*.py"):
        bad = _imports(path) & FORBIDDEN_IN_CORE
        if bad:
            offenders[str(path.relative_to(PKG))] = sorted(bad)
    assert offenders == {}


def test_core_opens_no_files():
    offenders = []
    for path in (PKG / "core").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open":
                offenders.append(str(path.relative_to(PKG)))
    assert offenders == []


def test_only_runtime_and_actors_open_nurseries():
    offenders = []
    for path in PKG.rglob("*.py"):
        rel = str(path.relative_to(PKG))
        if "open_nursery" in path.read_text() and rel not in NURSERY_OWNERS:
            offenders.append(rel)
    assert offenders == []


def test_no_locks_guard_graph_or_session_state():
    offenders = []
    for path in PKG.rglob("*.py"):
        text = path.read_text()
        for lock in ("threading.Lock", "threading.RLock", "trio.Lock", "RLock("):
            if lock in text:
                offenders.append((str(path.relative_to(PKG)), lock))
    assert offenders == []


def test_shim_imports_nothing_heavy():
    shim = Path(__file__).resolve().parent.parent / "shim" / "__init__.py"
    assert _imports(shim) & {"trio", "mcp", "httpx", "kg_actors", "starlette", "anyio"} == set()
