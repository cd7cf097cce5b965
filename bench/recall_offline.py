"""A fast, in-process companion of bench/recall_eval.py for tuning (issue #12).

    .venv/bin/python bench/recall_offline.py [--data recall_data|recall_heldout] [--misses]

The real evaluation (recall_eval.py) drives a `kg serve` through its endpoints and takes minutes on
a loaded machine. This one writes the same memory through the real server once (so tiers and the
full read are exactly the eval's), caches the graph file and what the full read showed under
.bench/, then asks every prompt of the data set in-process: `recall.human_text`,
`recall.prompt_terms`, `recall.run` against a `SearchIndex` built as the server builds it.
Its figures match the real run's hit rate, precision and silence (checked when it was written);
the real eval is what RESULTS-recall.md reports.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))

from kg_actors.core import recall  # noqa: E402
from kg_actors.core.model import GraphData  # noqa: E402
from kg_actors.core.search import SearchIndex  # noqa: E402

LINE = re.compile(r"^(\s*)- \[(user|project)\] (\S+?)(: | \(in context\))")


def cached_memory(module: str) -> tuple[dict, str]:
    """The graph file as the eval leaves it, and the text of a fresh session's full read."""
    cache = ROOT / ".bench" / f"offline-{module}.json"
    if cache.exists():
        held = json.loads(cache.read_text())
        return held["graph"], held["shown"]
    import httpx
    import recall_eval
    ev = recall_eval.Eval(ROOT / ".bench" / "runs" / f"offline-{int(time.time())}", module)
    try:
        ev.write_memory()
        with httpx.Client(timeout=60) as client:
            _, shown = ev.session(client)
        graph_file = next((ev.srv.store / "projects").glob("*/graph.json"))
    finally:
        ev.srv.stop()
    graph = json.loads(graph_file.read_text())
    cache.parent.mkdir(exist_ok=True)
    cache.write_text(json.dumps({"graph": graph, "shown": shown}))
    return graph, shown


def judge(labels: list[str], text: str | None, needed: list[str]) -> dict:
    injected, primary = [], []
    for line in (text or "").splitlines():
        m = LINE.match(line)
        if m and m.group(4) == ": ":
            injected.append(m.group(3))
            if not m.group(1):
                primary.append(m.group(3))
    return {"injected": injected, "primary": primary, "chars": len(text or ""),
            "hit": bool(set(needed) & set(injected))}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="recall_data")
    ap.add_argument("--misses", action="store_true")
    ap.add_argument("--loud", action="store_true")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="override a constant of kg_actors.core.constants for this run")
    args = ap.parse_args()
    from kg_actors.core import constants
    for item in args.set:
        name, value = item.split("=", 1)
        setattr(constants, name, type(getattr(constants, name))(value))
    data = importlib.import_module(args.data).build()
    raw, shown = cached_memory(args.data)
    graph = GraphData.from_json(raw, "project")
    index = SearchIndex.build(graph)
    gists = {n["id"]: n["gist"] for n in data["nodes"]}
    seen = frozenset(i for i, g in gists.items() if g[:60] in shown)
    views = {"project": (graph, index)}
    rows = []
    t0 = time.perf_counter()
    lat = []
    for p in data["prompts"]:
        t = time.perf_counter()
        text = recall.human_text(p["text"])
        terms = recall.prompt_terms(text) if text else []
        decision = recall.run(terms, views, seen) if terms else None
        lat.append(time.perf_counter() - t)
        needed = [x for x in p["labels"] if x not in seen]
        row = {**p, "needed": needed, **judge(p["labels"], decision and decision.text, needed),
               "decision": decision}
        rows.append(row)
    rel = [r for r in rows if r["kind"] == "relevant" and r["needed"]]
    inj = sum(len(r["injected"]) for r in rows)
    wanted = sum(len(set(r["injected"]) & set(r["labels"])) for r in rows)
    prim = sum(len(r["primary"]) for r in rows)
    prim_wanted = sum(len(set(r["primary"]) & set(r["labels"])) for r in rows)
    unrel = [r for r in rows if r["kind"] == "unrelated"]
    noise = [r for r in rows if r["kind"] == "noise"]
    hit = sum(r["hit"] for r in rel)
    lat.sort()
    print(f"hit {hit}/{len(rel)} = {hit / len(rel):.3f}  prec {wanted}/{inj} = {wanted / max(1, inj):.3f}  "
          f"primary {prim_wanted}/{prim} = {prim_wanted / max(1, prim):.3f}  "
          f"unrel silent {sum(not r['chars'] for r in unrel)}/{len(unrel)}  "
          f"noise silent {sum(not r['chars'] for r in noise)}/{len(noise)}  "
          f"chars/prompt {sum(r['chars'] for r in rows) / len(rows):.0f}  "
          f"p50/p99 {lat[len(lat) // 2] * 1e3:.2f}/{lat[int(len(lat) * .99)] * 1e3:.2f} ms  "
          f"total {time.perf_counter() - t0:.2f} s")
    if args.misses:
        for r in rel:
            if not r["hit"]:
                d = r["decision"]
                print(f"MISS {r['needed'][0]}: {r['text'][:90]!r} -> {r['injected']} "
                      f"[{d.reason if d else 'none'}] {[(h['id'], h['score'], h['matched_terms']) for h in (d.hits if d else ())][:3]}")
    if args.loud:
        for r in rows:
            if r["kind"] == "relevant" and set(r["injected"]) - set(r["labels"]):
                print(f"EXTRA {r['labels'][0]}: {r['text'][:70]!r} -> {r['injected']}")
            if r["kind"] != "relevant" and r["chars"]:
                print(f"LOUD {r['kind']}: {r['text'][:70]!r} -> {r['injected']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
