"""The `gauge` setup step: `kg gauge` as Claude Code's status line, so chores can read the plan's quota.

Claude Code hands its `rate_limits` only to the status-line command. A user who
already has one keeps it: setup wraps it (`kg gauge --wrap '<theirs>'`), and
the line they see is theirs. The change lands in Claude Code's settings.json,
which setup already tracks, so `kg uninstall` restores that file. Another kg's
gauge there (kg-memory 0.17's) is replaced, not wrapped (two gauges would record
twice): uninstall finds it in the bytes the file had before setup and gives it back.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from ..core import strict_json
from .files import json_config, json_like


def current(settings: dict[str, Any] | None) -> str | None:
    """The statusLine command settings.json runs now (None: none)."""
    line = (settings or {}).get("statusLine")
    if isinstance(line, dict) and line.get("type") == "command" and isinstance(line.get("command"), str):
        command: str = line["command"]
        return command
    return None


def is_gauge(command: str | None) -> bool:
    return command is not None and " gauge" in command and "kg" in command


def gauge_command(kg_argv: Sequence[str], theirs: str | None, store: Path | None = None) -> str:
    """The status-line command; with `store`, it names the store (`KG_HOME=...`): Claude Code runs it in its
    own environment, where the KG_HOME setup was run with may not be set."""
    cmd = shlex.join([*kg_argv, "gauge"])
    if store is not None:
        cmd = f"KG_HOME={shlex.quote(str(store))} {cmd}"
    return f"{cmd} --wrap {shlex.quote(theirs)}" if theirs else cmd


@attrs.frozen
class Gauge:
    """A gauge status-line command, read back: the store it names, the kg it runs, the line it wraps."""

    store: str | None
    kg_argv: tuple[str, ...]
    theirs: str | None


def parsed(command: str | None) -> Gauge | None:
    if not is_gauge(command):
        return None
    assert command is not None
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    store = words.pop(0).removeprefix("KG_HOME=") if words and words[0].startswith("KG_HOME=") else None
    if "gauge" not in words:
        return None
    at = words.index("gauge")
    theirs = words[words.index("--wrap") + 1] if "--wrap" in words[at:-1] else None
    return Gauge(store, tuple(words[:at]), theirs)


def _same_place(a: str | Path, b: str | Path) -> bool:
    # One store may be named two ways (KG_HOME unset or set to the default, a symlink): compare what they are.
    return os.path.realpath(os.path.expanduser(a)) == os.path.realpath(os.path.expanduser(b))


def stale(command: str | None, kg_argv: Sequence[str], store: Path, default_store: Path) -> str | None:
    """Why setup's gauge command no longer fits this kg (None: it fits): it runs a kg that is not this
    installation's (kg moved), or records into another store than this one. A command naming no store
    records into the default one."""
    gauge = parsed(command)
    if gauge is None:
        return None
    if list(gauge.kg_argv) != list(kg_argv):
        return f"it runs {shlex.join(gauge.kg_argv)}, and this kg is {shlex.join(kg_argv)} (kg moved)"
    theirs = gauge.store or default_store
    if not _same_place(theirs, store):
        return f"it records into {theirs}, and this kg's store is {store}"
    return None


def merged(raw: bytes | None, command: str, path: Path) -> bytes:
    data = json_config(raw, path, ())
    theirs = data.get("statusLine")  # its other keys (padding, ...) stay
    data["statusLine"] = {**(theirs if isinstance(theirs, dict) else {}), "type": "command", "command": command}
    return json_like(data, raw)


def replaced(before: bytes | None) -> str | None:
    """The gauge of another kg settings.json ran before setup first changed it (kg-memory 0.17's `kg gauge`, or
    this kg's set up with another store), which setup rewrote to its own: uninstall gives it back. None: the
    line before was none or the user's own (kept behind `--wrap`, so given back from there)."""
    try:
        data = strict_json.loads(before) if before else None
    except ValueError:
        return None
    command = current(data) if isinstance(data, dict) else None
    return command if is_gauge(command) else None


def without(raw: bytes, path: Path, back: str | None = None) -> bytes | None:
    """The settings with the status line back that kg's gauge took the place of: `back` (another kg's gauge
    setup replaced) while the gauge still wraps what that one did, else the user's own (the one `--wrap` ran),
    or none when setup added the first; None when the status line is not kg's gauge (nothing to undo)."""
    try:
        data = strict_json.loads(raw)
    except ValueError:
        return None
    command = current(data) if isinstance(data, dict) else None
    if not is_gauge(command):
        return None
    assert command is not None and isinstance(data, dict)
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    theirs = words[words.index("--wrap") + 1] if "--wrap" in words[:-1] else None
    earlier = parsed(back) if back else None
    if back and (earlier.theirs if earlier else None) == theirs:  # a wrapped line changed since is the user's
        data["statusLine"] = {**data["statusLine"], "command": back}
    elif theirs:
        data["statusLine"] = {**data["statusLine"], "command": theirs}
    else:
        del data["statusLine"]
    return json_like(data, raw)
