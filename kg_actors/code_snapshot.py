"""The package's code as it was when `kg serve` started, for the modules it imports later.

A server loads some of its modules only when first needed (the editor's web side, the MCP SDK's side, a
sync's or a chore's helpers): their memory is spent only by those who use them. But an upgrade installs
new files under a running server, and a module loaded after it would be the new code beside the old it
was written for (an attribute read that the old modules lack killed the server). So at start the code of
every module not yet imported is compiled and held (code objects: no third-party import, no module run),
and an import of one of them later runs that code, not the files on disk now. Their source text is held
too (~100 KB): a traceback through held code shows its own lines, not the new file's at its line numbers.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import linecache
import logging
import pkgutil
import sys
from pathlib import Path
from types import CodeType, ModuleType

PACKAGE = "kg_actors"
CLI_ONLY = ("kg_actors.setup",)  # run by `kg setup` and `kg doctor`, never by the server
log = logging.getLogger(__name__)
# A held module: its code, file, whether it is a package, and its source text (None: it did not read).
Held = tuple[CodeType, str, bool, bytes | None]


class HeldCode(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the held modules (each once: a reload reads the disk) and runs their held code."""

    def __init__(self, codes: dict[str, Held]) -> None:
        self.codes = codes

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        held = self.codes.get(fullname)
        if held is None:
            return None
        _, origin, is_package, _ = held
        spec = importlib.machinery.ModuleSpec(fullname, self, origin=origin, is_package=is_package)
        spec.has_location = True  # __file__ is set: the editor finds its static folder by it
        if is_package:
            spec.submodule_search_locations = [str(Path(origin).parent)]
        return spec

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        code, origin, _, source = self.codes.pop(module.__name__)
        if source is not None:
            # linecache then reads no file for it: an entry with no mtime is never checked against the disk.
            lines = source.decode("utf-8", "replace").splitlines(keepends=True)
            linecache.cache[origin] = (len(source), None, lines, origin)
        exec(code, module.__dict__)


def held_codes(folder: Path, prefix: str, skip: tuple[str, ...] = CLI_ONLY) -> dict[str, Held]:
    """The compiled code of each module under `folder` not imported yet, found without running any (a
    module that does not compile is left to fail as it would have, when imported)."""
    codes: dict[str, Held] = {}
    for info in pkgutil.iter_modules([str(folder)], prefix):
        name = info.name
        if any(name == s or name.startswith(s + ".") for s in skip):
            continue
        if info.ispkg:
            codes.update(held_codes(folder / name.rsplit(".", 1)[1], name + ".", skip))
        if name in sys.modules:
            continue
        spec = importlib.machinery.PathFinder.find_spec(name, [str(folder)])
        if spec is None or not isinstance(spec.loader, importlib.machinery.SourceFileLoader):
            continue
        try:
            source = Path(spec.origin).read_bytes() if spec.origin else None  # before the code: the .pyc matches it
        except OSError:
            source = None
        try:
            code = spec.loader.get_code(name)  # the .pyc when it is current
        except Exception as exc:
            log.warning("module %s not held at start: %s", name, exc)
            continue
        if code is not None and spec.origin is not None:
            codes[name] = (code, spec.origin, info.ispkg, source)
    return codes


def hold_package() -> HeldCode:
    """Hold the code of the package's modules not yet imported; later imports of them run it."""
    package = sys.modules[PACKAGE]
    held = HeldCode(held_codes(Path(package.__path__[0]), PACKAGE + "."))
    sys.meta_path.insert(0, held)
    return held
