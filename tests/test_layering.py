"""Conventions that are tests do not rot: the dependency rules of DESIGN.md."""

import ast
import re
import sys
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
                  "chores/supervisor.py", "http/server.py",
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


def test_the_cli_commands_clients_launch_import_nothing_heavy():
    """`kg mcp` starts with every client session: the parser it builds must not import trio (~0.2 s)."""
    import subprocess

    code = ("import sys; import kg_shim; from kg_actors import cli; cli.main(['version']); "
            "print([m for m in ('trio', 'attr', 'kg_actors.config', 'kg_actors.chores') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-1] == "[]"


def test_the_server_imports_no_test_tooling():
    """trio.testing imports pytest where it is installed: +9 MiB and 166 modules in a server that never tests."""
    import subprocess

    code = ("import sys; import kg_actors.runtime, kg_actors.http.tool_handlers; "
            "print([m for m in ('trio.testing', 'pytest', '_pytest') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-1] == "[]"


# core/ may import the standard library's pure modules, itself, and two pure libraries (attrs for
# frozen values, the Snowball stemmer for search terms): no I/O, no clock, no concurrency.
CORE_MAY_IMPORT = {
    "__future__", "abc", "array", "base64", "bisect", "collections", "copy", "dataclasses", "datetime", "difflib",
    "enum", "fnmatch", "functools", "hashlib", "heapq", "itertools", "json", "math", "operator", "posixpath", "re",
    "statistics", "string", "textwrap", "types", "typing", "unicodedata", "weakref", "zlib",
    "attrs", "snowballstemmer", "Stemmer",
}
CODE_LINES_MAX = 400


def _module_name(path: Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _package_imports(path: Path) -> set[str]:
    """The kg_actors modules a module imports (anywhere in it), as dotted names."""
    here = _module_name(path).split(".")
    if path.name != "__init__.py":
        here = here[:-1]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = (here[: len(here) - node.level + 1] if node.level else []) + (node.module or "").split(".")
            base = [b for b in base if b]
            if not base or base[0] != "kg_actors":
                continue
            for alias in node.names:
                candidate = ".".join(base + [alias.name])
                module = candidate if _exists(candidate) else ".".join(base)
                out.add(module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("kg_actors"))
    return out


def _exists(dotted: str) -> bool:
    path = PKG.parent.joinpath(*dotted.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _graph() -> dict[str, set[str]]:
    return {_module_name(p): _package_imports(p) for p in PKG.rglob("*.py")}


def _code_lines(path: Path) -> int:
    import io
    import tokenize

    src = path.read_text()
    docs = set()
    for node in ast.walk(ast.parse(src)):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(getattr(body[0], "value", None), ast.Constant) and isinstance(body[0].value.value, str):
            docs.update(range(body[0].lineno, body[0].end_lineno + 1))
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
    lines = set()
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type not in skip:
            lines.update(line for line in range(tok.start[0], tok.end[0] + 1) if line not in docs)
    return len(lines)


def test_core_imports_only_pure_modules_and_itself():
    offenders = {}
    for path in (PKG / "core").rglob("*.py"):
        bad = _imports(path) - CORE_MAY_IMPORT - {"kg_actors"}
        if bad:
            offenders[str(path.relative_to(PKG))] = sorted(bad)
    assert offenders == {}


def test_core_imports_nothing_of_ours_above_it():
    offenders = {m: sorted(i for i in imps if not i.startswith("kg_actors.core"))
                 for m, imps in _graph().items() if m.startswith("kg_actors.core")}
    assert {m: i for m, i in offenders.items() if i} == {}


def test_domain_errors_know_nothing_of_http():
    tree = ast.parse((PKG / "core" / "errors.py").read_text())
    assigned = {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    assert "status" not in assigned  # REST statuses are http/guard.py's table


def test_the_package_imports_without_cycles():
    graph = _graph()
    cycles = []
    state: dict[str, int] = {}

    def visit(module: str, stack: list[str]) -> None:
        state[module] = 1
        for dep in sorted(graph.get(module, ())):
            if dep not in graph:
                continue
            if state.get(dep) == 1:
                cycles.append(stack[stack.index(dep):] + [dep])
            elif dep not in state:
                visit(dep, stack + [dep])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    # A package's __init__ importing its own modules is a face, not a cycle.
    real = [c for c in cycles if not any(a.startswith(b + ".") or b.startswith(a + ".") for a, b in zip(c, c[1:]))]
    assert real == []


def test_http_reaches_storage_and_actor_internals_only_through_the_floor():
    offenders = {}
    for module, imps in _graph().items():
        if module.startswith("kg_actors.http"):
            bad = sorted(i for i in imps if i.startswith(("kg_actors.storage", "kg_actors.graph_actor",
                                                          "kg_actors.session_actor", "kg_actors.directory")))
            if bad:
                offenders[module] = bad
    assert offenders == {}


def test_the_use_cases_sit_below_http_and_above_the_actors():
    graph = _graph()
    up = {m: sorted(i for i in imps if i.startswith(("kg_actors.http", "kg_actors.runtime", "kg_actors.cli",
                                                       "kg_actors.editor")))
          for m, imps in graph.items() if m.startswith("kg_actors.conduct")}
    assert {m: i for m, i in up.items() if i} == {}
    assert not (PKG / "memory.py").exists() and not (PKG / "ambient.py").exists()


def test_no_module_is_over_400_code_lines():
    sizes = {str(p.relative_to(PKG)): _code_lines(p) for p in PKG.rglob("*.py")}
    assert {p: n for p, n in sizes.items() if n > CODE_LINES_MAX} == {}


def test_every_third_party_import_is_declared():
    import tomllib

    project = tomllib.loads((PKG.parent / "pyproject.toml").read_text())["project"]
    declared = {re.split(r"[<>=!\[ ;]", d, maxsplit=1)[0].lower().replace("-", "_")
                for d in project["dependencies"]}
    # Import names that differ from their distribution's name.
    aliases = {"stemmer": "pystemmer", "quart_trio": "quart_trio", "trio_websocket": "trio_websocket"}
    stdlib = set(sys.stdlib_module_names)
    used = set()
    for path in PKG.rglob("*.py"):
        used |= {n for n in _imports(path) if n not in stdlib and n not in ("kg_actors", "kg_shim")}
    missing = sorted(n for n in used if aliases.get(n.lower(), n.lower()) not in declared)
    assert missing == []


def test_every_package_folder_is_packaged():
    import tomllib

    listed = set(tomllib.loads((PKG.parent / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    folders = {_module_name(p.parent / "__init__.py") for p in PKG.rglob("__init__.py")}
    assert folders - listed == set()


def test_tests_mirror_the_package_and_basenames_are_unique():
    tests = PKG.parent / "tests"
    names = [p.name for p in tests.rglob("test_*.py")]
    assert sorted(n for n in set(names) if names.count(n) > 1) == []
    assert list(tests.rglob("__init__.py")) == []
    folders = {p.parent.relative_to(tests).parts[0] for p in tests.rglob("test_*.py") if p.parent != tests}
    package = {p.name for p in PKG.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders - package - {"e2e", "formal", "bench"} == set()  # formal, bench: the top-level folders
