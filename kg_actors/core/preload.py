"""The session-start preload: the top-scored core of both levels within the client's limit.

Measured in the client's own unit (UTF-16 units for Claude Code, bytes for
Codex), header included. Over the limit it sheds archived anchors, then edge
citations, then whole active gists lowest score first, and says how many
gists it left out. It is a partial view and says so.
"""

from __future__ import annotations

from collections.abc import Callable

from .reads import DEFAULT_SCORE, BodyLine, LevelPart, level_header


def header(sid: str) -> str:
    return (
        "KG MEMORY PRELOADED — compact core ONLY: a PARTIAL view holding the top-scored nodes of both graphs.\n"
        f"session_id: {sid} (pass it to every kg_* call)\n"
        "REQUIRED before substantive work: call kg_read(session_id) once; it renders the rest of the graph "
        "without repeating these gists. Announce \"I have recalled KG Memories\" only after that read. "
        "Subagents never receive this preload: put the relevant gists or kg_* instructions in their prompts."
    )


def more_gists_line(n: int) -> str:
    return f"  …{n} more active gist(s) not shown (lowest-scored) — kg_read(session_id) renders the full graph"


def build(parts: list[LevelPart], scores: dict[str, dict[str, float]], debt: dict[str, str], sid: str,
          limit: int, measure: Callable[[str], int]) -> tuple[str, list[tuple[str, str]]]:
    """The preload text and the (level, id) whose gists it shows."""
    bodies = [list(p.body) for p in parts]
    dropped_gists = [0] * len(parts)

    def render() -> str:
        out = [header(sid), ""]
        for i, part in enumerate(parts):
            out.append(level_header(part))
            out.extend(b.text for b in bodies[i])
            if dropped_gists[i]:
                out.append(more_gists_line(dropped_gists[i]))
            out.append(part.health)
            if debt.get(part.level):
                out.append(debt[part.level])
        return "\n".join(out)

    def shed(kind: str) -> bool:
        """Drop the lowest-valued line of `kind`; False when none is left."""
        best = None
        for i, body in enumerate(bodies):
            for j, line in enumerate(body):
                if line.kind == kind and (best is None or line.value < best[0]):
                    best = (line.value, i, j)
        if best is None:
            return False
        del bodies[best[1]][best[2]]
        return True

    def shed_gist() -> bool:
        best = None
        for i, body in enumerate(bodies):
            for j, line in enumerate(body):
                if line.effects and line.effects.get("seen"):
                    node_id = line.effects["seen"][0]
                    value = scores[parts[i].level].get(node_id, DEFAULT_SCORE)
                    if best is None or value < best[0]:
                        best = (value, i, j)
        if best is None:
            return False
        _, i, j = best
        del bodies[i][j]
        # Its citations go with it: they hang under a line no longer shown.
        while j < len(bodies[i]) and bodies[i][j].kind == "edge":
            del bodies[i][j]
        dropped_gists[i] += 1
        return True

    text = render()
    for step in (lambda: shed("anchor"), lambda: shed("edge"), shed_gist):
        while measure(text) > limit and step():
            text = render()
    _drop_empty_headers(bodies)
    text = render()
    shown = [(parts[i].level, line.effects["seen"][0]) for i, body in enumerate(bodies)
             for line in body if line.effects and line.effects.get("seen")]
    return text, shown


def _drop_empty_headers(bodies: list[list[BodyLine]]) -> None:
    """A section header with nothing left under it says nothing."""
    for body in bodies:
        for j in range(len(body) - 1, -1, -1):
            line = body[j]
            is_header = line.kind is None and not line.effects and not line.text.startswith("  ")
            if is_header and (j + 1 == len(body) or not body[j + 1].text.startswith("  ")):
                del body[j]
