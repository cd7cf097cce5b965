"""PostToolUse: file recall for the files a tool call used, else a capture nudge; pushes ride along.

File recall names the lessons that touch the files (project first, then
user), those the session has not seen, at most FILE_RECALL_MAX_NODES within a
character budget, throttled per session. A nudge to capture a lesson comes
when the same file is read (or the same page fetched) again and again and no
node mentions it, throttled per target and per session.
"""

from __future__ import annotations

import os
from collections.abc import Set as AbstractSet
from typing import Any

import attrs
import trio

from .. import session_messages as sm
from ..core import capture, replies, secrecy, touches
from ..core import constants as C
from ..core.replies import hook_output
from ..core.seen import Ref
from ..harness import profiles, tool_calls
from ..session_messages import SessionView
from ..core.errors import InvalidInput
from ..storage import layout as L, work_trees
from .floor import Floor
from .hook_identity import (from_subagent, held_for_this_reply, object_field, push_for, resolve, seen_once_sent,
                            text_field, views_of)
from .read_views import recent_scores


async def tool_event(floor: Floor, payload: dict[str, Any]) -> dict[str, Any]:
    if from_subagent(payload):
        return {}
    call = await resolve(floor, payload)
    view, harness, root = call.view, call.harness, call.root
    if view is None:
        return {}
    tool = text_field(payload, "tool_name")
    tool_input = object_field(payload, "tool_input")
    # Relative paths are the agent's cwd's, which may be below the project root (a git work tree's).
    given = payload.get("cwd")
    cwd = given if isinstance(given, str) and os.path.isabs(given) else root
    paths = _as_the_repositorys(floor, given, view.project_path, await _files(tool, tool_input, cwd, harness, payload))
    parts: list[str] = []
    covered = False
    shown: tuple[Ref, ...] = ()
    if paths:
        text, covered, shown = await _file_recall(floor, view, tool, paths)
        if text:
            parts.append(text)
    if not parts and not covered:
        nudge = await _nudge(floor, view, harness, tool, tool_input, paths, payload)
        if nudge:
            parts.append(nudge)
    push = await push_for(floor, call, shown)
    if push:
        parts.append(push)
    return hook_output("PostToolUse", "\n\n".join(parts)) if parts else {}


def _as_the_repositorys(floor: Floor, cwd: object, project: str | None, paths: list[str]) -> list[str]:
    """In a linked worktree of the session's repository, its files named as the main checkout's: its
    lessons' touches name those (and a file read in both counts as one)."""
    try:
        found = floor.bindings.worktree(cwd) if paths and project else None
    except (InvalidInput, ValueError, OSError):
        return paths  # a cwd that names no folder: paths as they are
    return work_trees.as_in_checkout(paths, *found) if found is not None and found[1] == project else paths


async def _files(tool: str, tool_input: dict[str, Any], cwd: str | None, harness: profiles.Harness,
                 payload: dict[str, Any]) -> list[str]:
    """The existing files (real paths) a tool call read or edited; at most 8."""
    ops = tool_calls.operands(tool, tool_input, cwd)
    if ops is None:
        return []
    if ops.needs_thread(harness):
        return await trio.to_thread.run_sync(tool_calls.files_of, ops, cwd, harness, payload, L.home())
    # A few stats of files the agent just used (their metadata is cached): a thread hop
    # would cost more, waiting for the GIL while the loop is busy.
    return tool_calls.files_of(ops, cwd, harness, payload, L.home())


async def _file_recall(floor: Floor, view: SessionView, tool: str,
                       paths: list[str]) -> tuple[str | None, bool, tuple[Ref, ...]]:
    """(the recall's text, whether lessons name these files at all, what it shows)."""
    now = floor.clock()
    found: dict[tuple[str, str], tuple[float, Any]] = {}
    for lvl, _, gview in reversed(await views_of(floor, view)):  # project first, then user
        index, graph = gview.touch_index, gview.graph
        scores = None
        for path in paths:
            for node_id in index.get(path):
                node = graph.nodes.get(node_id)
                # Every tier, orphaned too (the one no read shows); shown here, never promoted.
                if node is None or not node.gist or (lvl, node_id) in found:
                    continue
                if scores is None:
                    scores = recent_scores(gview, now)
                found[(lvl, node_id)] = (scores.get(node_id, 0.0), graph.lineage.mask.node(node))  # as agents see it
    base = {"ts": now, "project": view.project_path, "claude_session": view.claude_sid,
            "kg_session": view.sid, "reason": "file_recall", "tool": tool, "files": paths}
    if not found:
        floor.logs.recall([{**base, "outcome": "no_nodes"}])
        return None, False, ()
    unseen = [(ref, score, node) for ref, (score, node) in found.items() if ref not in view.seen]
    if not unseen:
        floor.logs.recall([{**base, "outcome": "all_seen", "nodes": [r[1] for r in found]}])
        return None, True, ()
    if not await floor.sessions.claim_file_recall(sid=view.sid, now=now):
        floor.logs.recall([{**base, "outcome": "throttled", "nodes": [r[0][1] for r in unseen]}])
        return None, True, ()
    unseen.sort(key=lambda t: (-t[1], -(t[2].last_read_ts or 0), t[0][1]))
    names = ", ".join(capture.file_key(p, view.project_path) for p in paths)

    async def decide(seen: AbstractSet[Ref]) -> _FileRecall:
        rows = [(ref[0], node.id, node.gist) for ref, _, node in unseen if ref not in seen]
        if not rows:
            return _FileRecall()
        rows = rows[: C.FILE_RECALL_MAX_NODES]
        text, shown, cut = replies.file_recall_text(names, rows)
        levels = {node_id: lvl for lvl, node_id, _ in rows}
        return _FileRecall(text, tuple((levels[i], i) for i in shown), frozenset((levels[i], i) for i in cut))

    picked = await held_for_this_reply(floor, view.sid, view.seen, now, decide, lambda _: _FileRecall())
    shown = [i for _, i in picked.shown]
    if picked.text is None or not shown:  # another reply of this turn is showing them
        floor.logs.recall([{**base, "outcome": "all_seen", "nodes": [r[0][1] for r in unseen]}])
        return None, True, ()
    await seen_once_sent(floor, sm.MarkSeen(sid=view.sid, refs=list(picked.shown), via="file", at=now,
                                            cut=picked.cut))
    floor.logs.recall([{**base, "outcome": "injected", "nodes": shown, "chars": len(picked.text),
                        "withheld": len(unseen) - len(shown)}])
    return picked.text, True, picked.shown


@attrs.frozen
class _FileRecall:
    text: str | None = None
    shown: tuple[tuple[str, str], ...] = ()
    cut: frozenset[tuple[str, str]] = frozenset()  # of `shown`, those whose gist was cut short


async def _nudge(floor: Floor, view: SessionView, harness: profiles.Harness, tool: str,
                 tool_input: dict[str, Any], paths: list[str], payload: dict[str, Any]) -> str | None:
    if view.project_path is None:
        return None
    target = capture.web_target(tool, tool_input)
    if target is None:
        counts_as_read = tool == "Read" or (tool in tool_calls.SHELL_TOOLS and harness.shell_reads_count)
        if not counts_as_read or not paths:
            return None
        path = paths[0]
        if capture.is_noise(path, str(L.home())) or not L.project_root_ok(path):
            return None
        target = ("read", capture.file_key(path, view.project_path))
    kind, needle = target
    # A URL or a query carrying a token is neither counted on disk nor suggested for memory; a query
    # is read as typed (the counted key is lowercased, and an AWS key id is upper case).
    if secrecy.find(needle) is not None or any(secrecy.find(v) is not None for v in _raw_values(tool_input)):
        return None
    key = f"{kind}:{needle}"
    now = floor.clock()
    events_path = str(floor.layout.tool_events(await floor.directory.project_key(view.project_path)))
    harness_sid = text_field(payload, "session_id") or "unknown"
    record = await floor.sessions.tool_event(path=events_path, key=key, harness_sid=harness_sid, now=now)
    if not capture.repeated(kind, record) or now - record.get("nudged_ts", -1e18) < C.NUDGE_TARGET_COOLDOWN_SECONDS:
        return None
    probe = os.path.basename(needle) if kind == "read" else needle
    for _, handle, gview in await views_of(floor, view):
        if not handle.index_ready or gview.index is None:
            return None  # while the first index builds, stay silent rather than scan the graph
        if touches.mentions(gview.graph, probe, gview.index):
            return None
    if not await floor.sessions.claim_nudge(path=events_path, key=key, kg_sid=view.sid, now=now):
        return None
    return capture.nudge_text(kind, needle, record, view.sid, True)


def _raw_values(tool_input: dict[str, Any]) -> list[str]:
    return [v for k in ("query", "url") if isinstance(v := tool_input.get(k), str)]
