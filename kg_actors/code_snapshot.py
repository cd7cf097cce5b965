"""The package's code as it was when `kg serve` started, for the modules it imports later.

A server loads some of its modules only when first needed (the editor's web side, the MCP SDK's side, a
sync's or a chore's helpers): their memory is spent only by those who use them. But an upgrade installs
new files under a running server, and a module loaded after it would be the new code beside the old it
was written for (an attribute read that the old modules lack killed the server). So at start the code of
every module not yet imported is compiled and held (code objects: no third-party import, no module run),
and an import of one of them later runs that code, not the files on disk now.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import logging
import pkgutil
import sys
from pathlib import Path
from types import CodeType, ModuleType

PACKAGE = "kg_actors"
CLI_ONLY = ("kg_actors.setup",)  # run by `kg setup` and `kg doctor`, never by the server
log = logging.getLogger(__name__)


class HeldCode(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the held modules (each once: a reload reads the disk) and runs their held code."""

    def __init__(self, codes: dict[str, tuple[CodeType, str, bool]]) -> None:
        self.codes = codes

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        held = self.codes.get(fullname)
        if held is None:
            return None
        code, origin, is_package = held
        spec = importlib.machinery.ModuleSpec(fullname, self, origin=origin, is_package=is_package)
        spec.has_location = True  # __file__ is set: the editor finds its static folder by it
        if is_package:
            spec.submodule_search_locations = [str(Path(origin).parent)]
        return spec

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        code, _, _ = self.codes.pop(module.__name__)
        exec(code, module.__dict__)


def held_codes(folder: Path, prefix: str, skip: tuple[str, ...] = CLI_ONLY) -> dict[str, tuple[CodeType, str, bool]]:
    """The compiled code of each module under `folder` not imported yet, found without running any (a
    module that does not compile is left to fail as it would have, when imported)."""
    codes: dict[str, tuple[CodeType, str, bool]] = {}
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
            code = spec.loader.get_code(name)  # the .pyc when it is current
        except Exception as exc:
            log.warning("module %s not held at start: %s", name, exc)
            continue
        if code is not None and spec.origin is not None:
            codes[name] = (code, spec.origin, info.ispkg)
    return codes


def hold_package() -> HeldCode:
    """Hold the code of the package's modules not yet imported; later imports of them run it."""
    package = sys.modules[PACKAGE]
    held = HeldCode(held_codes(Path(package.__path__[0]), PACKAGE + "."))
    sys.meta_path.insert(0, held)
    return held
