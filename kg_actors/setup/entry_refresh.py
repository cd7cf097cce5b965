"""kg's MCP server entry in an agent's config at a later setup (Claude Desktop, Gemini, OpenCode): what setup
wrote last time (the record's `entry`) is setup's own, rewritten to what setup writes now (a new port, store or
kg path); only what differs from it is the user's, and stays. And where an entry kg keeps sends `kg mcp`: a port
or store other than this one's fails every kg tool in that agent.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..env_rules import DEFAULT_PORT
from . import SetupError
from .files import Record, changes_said, customized

_MISSING: Any = object()


def refreshed(entry: Any, want: Any, recorded: Any) -> Any:
    """The entry setup leaves: `want`, with the user's changes to setup's last entry (`recorded`) laid over it.
    Without a record of that entry (setup kept none before 2026-12-03), kg's entry the user changed is left
    whole, as there is no telling setup's part from theirs."""
    if not isinstance(entry, dict) or not isinstance(want, dict):
        return want
    if isinstance(recorded, dict) and (entry == recorded or customized(entry, recorded) or customized(entry, want)):
        return _merged(entry, recorded, want)
    return entry if customized(entry, want) else want


def _merged(mine: dict[str, Any], setups: dict[str, Any], now: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for key in [*mine, *(k for k in now if k not in mine)]:
        value = _value(mine.get(key, _MISSING), setups.get(key, _MISSING), now.get(key, _MISSING))
        if value is not _MISSING:
            out[key] = value
    return out


def _value(mine: Any, setups: Any, now: Any) -> Any:
    if mine == setups:  # as setup left it: setup's to change (or to drop, when `now` has none)
        return now
    if isinstance(mine, dict) and all(v is _MISSING or isinstance(v, dict) for v in (setups, now)):
        merged = _merged(mine, {} if setups is _MISSING else setups, {} if now is _MISSING else now)
        return merged if merged or now is not _MISSING else _MISSING  # env: per variable
    if (isinstance(mine, list) and isinstance(setups, list) and isinstance(now, list)
            and mine[:len(setups)] == setups):
        return [*now, *mine[len(setups):]]  # arguments the user put after setup's
    return mine  # the user's own value (or its removal)


def recorded_entry(record: Record, step: str, entry: Any, home: Path) -> Any:
    """The entry setup wrote last time at `step`: this store's record's, else (setup run before with another
    KG_HOME, whose record is in that store) the record of the store the entry itself names."""
    here = record.done(step).get("entry")
    if here is not None or not isinstance(entry, dict):
        return here
    named = _env(entry).get("KG_HOME") or str(home / ".knowledge-graph")
    path = Path(os.path.expanduser(str(named))) / "setup" / "record.json"
    if path == record.path:
        return None
    try:
        theirs = Record.load(path).done(step).get("entry")
    except (OSError, SetupError):  # unreadable, or no record: nothing there to go by
        return None
    return theirs if theirs == entry else None  # another store's: only its very entry is setup's


def _env(entry: dict[str, Any]) -> dict[str, Any]:
    env = entry.get("env", entry.get("environment"))  # OpenCode names it environment
    return env if isinstance(env, dict) else {}


def reach_said(entry: Any, want: Any, default_store: Path) -> str | None:
    """What in kg's entry sends `kg mcp` elsewhere than setup's entry (`want`) does, said with both ("its
    KG_HTTP_PORT is 31452, this store's server is at 31453"); None when it reaches the same server. A store
    named by neither is `default_store`."""
    if not isinstance(entry, dict) or not isinstance(want, dict):
        return None
    mine, now = _env(entry), _env(want)
    said = []
    port, theirs = str(now.get("KG_HTTP_PORT") or DEFAULT_PORT), mine.get("KG_HTTP_PORT")
    if str(theirs or DEFAULT_PORT) != port:
        said.append(f"its KG_HTTP_PORT is {theirs}, this store's server is at {port}" if theirs else
                    f"it sets no KG_HTTP_PORT (the default {DEFAULT_PORT}), this store's server is at {port}")
    here, named = str(now.get("KG_HOME") or default_store), mine.get("KG_HOME")
    if _path(str(named or default_store)) != _path(here):
        said.append(f"its KG_HOME is {named}, this store is {here}" if named else
                    f"it sets no KG_HOME (the store {default_store}), this store is {here}")
    return "; ".join(said) or None


def _path(named: str) -> str:
    return os.path.normpath(os.path.expanduser(named))


def rewrite_said(entry: Any, target: Any, want: Any) -> str:
    """How setup's rewrite of kg's entry reads, after "update X": "to what setup writes now (env KG_HTTP_PORT),
    keeping your timeout"."""
    kept = changes_said(target, want)
    return f"to what setup writes now ({changes_said(target, entry) or 'its command'})" + (
        f", keeping your {kept}" if kept else "")


def elsewhere_said(where: str, reach: str) -> str:
    """Setup's and doctor's words for kg's entry the user set to reach another server than this store's."""
    return (f"{where}, kg's entry as you set it, reaches another kg server than this store's ({reach}), so kg's "
            "tools there fail; left as you set it")


def elsewhere_fix(where: str, step: str) -> str:
    return (f"set those variables in {where} to this store's, or remove that entry and run kg setup --only {step} "
            "(it writes kg's afresh)")
