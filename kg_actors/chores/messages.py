"""What the chore supervisor answers to: its messages and the typed handle callers hold."""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import trio

from .. import actor
from ..core.errors import ActorStopped


@attrs.frozen
class ChoreMessage(actor.Message[actor.R]):
    op: ClassVar[str]


@attrs.frozen
class Prompted(ChoreMessage[None]):
    """A human prompt arrived (sent after its hook reply): the one trigger a run may follow."""

    op = "prompted"
    harness_sid: str | None
    at: float


@attrs.frozen
class JobDone(ChoreMessage[None]):
    """The running job ended (the job task's own report; the supervisor logs it and frees the slot)."""

    op = "job_done"
    record: dict[str, Any]


@attrs.frozen
class RunCalled(ChoreMessage[None]):
    """A kg tool call whose MCP request carried a run's mark: counted for that run if it is the one running."""

    op = "run_called"
    mark: str
    tool: str
    wrote: bool


@attrs.frozen
class RunLive(ChoreMessage[bool]):
    """Whether a mark is the running job's: a session whose calls carry it is that run's maintenance session."""

    op = "run_live"
    mark: str


@attrs.frozen
class ChoreStatus:
    enabled: bool
    warning: str | None
    running: dict[str, Any] | None  # the job in flight: tier, runner, graph, started
    last: dict[str, Any] | None  # the last decision logged
    ignored: str | None = None  # settings read as off or left out (said, not fatal)


@attrs.frozen
class GetStatus(ChoreMessage[ChoreStatus]):
    op = "status"


BY_NAME = actor.by_name(ChoreMessage, list(globals().values()))


class ChoreHandle:
    """The supervisor's door. `prompted` never waits: a hook's request must not."""

    def __init__(self, mailbox: actor.Mailbox[ChoreMessage[Any]]):
        self._mailbox = mailbox

    def close(self) -> None:
        """Stop taking messages: the supervisor ends, and a running job is cancelled (its process group killed)."""
        self._mailbox.send.close()

    def prompted(self, harness_sid: str | None, at: float) -> None:
        try:
            self._mailbox.send.send_nowait(Prompted(harness_sid, at))
        except (trio.WouldBlock, trio.ClosedResourceError, trio.BrokenResourceError):
            pass  # a backlog of prompts says nothing the queued ones do not

    async def job_done(self, record: dict[str, Any]) -> None:
        try:
            await self._mailbox.tell(JobDone(record))
        except ActorStopped:
            pass

    async def run_called(self, mark: str, tool: str, wrote: bool) -> None:
        """Queued before the call's reply is sent: the agent exits after it, so its run's end is counted after."""
        try:
            await self._mailbox.tell(RunCalled(mark, tool, wrote))
        except ActorStopped:
            pass

    async def run_live(self, mark: str) -> bool:
        """Whether `mark` is the running job's (a stale or forged one is no run's; a stopped supervisor runs none)."""
        try:
            return await self._mailbox.ask(RunLive(mark))
        except ActorStopped:
            return False

    async def status(self) -> ChoreStatus:
        return await self._mailbox.ask(GetStatus())
