"""UserPromptSubmit and PreToolUse: recall for the prompt, and lessons that name a shell command.

Until a session has made its full read, the prompt reply is the reminder to
make it, alone. A hook never waits for a first index build, nor for a graph's
first load: it answers without recall meanwhile. Every decision for a known session is logged to
recall.jsonl.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any

from .. import meaning_table, session_messages as sm
from ..core import asks, command_recall, recall, secret_logs
from ..core.replies import hook_output, nothing_to_print
from ..core.seen import Ref
from ..harness import shell
from ..harness.tool_calls import SHELL_TOOLS, shell_command
from ..session_messages import SessionView
from .floor import Floor
from .hook_identity import (from_subagent, held_for_this_reply, object_field, push_for, resolve, seen_once_sent,
                            text_field, views_of)
from .read_views import indexed


def is_prompt_payload(payload: dict[str, Any]) -> bool:
    """What a harness sends for a prompt: its session's id and the prompt as text. A payload without them
    asks nothing of memory, and gets nothing: neither the reminder nor a line of the hook's pool."""
    return bool(text_field(payload, "session_id")) and isinstance(payload.get("prompt"), str)


async def prompt_context(floor: Floor, payload: dict[str, Any], nudge: bool = True) -> dict[str, Any]:
    """`nudge=False`: the kg tools are off where the agent runs (an untrusted Gemini folder): no reminder of a
    full read that cannot be made."""
    return (await prompt_reply(floor, payload, nudge))[0]


async def prompt_reply(floor: Floor, payload: dict[str, Any], nudge: bool = True) -> tuple[dict[str, Any], bool]:
    """The prompt's hook output, and whether it holds lessons the session now counts as seen (recall, or
    other sessions' writes): a harness that drops a turn's text after that turn must keep these (OpenCode's plugin)."""
    if not is_prompt_payload(payload):
        return nothing_to_print(), False
    call = await resolve(floor, payload, push_before_full_read=False, loading_peeks=True)  # the reminder comes alone
    view = call.view
    if view is None:
        return {}, False
    base = {"ts": floor.clock(), "project": view.project_path, "claude_session": view.claude_sid,
            "kg_session": view.sid}
    if view.full_read_ts is None:
        floor.logs.recall([{**base, "reason": "full_read_nudge" if nudge else "tools_off"}])
        if not nudge:
            return {}, False
        # A session whose preload never arrived was never named to the agent: the reminder names it.
        reminder = recall.FULL_READ_REMINDER if view.preload_given else recall.no_preload_reminder(view.sid)
        return hook_output("UserPromptSubmit", reminder), False
    if call.loading:
        # Its graphs are loading (a start on a big store: seconds): this prompt is answered at once, without
        # recall, rather than after the hook gave up; pushes come with a later reply (the window was not claimed).
        floor.logs.recall([{**base, "reason": "index_building"}])
        return {}, False
    parts: list[str] = []
    shown: tuple[Ref, ...] = ()
    text = recall.human_text(payload.get("prompt"))
    terms = recall.prompt_terms(text) if text else []
    if text is None:
        floor.logs.recall([{**base, "reason": "not_a_prompt"}])
    elif not terms:
        floor.logs.recall([{**base, "reason": "no_terms"}])
    else:
        shown_at = floor.clock()  # before the graphs are read: a write applied meanwhile is not "seen"
        decision = await _recall(floor, view, text, terms)
        record = {**base, "reason": decision.reason, "terms": secret_logs.loggable_terms(text, terms, payload.get("prompt")),
                  "threshold": decision.threshold,
                  "hits": list(decision.hits)}
        if decision.text:
            parts.append(decision.text)
            shown = decision.shown
            record["chars"] = len(decision.text)
            await seen_once_sent(floor, sm.MarkSeen(sid=view.sid, refs=list(decision.shown), via="ambient",
                                                    at=shown_at, cut=decision.cut))
        floor.logs.recall([record])
    push = await push_for(floor, call, shown)
    if push:
        parts.append(push)
    return (hook_output("UserPromptSubmit", "\n\n".join(parts)), True) if parts else ({}, False)


async def _recall(floor: Floor, view: SessionView, text: str, terms: list[str]) -> recall.Decision:
    async def decide(seen: AbstractSet[Ref]) -> recall.Decision:
        graphs = indexed(await views_of(floor, view))
        if graphs is None:
            return recall.Decision("index_building")
        # No await from here on: the views stay consistent.
        return recall.run(terms, graphs, seen, asks.ask_scale(text), "?" in text, text, meaning_table.shipped())

    return await held_for_this_reply(floor, view.sid, view.seen, floor.clock(), decide,
                                     lambda d: recall.Decision("all_seen", hits=d.hits, threshold=d.threshold))


async def pre_tool(floor: Floor, payload: dict[str, Any]) -> dict[str, Any]:
    """Lessons naming the command about to run, as additionalContext; never a permission decision.

    Decisions where the spec is silent: no full read is required (like file recall, this is
    about one concrete action); other sessions' writes do not ride along here (they come
    with the PostToolUse reply right after); a session's seen set keeps a gist from coming twice.
    """
    tool = text_field(payload, "tool_name")
    tool_input = object_field(payload, "tool_input")
    if tool not in SHELL_TOOLS or from_subagent(payload):
        return {}
    words = shell.invocations(shell_command(tool_input))
    if not words:
        return {}
    call = await resolve(floor, payload, push_before_full_read=False)
    view = call.view
    if view is None:
        return {}
    now = floor.clock()

    async def decide(seen: AbstractSet[Ref]) -> command_recall.Decision:
        graphs = indexed(await views_of(floor, view))
        if graphs is None:
            return command_recall.Decision("index_building")
        # No await from here to the decision: the views stay consistent.
        return command_recall.decide(words, graphs, seen)

    decision = await held_for_this_reply(floor, view.sid, view.seen, now, decide,
                                         lambda d: command_recall.Decision("all_seen", keys=d.keys, found=d.found))
    if decision.reason in ("no_command", "index_building"):
        return {}
    record = {"ts": now, "project": view.project_path, "claude_session": view.claude_sid, "kg_session": view.sid,
              "reason": "command_recall", "outcome": decision.reason, "keys": list(decision.keys),
              "nodes": [i for _, i in decision.shown] or list(decision.found)}
    if decision.text:
        record["chars"] = len(decision.text)
        await seen_once_sent(floor, sm.MarkSeen(sid=view.sid, refs=list(decision.shown), via="ambient", at=now,
                                                cut=decision.cut))
    floor.logs.recall([record])
    return hook_output("PreToolUse", decision.text)

