"""Finding a KG session in a harness transcript (resume and fork), safely.

A transcript is trusted only when it is a `.jsonl` regular file under the user's
home (or CODEX_HOME); a Codex rollout (`rollout-*.jsonl`) only under CODEX_HOME
or ~/.codex, where Codex writes them. The last marker the transcript holds wins: the preload's
`session_id: XXXXXXXX (pass`, a read's `Session: XXXXXXXX`, or a tool call's
`session_id='XXXXXXXX'` / `"session_id": "XXXXXXXX"`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..storage import user_files

MARKER = re.compile(
    r"session_id: ([0-9a-f]{8}) \(pass|Session: ([0-9a-f]{8})\b|session_id='([0-9a-f]{8})'"
    r"|\\?\"session_id\\?\":\s*\\?\"([0-9a-f]{8})\\?\""
)
TAIL_BYTES = 4 * 1024 * 1024


def safe_transcript(path: str | None, home: Path, codex_home: str | None = None) -> Path | None:
    """The transcript's real path, if it is an absolute `.jsonl` regular file under home (or CODEX_HOME);
    a rollout only under CODEX_HOME or ~/.codex. `codex_home`: CODEX_HOME (default: this process's)."""
    if not path or not isinstance(path, str) or len(path) > 4096 or "\x00" in path:
        return None
    expanded = os.path.expanduser(path)
    if not os.path.isabs(expanded):
        return None  # relative to what? never to the server's own directory
    try:
        real = Path(os.path.realpath(expanded))
        if real.suffix != ".jsonl" or not real.is_file():
            return None
    except (OSError, ValueError):
        return None
    codex_home = os.environ.get("CODEX_HOME") if codex_home is None else codex_home
    codex_roots = [Path(os.path.realpath(home / ".codex"))]
    if codex_home:
        codex_roots.append(Path(os.path.realpath(codex_home)))
    roots = codex_roots if real.name.startswith("rollout-") else [home, *codex_roots]
    if not any(real == r or str(real).startswith(str(r).rstrip("/") + "/") for r in roots):
        return None
    return real


def last_marker(text: str) -> str | None:
    found = None
    for match in MARKER.finditer(text):
        found = next(g for g in match.groups() if g)
    return found


def recover_sid(path: Path) -> str | None:
    """The last KG session id the transcript mentions (reads at most its last 4 MiB)."""
    try:
        data = user_files.read_tail(path, TAIL_BYTES)[0].decode("utf-8", errors="replace")  # never a FIFO
    except OSError:
        return None
    return last_marker(data)
