"""Where a server's live heap grew between two of its debug snapshots (kg_actors/debug_heap.py).

    .venv/bin/python bench/heap_diff.py /tmp/heap/heap-2.snap /tmp/heap/heap-20.snap --top 25

Prints the total traced growth and the lines (or, with --by traceback, the call chains) that
grew most; with --by filename, per file.
"""

from __future__ import annotations

import argparse
import tracemalloc


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--by", choices=("lineno", "filename", "traceback"), default="lineno")
    args = ap.parse_args()
    old = tracemalloc.Snapshot.load(args.old)
    new = tracemalloc.Snapshot.load(args.new)
    stats = new.compare_to(old, args.by)
    total = sum(s.size_diff for s in stats)
    count = sum(s.count_diff for s in stats)
    print(f"traced growth {total / 1024:+.0f} KiB ({count:+d} blocks); "
          f"old {sum(s.size for s in old.statistics('filename')) / 1024:.0f} KiB, "
          f"new {sum(s.size for s in new.statistics('filename')) / 1024:.0f} KiB")
    for s in stats[:args.top]:
        print(f"{s.size_diff / 1024:+9.1f} KiB {s.count_diff:+8d} blocks  now {s.size / 1024:9.1f} KiB")
        for line in s.traceback.format()[-8:]:
            print(f"      {line}")


if __name__ == "__main__":
    main()
