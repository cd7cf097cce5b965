"""Tool events: which target a tool call reads or fetches, and when repetition earns a nudge.

A nudge fires only when repetition shows a gap: a file read in a second
distinct session, or the same URL or query fetched twice, that no node
mentions. Throttles: one nudge per session per 10 minutes, three per
session, one per target per day. First reads never nudge; transient paths
never count.
"""

from __future__ import annotations

import hashlib
import posixpath
from typing import Any

from . import constants as C
from . import secrecy

NOISE = ("/tmp/", "/node_modules/", "/venv/", "/.venv/", "/__pycache__/", "/.git/", "/dist/", "/build/",
         "/.claude/", "/.codex/", "/.knowledge-graph/", "/scratchpad/", "/.cache/", "/site-packages/")


def is_noise(path: str, home: str | None = None) -> bool:
    """A transient path (dependencies, virtualenvs, temp and build output, VCS and tool state).

    Inside the home folder only the part below it is judged, so a home that
    itself lives under /tmp (a container, a test) does not make every file noise.
    """
    p = path if path.endswith("/") else path + "/"
    if home:
        h = home.rstrip("/") + "/"
        if p.startswith(h):
            p = "/" + p[len(h):]
    return any(n in p for n in NOISE) or p.startswith("/tmp/") or p.startswith("/var/tmp/")


def file_key(path: str, root: str | None) -> str:
    """A file as counted: relative to the project when inside it, else its absolute path."""
    if root and (path == root or path.startswith(root.rstrip("/") + "/")):
        return posixpath.relpath(path, root)
    return path


def web_target(tool_name: str, tool_input: dict[str, Any]) -> tuple[str, str] | None:
    """What a fetch or a search is counted as, kept in the project's tool_events.json: a URL without its
    query and fragment (a reset link's `code=`, a `key=`, a session), a query that holds a secret by a
    digest of it only."""
    if tool_name == "WebFetch" and isinstance(tool_input.get("url"), str):
        url = tool_input["url"].strip()[:2000]
        return "web", _withheld(url.split("#", 1)[0].split("?", 1)[0])
    if tool_name == "WebSearch" and isinstance(tool_input.get("query"), str):
        return "search", _withheld(" ".join(tool_input["query"].lower().split())[:500])
    return None


def _withheld(target: str) -> str:
    if secrecy.find(target) is None:
        return target
    return "withheld-" + hashlib.sha256(target.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def count_event(events: dict[str, Any], key: str, harness_sid: str, now: float) -> dict[str, Any]:
    record: dict[str, Any] = events.setdefault("events", {}).setdefault(key, {"count": 0, "sessions": []})
    record["count"] += 1
    sessions = [s for s in record["sessions"] if s != harness_sid] + [harness_sid]
    record["sessions"] = sessions[-C.TOOL_EVENT_SESSIONS_KEPT:]
    record["last_ts"] = now
    return record


def repeated(kind: str, record: dict[str, Any]) -> bool:
    if kind == "read":
        return len(record.get("sessions", [])) >= C.NUDGE_FILE_MIN_SESSIONS
    return bool(record.get("count", 0) >= C.NUDGE_WEB_MIN_COUNT)


def throttle_allows(events: dict[str, Any], record: dict[str, Any], kg_sid: str, now: float) -> bool:
    if now - record.get("nudged_ts", -1e18) < C.NUDGE_TARGET_COOLDOWN_SECONDS:
        return False
    t = events.get("throttle", {}).get(kg_sid, {})
    return bool(t.get("count", 0) < C.NUDGE_MAX_PER_SESSION and now - t.get("last_ts", -1e18) >= C.NUDGE_COOLDOWN_SECONDS)


def record_nudge(events: dict[str, Any], record: dict[str, Any], kg_sid: str, now: float) -> None:
    record["nudged_ts"] = now
    t = events.setdefault("throttle", {}).setdefault(kg_sid, {"count": 0})
    t["count"] += 1
    t["last_ts"] = now


def prune(events: dict[str, Any], now: float) -> None:
    """Keep the newest 500 targets, and throttles touched in the last week."""
    table = events.get("events", {})
    if len(table) > C.TOOL_EVENTS_MAX_KEYS:
        keep = sorted(table, key=lambda k: table[k].get("last_ts", 0), reverse=True)[: C.TOOL_EVENTS_MAX_KEYS]
        events["events"] = {k: table[k] for k in keep}
    throttle = events.get("throttle", {})
    events["throttle"] = {k: v for k, v in throttle.items() if now - v.get("last_ts", 0) <= 7 * C.DAY_SECONDS}


def nudge_text(kind: str, needle: str, record: dict[str, Any], kg_sid: str, has_project: bool) -> str:
    if kind == "read":
        why = f"read in {len(record['sessions'])} distinct sessions now"
    elif kind == "web":
        why = f"fetched {record['count']} times now"
    else:
        why = f"searched {record['count']} times now"
    level = "project" if has_project else "user"
    touch = f", touches=['{needle}']" if kind == "read" else ""
    return (
        f"KG capture: '{needle}' — {why}, and no memory node references it. If you worked something out "
        "from it, write the bottom line down while it is in view: "
        f"kg_put_node(session_id='{kg_sid}', level='{level}', id='<subject in 3-5 words>', "
        f"gist='<what it tells you>'{touch})"
    )
