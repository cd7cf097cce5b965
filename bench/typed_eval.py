"""How well core/typed.py keeps what a person typed and drops what they pasted (issue #12, item 2).

    .venv/bin/python bench/typed_eval.py [-v] [--typed typed_data_typed2 --pasted typed_data_pasted2]

On bench/typed_data_typed.py (150 typed prompts) and bench/typed_data_pasted.py (80 pastes, 50 typed lines
around a paste), both written blind and then used to mend the rules: a typed prompt that loses over a fifth of
its words, a paste that leaves any search word for recall, a mixed prompt that loses one of its typed lines or
keeps more than three pasted words. `-v` lists each.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

from kg_actors.core import recall, typed  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("-v", action="store_true", help="list each case that failed")
    ap.add_argument("--typed", default="typed_data_typed", help="the module of typed prompts (bench/)")
    ap.add_argument("--pasted", default="typed_data_pasted", help="the module of pastes (bench/)")
    args = ap.parse_args()
    typed_cases = importlib.import_module(args.typed).CASES
    pasted_cases = importlib.import_module(args.pasted).CASES
    verbose = args.v
    lost = []
    for case in typed_cases:
        text = case["text"]
        share = len(typed.typed_part(text).split()) / max(1, len(text.split()))
        if share < 0.8:
            lost.append((share, text))
    leaks, mixed_bad = [], []
    pastes = [c for c in pasted_cases if c["kind"] == "paste"]
    mixed = [c for c in pasted_cases if c["kind"] == "mixed"]
    for case in pastes:
        human = recall.human_text(case["text"])
        if human and recall.prompt_terms(human):
            leaks.append((typed.typed_part(case["text"]), case["text"]))
    for case in mixed:
        kept = typed.typed_part(case["text"]).split()
        wanted = {w for line in case["typed"] for w in line.split()}
        missing = [line for line in case["typed"] if not all(w in kept for w in line.split())]
        extra = [w for w in kept if w not in wanted]
        if missing or len(extra) > 3:
            mixed_bad.append((missing, extra, case["text"]))
    print(f"typed prompts losing over a fifth of their words: {len(lost)} of {len(typed_cases)}")
    print(f"pastes leaving search words: {len(leaks)} of {len(pastes)}")
    print(f"typed lines around a paste: {len(mixed_bad)} of {len(mixed)} lose a typed line or keep over 3 pasted words")
    if verbose:
        for share, text in lost:
            print(f"LOST {share:.2f} {text[:160]!r}")
        for kept, text in leaks:
            print(f"LEAK {kept[:120]!r} <- {text[:80]!r}")
        for missing, extra, text in mixed_bad:
            print(f"MIXED missing {missing} extra {extra[:10]} <- {text[:80]!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
