"""The Antigravity adapter's use cases: its hooks, its acknowledgements, and its large MCP replies.

Antigravity cuts MCP results above about 10 KB. A tool reply over
delivery.INLINE_BYTES becomes a short receipt, and the reply waits in the
conversation's queue (the delivery registry) for the next PreInvocation hook.
What any queued text implies (seen state, reads and promotions, paging, pushes)
is held (deferral.py) while it is composed and applied only when the hook
acknowledges the packet that carried its last byte. The hook decisions
themselves are the hook use cases' (hook_session, hook_recall, hook_tool): payloads are translated (harness/antigravity.py),
never decided here.
"""

from __future__ import annotations

import logging
import os
from typing import Any, Protocol

import attrs
import trio

from .. import deferral
from .. import graph_messages as gm
from ..core import delivery
from ..delivery_messages import DeliveryHandle
from ..harness import antigravity as agy
from ..harness import profiles
from . import hook_recall, hook_session, hook_tool, prompt_reminder
from .floor import Floor

log = logging.getLogger(__name__)

NO_HOOKS = ("This reply is {size:,} bytes, more than Antigravity passes back from a tool (it cuts results above "
            "about 10 KB), and no kg memory hook has reached the server from this conversation to deliver it in "
            "parts. Ask the user to run `kg setup` (it installs the kg-memory Antigravity plugin with its hooks), "
            "check `agy -p /hooks`, and start a new conversation. Nothing this reply showed counts as seen.")
RECEIPT = ("{tool}: the reply ({size:,} bytes) is larger than Antigravity passes back from a tool, so kg memory "
           "queued it; the next hook (before your next model step) delivers it as 'KG context — {tool}'. "
           "Follow its continuation line if it says more follows.{dropped}")


@attrs.frozen
class HookAnswer:
    output: dict[str, Any]  # what the hook prints ({}: nothing)
    packet: int | None  # the delivery packet it carries, to acknowledge
    prompt: dict[str, Any] | None = None  # a human prompt arrived: its Claude-shaped payload (chores, budget)


class Notices(Protocol):
    async def due(self, payload: dict[str, Any], now: float) -> str | None: ...


class Antigravity:
    def __init__(self, floor: Floor, deliveries: DeliveryHandle, notices: Notices | None = None):
        self.floor = floor
        self.deliveries = deliveries
        self.notices = notices  # the budget notices a prompt may be due (chores/budget_notices.py)

    # Hooks -------------------------------------------------------------------------
    async def hook(self, event: str, payload: dict[str, Any]) -> HookAnswer:
        """The hook's output and the packet it carries (to acknowledge), for any payload; {} when not ours."""
        if event not in agy.ACTED_ON or not agy.is_cli_payload(payload):
            return HookAnswer({}, None)
        translated = agy.tool_payload(payload) if event == agy.POST_TOOL_USE else None
        if event == agy.POST_TOOL_USE and translated is None:
            return HookAnswer({}, None)  # a tool the adapter does not recall for, or not a tool call at all
        asked = None
        conv = payload["conversationId"]
        known = await self.deliveries.note_hook(conv, self.floor.clock())
        if event == agy.SESSION_START or not known.hooked:
            # A new conversation (or one the server has not heard from since it started): a fresh queue
            # and, ahead of everything, the preload.
            await self.deliveries.reset(conv)
            await self._preload(payload)
            await self._skip_transcript(conv, payload)
        elif event == agy.PRE_INVOCATION:
            prompt = await self._transcript(conv, payload, known.transcript_offset)
            if prompt is not None and agy.first_invocation(payload):
                asked = {**agy.base_payload(payload), "prompt": prompt}
                await self._queue(conv, "prompt recall", prompt_reminder.prompt_context, asked)
                notice = await self.notices.due(asked, self.floor.clock()) if self.notices else None
                if notice:
                    await self.deliveries.enqueue(conv, "budget", notice, [])
        if translated is not None:
            await self._queue(conv, "file recall", hook_tool.tool_event, translated)
        if event != agy.PRE_INVOCATION:
            return HookAnswer({}, None)  # only PreInvocation can inject; the rest waits for it
        packet = await self.deliveries.next_packet(conv)
        if packet is None:
            return HookAnswer({}, None, asked)
        return HookAnswer(agy.inject(packet.text), packet.id, asked)

    async def _preload(self, payload: dict[str, Any], source: str = "startup") -> None:
        """`source="compact"`: a checkpoint's summary kept no gists; the core comes again, as after Claude
        Code's compaction."""
        base = agy.base_payload(payload)
        if source == "startup":
            view = await self.floor.sessions.find_by_claude(claude_sid=payload["conversationId"])
            if view is not None and not view.given:
                # Known (a restart since), but its preload never reached it: nothing of it is in context.
                source = "compact"
        with deferral.holding() as held:
            out = await hook_session.bootstrap(self.floor, base["cwd"], base["session_id"], source, base["transcript_path"])
        if out.get("context"):
            await self.deliveries.enqueue(payload["conversationId"], "preload", out["context"], held, first=True)

    async def _queue(self, conv: str, kind: str, decide: Any, translated: dict[str, Any]) -> None:
        with deferral.holding() as held:
            out = await decide(self.floor, translated)
        text = (out.get("hookSpecificOutput") or {}).get("additionalContext")
        if text:
            await self.deliveries.enqueue(conv, kind, text, held)

    async def _skip_transcript(self, conv: str, payload: dict[str, Any]) -> None:
        """A new conversation starts reading its transcript from where it is now."""
        path = agy.transcript_path(payload)
        if path and os.path.isfile(path):
            try:
                await self.deliveries.set_transcript_offset(conv, os.path.getsize(path))
            except OSError:
                pass

    async def _transcript(self, conv: str, payload: dict[str, Any], offset: int) -> str | None:
        """Reads the transcript's new lines: a checkpoint resets the session and the queue; the newest
        user request is returned (None: no new prompt)."""
        path = agy.transcript_path(payload)
        if not path or agy.CLI_MARKER not in path:
            return None
        try:
            end, data = await trio.to_thread.run_sync(agy.read_new, path, offset)
        except OSError:
            return None
        await self.deliveries.set_transcript_offset(conv, end)
        checkpoint, request = agy.scan(data)
        if checkpoint:
            # The summary kept part of what was shown: what was queued is dropped, and the session's context
            # state is reset with a fresh core preload ahead of everything (bootstrap's compaction).
            await self.deliveries.reset(conv)
            await self._preload(payload, "compact")
        return request

    async def ack(self, payload: dict[str, Any]) -> int:
        """Apply what the acknowledged packet completed; how many replies that was (0: nothing to ack)."""
        conv = agy.conversation(payload.get("conversationId"))
        packet_id = payload.get("delivery_id")
        if conv is None or not isinstance(packet_id, int) or isinstance(packet_id, bool):
            return 0
        completed = await self.deliveries.ack(conv, packet_id)
        for held in completed:
            await self.apply(held)
        return len(completed)

    async def apply(self, held: list[deferral.Held]) -> None:
        view = None
        for message, answer in await deferral.replay(held):
            if isinstance(message, gm.RecordReads) and isinstance(answer, dict):
                for node_id, (was_promoted, rescued) in answer.items():
                    if not was_promoted:
                        continue
                    view = view or await self._view_of(held)
                    key = getattr(held_mailbox(held, message), "name", "").removeprefix("graph ")
                    self.floor.publish({"type": "node_recalled", "level": "user" if key == "user" else "project",
                                         "id": node_id, "rescued_from_orphan": rescued,
                                         "source_session": view[0], "project_path": view[1]})

    async def _view_of(self, held: list[deferral.Held]) -> tuple[str | None, str | None]:
        sid = next((getattr(h.message, "sid", None) for h in held if getattr(h.message, "sid", None)), None)
        view = await self.floor.sessions.get(sid=sid) if sid else None
        return (sid, view.project_path if view else None)

    # MCP -------------------------------------------------------------------------------
    async def call_tool(self, tools: Any, name: str, arguments: dict[str, Any], conv: str,
                        takes_session: bool) -> Any:
        """A tool call from an Antigravity conversation: inline when small, else queued for the hooks.

        Returns the tool's own result, or the text that replaces it (a receipt or a refusal).
        """
        arguments = dict(arguments)
        if "session_id" not in arguments:
            # The conversation selects its KG session (the one its hooks opened).
            view = await self.floor.sessions.find_by_claude(claude_sid=conv)
            if view is not None and takes_session:
                arguments["session_id"] = view.sid
        with deferral.holding() as held:
            result = await tools.call(name, arguments, profiles.ANTIGRAVITY)
        text = result.text
        size = delivery.size(text)
        if result.is_error or size <= delivery.INLINE_BYTES:
            await self.apply(held)
            return result
        if not await self.deliveries.hooked(conv):
            return NO_HOOKS.format(size=size)
        queued = await self.deliveries.enqueue(conv, name, text, held)
        if not queued.kept:
            return (f"{name}: the reply ({size:,} bytes) is larger than this conversation's whole delivery "
                         f"queue ({delivery.QUEUE_BYTES:,} bytes); ask for less (one level, or some ids).")
        dropped = (f" To make room, {queued.dropped} older queued reply(ies) were dropped (a note says which)."
                   if queued.dropped else "")
        return RECEIPT.format(tool=name, size=size, dropped=dropped)


def held_mailbox(held: list[deferral.Held], message: object) -> object:
    return next((h.mailbox for h in held if h.message is message), None)
