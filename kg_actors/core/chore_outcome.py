"""What a maintenance run did, as its outcome says it: an exit code alone cannot tell a run that paid down
debt from a model that refused, or a CLI that printed a sign-in prompt and exited 0.

The server counts the kg tool calls each run makes (its MCP requests carry the run's mark) and which of
them wrote; these pure rules turn those counts into the outcome chore_runs.jsonl and the Budget tab show.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

# Tools that change the graph when they succeed. kg_progress writes only with a `state` (without one it
# reads the trail); its stamp is how a run records what it did and declined, so it counts.
WRITE_TOOLS = frozenset({"kg_put_node", "kg_put_edge", "kg_rename_node", "kg_delete_node", "kg_delete_edge",
                         "kg_useful"})
OK = "ok"
NO_CHANGE = "no change"
NO_KG_CALL = "no kg call"


def wrote(tool: str, arguments: Mapping[str, Any] | None, is_error: bool) -> bool:
    """Whether a tool call, answered as it was, wrote to the graph."""
    if is_error:
        return False
    if tool == "kg_progress":
        return isinstance(arguments, Mapping) and arguments.get("state") is not None
    return tool in WRITE_TOOLS


@attrs.frozen
class Tally:
    """One run's kg calls so far, and how many of them wrote."""

    calls: int = 0
    writes: int = 0

    def add(self, wrote: bool) -> Tally:
        return Tally(self.calls + 1, self.writes + int(wrote))


def outcome(rc: object, timed_out: bool, calls: object, writes: object) -> str:
    """A finished run's outcome. `calls` None: a run logged before calls were counted (its exit code is all
    there is to go by)."""
    if timed_out:
        return "timed out"
    if rc != 0:
        return f"exit {rc}"
    if not isinstance(calls, int):
        return OK
    if isinstance(writes, int) and writes > 0:
        return OK
    return NO_CHANGE if calls > 0 else NO_KG_CALL


def detail(out: str, calls: object, writes: object) -> str:
    """What the Budget tab says beside an outcome: the counts, then the tail of the run's output (a run that
    never reached kg: the output alone says why)."""
    tail = out.strip()[-200:]
    if not isinstance(calls, int) or calls == 0:
        return tail
    counts = f"{calls} kg call{'s' if calls != 1 else ''}, {writes} write{'s' if writes != 1 else ''}"
    return f"{counts}; {tail}" if tail else counts
