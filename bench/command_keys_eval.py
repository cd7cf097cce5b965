"""What a shell command is known by to recall before it runs (issue #12, item 5), on commands written blind.

    .venv/bin/python bench/command_keys_eval.py [-v] [--data command_data2]

For each command of bench/command_data.py: the keys core/command_recall.py takes from harness/shell.py's
invocations (a program and its subcommand, a script, a build target), against what the command's writer said
it runs. A label is missed when no key says it (`npm run build` and `npm build` are the same key); a key is
extra when no label says it. A bare program (`pytest`, `psql`) is by design no key (it says too little to
recall on), so such labels are counted apart.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

from kg_actors.core.command_recall import SCRIPT_SUFFIXES, command_keys  # noqa: E402
from kg_actors.harness.shell import invocations  # noqa: E402


def _same(label: str, key: str) -> bool:
    a, b = (f" {x} ".replace(" run ", " ").replace(" task ", " ").strip() for x in (label, key))
    return a == b or a.startswith(b + " ") or b.startswith(a + " ")


def _bare(label: str) -> bool:
    return " " not in label and not label.endswith(SCRIPT_SUFFIXES)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("-v", action="store_true", help="list each command with a missed label or an extra key")
    ap.add_argument("--data", default="command_data", help="the module of commands (bench/)")
    args = ap.parse_args()
    cases = importlib.import_module(args.data).CASES
    verbose = args.v
    labels = missed = bare = extra = 0
    for case in cases:
        got = [k.label().lower() for k in command_keys(invocations(case["command"]))]
        want = [r.lower() for r in case["runs"]]
        miss = [w for w in want if not any(_same(w, g) for g in got)]
        more = [g for g in got if not any(_same(w, g) for w in want)]
        labels += len(want)
        bare += sum(_bare(w) for w in miss)
        missed += sum(not _bare(w) for w in miss)
        extra += len(more)
        if verbose and (miss or more):
            print(f"{case['command'][:100]!r}\n    missed {miss} extra {more}")
    print(f"{len(cases)} commands, {labels} labels: {missed} missed, {bare} bare programs (no key by "
          f"design), {extra} extra keys")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
