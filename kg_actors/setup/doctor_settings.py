"""`kg doctor`'s read of the store's settings files, as the server reads them: chores.json (a fault leaves
chores off) and config.json (a fault leaves the autocommit without its sync). The server only logs these."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any, Protocol

from ..core.chores import parse_config
from ..storage import user_files


class Says(Protocol):
    def bad(self, what: str, said: str, fix: str) -> None: ...

    def warn(self, what: str, said: str, fix: str) -> None: ...


def check_settings(r: Says, root: Path) -> None:
    chores = root / "chores.json"
    if user_files.is_regular(chores):
        ignored = None
        try:
            parsed = parse_config(user_files.read_bytes(chores), None, None)
            why, ignored = parsed.warning, parsed.ignored
        except OSError as exc:
            why = f"chores.json cannot be read ({exc.strerror or exc}): chores stay off"
        if ignored:  # chores run, under the default gate: worth a look, no fault
            r.warn("chores", f"{chores}: {ignored.removeprefix('chores.json: ')}",
                   "lower the value to the default or under it, or remove it for the default")
        # A field that breaks its rule is in valid JSON: the fix names the field (the warning says the rule).
        field = why.removeprefix("chores.json: ").split(":", 1)[0] if why and why.startswith("chores.json: ") else None
        if why and field:
            r.bad("chores", f"{chores}: {why.removeprefix('chores.json: ')}", f"set {field} in it as the rule says, or remove {field} for its "
                  "default")
        elif why:
            r.bad("chores", f"{chores}: {why}", f"correct it (python3 -m json.tool {shlex.quote(str(chores))} "
                  "points at a JSON fault), or remove it for the defaults")
    config = root / "config.json"
    if user_files.is_regular(config):
        try:
            data = user_files.load_json(config)
            why = None if isinstance(data, dict) else f"it must hold a JSON object, not {type(data).__name__}"
        except OSError as exc:
            why = f"it cannot be read ({exc.strerror or exc})"
        except ValueError as exc:
            why = f"it is not valid JSON ({exc})"
        if why:
            r.bad("store config", f"{config}: {why}: its sync_remote is not read, so no autocommit syncs",
                  f"correct it (python3 -m json.tool {shlex.quote(str(config))} points at a JSON fault), or remove "
                  "it and run `kg sync REMOTE --remember` again")


def served_chores(url: str) -> dict[str, Any] | None:
    """The running server's GET /api/chores (whether it runs chores, what of its environment it read as off),
    or None: none answers, or not in time."""
    import json
    import urllib.request

    try:
        with urllib.request.urlopen(f"{url}/api/chores", timeout=3) as reply:
            data = json.loads(reply.read())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def chores_note(file_note: str, served: dict[str, Any] | None) -> str:
    """doctor's word on chores: chores.json's, and the running server's where that differs (it said "off"
    while KG_CHORES=1 in the server's environment ran them)."""
    enabled = served.get("enabled") if served is not None else None
    if not isinstance(enabled, bool) or enabled == (file_note == "on"):
        return file_note
    if enabled:
        return "on in the running server (KG_CHORES in its environment), though chores.json leaves them off"
    return "off in the running server (KG_CHORES in its environment), though chores.json switches them on"


def env_ignored(served: dict[str, Any] | None) -> list[str]:
    """What of its environment the running server read as off (a KG_CHORES that says neither on nor off)."""
    ignored = served.get("ignored") if served is not None else None
    return [part for part in ignored.split("; ") if part.startswith("KG_")] if isinstance(ignored, str) else []
