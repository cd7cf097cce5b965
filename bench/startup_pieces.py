"""Start-up, piece by piece: the CPU of each step a `kg serve` start takes before the first kg_read(cwd),
in-process, for two builds, alternately, on the same 10,000-node store.

    .venv/bin/python bench/startup_pieces.py --before /tmp/base/.venv/bin/python [--after .venv/bin/python]
        [--rounds 3] [--restart]

Each round runs one fresh interpreter per build that imports the server as `kg serve` does, then reads
the project graph, builds its model, settles it and builds its derived state (debt's terms from the
terms file a previous start wrote, where the build keeps one), timing each with `time.process_time`.
The store is bench/workload.py's reference-format store (over budget: settling orphans ~8,300
anchors); with --restart, the store as a start of the after build settled and saved it (nothing to
settle), with the terms file that start wrote. Prints each round and the minimum per piece (CPU time
moves less with other work on a shared machine than wall time; the minimum is the least disturbed).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import driver  # noqa: E402
import workload  # noqa: E402

PIECES = ["imports", "json parse", "model build", "settle", "derived state", "total"]

# Run inside each build's interpreter: works with builds before and after the changes it measures.
TIMED = r'''
import sys, time
t0 = time.process_time()
from kg_actors import heap
if hasattr(heap, "pause_collector"):
    heap.pause_collector()  # as `kg serve` does, where the build does
import kg_actors.cli, kg_actors.runtime, kg_actors.http.tool_handlers
heap.tune()
t1 = time.process_time()
from pathlib import Path
from kg_actors import graph_loading as GL
from kg_actors.core import charge
from kg_actors.core.model import GraphData
from kg_actors.derived import build_derived
from kg_actors.storage import files
path = Path(sys.argv[1])
raw = files.load_json(path)
t2 = time.process_time()
graph = GraphData.from_json(raw, "project")
del raw
t3 = time.process_time()
charges = charge.ChargeIndex.build(graph)
GL.settle(graph, time.time(), charges=charges)
t4 = time.process_time()
if hasattr(GL, "term_cache"):
    from kg_actors.core import debt
    debt.seed_terms(graph, GL.term_cache.read(path))
build_derived(graph, time.time(), charges)
t5 = time.process_time()
if hasattr(heap, "resume_collector"):
    heap.resume_collector()
print(t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t5 - t0)
'''

# Run in the after build: settle and save the store as a start would, and write the terms file it writes.
RESTART = r'''
import sys, time
from pathlib import Path
from kg_actors.core import debt
from kg_actors.graph_loading import load_graph, settle_and_derive
from kg_actors.storage import term_cache
from kg_actors.storage.graph_file import write_snapshot
path = Path(sys.argv[1])
graph, _ = load_graph(path, "project", None)
settle_and_derive(graph, time.time())
write_snapshot(path, graph.snapshot_json())
term_cache.write(path, debt.term_rows(graph))
'''


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--before", required=True, help="the python of the build to compare against")
    p.add_argument("--after", default=str(BENCH.parent / ".venv/bin/python"))
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--nodes", type=int, default=10_000)
    p.add_argument("--restart", action="store_true", help="the store a start settled and saved")
    a = p.parse_args()
    for python in (a.before, a.after):
        driver.compile_bytecode(python)  # as an installed build has it (see there)
    base = BENCH.parent / ".bench" / "startup-pieces"
    shutil.rmtree(base, ignore_errors=True)
    storage, project = base / "store" / ".knowledge-graph", base / "store" / "code" / "bench-app"
    workload.build_store(storage, project, a.nodes, 1, time.time())
    source = storage / "projects" / "bench-app" / "graph.json"
    if a.restart:
        subprocess.run([a.after, "-c", RESTART, str(source)], check=True, cwd="/")
    rows: dict[str, list[list[float]]] = {"before": [], "after": []}
    for r in range(a.rounds):
        for name, python in (("before", a.before), ("after", a.after)):
            folder = base / name
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            path = folder / "graph.json"
            shutil.copy(source, path)
            terms = source.with_name(source.name + ".terms.jsonl")
            if terms.exists():
                shutil.copy(terms, path.with_name(path.name + ".terms.jsonl"))
            out = subprocess.run([python, "-c", TIMED, str(path)], capture_output=True, text=True, check=True, cwd="/")
            got = [float(x) for x in out.stdout.split()]
            rows[name].append(got)
            print(f"{name} round {r + 1}: " + ", ".join(f"{n} {v:.3f}" for n, v in zip(PIECES, got))
                  + f" (load {os.getloadavg()[0]:.1f})", flush=True)
    print(f"\n| piece, CPU s (min of {a.rounds}) | before | after |\n|---|---|---|")
    for i, name in enumerate(PIECES):
        print(f"| {name} | {min(x[i] for x in rows['before']):.3f} | {min(x[i] for x in rows['after']):.3f} |")
    shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
