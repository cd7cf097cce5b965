"""Where each gauge's evidence lives, read off the event loop; the parsing is core/gauges.py's.

Claude Code: the file `kg gauge` keeps in the store (`claude-limits.json`).
Codex: the newest `rate_limits` event among rollout files written within the
gauge's age limit (`${CODEX_HOME:-~/.codex}/sessions/**/rollout-*.jsonl`); a
walk that cannot finish refuses, since an incomplete survey must not permit
spending. Antigravity: `agy -p /usage --output-format json`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..core import gauges, strict_json
from ..core.chores import Reading
from ..harness import transcripts
from ..storage import files, user_files

CLAUDE_FILE = "claude-limits.json"
NO_READING = "no Claude Code status-line reading (install `kg gauge` as the status line)"
TAIL_BYTES = 256 * 1024
AGY_USAGE_TIMEOUT = 20.0


def claude_path(root: Path) -> Path:
    return root / CLAUDE_FILE


def read_claude(root: Path, now: float) -> Reading | str:
    path = claude_path(root)
    try:
        record = user_files.load_json(path)
    except FileNotFoundError:
        return NO_READING
    except OSError as exc:
        return f"{path.name}: {exc}"
    except ValueError:
        return f"{path.name} is not valid JSON"
    return gauges.claude_reading(record, now)


def record_claude(root: Path, frame: object, now: float) -> dict[str, Any] | None:
    """`kg gauge`: fold one status-line frame into the gauge file (atomic); the record written, or None."""
    path = claude_path(root)
    try:
        previous = user_files.load_json(path)
    except (OSError, ValueError):
        previous = None
    record = gauges.claude_record(frame, previous, now)
    if record is not None:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # the store, private as the server makes it
        files.write_atomic(path, files.dump_json(record), False)
    return record


def codex_home(env: Mapping[str, str]) -> Path:
    return Path(env.get("CODEX_HOME") or os.path.expanduser("~/.codex"))


def codex_rollout(path: object, env: Mapping[str, str]) -> Path | None:
    """A hook payload's `transcript_path` as a Codex rollout to read: a `rollout-*.jsonl` regular file under
    CODEX_HOME or ~/.codex (transcripts.safe_transcript); None for anything else."""
    home = Path(env.get("HOME") or os.path.expanduser("~"))
    safe = transcripts.safe_transcript(path if isinstance(path, str) else None, home, env.get("CODEX_HOME") or "")
    return safe if safe is not None and safe.name.startswith("rollout-") else None


def _tail(path: Path) -> tuple[str, bool]:
    data, cut = user_files.read_tail(path, TAIL_BYTES)  # a FIFO named like a rollout is an OSError, not a hang
    return data.decode("utf-8", errors="replace"), cut


def read_codex(home: Path, now: float, max_age: float) -> Reading | str:
    base = home / "sessions"
    if not base.is_dir():
        return f"no Codex session logs under {base}"
    problems: list[OSError] = []

    def fail(exc: OSError) -> None:
        problems.append(exc)

    found: list[tuple[Reading | str | None, float]] = []
    for folder, _, names in os.walk(base, onerror=fail):
        for name in names:
            if not (name.startswith("rollout-") and name.endswith(".jsonl")):
                continue
            path = Path(folder) / name
            try:
                written = path.stat().st_mtime
                if now - written > max_age:
                    continue
                text, cut = _tail(path)
            except OSError as exc:
                problems.append(exc)
                continue
            event, at = gauges.codex_tail_at(text, now, cut)
            found.append((event, written if at is None else at))  # an event without a time: its file's
    if problems:
        return f"Codex session logs not fully readable: {problems[0]}"
    return gauges.newest(found)


def read_codex_rollout(path: Path, now: float) -> Reading | str:
    """One session's own rollout (budget notices)."""
    try:
        text, cut = _tail(path)
    except OSError as exc:
        return f"{path.name}: {exc}"
    return gauges.codex_tail(text, now, cut) or "no rate_limits event in the session's rollout"


async def read_agy(binary: str, cwd: Path, env: Mapping[str, str], now: float, model: str | None = None,
                   timeout: float = AGY_USAGE_TIMEOUT) -> Reading | str:
    import trio  # here: `kg mcp` and `kg gauge` import this module, and trio costs them ~0.2 s

    try:
        with trio.move_on_after(timeout) as scope:
            done = await trio.run_process([binary, "-p", "/usage", "--output-format", "json"], cwd=str(cwd),
                                          env=dict(env), stdin=b"", capture_stdout=True, capture_stderr=True,
                                          check=False, start_new_session=True)
    except OSError as exc:
        return f"agy /usage could not start: {exc}"
    if scope.cancelled_caught:
        return f"agy /usage did not answer within {timeout:g} s"
    if done.returncode != 0:
        return f"agy /usage exited {done.returncode}"
    try:
        data = strict_json.loads(done.stdout)
    except ValueError:
        return "agy /usage did not print JSON"
    return gauges.agy_reading(data, now, model)
