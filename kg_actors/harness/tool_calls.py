"""What a harness's tool call names: the files a file tool, a patch or a shell command read or edited.

Each harness spells its tools differently (Claude Code's Read/Edit, Codex's
apply_patch and exec_command, Antigravity's view_file); this module knows the
spellings. `files_of` looks at the disk (realpath, isfile; for Codex a rollout
record), so a caller that must not block runs it in a thread when
`needs_thread` says it may read the rollout.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from ..storage import home_paths
from . import profiles, rollout, shell, transcripts

FILE_TOOLS = {"Read": "file_path", "Edit": "file_path", "Write": "file_path", "MultiEdit": "file_path",
              "NotebookEdit": "notebook_path", "view_file": "AbsolutePath", "replace_file_content": "TargetFile",
              "write_to_file": "TargetFile"}
SHELL_TOOLS = {"Bash", "shell", "exec_command", "local_shell", "run_command"}
PATCH_MARKERS = ("*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:")
_UNKNOWN_CWD = "/\x00kg-unknown-cwd"  # a directory no path can name: marks relative shell operands
PATH_MAX_CHARS = 4096


def shell_command(tool_input: Mapping[str, Any]) -> object:
    return tool_input.get("command", tool_input.get("cmd"))


def patch_text(tool: str, tool_input: Mapping[str, Any]) -> str | None:
    """The patch of a Codex apply_patch call (given as `input`, `patch` or an argv list), else None."""
    for value in tool_input.values():
        if isinstance(value, list):
            value = next((v for v in value if isinstance(v, str) and "*** Begin Patch" in v), None)
        if isinstance(value, str) and "*** Begin Patch" in value:
            return value
    return None if tool != "apply_patch" else ""


@attrs.frozen
class Operands:
    """The paths a tool call names as given, or the shell command whose operands are to be found."""

    raw: tuple[str, ...]
    command: object = None
    workdir: str | None = None

    def needs_thread(self, harness: profiles.Harness) -> bool:
        """Whether finding the files may read the rollout file (a thread's work, not the loop's)."""
        return self.command is not None and self.workdir is None and not harness.trusts_shell_cwd


def operands(tool: str, tool_input: Mapping[str, Any], cwd: str | None) -> Operands | None:
    """What to look for on disk; None for a tool that names no file."""
    raw: list[str] = []
    command = None
    workdir = tool_input.get("workdir")
    workdir = workdir if isinstance(workdir, str) and os.path.isabs(workdir) else None
    patch = patch_text(tool, tool_input)
    if tool in FILE_TOOLS and isinstance(tool_input.get(FILE_TOOLS[tool]), str):
        path = os.path.expanduser(tool_input[FILE_TOOLS[tool]])
        if not os.path.isabs(path) and cwd:
            path = os.path.join(cwd, path)
        raw.append(path)
    elif patch is not None:
        base = workdir or cwd
        for line in patch.splitlines():
            for marker in PATCH_MARKERS:
                if line.startswith(marker):
                    path = line[len(marker):].strip()
                    raw.append(path if os.path.isabs(path) or not base else os.path.join(base, path))
    elif tool in SHELL_TOOLS:
        command = shell_command(tool_input)
    else:
        return None
    return Operands(tuple(raw), command, workdir)


def files_of(ops: Operands, cwd: str | None, harness: profiles.Harness, payload: Mapping[str, Any],
             home: Path) -> list[str]:
    """The existing files (real paths, home_paths.named) the call read or edited; at most shell.MAX_FILES."""
    candidates = list(ops.raw)
    if ops.command is not None:
        shell_cwd = ops.workdir or (cwd if harness.trusts_shell_cwd else None)
        relative = any(p.startswith(_UNKNOWN_CWD) for p in shell.read_files(ops.command, _UNKNOWN_CWD))
        if shell_cwd is None and relative:
            # A relative operand under a harness whose hook cwd is not where the command ran
            # (Codex): place it only on the rollout's exact record of this call.
            transcript = payload.get("transcript_path")
            safe = transcripts.safe_transcript(transcript if isinstance(transcript, str) else None, home)
            if safe is not None:
                shell_cwd = rollout.shell_cwd(safe, payload.get("tool_use_id"), payload.get("session_id"),
                                              payload.get("turn_id"))
        candidates = shell.read_files(ops.command, shell_cwd)
    out: list[str] = []
    for p in candidates[: shell.MAX_FILES]:
        if not os.path.isabs(p) or "\x00" in p or len(p) > PATH_MAX_CHARS:
            continue  # a relative path with no known directory names no file
        try:
            real = home_paths.named(p, str(home), time.monotonic())  # as the project is: `~/code/app` both ways
            if os.path.isfile(real) and real not in out:
                out.append(real)
        except (OSError, ValueError):
            continue
    return out
