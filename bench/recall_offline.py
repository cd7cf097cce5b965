"""A fast, in-process companion of bench/recall_eval.py for tuning (issue #12).

    .venv/bin/python bench/recall_offline.py [--data recall_data|recall_heldout|recall_mixed13,recall_mixed14,...]
        [--misses] [--loud] [--set RECALL_RELATIVE_CUT=0.8 ...]

The real evaluation (recall_eval.py) drives a `kg serve` through its endpoints and takes minutes on
a loaded machine. This one writes the same memory through the real server once (so tiers and the
full read are exactly the eval's), caches the graph file and what the full read showed under
.bench/, then asks every prompt of the data set in-process: `recall.human_text`,
`recall.prompt_terms`, `recall.run` against a `SearchIndex` built as the server builds it.
It prints recall_eval's table (its latency is the decision's alone, in-process); its hit rate,
precision and silence matched the real run's exactly when it was written (84/123, 84/123, 58/60,
66/66 at c66845d); the real eval is what RESULTS-recall.md reports. `--misses` and `--loud` list
what was missed and what was injected unwanted; `--set` tries a constant without editing it. Several
splits given at once are pooled (each asked on its own memory), with their hits on real lessons and on
the memories' generated filler lessons counted apart.

`--held-out` estimates where the held-out evaluation of issue #12 stands, two ways:
* by kg-memory's outcome: our outcome on each prompt is split by kg-memory's on the same prompt (read from
  its committed run, RESULTS-recall-reference*.md), and the two rates are weighted as kg-memory's own are
  on the held-out set (0.89 hits, 0.68 silent there);
* by families of splits: the held-out set as a blend of the first two splits (recall_data and
  recall_heldout, whose unrelated prompts kg-memory mostly leaves alone) and the splits asked (whose
  unrelated prompts it nearly always answers), blended so that kg-memory's own rates on the two families
  give its held-out rates.
Run against the build the issue measured (fe84f98, `recall_eval.py --python`), the first way gave 0.52 hits
and 0.73 silence where the held-out set gave 0.46 and 0.84; the second 0.51 and 0.80 (bench/RESULTS-recall.md,
"How far an estimate of the held-out set can be trusted").
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import re
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))

import recall_eval  # noqa: E402

from kg_actors import meaning_table  # noqa: E402
from kg_actors.core import asks, recall  # noqa: E402
from kg_actors.core.model import GraphData  # noqa: E402
from kg_actors.core.search import SearchIndex  # noqa: E402



def cached_memory(module: str) -> tuple[dict, str]:
    """The graph file as the eval leaves it, and the text of a fresh session's full read."""
    cache = ROOT / ".bench" / f"offline-{module}.json"
    if cache.exists():
        held = json.loads(cache.read_text())
        return held["graph"], held["shown"]
    import httpx
    ev = recall_eval.Eval(recall_eval.run_dir("offline"), module)
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


def judge(text: str | None, needed: list[str]) -> dict:
    injected, primary = [], []
    for line in (text or "").splitlines():
        m = recall_eval.LINE.match(line)
        if m and m.group(4) == ": ":
            injected.append(m.group(3))
            if not m.group(1):
                primary.append(m.group(3))
    return {"injected": injected, "primary": primary, "chars": len(text or ""),
            "hit": bool(set(needed) & set(injected))}


FILLER = "-rule"


def loaded(name: str) -> tuple[dict, GraphData, SearchIndex, frozenset[str]]:
    """Split `name`'s data, its cached memory as a graph with its search index, and the ids a fresh
    session's full read showed."""
    data = importlib.import_module(name).build()
    raw, shown = cached_memory(name)
    graph = GraphData.from_json(raw, "project")
    gists = {n["id"]: n["gist"] for n in data["nodes"]}
    return data, graph, SearchIndex.build(graph), frozenset(i for i, g in gists.items() if g[:60] in shown)


def ask(name: str) -> tuple[list[dict], list[float]]:
    """Every prompt of split `name` asked in-process on its cached memory: the judged rows and latencies."""
    data, graph, index, seen = loaded(name)
    views = {"project": (graph, index)}
    tiers = {i: "orphaned" if n.orphaned_ts else "archived" if n.archived else "active"
             for i, n in graph.nodes.items()}
    rows, lat = [], []
    for p in data["prompts"]:
        t = time.perf_counter()
        text = recall.human_text(p["text"])
        terms = recall.prompt_terms(text) if text else []
        decision = recall.run(terms, views, frozenset(("project", i) for i in seen),
                              asks.ask_scale(text), "?" in text, text, meaning_table.shipped()) if terms and text else None
        lat.append(time.perf_counter() - t)
        needed = [x for x in p["labels"] if x not in seen]
        rows.append({**p, "pasted": p.get("pasted", False), "needed": needed, "tiers": [tiers[x] for x in needed],
                     **judge(decision and decision.text, needed), "decision": decision})
    return rows, lat


HELD_OUT_REFERENCE = {"hits": 0.89, "silent": 0.68}  # kg-memory 0.17 on the held-out set (issue #12's table)
_REF_LINE = re.compile(r"- (?:miss \[\w+\] [\w.-]+|unrelated): (.+?) -> \[")


EASY = ("recall_data", "recall_heldout")  # the family whose unrelated prompts kg-memory mostly leaves alone
_REF_RATE = re.compile(r"\| (hit rate|silence on unrelated prompts)\b[^|]*\| [\d.]+ \((\d+)/(\d+)\)")


def reference_file(name: str) -> Path:
    """Where kg-memory's committed run of split `name` is written down (the first split's has no suffix)."""
    suffix = "" if name == "recall_data" else "-" + name.removeprefix("recall_").replace("_", "-")
    return BENCH / f"RESULTS-recall-reference{suffix}.md"


def reference_outcomes(name: str) -> set[str] | None:
    """The prompts (their first 80 characters) kg-memory missed or spoke on unasked in its committed run of
    split `name`, or None when it has none."""
    path = reference_file(name)
    if not path.exists():
        return None
    return {ast.literal_eval(m.group(1)) for m in map(_REF_LINE.match, path.read_text().splitlines()) if m}


def reference_rates(names: list[str]) -> dict[str, float]:
    """kg-memory's hit rate and silence on unrelated prompts over its committed runs of `names`, pooled
    (each run's first table: the one of its prompts)."""
    counts = {"hit rate": [0, 0], "silence on unrelated prompts": [0, 0]}
    for name in names:
        found = {}
        for m in map(_REF_RATE.match, reference_file(name).read_text().splitlines()):
            if m:
                found.setdefault(m.group(1), (int(m.group(2)), int(m.group(3))))
        for metric, (part, whole) in found.items():
            counts[metric][0] += part
            counts[metric][1] += whole
    return {"hits": counts["hit rate"][0] / counts["hit rate"][1],
            "silent": counts["silence on unrelated prompts"][0] / counts["silence on unrelated prompts"][1]}


def _rates(rows: list[dict]) -> dict[str, float]:
    relevant = [r["hit"] for r in rows if r["kind"] == "relevant" and r["needed"]]
    unrelated = [not r["chars"] for r in rows if r["kind"] == "unrelated"]
    return {"hits": sum(relevant) / len(relevant), "silent": sum(unrelated) / len(unrelated)}


def family_estimate(easy_rows: list[dict], hard_rows: list[dict], ref_easy: dict[str, float],
                    ref_hard: dict[str, float]) -> list[str]:
    """Our rates on the two families of splits, blended as kg-memory's (`ref_easy`, `ref_hard`) must be to
    give its rates on the held-out set: one blend for hits, one for silence, each held within 0..1."""
    ours_easy, ours_hard = _rates(easy_rows), _rates(hard_rows)
    lines = []
    for metric, name in (("hits", "hits"), ("silent", "silence")):
        span = ref_easy[metric] - ref_hard[metric]
        weight = min(1.0, max(0.0, (HELD_OUT_REFERENCE[metric] - ref_hard[metric]) / span)) if span else 0.5
        blend = weight * ours_easy[metric] + (1 - weight) * ours_hard[metric]
        lines.append(f"{name} on {', '.join(EASY)} / the splits asked: {ours_easy[metric]:.3f} / {ours_hard[metric]:.3f} "
                     f"(kg-memory {ref_easy[metric]:.3f} / {ref_hard[metric]:.3f}, held out "
                     f"{HELD_OUT_REFERENCE[metric]:.2f}: weight {weight:.2f}); estimated held-out {name} {blend:.2f}")
    return lines


def held_out_estimate(rows: list[dict], failed: set[str]) -> list[str]:
    """Our hit and silence rates split by kg-memory's outcome on the same prompt, weighted as its are held out."""
    def rate(selected: list[bool]) -> tuple[float, int]:
        return (sum(selected) / len(selected) if selected else 0.0), len(selected)
    relevant = [r for r in rows if r["kind"] == "relevant" and r["needed"]]
    unrelated = [r for r in rows if r["kind"] == "unrelated"]
    hit_with, n1 = rate([r["hit"] for r in relevant if r["text"][:80] not in failed])
    hit_without, n2 = rate([r["hit"] for r in relevant if r["text"][:80] in failed])
    quiet_with, n3 = rate([not r["chars"] for r in unrelated if r["text"][:80] not in failed])
    quiet_without, n4 = rate([not r["chars"] for r in unrelated if r["text"][:80] in failed])
    h, q = HELD_OUT_REFERENCE["hits"], HELD_OUT_REFERENCE["silent"]
    return [f"hit where kg-memory hits / misses: {hit_with:.3f} (n={n1}) / {hit_without:.3f} (n={n2}); "
            f"estimated held-out hits {h * hit_with + (1 - h) * hit_without:.2f}",
            f"silent where kg-memory is silent / speaks: {quiet_with:.3f} (n={n3}) / {quiet_without:.3f} (n={n4}); "
            f"estimated held-out silence {q * quiet_with + (1 - q) * quiet_without:.2f}"]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="recall_data", help="a split of bench/, or several joined by commas (pooled)")
    ap.add_argument("--misses", action="store_true")
    ap.add_argument("--loud", action="store_true")
    ap.add_argument("--held-out", action="store_true", help="estimate the held-out figures from kg-memory's runs")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="override a constant of kg_actors.core.constants for this run")
    args = ap.parse_args()
    from kg_actors.core import constants
    for item in args.set:
        name, value = item.split("=", 1)
        setattr(constants, name, type(getattr(constants, name))(value))
    rows, lat, failed, without, by_split = [], [], set(), [], {}
    for name in args.data.split(","):  # several splits: their prompts pooled, each on its own memory
        asked, took = ask(name)
        by_split[name] = asked
        rows += asked
        lat += took
        outcomes = reference_outcomes(name)
        if outcomes is None:
            without.append(name)
        else:
            failed |= outcomes
    for name, value, goal in recall_eval.metrics(rows, lat):
        print(f"{name:<50} {value:<16} {goal}")
    filler = [r for r in rows if r["kind"] == "relevant" and r["needed"] and all(x.endswith(FILLER) for x in r["needed"])]
    if filler:  # the memories' generated "X Y rule" lessons (recall_data._filler): ids that say another aspect
        real = [r for r in rows if r["kind"] == "relevant" and r["needed"] and r not in filler]
        print(f"{'... labels that are real lessons':<50} {sum(r['hit'] for r in real)}/{len(real)}")
        print(f"{'... labels that are generated filler':<50} {sum(r['hit'] for r in filler)}/{len(filler)}")
    if args.held_out:
        if without:
            print(f"no run of kg-memory committed for {', '.join(without)}: leave them out of --held-out")
            return 2
        print("\n".join(held_out_estimate(rows, failed)))
        hard = [name for name in by_split if name not in EASY]
        if hard:
            easy_rows = [row for name in EASY for row in (by_split[name] if name in by_split else ask(name)[0])]
            hard_rows = [row for name in hard for row in by_split[name]]
            print("\n".join(family_estimate(easy_rows, hard_rows, reference_rates(list(EASY)), reference_rates(hard))))
    if args.misses:
        for r in (r for r in rows if r["kind"] == "relevant" and r["needed"]):
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
