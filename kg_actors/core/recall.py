"""Prompt recall: what a person typed, its terms, the three gates, and the injection.

Only human text takes part (task notifications and image placeholders inject
nothing; a path reduces to its file name). A hit must clear a score threshold
(stricter with more terms), show evidence (two prompt terms, a near-unique
term, or a term in its own id or gist), and the injection must bring something
new. Silence is the default; every decision is returned with its reason so the
caller can log it.
"""

from __future__ import annotations

import re

import attrs

from . import constants as C
from .model import Edge, Node
from .search import Hit
from .terms import is_stopword

NOT_PROMPT_MARKERS = ("<task-notification>", "[SYSTEM NOTIFICATION", "<command-name>", "<local-command-stdout>")
_IMAGE = re.compile(r"\[Image[^\]\n]{0,200}\]")
_WORD = re.compile(r"[a-z0-9][a-z0-9_\-.]*")
FULL_READ_REMINDER = (
    "KG preload is a PARTIAL view — the full graph is NOT in context yet. Call kg_read(session_id) once "
    "before substantive work; it renders everything the preload dropped without repeating it."
)
HEADER = "KG recall — memory matching this prompt:"

Ref = tuple[str, str]


def human_text(prompt: object) -> str | None:
    """The part a person typed, paths reduced to file names; None when it is not a prompt."""
    if not isinstance(prompt, str):
        return None
    if any(marker in prompt for marker in NOT_PROMPT_MARKERS):
        return None
    text = _IMAGE.sub(" ", prompt[: C.RECALL_PROMPT_MAX_CHARS])
    words = []
    plain = 0
    for token in text.split():
        stripped = token.strip("'\"`()[]{}<>,;")
        if "/" in stripped:
            name = stripped.rstrip("/").rsplit("/", 1)[-1]
            if name:
                words.append(name)
            continue
        words.append(token)
        plain += len(token)
    if plain < C.RECALL_MIN_PROMPT_CHARS:
        return None
    return " ".join(words)


def prompt_terms(text: str) -> list[str]:
    seen: dict[str, None] = {}
    for word in _WORD.findall(text.lower()):
        word = word.strip("./-_")
        if len(word) >= C.RECALL_MIN_TERM_CHARS and not is_stopword(word):
            seen.setdefault(word)
        if len(seen) >= C.RECALL_MAX_TERMS:
            break
    return list(seen)


@attrs.frozen
class Decision:
    reason: str  # injected | no_hits | all_seen | no_terms
    text: str | None = None
    shown: tuple[Ref, ...] = ()  # refs whose gists were injected (now seen)
    hits: tuple[dict, ...] = ()
    threshold: float = 0.0


def _evidence(hit: Hit) -> bool:
    return hit.matched_terms >= 2 or hit.max_term_idf >= C.RECALL_MIN_SOLO_IDF or hit.title_match


def decide(terms: list[str], hits: list[tuple[str, Hit]], nodes: dict[Ref, Node],
           connectors: list[Ref], path_edges: list[tuple[str, Edge]], seen: frozenset[str]) -> Decision:
    if not terms:
        return Decision("no_terms")
    threshold = C.RECALL_SCORE_MULTI if len(terms) >= 2 else C.RECALL_SCORE_SINGLE
    passing = [(lvl, h) for lvl, h in hits
               if h.score >= threshold and _evidence(h) and (lvl, h.node_id) in nodes
               and not nodes[(lvl, h.node_id)].orphaned]
    logged = tuple(_hit_record(lvl, h, seen) for lvl, h in hits[:5])
    if not passing:
        return Decision("no_hits", hits=logged, threshold=threshold)
    passing.sort(key=lambda lh: (not lh[1].title_match, -lh[1].score))
    chosen = passing[: C.RECALL_MAX_HITS]
    chosen_refs = {(lvl, h.node_id) for lvl, h in chosen}
    useful_connectors = [r for r in connectors if r in nodes and r not in chosen_refs]
    if all(h.node_id in seen for _, h in chosen) and all(r[1] in seen for r in useful_connectors):
        return Decision("all_seen", hits=logged, threshold=threshold)
    text, shown = render(chosen, nodes, useful_connectors, path_edges, seen)
    return Decision("injected", text, tuple(shown), logged, threshold)


def _hit_record(level: str, hit: Hit, seen: frozenset[str]) -> dict:
    return {"id": hit.node_id, "level": level, "score": round(hit.score, 5), "seen": hit.node_id in seen,
            "title_match": hit.title_match, "matched_terms": hit.matched_terms,
            "max_term_idf": round(hit.max_term_idf, 4)}


def render(chosen: list[tuple[str, Hit]], nodes: dict[Ref, Node], connectors: list[Ref],
           path_edges: list[tuple[str, Edge]], seen: frozenset[str]) -> tuple[str, list[Ref]]:
    """The injection, trimmed to the budget: edges go first, then connectors, seen hits, low hits."""
    hit_lines = []
    for lvl, hit in chosen:
        node = nodes[(lvl, hit.node_id)]
        unseen = hit.node_id not in seen
        line = f"- [{lvl}] {node.id}: {node.gist}" if unseen else f"- [{lvl}] {node.id} (in context)"
        hit_lines.append(((lvl, hit.node_id), line, unseen))
    conn_lines = [(r, f"  - [{r[0]}] {r[1]}: {nodes[r].gist}") for r in connectors if r[1] not in seen]
    shown_ids = {r[1] for r, _, _ in hit_lines} | {r[1] for r, _ in conn_lines}
    edge_lines = []
    for _, edge in path_edges:
        line = f"  {edge.src} --{edge.rel}--> {edge.dst}"
        if edge.src in shown_ids and edge.dst in shown_ids and line not in edge_lines:
            edge_lines.append(line)

    def assemble() -> str:
        lines = [HEADER] + [line for _, line, _ in hit_lines]
        if conn_lines or edge_lines:
            lines.append("  connections:")
            lines += [line for _, line in conn_lines] + edge_lines
        return "\n".join(lines)

    text = assemble()
    while len(text) > C.RECALL_CHAR_BUDGET:
        if edge_lines:
            edge_lines.pop()
        elif conn_lines:
            conn_lines.pop()
        elif any(not unseen for _, _, unseen in hit_lines):
            idx = max(i for i, (_, _, unseen) in enumerate(hit_lines) if not unseen)
            hit_lines.pop(idx)
        elif len(hit_lines) > 1:
            hit_lines.pop()
        else:
            ref, line, unseen = hit_lines[0]
            hit_lines[0] = (ref, line[: C.RECALL_CHAR_BUDGET - len(HEADER) - 2], unseen)
            text = assemble()
            break
        text = assemble()
    shown = [ref for ref, _, unseen in hit_lines if unseen] + [ref for ref, _ in conn_lines]
    return text, shown
