"""The session-start preload: the top-scored core of both levels within the client's limit.

Measured in the client's own unit (UTF-16 units for Claude Code, bytes for
Codex), header included. Over the limit it sheds archived anchors, then edge
citations, then whole active gists lowest score first, and says how many
gists it left out. It is a partial view and says so.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .reads import DEFAULT_SCORE, BodyLine, LevelPart, level_header


# The header's instruction to make the full read (a harness where the tools are off replaces it).
REQUIRED = ("REQUIRED before substantive work: call kg_read(session_id) once; it renders the rest of the graph "
            "without repeating these gists. Announce \"I have recalled KG Memories\" only after that read.")


def header(sid: str, levels: int = 2, loading: tuple[str, ...] = ()) -> str:
    """`levels`: the graphs shown, 1 for a user-only session (no project graph to speak of); `loading`: the
    levels of the session whose graph is still loading, so it is not shown."""
    if loading:
        still = " and ".join(f"the {lvl} graph" for lvl in loading) + (" are" if len(loading) > 1 else " is")
        shown = "the project graph" if "user" in loading else "the user graph"
        held = f"{shown if levels else 'no graph'} ({still} still loading)"
    else:
        held = "both graphs" if levels > 1 else "the user graph (no project: user memory only)"
    return (
        f"KG MEMORY PRELOADED — compact core ONLY: a PARTIAL view holding the top-scored nodes of {held}.\n"
        f"session_id: {sid} (pass it to every kg_* call)\n"
        f"{REQUIRED} "
        "Subagents never receive this preload: put the relevant gists or kg_* instructions in their prompts."
    )


def more_gists_line(n: int) -> str:
    return f"  …{n} more active gist(s) not shown (lowest-scored) — kg_read(session_id) renders the full graph"


def build(parts: list[LevelPart], scores: Mapping[str, Mapping[str, float]], debt: dict[str, str], sid: str,
          limit: int, measure: Callable[[str], int], loading: tuple[str, ...] = ()) -> tuple[str, list[tuple[str, str]]]:
    """The preload text and the (level, id) whose gists it shows.

    Lines are shed in the ladder's order (archived anchors, then edge
    citations, then whole gists, lowest value first) until the text fits.
    Both units are additive over lines (a newline is one unit), so the size is
    kept as a running total instead of re-rendering after every line: linear
    in the graph, however many active nodes a not-yet-compacted graph holds.
    """
    bodies = [list(p.body) for p in parts]
    dropped_gists = [0] * len(parts)
    removed: set[tuple[int, int]] = set()

    def render() -> str:
        out = [header(sid, len(parts), loading), ""]
        for i, part in enumerate(parts):
            out.append(level_header(part))
            out.extend(b.text for j, b in enumerate(bodies[i]) if (i, j) not in removed)
            if dropped_gists[i]:
                out.append(more_gists_line(dropped_gists[i]))
            out.append(part.health)
            if debt.get(part.level):
                out.append(debt[part.level])
        return "\n".join(out)

    def cost(text: str) -> int:
        return measure(text) + 1  # the line and its newline

    def gist_id(line: BodyLine) -> str | None:
        return line.effects["seen"][0][1] if line.effects and line.effects.get("seen") else None

    ladder: list[tuple[int, int]] = []
    for kind in ("anchor", "edge"):
        ladder += [(i, j) for _, i, j in sorted(
            (line.value, i, j) for i, body in enumerate(bodies) for j, line in enumerate(body) if line.kind == kind)]
    ladder += [(i, j) for _, i, j in sorted(_shares(bodies, parts, scores, gist_id))]

    total = measure(render())
    shed: list[tuple[int, int]] = []  # the gists shed, in the order they went
    for i, j in ladder:
        if total <= limit:
            break
        if (i, j) in removed:
            continue
        removed.add((i, j))
        total -= cost(bodies[i][j].text)
        if bodies[i][j].kind == "anchor" or gist_id(bodies[i][j]) is not None:
            # Its citations go with it: left behind, they would read as the edges of the line above.
            k = j + 1
            while k < len(bodies[i]) and bodies[i][k].kind == "edge":
                if (i, k) not in removed:
                    removed.add((i, k))
                    total -= cost(bodies[i][k].text)
                k += 1
        if gist_id(bodies[i][j]) is not None:
            shed.append((i, j))
            before = cost(more_gists_line(dropped_gists[i])) if dropped_gists[i] else 0
            dropped_gists[i] += 1
            total += cost(more_gists_line(dropped_gists[i])) - before
    # A gist shed before a longer one of higher rank comes back when it fits now, highest first: one
    # oversized gist at the top took every gist ranked under it along, into a preload left a fifth full.
    for i, j in reversed(shed[:-1]):
        more = cost(more_gists_line(dropped_gists[i]))
        fewer = cost(more_gists_line(dropped_gists[i] - 1)) if dropped_gists[i] > 1 else 0
        grown = total + cost(bodies[i][j].text) - more + fewer
        if grown <= limit:
            removed.discard((i, j))
            dropped_gists[i] -= 1
            total = grown
    bodies = [[line for j, line in enumerate(body) if (i, j) not in removed] for i, body in enumerate(bodies)]
    removed.clear()
    _drop_empty_headers(bodies)
    text = render()
    shown = [(parts[i].level, line.effects["seen"][0][1]) for i, body in enumerate(bodies)
             for line in body if line.effects and line.effects.get("seen")]
    return text, shown


def _shares(bodies: list[list[BodyLine]], parts: list[LevelPart], scores: Mapping[str, Mapping[str, float]],
            gist_id: Callable[[BodyLine], str | None]) -> list[tuple[float, int, int]]:
    """Each gist's place in its own level, lowest first, as a share (0-1): gists go in the order of these
    shares, so both levels keep their top-scored core, each in proportion. Scores alone would empty a
    level whose nodes are all fresh (unscored, DEFAULT_SCORE) beside a scored one, and ties went level
    by level, the user graph's first."""
    out = []
    for i, body in enumerate(bodies):
        level = scores[parts[i].level]
        # Ties (fresh nodes have no score) go in body order, as they always did.
        ranked = sorted((level.get(gid, DEFAULT_SCORE), j) for j, line in enumerate(body)
                        if (gid := gist_id(line)) is not None)
        out += [((k + 1) / (len(ranked) + 1), i, j) for k, (_, j) in enumerate(ranked)]
    return out


def has_room(parts: list[LevelPart], debt: dict[str, str], sid: str, limit: int,
             measure: Callable[[str], int], loading: tuple[str, ...] = ()) -> bool:
    """Whether parts without their anchors leave room under the limit for some.

    When they do not, the ladder sheds every anchor (with its citations) before
    any other line, so the preload built from anchor-free parts is the one
    built from the full parts: the archived section need not be planned.
    """
    out = [header(sid, len(parts), loading), ""]
    for part in parts:
        out += [level_header(part), *(b.text for b in part.body), part.health]
        if debt.get(part.level):
            out.append(debt[part.level])
    return measure("\n".join(out)) < limit


def _drop_empty_headers(bodies: list[list[BodyLine]]) -> None:
    """A section header with nothing left under it says nothing."""
    for body in bodies:
        for j in range(len(body) - 1, -1, -1):
            line = body[j]
            is_header = line.kind is None and not line.effects and not line.text.startswith("  ")
            if is_header and (j + 1 == len(body) or not body[j + 1].text.startswith("  ")):
                del body[j]
