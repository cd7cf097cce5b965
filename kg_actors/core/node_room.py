"""What one node costs its level's view alone, against the room the level gives it (spec 000 "Fresh tier").

A node whose line and the citations it brings cost more than the fresh share is never protected as new
(scoring.fresh_ids passes it over), and one that costs more than the level's whole budget can never stay in
view: the reply that saves or reads it says so, and how to keep it in view, rather than "saved" or "promoted"
for a node compaction archives in the same step.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import constants as C
from .model import Edge, GraphReader, Node
from .render import citation_line, line_cost, node_line


def fresh_share(budget: int = C.MAX_CHARS_PER_LEVEL) -> int:
    return int(budget * C.FRESH_BUDGET_RATIO)


def cost_with(node: Node, edges: Iterable[Edge]) -> int:
    """The node's line and a citation under it for each of `edges`."""
    return line_cost(node_line(node.id, node.gist)) + sum(line_cost(citation_line(e, node.id)) for e in edges)


def alone_cost(graph: GraphReader, node_id: str) -> int:
    """What the node costs the view with no other node paying for its citations (as fresh_ids prices it)."""
    return cost_with(graph.nodes[node_id], (graph.edges[key] for key in graph.unorphaned_incident(node_id)))


def archived_at_once_note(cost: int, budget: int = C.MAX_CHARS_PER_LEVEL) -> str:
    over = (f"the level's whole budget of {budget:,}" if cost > budget else
            f"the {fresh_share(budget):,} a new node may take and stay protected")
    return (f"note: ARCHIVED at once: alone it renders {cost:,} characters, more than {over} (kg_search and "
            "kg_read(id) still find it); shorten the gist to a few sentences, the detail in notes, to keep it in view.")


def unpromotable_status(cost: int, budget: int = C.MAX_CHARS_PER_LEVEL) -> str:
    """A read's status for an archived node the read cannot bring back into view."""
    return (f"archived, and stays so: alone it renders {cost:,} characters, more than the level's whole budget "
            f"of {budget:,}; shorten the gist to a few sentences, the detail in notes, to bring it into view")
