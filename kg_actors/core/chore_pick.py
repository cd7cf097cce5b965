"""What one chore does: one debt category, one or two targets (up to five episodes for a lift), and its prompt.

Pure: the graph, its missing touches, the ids live sessions hold, what earlier
passes declined and what recent chores already chewed are arguments.

Guards (spec 000 "Chores"): a node a live session holds is never renamed (and
is tried last for the other kinds); nothing an earlier pass declined comes
back; a gist changed more than twice in 30 days is not rewritten again
(repeated rewriting is the pattern measured to degrade memory).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

import attrs

from . import constants as C
from .debt import DebtNodes, _behind
from .maintenance_guards import CHURN_MAX, CHURN_WINDOW_S  # noqa: F401 (named here for the picker's readers)
from .maintenance_guards import churning as gist_churning
from .model import GraphReader
from .plain_text import one_line

TARGETS = {"gist": 2, "id": 2, "edge": 1, "notes": 1, "anchor": 1, "lift": 5}
WEIGHT = {"gist": 1.0, "id": 0.5, "edge": 0.5, "anchor": 0.5, "lift": 0.25, "notes": 0.15}
REWRITING = frozenset({"gist", "notes", "anchor"})
_CHANGELOG = re.compile(r"\b(actually|turns out|no longer|superseded|used to|previously|originally|correction|"
                        r"was wrong|update:|edit:|now fixed|since fixed|revised)", re.IGNORECASE)


@attrs.frozen
class Chore:
    kind: str
    targets: tuple[str, ...]
    level: str  # the graph's level: user or project
    anchors: tuple[tuple[str, str, str], ...] = ()  # (node, touch, where it went) for an anchor chore


def churning(graph: GraphReader, node_id: str, now: float) -> bool:
    node = graph.nodes.get(node_id)
    return node is not None and gist_churning(node.gist_ts, now, node.created_ts)


def _notes_pool(graph: GraphReader, active: Iterable[str]) -> list[str]:
    return [i for i in active if sum(1 for n in graph.nodes[i].notes if _CHANGELOG.search(n)) >= 2]


def pools(graph: GraphReader, behind: DebtNodes, anchors: dict[str, tuple[str, str]]) -> dict[str, list[list[str]]]:
    """Per kind, its candidate target groups, most worth doing first."""
    nodes = graph.nodes
    return {
        "gist": [[i] for i in sorted(behind.oversized, key=lambda i: -len(nodes[i].gist))],
        "id": [[i] for i in sorted(behind.long_ids, key=lambda i: (not any(ch.isdigit() for ch in i), -len(i)))],
        "edge": [[i] for i in sorted(behind.unconnected, key=lambda i: -len(nodes[i].gist))],
        "notes": [[i] for i in sorted(_notes_pool(graph, graph.ids_in_state("active")))],
        "anchor": [[i] for i in sorted(anchors)],
        "lift": [list(c)[:TARGETS["lift"]] for c in behind.lift_clusters if len(c) >= 2],
    }


def pick_chore(graph: GraphReader, missing_touches: Collection[str], now: float, *, held: Collection[str] = (),
               declined: Collection[str] = (), recent: Collection[str] = (),
               anchors: dict[str, tuple[str, str]] | None = None) -> Chore | None:
    """The most worthwhile eligible chore, or None. `anchors`: node -> (touch, where it went), server-found."""
    behind = _behind(graph, frozenset(missing_touches), ordered=True)
    anchors = anchors or {}
    level = "user" if graph.kind == "user" else "project"
    barred = set(declined) | set(recent)
    best: tuple[float, str, list[str]] | None = None
    for kind, groups in pools(graph, behind, anchors).items():
        eligible = []
        for group in groups:
            if any(i in barred or i not in graph.nodes for i in group):
                continue
            if kind == "id" and any(i in held for i in group):
                continue  # never rename what a live session holds
            if kind in REWRITING and any(churning(graph, i, now) for i in group):
                continue
            eligible.append(group)
        if not eligible:
            continue
        eligible.sort(key=lambda g: any(i in held for i in g))  # held nodes last
        weight = WEIGHT[kind] * len(eligible)
        if best is None or weight > best[0]:
            if kind == "lift":
                targets = eligible[0]
            else:
                targets = [g[0] for g in eligible[:TARGETS[kind]]]
            best = (weight, kind, targets)
    if best is None:
        return None
    _, kind, targets = best
    found = tuple((i, *anchors[i]) for i in targets if i in anchors) if kind == "anchor" else ()
    return Chore(kind, tuple(targets), level, found)


_STEP = {
    "gist": "Each target's gist is over {limit} characters. Rewrite it to the one lesson in at most {limit} "
            "characters (kg_put_node with the same id, level and touches; move detail into notes only if it is "
            "still true and needed).",
    "id": "Each target's id is long or carries a date. Give it a short, undated, descriptive id with "
          "kg_rename_node (it carries edges and history). If no better id exists, decline it.",
    "edge": "The target has no edge. Find the node it builds on or belongs with (kg_search) and link them "
            "with kg_put_edge and a precise rel. If nothing fits, decline it.",
    "notes": "The target's notes carry a changelog (\"actually\", \"no longer\", \"superseded\"...). Re-send the "
             "node with notes that state only what is true now (kg_put_node, same id, gist and touches).",
    "anchor": "A touch of the target names a file that no longer exists. The server found where it went: "
              "{anchors}. Re-send the node (kg_put_node) with the gist verbatim, the touch replaced (or removed "
              "where it says gone), and no notes argument.",
    "lift": "The targets are dated episodes that share a lesson nobody has written down. Write that lesson "
            "ONCE as an undated principle node (kg_put_node), then link each episode to it with "
            "kg_put_edge rel=\"instance-of\". If they share no lesson, decline.",
}


def chore_prompt(chore: Chore, cwd: str | None, debt_line: str) -> str:
    """The dispatch prompt: ONE small action on the named targets, then the kg_progress stamp, then stop."""
    anchors = one_line("; ".join(f"{n}: {t} -> {w}" for n, t, w in chore.anchors)) or "none"
    where = f'cwd="{cwd}", ' if cwd else ""
    calls = "about ten" if chore.kind == "lift" else "six or seven"
    step = _STEP[chore.kind].format(limit=C.GIST_SOFT_LIMIT, anchors=anchors)
    return "\n".join([
        "You are a knowledge-graph maintenance chore. Do ONE small action, then stop. Use only the kg tools.",
        f"Graph: {chore.level}. {debt_line}",
        f"Category: {chore.kind}. Targets: {', '.join(chore.targets)}.",
        "",
        f"1. kg_read({where}ids={list(chore.targets)!r}, maintenance=true): its reply names your session_id; "
        "pass it to every later call. This is a maintenance session: your reads and rewrites stamp no use.",
        f"2. {step}",
        f'3. kg_progress(session_id=..., task_id="chore", level="{chore.level}", state={{"kind": "{chore.kind}", '
        '"targets": [...], "done": [...], "declined": [...]}) records what you did and what you declined.',
        "",
        f"Never delete a node. Never touch another node than the targets except to link to it. {calls} calls "
        "in all; when in doubt, decline and stop.",
    ])
