"""kg entries in the agents' files written by a setup of another store: where `kg uninstall` finds no record.

Setup's record lives in its store (`<KG_HOME>/setup/record.json`); run with another
KG_HOME, uninstall finds none there, though the entries remain. They name the store
they were set up with (the plugin folder `<store>/setup/marketplace`, or `KG_HOME` in
an entry's environment), which says where the record is.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# `<store>/setup/marketplace` (Claude Code, Codex, Gemini's hook command) or "KG_HOME": "<store>" (JSON
# entries' env) or KG_HOME = "<store>" (TOML).
_MARKETPLACE = re.compile(r"""([^\s"'=]+)/setup/marketplace\b""")
_KG_HOME = re.compile(r""""?KG_HOME"?\s*[:=]\s*"([^"]+)\"""")


_FOLDER = re.compile(r"/setup/marketplace\b")
_PATH_START = re.compile(r"(?:^|\s)([~/].*)$", re.S)


def stores_named(text: str) -> set[str]:
    """The stores a config file's kg entries were set up with.

    A whole JSON or TOML file is read as what it holds, so a store whose path has spaces or escaped
    characters is named as it is; a file that does not parse is searched as text."""
    held = _parsed(text)
    if held is None:
        return {m.group(1) for m in _MARKETPLACE.finditer(text)} | {m.group(1) for m in _KG_HOME.finditer(text)}
    found: set[str] = set()
    for key, value in _strings(held):
        if key == "KG_HOME":
            found.add(value)
        found |= {root for m in _FOLDER.finditer(value) if (root := _root_before(value[:m.start()]))}
    return found


def _parsed(text: str) -> Any:
    for parse in (json.loads, tomllib.loads):
        try:
            return parse(text)
        except ValueError:  # tomllib.TOMLDecodeError and json.JSONDecodeError are ValueErrors
            continue
    return None


def _strings(value: Any, key: str | None = None) -> Iterator[tuple[str | None, str]]:
    """Every string a parsed file holds, with the key it stands under."""
    if isinstance(value, str):
        yield key, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, str(k))
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v, key)


def _root_before(head: str) -> str:
    """The store folder a string names just before `/setup/marketplace`: from the quote that opens it (a
    hook command's 'path'), else from where a path starts."""
    quote = max(head.rfind("'"), head.rfind('"'))
    if quote >= 0:
        return head[quote + 1:]
    start = _PATH_START.search(head)
    return start.group(1) if start else ""


def elsewhere(files: list[Path], store: Path) -> dict[str, list[Path]]:
    """Other stores than `store` named in `files`, each with the files naming it."""
    found: dict[str, list[Path]] = {}
    for path in files:
        try:
            text = path.read_text(errors="replace")
        except OSError:  # absent or unreadable: nothing of kg's to name there
            continue
        for named in sorted(stores_named(text)):
            if Path(named) != store and path not in found.setdefault(named, []):
                found[named].append(path)
    return found
