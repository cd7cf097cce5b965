"""A synthetic project graph for the editor benchmark: hubs, clusters, all three tiers.

Deterministic for a seed. Ids are 3-word kebab-case, gists a sentence, a few
notes and touches; edges follow preferential attachment so a few hubs carry
many edges, as real graphs do.
"""

from __future__ import annotations

import random

WORDS = ("cache auth token queue index parser render budget session graph store journal "
         "worker route schema config deploy metric trace retry limit socket editor layout search").split()
RELS = ("depends-on", "calls", "configures", "related-to", "instance-of", "implements", "persists")


def project_graph(n: int, project_path: str, seed: int = 7, now: float = 1_780_000_000.0) -> dict:
    rng = random.Random(seed)
    ids: list[str] = []
    nodes: dict[str, dict] = {}
    for i in range(n):
        node_id = f"{rng.choice(WORDS)}-{rng.choice(WORDS)}-{i}"
        ids.append(node_id)
        r = rng.random()
        node = {
            "id": node_id,
            "gist": f"{rng.choice(WORDS).capitalize()} {rng.choice(WORDS)} decides how {rng.choice(WORDS)} "
                    f"reaches the {rng.choice(WORDS)}; keep {rng.choice(WORDS)} bounded.",
            "notes": [f"case {i}: {rng.choice(WORDS)} broke when {rng.choice(WORDS)} was empty"],
            "touches": [f"src/{rng.choice(WORDS)}/{rng.choice(WORDS)}.py"],
            "_created_ts": now - (n - i) * 600,
        }
        if r < 0.55:
            node["_archived"] = True
        elif r < 0.75:
            node["_archived"] = True
            node["_orphaned_ts"] = now - 86_400
        nodes[node_id] = node
    edges: dict[str, dict] = {}
    targets: list[str] = []
    for i, node_id in enumerate(ids[1:], 1):
        for _ in range(rng.choice((1, 1, 2))):
            dst = rng.choice(targets) if targets and rng.random() < 0.7 else ids[rng.randrange(i)]
            rel = rng.choice(RELS)
            key = f"{node_id}->{dst}:{rel}"
            if dst != node_id and key not in edges:
                edges[key] = {"from": node_id, "to": dst, "rel": rel}
                targets.extend((dst, node_id))
    return {"nodes": nodes, "edges": edges, "_meta": {"project_path": project_path, "versions": {}}}
