"""The `gauge` setup step: `kg gauge` as Claude Code's status line, so chores can read the plan's quota.

Claude Code hands its `rate_limits` only to the status-line command. A user who
already has one keeps it: setup wraps it (`kg gauge --wrap '<theirs>'`), and
the line they see is theirs. The change lands in Claude Code's settings.json,
which setup already tracks, so `kg uninstall` restores that file.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..core import strict_json
from . import SetupError
from .files import json_like


def current(settings: dict[str, Any] | None) -> str | None:
    """The statusLine command settings.json runs now (None: none)."""
    line = (settings or {}).get("statusLine")
    if isinstance(line, dict) and line.get("type") == "command" and isinstance(line.get("command"), str):
        command: str = line["command"]
        return command
    return None


def is_gauge(command: str | None) -> bool:
    return command is not None and " gauge" in command and "kg" in command


def gauge_command(kg_argv: Sequence[str], theirs: str | None) -> str:
    cmd = shlex.join([*kg_argv, "gauge"])
    return f"{cmd} --wrap {shlex.quote(theirs)}" if theirs else cmd


def merged(raw: bytes | None, command: str, path: Path) -> bytes:
    try:
        data = strict_json.loads(raw) if raw else {}
    except ValueError as exc:
        raise SetupError(f"{path}: not valid JSON ({exc}); left untouched") from None
    if not isinstance(data, dict):
        raise SetupError(f"{path}: expected a JSON object; left untouched")
    theirs = data.get("statusLine")  # its other keys (padding, ...) stay
    data["statusLine"] = {**(theirs if isinstance(theirs, dict) else {}), "type": "command", "command": command}
    return json_like(data, raw)


def without(raw: bytes, path: Path) -> bytes | None:
    """The settings with the user's own status line back (the one `--wrap` ran), or none when setup added the
    first; None when the status line is not kg's gauge (nothing to undo)."""
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
    if theirs:
        data["statusLine"] = {**data["statusLine"], "command": theirs}
    else:
        del data["statusLine"]
    return json_like(data, raw)
