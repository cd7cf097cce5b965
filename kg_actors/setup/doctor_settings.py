"""`kg doctor`'s read of the store's settings files, as the server reads them: chores.json (a fault leaves
chores off) and config.json (a fault leaves the autocommit without its sync). The server only logs these."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Protocol

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
