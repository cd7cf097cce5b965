"""kg entries in the agents' files written by a setup of another store: where `kg uninstall` finds no record.

Setup's record lives in its store (`<KG_HOME>/setup/record.json`); run with another
KG_HOME, uninstall finds none there, though the entries remain. They name the store
they were set up with (the plugin folder `<store>/setup/marketplace`, or `KG_HOME` in
an entry's environment), which says where the record is.
"""

from __future__ import annotations

import re
from pathlib import Path

# `<store>/setup/marketplace` (Claude Code, Codex, Gemini's hook command) or "KG_HOME": "<store>" (JSON
# entries' env) or KG_HOME = "<store>" (TOML).
_MARKETPLACE = re.compile(r"""([^\s"'=]+)/setup/marketplace\b""")
_KG_HOME = re.compile(r""""?KG_HOME"?\s*[:=]\s*"([^"]+)\"""")


def stores_named(text: str) -> set[str]:
    """The stores a config file's kg entries were set up with."""
    return {m.group(1) for m in _MARKETPLACE.finditer(text)} | {m.group(1) for m in _KG_HOME.finditer(text)}


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
