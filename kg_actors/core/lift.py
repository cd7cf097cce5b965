"""Lift clusters: dated episodes that share a lesson nobody has written down yet.

An instance-shaped id carries a date, an episode word (session, review, ...)
or a series part (week3, sprint2, day4, ...). It is already lifted when it has
an outgoing `instance-of` edge. Two unlifted instances link on a shared touch,
a direct edge, or at least three shared neighbours; a touch or neighbour held
by too many instances (a project hub every session links to) links nothing.
Components of two or more are cut to five, breadth-first from the best-linked
member. Matching is on id parts (split on `-`, `_`, `.`), never substrings.
"""

from __future__ import annotations

import re
from collections import deque
from functools import lru_cache

from . import constants as C
from .anchors import parse_touch
from .ids import has_date
from .model import GraphReader

EPISODE_WORDS = frozenset({
    "session", "review", "audit", "retro", "postmortem", "debrief", "handover", "standup", "recap",
    "snapshot", "status", "incident",
})
_SERIES = re.compile(r"(?:week|sprint|day|iter|iteration|round|run)\d+")
_ID_PARTS = re.compile(r"[-_.]+")


@lru_cache(maxsize=1 << 17)
def is_instance_id(node_id: str) -> bool:
    """An id that names one dated or numbered episode rather than a subject."""
    if has_date(node_id):
        return True
    for part in _ID_PARTS.split(node_id.lower()):
        if part in EPISODE_WORDS or (part.endswith("s") and part[:-1] in EPISODE_WORDS):
            return True
        if _SERIES.fullmatch(part):
            return True
    return False


def is_lifted(graph: GraphReader, node_id: str) -> bool:
    return any(e.src == node_id and e.rel == C.INSTANCE_OF_REL for e in graph.incident(node_id))


def _touch_key(touch: str) -> str:
    path = parse_touch(touch)
    return "t:" + (path if path is not None else touch.strip().lower())


def _components(graph: GraphReader) -> tuple[list[list[str]], dict[str, set[str]]]:
    """Linked components (two or more unlifted active instances) and the link map."""
    instances = sorted(
        i for i in graph.ids_in_state("active") if is_instance_id(i) and not is_lifted(graph, i)
    )
    if len(instances) < 2:
        return [], {}
    members = set(instances)
    key_cap = max(C.LIFT_KEY_MAX_HOLDERS, C.LIFT_KEY_MAX_SHARE * len(instances))
    touch_holders: dict[str, set[str]] = {}
    neighbour_holders: dict[str, set[str]] = {}
    links: dict[str, set[str]] = {i: set() for i in instances}
    for node_id in instances:
        for touch in graph.nodes[node_id].touches:
            touch_holders.setdefault(_touch_key(touch), set()).add(node_id)
        for edge in graph.incident(node_id):
            other = edge.other(node_id)
            if other == node_id:
                continue
            if other in members:
                links[node_id].add(other)
                links[other].add(node_id)
            else:
                neighbour_holders.setdefault(other, set()).add(node_id)
    for holders in touch_holders.values():
        if 2 <= len(holders) <= key_cap:
            for node_id in holders:
                links[node_id] |= holders - {node_id}
    shared: dict[tuple[str, str], int] = {}
    for holders in neighbour_holders.values():
        if 2 <= len(holders) <= key_cap:
            ordered = sorted(holders)
            for a_index, a in enumerate(ordered):
                for b in ordered[a_index + 1:]:
                    shared[(a, b)] = shared.get((a, b), 0) + 1
    for (a, b), count in shared.items():
        if count >= C.LIFT_MIN_SHARED_NEIGHBOURS:
            links[a].add(b)
            links[b].add(a)
    seen: set[str] = set()
    components: list[list[str]] = []
    for start in instances:
        if start in seen or not links[start]:
            continue
        component = _bfs(start, links)
        seen.update(component)
        components.append(component)
    return components, links


def _bfs(start: str, links: dict[str, set[str]], limit: int | None = None) -> list[str]:
    order = [start]
    found = {start}
    queue = deque([start])
    while queue and (limit is None or len(order) < limit):
        for other in sorted(links[queue.popleft()]):
            if other not in found:
                found.add(other)
                order.append(other)
                if limit is not None and len(order) >= limit:
                    break
                queue.append(other)
    return order


def lift_clusters(graph: GraphReader) -> tuple[list[list[str]], set[str]]:
    """Clusters cut to `LIFT_CLUSTER_MAX`, largest first, and every id of every uncut component.

    A cut runs breadth-first from the best-linked member (ties by id), so the
    cluster a lift chore sees is the tightest part of a long series.
    """
    components, links = _components(graph)
    clusters: list[list[str]] = []
    for component in components:
        best = min(component, key=lambda i: (-len(links[i]), i))
        clusters.append(_bfs(best, links, C.LIFT_CLUSTER_MAX))
    clusters.sort(key=lambda c: (-len(c), c[0]))
    return clusters, {i for c in components for i in c}
